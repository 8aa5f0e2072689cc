"""A run on a 6 ft snooker table (issue 10): the calibration tells the size from the balls, the match header
of ``events.jsonl`` carries it (``Match.table``), and a match recorded as the run goes takes it too, so the
engine judges on the 6 ft table's spots."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from arbiter import contract as c
from arbiter.games import billiards
from datasets.billiards.camera import Camera
from datasets.billiards.look import Look
from datasets.billiards.render import TableRenderer
from datasets.billiards.scene import BallState, SceneSample
from pipeline.billiards import RunOptions, referee_video
from record.recorder import recording
from record.store import MatchRecord
from vision.sources import FrameSource
from vision.video import VideoWriter

SNOOKER = billiards("snooker")
SIX_FT = SNOOKER.resized("6ft")
W, H, FPS = 960, 540, 30.0


def _clip(path: Path) -> Path:
    """Half a second of balls at rest on a 6 ft table, filmed from above."""
    table = SIX_FT.table
    cam = Camera.random(table, W, H, np.random.default_rng(3))
    balls = (
        BallState("white", (300.0, 350.0), False),
        BallState("red:1", (500.0, 1200.0), False),
        BallState("blue", table.spots["blue"], False),
        BallState("black", table.spots["black"], False),
    )
    renderer = TableRenderer(SIX_FT, cam, replace(Look(), cue=None, arm=None), seed=5, clip_s=0.5)
    with VideoWriter(path, W, H, FPS) as video:
        for i in range(round(0.5 * FPS)):
            video.write(renderer.render([SceneSample(i / FPS, balls)]).image)
    return path


def test_the_header_carries_the_table_found_and_the_record_takes_it(tmp_path: Path) -> None:
    clip = _clip(tmp_path / "clip.mp4")
    with MatchRecord.open(tmp_path / "m.db") as record:
        # The match is started before the table is known, as ``arbiter run --db`` and the dashboard do.
        match_id = record.start_match(c.Match(game="snooker", players=("A", "B")))
        recorder = recording(record, match_id)
        options = RunOptions(spec=SNOOKER, annotate=False)
        result = referee_video(
            FrameSource(clip), options, tmp_path / "out", on_event=recorder, on_header=recorder
        )
        assert result.calibration is not None and result.calibration.table.size == "6ft"
        header, _ = c.read_stream(tmp_path / "out" / "events.jsonl")
        assert header.table == "6ft"
        assert record.header(match_id).table == "6ft"
        assert recorder.deciding
