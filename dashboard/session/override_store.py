"""The referee's corrections of each match, and the folder of each video run, kept in the record's own file.

Tables of their own beside the record's (``record.store``), so the recorded lines are never touched and a
second desk (another server, the command line) on the same file sees the same corrections.
"""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path

from record.overrides import Override


class OverrideStore:
    """The referee's corrections of each match, and the folder of each video run, in the record's own
    database file (tables of their own beside the record's; the record's lines are never touched).

    Append-only: a correction is never edited; a later one corrects it.
    """

    _SCHEMA = """
    CREATE TABLE IF NOT EXISTS arbiter_overrides (
        match_id INTEGER NOT NULL,
        n        INTEGER NOT NULL,          -- 1, 2, ... in the order made
        json     TEXT NOT NULL,             -- Override.to_json()
        made_at  TEXT NOT NULL,
        PRIMARY KEY (match_id, n)
    );
    CREATE TABLE IF NOT EXISTS arbiter_run_folders (
        match_id INTEGER PRIMARY KEY,
        folder   TEXT NOT NULL              -- events.jsonl, tracks.jsonl, annotated.mp4 of the match's run
    );
    """

    def __init__(self, db: Path) -> None:
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(db, timeout=10.0, isolation_level=None, check_same_thread=False)
        self._conn.execute("PRAGMA busy_timeout = 10000")
        self._conn.executescript(self._SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def overrides(self, match_id: int) -> list[Override]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT json FROM arbiter_overrides WHERE match_id = ? ORDER BY n", (match_id,)
            ).fetchall()
        return [Override.from_json(r[0]) for r in rows]

    def add(self, match_id: int, override: Override) -> int:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                n: int = self._conn.execute(
                    "SELECT coalesce(max(n), 0) + 1 FROM arbiter_overrides WHERE match_id = ?", (match_id,)
                ).fetchone()[0]
                self._conn.execute(
                    "INSERT INTO arbiter_overrides (match_id, n, json, made_at) VALUES (?, ?, ?, ?)",
                    (match_id, n, override.to_json(), datetime.now(UTC).isoformat(timespec="seconds")),
                )
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
        return n

    def set_folder(self, match_id: int, folder: Path) -> None:
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO arbiter_run_folders (match_id, folder) VALUES (?, ?)",
                (match_id, str(folder)),
            )

    def folder(self, match_id: int) -> Path | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT folder FROM arbiter_run_folders WHERE match_id = ?", (match_id,)
            ).fetchone()
        return Path(row[0]) if row else None
