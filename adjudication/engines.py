"""Every rule engine, and the one lookup from a game's spec to its engine."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from adjudication.billiards import five_pins, pyramid, snooker, straight_pool
from adjudication.dice import (
    aces,
    bank,
    bluff,
    buck_dice,
    chicago,
    craps,
    four_dice,
    high_dice,
    indian_dice,
    liar,
    martinetti,
    pig,
    poker_dice,
    stuck_in_the_mud,
    thirteen,
    yacht,
)
from adjudication.engine import Engine
from adjudication.team import futsal, rugby_5, rugby_7
from arbiter.games import GAMES, GameSpec

_MODULES = (
    snooker, straight_pool, pyramid, five_pins, liar, thirteen, craps, indian_dice, martinetti, pig, aces,
    four_dice, stuck_in_the_mud, chicago, yacht, buck_dice, high_dice, bank, bluff, poker_dice,
    futsal, rugby_5, rugby_7,
)  # fmt: skip
ENGINES: Mapping[str, Engine] = MappingProxyType({m.ENGINE.game: m.ENGINE for m in _MODULES})
"""Game id -> its engine, for every game that has rules here."""


OPTION_HELP: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {s.id: MappingProxyType({o.name: o.help for o in s.options}) for s in GAMES.values() if s.id in ENGINES}
)
"""Game id -> the header options its engine reads (the registry's ``OptionSpec``s), each with what it sets."""


class NoEngineError(KeyError):
    """A game in the registry whose rules have no engine here; the message names the games that do."""

    def __str__(self) -> str:
        return str(self.args[0])


def engine_for(spec: GameSpec) -> Engine:
    """The engine of a game; ``NoEngineError`` naming the refereed games when it has none."""
    try:
        return ENGINES[spec.id]
    except KeyError:
        raise NoEngineError(
            f"no rule engine for {spec.id!r} yet; engines exist for: {', '.join(ENGINES)}"
        ) from None


def refereed(spec: GameSpec) -> bool:
    """Whether Arbiter has the rules of this game."""
    return spec.id in ENGINES
