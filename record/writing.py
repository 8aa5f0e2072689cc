"""Writing the record: a match started, each line appended as it arrives, a match finished, a stream imported.

One transaction per appended line (``append``), or per event and the decisions it settles (``append_many``):
when it returns, the lines are on disk. Several processes may write one file (the camera run, a dashboard
adding a player's nomination); SQLite serialises them and ``seq`` numbers stay gap-free. Lines are stored as
the exact contract text of ``contract.to_json``, so an export is byte-identical to what was recorded.
Appending applies the stream rules one line can break on its own (players from the header, times never
going back), so every record exports as a valid stream. Appending to an interrupted match makes the
appending process its writer: that is resuming.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from arbiter import contract as c
from record.database import Connection, RecordError, timestamp
from record.writer_process import this_writer, writer_alive


def read_importable(path: str | os.PathLike[str]) -> tuple[c.Match, list[c.JsonLine]]:
    """A whole match stream to import, or ``RecordError``: what is wrong, and that nothing was imported."""
    path = Path(path)
    try:
        return c.read_stream(path)
    except FileNotFoundError:
        raise RecordError(f"{path} not found: give a match stream (JSON Lines) to import") from None
    except c.ContractError as e:
        raise RecordError(f"{path}: {e}; nothing was imported") from None
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"{path}: cannot be read ({e}); nothing was imported") from None


def _row_id(cur: sqlite3.Cursor) -> int:
    """The id SQLite gave the row just inserted (always set after an INSERT)."""
    if cur.lastrowid is None:
        raise RecordError("SQLite gave the new match no id; the file may be damaged")
    return cur.lastrowid


def _insert_match(
    conn: sqlite3.Connection, header: c.Match, source: str | None, now: str, finished: bool
) -> int:
    """A new match row, its id: running and written by this process, or finished (imported) with no writer."""
    cur = conn.execute(
        "INSERT INTO matches (game, players, header, source, started_at, updated_at, finished_at, status, "
        "writer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            header.game,
            json.dumps(list(header.players), ensure_ascii=False),
            c.to_json(header),
            source,
            now,
            now,
            now if finished else None,
            "finished" if finished else "running",
            None if finished else json.dumps(this_writer()),
        ),
    )
    return _row_id(cur)


class Writing(Connection):
    """What the record writes (see the module docstring)."""

    def start_match(self, header: c.Match, source: str | None = None) -> int:
        """A new running match, written by this process; returns its id."""
        if not isinstance(header, c.Match):
            raise TypeError(f"start_match needs a contract Match header (got {type(header).__name__})")
        now = timestamp()
        with self._write() as conn:
            match_id = _insert_match(conn, header, source, now, finished=False)
        self._headers[match_id] = header
        self._writing.add(match_id)
        return match_id

    def set_table(self, match_id: int, table: str | None) -> c.Match:
        """The match's header with the table a run found (``Match.table``): a video run's match is started
        before its calibration, and the engine must judge on the table played. Only a match that holds no
        line yet takes another table; one with lines keeps its own (RecordError saying which it is)."""
        header = self.header(match_id)
        if header.table == table:
            return header
        new = replace(header, table=table)  # checked as any header: a size the game is played on
        with self._write() as conn:
            if conn.execute("SELECT 1 FROM lines WHERE match_id = ? LIMIT 1", (match_id,)).fetchone():
                raise RecordError(
                    f"match {match_id} was recorded on the {header.table or 'standard'} table, not "
                    f"{table or 'the standard one'}: go on with it on its own table (--table "
                    f"{header.table or 'of the game'})"
                )
            conn.execute("UPDATE matches SET header = ? WHERE id = ?", (c.to_json(new), match_id))
        self._headers[match_id] = new
        return new

    def append(self, match_id: int, line: c.JsonLine) -> int:
        """Record one line (event, player input or decision) durably; returns its ``seq``."""
        return self.append_many(match_id, [line])[0]

    def append_many(self, match_id: int, lines: Iterable[c.JsonLine]) -> list[int]:
        """Record several lines in one transaction (an event and the decisions it settled): all or none."""
        lines = list(lines)
        header = self.header(match_id)
        texts = [self._checked(header, line) for line in lines]
        with self._write() as conn:
            status, writer, last_seq = self._state_for_append(conn, match_id)
            if status == "finished":
                raise RecordError(
                    f"match {match_id} is finished; it takes no more lines (start a new match to go on)"
                )
            last_t = self._last_t(conn, match_id)
            seqs: list[int] = []
            now = timestamp()
            for line, text in zip(lines, texts, strict=True):
                t = getattr(line, "t", None)
                if t is not None:
                    if last_t is not None and t < last_t:
                        raise RecordError(
                            f"match {match_id}: a {line.TYPE} line at t={t} is before the last recorded "
                            f"t={last_t}; lines are recorded in time order (a resumed live source needs a "
                            "time offset: recording(..., t_offset=record.resume_point(match))"
                        )
                    last_t = t
                last_seq += 1
                conn.execute(
                    "INSERT INTO lines (match_id, seq, type, t, json, recorded_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (match_id, last_seq, line.TYPE, t, text, now),
                )
                seqs.append(last_seq)
            if match_id in self._writing or not writer_alive(writer):
                conn.execute(
                    "UPDATE matches SET updated_at = ?, writer = ? WHERE id = ?",
                    (now, json.dumps(this_writer()), match_id),
                )
                self._writing.add(match_id)
            else:  # another live process records this match (the camera run); this one only adds to it
                conn.execute("UPDATE matches SET updated_at = ? WHERE id = ?", (now, match_id))
        return seqs

    @staticmethod
    def _checked(header: c.Match, line: c.JsonLine) -> str:
        """The contract text of ``line``, after the stream rules that one line can break on its own."""
        if not isinstance(line, c.JsonLine):
            raise TypeError(f"append takes contract lines (JsonLine), not {type(line).__name__}")
        if isinstance(line, c.Match):
            raise RecordError("a match header is recorded by start_match, not appended to a match")
        for where, name in line.player_refs():
            if name not in header.players:
                raise RecordError(
                    f"{where} {name!r} is not a player of this match ({', '.join(header.players)})"
                )
        return c.to_json(line)

    def _state_for_append(self, conn: sqlite3.Connection, match_id: int) -> tuple[str, Any, int]:
        row = conn.execute("SELECT status, writer FROM matches WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            raise self._no_match(match_id)
        last = conn.execute("SELECT max(seq) FROM lines WHERE match_id = ?", (match_id,)).fetchone()[0]
        return row[0], json.loads(row[1]) if row[1] else None, last or 0

    @staticmethod
    def _last_t(conn: sqlite3.Connection, match_id: int) -> float | None:
        row = conn.execute(
            "SELECT t FROM lines WHERE match_id = ? AND t IS NOT NULL ORDER BY seq DESC LIMIT 1", (match_id,)
        ).fetchone()
        return None if row is None else row[0]

    def finish(self, match_id: int) -> None:
        """Mark the match finished: it was recorded to its end and takes no more lines."""
        now = timestamp()
        with self._write() as conn:
            cur = conn.execute(
                "UPDATE matches SET status = 'finished', finished_at = coalesce(finished_at, ?), "
                "updated_at = ?, writer = NULL WHERE id = ?",
                (now, now, match_id),
            )
            if cur.rowcount == 0:
                raise self._no_match(match_id)
        self._writing.discard(match_id)

    def delete_match(self, match_id: int) -> None:
        """Remove a match and all its lines."""
        with self._write() as conn:
            conn.execute("DELETE FROM lines WHERE match_id = ?", (match_id,))
            if conn.execute("DELETE FROM matches WHERE id = ?", (match_id,)).rowcount == 0:
                raise self._no_match(match_id)
        self._headers.pop(match_id, None)
        self._writing.discard(match_id)

    def import_jsonl(self, path: str | os.PathLike[str], source: str | None = None) -> int:
        """A match stream (an export, or a run's ``events.jsonl``) as a new finished match; returns its id.

        The whole file is checked against the contract first and stored in one transaction, so a bad line
        imports nothing. Lines keep their exact contract text: exporting the match gives the file back
        byte for byte when it was itself written by ``to_json`` (an export, a pipeline run).
        ``record.recorder.import_refereed`` imports a stream of events with the engine's decisions added.
        """
        header, lines = read_importable(path)
        return self.import_lines(header, lines, source if source is not None else str(path))

    def import_lines(self, header: c.Match, lines: Iterable[c.JsonLine], source: str) -> int:
        """A whole match, already read, stored as a new finished match in one transaction; its id."""
        now = timestamp()
        with self._write() as conn:
            match_id = _insert_match(conn, header, source, now, finished=True)
            conn.executemany(
                "INSERT INTO lines (match_id, seq, type, t, json, recorded_at) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (match_id, seq, line.TYPE, getattr(line, "t", None), c.to_json(line), now)
                    for seq, line in enumerate(lines, start=1)
                ],
            )
        self._headers[match_id] = header
        return match_id
