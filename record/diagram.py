"""Shot diagrams: one billiards shot drawn to scale as SVG text, for the match report.

The table comes from ``arbiter.tables`` (playing area at the cushion noses, cushions, pockets, marked lines
and spots, pins), the balls at rest from the shot's ``shot_end``, their colours from ``arbiter.balls``. Given
the run's ``tracks.jsonl`` (one line per frame: ``{"frame", "t", "balls": {id: [x_mm, y_mm]}}``, written by
``pipeline.referee_video``) it also draws the path of every ball that moved, where each started, and where
contacts and cushion hits happened (each ball's position interpolated at the event's time). Pots are marked
at their pocket whether or not tracks are given.

Drawn landscape: the table's ``y`` (along it, from the bottom cushion) runs to the right and its ``x``
(across) runs down, a quarter turn of the view from the bottom cushion, so the bottom cushion is on the left
and the ``ml`` pocket at the top. The SVG's user units are table millimetres (``viewBox``), so every figure is
written as it is in the contract. No external assets: the text embeds as is in an HTML page.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import cast

from arbiter import contract as c
from arbiter.balls import PIN_RGB, PIN_WHITE
from arbiter.games import BilliardsSpec
from arbiter.tables import TableModel

XY = tuple[float, float]
TrackFrame = tuple[float, Mapping[str, XY]]  # (t, {ball: (x_mm, y_mm)}) for one frame

RAIL_MM = 90.0  # wood drawn outside the cushions
MOVED_MM = 10.0  # a ball whose track strays farther than this from its start moved in the shot
SPOT_MM = 6.0  # radius of a drawn spot
MARK_MM = 4.0  # stroke width of contact and cushion markers
POT_RING_MM = 16.0  # width of the ring around a pocket that a ball went into
UNKNOWN_RGB = (150, 150, 150)  # an id the game's ball set lacks (a mis-identified track)
BALL_RIM_MM = 5.0  # a light rim, so that a green or a black ball shows on the cloth
BALL_EDGE: Mapping[str, object] = {"stroke": "#f4f4f4", "stroke_width": BALL_RIM_MM}

CLOTH = "#1f6f43"
CUSHION = "#17583a"
RAIL = "#5b3a1e"
POCKET = "#101010"
MARKINGS = "#d8e8dc"


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def ball_colour(spec: BilliardsSpec, ball: str) -> str:
    """The fill of ``ball``: its body colour (``BilliardsSpec.look``), grey for an id the game lacks."""
    look = spec.looks.get(ball)
    return _hex(look.rgb if look is not None else UNKNOWN_RGB)


def _n(v: float) -> str:
    """A length at the contract's precision (``contract.MM_PLACES``), without trailing zeros."""
    text = f"{v:.{c.MM_PLACES}f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _pt(xy: XY) -> tuple[str, str]:
    """Table (x_mm, y_mm) to drawing (across the page, down the page): y to the right, x down."""
    return _n(xy[1]), _n(xy[0])


# --- tracks ----------------------------------------------------------------------------------------------


def read_tracks(path: str | os.PathLike[str]) -> list[TrackFrame]:
    """The frames of a ``tracks.jsonl`` file in time order. A bad line raises ``ValueError`` naming it."""
    frames: list[TrackFrame] = []
    with open(path, encoding="utf-8") as fh:
        for line_no, text in enumerate(fh, start=1):
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
                t = float(obj["t"])
                balls = dict(_track_balls(obj["balls"]))
            except (ValueError, KeyError, TypeError, IndexError, AttributeError) as e:
                raise ValueError(
                    f"{path}: line {line_no}: not a tracks line "
                    f'{{"frame", "t", "balls": {{id: [x_mm, y_mm]}}}} ({e})'
                ) from None
            frames.append((t, balls))
    frames.sort(key=lambda f: f[0])
    return frames


def _track_balls(balls: Mapping[str, object]) -> Iterable[tuple[str, XY]]:
    """``{id: [x, y]}`` (a run's tracks) or ``{id: {"xy_mm": [x, y], "pocketed": ...}}`` (synthetic truth)."""
    for ball, value in balls.items():
        if isinstance(value, Mapping):
            if value.get("pocketed"):
                continue
            value = value["xy_mm"]
        x, y = cast(Sequence[float], value)
        yield str(ball), (float(x), float(y))


def _as_frames(tracks: Sequence[TrackFrame] | str | os.PathLike[str] | None) -> list[TrackFrame]:
    if tracks is None:
        return []
    if isinstance(tracks, str | os.PathLike):
        return read_tracks(tracks)
    return list(tracks)


