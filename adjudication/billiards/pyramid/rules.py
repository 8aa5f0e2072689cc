"""Russian pyramid's constants, its three disciplines and its fouls, each with the rule it comes from.

Rules are those of the IPC (МКП, the International Pyramid Committee, today the International Pyramid
Confederation), adopted in Russia by the federation (ФБСР): the "General Rules of Pyramid" (cited "IPC
General Rules N") and the rules of each discipline ("IPC Free Pyramid N", "IPC Combined Pyramid N", "IPC
Dynamic Pyramid – <rule>" where the number is not established). docs/games/pyramid.md maps them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from arbiter.games import billiards

SPEC = billiards("pyramid")
GAME = SPEC.id
CUE = "cue"
OBJECT_BALLS: tuple[str, ...] = tuple(str(n) for n in range(1, 16))
BALLS: frozenset[str] = frozenset((CUE, *OBJECT_BALLS))

TABLE = SPEC.table  # the standard table; a match header's ``table`` gives the one played (State.layout)
HOME_LINE = "home"  # the line through the front spot: a ball on or behind it lies in home
BACK_SPOT = "back"  # where a ball goes back on the table
SIDE_CUSHIONS = frozenset(("left", "right"))

FREE_BREAK_CUSHION_BALLS = 2  # free/combined break: two object balls to a cushion
DYNAMIC_BREAK_CUSHION_BALLS = 3  # dynamic break: three to side cushions, or two and one over the centre line

XY = tuple[float, float]

RULE_LEGAL_STROKE = "IPC General Rules 20"
RULE_SPOTTING = "IPC General Rules, spotting balls"
RULE_OLDER = "older Russian rules, before the IPC rules of 2005"
RULE_DYNAMIC_BREAK = "IPC Dynamic Pyramid, opening break"
RULE_DYNAMIC_IN_HAND = "IPC Dynamic Pyramid, cue ball in hand"
RULE_COMBINED_HOME = "IPC Combined Pyramid 6"
RULE_OBJECT = "IPC rules, object of the game"
RULE_GENERAL = "IPC General Rules"


class Variant(StrEnum):
    FREE = "free"
    COMBINED = "combined"
    DYNAMIC = "dynamic"


class Penalty(StrEnum):
    POINT = "point"
    BALL = "ball"


class InHand(StrEnum):
    HOME = "home"
    ANYWHERE = "anywhere"


class BreakTest(StrEnum):
    POT_OR_TWO_CUSHIONS = "pot_or_two_cushions"
    DYNAMIC = "dynamic"


class Reason(StrEnum):
    """Fouls, in the order they are reported when a shot commits several."""

    WRONG_CUE_BALL = "wrong_cue_ball"
    NO_CONTACT = "no_contact"
    BALL_IN_HOME_HIT = "ball_in_home_hit"
    CUE_BALL_POTTED_FROM_HAND = "cue_ball_potted_from_hand"
    BALL_OFF_TABLE = "ball_off_table"
    NO_CUSHION = "no_cushion"
    ILLEGAL_BREAK = "illegal_break"


@dataclass(frozen=True)
class FoulRule:
    penalty: int  # points (or balls, in ``ball`` mode) the foul costs
    rule: str


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.WRONG_CUE_BALL: FoulRule(
            1, "IPC Free Pyramid 4: the break is struck with the cue ball from home"
        ),
        Reason.NO_CONTACT: FoulRule(1, f"{RULE_LEGAL_STROKE}: the struck ball must hit another ball"),
        Reason.BALL_IN_HOME_HIT: FoulRule(
            1, f"{RULE_COMBINED_HOME}: from hand from home, no ball in home first"
        ),
        Reason.CUE_BALL_POTTED_FROM_HAND: FoulRule(
            1, f"{RULE_DYNAMIC_IN_HAND}: the cue ball may not be potted on the stroke from hand"
        ),
        Reason.BALL_OFF_TABLE: FoulRule(1, "IPC Free Pyramid 7: a ball off the table"),
        Reason.NO_CUSHION: FoulRule(
            1, f"{RULE_LEGAL_STROKE}: after contact a ball must be potted or reach a cushion"
        ),
        Reason.ILLEGAL_BREAK: FoulRule(
            1, "IPC General Rules 11-12: on the break a ball potted or two object balls to a cushion"
        ),
    }
)
# Where a discipline rules otherwise than the table above.
VARIANT_FOULS: Mapping[tuple[Variant, Reason], FoulRule] = MappingProxyType(
    {
        (Variant.COMBINED, Reason.WRONG_CUE_BALL): FoulRule(
            1, "IPC Combined Pyramid: the yellow cue ball only"
        ),
        (Variant.DYNAMIC, Reason.WRONG_CUE_BALL): FoulRule(
            1, "IPC Dynamic Pyramid: the yellow cue ball only"
        ),
        (Variant.DYNAMIC, Reason.ILLEGAL_BREAK): FoulRule(
            0,
            f"{RULE_DYNAMIC_BREAK}: a ball potted, three balls to side cushions, or two and one over the "
            "centre line",
        ),
    }
)


@dataclass(frozen=True)
class VariantRules:
    """What sets a discipline apart; everything else is the IPC General Rules."""

    title: str
    any_ball_is_cue: bool  # free: after the break any ball may be struck
    in_hand: InHand | None  # where a cue ball that left the table is played from (None: it is respotted)
    no_cue_pot_from_hand: bool  # dynamic: no svoyak on a stroke from hand
    break_test: BreakTest
    penalty_ball_taken: bool  # combined, ``point`` mode: the opponent takes a penalty ball off the table
    scoring_rule: str
    svoyak_rule: str


VARIANTS: Mapping[Variant, VariantRules] = MappingProxyType(
    {
        Variant.FREE: VariantRules(
            title="free pyramid",
            any_ball_is_cue=True,
            in_hand=None,
            no_cue_pot_from_hand=False,
            break_test=BreakTest.POT_OR_TWO_CUSHIONS,
            penalty_ball_taken=False,
            scoring_rule="IPC Free Pyramid 5.4-5.5, 6",
            svoyak_rule="IPC Free Pyramid 5.4",
        ),
        Variant.COMBINED: VariantRules(
            title="combined pyramid",
            any_ball_is_cue=False,
            in_hand=InHand.HOME,
            no_cue_pot_from_hand=False,
            break_test=BreakTest.POT_OR_TWO_CUSHIONS,
            penalty_ball_taken=True,
            scoring_rule="IPC Combined Pyramid 1, 3",
            svoyak_rule="IPC Combined Pyramid 2",
        ),
        Variant.DYNAMIC: VariantRules(
            title="dynamic pyramid",
            any_ball_is_cue=False,
            in_hand=InHand.ANYWHERE,
            no_cue_pot_from_hand=True,
            break_test=BreakTest.DYNAMIC,
            penalty_ball_taken=False,
            scoring_rule="IPC Dynamic Pyramid, scoring",
            svoyak_rule="IPC Dynamic Pyramid, svoyak",
        ),
    }
)
PENALTY_RULES: Mapping[Penalty, str] = MappingProxyType(
    {
        Penalty.POINT: "IPC Free Pyramid 6, Combined Pyramid 6-7: one point to the opponent",
        Penalty.BALL: RULE_OLDER,
    }
)
BREAK_RULES: Mapping[BreakTest, str] = MappingProxyType(
    {BreakTest.POT_OR_TWO_CUSHIONS: "IPC General Rules 11-12", BreakTest.DYNAMIC: RULE_DYNAMIC_BREAK}
)
CHOICES: frozenset[str] = frozenset(("play", "rebreak"))
