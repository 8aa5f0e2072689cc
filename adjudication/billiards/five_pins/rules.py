"""Five-pins' constants and fouls, each with the rule it comes from.

Rules are the UMB "World Rules of 5-pin billiard" (the international rules of the game, played in Italy
under FIBiS and in Europe under the CEB), cited "UMB 5-pin N" by their own section numbers; a foul of
section 15.3 is cited by the call the referee makes for it, e.g. "15.3 (wrong ball)". docs/games/five-pins.md
maps them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from arbiter.games import billiards

SPEC = billiards("five-pins")
GAME = SPEC.id
RULES = "UMB 5-pin"
TABLE = SPEC.table  # the standard table; a match header's ``table`` gives the one played (State.layout)
XY = tuple[float, float]

PLAYER_BALLS: tuple[str, str] = ("white", "yellow")  # first player's, second player's (UMB 5-pin 4.4)
RED = "red"
BALLS: tuple[str, ...] = (*PLAYER_BALLS, RED)
CENTRE_PIN = "pin:c"
PINS: tuple[str, ...] = tuple(p.id for p in TABLE.pins)
SIDE_PINS: frozenset[str] = frozenset(PINS) - {CENTRE_PIN}

# UMB 5-pin 8.1: what the pins are worth.
PIN_POINTS: Mapping[str, int] = MappingProxyType({"side": 2, "centre_with_side": 4, "centre_alone": 8})

# Match-header options the engine reads and ignores: the synthetic world writes ``source`` as metadata.
IGNORED_OPTIONS: frozenset[str] = frozenset({"source"})

BALL_R = TABLE.ball_radius_mm
# A ball this close to a pin's spot stands on it (UMB 5-pin 12.6-12.7): ball radius plus pin-head radius.
PIN_COVER_MM: Mapping[str, float] = MappingProxyType(
    {p.id: BALL_R + p.head_diameter_mm / 2 for p in TABLE.pins}
)

# UMB 5-pin 11.3: where a ball that left the table goes, first free spot of the list.
RED_SPOTS: tuple[str, ...] = ("red", "top", "bottom")


class Carom(StrEnum):
    """UMB 5-pin 8.2: the first carom of a legal contact."""

    CAROM = "carom"  # striker's ball hits the red after the opponent's ball
    RICOCHET = "ricochet"  # the opponent's ball hits the red


CAROM_POINTS: Mapping[Carom, int] = MappingProxyType({Carom.CAROM: 4, Carom.RICOCHET: 3})
CAROM_NAMES: Mapping[Carom, str] = MappingProxyType(
    {Carom.CAROM: "carom on the red", Carom.RICOCHET: "ricochet (opponent's ball on the red)"}
)


class Reason(StrEnum):
    """Fouls the events show, in the order that picks the one a decision names."""

    WRONG_BALL = "wrong_ball"
    RED_FIRST = "red_first"
    MISS = "missed_opponent_ball"
    PINS_FIRST = "pins_first"
    INTO_CONTACT = "played_into_contact"
    OFF_TABLE = "ball_off_table"
    OWN_BALL_PINS = "own_ball_pins"


@dataclass(frozen=True)
class FoulRule:
    points: int  # the foul's own points, on top of the shot's pins and carom
    section: str  # where the UMB rules say so
    ball_in_hand: bool  # the opponent plays from hand (UMB 5-pin 13.1)


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.WRONG_BALL: FoulRule(2, "15.3 (wrong ball)", True),
        Reason.RED_FIRST: FoulRule(4, "15.3 (red ball)", True),
        Reason.MISS: FoulRule(2, "15.3 (opponent's ball)", True),
        Reason.PINS_FIRST: FoulRule(2, "15.3 (pins)", True),
        Reason.INTO_CONTACT: FoulRule(2, "15.3 (ball in contact)", True),
        Reason.OFF_TABLE: FoulRule(2, "15.3 (ball off the table)", True),
        Reason.OWN_BALL_PINS: FoulRule(0, "15.2", False),
    }
)
