"""The record's file: its schema, whose file it is, opening it, and one connection with its transactions.

Ownership of a file: it is Arbiter's when ``PRAGMA application_id`` is ``APPLICATION_ID`` and its
``arbiter_meta`` table says so; ``PRAGMA user_version`` is the schema version. Anything else (not SQLite,
corrupt, another program's database, a schema this version does not know) is refused with ``RecordError``
and left byte-for-byte untouched: there is no silent overwrite and no silent migration. Only an absent or
empty file becomes a new record: 0 bytes, or a SQLite file with no schema at all and no other program's
mark (what a creation killed before its first commit leaves).

Durability: WAL mode with ``synchronous=FULL``, one transaction per write (``Connection._write``): when it
returns, the write is on disk and survives a killed process and a power cut. A WAL database must sit on a
local disk: SQLite's locking does not work over network file systems.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from arbiter import contract as c

SCHEMA_VERSION = 1  # PRAGMA user_version of the files this module writes
APPLICATION_ID = 0x41524254  # "ARBT": PRAGMA application_id, SQLite's own mark of which program owns a file
BUSY_TIMEOUT_MS = 10_000  # how long a writer waits for another process's transaction before giving up
SQLITE_MAGIC = b"SQLite format 3\x00"

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


def timestamp() -> str:
    """This instant as the record writes it: ISO 8601, UTC, to the millisecond."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def parse_time(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


# --- whose file it is ------------------------------------------------------------------------------------


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


# --- opening ---------------------------------------------------------------------------------------------


def _create(path: Path, conn: sqlite3.Connection) -> None:
    """The schema in a new file, in one transaction; a file another process created first is checked."""
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
            [("application", "arbiter"), ("schema", str(SCHEMA_VERSION)), ("created_at", timestamp())],
        )
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the schema in the main file from the start


def connect(path: Path) -> sqlite3.Connection:
    """A connection to the record in ``path``, created (with its folder) when the file is absent or empty.

    Raises ``RecordError`` for a file that is not SQLite, is corrupt, belongs to another program or has
    a schema this version does not know; such a file is not written to.
    """
    if path.is_dir():
        raise RecordError(f"{path} is a folder; give the database file's path, such as {path / 'arbiter.db'}")
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
            _create(path, conn)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
    except sqlite3.Error as e:
        conn.close()
        raise RecordError(f"{path}: cannot be prepared for writing ({e})") from None
    return conn


# --- one connection --------------------------------------------------------------------------------------


class Connection:
    """One connection to a record behind a lock (so a dashboard's threads may share it), its transactions,
    and the match headers, which every part of the record reads. ``record.store.MatchRecord`` builds on it.
    """

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self._conn = conn
        self._lock = threading.RLock()
        self._headers: dict[int, c.Match] = {}
        self._writing: set[int] = set()  # matches whose writer is known to be this process

    def close(self) -> None:
        with self._lock:
            self._conn.close()

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

    def _read(self, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._conn.execute(sql, tuple(params)).fetchall()
            except sqlite3.DatabaseError as e:
                raise RecordError(f"{self.path}: cannot be read ({e}); the file may be damaged") from None

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
        if not isinstance(header, c.Match):  # start_match and import store only Match headers
            raise RecordError(
                f"{self.path}, match {match_id}: its header is not a match line; the file is damaged"
            )
        self._headers[match_id] = header
        return header

    def header_text(self, match_id: int) -> str:
        """The header's exact contract text."""
        rows = self._read("SELECT header FROM matches WHERE id = ?", (match_id,))
        if not rows:
            raise self._no_match(match_id)
        return str(rows[0][0])
