"""Where a pyramid ball goes back on the table (IPC General Rules, spotting balls), and where the cue ball in
hand is played from."""

from __future__ import annotations

import math
from collections.abc import Iterable

from adjudication.billiards.pyramid.fouls import all_in_home
from adjudication.billiards.pyramid.rules import (
    BACK_SPOT,
    RULE_COMBINED_HOME,
    RULE_DYNAMIC_IN_HAND,
    XY,
    InHand,
)
from adjudication.billiards.pyramid.state import State
from adjudication.engine import RuleError
from arbiter.contract import Respot
from arbiter.tables import TableModel


def spot(layout: TableModel, taken: Iterable[XY]) -> XY:
    """Where a ball goes back on the table ``layout``: the back spot, or the nearest free point on the long
    axis behind it (towards the top cushion), else in front of it (towards the centre)."""
    x, back_y = layout.spots[BACK_SPOT]
    d = layout.ball_diameter_mm
    taken = list(taken)

    def clashes(y: float) -> list[XY]:
        return [(bx, by) for bx, by in taken if (bx - x) ** 2 + (by - y) ** 2 < d * d - 1e-6]

    for direction in (1.0, -1.0):
        y = back_y
        while layout.ball_radius_mm <= y <= layout.length_mm - layout.ball_radius_mm:
            hits = clashes(y)
            if not hits:
                return (x, y)
            reach = [by + direction * math.sqrt(max(d * d - (bx - x) ** 2, 0.0)) for bx, by in hits]
            y = max(reach) if direction > 0 else min(reach)
    raise RuleError("no room on the long axis to respot a ball; the shot_end positions cannot be right")


def put_back(layout: TableModel, ball: str, positions: dict[str, XY], respots: list[Respot]) -> None:
    """Spot ``ball`` among ``positions`` on the table ``layout`` and record it in ``respots`` (both the
    caller's, being built)."""
    xy = spot(layout, positions.values())
    positions[ball] = xy
    respots.append(Respot(ball, xy))


def in_hand_note(state: State, player: str) -> str:
    """Where ``player`` plays the cue ball in hand from, and what that stroke may not do."""
    if state.in_hand is InHand.ANYWHERE:
        return (
            f"cue ball in hand for {player}, anywhere on the table; it may not be potted this stroke "
            f"({RULE_DYNAMIC_IN_HAND})"
        )
    if all_in_home(state):
        return f"cue ball in hand for {player} from the temporary home at the top end: all balls are in home"
    return f"cue ball in hand for {player} from home; no ball in home may be hit first ({RULE_COMBINED_HOME})"
