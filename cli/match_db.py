"""A run recorded into a match database as it goes (``--db``, ``--resume``): what ``arbiter run`` and
``arbiter dice run`` share. Each event is recorded with the decisions of the game's engine as it arrives
(``record.recorder``); a run cut short leaves its match unfinished, to be resumed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from arbiter import contract
from arbiter.games import GameSpec
from cli.common import fail
from record.recorder import Recorder, recording
from record.store import MatchRecord, RecordError

DbOption = Annotated[
    Path | None,
    typer.Option(envvar="ARBITER_DB", help="Also record the match, with the referee's calls, here."),
]
ResumeOption = Annotated[
    int | None, typer.Option(help="Resume this interrupted match of --db (its game and players).")
]


@dataclass
class Recording:
    """The match record a run writes into, when ``--db`` asks for one."""

    record: MatchRecord
    match_id: int
    recorder: Recorder

    def close(self, finished: bool) -> None:
        """Close the record; a run that ended (not cut short) finishes its match."""
        if finished:
            self.record.finish(self.match_id)
        self.record.close()


def open_recording(db: Path, resume: int | None, spec: GameSpec, names: tuple[str, ...], source: str,
                   live: bool) -> tuple[Recording, contract.Match]:  # fmt: skip
    """Open ``db`` and start (or resume) the match; a file is replayed from its start and what was recorded
    is skipped, a live source goes on from where the record stopped. A resumed match must be of ``spec``'s
    game."""
    try:
        record = MatchRecord.open(db)
        if resume is not None:
            header = record.header(resume)
            match_id = resume
        else:
            header = contract.Match(game=spec.id, players=names)
            match_id = record.start_match(header, source=source)
        offset = (record.resume_point(match_id) or 0.0) if live and resume is not None else 0.0
        recorder = recording(record, match_id, skip_recorded=not live, t_offset=offset)
    except (RecordError, KeyError, ValueError) as exc:
        fail(str(exc))
    if header.game != spec.id:
        record.close()
        fail(f"match {match_id} of {db} is a {header.game} match: resume it with --game {header.game}")
    return Recording(record, match_id, recorder), header
