"""What a review is asked to referee (files, folders, globs, manifests) and its bookkeeping in the record.

No video is refereed here: the files are stand-ins (a look at them fails, which the plan leaves to the
workers), except where the bundled sample is used for what a look at a real video tells.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from arbiter.games import game
from pipeline.review.plan import Defaults, PlanError, gather
from record.reviews import ReviewLedger, VideoEntry, review_rows
from record.store import MatchRecord, RecordError

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "billiards" / "snooker" / "shot_000"
SNOOKER = Defaults(game("snooker"))


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    for name in ("b.mp4", "a.mp4", "sub/c.MOV", "notes.txt", "sub/deeper/d.mkv"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(b"not really a video")
    return tmp_path


def test_a_folder_gives_its_videos_sorted_and_searched_below(archive: Path) -> None:
    items = gather([str(archive)], SNOOKER)
    assert [i.video.relative_to(archive).as_posix() for i in items] == [
        "a.mp4", "b.mp4", "sub/c.MOV", "sub/deeper/d.mkv",
    ]  # fmt: skip
    assert all(i.spec is game("snooker") and i.players == ("A", "B") for i in items)
    assert all(i.frames is None and i.size == len(b"not really a video") for i in items)  # left to a worker


def test_files_globs_and_folders_together_name_each_video_once(archive: Path) -> None:
    items = gather([str(archive / "b.mp4"), str(archive / "*.mp4"), str(archive)], SNOOKER)
    assert [i.video.name for i in items] == ["b.mp4", "a.mp4", "c.MOV", "d.mkv"]


def test_a_real_video_is_looked_at_for_its_frames() -> None:
    (item,) = gather([str(SAMPLE / "video.mp4")], SNOOKER)
    video = cv2.VideoCapture(str(SAMPLE / "video.mp4"))
    frames, fps = int(video.get(cv2.CAP_PROP_FRAME_COUNT)), video.get(cv2.CAP_PROP_FPS)
    video.release()
    assert frames > 100 and item.frames == frames and item.fps == fps and item.entry.game == "snooker"


def test_a_manifest_gives_each_video_its_game_players_and_profile(archive: Path) -> None:
    profile = archive / "profiles" / "cam.json"
    profile.parent.mkdir()
    profile.write_text("{}")
    manifest = archive / "season.csv"
    manifest.write_text(
        "video,game,players,calibration\n"
        "a.mp4,snooker,Ann;Bob,profiles/cam.json\n"
        "b.mp4,pig,Ann;Bob;Cat,\n"
        "sub/c.MOV,,,\n"
    )
    a, b, c = gather([str(manifest)], Defaults(game("pyramid"), ("X", "Y")))
    assert (a.spec.id, a.players, a.calibration) == ("snooker", ("Ann", "Bob"), profile.resolve())
    assert (b.spec.id, b.players, b.calibration) == ("pig", ("Ann", "Bob", "Cat"), None)
    assert (c.spec.id, c.players) == ("pyramid", ("X", "Y"))  # the command's defaults fill empty cells


@pytest.mark.parametrize(
    ("rows", "defaults", "message"),
    [
        ("video,game\na.mp4,chess\n", SNOOKER, "line 2: unknown game 'chess'"),
        ("video,game\nmissing.mp4,snooker\n", SNOOKER, "line 2: video"),
        ("video\na.mp4\n", Defaults(), "line 2: no game"),
        ("game\nsnooker\n", SNOOKER, "needs a header row with a video column"),
        ("video,game\na.mp4,futsal\n", SNOOKER, "futsal has no camera pipeline"),
        ("video,players\na.mp4,Ann;Bob;Cat\n", SNOOKER, "snooker is played by 2 players, not 3"),
        ("video,game,calibration\na.mp4,pig,cam.json\n", SNOOKER, "dice games take no camera profile"),
        ("video,calibration\na.mp4,nowhere.json\n", SNOOKER, "camera profile"),
    ],
)
def test_a_bad_manifest_row_is_named_by_its_line(
    archive: Path, rows: str, defaults: Defaults, message: str
) -> None:
    manifest = archive / "m.csv"
    manifest.write_text(rows)
    with pytest.raises(PlanError, match=message.replace("(", r"\(")):
        gather([str(manifest)], defaults)


@pytest.mark.parametrize(
    ("source", "defaults", "message"),
    [
        ("nowhere", SNOOKER, "no such file or folder"),
        ("nowhere/*.mp4", SNOOKER, "no file matches"),
        ("empty", SNOOKER, "holds no video"),
        ("a.mp4", Defaults(), "no game given; pass --game"),
    ],
)
def test_sources_that_name_no_video_are_refused(
    archive: Path, source: str, defaults: Defaults, message: str
) -> None:
    (archive / "empty").mkdir()
    with pytest.raises(PlanError, match=message):
        gather([str(archive / source)], defaults)


# --- the bookkeeping --------------------------------------------------------------------------------------


def _entries(*names: str) -> list[VideoEntry]:
    return [VideoEntry(f"/archive/{n}", 100, "snooker", ("A", "B")) for n in names]


def test_the_same_videos_are_the_same_review_and_new_ones_a_new_review(tmp_path: Path) -> None:
    with MatchRecord.open(tmp_path / "r.db") as record, ReviewLedger(record) as ledger:
        first = ledger.begin(_entries("a.mp4", "b.mp4"), ["/archive"], tmp_path / "out")
        ledger.end(first, finished=False)
        assert ledger.begin(_entries("b.mp4", "a.mp4"), ["/archive"], None) == first
        assert [v.status for v in ledger.videos(first)] == ["pending", "pending"]
        ledger.end(first, finished=True)
        other = ledger.begin(_entries("a.mp4", "c.mp4"), ["/archive"], None)
        assert other != first
        rows = review_rows(record)
    assert [(r["review"], r["videos"], r["status"]) for r in rows] == [
        (other, 2, "running"), (first, 2, "finished"),
    ]  # fmt: skip
    assert rows[1]["index"] == str(tmp_path / "out" / "index.html")


def test_a_review_running_in_another_live_process_is_not_taken_over(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    code = (
        "import sys, time; sys.path.insert(0, sys.argv[1]);"
        "from record.store import MatchRecord; from record.reviews import ReviewLedger, VideoEntry;"
        "r = MatchRecord.open(sys.argv[2]); l = ReviewLedger(r);"
        "l.begin([VideoEntry('/archive/a.mp4', 100, 'snooker', ('A', 'B'))], ['/archive'], None);"
        "print('ready', flush=True); time.sleep(60)"
    )
    other = subprocess.Popen(
        [sys.executable, "-c", code, str(ROOT), str(db)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert other.stdout is not None and other.stdout.readline().strip() == "ready"
        with MatchRecord.open(db) as record, ReviewLedger(record) as ledger:
            with pytest.raises(RecordError, match="running in another process"):
                ledger.begin(_entries("a.mp4"), ["/archive"], None)
            assert [r.status for r in ledger.reviews()] == ["running"]
            other.kill()
            other.wait()
            assert ledger.begin(_entries("a.mp4"), ["/archive"], None) == 1  # its driver is gone: resumed
    finally:
        if other.poll() is None:
            os.kill(other.pid, 9)
            other.wait()


def test_a_record_never_reviewed_lists_no_review_and_is_not_written(tmp_path: Path) -> None:
    with MatchRecord.open(tmp_path / "r.db") as record:
        assert review_rows(record) == []
        with ReviewLedger(record, create=False) as ledger:
            assert not ledger.has_tables()
