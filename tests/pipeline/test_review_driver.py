"""The review's driver with a scripted pool: recording, retrying a crash once, failing, and resuming after
a stop at each step of recording a match, without ever recording a video twice.

The pool runs in this process and answers each task as its script says, with the events of the bundled
sample's truth (a snooker break-off that goes in-off, a foul), so every step of the driver is reached
in milliseconds; ``test_review.py`` runs the real pools on real clips.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from arbiter import contract as c
from arbiter.games import game
from pipeline.review import driver
from pipeline.review.driver import Planned, ReviewOptions, ReviewReport, review
from pipeline.review.plan import Defaults, ReviewItem, gather
from pipeline.review.pools import Finished, Waited
from pipeline.review.summary import VideoRow
from pipeline.review.work import Models, VideoOutcome, VideoTask
from record.reviews import ReviewLedger
from record.store import MatchRecord

ROOT = Path(__file__).resolve().parents[2]
TRUTH = tuple(
    (ROOT / "samples" / "billiards" / "snooker" / "shot_000" / "truth.jsonl").read_text().splitlines()[1:]
)


class Killed(BaseException):
    """Stands for a kill -9: nothing after it runs in the driver's code path."""


@dataclass
class ScriptedPool:
    """Each video's attempts answered in turn from ``fates`` (``ok``, ``crash``, ``error``); ``ok`` after."""

    fates: dict[str, list[str]] = field(default_factory=dict)
    queue: deque[VideoTask] = field(default_factory=deque)
    given: list[str] = field(default_factory=list)
    workers: int = 1

    def submit(self, task: VideoTask) -> None:
        self.queue.append(task)
        self.given.append(Path(task.video).name)

    def wait(self, timeout_s: float) -> Waited:
        task = self.queue.popleft()
        script = self.fates.get(Path(task.video).name, [])
        fate = script.pop(0) if script else "ok"
        if fate == "crash":
            return Waited([Finished(task, crash="RuntimeError: the worker fell over")], [(task.position, 30)])
        if fate == "error":
            return Waited(
                [Finished(task, VideoOutcome(task.position, 0, 0.0, 0.1, error="cannot open video"))]
            )
        return Waited(
            [Finished(task, VideoOutcome(task.position, 360, 60.0, 1.5, TRUTH))], [(task.position, 100)]
        )

    close_s: float = 0.0  # how long stopping the pool takes

    def close(self) -> None:
        time.sleep(self.close_s)


@dataclass
class Told:
    """A watcher that keeps what it was told."""

    plans: list[Planned] = field(default_factory=list)
    rows: list[VideoRow] = field(default_factory=list)
    retries: list[str] = field(default_factory=list)
    frames_seen: int = 0

    def planned(self, plan: Planned) -> None:
        self.plans.append(plan)

    def frames(self, n: int) -> None:
        self.frames_seen += n

    def finished(self, row: VideoRow) -> None:
        self.rows.append(row)

    def retrying(self, video: str, crash: str) -> None:
        self.retries.append(f"{Path(video).name}: {crash}")


@pytest.fixture
def items(tmp_path: Path) -> list[ReviewItem]:
    for name in ("a.mp4", "b.mp4", "c.mp4"):
        (tmp_path / "archive" / name).parent.mkdir(exist_ok=True)
        (tmp_path / "archive" / name).write_bytes(b"stand-in")
    return gather([str(tmp_path / "archive")], Defaults(game("snooker")))


@pytest.fixture
def pool(monkeypatch: pytest.MonkeyPatch) -> ScriptedPool:
    scripted = ScriptedPool()
    monkeypatch.setattr(driver, "make_pool", lambda options, models: scripted)
    return scripted


def _review(items: list[ReviewItem], db: Path, told: Told | None = None, **options: object) -> ReviewReport:
    with MatchRecord.open(db) as record:
        return review(items, record, ReviewOptions(out=db.parent / "out", **options), told or Told())  # type: ignore[arg-type]


def _matches(db: Path) -> dict[str, list[str]]:
    """Each video's recorded stream, by file name; fails if any video has more than one match."""
    with MatchRecord.open(db) as record:
        infos = record.matches()
        streams = {Path(m.source or "").name: record.texts(m.id) for m in infos}
        assert len(streams) == len(infos), [m.source for m in infos]
        assert all(m.status == "finished" for m in infos)
    return streams


def test_each_video_is_recorded_as_its_own_match_with_the_engines_calls(items, pool, tmp_path) -> None:
    told = Told()
    report = _review(items, tmp_path / "r.db", told)
    assert [r.status for r in report.rows] == ["done"] * 3 and report.failed == 0
    assert {(r.frames, r.events, r.calls, r.fouls) for r in report.rows} == {(360, len(TRUTH), 1, 1)}
    assert told.plans[0].todo == 3 and len(told.rows) == 3 and told.frames_seen == 3 * 360
    streams = _matches(tmp_path / "r.db")
    assert sorted(streams) == ["a.mp4", "b.mp4", "c.mp4"]
    lines = [c.parse_line(t, n) for n, t in enumerate(streams["a.mp4"], start=1)]
    decision = next(x for x in lines if isinstance(x, c.Decision))
    assert decision.foul is not None and decision.foul.reason == "in_off"
    index = report.index.read_text()
    for row in report.rows:
        assert f'href="{row.report}"' in index and (tmp_path / "out" / str(row.report)).is_file()