def position_at(frames: Sequence[TrackFrame], ball: str, t: float) -> XY | None:
    """Where ``ball`` was at time ``t``: linear between the frames around ``t`` that saw it; None if none."""
    before: tuple[float, XY] | None = None
    after: tuple[float, XY] | None = None
    for ft, balls in frames:
        if ball not in balls:
            continue
        if ft <= t:
            before = (ft, balls[ball])
        else:
            after = (ft, balls[ball])
            break
    if before is None or after is None:
        return before[1] if before is not None else (after[1] if after is not None else None)
    (t0, (x0, y0)), (t1, (x1, y1)) = before, after
    w = (t - t0) / (t1 - t0)
    return (x0 + w * (x1 - x0), y0 + w * (y1 - y0))


# --- grouping a match into shots -------------------------------------------------------------------------


def split_shots(lines: Iterable[c.JsonLine]) -> list[list[c.JsonLine]]:
    """The match's lines grouped by shot: the player inputs before it, ``shot_start`` .. ``shot_end``, and
    the decisions after it (up to the next shot's inputs). Lines after the last shot (a concession and its
    decision) join the last group; a match without shots (dice) gives no groups.

    Decisions are placed where they were recorded (a live recording writes each after its ``shot_end``). A
    shot left without one (decisions appended at the end, by ``referee_into`` on an imported run) takes the
    decision whose ``shot`` number is its own (shots numbered from 1).
    """
    groups: list[list[c.JsonLine]] = []
    pending: list[c.JsonLine] = []
    in_shot = False
    for line in lines:
        if isinstance(line, c.ShotStart):
            groups.append([*pending, line])
            pending, in_shot = [], True
        elif in_shot:
            groups[-1].append(line)
            in_shot = not isinstance(line, c.ShotEnd)
        elif isinstance(line, c.Decision) and groups and not pending:
            groups[-1].append(line)
        else:
            pending.append(line)
    if pending and groups:
        groups[-1].extend(pending)
    _pair_by_number(groups)
    return groups


def _pair_by_number(groups: list[list[c.JsonLine]]) -> None:
    """Where a shot has no decision, every decision moves to the shot its number names (when there is one)."""
    if all(any(isinstance(x, c.Decision) for x in g) for g in groups):
        return
    for group in groups:
        for d in [x for x in group if isinstance(x, c.Decision)]:
            if 1 <= d.shot <= len(groups) and groups[d.shot - 1] is not group:
                group.remove(d)
                groups[d.shot - 1].append(d)


# --- drawing ---------------------------------------------------------------------------------------------


def _el(tag: str, attrs: Mapping[str, object], title: str | None = None) -> str:
    """One SVG element; attribute values are escaped, floats written to 0.01 mm."""
    text = " ".join(f'{k.rstrip("_").replace("_", "-")}="{escape(_v(v))}"' for k, v in attrs.items())
    if title is None:
        return f"<{tag} {text}/>"
    return f"<{tag} {text}><title>{escape(title)}</title></{tag}>"


def _v(value: object) -> str:
    return _n(value) if isinstance(value, float) else str(value)


def _frame(table: TableModel) -> list[str]:
    """The wooden rail, the cushions and the cloth (the playing area at the cushion noses)."""
    w, length = table.width_mm, table.length_mm
    cw = table.cushion_width_mm
    rail = {
        "class_": "rail",
        "x": -cw - RAIL_MM,
        "y": -cw - RAIL_MM,
        "width": length + 2 * (cw + RAIL_MM),
        "height": w + 2 * (cw + RAIL_MM),
        "rx": 40,
        "fill": RAIL,
    }
    cushions = {"class_": "cushions", "x": -cw, "y": -cw, "width": length + 2 * cw, "height": w + 2 * cw}
    cloth = {"class_": "cloth", "x": 0, "y": 0, "width": length, "height": w, "fill": CLOTH}
    return [
        _el("rect", rail),
        _el("rect", {**cushions, "fill": CUSHION}),
        _el("rect", {**cloth, "stroke": "#0c3d24", "stroke_width": 3}, "playing area at the cushion noses"),
    ]


def _markings(table: TableModel) -> list[str]:
    """The marked lines across the table, the arcs (the D) and the spots."""
    mark = {"fill": "none", "stroke": MARKINGS, "stroke_width": 3, "opacity": 0.7}
    out = []
    for ln in table.lines:
        across = {"x1": ln.y_mm, "y1": 0, "x2": ln.y_mm, "y2": table.width_mm}
        out.append(_el("line", {"class_": "mark", "data_line": ln.name, **across, **mark}))
    for arc in table.arcs:
        cx, cy = arc.centre_xy_mm
        r = arc.radius_mm
        sweep = 0 if arc.toward == "bottom" else 1  # anticlockwise from the top: the D bulges left
        (ax, ay), (bx, by) = _pt((cx - r, cy)), _pt((cx + r, cy))
        d = f"M {ax} {ay} A {_n(r)} {_n(r)} 0 0 {sweep} {bx} {by}"
        out.append(_el("path", {"class_": "mark", "data_arc": arc.name, "d": d, **mark}))
    for name, xy in table.spots.items():
        x, y = _pt(xy)
        spot = {"class_": "spot", "data_spot": name, "cx": x, "cy": y, "r": SPOT_MM, "fill": MARKINGS}
        out.append(_el("circle", {**spot, "opacity": 0.8}))
    return out


