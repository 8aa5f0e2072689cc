"""Russian pyramid (game id ``pyramid``): the free, combined and dynamic disciplines, under the IPC rules.

What it applies in each discipline, the inputs it needs, its options and where it departs from the rules
are written for a referee in docs/games/pyramid.md. ``rules`` holds the disciplines and fouls with their
rules, ``state`` the game, ``inputs`` the lines a player enters, ``fouls`` what a shot's camera lines show,
``spotting`` where balls go back, ``decide`` the shot's decision and ``game`` the engine itself.
"""

from __future__ import annotations

from adjudication.billiards.pyramid.game import ENGINE, step
from adjudication.billiards.pyramid.rules import (
    BALLS,
    BREAK_RULES,
    CUE,
    FOULS,
    GAME,
    OBJECT_BALLS,
    PENALTY_RULES,
    SPEC,
    TABLE,
    VARIANT_FOULS,
    VARIANTS,
    BreakTest,
    FoulRule,
    InHand,
    Penalty,
    Reason,
    Variant,
    VariantRules,
)
from adjudication.billiards.pyramid.state import State, start

__all__ = [
    "BALLS",
    "BREAK_RULES",
    "CUE",
    "ENGINE",
    "FOULS",
    "GAME",
    "OBJECT_BALLS",
    "PENALTY_RULES",
    "SPEC",
    "TABLE",
    "VARIANTS",
    "VARIANT_FOULS",
    "BreakTest",
    "FoulRule",
    "InHand",
    "Penalty",
    "Reason",
    "State",
    "Variant",
    "VariantRules",
    "start",
    "step",
]
