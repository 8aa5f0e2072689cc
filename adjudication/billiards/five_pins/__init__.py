"""Five-pins (game id ``five-pins``, cinque birilli): the rule engine, under the UMB World Rules of 5-pin
billiard.

What it applies, the inputs it needs, its options and where it departs from the rules are written for a
referee in docs/games/five-pins.md. ``rules`` holds the pins, caroms and fouls with their rules, ``state``
the game, ``inputs`` the lines a player enters, ``scoring`` what a shot's camera lines show, ``table`` the
table after it, ``decide`` the shot's decision and ``game`` the engine itself.
"""

from __future__ import annotations

from adjudication.billiards.five_pins.game import ENGINE, step
from adjudication.billiards.five_pins.rules import (
    BALLS,
    CAROM_POINTS,
    CENTRE_PIN,
    FOULS,
    GAME,
    PIN_POINTS,
    PINS,
    PLAYER_BALLS,
    RED,
    RULES,
    SIDE_PINS,
    SPEC,
    TABLE,
    Carom,
    FoulRule,
    Reason,
)
from adjudication.billiards.five_pins.scoring import carom, fouls_of, pin_points
from adjudication.billiards.five_pins.state import State, start

__all__ = [
    "BALLS",
    "CAROM_POINTS",
    "CENTRE_PIN",
    "ENGINE",
    "FOULS",
    "GAME",
    "PINS",
    "PIN_POINTS",
    "PLAYER_BALLS",
    "RED",
    "RULES",
    "SIDE_PINS",
    "SPEC",
    "TABLE",
    "Carom",
    "FoulRule",
    "Reason",
    "State",
    "carom",
    "fouls_of",
    "pin_points",
    "start",
    "step",
]
