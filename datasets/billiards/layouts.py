"""Where the balls stand before a shot: opening racks from the rules and plausible mid-game positions.

What differs between games (the rack, the area of a cue ball in hand, which balls are gone later in a frame)
is data in ``world.WORLDS``; this module only follows it.
"""

from __future__ import annotations

import math

import numpy as np

from arbiter.balls import kind
from arbiter.games import BilliardsSpec
from arbiter.tables import Arc, TableModel

from .world import InHand, Thinning, Triangle, world_of

XY = tuple[float, float]
# Racked balls touch in play; a hair of space keeps the engine from starting with overlapping balls.
RACK_GAP_MM = 0.05
TRIANGLE_ROWS = 5  # fifteen balls
APEX_CLEARANCE_MM = 1.0  # between a triangle racked behind a spot and the ball on that spot
PLACE_TRIES = 500  # random places tried for a ball before giving up
NEAR_BALL_SHARE = 0.25  # of mid-game balls placed near another one: clusters and kisses happen
ON_SPOT_SHARE = 0.6  # of mid-game balls that have a spot and stand on it (when it is free)


def _triangle(apex: XY, r: float, rows: int, upward: bool = True) -> list[XY]:
    """Centres of a tight triangle rack, row by row from the apex, each row left to right."""
    d = 2 * r + RACK_GAP_MM
    sign = 1 if upward else -1
    out = []
    for k in range(rows):
        for j in range(k + 1):
            out.append((apex[0] + (j - k / 2) * d, apex[1] + sign * k * d * math.sqrt(3) / 2))
    return out


def in_hand_region(spec: BilliardsSpec) -> str:
    """The name of the area a cue ball in hand is placed in (for docs and metadata)."""
    return world_of(spec).in_hand.region


def _arc(table: TableModel, name: str) -> Arc:
    return next(a for a in table.arcs if a.name == name)


def _in_hand_xy(table: TableModel, area: InHand, rng: np.random.Generator) -> XY:
    """A random point of the in-hand area: uniform over the arc's half-disc, else behind the line."""
    if area.arc is not None:
        arc = _arc(table, area.arc)
        a0 = math.pi if arc.toward == "bottom" else 0.0
        ang = rng.uniform(a0, a0 + math.pi)
        rad = arc.radius_mm * math.sqrt(rng.uniform(0, 1))
        return (arc.centre_xy_mm[0] + rad * math.cos(ang), arc.centre_xy_mm[1] + rad * math.sin(ang))
    r = table.ball_radius_mm
    limit = table.line(area.line).y_mm if area.line is not None else table.length_mm
    return (rng.uniform(r, table.width_mm - r), rng.uniform(r, limit))


def place_in_hand(spec: BilliardsSpec, rng: np.random.Generator, taken: dict[str, XY]) -> XY:
    """A legal place for a cue ball in hand, clear of every other ball: inside the D (snooker), behind the
    head string (14.1), in the home (pyramid), in the bottom half (five-pins)."""
    area = world_of(spec).in_hand
    for _ in range(PLACE_TRIES):
        xy = _in_hand_xy(spec.table, area, rng)
        if _clear(xy, taken, spec.table):
            return xy
    raise RuntimeError(f"no free place for the cue ball in the {area.region}")


def _clear(xy: XY, taken: dict[str, XY], table: TableModel, extra_mm: float = 1.0) -> bool:
    r = table.ball_radius_mm
    if not table.on_table(xy, margin_mm=r + extra_mm):
        return False
    for pin in table.pins:
        if math.dist(xy, pin.xy_mm) < r + pin.head_diameter_mm / 2 + extra_mm:
            return False
    return all(math.dist(xy, other) >= 2 * r + extra_mm for other in taken.values())


def _racked(spec: BilliardsSpec, triangle: Triangle, rng: np.random.Generator) -> dict[str, XY]:
    """The triangle's balls on their places: the fixed ones first, then the others in order or shuffled."""
    table, r = spec.table, spec.table.ball_radius_mm
    apex = table.spots[triangle.apex_spot]
    if triangle.behind_spot:
        apex = (apex[0], apex[1] + 2 * r + APEX_CLEARANCE_MM)
    places = _triangle(apex, r, TRIANGLE_ROWS)
    balls = [
        b for b in spec.balls if b != spec.cue_ball and (triangle.kind is None or kind(b) == triangle.kind)
    ]
    rest = [b for b in balls if b not in triangle.fixed]
    if triangle.shuffled:
        rng.shuffle(rest)
    free = [xy for i, xy in enumerate(places) if i not in triangle.fixed.values()]
    return {**{b: places[i] for b, i in triangle.fixed.items()}, **dict(zip(rest, free, strict=True))}


