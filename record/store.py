"""The match record: every match, with its events, player inputs and decisions, in one SQLite file.

docs/architecture.md, Record: an embedded database by default, written as each line arrives, so that a run
interrupted at any point (a killed process, a lost camera) loses nothing already recorded and can resume.

Durability: one transaction per appended line (``append``), or per event and the decisions it settles
(``append_many``), in WAL mode with ``synchronous=FULL``: when ``append`` returns, the line is on disk and
survives a killed process and a power cut. Several processes may write one file (the camera run, a
dashboard adding a player's nomination); SQLite serialises them and ``seq`` numbers stay gap-free.
A WAL database must sit on a local disk: SQLite's locking does not work over network file systems.

What is stored: each line as the exact contract text of ``contract.to_json`` (so an export is byte-identical
to what was recorded, and ``import_jsonl`` of an export gives the same lines), beside its type and ``t``.
The header is kept with the match; ``seq`` numbers the lines after it from 1, so line ``seq`` is line
``seq + 1`` of the exported file. Appending applies the stream rules of ``contract.iter_numbered`` (players
from the header, times never going back), so every record exports as a valid stream.

Ownership of a file: it is Arbiter's when ``PRAGMA application_id`` is ``APPLICATION_ID`` and its
``arbiter_meta`` table says so; ``PRAGMA user_version`` is the schema version. Anything else (not SQLite,
corrupt, another program's database, a schema this version does not know) is refused with ``RecordError``
and left byte-for-byte untouched: there is no silent overwrite and no silent migration. Only an absent or
empty file becomes a new record: 0 bytes, or a SQLite file with no schema at all and no other program's
mark (what a creation killed before its first commit leaves).

Status: a match is ``running`` from ``start_match`` until ``finish``. The process writing it is stored with
it (host, pid, process start time); ``matches()`` reports a running match whose writer process no longer
exists as ``interrupted`` (Linux and macOS see dead processes; a writer on another host is taken as alive).
Appending to an interrupted match makes the appending process its writer: that is resuming.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from arbiter import contract as c

SCHEMA_VERSION = 1  # PRAGMA user_version of the files this module writes
APPLICATION_ID = 0x41524254  # "ARBT": PRAGMA application_id, SQLite's own mark of which program owns a file
BUSY_TIMEOUT_MS = 10_000  # how long a writer waits for another process's transaction before giving up
SQLITE_MAGIC = b"SQLite format 3\x00"

# Lines a camera sees: what a video run re-detects when it is run again, and what ``resume_point`` follows.
CAMERA_TYPES: frozenset[str] = frozenset(
    cls.TYPE for cls in (c.ShotStart, c.BallBall, c.Cushion, c.Pot, c.OffTable, c.PinDown, c.ShotEnd, c.Roll)
)

Status = Literal["running", "finished", "interrupted"]

_SCHEMA = """
CREATE TABLE arbiter_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE matches (
    id          INTEGER PRIMARY KEY,
    game        TEXT NOT NULL,
    players     TEXT NOT NULL,              -- JSON list, turn order
    header      TEXT NOT NULL,              -- the match line, exact contract text
    source      TEXT,                       -- video file, camera, imported file ...
    started_at  TEXT NOT NULL,              -- ISO 8601, UTC
    updated_at  TEXT NOT NULL,
    finished_at TEXT,
    status      TEXT NOT NULL CHECK (status IN ('running', 'finished')),
    writer      TEXT                        -- JSON {host, pid, start} of the writer, null once finished
);
CREATE TABLE lines (
    match_id    INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,           -- 1, 2, ... after the header
    type        TEXT NOT NULL,
    t           REAL,
    json        TEXT NOT NULL,              -- exact contract text (contract.to_json)
    recorded_at TEXT NOT NULL,
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;
CREATE INDEX lines_by_type ON lines (match_id, type, seq);
"""


class RecordError(Exception):
    """The record cannot do what was asked: what was wrong, and what to do."""


@dataclass(frozen=True)
class MatchInfo:
    """One match of the record, as ``arbiter matches`` lists it.

    ``score`` and ``winner`` come from the last decision recorded (None before any); ``lines`` counts the
    lines after the header, events, inputs and decisions alike.
    """

    id: int
    game: str
    players: tuple[str, ...]
    source: str | None
    started_at: datetime
    status: Status
    lines: int
    score: Mapping[str, int] | None
    winner: str | None
    over: bool = False
    finished_at: datetime | None = None
    updated_at: datetime | None = None


@dataclass(frozen=True)
class LineRow:
    """One recorded line with its bookkeeping: ``seq`` (1-based after the header) and when it was stored."""

    seq: int
    type: str
    t: float | None
    text: str
    recorded_at: datetime

    @property
    def line(self) -> c.JsonLine:
        return c.parse_line(self.text, self.seq + 1)


# --- the writing process, and whether it still lives ---------------------------------------------------


def _process_start(pid: int) -> str | None:
    """The start time of process ``pid`` in clock ticks since boot (Linux), so a reused pid is told apart."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rfind(")") + 2 :].split()  # after "pid (comm) ": field 3 onwards
    return fields[19] if len(fields) > 19 else None


