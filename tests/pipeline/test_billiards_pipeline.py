"""The whole pipeline on freshly generated synthetic clips: video in, events out, checked against truth."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from arbiter import contract as c
from arbiter.games import billiards
from cli.main import app
from datasets.billiards.synth import SynthConfig, synth_billiards
from evaluation.billiards import in_truth_names
from evaluation.scoring import EventScore
from pipeline.billiards import RunOptions, referee_video
from vision.sources import FrameSource


@pytest.fixture(scope="module")
def clip(tmp_path_factory):
    cfg = SynthConfig(game="snooker", shots=2, seed=77, fps=60.0, width=960, height=540, yolo_every=1000)
    out = tmp_path_factory.mktemp("clip")
    synth_billiards(cfg, out)
    return cfg, out


def test_the_pipeline_finds_the_events_of_the_truth(clip, tmp_path):
    cfg, out = clip
    score = EventScore.new()
    for shot in sorted(out.glob("shot_*")):
        result = referee_video(
            FrameSource(shot / "video.mp4"), RunOptions(spec=billiards(cfg.game)), tmp_path / shot.name
        )
        written = c.read_stream(tmp_path / shot.name / "events.jsonl")[1]
        assert written == result.events[1:] or written == [
            e for e in result.events if not isinstance(e, c.Match)
        ]
        _, truth = c.read_stream(shot / "truth.jsonl")
        score.add(truth, in_truth_names(shot, result, billiards(cfg.game).table.ball_diameter_mm))
        tracks = (tmp_path / shot.name / "tracks.jsonl").read_text().splitlines()
        assert len(tracks) == result.frames == len((shot / "frames.jsonl").read_text().splitlines())
        cap = cv2.VideoCapture(str(tmp_path / shot.name / "annotated.mp4"))
        assert cap.isOpened() and int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == result.frames
        # The calibration is timed apart: the frame loop's rate leaves it out, the whole run's counts it.
        assert 0.0 < result.calibration_seconds < result.seconds and result.loop_fps > result.fps
    figures = score.as_dict()
    ev = figures["events"]
    # End to end, the classical detector limits what is found (fast blurred balls are lost for frames; the
    # measured figures are in the README, from 'arbiter eval'). These bounds hold for it and guard the
    # wiring: every shot starts and ends, pots land in the right pocket, contacts are timed within a frame.
    assert ev["shot_start"]["recall"] == 1.0 and ev["shot_end"]["recall"] == 1.0, figures
    assert ev["cushion"]["precision"] >= 0.8, figures
    if "pocket" in ev:
        assert ev["pocket"]["recall"] == 1.0 and ev["pocket"]["precision"] == 1.0, figures
    assert figures["contact_time_error_ms"]["mean"] < 16.7, figures


def test_run_command_on_an_image_folder_and_a_saved_profile(clip, tmp_path):
    _, out = clip
    shot = out / "shot_000"
    frames = tmp_path / "frames"
    frames.mkdir()
    cap = cv2.VideoCapture(str(shot / "video.mp4"))
    for i in range(40):
        ok, img = cap.read()
        assert ok
        cv2.imwrite(str(frames / f"{i:04d}.png"), img)
    runner = CliRunner()
    first = runner.invoke(
        app, ["run", str(frames), "--game", "snooker", "--out", str(tmp_path / "a"), "--no-annotate"]
    )
    assert first.exit_code == 0, first.output
    profile = tmp_path / "a" / "camera_profile.json"
    assert json.loads(profile.read_text())["game"] == "snooker"
    again = runner.invoke(
        app,
        [
            "run",
            str(frames),
            "--game",
            "snooker",
            "--calibration",
            str(profile),
            "--out",
            str(tmp_path / "b"),
            "--no-annotate",
        ],
    )
    assert again.exit_code == 0, again.output
    wrong = runner.invoke(
        app,
        [
            "run",
            str(frames),
            "--game",
            "pyramid",
            "--calibration",
            str(profile),
            "--out",
            str(tmp_path / "c"),
            "--no-annotate",
        ],
    )
    assert wrong.exit_code == 2 and "is for snooker" in wrong.output


def test_a_single_photo_has_its_balls_in_the_detections(clip, tmp_path):
    """One frame refereed as a video: the tracker confirms a ball over a few frames, so its balls are in no
    track yet; ``detections.jsonl`` has them, frame by frame, as the detector saw them (a folder of photos
    is refereed photo by photo instead: ``tests/pipeline/test_photos.py``)."""
    _, out = clip
    shot = out / "shot_000"
    ok, image = cv2.VideoCapture(str(shot / "video.mp4")).read()
    assert ok
    (tmp_path / "photo").mkdir()
    cv2.imwrite(str(tmp_path / "photo" / "table.png"), image)
    result = referee_video(
        FrameSource(tmp_path / "photo"), RunOptions(spec=billiards("snooker")), tmp_path / "o"
    )
    lines = (tmp_path / "o" / "detections.jsonl").read_text().splitlines()
    assert len(lines) == result.frames == 1
    seen = json.loads(lines[0])
    truth = json.loads((shot / "frames.jsonl").read_text().splitlines()[0])["balls"]
    on_table = [b for b in truth.values() if not b["pocketed"] and not b["hidden"]]
    assert seen["frame"] == 0 and len(seen["balls"]) >= 0.9 * len(on_table), (
        len(seen["balls"]),
        len(on_table),
    )
    ball = seen["balls"][0]
    assert set(ball) >= {"look", "xy_px", "xy_mm", "radius_px", "confidence"}
    tracked = json.loads((tmp_path / "o" / "tracks.jsonl").read_text().splitlines()[0])
    assert tracked["balls"] == {}  # no track confirmed on one frame: what the detections file is for


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p / "missing.mp4", "no such file or folder"),
        (
            lambda p: (p / "corrupt.mp4").write_bytes(b"not a video at all" * 100) and p / "corrupt.mp4",
            "cannot open video",
        ),
        (lambda p: (p / "empty").mkdir() or p / "empty", "holds no images"),
    ],
)
def test_bad_sources_get_a_clear_message(make, message, tmp_path):
    result = CliRunner().invoke(
        app, ["run", str(make(tmp_path)), "--game", "snooker", "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 2
    assert message in result.output


def test_a_blank_video_is_refused_as_no_table(tmp_path):
    import numpy as np

    from vision.video import VideoWriter

    with VideoWriter(tmp_path / "black.mp4", 320, 240, 30) as w:
        for _ in range(40):
            w.write(np.zeros((240, 320, 3), np.uint8))
    result = CliRunner().invoke(
        app, ["run", str(tmp_path / "black.mp4"), "--game", "snooker", "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 2 and "could not find the table" in result.output


def test_calibrate_command_automatic_and_by_typed_points(clip, tmp_path):
    from datasets.billiards.camera import Camera

    _, out = clip
    shot = out / "shot_000"
    runner = CliRunner()
    auto = runner.invoke(
        app, ["calibrate", str(shot / "video.mp4"), "--game", "snooker", "--out", str(tmp_path / "auto.json")]
    )
    assert auto.exit_code == 0, auto.output
    assert (tmp_path / "auto.png").is_file()
    camera = Camera.from_dict(json.loads((shot / "camera.json").read_text()))
    table = billiards("snooker").table
    corners = {
        "bl": (0.0, 0.0),
        "br": (table.width_mm, 0.0),
        "tl": (0.0, table.length_mm),
        "tr": (table.width_mm, table.length_mm),
        "ml": (0.0, table.length_mm / 2),
        "mr": (table.width_mm, table.length_mm / 2),
    }
    import numpy as np

    px = camera.project(np.array([[x, y, 0.0] for x, y in corners.values()]))
    typed = ";".join(f"{k}={p[0]:.2f},{p[1]:.2f}" for k, p in zip(corners, px, strict=True))
    manual = runner.invoke(
        app,
        [
            "calibrate",
            str(shot / "video.mp4"),
            "--game",
            "snooker",
            "--points",
            typed,
            "--out",
            str(tmp_path / "manual.json"),
        ],
    )
    assert manual.exit_code == 0, manual.output
    profile = json.loads((tmp_path / "manual.json").read_text())
    assert profile["game"] == "snooker"
    bad = runner.invoke(
        app, ["calibrate", str(shot / "video.mp4"), "--game", "snooker", "--points", "bl=1;2"]
    )
    assert bad.exit_code == 2 and "--points must look like" in bad.output


def test_the_pipeline_with_the_trained_detector_finds_the_events_of_the_truth(clip, tmp_path):
    cfg, out = clip
    score = EventScore.new()
    latency = []
    for shot in sorted(out.glob("shot_*")):
        result = referee_video(
            FrameSource(shot / "video.mp4"),
            RunOptions(spec=billiards(cfg.game), annotate=False, detector="yolo"),
            tmp_path / shot.name,
        )
        _, truth = c.read_stream(shot / "truth.jsonl")
        score.add(truth, in_truth_names(shot, result, billiards(cfg.game).table.ball_diameter_mm))
        latency += [dt for kind, dt in result.latency_s if kind != "shot_end"]
    figures = score.as_dict()
    ev = figures["events"]
    # Every shot is found and ends. Its start is not always at the stroke: the network was trained without
    # labels on balls half hidden by the cue, so it can lose the white at the stroke and the start is then
    # called at its first contact (measured on this clip; README, Results).
    assert ev["shot_start"]["found"] == ev["shot_start"]["true"], figures
    assert ev["shot_end"]["recall"] == 1.0, figures
    assert ev["cushion"]["precision"] >= 0.8, figures  # recall is low with this detector: README
    if "pocket" in ev:
        assert ev["pocket"]["recall"] == 1.0 and ev["pocket"]["precision"] == 1.0, figures
    assert figures["first_contact_kind_accuracy"] == 1.0, figures
    # Events are written a few frames after the frame that shows them (the kink's window and the reorder
    # buffer); a contact noticed only when a lost ball is found again comes late (measured up to 0.9 s here).
    # A gap in a fast ball's detections holds the stream a frame longer, so that a cushion inferred across it
    # (tracking.cushion_sides) keeps its time order: measured 100.2 ms median here (83.5 ms before).
    frame = 1 / cfg.fps
    assert latency and float(np.median(latency)) < 0.1 + frame and max(latency) < 1.5, sorted(latency)
