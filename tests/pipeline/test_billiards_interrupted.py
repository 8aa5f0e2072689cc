"""A run cut short in the middle of a shot (a stop asked, a camera lost) leaves that shot open, undecided,
and the resumed run completes it so that the rules judge it once, whole. On the bundled sample: a break-off
whose white goes in off at 5.3 s (frame 159) while the reds roll on until 9.9 s; refereed whole, a foul."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from arbiter import contract as c
from arbiter.games import billiards
from pipeline.billiards import RunOptions, RunResult, referee_video
from record.recorder import Recorder, recording
from record.store import MatchRecord
from vision.sources import FrameSource, SourceStats
from vision.types import Frame

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "billiards" / "snooker" / "shot_000"
SPEC = billiards("snooker")
HEADER = c.Match(game="snooker", players=("A", "B"), options={"first": "A"})
STILL_FRAMES = 30  # a camera back on a still table, one second of it
NEAR_MM = 3.0  # a position seen against the truth: a few times the detector's noise


class _Cut:
    """The sample's frames before ``until``, then nothing: a camera lost there when ``live``, else a clip
    that ends there."""

    fps, frame_count, reconnect_s, spec = 30.0, None, 0.0, "0"

    def __init__(self, until: int, live: bool) -> None:
        self.until, self.live, self.stats = until, live, SourceStats()

    def __iter__(self):
        for frame in FrameSource(SAMPLE / "video.mp4"):
            if frame.index >= self.until:
                return
            yield frame


class _StillCamera:
    """A camera back on the table once every ball rests: its clock starts again at 0."""

    fps, frame_count, reconnect_s, spec, live = 30.0, None, 0.0, "0", True

    def __init__(self) -> None:
        self.stats = SourceStats()
        *_, last = FrameSource(SAMPLE / "video.mp4")
        self.image = last.image

    def __iter__(self):
        for i in range(STILL_FRAMES):
            yield Frame(i, i / self.fps, self.image)


def _kind(ball: str) -> str:
    return ball.split(":")[0]


def _kinds(texts: list[str]) -> list[str]:
    return [json.loads(t)["type"] for t in texts[1:]]


def _run(record, match_id, source, out, *, stop_at=None, recorder=None, **options) -> RunResult:
    """``source`` refereed into the match; stopped after ``stop_at`` frames, as the dashboard's stop is."""
    seen = [0]

    def count(n: int, fps: float) -> None:
        seen[0] = n

    stop = (lambda: seen[0] >= stop_at) if stop_at is not None else None
    on_event = recorder or recording(record, match_id)
    run_options = RunOptions(spec=SPEC, players=HEADER.players, annotate=False, **options)
    return referee_video(source, run_options, out, on_frame=count, on_event=on_event, stop=stop)


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    with MatchRecord.open(tmp_path_factory.mktemp("record") / "arbiter.db") as r:
        yield r


@pytest.fixture(scope="module")
def whole(record, tmp_path_factory):
    """The sample refereed whole: the record every interrupted run must end up with."""
    match_id = record.start_match(HEADER)
    result = _run(record, match_id, FrameSource(SAMPLE / "video.mp4"), tmp_path_factory.mktemp("whole"))
    assert not result.interrupted and not result.shot_open
    texts = record.texts(match_id)
    assert _kinds(texts).count("decision") == 1 and json.loads(texts[-1])["foul"]["reason"] == "in_off"
    return texts


def test_a_file_stopped_mid_shot_leaves_it_open_and_its_replay_judges_it_whole(record, whole, tmp_path):
    match_id = record.start_match(HEADER)
    result = _run(record, match_id, FrameSource(SAMPLE / "video.mp4"), tmp_path, stop_at=90)
    assert result.frames == 90 and result.interrupted and result.shot_open
    kept = record.texts(match_id)
    assert "shot_start" in _kinds(kept) and not {"shot_end", "decision"} & set(_kinds(kept))
    assert not any(isinstance(e, c.ShotEnd) for e in result.events)
    assert Recorder(record, match_id).shot_open
    # resumed: the file replayed from its start with its camera profile, what was recorded skipped
    profile = tmp_path / "camera_profile.json"
    again = _run(record, match_id, FrameSource(SAMPLE / "video.mp4"), tmp_path, calibration=profile)
    assert not again.interrupted and not Recorder(record, match_id).shot_open
    assert record.texts(match_id) == whole  # as if it had never stopped: the in-off called, once


def test_a_clip_that_ends_mid_shot_still_closes_it(record, tmp_path):
    match_id = record.start_match(HEADER)
    result = _run(record, match_id, _Cut(90, live=False), tmp_path)
    assert result.frames == 90 and not result.interrupted and not result.shot_open
    assert _kinds(record.texts(match_id))[-2:] == ["shot_end", "decision"]


def test_a_camera_lost_mid_shot_leaves_it_open_and_ends_it_when_it_is_back(record, tmp_path):
    match_id = record.start_match(HEADER)
    lost = _run(record, match_id, _Cut(200, live=True), tmp_path)  # the white is in; the reds still roll
    assert lost.interrupted and lost.shot_open
    kept = record.texts(match_id)
    assert "pocket" in _kinds(kept) and not {"shot_end", "decision"} & set(_kinds(kept))
    # back, on balls at rest: it goes on with its clock shifted past the record's last time
    resume_t = record.resume_point(match_id)
    recorder = recording(record, match_id, skip_recorded=False, t_offset=resume_t)
    assert recorder.shot_open
    profile = tmp_path / "camera_profile.json"
    back = _run(
        record, match_id, _StillCamera(), tmp_path, recorder=recorder, shot_open=True, calibration=profile
    )
    assert back.interrupted and not back.shot_open  # lost again, after the shot ended
    texts = record.texts(match_id)
    assert texts[: len(kept)] == kept and _kinds(texts)[len(kept) - 1 :] == ["shot_end", "decision"]
    end, decision = (c.parse_line(t, 1) for t in texts[-2:])
    assert end.t >= resume_t
    assert decision.foul is not None and decision.foul.reason == "in_off"
    assert decision.score == {"A": 0, "B": 4}
    # the positions seen when it came back: where the balls came to rest (reds look alike: by kind)
    want = c.read_stream(SAMPLE / "truth.jsonl")[1][-1].positions
    assert sorted(map(_kind, end.positions)) == sorted(map(_kind, want))
    for ball, xy in want.items():
        assert min(math.dist(xy, p) for b, p in end.positions.items() if _kind(b) == _kind(ball)) <= NEAR_MM
