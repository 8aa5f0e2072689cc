"""14.1 continuous (game id ``straight-pool``): the rule engine, under the WPA Rules of Play.

What it applies, the inputs it needs, its options and where it departs from the rules are written for a
referee in docs/games/straight-pool.md. ``state`` holds the game, ``inputs`` the lines a player enters,
``fouls`` what a shot's camera lines show against the rules, ``outcomes`` what each kind of shot does, and
``game`` the engine itself; the rack, spotting and special racking are ``adjudication.billiards.rack``.
"""

from __future__ import annotations

from adjudication.billiards.straight_pool.fouls import (
    BREAK_RAIL_BALLS,
    FOULS,
    SERIOUS_FOUL_COUNT,
    SERIOUS_FOUL_EXTRA,
    STANDARD_FOULS,
    FoulRule,
    Reason,
)
from adjudication.billiards.straight_pool.game import ENGINE, step
from adjudication.billiards.straight_pool.state import BALLS, GAME, SPEC, TABLE, Phase, State, start

__all__ = [
    "BALLS",
    "BREAK_RAIL_BALLS",
    "ENGINE",
    "FOULS",
    "GAME",
    "SERIOUS_FOUL_COUNT",
    "SERIOUS_FOUL_EXTRA",
    "SPEC",
    "STANDARD_FOULS",
    "TABLE",
    "FoulRule",
    "Phase",
    "Reason",
    "State",
    "start",
    "step",
]
