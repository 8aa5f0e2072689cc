"""Rugby-7, seven a side on part of a normal pitch: the mini-rugby rules (``rugby``) with what the rules
text fixes for it (docs/games/rugby-7.md)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from adjudication.team import rugby
from adjudication.team.rugby_state import Variant
from arbiter.games import game

SPEC = game("rugby-7")
VARIANT = Variant(
    players=7,  # Число игроков (l.8): 7 players and 4 substitutes
    bench=4,
    distance_m=10.0,  # Начало игры: the opponents 10 m away
    restart_place="from behind the 5-metre line of the normal rugby pitch",  # Возобновление игры (l.22)
)
ENGINE = rugby.engine(SPEC, VARIANT)
OPTIONS: Mapping[str, str] = MappingProxyType({o.name: o.help for o in SPEC.options})
"""The header options this engine reads: the registry's, each with what it sets."""
