"""Snooker (game id ``snooker``): the rule engine, under the WPBSA Official Rules (November 2019).

What it applies, the inputs it needs, its options and where it departs from the rules are written for a
referee in docs/games/snooker.md. A stroke is decided at its ``shot_end`` in four steps, one module each:
``judge`` (what was on, the fouls and their values, or the points), ``table`` and ``miss`` (re-spots, the
ball on next, snookers, foul and a miss), ``stroke`` (who plays next and the decision). ``state`` holds the
frame and the match, ``inputs`` the lines a player enters, ``game`` the engine itself.

Starting mid-frame: ``from_position(match, positions, on=, striker=, score=, in_hand=, opening=)`` builds the
state of a frame under way, for callers that join a frame (synthetic shots, tests); it takes no stream line.
"""

from __future__ import annotations

from adjudication.billiards.snooker.fouls import FAILED_TO_HIT, FOULS, FoulRule, Penalty, Reason
from adjudication.billiards.snooker.game import ENGINE, step
from adjudication.billiards.snooker.rules import (
    BALL_IDS,
    COLOUR,
    COLOURS,
    GAME,
    MIN_PENALTY,
    OBJECT_BALLS,
    PUSH_TOLERANCE_MM,
    RADIUS,
    RED,
    REDS,
    SPEC,
    TABLE,
    VALUES,
    WHITE,
    kind,
    value,
)
from adjudication.billiards.snooker.state import Awaiting, State, Table, fresh_rack, from_position, start

__all__ = [
    "BALL_IDS",
    "COLOUR",
    "COLOURS",
    "ENGINE",
    "FAILED_TO_HIT",
    "FOULS",
    "GAME",
    "MIN_PENALTY",
    "OBJECT_BALLS",
    "PUSH_TOLERANCE_MM",
    "RADIUS",
    "RED",
    "REDS",
    "SPEC",
    "TABLE",
    "VALUES",
    "WHITE",
    "Awaiting",
    "FoulRule",
    "Penalty",
    "Reason",
    "State",
    "Table",
    "fresh_rack",
    "from_position",
    "kind",
    "start",
    "step",
    "value",
]
