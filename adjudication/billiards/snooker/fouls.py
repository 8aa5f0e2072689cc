"""Snooker's fouls: every one the engine calls, the rule behind it and what it costs (WPBSA 3.10, 3.11).

A foul costs at least 4 points (``MIN_PENALTY``) and more where its value class says so: the value of the
ball on, the value of the ball on or of the ball(s) concerned, or 7. Only the highest of a stroke's fouls is
paid (WPBSA 3.10), and the points go to the opponent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum
from types import MappingProxyType

from adjudication.billiards.snooker.rules import MIN_PENALTY


class Reason(StrEnum):
    """Every foul the engine calls (``Foul.reason``); penalties and rules in ``FOULS``."""

    MISSED_ALL = "missed_all"  # the white hits no ball
    IN_OFF = "in_off"  # the white is potted
    SNOOKERED_BY_FREE_BALL = "snookered_by_free_ball"
    WRONG_BALL_FIRST = "wrong_ball_first"  # the white first hits a ball not on
    POT_NOT_ON = "pot_not_on"  # a ball not on is potted
    POT_NOT_NOMINATED = "pot_not_nominated"  # a colour other than the nominated one is potted
    PUSH_STROKE = "push_stroke"  # the touching ball is moved
    OFF_TABLE = "off_table"  # a ball is forced off the table
    TWO_BALLS_AT_ONCE = "two_balls_at_once"  # first contact with two balls at once (not two reds / free+on)
    PLAYED_AT_RED = "played_at_red"  # a red hit first when a colour is on (reds in successive strokes)
    NO_NOMINATION = "foul_before_nomination"  # a foul after a red, with no colour nominated
    WRONG_CUE_BALL = "wrong_cue_ball"  # a ball other than the white struck


class Penalty(Enum):
    """The value classes of WPBSA 3.11."""

    BALL_ON = "the value of the ball on"
    BALL_ON_OR_CONCERNED = "the value of the ball on or of the ball(s) concerned"
    SEVEN = "7 points"


@dataclass(frozen=True)
class FoulRule:
    penalty: Penalty
    rule: str
    says: str


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.MISSED_ALL: FoulRule(Penalty.BALL_ON, "WPBSA 3.11", "the white hit no ball"),
        Reason.IN_OFF: FoulRule(Penalty.BALL_ON, "WPBSA 3.11", "the white was potted"),
        Reason.SNOOKERED_BY_FREE_BALL: FoulRule(
            Penalty.BALL_ON, "WPBSA 3.12, 3.11", "the white was left snookered by the free ball"
        ),
        Reason.WRONG_BALL_FIRST: FoulRule(
            Penalty.BALL_ON_OR_CONCERNED, "WPBSA 3.11", "the white first hit a ball not on"
        ),
        Reason.POT_NOT_ON: FoulRule(Penalty.BALL_ON_OR_CONCERNED, "WPBSA 3.11", "a ball not on was potted"),
        Reason.POT_NOT_NOMINATED: FoulRule(
            Penalty.BALL_ON_OR_CONCERNED,
            "WPBSA 2.12, 3.11",
            "a colour other than the nominated one was potted",
        ),
        Reason.PUSH_STROKE: FoulRule(
            Penalty.BALL_ON_OR_CONCERNED, "WPBSA 3.8, 2.19, 3.11", "the touching ball was moved"
        ),
        Reason.OFF_TABLE: FoulRule(
            Penalty.BALL_ON_OR_CONCERNED, "WPBSA 2.14, 3.11", "a ball was forced off the table"
        ),
        Reason.TWO_BALLS_AT_ONCE: FoulRule(
            Penalty.BALL_ON_OR_CONCERNED, "WPBSA 3.6, 3.11", "the white hit two balls at once"
        ),
        Reason.PLAYED_AT_RED: FoulRule(Penalty.SEVEN, "WPBSA 3.11", "a red was played when a colour was on"),
        Reason.NO_NOMINATION: FoulRule(
            Penalty.SEVEN, "WPBSA 3.11", "a foul after a red before a colour was nominated"
        ),
        Reason.WRONG_CUE_BALL: FoulRule(
            Penalty.SEVEN, "WPBSA 3.11", "a ball other than the white was used as the cue ball"
        ),
    }
)
# The fouls in which the white fails to hit a ball on first: the ones a miss is judged on (WPBSA 3.14).
FAILED_TO_HIT: frozenset[Reason] = frozenset(
    {Reason.MISSED_ALL, Reason.WRONG_BALL_FIRST, Reason.PLAYED_AT_RED}
)


@dataclass(frozen=True)
class Found:
    """A foul found in a stroke, with what it costs and what the camera lines showed."""

    reason: Reason
    penalty: int
    detail: str


def penalty(reason: Reason, on_value: int, concerned: Iterable[int]) -> int:
    """What ``reason`` costs, the ball on worth ``on_value`` and the balls concerned worth ``concerned``."""
    rule = FOULS[reason].penalty
    if rule is Penalty.SEVEN:
        return 7
    base = max(MIN_PENALTY, on_value)
    if rule is Penalty.BALL_ON_OR_CONCERNED:
        base = max(base, *concerned, 0)
    return base
