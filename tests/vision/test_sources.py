"""Frame sources: a file's frames decoded ahead on a thread of their own are the frames read in line."""

from __future__ import annotations

import threading
from itertools import islice
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.sources import FrameSource

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "billiards" / "snooker" / "shot_000" / "video.mp4"


def _readers() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "frame-reader"]


def test_frames_read_ahead_are_the_frames_read_in_line() -> None:
    ahead, in_line = FrameSource(SAMPLE, read_ahead=4), FrameSource(SAMPLE, read_ahead=0)
    pairs = list(zip(ahead, in_line, strict=True))
    assert len(pairs) == 312
    for a, b in pairs[:: len(pairs) // 7]:
        assert (a.index, a.t) == (b.index, b.t)
        assert np.array_equal(a.image, b.image)
    assert ahead.stats == in_line.stats
    assert ahead.stats.frames == 312


def test_a_run_stopped_early_stops_the_reader(tmp_path: Path) -> None:
    source = FrameSource(SAMPLE, read_ahead=2)
    frames = iter(source)
    first = list(islice(frames, 10))
    assert [frame.index for frame in first] == list(range(10))
    assert source.stats.frames == 10  # what the run was given, not what the reader had decoded
    assert _readers()
    frames.close()  # type: ignore[attr-defined]
    assert not _readers()


def test_a_folder_read_ahead_names_the_images_it_could_not_read(tmp_path: Path) -> None:
    image = np.full((40, 60, 3), 90, np.uint8)
    for name in ("1.png", "3.png"):
        cv2.imwrite(str(tmp_path / name), image)
    (tmp_path / "2.png").write_bytes(b"not an image")
    source = FrameSource(tmp_path, folder_fps=10.0, read_ahead=3)
    assert [(frame.index, frame.t) for frame in source] == [(0, 0.0), (2, 0.2)]
    assert (source.stats.frames, source.stats.bad_frames, source.stats.unreadable) == (2, 1, ["2.png"])


def test_an_error_in_the_reader_is_raised_in_the_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "1.png"), np.zeros((8, 8, 3), np.uint8))

    def failing(path: str, flags: int) -> np.ndarray:
        raise MemoryError(f"no room to decode {Path(path).name}")

    monkeypatch.setattr(cv2, "imread", failing)
    with pytest.raises(MemoryError, match=r"no room to decode 1\.png"):
        list(FrameSource(tmp_path, read_ahead=2))
    assert not _readers()


def test_a_second_pass_over_a_source_counts_on_as_read_in_line(tmp_path: Path) -> None:
    for name in ("1.png", "3.png"):
        cv2.imwrite(str(tmp_path / name), np.zeros((8, 8, 3), np.uint8))
    (tmp_path / "2.png").write_bytes(b"not an image")
    ahead, in_line = FrameSource(tmp_path, read_ahead=2), FrameSource(tmp_path, read_ahead=0)
    for source in (ahead, in_line):
        next(iter(source))  # a table searched for on the first frames, then the source read from its start
        assert len(list(source)) == 2
    assert ahead.stats == in_line.stats
    assert (ahead.stats.frames, ahead.stats.bad_frames, ahead.stats.unreadable) == (3, 1, ["2.png"])
