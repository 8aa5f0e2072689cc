"""Snooker's constants and the rules they come from: the balls, their values and the rule citations.

Rule numbers are the WPBSA Official Rules of the Games of Snooker and English Billiards (November 2019),
cited "WPBSA S.R" for Section S, Rule R; docs/games/snooker.md maps every rule the engine applies.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from arbiter.games import billiards

SPEC = billiards("snooker")
GAME = SPEC.id
TABLE = SPEC.table  # the standard table; a match header's `table` gives the one played (Table.layout)
RADIUS = TABLE.ball_radius_mm

WHITE = "white"
RED = "red"
COLOUR = "colour"  # the ball on after a red: any colour, nominated
COLOURS: tuple[str, ...] = ("yellow", "green", "brown", "blue", "pink", "black")  # in the order they are on
REDS: tuple[str, ...] = tuple(f"red:{n}" for n in range(1, 16))
OBJECT_BALLS: frozenset[str] = frozenset((*REDS, *COLOURS))
BALL_IDS: frozenset[str] = frozenset((WHITE, *OBJECT_BALLS))
# Ball values (WPBSA 3.1).
VALUES: Mapping[str, int] = MappingProxyType(
    {"red": 1, "yellow": 2, "green": 3, "brown": 4, "blue": 5, "pink": 6, "black": 7}
)
MIN_PENALTY = 4  # WPBSA 3.11: "a penalty of four points unless a higher one is indicated"
COLOURS_TOTAL = sum(VALUES[c] for c in COLOURS)  # 27
PUSH_TOLERANCE_MM = 5.0  # a touching ball that moves more than this with nothing running into it was pushed
ORDER: Mapping[str, int] = MappingProxyType({b: i for i, b in enumerate((WHITE, *REDS, *COLOURS))})

RULE_POT = "WPBSA 3.3"  # mode of play: reds, then a colour, then the colours in order
RULE_NOMINATE = "WPBSA 2.12, 3.3"  # the colour after a red is nominated
RULE_TURN = "WPBSA 2.5"  # a turn ends when the striker fails to score
RULE_IN_HAND = "WPBSA 2.9, 3.5"  # the white potted or off the table: in hand, played from the D
RULE_FREE_BALL = "WPBSA 3.12"
RULE_MISS = "WPBSA 3.14"
RULE_RESPOT = "WPBSA 3.7"
RULE_TOUCHING = "WPBSA 3.8"
RULE_CHOICE = "WPBSA 3.13"
RULE_END = "WPBSA 3.4"
RULE_ALTERNATE = "WPBSA 3.3"  # the player to break alternates from frame to frame
RULE_REBREAK = "the Russian rules text's opening stroke; WPBSA has no re-break"


def kind(ball: str) -> str:
    """``red:4`` -> ``red``; rules look at the kind only (architecture.md)."""
    return ball.split(":", 1)[0]


def value(ball: str) -> int:
    return VALUES.get(kind(ball), 0)


def ordered(balls: Iterable[str]) -> list[str]:
    """The balls in set order: white, the reds by number, the colours by value."""
    return sorted(set(balls), key=ORDER.__getitem__)


def lowest_colour(balls: Iterable[str]) -> str | None:
    present = set(balls)
    return next((c for c in COLOURS if c in present), None)
