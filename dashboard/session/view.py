"""The view of one match, as the page shows it: the timeline of the corrected stream with each decision under
the line that settled it (and the rule it applied), and the scoreboard.

Built from the record's lines and the referee's corrections (``record.overrides``): the recorded lines stay
as they are, the corrected stream is refereed again from its header by the game's engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from adjudication.engines import engine_for
from adjudication.referee import RefereeError
from adjudication.team.timekeeper import Board, board
from arbiter import contract as c
from arbiter import narrate
from arbiter.games import GameSpec, TeamSpec, UnknownGameError, game
from record import export, overrides
from record.overrides import Override, OverrideError, Recomputed
from record.store import CAMERA_TYPES, MatchInfo

ROOT = Path(__file__).resolve().parents[2]  # the checkout: docs/games/<id>.md are the rules pages


def rules_text(spec: GameSpec) -> str | None:
    """The page of the rules the game's engine applies (``spec.rules_page``, Markdown); None where the page
    is not written yet."""
    path = ROOT / spec.rules_page
    return path.read_text(encoding="utf-8") if path.is_file() else None


@dataclass(frozen=True)
class DecisionRow:
    text: str  # the call in words (narrate.describe_decision, first line)
    notes: tuple[str, ...]
    foul: bool
    decision: c.Decision
    rule: str | None = None  # the rule behind a foul, by the governing body's name and number


@dataclass(frozen=True)
class TimelineRow:
    """One line of the corrected stream (``line_no``: 1 is the header) and the decisions it settled."""

    line_no: int
    t: float | None
    type: str
    text: str
    decisions: tuple[DecisionRow, ...] = ()
    json: str = ""  # the line as the contract writes it (to copy into a correction)
    corrected: bool = False  # an override put this line here
    stopped: str | None = None  # the rules could not use this line: why
    line: c.JsonLine | None = None  # the line itself (None where it is not a line of the contract)


@dataclass(frozen=True)
class Scoreboard:
    players: tuple[str, ...]
    score: Mapping[str, int]
    next: str | None
    on: str | None
    awaiting: tuple[str, ...]
    over: bool
    winner: str | None
    last_call: str | None = None
    since: tuple[str, ...] = ()  # player inputs taken after the last decision, in words


@dataclass(frozen=True)
class MatchView:
    """Everything the page shows of one match, from its record, its overrides and its engine."""

    info: MatchInfo
    header: c.Match
    rows: tuple[TimelineRow, ...]
    board: Scoreboard
    decisions: tuple[c.Decision, ...]
    overrides: tuple[Override, ...]
    lines: tuple[c.JsonLine, ...]  # the corrected stream after the header, decisions interleaved
    error: str | None = None  # where the rules stopped, if they did
    override_error: str | None = None
    spec: GameSpec | None = None  # the game of the header (None for a game the registry does not know)
    team: Board | None = None  # a team match: the timekeeper's board after the last refereed line

    @property
    def id(self) -> int:
        return self.info.id

    @property
    def stream_length(self) -> int:
        """Lines of the corrected stream, the header included: the last line number an override may name."""
        return 1 + sum(not isinstance(x, c.Decision) for x in self.lines)


def _decision_row(d: c.Decision) -> DecisionRow:
    text = narrate.describe_decision(d).splitlines()[0]
    rule = d.foul.rule if d.foul is not None else d.law  # a team sport names the law of every call
    return DecisionRow(text, tuple(d.notes), d.foul is not None, d, rule)


def _traced(
    header_text: str, texts: Sequence[str], overrides_: Sequence[Override]
) -> tuple[list[tuple[str, bool]], str | None]:
    """The corrected stream, each line marked when a correction put it there, and a correction that could
    not apply (which cannot happen for corrections checked when made; shown if it does)."""
    try:
        return overrides.trace([header_text, *texts], overrides_), None
    except OverrideError as exc:
        return overrides.trace([header_text, *texts], ()), str(exc)


def _refereed(stream: Sequence[str]) -> Recomputed:
    try:
        return overrides.referee_lines(stream)
    except RefereeError as exc:  # the header itself cannot be refereed (options, no engine): nothing decided
        return Recomputed(tuple(stream), (), exc)


def _rows(
    traced: Sequence[tuple[str, bool]], recomputed: Recomputed
) -> tuple[list[TimelineRow], list[c.JsonLine]]:
    """A timeline row for each line after the header, and the lines with their decisions interleaved."""
    steps = {s.line_no: s for s in recomputed.steps}
    error = recomputed.error
    rows: list[TimelineRow] = []
    lines: list[c.JsonLine] = []
    for line_no, (text, corrected) in enumerate(traced[1:], start=2):
        step = steps.get(line_no)
        try:
            line = step.event if step is not None else c.parse_line(text, line_no)
        except c.ContractError as exc:
            rows.append(TimelineRow(line_no, None, "?", text, (), text, corrected, exc.message))
            continue
        decisions = step.decisions if step is not None else ()
        lines.extend([line, *decisions])
        stopped = error.message if error is not None and error.line_no == line_no else None
        t = getattr(line, "t", None)
        made = tuple(_decision_row(d) for d in decisions)
        rows.append(
            TimelineRow(line_no, t, line.TYPE, export.words(line), made, text, corrected, stopped, line)
        )
    return rows, lines


def _spec(header: c.Match) -> GameSpec | None:
    try:
        return game(header.game, header.table)  # a billiards game on the table of the header's size
    except UnknownGameError:
        return None


def build_view(
    info: MatchInfo, header_text: str, texts: Sequence[str], overrides_: Sequence[Override]
) -> MatchView:
    """The view of a match whose recorded lines (after the header, decisions skipped) are ``texts``."""
    traced, override_error = _traced(header_text, texts, overrides_)
    stream = [line for line, _ in traced]
    header = c.parse_line(stream[0], 1)  # the recorded header, or the one a correction put in its place
    if not isinstance(header, c.Match):  # the record stores headers; a correction replaces one by one
        raise TypeError(f"line 1 of match {info.id} is a {header.TYPE} line, not a match header")
    spec = _spec(header)
    recomputed = _refereed(stream)
    rows, lines = _rows(traced, recomputed)
    decisions = tuple(recomputed.decisions)
    board = _board(header, spec, recomputed, decisions, _inputs_since_last_decision(recomputed))
    error = recomputed.error
    return MatchView(
        info=info,
        header=header,
        rows=tuple(rows),
        board=board,
        decisions=decisions,
        overrides=tuple(overrides_),
        lines=tuple(lines),
        error=str(error) if error is not None else None,
        override_error=override_error,
        spec=spec,
        team=_team_board(header, spec, recomputed),
    )


def _team_board(header: c.Match, spec: GameSpec | None, recomputed: Recomputed) -> Board | None:
    """The timekeeper's board of a team match (``adjudication.team.timekeeper``); None for other games or
    a header the engine refuses."""
    if not isinstance(spec, TeamSpec):
        return None
    try:
        start = engine_for(spec).start(header)
    except ValueError:
        return None
    return board(start, ((s.event, s.decisions, s.state) for s in recomputed.steps))


def _inputs_since_last_decision(recomputed: Recomputed) -> list[c.JsonLine]:
    """Player inputs the engine took after its last decision (a choice after a foul, a nomination)."""
    out: list[c.JsonLine] = []
    for step in reversed(recomputed.steps):
        if step.decisions:
            break
        if step.event.TYPE not in CAMERA_TYPES:
            out.append(step.event)
    return out[::-1]


def _board(
    header: c.Match,
    spec: GameSpec | None,
    recomputed: Recomputed,
    decisions: Sequence[c.Decision],
    since: Sequence[c.JsonLine],
) -> Scoreboard:
    state = recomputed.state
    if state is None and spec is not None:
        try:
            state = engine_for(spec).start(header)
        except (KeyError, ValueError):
            state = None
    score = dict(state.score) if state is not None else dict.fromkeys(header.players, 0)
    last = decisions[-1] if decisions else None
    first = header.options.get("first") or header.players[0]
    return Scoreboard(
        players=header.players,
        score=score,
        next=last.next if last is not None else first,
        on=last.on if last is not None else None,
        # what the last decision waited for, less the inputs of that type the engine has taken since
        awaiting=tuple(a for a in (last.awaiting if last else ()) if a not in {x.TYPE for x in since}),
        over=bool(state.over) if state is not None else False,
        winner=state.winner if state is not None else None,
        last_call=_decision_row(last).text if last is not None else None,
        since=tuple(export.words(x) for x in since),
    )
