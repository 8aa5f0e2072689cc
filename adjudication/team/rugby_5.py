"""Rugby-5, five a side on a handball or basketball court: the mini-rugby rules (``rugby``) with what the
rules text fixes for it (docs/games/rugby-5.md)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from adjudication.team import rugby
from adjudication.team.rugby_state import Variant
from arbiter.games import game

SPEC = game("rugby-5")
VARIANT = Variant(
    players=5,  # Число игроков (l.8): 5 players and 5 substitutes
    bench=5,
    distance_m=3.0,  # Начало игры: the opponents 3 m away
    restart_place="from the semicircle of the handball court's goal area",  # Возобновление игры (l.22)
)
ENGINE = rugby.engine(SPEC, VARIANT)
OPTIONS: Mapping[str, str] = MappingProxyType({o.name: o.help for o in SPEC.options})
"""The header options this engine reads: the registry's, each with what it sets."""
