"""Where the balls stand before a shot: opening racks from the rules and plausible mid-game positions."""

from __future__ import annotations

import math

import numpy as np

from arbiter.games import billiards
from arbiter.tables import TableModel

XY = tuple[float, float]
# Racked balls touch in play; a hair of space keeps the engine from starting with overlapping balls.
RACK_GAP_MM = 0.05
# The line a cue ball in hand must stay behind (the snooker D is handled apart; five-pins uses the middle).
IN_HAND_LINE = {"straight-pool": "head_string", "pyramid": "home"}


def _triangle(apex: XY, r: float, rows: int, upward: bool = True) -> list[XY]:
    """Centres of a tight triangle rack, row by row from the apex, each row left to right."""
    d = 2 * r + RACK_GAP_MM
    sign = 1 if upward else -1
    out = []
    for k in range(rows):
        for j in range(k + 1):
            out.append((apex[0] + (j - k / 2) * d, apex[1] + sign * k * d * math.sqrt(3) / 2))
    return out


def in_hand_region(table: TableModel) -> str:
    """The name of the area a cue ball in hand is placed in (for docs and metadata)."""
    return {"snooker": "D", "straight-pool": "kitchen", "pyramid": "home", "five-pins": "bottom half"}[
        table.game
    ]


def place_in_hand(table: TableModel, rng: np.random.Generator, taken: dict[str, XY]) -> XY:
    """A legal place for a cue ball in hand: inside the D (snooker), behind the head string (14.1), in the
    home (pyramid), in the bottom half (five-pins), clear of every other ball."""
    r = table.ball_radius_mm
    for _ in range(500):
        if table.game == "snooker":
            arc = table.arcs[0]
            ang = rng.uniform(math.pi, 2 * math.pi)
            rad = arc.radius_mm * math.sqrt(rng.uniform(0, 1))
            xy = (arc.centre_xy_mm[0] + rad * math.cos(ang), arc.centre_xy_mm[1] + rad * math.sin(ang))
        else:
            limit = (
                table.line(IN_HAND_LINE[table.game]).y_mm
                if table.game in IN_HAND_LINE
                else table.length_mm / 2
            )
            xy = (rng.uniform(r, table.width_mm - r), rng.uniform(r, limit))
        if _clear(xy, taken, table):
            return xy
    raise RuntimeError(f"no free place for the cue ball in the {in_hand_region(table)}")


def _clear(xy: XY, taken: dict[str, XY], table: TableModel, extra_mm: float = 1.0) -> bool:
    r = table.ball_radius_mm
    if not table.on_table(xy, margin_mm=r + extra_mm):
        return False
    for pin in table.pins:
        if math.dist(xy, pin.xy_mm) < r + pin.head_diameter_mm / 2 + extra_mm:
            return False
    return all(math.dist(xy, other) >= 2 * r + extra_mm for other in taken.values())


def opening(table: TableModel, rng: np.random.Generator) -> dict[str, XY]:
    """The break position of the game's rules text, the cue ball in hand placed at random."""
    r = table.ball_radius_mm
    ids = billiards(table.game).balls
    layout: dict[str, XY] = {}
    if table.game == "snooker":
        pink = table.spots["pink"]
        reds = [b for b in ids if b.startswith("red:")]
        # Apex as close to the pink as possible without touching it (rules text section 5 p.3).
        layout.update(zip(reds, _triangle((pink[0], pink[1] + 2 * r + 1.0), r, 5), strict=True))
        for colour in ("yellow", "green", "brown", "blue", "pink", "black"):
            layout[colour] = table.spots[colour]
    elif table.game in ("straight-pool", "pyramid"):
        apex = table.spots["foot" if table.game == "straight-pool" else "back"]
        spots = _triangle(apex, r, 5)
        numbers = [str(n) for n in range(1, 16)]
        if table.game == "straight-pool":
            # 14.1 (rules text): the 1 on the right corner of the back row, the 5 on the left, others random.
            back_left, back_right = spots[10], spots[14]
            rest = [n for n in numbers if n not in ("1", "5")]
            rng.shuffle(rest)
            layout.update({"1": back_right, "5": back_left})
            layout.update(zip(rest, spots[:10] + spots[11:14], strict=True))
        else:
            rng.shuffle(numbers)
            layout.update(zip(numbers, spots, strict=True))
    elif table.game == "five-pins":
        layout["yellow"] = table.spots["top"]
        layout["red"] = table.spots["red"]
    if table.game == "snooker":
        # Break-off from the D between the brown and the yellow or green spot, as players do.
        side = float(rng.choice([-1.0, 1.0]))
        brown = table.spots["brown"]
        layout["white"] = (
            brown[0] + side * rng.uniform(2.5 * r, table.arcs[0].radius_mm - 2.5 * r),
            brown[1] - rng.uniform(0.0, 3 * r),
        )
    else:
        layout[billiards(table.game).cue_ball] = place_in_hand(table, rng, layout)
    return layout


def midgame(table: TableModel, rng: np.random.Generator) -> dict[str, XY]:
    """A plausible position later in a frame: some object balls gone, the rest scattered, some in clusters
    or on their spots, the cue ball anywhere."""
    ids = billiards(table.game).balls
    cue = billiards(table.game).cue_ball
    objects = [b for b in ids if b != cue]
    if table.game == "snooker":
        n_reds = int(rng.integers(0, 16))
        reds = [b for b in objects if b.startswith("red:")][:n_reds]
        colours = [b for b in objects if not b.startswith("red:")]
        if n_reds == 0:  # colours leave in order once the reds are gone
            colours = colours[int(rng.integers(0, 6)) :]
        keep = reds + colours
    elif table.game == "five-pins":
        keep = objects
    else:
        keep = [str(b) for b in rng.permutation(objects)[: int(rng.integers(1, 16))]]
    layout: dict[str, XY] = {}
    r = table.ball_radius_mm
    for bid in keep:
        home = table.spots.get(bid)
        if home is not None and rng.random() < 0.6 and _clear(home, layout, table):
            layout[bid] = home
            continue
        for _ in range(500):
            if layout and rng.random() < 0.25:  # near another ball: clusters and kisses happen
                near = layout[str(rng.choice(list(layout)))]
                ang = rng.uniform(0, 2 * math.pi)
                dist = 2 * r + rng.uniform(2.0, 4 * r)
                xy = (near[0] + dist * math.cos(ang), near[1] + dist * math.sin(ang))
            else:
                xy = (rng.uniform(r, table.width_mm - r), rng.uniform(r, table.length_mm - r))
            if _clear(xy, layout, table):
                layout[bid] = xy
                break
    for _ in range(500):
        xy = (rng.uniform(r, table.width_mm - r), rng.uniform(r, table.length_mm - r))
        if _clear(xy, layout, table):
            layout[cue] = xy
            return layout
    raise RuntimeError("could not place the cue ball")