def _pockets_and_pins(table: TableModel) -> list[str]:
    out = []
    for pocket in table.pockets:
        x, y = _pt(pocket.mouth_xy_mm)
        attrs = {"class_": "pocket", "data_pocket": pocket.id, "cx": x, "cy": y, "r": pocket.opening_mm / 2}
        out.append(_el("circle", {**attrs, "fill": POCKET}, f"pocket {pocket.id}"))
    for pin in table.pins:
        x, y = _pt(pin.xy_mm)
        fill = _hex(PIN_RGB.get(pin.id, PIN_WHITE))
        attrs = {"class_": "pin", "data_pin": pin.id, "cx": x, "cy": y, "r": pin.head_diameter_mm / 2}
        out.append(_el("circle", {**attrs, "fill": fill, "stroke": "#222", "stroke_width": 1.5}, pin.id))
    return out


def _table(table: TableModel) -> list[str]:
    """The table to scale: rail, cushions, cloth, markings, pockets and pins, in drawing order."""
    return [*_frame(table), *_markings(table), *_pockets_and_pins(table)]


def _window(shot: Sequence[c.JsonLine]) -> tuple[float, float] | None:
    times = [ln.t for ln in shot if getattr(ln, "t", None) is not None]  # type: ignore[attr-defined]
    return (min(times), max(times)) if times else None


def _paths(
    spec: BilliardsSpec, table: TableModel, shot: Sequence[c.JsonLine], frames: list[TrackFrame]
) -> list[str]:
    window = _window(shot)
    if window is None or not frames:
        return []
    t0, t1 = window
    seen: dict[str, list[XY]] = {}
    for t, balls in frames:
        if t0 <= t <= t1:
            for ball, xy in balls.items():
                seen.setdefault(ball, []).append(xy)
    pots = {ln.ball: table.pocket(ln.pocket).mouth_xy_mm for ln in shot if isinstance(ln, c.Pot)}
    out: list[str] = []
    for ball, points in seen.items():
        if ball in pots:
            points = [*points, pots[ball]]
        start = points[0]
        if max(math.dist(start, p) for p in points) <= MOVED_MM:
            continue
        colour = ball_colour(spec, ball)
        sx, sy = _pt(start)
        start_attrs = {"class_": "start", "data_ball": ball, "cx": sx, "cy": sy, "r": table.ball_radius_mm}
        out.append(
            _el(
                "circle",
                {
                    **start_attrs,
                    "fill": "none",
                    "stroke": colour,
                    "stroke_width": 3,
                    "stroke_dasharray": "8 6",
                },
            )
        )
        path_attrs = {
            "class_": "path",
            "data_ball": ball,
            "points": " ".join(",".join(_pt(p)) for p in points),
        }
        style = {
            "stroke_width": table.ball_radius_mm * 0.5,
            "stroke_linejoin": "round",
            "stroke_linecap": "round",
        }
        out.append(
            _el(
                "polyline",
                {**path_attrs, "fill": "none", "stroke": colour, **style, "opacity": 0.85},
                f"{ball}'s path",
            )
        )
    return out


