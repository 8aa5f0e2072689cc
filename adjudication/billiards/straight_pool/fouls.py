"""14.1's fouls: what each costs, the WPA rule behind it, and which of them a shot's camera lines show.

Rule numbers are the WPA "Pool Billiards – The Rules of Play": 1.x General Rules, 4.x 14.1 Continuous,
6.x Fouls, 8.x Definitions (docs/games/straight-pool.md maps them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from adjudication.billiards.rack import CUE, behind_head_string
from adjudication.billiards.shot import Shot
from adjudication.billiards.straight_pool.state import State
from arbiter.contract import BallBall, Cushion, Foul, JsonLine, OffTable, Pot

SERIOUS_FOUL_COUNT = 3  # WPA 4.11, 6.14
SERIOUS_FOUL_EXTRA = 15  # WPA 4.11
BREAK_RAIL_BALLS = 2  # object balls driven to a rail on a legal break (WPA 4.3)


class Reason(StrEnum):
    """Fouls of 14.1; the order of the standard ones is the order in which one shot's fouls are reported."""

    BREAKING_FOUL = "breaking_foul"
    CUE_BALL_OFF_TABLE = "cue_ball_off_table"
    CUE_BALL_SCRATCH = "cue_ball_scratch"
    NO_CONTACT = "no_contact"
    BAD_PLAY_FROM_BEHIND_HEAD_STRING = "bad_play_from_behind_head_string"
    NO_RAIL_AFTER_CONTACT = "no_rail_after_contact"
    OBJECT_BALL_OFF_TABLE = "object_ball_off_table"
    THREE_CONSECUTIVE_FOULS = "three_consecutive_fouls"


@dataclass(frozen=True)
class FoulRule:
    penalty: int
    rule: str


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.BREAKING_FOUL: FoulRule(2, "WPA 4.3, 4.10"),
        Reason.CUE_BALL_OFF_TABLE: FoulRule(1, "WPA 4.9, 6.1"),
        Reason.CUE_BALL_SCRATCH: FoulRule(1, "WPA 4.9, 6.1"),
        Reason.NO_CONTACT: FoulRule(1, "WPA 4.9, 6.3"),
        Reason.BAD_PLAY_FROM_BEHIND_HEAD_STRING: FoulRule(1, "WPA 4.9, 6.11"),
        Reason.NO_RAIL_AFTER_CONTACT: FoulRule(1, "WPA 4.9, 6.3"),
        Reason.OBJECT_BALL_OFF_TABLE: FoulRule(1, "WPA 4.9, 6.5"),
        Reason.THREE_CONSECUTIVE_FOULS: FoulRule(1 + SERIOUS_FOUL_EXTRA, "WPA 4.11, 6.14"),
    }
)
STANDARD_FOULS: tuple[Reason, ...] = tuple(
    r for r in Reason if r not in (Reason.BREAKING_FOUL, Reason.THREE_CONSECUTIVE_FOULS)
)


def foul(reason: Reason) -> Foul:
    rule = FOULS[reason]
    return Foul(reason=reason.value, penalty=rule.penalty, rule=rule.rule)


def _after_first_contact(shot: Shot) -> tuple[JsonLine, ...]:
    for i, e in enumerate(shot.events):
        if isinstance(e, BallBall) and e.balls[0] == CUE:
            return shot.events[i + 1 :]
    return ()


def _driven_to_rail(events: tuple[JsonLine, ...]) -> set[str]:
    """Balls driven to a rail: a cushion, a pocket or off the table (WPA 8.4)."""
    return {e.ball for e in events if isinstance(e, Cushion | Pot | OffTable)}


def legal_break(shot: Shot, scored: bool) -> bool:
    """WPA 4.3: a called ball pocketed, or the cue ball and two object balls driven to a rail after the cue
    ball contacts the rack."""
    if scored:
        return True
    if shot.first_contact(CUE) is None:
        return False
    driven = _driven_to_rail(_after_first_contact(shot))
    return CUE in driven and len(driven - {CUE}) >= BREAK_RAIL_BALLS


def _cushion_before_contact(shot: Shot) -> bool:
    for e in shot.events:
        if isinstance(e, BallBall) and e.balls[0] == CUE:
            return False
        if isinstance(e, Cushion) and e.ball == CUE:
            return True
    return False


def standard_fouls(state: State, shot: Shot) -> tuple[Reason, ...]:
    """Every standard foul of the shot (WPA 4.9) the camera lines show, in ``STANDARD_FOULS`` order."""
    off, potted = set(shot.off_table()), set(shot.potted())
    first = shot.first_contact(CUE)
    first_xy = state.table.get(first) if first is not None else None
    found = {
        Reason.CUE_BALL_OFF_TABLE: CUE in off,
        Reason.CUE_BALL_SCRATCH: CUE in potted and CUE not in off,
        Reason.NO_CONTACT: first is None,
        Reason.BAD_PLAY_FROM_BEHIND_HEAD_STRING: state.cue_in_hand
        and first_xy is not None
        and behind_head_string(state.layout, first_xy)
        and not _cushion_before_contact(shot),
        Reason.NO_RAIL_AFTER_CONTACT: first is not None and not _driven_to_rail(_after_first_contact(shot)),
        Reason.OBJECT_BALL_OFF_TABLE: bool(off - {CUE}),
    }
    return tuple(r for r in STANDARD_FOULS if found[r])
