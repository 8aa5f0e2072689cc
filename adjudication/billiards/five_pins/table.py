"""The five-pins table after a shot: balls that left it put back (UMB 5-pin 11.3), the ball in hand placed
(13), pins a ball stands on taken off (12.7), and what the next striker's ball rests against (10)."""

from __future__ import annotations

from collections.abc import Mapping

from adjudication.billiards.five_pins.rules import (
    BALL_R,
    BALLS,
    PIN_COVER_MM,
    RED,
    RED_SPOTS,
    RULES,
    XY,
)
from adjudication.billiards.shot import Shot
from arbiter.contract import Respot
from arbiter.tables import TableModel


def _dist(a: XY, b: XY) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)


def _free(spot: XY, positions: Mapping[str, XY]) -> bool:
    """UMB 5-pin 11.3: a spot is occupied or covered when a ball would touch one placed on it."""
    return all(_dist(spot, xy) >= 2 * BALL_R for xy in positions.values())


def covered(layout: TableModel, pin: str, positions: Mapping[str, XY]) -> bool:
    """Whether a ball stands on ``pin``'s spot on the table ``layout``, so the referee takes the pin off
    (UMB 5-pin 12.7)."""
    xy_pin = next(p.xy_mm for p in layout.pins if p.id == pin)
    return any(_dist(xy_pin, xy) < PIN_COVER_MM[pin] for xy in positions.values())


def after_shot(
    layout: TableModel, shot: Shot, own: str, their: str, in_hand: bool, contact_mm: float
) -> tuple[dict[str, XY], tuple[Respot, ...], list[str]]:
    """Where the balls are for the next shot on the table ``layout``, the balls put back (11.3) and the
    notes on ball in hand."""
    spots, middle_y = layout.spots, layout.length_mm / 2

    def half(y: float) -> str:
        return "top" if y > middle_y else "bottom"

    gone = set(shot.off_table())
    positions = {b: xy for b, xy in shot.positions.items() if b not in gone}
    if not in_hand:
        return positions, (), []
    their_xy = positions.pop(their, None)  # picked up by the referee (13.2)
    respots: list[Respot] = []
    if RED in gone:
        spot = next((s for s in RED_SPOTS if _free(spots[s], positions)), RED_SPOTS[0])
        positions[RED] = spots[spot]
        respots.append(Respot(RED, spots[spot]))
    if own in gone:
        end = "top" if their_xy is None or half(their_xy[1]) == "bottom" else "bottom"
        chain = (end, "red", "bottom" if end == "top" else "top")
        spot = next((s for s in chain if _free(spots[s], positions)), end)
        positions[own] = spots[spot]
        respots.append(Respot(own, spots[spot]))
    own_y = positions[own][1]
    if abs(own_y - middle_y) <= contact_mm:
        place, why = "bottom", "13.4"
    else:
        place, why = ("bottom" if half(own_y) == "top" else "top"), "13.2-13.3"
    notes = [
        f"{their} in hand: placed in the {place} half, no part over the middle line ({RULES} {why}); "
        f"or {own} on the top spot on request ({RULES} 13.5)"
    ]
    return positions, tuple(respots), notes


def touching(
    layout: TableModel, ball: str, positions: Mapping[str, XY], contact_mm: float
) -> tuple[str, ...]:
    """Balls and cushions of the table ``layout`` that ``ball`` rests against (10), within ``contact_mm``."""
    x, y = positions[ball]
    out = [
        b
        for b in BALLS
        if b != ball and b in positions and _dist((x, y), positions[b]) <= 2 * BALL_R + contact_mm
    ]
    gaps = {
        "bottom": y - BALL_R,
        "top": layout.length_mm - y - BALL_R,
        "left": x - BALL_R,
        "right": layout.width_mm - x - BALL_R,
    }
    out += [f"cushion:{side}" for side, gap in gaps.items() if gap <= contact_mm]
    return tuple(out)
