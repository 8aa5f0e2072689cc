"""Writing video: H.264 through the ffmpeg binary that imageio-ffmpeg ships (no system ffmpeg needed)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


class VideoWriter:
    """Frames in (BGR, uint8), an MP4 out of ``width`` x ``height``: a frame of another size (a folder of
    photos from two cameras) is scaled to it, never written as a broken picture. Close it, or use it as a
    context manager."""

    def __init__(self, path: Path, width: int, height: int, fps: float, crf: int = 23):
        import imageio_ffmpeg

        self.path = path
        self.size = (width, height)
        self._gen = imageio_ffmpeg.write_frames(
            str(path),
            (width, height),
            fps=fps,
            codec="libx264",
            pix_fmt_in="bgr24",
            pix_fmt_out="yuv420p",
            macro_block_size=2,
            ffmpeg_log_level="error",
            output_params=["-preset", "veryfast", "-crf", str(crf)],
        )
        self._gen.send(None)

    def write(self, image: np.ndarray) -> None:
        if (image.shape[1], image.shape[0]) != self.size:
            image = cv2.resize(image, self.size, interpolation=cv2.INTER_AREA)
        self._gen.send(np.ascontiguousarray(image))

    def close(self) -> None:
        self._gen.close()

    def __enter__(self) -> VideoWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
