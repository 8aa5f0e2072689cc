"""The review's driver: the one process that hands videos to workers and writes the record.

``review`` takes the planned videos (``pipeline.review.plan``), takes up the review of the same videos where
it stopped (``record.reviews``), gives every video still to do to a pool (``pipeline.review.pools``), and
records each result as it comes back as a match of its own, through the same recorder as ``arbiter run``
(``record.recorder.recording``: each event with the decisions of the game's engine). A video whose worker
crashes is given once more; a second crash, or a video that cannot be refereed, is marked failed with its
error and the rest go on. A ``kill -9`` at any point loses nothing recorded and records nothing twice (see
``record.reviews``); Ctrl-C stops the workers and leaves the review to be resumed by the same command.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from arbiter import contract as c
from arbiter.games import BilliardsSpec, DiceSpec
from pipeline.review.plan import PlanError, ReviewItem
from pipeline.review.pools import Finished, LocalPool, Pool
from pipeline.review.ray_pool import RayPool
from pipeline.review.summary import VideoRow, video_row, write_index, write_report
from pipeline.review.work import Models, VideoOutcome, VideoTask
from record.recorder import recording
from record.reviews import ReviewLedger, ReviewVideo
from record.store import MatchRecord, RecordError
from vision.dice import DEFAULT_DICE_MODEL
from vision.yolo import DEFAULT_MODEL

WAIT_S = 0.5  # how often the driver looks at the workers' frame counts when nothing finishes
CRASHES_ALLOWED = 1  # a video whose worker crashes is given once more, then marked failed


@dataclass(frozen=True)
class ReviewOptions:
    """How to review. ``ray``: None runs on this machine's processes; ``auto`` a local Ray instance; else
    a cluster's address. ``model``: the network of ``detector`` yolo (billiards) or of the dice reader."""

    out: Path = Path("out/review")
    workers: int = 1
    ray: str | None = None
    detector: str = "classical"
    model: Path | None = None
    retry_failed: bool = False
    sources: tuple[str, ...] = ()  # the command's SOURCES as typed, kept with the review


@dataclass(frozen=True)
class Planned:
    """What the review is about to do: ``todo`` videos (``frames`` of them, as far as known) on ``workers``
    workers; ``earlier`` were finished before (by an interrupted run of this review, or another review)."""

    review_id: int
    videos: int
    earlier: int
    todo: int
    frames: int
    workers: int


class Watcher(Protocol):
    """What a surface is told as the review goes (a progress bar, a line per video)."""

    def planned(self, plan: Planned) -> None: ...

    def frames(self, n: int) -> None:
        """``n`` more frames refereed, all workers together."""
        ...

    def finished(self, row: VideoRow) -> None: ...

    def retrying(self, video: str, crash: str) -> None: ...


@dataclass(frozen=True)
class ReviewReport:
    """The review's result: every video's row, the index page, and how long it took (``pool_s``: starting
    the workers and stopping them; ``work_s``: from the first video given to them to the last recorded;
    ``cpu_s``: the workers' processor time on the videos refereed now)."""

    review_id: int
    rows: tuple[VideoRow, ...]
    index: Path
    workers: int
    wall_s: float
    pool_s: float = 0.0
    work_s: float = 0.0
    cpu_s: float = 0.0

    @property
    def failed(self) -> int:
        return sum(r.status == "failed" for r in self.rows)


def load_models(items: Sequence[ReviewItem], options: ReviewOptions) -> Models:
    """The networks the videos need, read once on the driver to travel with the tasks."""
    specs = {item.spec.id: item.spec for item in items}.values()
    wants_yolo = options.detector == "yolo" and any(isinstance(s, BilliardsSpec) for s in specs)
    wants_dice = any(isinstance(s, DiceSpec) for s in specs)
    return Models(
        billiards=_read_model(options.model or DEFAULT_MODEL, "ball detector") if wants_yolo else None,
        dice=_read_model(options.model or DEFAULT_DICE_MODEL, "dice reader") if wants_dice else None,
    )


