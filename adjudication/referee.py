"""The one way to run a rule engine over a match: ``Referee``, and ``referee`` over a numbered stream.

Every caller that referees (the command line, the match record, corrections, the dice pipeline, the
dashboard) goes through ``Referee``: it starts the game's engine on the header, steps it over each line and
keeps the state and every decision. Decision lines already in a stream (a recorded run) are skipped: the
engine makes its own.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from adjudication.engine import Engine, RuleError
from adjudication.engines import engine_for
from arbiter.contract import ContractError, Decision, JsonLine, Match, iter_numbered
from arbiter.games import UnknownGameError, game


class RefereeError(ValueError):
    """Refereeing stopped at ``line_no`` (1-based, as in the file): the reason, from the contract or rules."""

    def __init__(self, line_no: int | None, message: str) -> None:
        self.line_no = line_no
        self.message = message
        where = f"line {line_no}: " if line_no is not None else ""
        super().__init__(where + message)


class Referee:
    """One match refereed line by line: the engine's state after the last line, and every decision.

    ``RuleError`` from ``start`` (options the engine cannot use) and from ``step`` (a line it cannot use)
    propagate unchanged, so each caller says where the bad line was in its own terms.
    """

    def __init__(self, header: Match, engine: Engine | None = None) -> None:
        self.header = header
        self.engine = engine or engine_for(game(header.game))
        if self.engine.game != header.game:
            raise RuleError(f"the match is {header.game!r}, not {self.engine.game!r}")
        self.state: Any = self.engine.start(header)
        self.decisions: list[Decision] = []

    def step(self, line: JsonLine) -> tuple[Decision, ...]:
        """Feed one line after the header; the decisions it settles. Decision lines are skipped."""
        if isinstance(line, Decision):
            return ()
        self.state, decisions = self.engine.step(self.state, line)
        self.decisions.extend(decisions)
        return decisions

    @property
    def score(self) -> Mapping[str, int]:
        return self.state.score  # type: ignore[no-any-return]

    @property
    def over(self) -> bool:
        return bool(self.state.over)

    @property
    def winner(self) -> str | None:
        return self.state.winner  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Refereed:
    """One line of the stream and the decisions it settled."""

    line_no: int
    event: JsonLine
    decisions: tuple[Decision, ...]
    state: Any


def referee(
    source: str | os.PathLike[str] | Iterable[str], engine: Engine | None = None
) -> Iterator[Refereed]:
    """Referee a stream (path or lines) line by line, yielding as it goes.

    Stops with ``RefereeError`` at the first line that the contract or the rules cannot use, after
    everything before it has been yielded.
    """
    lines = iter_numbered(source)
    try:
        _, match = next(lines)
    except ContractError as e:
        raise RefereeError(e.line_no, e.message) from None
    if not isinstance(match, Match):  # iter_numbered guarantees the header first
        raise RefereeError(1, "the first line must be the match header")
    ref = _start(match, engine)
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
            decisions = ref.step(event)
        except RuleError as e:
            raise RefereeError(line_no, str(e)) from None
        yield Refereed(line_no, event, decisions, ref.state)


def _start(match: Match, engine: Engine | None) -> Referee:
    if engine is not None and engine.game != match.game:
        raise RefereeError(1, f"the stream is a {match.game!r} match, not {engine.game!r}")
    try:
        return Referee(match, engine)
    except (KeyError, UnknownGameError) as e:  # no such game, or no engine for it
        raise RefereeError(1, str(e)) from None
    except ValueError as e:  # RuleError included: options the engine cannot use
        raise RefereeError(1, f"match options: {e}") from None