def _contacts(shot: Sequence[c.JsonLine], frames: list[TrackFrame], radius: float) -> list[str]:
    """Ball-ball contacts at the midpoint of the two centres, cushion hits at the ball, both from tracks."""
    if not frames:
        return []
    out: list[str] = []
    for ln in shot:
        if isinstance(ln, c.BallBall):
            a, b = (position_at(frames, ball, ln.t) for ball in ln.balls)
            if a is None or b is None:
                continue
            x, y = _pt(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
            attrs = {
                "class_": "contact",
                "data_balls": " ".join(ln.balls),
                "cx": x,
                "cy": y,
                "r": radius * 0.6,
            }
            ring = {"fill": "none", "stroke": "#ffffff", "stroke_width": MARK_MM}
            out.append(_el("circle", {**attrs, **ring}, f"{ln.balls[0]} hits {ln.balls[1]} at {ln.t:.2f} s"))
        elif isinstance(ln, c.Cushion):
            p = position_at(frames, ln.ball, ln.t)
            if p is None:
                continue
            x, y = _pt(p)
            size = radius * 0.5
            attrs = {
                "class_": "cushion-hit",
                "data_ball": ln.ball,
                "x": x,
                "y": y,
                "width": size,
                "height": size,
            }
            title = f"{ln.ball} hits the {ln.side} cushion at {ln.t:.2f} s"
            out.append(_el("rect", {**attrs, "transform": f"rotate(45 {x} {y})", "fill": "#ffd54a"}, title))
    return out


def _pots(spec: BilliardsSpec, table: TableModel, shot: Sequence[c.JsonLine]) -> list[str]:
    out: list[str] = []
    for ln in shot:
        if not isinstance(ln, c.Pot):
            continue
        pocket = table.pocket(ln.pocket)
        x, y = _pt(pocket.mouth_xy_mm)
        attrs = {"class_": "pot", "data_ball": ln.ball, "data_pocket": ln.pocket, "cx": x, "cy": y}
        r = pocket.opening_mm / 2 + POT_RING_MM
        halo = {
            "cx": x,
            "cy": y,
            "r": r,
            "fill": "none",
            "stroke": "#ffffff",
            "stroke_width": POT_RING_MM * 1.6,
        }
        ring = {"r": r, "fill": "none", "stroke": ball_colour(spec, ln.ball), "stroke_width": POT_RING_MM}
        title = f"{ln.ball} potted in {ln.pocket} at {ln.t:.2f} s"
        out.append(_el("circle", {"class_": "pot-halo", **halo}))  # shows a black ball's ring on a pocket
        out.append(_el("circle", {**attrs, **ring}, title))
    return out


def _balls(spec: BilliardsSpec, radius: float, shot: Sequence[c.JsonLine]) -> list[str]:
    end = next((ln for ln in reversed(shot) if isinstance(ln, c.ShotEnd)), None)
    out: list[str] = []
    if end is not None:
        for ball, xy in end.positions.items():
            x, y = _pt(xy)
            attrs = {"class_": "ball", "data_ball": ball, "cx": x, "cy": y, "r": radius}
            out.append(
                _el(
                    "circle",
                    {**attrs, "fill": ball_colour(spec, ball), **BALL_EDGE},
                    ball,
                )
            )
    for d in shot:
        if isinstance(d, c.Decision):
            for r in d.respot:
                x, y = _pt(r.xy_mm)
                attrs = {
                    "class_": "respot",
                    "data_ball": r.ball,
                    "cx": x,
                    "cy": y,
                    "r": radius,
                    "fill": "none",
                }
                dashed = {"stroke": ball_colour(spec, r.ball), "stroke_width": 3, "stroke_dasharray": "5 4"}
                out.append(_el("circle", {**attrs, **dashed}, f"{r.ball} re-spotted"))
    return out


def shot_svg(
    spec: BilliardsSpec,
    shot_events: Sequence[c.JsonLine],
    tracks: Sequence[TrackFrame] | str | os.PathLike[str] | None = None,
    width_px: int = 480,
    title: str | None = None,
) -> str:
    """One shot as an SVG element: the table to scale, balls at rest at ``shot_end``, pots at their pockets,
    and with ``tracks`` (frames, or a ``tracks.jsonl`` path) the paths, start places and contacts.

    ``shot_events`` is one group of ``split_shots`` (or any lines of one shot).
    """
    table = spec.table
    frames = _as_frames(tracks)
    pad = table.cushion_width_mm + RAIL_MM
    view_w = table.length_mm + 2 * pad
    view_h = table.width_mm + 2 * pad
    height_px = round(width_px * view_h / view_w)
    label = title or "shot diagram"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="shot" viewBox="{_n(-pad)} {_n(-pad)} {_n(view_w)}'
        f' {_n(view_h)}" width="{width_px}" height="{height_px}" role="img" aria-label="{escape(label)}">',
        f"<title>{escape(label)}</title>",
        *_table(table),
        *_paths(spec, table, shot_events, frames),
        *_contacts(shot_events, frames, table.ball_radius_mm),
        *_pots(spec, table, shot_events),
        *_balls(spec, table.ball_radius_mm, shot_events),
        "</svg>",
    ]
    return "\n".join(parts)


def shot_svgs(
    spec: BilliardsSpec,
    lines: Iterable[c.JsonLine],
    tracks: Sequence[TrackFrame] | str | os.PathLike[str] | None = None,
    width_px: int = 480,
) -> list[str]:
    """A diagram per shot of a match (``split_shots``), the tracks file read once."""
    frames = _as_frames(tracks)
    return [shot_svg(spec, shot, frames, width_px) for shot in split_shots(lines)]


__all__ = ["TrackFrame", "ball_colour", "position_at", "read_tracks", "shot_svg", "shot_svgs", "split_shots"]
