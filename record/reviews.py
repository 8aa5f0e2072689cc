"""Review bookkeeping: which videos of an archive review are done, failed or still to do, in the record.

``arbiter review`` referees many videos, each recorded as a match of its own (``record.store``). The state of
each video is kept beside the matches, in tables of its own in the same SQLite file, so that the same command
run again (after Ctrl-C, a ``kill -9``, a lost worker) skips what is finished and takes up the rest, and so
that the dashboard's History can list the reviews. Only the review's driver, the one process that writes the
record, writes these tables: workers never open the file.

A video goes ``pending`` -> ``recording`` (its result arrived; its match is being written) -> ``done``, or
``failed`` with its error. A review is the set of its videos: the same videos asked for again are the same
review (``key``), resumed. A video is known by its path, its size, its game and its players; one already
done in an earlier review of the file is not refereed again (its match is reused).

The ``recording`` step is what makes a kill harmless: before a match is started, the highest match id is
noted (``floor``); a review that resumes finds the match the killed driver had started (its source is the
video, its id above the floor) and finishes recording into it, so no video is ever recorded twice.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from record.database import BUSY_TIMEOUT_MS
from record.store import MatchRecord, RecordError
from record.writer_process import this_writer, writer_alive

VideoStatus = Literal["pending", "recording", "done", "failed"]
FINISHED: frozenset[str] = frozenset({"done", "failed"})

_SCHEMA = """
CREATE TABLE IF NOT EXISTS arbiter_reviews (
    id          INTEGER PRIMARY KEY,
    key         TEXT NOT NULL UNIQUE,      -- what makes the same review: its videos, games and players
    sources     TEXT NOT NULL,             -- JSON list: the SOURCES of the command, as typed
    out         TEXT,                      -- the folder of its index and reports
    started_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    finished_at TEXT,
    driver      TEXT                       -- JSON {host, pid} of the process running it, null once it ended
);
CREATE TABLE IF NOT EXISTS arbiter_review_videos (
    review_id   INTEGER NOT NULL REFERENCES arbiter_reviews(id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,          -- order in the review, from 1
    video       TEXT NOT NULL,             -- absolute path, as the workers open it
    size        INTEGER NOT NULL,          -- bytes: a file replaced by another is a new video
    game        TEXT NOT NULL,
    players     TEXT NOT NULL,             -- JSON list, turn order
    status      TEXT NOT NULL CHECK (status IN ('pending', 'recording', 'done', 'failed')),
    attempts    INTEGER NOT NULL DEFAULT 0,
    match_id    INTEGER,
    floor       INTEGER,                   -- the highest match id before its match was started
    frames      INTEGER,
    video_s     REAL,                      -- seconds of video
    work_s      REAL,                      -- seconds a worker spent refereeing it
    error       TEXT,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (review_id, video)
);
"""


@dataclass(frozen=True)
class VideoEntry:
    """One video asked for: what identifies it, and where it stands in the review."""

    video: str
    size: int
    game: str
    players: tuple[str, ...]


@dataclass(frozen=True)
class ReviewVideo:
    """One video of a review as the ledger holds it."""

    review_id: int
    position: int
    entry: VideoEntry
    status: VideoStatus
    attempts: int = 0
    match_id: int | None = None
    floor: int | None = None
    frames: int | None = None
    video_s: float | None = None
    work_s: float | None = None
    error: str | None = None

    @property
    def video(self) -> str:
        return self.entry.video


@dataclass(frozen=True)
class ReviewInfo:
    """One review, as the dashboard's History lists it."""

    id: int
    sources: tuple[str, ...]
    out: str | None
    started_at: datetime
    finished_at: datetime | None
    running: bool
    videos: int
    done: int
    failed: int

    @property
    def status(self) -> str:
        if self.finished_at is not None:
            return "finished"
        return "running" if self.running else "interrupted"

    @property
    def index(self) -> Path | None:
        """The review's HTML index, linking each match's report."""
        return Path(self.out) / "index.html" if self.out else None


def review_key(entries: Sequence[VideoEntry]) -> str:
    """What makes two commands the same review: the same videos, with the same games and players."""
    return json.dumps(sorted([e.video, e.game, list(e.players)] for e in entries), separators=(",", ":"))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _driver() -> str:
    """This process as a review's driver: host, pid and start time, as a match's writer is stored."""
    return json.dumps(this_writer())


def _driver_alive(text: str | None) -> bool:
    """Whether the process recorded as a review's driver still runs (on another host: taken as alive)."""
    return writer_alive(json.loads(text)) if text else False


class ReviewLedger:
    """The review tables of one record file. Open with ``ReviewLedger(record)``; ``close()`` when done.

    Its own connection to the record's file (the record's lines are never touched here), so the one writing
    process holds two connections and SQLite keeps their transactions apart.
    """

    def __init__(self, record: MatchRecord, create: bool = True) -> None:
        """``create``: add the review tables to a file that has none (a reader passes False)."""
        self.record = record
        self._lock = threading.Lock()
        try:
            self._conn = sqlite3.connect(
                record.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
            )
            self._conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self._conn.execute("PRAGMA foreign_keys = ON")
            if create and not self.has_tables():
                with self._write() as conn:
                    for statement in filter(str.strip, _SCHEMA.split(";")):
                        conn.execute(statement)
        except sqlite3.Error as e:
            raise RecordError(f"{record.path}: cannot keep the review's bookkeeping ({e})") from None

    def has_tables(self) -> bool:
        """Whether the file holds the review tables (whether it was ever reviewed into)."""
        found = self._read("SELECT count(*) FROM sqlite_master WHERE name = 'arbiter_review_videos'")
        return bool(found[0][0])

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> ReviewLedger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except BaseException:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._conn.execute(sql, tuple(params)).fetchall()

    # -- a review and its videos --

    def begin(self, entries: Sequence[VideoEntry], sources: Sequence[str], out: Path | None) -> int:
        """The review of ``entries``, started, or taken up where it stopped; its id. ``RecordError`` when
        another live process is running it (two drivers would write the same matches)."""
        if not entries:
            raise RecordError("a review needs at least one video")
        key, now = review_key(entries), _now()
        with self._write() as conn:
            row = conn.execute("SELECT id, driver FROM arbiter_reviews WHERE key = ?", (key,)).fetchone()
            if row is not None and row[1] != _driver() and _driver_alive(row[1]):
                raise RecordError(
                    f"review {row[0]} of these videos is running in another process ({row[1]}); "
                    "wait for it, or stop it and run this command again to resume"
                )
            if row is None:
                cur = conn.execute(
                    "INSERT INTO arbiter_reviews (key, sources, out, started_at, updated_at, driver) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (key, json.dumps(list(sources)), str(out) if out else None, now, now, _driver()),
                )
                review_id = int(cur.lastrowid or 0)
            else:
                review_id = int(row[0])
                conn.execute(
                    "UPDATE arbiter_reviews SET driver = ?, updated_at = ?, finished_at = NULL, "
                    "out = coalesce(?, out) WHERE id = ?",
                    (_driver(), now, str(out) if out else None, review_id),
                )
            for position, e in enumerate(entries, start=1):
                conn.execute(
                    "INSERT OR IGNORE INTO arbiter_review_videos (review_id, position, video, size, game, "
                    "players, status, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'pending', ?)",
                    (review_id, position, e.video, e.size, e.game, json.dumps(list(e.players)), now),
                )
        return review_id

    def videos(self, review_id: int) -> list[ReviewVideo]:
        """The review's videos, in their order."""
        rows = self._read(
            "SELECT review_id, position, video, size, game, players, status, attempts, match_id, floor, "
            "frames, video_s, work_s, error FROM arbiter_review_videos WHERE review_id = ? ORDER BY position",
            (review_id,),
        )
        return [
            ReviewVideo(r[0], r[1], VideoEntry(r[2], r[3], r[4], tuple(json.loads(r[5]))), r[6], *r[7:])
            for r in rows
        ]

    def video(self, review_id: int, video: str) -> ReviewVideo:
        for v in self.videos(review_id):
            if v.video == video:
                return v
        raise RecordError(f"review {review_id} has no video {video}")

    def done_elsewhere(self, entry: VideoEntry, review_id: int) -> ReviewVideo | None:
        """The same video, done in another review of this record, with its match still there."""
        rows = self._read(
            "SELECT review_id FROM arbiter_review_videos WHERE video = ? AND size = ? AND game = ? "
            "AND players = ? AND status = 'done' AND review_id != ? ORDER BY review_id DESC",
            (entry.video, entry.size, entry.game, json.dumps(list(entry.players)), review_id),
        )
        for (other,) in rows:
            found = self.video(other, entry.video)
            if found.match_id is not None and self._match_finished(found.match_id):
                return found
        return None

    def _match_finished(self, match_id: int) -> bool:
        try:
            return self.record.info(match_id).status == "finished"
        except RecordError:
            return False

    def _set(self, review_id: int, video: str, **fields: Any) -> None:
        names = ", ".join(f"{k} = ?" for k in fields)
        with self._write() as conn:
            cur = conn.execute(
                f"UPDATE arbiter_review_videos SET {names}, updated_at = ? WHERE review_id = ? AND video = ?",
                (*fields.values(), _now(), review_id, video),
            )
            if cur.rowcount == 0:
                raise RecordError(f"review {review_id} has no video {video}")
            conn.execute("UPDATE arbiter_reviews SET updated_at = ? WHERE id = ?", (_now(), review_id))

    def attempted(self, review_id: int, video: str) -> None:
        """A worker was given the video once more."""
        with self._write() as conn:
            conn.execute(
                "UPDATE arbiter_review_videos SET attempts = attempts + 1, updated_at = ? "
                "WHERE review_id = ? AND video = ?",
                (_now(), review_id, video),
            )

    def recording(
        self, review_id: int, video: str, frames: int, video_s: float, work_s: float, floor: int | None
    ) -> None:
        """The video's result arrived and its match is about to be started: the highest match id before
        it is noted (unless a ``floor`` was noted by a driver killed while recording it), so that a
        resumed review can find that match."""
        if floor is None:
            floor = int(self._read("SELECT coalesce(max(id), 0) FROM matches")[0][0])
        self._set(
            review_id, video, status="recording", floor=floor, frames=frames, video_s=video_s, work_s=work_s
        )

    def matched(self, review_id: int, video: str, match_id: int) -> None:
        self._set(review_id, video, match_id=match_id)

    def done(self, review_id: int, video: str, match_id: int) -> None:
        self._set(review_id, video, status="done", match_id=match_id, error=None)

    def reused(self, review_id: int, video: str, earlier: ReviewVideo) -> None:
        """Done in an earlier review: its match stands for this one too."""
        self._set(
            review_id, video, status="done", match_id=earlier.match_id, frames=earlier.frames,
            video_s=earlier.video_s, work_s=earlier.work_s, error=None,
        )  # fmt: skip

    def failed(self, review_id: int, video: str, error: str, work_s: float | None = None) -> None:
        self._set(review_id, video, status="failed", error=error, work_s=work_s)

    def pending(self, review_id: int, video: str) -> None:
        """Back in the queue: a failed video retried, or a done video whose match was deleted."""
        self._set(review_id, video, status="pending", match_id=None, floor=None, error=None)

    def orphan(self, row: ReviewVideo) -> int | None:
        """The match a killed driver started for ``row`` before it could note its id, if any."""
        if row.match_id is not None or row.floor is None:
            return row.match_id
        found = [m.id for m in self.record.matches() if m.id > row.floor and m.source == row.video]
        return found[0] if found else None

    def end(self, review_id: int, finished: bool) -> None:
        """The driver stops: finished (every video done or failed) or only paused, to be resumed."""
        now = _now()
        with self._write() as conn:
            conn.execute(
                "UPDATE arbiter_reviews SET driver = NULL, updated_at = ?, finished_at = ? WHERE id = ?",
                (now, now if finished else None, review_id),
            )

    # -- reading every review --

    def reviews(self) -> list[ReviewInfo]:
        """Every review of the record, newest first."""
        rows = self._read(
            "SELECT r.id, r.sources, r.out, r.started_at, r.finished_at, r.driver, count(v.video), "
            "sum(v.status = 'done'), sum(v.status = 'failed') FROM arbiter_reviews r "
            "LEFT JOIN arbiter_review_videos v ON v.review_id = r.id GROUP BY r.id ORDER BY r.id DESC"
        )
        return [
            ReviewInfo(
                id=rid,
                sources=tuple(json.loads(sources)),
                out=out,
                started_at=datetime.fromisoformat(started),
                finished_at=datetime.fromisoformat(finished) if finished else None,
                running=_driver_alive(driver),
                videos=n,
                done=done or 0,
                failed=failed or 0,
            )
            for rid, sources, out, started, finished, driver, n, done, failed in rows
        ]


def review_rows(record: MatchRecord) -> list[dict[str, object]]:
    """The reviews of ``record`` as table rows for the dashboard's History (newest first); none when the
    file was never reviewed into. One call on the page: ``st.table(reviews.review_rows(desk.record))``."""
    with ReviewLedger(record, create=False) as ledger:
        infos = ledger.reviews() if ledger.has_tables() else []
    return [
        {
            "review": r.id,
            "started (UTC)": r.started_at.strftime("%Y-%m-%d %H:%M"),
            "sources": " ".join(r.sources),
            "videos": r.videos,
            "done": r.done,
            "failed": r.failed,
            "status": r.status,
            "index": str(r.index) if r.index else "",
        }
        for r in infos
    ]


__all__ = [
    "FINISHED",
    "ReviewInfo",
    "ReviewLedger",
    "ReviewVideo",
    "VideoEntry",
    "VideoStatus",
    "review_key",
    "review_rows",
]
