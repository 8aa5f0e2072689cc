"""A rendered clip's picture moved as a camera that moves a little moves it (``picture_moves``): the frames
and the truth's pixels by the same shift, the table's millimetres not at all."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from cli.common import SAMPLE_SHOT
from datasets.billiards.picture_moves import MOVES, MovedSource, PictureMove
from vision.sources import FrameSource


def test_a_knock_moves_at_once_and_a_drift_steadily() -> None:
    knock = PictureMove("knock", at_s=1.0, dx=0.01, dy=-0.02)
    drift = PictureMove("drift", at_s=1.0, dx=0.01, dy=-0.02, over_s=2.0)
    assert [knock.share(t) for t in (0.9, 1.0, 5.0)] == [0.0, 1.0, 1.0]
    assert [drift.share(t) for t in (0.9, 2.0, 3.0, 5.0)] == [0.0, 0.5, 1.0, 1.0]
    assert np.allclose(drift.offset_px(2.0, (1000, 500)), [5.0, -5.0])


def test_the_truth_moves_its_pixels_not_its_millimetres() -> None:
    move = PictureMove("knock", at_s=0.0, dx=0.01, dy=0.01)
    record = {
        "t": 0.5,
        "balls": {
            "white": {"xy_mm": [100.0, 200.0], "xy_px": [10.0, 20.0]},
            "red:1": {"xy_mm": [0.0, 0.0], "xy_px": None},
        },
    }
    moved = move.record(record, (1000, 500))
    assert moved["balls"]["white"]["xy_px"] == [20.0, 25.0]
    assert moved["balls"]["white"]["xy_mm"] == [100.0, 200.0] and moved["balls"]["red:1"]["xy_px"] is None
    assert record["balls"]["white"]["xy_px"] == [10.0, 20.0]  # the record read is left as it was


def test_a_moved_source_gives_the_moved_frames() -> None:
    move = MOVES["knock"]
    video = SAMPLE_SHOT / "video.mp4"
    plain = list(itertools.islice(FrameSource(video), 60))
    moved = list(itertools.islice(MovedSource(video, move), 60))
    for a, b in zip(plain, moved, strict=True):
        assert a.t == b.t
        assert np.array_equal(move.frame(a.image, a.t), b.image)
    assert np.array_equal(plain[0].image, moved[0].image)  # before the knock


def test_a_drift_needs_its_time() -> None:
    with pytest.raises(ValueError, match="over_s"):
        PictureMove("drift", at_s=0.0, dx=0.01, dy=0.0)
    with pytest.raises(ValueError, match="knock or a drift"):
        PictureMove("pan", at_s=0.0, dx=0.01, dy=0.0)  # type: ignore[arg-type]