def test_a_crash_is_given_once_more(items, pool, tmp_path) -> None:
    pool.fates = {"b.mp4": ["crash"]}
    told = Told()
    report = _review(items, tmp_path / "r.db", told)
    assert [r.status for r in report.rows] == ["done"] * 3
    assert told.retries == ["b.mp4: RuntimeError: the worker fell over"]
    assert pool.given == ["a.mp4", "b.mp4", "c.mp4", "b.mp4"]
    assert told.frames_seen == 3 * 360  # the first attempt's frames are not counted twice
    with MatchRecord.open(tmp_path / "r.db") as record, ReviewLedger(record) as ledger:
        assert [v.attempts for v in ledger.videos(report.review_id)] == [1, 2, 1]


def test_a_second_crash_fails_the_video_and_the_rest_go_on(items, pool, tmp_path) -> None:
    pool.fates = {"a.mp4": ["crash", "crash"]}
    report = _review(items, tmp_path / "r.db")
    assert [r.status for r in report.rows] == ["failed", "done", "done"]
    assert report.rows[0].error == "its worker crashed 2 times; the last: RuntimeError: the worker fell over"
    assert sorted(_matches(tmp_path / "r.db")) == ["b.mp4", "c.mp4"]
    assert "its worker crashed 2 times" in report.index.read_text()


def test_a_video_that_cannot_be_refereed_fails_at_once(items, pool, tmp_path) -> None:
    pool.fates = {"c.mp4": ["error"]}
    report = _review(items, tmp_path / "r.db")
    assert [(r.status, r.error) for r in report.rows][2] == ("failed", "cannot open video")
    assert pool.given.count("c.mp4") == 1


def test_failed_videos_stay_failed_unless_asked_again(items, pool, tmp_path) -> None:
    pool.fates = {"c.mp4": ["error"]}
    _review(items, tmp_path / "r.db")
    again = _review(items, tmp_path / "r.db")
    assert [(r.status, r.earlier) for r in again.rows][2] == ("failed", True) and pool.given.count(
        "c.mp4"
    ) == 1
    retried = _review(items, tmp_path / "r.db", retry_failed=True)
    assert [r.status for r in retried.rows] == ["done"] * 3 and pool.given.count("c.mp4") == 2
    assert sorted(_matches(tmp_path / "r.db")) == ["a.mp4", "b.mp4", "c.mp4"]


@pytest.mark.parametrize(
    ("where", "method"),
    [
        ("after its match was started, before its id was noted", (ReviewLedger, "matched")),
        ("after its events were recorded, before the match was finished", (MatchRecord, "finish")),
        ("after its match was finished, before the video was marked done", (ReviewLedger, "done")),
    ],
)
def test_a_driver_killed_while_recording_resumes_without_recording_twice(
    items, pool, tmp_path, monkeypatch, where, method
) -> None:
    clean = tmp_path / "clean" / "r.db"
    _review(items, clean)
    owner, name = method
    real = getattr(owner, name)
    calls = {"n": 0}

    def dies_on_the_second_video(self, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise Killed(where)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(owner, name, dies_on_the_second_video)
    db = tmp_path / "r.db"
    with pytest.raises(Killed):
        _review(items, db)
    first = _matches_so_far(db)
    monkeypatch.setattr(owner, name, real)
    pool.given.clear()
    report = _review(items, db)
    assert [r.status for r in report.rows] == ["done"] * 3
    streams = _matches(db)
    assert streams == _matches(clean)  # every video once, each exactly as a review without a stop records it
    assert all(streams[video] == lines for video, lines in first.items() if lines is not None)
    assert "a.mp4" not in pool.given  # finished before the stop: not refereed again


def _matches_so_far(db: Path) -> dict[str, list[str] | None]:
    """Finished matches' streams by video (None for an unfinished one)."""
    with MatchRecord.open(db) as record:
        return {
            Path(m.source or "").name: record.texts(m.id) if m.status == "finished" else None
            for m in record.matches()
        }


def test_a_video_whose_match_was_deleted_is_refereed_again(items, pool, tmp_path) -> None:
    db = tmp_path / "r.db"
    first = _review(items, db)
    with MatchRecord.open(db) as record:
        record.delete_match(first.rows[1].match_id or 0)
    pool.given.clear()
    again = _review(items, db)
    assert pool.given == ["b.mp4"] and [r.earlier for r in again.rows] == [True, False, True]
    assert sorted(_matches(db)) == ["a.mp4", "b.mp4", "c.mp4"]


def test_a_video_done_in_another_review_keeps_its_match(items, pool, tmp_path) -> None:
    db = tmp_path / "r.db"
    first = _review(items[:2], db)
    pool.given.clear()
    second = _review(items, db)
    assert pool.given == ["c.mp4"]
    assert second.review_id != first.review_id
    assert [r.match_id for r in second.rows][:2] == [r.match_id for r in first.rows]
    assert sorted(_matches(db)) == ["a.mp4", "b.mp4", "c.mp4"]


def test_models_travel_only_when_a_video_needs_them(items, tmp_path) -> None:
    assert driver.load_models(items, ReviewOptions()) == Models()
    net = tmp_path / "net.onnx"
    net.write_bytes(b"onnx bytes")
    assert driver.load_models(items, ReviewOptions(detector="yolo", model=net)) == Models(
        billiards=b"onnx bytes"
    )
    with pytest.raises(driver.PlanError, match="cannot be read"):
        driver.load_models(items, ReviewOptions(detector="yolo", model=tmp_path / "none.onnx"))


def test_stopping_the_pool_is_timed_with_the_pool_not_the_work(items, pool, tmp_path) -> None:
    pool.close_s = 0.3  # a local Ray instance takes about 1.5 s to stop, once per review
    report = _review(items, tmp_path / "r.db")
    assert report.pool_s >= 0.3 and report.pool_s + report.work_s <= report.wall_s  # apart, not twice