def _break_from_beside(table: TableModel, beside: str, arc: Arc, rng: np.random.Generator) -> XY:
    """The cue ball in the in-hand ``arc`` beside the spot ``beside``, toward either end of the arc and a
    little behind the spot."""
    r = table.ball_radius_mm
    side = float(rng.choice([-1.0, 1.0]))
    behind = -1.0 if arc.toward == "bottom" else 1.0
    spot = table.spots[beside]
    return (
        spot[0] + side * rng.uniform(2.5 * r, arc.radius_mm - 2.5 * r),
        spot[1] + behind * rng.uniform(0.0, 3 * r),
    )


def opening(spec: BilliardsSpec, rng: np.random.Generator) -> dict[str, XY]:
    """The break position of the game's rules text, the cue ball in hand placed at random."""
    world = world_of(spec)
    layout: dict[str, XY] = {}
    if world.opening.triangle is not None:
        layout.update(_racked(spec, world.opening.triangle, rng))
    layout.update({b: spec.table.spots[spot] for b, spot in world.opening.on_spots.items()})
    beside, arc = world.opening.cue_beside, world.in_hand.arc
    if beside is not None and arc is not None:
        layout[spec.cue_ball] = _break_from_beside(spec.table, beside, _arc(spec.table, arc), rng)
    else:
        layout[spec.cue_ball] = place_in_hand(spec, rng, layout)
    return layout


def break_fits(spec: BilliardsSpec) -> bool:
    """Whether the game's break position fits its table: on a smaller table of the catalogue the balls keep
    their full size (``arbiter.tables.scaled``), and a snooker triangle of fifteen reds behind the pink then
    reaches the black on its spot (6 ft)."""
    layout = opening(spec, np.random.default_rng(0))
    r = spec.table.ball_radius_mm
    pts = np.array(list(layout.values()), dtype=float)
    apart = np.linalg.norm(pts[:, None] - pts[None], axis=-1) + np.eye(len(pts)) * 1e9
    return bool(apart.min() >= 2 * r * 0.999) and all(
        spec.table.on_table(p, r * 0.999) for p in layout.values()
    )


def _still_on(spec: BilliardsSpec, thinning: Thinning, rng: np.random.Generator) -> list[str]:
    """The object balls still on the table later in a frame."""
    objects = [b for b in spec.balls if b != spec.cue_ball]
    if thinning is Thinning.NONE:
        return objects
    if thinning is Thinning.ANY:
        return [str(b) for b in rng.permutation(objects)[: int(rng.integers(1, len(objects) + 1))]]
    all_reds = [b for b in objects if kind(b) == "red"]
    reds = all_reds[: int(rng.integers(0, len(all_reds) + 1))]
    colours = [b for b in objects if kind(b) != "red"]
    if not reds:  # colours leave in order once the reds are gone
        colours = colours[int(rng.integers(0, len(colours))) :]
    return reds + colours


def _scatter(table: TableModel, layout: dict[str, XY], rng: np.random.Generator) -> XY | None:
    """A free place anywhere on the cloth or, sometimes, near a ball already placed."""
    r = table.ball_radius_mm
    for _ in range(PLACE_TRIES):
        if layout and rng.random() < NEAR_BALL_SHARE:
            near = layout[str(rng.choice(list(layout)))]
            ang = rng.uniform(0, 2 * math.pi)
            dist = 2 * r + rng.uniform(2.0, 4 * r)
            xy = (near[0] + dist * math.cos(ang), near[1] + dist * math.sin(ang))
        else:
            xy = (rng.uniform(r, table.width_mm - r), rng.uniform(r, table.length_mm - r))
        if _clear(xy, layout, table):
            return xy
    return None


def midgame(spec: BilliardsSpec, rng: np.random.Generator) -> dict[str, XY]:
    """A plausible position later in a frame: some object balls gone, the rest scattered, some in clusters
    or on their spots, the cue ball anywhere."""
    table = spec.table
    layout: dict[str, XY] = {}
    for bid in _still_on(spec, world_of(spec).thinning, rng):
        home = table.spots.get(bid)
        if home is not None and rng.random() < ON_SPOT_SHARE and _clear(home, layout, table):
            layout[bid] = home
            continue
        xy = _scatter(table, layout, rng)
        if xy is not None:
            layout[bid] = xy
    r = table.ball_radius_mm
    for _ in range(PLACE_TRIES):
        xy = (rng.uniform(r, table.width_mm - r), rng.uniform(r, table.length_mm - r))
        if _clear(xy, layout, table):
            layout[spec.cue_ball] = xy
            return layout
    raise RuntimeError("could not place the cue ball")
