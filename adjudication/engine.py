"""What every rule engine is, and how a stream is refereed through one.

An engine is pure (docs/style.md): ``start(match) -> state`` and ``step(state, event) -> (state, decisions)``,
frozen state, no I/O. ``step`` takes one line of the stream at a time, in order, and returns the decisions
that line settles (none for most camera events: a billiards shot is decided at its ``shot_end``). A line the
engine cannot use (a declaration by the wrong player, a shot while a choice is awaited, a ball id that is not
in the game) raises ``RuleError`` with what was wrong; ``referee`` adds the line number.

Engines live one per module and are found by game id through ``engine_for``, imported only when asked for.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from arbiter.contract import ContractError, Decision, JsonLine, Match, iter_numbered


class RuleError(ValueError):
    """A line of the stream that the engine cannot use, with the reason and what would be accepted."""


class RefereeError(ValueError):
    """Refereeing stopped at ``line_no`` (1-based, as in the file): the reason, from the contract or rules."""

    def __init__(self, line_no: int | None, message: str) -> None:
        self.line_no = line_no
        self.message = message
        where = f"line {line_no}: " if line_no is not None else ""
        super().__init__(where + message)


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


# game id -> module that defines ``ENGINE``; imported on first use so one broken engine cannot stop others.
_MODULES: dict[str, str] = {
    "snooker": "adjudication.billiards.snooker",
    "straight-pool": "adjudication.billiards.straight_pool",
    "pyramid": "adjudication.billiards.pyramid",
    "five-pins": "adjudication.billiards.five_pins",
    "liar": "adjudication.dice.liar",
    "thirteen": "adjudication.dice.thirteen",
    "craps": "adjudication.dice.craps",
    "indian-dice": "adjudication.dice.indian_dice",
    "martinetti": "adjudication.dice.martinetti",
    "pig": "adjudication.dice.pig",
    "aces": "adjudication.dice.aces",
    "four-dice": "adjudication.dice.four_dice",
    "stuck-in-the-mud": "adjudication.dice.stuck_in_the_mud",
    "chicago": "adjudication.dice.chicago",
    "yacht": "adjudication.dice.yacht",
    "buck-dice": "adjudication.dice.buck_dice",
    "high-dice": "adjudication.dice.high_dice",
    "bank": "adjudication.dice.bank",
    "bluff": "adjudication.dice.bluff",
    "poker-dice": "adjudication.dice.poker_dice",
}


def refereed_games() -> tuple[str, ...]:
    """Game ids that have an engine module available in this installation."""
    return tuple(g for g, mod in _MODULES.items() if importlib.util.find_spec(mod) is not None)


def engine_for(game: str) -> Engine:
    """The engine for ``game``; ``KeyError`` naming the games that have one when it has none."""
    module = _MODULES.get(game)
    if module is None or importlib.util.find_spec(module) is None:
        raise KeyError(f"no rule engine for game {game!r}; engines exist for: {', '.join(refereed_games())}")
    engine = importlib.import_module(module).ENGINE
    if not isinstance(engine, Engine) or engine.game != game:
        raise TypeError(f"{module}.ENGINE must be an Engine for {game!r}")
    return engine


@dataclass(frozen=True)
class Refereed:
    """One line of the stream and the decisions it settled."""

    line_no: int
    event: JsonLine
    decisions: tuple[Decision, ...]
    state: Any


def referee(source: str | Iterable[str], engine: Engine | None = None) -> Iterator[Refereed]:
    """Referee a stream (path or lines) line by line, yielding as it goes.

    Stops with ``RefereeError`` at the first line that the contract or the rules cannot use, after
    everything before it has been yielded. Decision lines already in the stream (a recorded run) are skipped:
    the engine makes its own.
    """
    lines = iter_numbered(source)
    try:
        _, match = next(lines)
    except ContractError as e:
        raise RefereeError(e.line_no, e.message) from None
    assert isinstance(match, Match)  # iter_numbered guarantees the header first
    engine = engine or engine_for(match.game)
    if engine.game != match.game:
        raise RefereeError(1, f"the stream is a {match.game!r} match, not {engine.game!r}")
    try:
        state = engine.start(match)
    except ValueError as e:  # RuleError included: options the engine cannot use
        raise RefereeError(1, f"match options: {e}") from None
    while True:
        try:
            line_no, event = next(lines)
        except StopIteration:
            return
        except ContractError as e:
            raise RefereeError(e.line_no, e.message) from None
        if isinstance(event, Decision):
            continue
        try:
            state, decisions = engine.step(state, event)
        except RuleError as e:
            raise RefereeError(line_no, str(e)) from None
        yield Refereed(line_no, event, decisions, state)