def _process_state(pid: int) -> str | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat[stat.rfind(")") + 2 :].split()[0]


def _this_writer() -> dict[str, Any]:
    pid = os.getpid()
    return {"host": socket.gethostname(), "pid": pid, "start": _process_start(pid)}


def _writer_alive(writer: Mapping[str, Any] | None) -> bool:
    """Whether the recorded writer process still runs. A writer on another host cannot be checked: alive."""
    if not writer:
        return False
    if writer.get("host") != socket.gethostname():
        return True
    pid = writer.get("pid")
    if not isinstance(pid, int) or pid <= 0:
        return False
    if Path("/proc").is_dir():
        state = _process_state(pid)
        if state is None or state in ("Z", "X"):  # gone, or a zombie: killed, not yet reaped
            return False
        return writer.get("start") is None or _process_start(pid) == writer.get("start")
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _when(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


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


# --- opening a file --------------------------------------------------------------------------------------


def _untouched(path: Path, what: str, todo: str = "choose another file with --db") -> RecordError:
    return RecordError(f"{path}: {what}. The file was left untouched; {todo}.")


def _sidecars(path: Path) -> list[Path]:
    return [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm", "-journal")]


def _check_existing(path: Path) -> bool:
    """Refuse, without writing a byte, any file that is not an intact Arbiter record of this schema.

    Returns True for a blank SQLite file (no schema at all, no other program's mark): what a creation that
    was killed before its first commit leaves behind, with nothing in it to lose; it is made a record.
    """
    try:
        with path.open("rb") as fh:
            head = fh.read(len(SQLITE_MAGIC))
    except OSError as e:
        raise RecordError(
            f"{path}: cannot be read ({e.strerror}); check the path and its permissions"
        ) from None
    if head != SQLITE_MAGIC:
        raise _untouched(path, "not a SQLite database (an Arbiter record is one)")
    before = {p for p in _sidecars(path) if p.exists()}
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error as e:
        raise _untouched(path, f"cannot be opened as a SQLite database ({e})") from None
    try:
        blank = _check_schema(path, conn)
    except RecordError:
        conn.close()
        # A read-only look at a WAL-mode file leaves empty sidecars behind; a refused file keeps none of ours.
        # (An accepted file keeps them: another Arbiter process may be using them by now.)
        for p in _sidecars(path):
            if p not in before and p.exists() and (p.name.endswith("-shm") or p.stat().st_size == 0):
                with contextlib.suppress(OSError):
                    p.unlink()
        raise
    conn.close()
    return blank


def _check_schema(path: Path, conn: sqlite3.Connection) -> bool:
    try:
        objects = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        tables = sorted(r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as e:
        raise _untouched(path, f"is corrupt or not a database ({e})", "restore it from a backup") from None
    if objects == 0 and version == 0 and app_id in (0, APPLICATION_ID):
        return True
    if app_id != APPLICATION_ID or "arbiter_meta" not in tables:
        shown = ", ".join(tables[:8]) + (" ..." if len(tables) > 8 else "") if tables else "none"
        raise _untouched(
            path, f"is another program's SQLite database, not an Arbiter record (tables: {shown})"
        )
    try:
        meta = dict(conn.execute("SELECT key, value FROM arbiter_meta").fetchall())
        problems = [r[0] for r in conn.execute("PRAGMA quick_check").fetchall()]
    except sqlite3.DatabaseError as e:
        raise _untouched(path, f"is corrupt ({e})", "restore it from a backup") from None
    if meta.get("application") != "arbiter":
        raise _untouched(path, "carries Arbiter's mark but its arbiter_meta table does not say so")
    if version > SCHEMA_VERSION:
        raise _untouched(
            path,
            f"was written by a newer Arbiter (record schema {version}; this one reads {SCHEMA_VERSION})",
            "upgrade Arbiter to read it",
        )
    if version < SCHEMA_VERSION:
        raise _untouched(
            path,
            f"has record schema {version}, older than this Arbiter's {SCHEMA_VERSION}; no migration exists",
            "export its matches with the Arbiter that wrote it and import them here",
        )
    if problems != ["ok"]:
        raise _untouched(path, f"is corrupt ({'; '.join(problems[:3])})", "restore it from a backup")
    return False


# --- the record ------------------------------------------------------------------------------------------


class MatchRecord:
    """A match database. Open with ``MatchRecord.open(path)``; use as a context manager or ``close()``.

    Thread-safe (one connection behind a lock), so a dashboard's threads may share one instance.
    """

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self._conn = conn
        self._lock = threading.RLock()
        self._headers: dict[int, c.Match] = {}
        self._writing: set[int] = set()  # matches whose writer is known to be this process

    # -- opening and closing --

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> MatchRecord:
        """The record in ``path``, created (with its folder) when the file is absent or empty.

        Raises ``RecordError`` for a file that is not SQLite, is corrupt, belongs to another program or has
        a schema this version does not know; such a file is not written to.
        """
        path = Path(path)
        if path.is_dir():
            raise RecordError(
                f"{path} is a folder; give the database file's path, such as {path / 'arbiter.db'}"
            )
        fresh = not path.exists() or path.stat().st_size == 0 or _check_existing(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(
                path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
            )
        except (OSError, sqlite3.Error) as e:
            raise RecordError(
                f"{path}: cannot be opened for writing ({e}); check the path and permissions"
            ) from None
        try:
            if fresh:
                cls._create(path, conn)
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
        except sqlite3.Error as e:
            conn.close()
            raise RecordError(f"{path}: cannot be prepared for writing ({e})") from None
        return cls(path, conn)

    @staticmethod
    def _create(path: Path, conn: sqlite3.Connection) -> None:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                conn.execute("ROLLBACK")  # another process created it first: check it as an existing file
                _check_existing(path)
                return
            for statement in filter(str.strip, _SCHEMA.split(";")):  # executescript would commit midway
                conn.execute(statement)
            conn.executemany(
                "INSERT INTO arbiter_meta (key, value) VALUES (?, ?)",
                [("application", "arbiter"), ("schema", str(SCHEMA_VERSION)), ("created_at", _now())],
            )
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the schema in the main file from the start

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> MatchRecord:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"MatchRecord({str(self.path)!r})"

    # -- transactions --

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, committed (and on disk) when the block ends, rolled back on error."""
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as e:
                raise RecordError(
                    f"{self.path}: cannot write ({e}); is another process holding it?"
                ) from None
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except sqlite3.Error as e:  # a full disk, an I/O error: nothing of this write was recorded
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise RecordError(
                    f"{self.path}: the write failed ({e}); nothing of it was recorded"
                ) from None
            except BaseException:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise

    def _read(self, sql: str, params: Iterable[Any] = ()) -> list[tuple]:
        with self._lock:
            try:
                return self._conn.execute(sql, tuple(params)).fetchall()
            except sqlite3.DatabaseError as e:
                raise RecordError(f"{self.path}: cannot be read ({e}); the file may be damaged") from None

    # -- writing --

    def start_match(self, header: c.Match, source: str | None = None) -> int:
        """A new running match, written by this process; returns its id."""
        if not isinstance(header, c.Match):
            raise TypeError(f"start_match needs a contract Match header (got {type(header).__name__})")
        now = _now()
        with self._write() as conn:
            cur = conn.execute(
                "INSERT INTO matches (game, players, header, source, started_at, updated_at, status, writer) "
                "VALUES (?, ?, ?, ?, ?, ?, 'running', ?)",
                (
                    header.game,
                    json.dumps(list(header.players), ensure_ascii=False),
                    c.to_json(header),
                    source,
                    now,
                    now,
                    json.dumps(_this_writer()),
                ),
            )
            match_id = int(cur.lastrowid)
        self._headers[match_id] = header
        self._writing.add(match_id)
        return match_id

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
            now = _now()
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
            if match_id in self._writing or not _writer_alive(writer):
                conn.execute(
                    "UPDATE matches SET updated_at = ?, writer = ? WHERE id = ?",
                    (now, json.dumps(_this_writer()), match_id),
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
        now = _now()
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
        now = _now()
        with self._write() as conn:
            cur = conn.execute(
                "INSERT INTO matches (game, players, header, source, started_at, updated_at, finished_at, "
                "status, writer) VALUES (?, ?, ?, ?, ?, ?, ?, 'finished', NULL)",
                (
                    header.game,
                    json.dumps(list(header.players), ensure_ascii=False),
                    c.to_json(header),
                    source,
                    now,
                    now,
                    now,
                ),
            )
            match_id = int(cur.lastrowid)
            conn.executemany(
                "INSERT INTO lines (match_id, seq, type, t, json, recorded_at) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (match_id, seq, line.TYPE, getattr(line, "t", None), c.to_json(line), now)
                    for seq, line in enumerate(lines, start=1)
                ],
            )
        self._headers[match_id] = header
        return match_id

    # -- reading --

    def _no_match(self, match_id: int) -> RecordError:
        return RecordError(
            f"no match {match_id} in {self.path}; 'arbiter matches --db {self.path}' lists them"
        )

    def header(self, match_id: int) -> c.Match:
        """The match line the match was started with."""
        cached = self._headers.get(match_id)
        if cached is not None:
            return cached
        rows = self._read("SELECT header FROM matches WHERE id = ?", (match_id,))
        if not rows:
            raise self._no_match(match_id)
        header = c.parse_line(rows[0][0], 1)
        assert isinstance(header, c.Match)  # start_match and import store only Match headers
        self._headers[match_id] = header
        return header

    def header_text(self, match_id: int) -> str:
        """The header's exact contract text."""
        rows = self._read("SELECT header FROM matches WHERE id = ?", (match_id,))
        if not rows:
            raise self._no_match(match_id)
        return rows[0][0]

    def rows(self, match_id: int, after: int = 0) -> list[LineRow]:
        """The recorded lines with ``seq`` greater than ``after``, in order (a dashboard polls with it)."""
        self.header(match_id)  # raises for an unknown match
        return [
            LineRow(seq, type_, t, text, datetime.fromisoformat(at))
            for seq, type_, t, text, at in self._read(
                "SELECT seq, type, t, json, recorded_at FROM lines "
                "WHERE match_id = ? AND seq > ? ORDER BY seq",
                (match_id, after),
            )
        ]

    def lines(self, match_id: int, after: int = 0) -> list[c.JsonLine]:
        """The lines after the header (events, inputs, decisions), in the order recorded."""
        try:
            return [row.line for row in self.rows(match_id, after)]
        except c.ContractError as e:
            raise RecordError(f"{self.path}, match {match_id}: {e}") from None

    def texts(self, match_id: int) -> list[str]:
        """Every line of the match's stream as recorded, the header first: the JSON Lines export."""
        return [self.header_text(match_id), *(row.text for row in self.rows(match_id))]

    def resume_point(self, match_id: int) -> float | None:
        """The ``t`` of the last recorded camera event, or None before any: where a video run goes on from.

        Player inputs and decisions do not count: a camera run that resumes re-detects camera events only.
        """
        self.header(match_id)
        marks = ",".join("?" * len(CAMERA_TYPES))
        rows = self._read(
            f"SELECT t FROM lines WHERE match_id = ? AND type IN ({marks}) AND t IS NOT NULL "
            "ORDER BY seq DESC LIMIT 1",
            (match_id, *sorted(CAMERA_TYPES)),
        )
        return rows[0][0] if rows else None

    def info(self, match_id: int) -> MatchInfo:
        """One match as ``matches()`` lists it."""
        found = self._infos("WHERE m.id = ?", (match_id,))
        if not found:
            raise self._no_match(match_id)
        return found[0]

    def matches(self) -> list[MatchInfo]:
        """Every match, oldest first."""
        return self._infos("", ())

    def _infos(self, where: str, params: tuple) -> list[MatchInfo]:
        rows = self._read(
            "SELECT m.id, m.game, m.players, m.source, m.started_at, m.updated_at, m.finished_at, m.status, "
            "m.writer, (SELECT count(*) FROM lines l WHERE l.match_id = m.id), "
            "(SELECT json FROM lines l WHERE l.match_id = m.id AND l.type = 'decision' "
            f"ORDER BY l.seq DESC LIMIT 1) FROM matches m {where} ORDER BY m.id",
            params,
        )
        out: list[MatchInfo] = []
        for mid, game, players, source, started, updated, finished, status, writer, n, last in rows:
            if (
                status == "running"
                and mid not in self._writing
                and not _writer_alive(json.loads(writer) if writer else None)
            ):
                status = "interrupted"
            decision = json.loads(last) if last else {}
            score = decision.get("score")
            out.append(
                MatchInfo(
                    id=mid,
                    game=game,
                    players=tuple(json.loads(players)),
                    source=source,
                    started_at=datetime.fromisoformat(started),
                    status=status,
                    lines=n,
                    score=c.FrozenMap(score) if isinstance(score, dict) else None,
                    winner=decision.get("winner"),
                    over=bool(decision.get("over", False)),
                    finished_at=_when(finished),
                    updated_at=_when(updated),
                )
            )
        return out


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
