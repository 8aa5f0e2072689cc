"""What every rule engine is, and how a stream is refereed through one.

An engine is pure (docs/style.md): ``start(match) -> state`` and ``step(state, event) -> (state, decisions)``,
frozen state, no I/O. ``step`` takes one line of the stream at a time, in order, and returns the decisions
that line settles (none for most camera events: a billiards shot is decided at its ``shot_end``). A line the
engine cannot use (a declaration by the wrong player, a shot while a choice is awaited, a ball id that is not
in the game) raises ``RuleError`` with what was wrong; ``referee`` adds the line number.

Engines live one per module, each holding its ``ENGINE``; ``adjudication.engines.engine_for(spec)`` finds
the one for a game's spec, and ``adjudication.referee.Referee`` runs it over a match for every caller.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from arbiter.contract import Decision, JsonLine, Match


class RuleError(ValueError):
    """A line of the stream that the engine cannot use, with the reason and what would be accepted."""


class GameState(Protocol):
    """What the runner reads from any engine's state (each engine's state holds much more)."""

    @property
    def score(self) -> Mapping[str, int]: ...

    @property
    def over(self) -> bool: ...

    @property
    def winner(self) -> str | None: ...


@dataclass(frozen=True)
class Engine:
    """One game's rules: the two pure functions and the game id they are for."""

    game: str
    start: Callable[[Match], Any]
    step: Callable[[Any, JsonLine], tuple[Any, tuple[Decision, ...]]]