def _read_model(path: Path, what: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise PlanError(
            f"the {what}'s network {path} cannot be read ({exc.strerror}); give --model"
        ) from None


def make_pool(options: ReviewOptions, models: Models) -> Pool:
    """Local processes, or Ray when ``options.ray`` asks for it."""
    if options.ray is None:
        return LocalPool(options.workers, models)
    return RayPool(options.ray, options.workers, models)


def review(
    items: Sequence[ReviewItem], record: MatchRecord, options: ReviewOptions, watcher: Watcher
) -> ReviewReport:
    """Review ``items`` into ``record`` (see the module docstring); raises ``PlanError``, ``PoolError`` and
    ``RecordError`` before anything is refereed, ``KeyboardInterrupt`` when stopped (resumable)."""
    started = time.perf_counter()
    models = load_models(items, options)
    with ReviewLedger(record) as ledger:
        review_id = ledger.begin([i.entry for i in items], options.sources, options.out)
        run = _Review(record, ledger, review_id, items, options, watcher)
        finished = False
        try:
            run.prepare()
            run.referee(models)
            finished = True
        finally:
            rows = run.rows()
            index = write_index(rows, options.out, f"Arbiter review {review_id}")
            ledger.end(review_id, finished)
    return ReviewReport(
        review_id, rows, index, run.workers, time.perf_counter() - started, run.pool_s, run.work_s, run.cpu_s
    )


@dataclass
class _Review:
    """One run of the driver over a review's videos."""

    record: MatchRecord
    ledger: ReviewLedger
    review_id: int
    items: Sequence[ReviewItem]
    options: ReviewOptions
    watcher: Watcher
    todo: list[ReviewItem] = field(default_factory=list)
    earlier: set[str] = field(default_factory=set)
    crashes: dict[int, int] = field(default_factory=dict)
    seen: dict[int, int] = field(default_factory=dict)  # frames reported per position
    workers: int = 0
    pool_s: float = 0.0
    work_s: float = 0.0
    cpu_s: float = 0.0

    def position(self, item: ReviewItem) -> int:
        """The video's number in this review, from 1: its tasks and summary row carry it."""
        return self.items.index(item) + 1

    def prepare(self) -> None:
        """Sort the videos into finished before (kept) and still to do, mending what a stop left."""
        rows = {v.video: v for v in self.ledger.videos(self.review_id)}
        for item in self.items:
            if self._finished_before(rows[str(item.video)]):
                self.earlier.add(str(item.video))
            else:
                self.todo.append(item)
        self.todo.sort(key=lambda i: -(i.frames or 0))  # longest first: the last video to end is a short one
        self.workers = self.options.workers
        self.watcher.planned(
            Planned(
                self.review_id,
                len(self.items),
                len(self.earlier),
                len(self.todo),
                sum(i.frames or 0 for i in self.todo),
                self.workers,
            )
        )

    def _finished_before(self, row: ReviewVideo) -> bool:
        ledger, rid = self.ledger, self.review_id
        if row.status == "done":
            if row.match_id is not None and self._finished_match(row.match_id):
                return True
            ledger.pending(rid, row.video)  # its match was deleted since: referee it again
        elif row.status == "failed":
            if not self.options.retry_failed:
                return True
            ledger.pending(rid, row.video)
        elif row.status == "recording":
            started = ledger.orphan(row)
            if started is not None and self._finished_match(started):
                ledger.done(rid, row.video, started)  # stopped after its match was finished
                return True
        elif (before := ledger.done_elsewhere(row.entry, rid)) is not None:
            ledger.reused(rid, row.video, before)
            return True
        return False

    def _finished_match(self, match_id: int) -> bool:
        try:
            return self.record.info(match_id).status == "finished"
        except RecordError:
            return False

    def referee(self, models: Models) -> None:
        """Every video still to do, through a pool, each result recorded as it comes back."""
        if not self.todo:
            return
        started = time.perf_counter()
        pool = make_pool(self.options, models)
        self.workers = pool.workers
        self.pool_s = time.perf_counter() - started
        started = time.perf_counter()
        try:
            self._referee_all(pool)
        finally:
            self.work_s = time.perf_counter() - started
            stopping = time.perf_counter()
            pool.close()  # stopping is paid once per review, like starting (a local Ray instance: ~1.5 s)
            self.pool_s += time.perf_counter() - stopping

    def _referee_all(self, pool: Pool) -> None:
        for item in self.todo:
            self._submit(pool, self._task(item))
        left = len(self.todo)
        while left:
            waited = pool.wait(WAIT_S)
            for position, frames in waited.frames:
                self._frames(position, frames)
            for done in waited.finished:
                left -= self._handle(pool, done)

    def _task(self, item: ReviewItem) -> VideoTask:
        calibration = item.calibration.read_text(encoding="utf-8") if item.calibration else None
        return VideoTask(
            self.position(item),
            str(item.video),
            item.spec,
            item.players,
            calibration,
            self.options.detector,
        )

    def _submit(self, pool: Pool, task: VideoTask) -> None:
        self.ledger.attempted(self.review_id, task.video)
        pool.submit(task)

    def _frames(self, position: int, frames: int) -> None:
        """Progress of one video: only what is new is passed on (a retried video starts from 0 again)."""
        before = self.seen.get(position, 0)
        if frames > before:
            self.seen[position] = frames
            self.watcher.frames(frames - before)

    def _handle(self, pool: Pool, done: Finished) -> int:
        """One task back: recorded, failed, or given once more after a crash; 1 when the video is over."""
        item = self.items[done.task.position - 1]
        if done.crash is not None:
            crashes = self.crashes[done.task.position] = self.crashes.get(done.task.position, 0) + 1
            if crashes <= CRASHES_ALLOWED:
                self.watcher.retrying(str(item.video), done.crash)
                self._submit(pool, done.task)
                return 0
            self._fail(item, f"its worker crashed {crashes} times; the last: {done.crash}")
        elif done.outcome is None or done.outcome.error is not None:
            error = done.outcome.error if done.outcome else "no result"
            self._fail(item, error or "no result", done.outcome.work_s if done.outcome else None)
        else:
            self._frames(done.task.position, done.outcome.frames)
            self.cpu_s += done.outcome.cpu_s
            self._record(item, done.outcome)
        return 1

    def _fail(self, item: ReviewItem, error: str, work_s: float | None = None) -> None:
        self._frames(self.position(item), item.frames or 0)  # its share of the bar is over
        self.ledger.failed(self.review_id, str(item.video), error, work_s)
        self._tell(item)

    def _record(self, item: ReviewItem, outcome: VideoOutcome) -> None:
        """The video's events as its own match, each with the decisions it settles; its report."""
        video, rid = str(item.video), self.review_id
        row = self.ledger.video(rid, video)
        match_id = self.ledger.orphan(row)  # a match started by a driver that was killed while recording
        self.ledger.recording(rid, video, outcome.frames, outcome.video_s, outcome.work_s, row.floor)
        if match_id is None:
            header = c.Match(game=item.spec.id, players=item.players, table=outcome.table)
            match_id = self.record.start_match(header, video)
            self.ledger.matched(rid, video, match_id)
        try:
            recorder = recording(self.record, match_id, skip_recorded=True)
            for number, text in enumerate(outcome.lines, start=2):
                recorder(c.parse_line(text, number))
            self.record.finish(match_id)
        except (RecordError, c.ContractError) as exc:
            self.record.delete_match(match_id)  # half a match is no record: the video is failed instead
            self.ledger.failed(rid, video, f"its events could not be recorded: {exc}", outcome.work_s)
        else:
            self.ledger.done(rid, video, match_id)
            write_report(self.record, match_id, self.options.out)
        self._tell(item)

    def _tell(self, item: ReviewItem) -> None:
        self.watcher.finished(
            video_row(self.record, self.ledger.video(self.review_id, str(item.video)), False)
        )

    def rows(self) -> tuple[VideoRow, ...]:
        """Every video's summary line, in the review's order."""
        out = []
        for row in self.ledger.videos(self.review_id):
            summary = video_row(self.record, row, row.video in self.earlier)
            if summary.report and not (self.options.out / summary.report).exists():
                write_report(self.record, row.match_id or 0, self.options.out)
            out.append(summary)
        return tuple(out)
