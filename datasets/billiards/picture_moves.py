"""A camera that moves a little, made from a rendered clip: its picture moved as a knocked or re-framing
camera moves it, for measuring how the run follows the table (``arbiter eval shots --camera-move``).

A small pan or tilt of a camera looking down at a table moves the whole picture nearly as one; so does a
knock that turns the camera a fraction of a degree. The clip's frames are shifted by a share of the frame
(``PictureMove``): all at once at ``at_s`` (a knock) or steadily from ``at_s`` over ``over_s`` (a slow
re-framing); the pixels of the truth move the same way, and the truth in table millimetres (the events,
the balls' places) does not move at all.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

import cv2
import numpy as np

from vision.sources import FrameSource
from vision.types import Frame


@dataclass(frozen=True)
class PictureMove:
    """The picture moved by ``dx``, ``dy`` (shares of its width and height): at once at ``at_s``
    (``knock``), or steadily from ``at_s`` over ``over_s`` (``drift``)."""

    kind: Literal["knock", "drift"]
    at_s: float
    dx: float
    dy: float
    over_s: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in ("knock", "drift"):
            raise ValueError(f"a picture move is a knock or a drift, not {self.kind!r}")
        if self.kind == "drift" and self.over_s <= 0:
            raise ValueError(f"a drift takes some time: over_s must be positive, got {self.over_s}")

    def share(self, t: float) -> float:
        """How much of the move has happened at ``t`` (0 to 1)."""
        if self.kind == "knock":
            return float(t >= self.at_s)
        return min(1.0, max(0.0, (t - self.at_s) / self.over_s))

    def offset_px(self, t: float, size: tuple[int, int]) -> np.ndarray:
        """The picture's shift (px) at ``t`` for a frame of ``size`` (width, height)."""
        return self.share(t) * np.array([self.dx * size[0], self.dy * size[1]])

    def frame(self, image: np.ndarray, t: float) -> np.ndarray:
        """The frame as the moved camera shows it (the edge it uncovers repeats the border's pixels)."""
        h, w = image.shape[:2]
        dx, dy = self.offset_px(t, (w, h))
        if dx == 0 and dy == 0:
            return image
        matrix = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]])
        return cv2.warpAffine(image, matrix, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def record(self, record: dict[str, Any], size: tuple[int, int]) -> dict[str, Any]:
        """A ``frames.jsonl`` record with its pixels where the moved camera sees them."""
        dx, dy = self.offset_px(float(record["t"]), size)
        balls = {
            k: {**b, "xy_px": None if b["xy_px"] is None else [b["xy_px"][0] + dx, b["xy_px"][1] + dy]}
            for k, b in record["balls"].items()
        }
        return {**record, "balls": balls}


# The moves ``arbiter eval shots --camera-move`` makes: a knock of 1 % of the frame 1.45 s in (between two
# of the run's looks at the camera, which come every two seconds), and a re-framing of 1.2 % over 7.5 s.
MOVES = {
    "knock": PictureMove("knock", at_s=1.45, dx=0.008, dy=0.006),
    "drift": PictureMove("drift", at_s=0.3, dx=0.012, dy=-0.008, over_s=7.5),
}


class MovedSource(FrameSource):
    """A video file's frames as a camera that moved shows them (``PictureMove``)."""

    def __init__(self, spec: str | Path, move: PictureMove) -> None:
        super().__init__(spec)
        self.move = move

    def __iter__(self) -> Iterator[Frame]:
        for frame in super().__iter__():
            yield replace(frame, image=self.move.frame(frame.image, frame.t))
