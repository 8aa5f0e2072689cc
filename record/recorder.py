"""Recording a match as it goes, with the rule engine's decisions interleaved; importing a stream refereed.

``Recorder`` is the pipeline's ``on_event``: each event is appended with the decisions it settles, in one
transaction, through the one ``adjudication.referee.Referee``. The storage itself is ``record.store``'s.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

from adjudication.referee import Referee
from arbiter import contract as c
from arbiter.games import BilliardsSpec, game
from record.store import CAMERA_TYPES, MatchRecord, RecordError, read_importable


def import_refereed(record: MatchRecord, path: str | os.PathLike[str], source: str | None = None) -> int:
    """A stream of events without decisions (a run's ``events.jsonl``) imported as a finished match, the
    game's engine deciding it on the way in: each decision placed after the line that settled it, as a live
    recording would have placed it. A stream that already holds decisions is refused; a bad line imports
    nothing."""
    header, lines = read_importable(path)
    return record.import_lines(header, _decided(Path(path), header, lines), source or str(path))


def _decided(path: Path, header: c.Match, lines: list[c.JsonLine]) -> list[c.JsonLine]:
    """``lines`` with the engine's decisions after the lines that settle them."""
    if any(isinstance(line, c.Decision) for line in lines):
        raise RecordError(f"{path} already holds decisions; import it without refereeing to keep them")
    try:
        referee = Referee(header)
    except KeyError as e:
        raise RecordError(f"{path}: {e}; import it without refereeing") from None
    except ValueError as e:
        raise RecordError(f"{path}: line 1: match options: {e}; nothing was imported") from None
    out: list[c.JsonLine] = []
    for line_no, line in enumerate(lines, start=2):
        try:
            decisions = referee.step(line)
        except ValueError as e:  # RuleError included
            raise RecordError(f"{path}: line {line_no}: {e}; nothing was imported") from None
        out += [line, *decisions]
    return out


# --- recording a run as it goes, with the rule engine's decisions ---------------------------------------


class Recorder:
    """Appends each line of a live run as it arrives, and the decisions it settles, in one transaction each.

    Built on a match that may already hold lines (a resumed run): the engine's state is rebuilt from them
    (engines are pure, so this is exact), and decisions the record lacks are appended first (``catch_up``).

    Replaying (``skip_recorded``): a video file run again from its start re-detects what was recorded before
    the interruption. Camera events up to the resume point are skipped (events at exactly that ``t`` are
    skipped as many times as recorded there); player inputs are skipped while they equal the recorded ones,
    in order. For a live camera, which cannot replay, pass ``skip_recorded=False`` and shift its clock with
    ``t_offset`` (``record.resume_point(match)``) so that time keeps going forward.

    A run cut short (stopped, or its camera lost) leaves the shot in play open: started, not ended, not
    decided (``pipeline.billiards``). ``shot_open`` says so of the record as it was found; the resumed run
    completes that shot (a replayed file finds its end again; a live source is told, ``RunOptions.shot_open``)
    and the engine judges it once, whole.

    A line the engine cannot use (a shot while a choice is awaited) is still recorded, since it happened;
    refereeing stops there, with the reason in ``problem``, and ``referee_into`` can decide the rest later.
    """

    def __init__(
        self,
        record: MatchRecord,
        match_id: int,
        *,
        decide: bool = True,
        skip_recorded: bool = True,
        t_offset: float = 0.0,
    ) -> None:
        self.record = record
        self.match_id = match_id
        self.header = record.header(match_id)
        self.t_offset = t_offset
        self.problem: str | None = None
        self._last_state: Any = None
        self._referee: Referee | None = None
        self._missing: list[c.Decision] = []
        self._decide = decide
        recorded = record.lines(match_id)
        if decide:
            self._start_engine(recorded)
        self._skip = skip_recorded
        self._resume_t = record.resume_point(match_id)
        self._ties = sum(
            1 for ln in recorded if ln.TYPE in CAMERA_TYPES and getattr(ln, "t", None) == self._resume_t
        )
        self._inputs = [
            c.to_json(ln) for ln in recorded if ln.TYPE not in CAMERA_TYPES and not isinstance(ln, c.Decision)
        ]
        self._input_cursor = 0
        self.shot_open = _shot_open(recorded)

    def _start_engine(self, recorded: list[c.JsonLine]) -> None:
        try:
            self._referee = Referee(self.header)
        except KeyError:
            return  # no rules for this game: record only
        except ValueError as e:  # RuleError included: options the engine cannot use
            self._stop(str(e))
            return
        try:
            for line in recorded:
                self._referee.step(line)
        except ValueError as e:  # RuleError included
            self._stop(str(e))
            return
        have = sum(isinstance(ln, c.Decision) for ln in recorded)
        self._missing = self._referee.decisions[have:]

    def _stop(self, problem: str) -> None:
        self.problem = problem
        self._last_state = self._referee.state if self._referee is not None else None
        self._referee = None

    @property
    def deciding(self) -> bool:
        """Whether the rule engine still follows the match."""
        return self._referee is not None

    @property
    def state(self) -> Any:
        """The engine's state after the last line it used (``score``, ``over``, ``winner``), or None."""
        return self._referee.state if self._referee is not None else self._last_state

    def table_found(self, table: str | None) -> None:
        """The table the run found or was given (``Match.table``), written into a match that holds no line
        yet (``MatchRecord.set_table``), the engine started again on it; a resumed match on another table
        is a RecordError. The game's standard size and no size are the same table."""
        if _same_table(self.header, table):
            return
        self.header = self.record.set_table(self.match_id, table)
        if self._decide:  # no line yet: the engine starts afresh on the table played
            self.problem = None
            self._start_engine([])

    def catch_up(self) -> list[int]:
        """Append the decisions the engine makes on recorded lines that the record lacks; their seqs."""
        missing, self._missing = self._missing, []
        return self.record.append_many(self.match_id, missing) if missing else []

    def _replayed(self, line: c.JsonLine) -> bool:
        if not self._skip:
            return False
        if line.TYPE in CAMERA_TYPES:
            t = getattr(line, "t", None)
            if self._resume_t is None or t is None or t > self._resume_t:
                return False
            if t == self._resume_t:
                if self._ties == 0:
                    return False
                self._ties -= 1
            return True
        if self._input_cursor < len(self._inputs) and c.to_json(line) == self._inputs[self._input_cursor]:
            self._input_cursor += 1
            return True
        return False

    def __call__(self, line: object) -> list[int]:
        """Record one line of the run (the pipeline's ``on_event``); returns the seqs written, maybe none.
        The run's own header (the pipeline's ``on_header``) gives the match the table it found."""
        if isinstance(line, c.Match):
            self.table_found(line.table)
            return []
        if not isinstance(line, c.JsonLine):
            raise TypeError(f"a recorder takes contract lines, not {type(line).__name__}")
        if self.t_offset and getattr(line, "t", None) is not None:
            timed = cast(Any, line)  # a line with a time: every such line is a dataclass with ``t``
            line = cast(c.JsonLine, replace(timed, t=timed.t + self.t_offset))
        if self._replayed(line):
            return []
        self._skip = self._skip and line.TYPE not in CAMERA_TYPES  # past the resume point: stop skipping
        decisions: tuple[c.Decision, ...] = ()
        if self._referee is not None:
            try:
                decisions = self._referee.step(line)
            except ValueError as e:  # RuleError included: record the line anyway, stop deciding
                when = f" at t={line.t}" if getattr(line, "t", None) is not None else ""  # type: ignore[attr-defined]
                self._stop(f"the {line.TYPE} line{when}: {e}")
        return self.record.append_many(self.match_id, [line, *decisions])


def _same_table(header: c.Match, table: str | None) -> bool:
    """Whether ``table`` is the table of ``header`` (its standard size and no size are the same)."""
    spec = game(header.game)
    standard = spec.table.size if isinstance(spec, BilliardsSpec) else None
    return (header.table or standard) == (table or standard)


def _shot_open(lines: list[c.JsonLine]) -> bool:
    """Whether the last shot of ``lines`` was started and not ended: its run was cut short in the middle."""
    for line in reversed(lines):
        if isinstance(line, c.ShotEnd):
            return False
        if isinstance(line, c.ShotStart):
            return True
    return False


def recording(
    record: MatchRecord,
    match_id: int,
    *,
    decide: bool = True,
    skip_recorded: bool = True,
    t_offset: float = 0.0,
) -> Recorder:
    """An ``on_event`` callback for ``pipeline.referee_video`` that records each event as it arrives, with
    the decisions of the game's engine interleaved (see ``Recorder``). Missing decisions are caught up first.
    """
    recorder = Recorder(record, match_id, decide=decide, skip_recorded=skip_recorded, t_offset=t_offset)
    recorder.catch_up()
    return recorder


def referee_into(record: MatchRecord, match_id: int, lines: Iterable[c.JsonLine] = ()) -> list[c.Decision]:
    """Run the rule engine over a match's recorded lines and append the decisions they lack, then append
    ``lines`` one by one, each followed by the decisions it settles. Returns the decisions appended.

    A match recorded without decisions (an imported ``events.jsonl``) gets them all at its end; the report
    pairs them with their shots by number. Raises ``RecordError`` where the engine cannot use a line.
    """
    recorder = Recorder(record, match_id, skip_recorded=False)
    if recorder.problem is not None:
        raise RecordError(f"match {match_id}: refereeing stopped on a recorded line: {recorder.problem}")
    if not recorder.deciding:
        raise RecordError(f"match {match_id}: no rule engine for {recorder.header.game!r}; nothing to decide")
    appended = list(recorder._missing)
    recorder.catch_up()
    for line in lines:
        seqs = recorder(line)
        if recorder.problem is not None:
            raise RecordError(f"match {match_id}: {recorder.problem}")
        appended.extend(ln for ln in record.lines(match_id, after=seqs[0]) if isinstance(ln, c.Decision))
    return appended
