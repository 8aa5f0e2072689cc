"""Writing video: every frame lands in the file at the video's size, whatever size it came in."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.video import VideoWriter


def test_a_frame_of_another_size_is_scaled_to_the_video_not_written_broken(tmp_path: Path) -> None:
    path = tmp_path / "clip.mp4"
    with VideoWriter(path, 64, 48, 10.0) as video:
        video.write(np.full((48, 64, 3), 200, np.uint8))
        video.write(np.full((90, 160, 3), 40, np.uint8))  # another camera's picture
        video.write(np.full((48, 64, 3), 200, np.uint8))
    capture = cv2.VideoCapture(str(path))
    frames = []
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        frames.append(frame)
    capture.release()
    assert [f.shape for f in frames] == [(48, 64, 3)] * 3
    assert [round(float(f.mean()) / 10) for f in frames] == [20, 4, 20]
