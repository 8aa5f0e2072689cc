"""The match record: every match, with its events, player inputs and decisions, in one SQLite file.

docs/architecture.md, Record: an embedded database by default, written as each line arrives, so that a run
interrupted at any point (a killed process, a lost camera) loses nothing already recorded and can resume.

``MatchRecord`` is the record as callers use it; its parts each have a module:

- ``record.database``: the schema, whose file it is (anything else is refused and left untouched), opening
  it, one connection with its transactions and the match headers;
- ``record.writing``: starting a match, appending lines (one transaction each, durable when it returns),
  finishing, importing a stream;
- ``record.reading``: the lines of a match as recorded (exact contract text: exports are byte-identical);
- ``record.listing``: the matches with their status (``running``, ``finished``, ``interrupted`` when the
  writing process is gone) and last score;
- ``record.writer_process``: which process writes a match, and whether it still lives.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Self

from record.database import APPLICATION_ID, SCHEMA_VERSION, RecordError, connect
from record.listing import Listing, MatchInfo, Status
from record.reading import CAMERA_TYPES, LineRow, Reading
from record.writing import Writing, read_importable


class MatchRecord(Writing, Reading, Listing):
    """A match database. Open with ``MatchRecord.open(path)``; use as a context manager or ``close()``.

    Thread-safe (one connection behind a lock), so a dashboard's threads may share one instance.
    """

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> Self:
        """The record in ``path``, created (with its folder) when the file is absent or empty.

        Raises ``RecordError`` for a file that is not SQLite, is corrupt, belongs to another program or has
        a schema this version does not know; such a file is not written to.
        """
        path = Path(path)
        return cls(path, connect(path))

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"MatchRecord({str(self.path)!r})"


__all__ = [
    "APPLICATION_ID",
    "CAMERA_TYPES",
    "SCHEMA_VERSION",
    "LineRow",
    "MatchInfo",
    "MatchRecord",
    "RecordError",
    "Status",
    "read_importable",
]
