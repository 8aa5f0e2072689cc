"""The values that leave vision: a frame from a source, and the detections found in it."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

from arbiter.balls import APPEARANCE_CLASSES


@dataclass(frozen=True)
class Frame:
    """One image from a source. ``t`` is seconds from the start of the source (from the container's
    timestamps for files, from the clock for live sources); ``index`` counts frames read, bad ones too."""

    index: int
    t: float
    image: np.ndarray  # H x W x 3, BGR, uint8


def _column(values: ArrayLike, n: int, width: int | None, dtype: DTypeLike, name: str) -> np.ndarray:
    arr = np.asarray(values, dtype=dtype)
    shape = (n,) if width is None else (n, width)
    if arr.size == 0 and n == 0:
        return arr.reshape(shape)
    if arr.shape != shape:
        raise ValueError(f"Detections.{name} must have shape {shape} (got {arr.shape})")
    return arr


@dataclass(frozen=True)
class Detections:
    """Everything a detector found in one frame: one array per field, one row per object (the design of
    supervision's ``Detections``). ``cls`` indexes ``arbiter.balls.APPEARANCE_CLASSES``. ``xy_mm`` is NaN
    until a calibration has placed the detections on the table."""

    xy_px: np.ndarray  # (N, 2) centre in pixels
    radius_px: np.ndarray  # (N,)
    cls: np.ndarray  # (N,) int
    confidence: np.ndarray  # (N,) in [0, 1]
    xy_mm: np.ndarray = field(default=None)  # type: ignore[arg-type]  # (N, 2), NaN when not calibrated
    blurred: np.ndarray = field(default=None)  # type: ignore[arg-type]  # (N,) bool, False when not given

    def __post_init__(self) -> None:
        n = len(np.asarray(self.radius_px).reshape(-1))
        object.__setattr__(self, "xy_px", _column(self.xy_px, n, 2, np.float64, "xy_px"))
        object.__setattr__(self, "radius_px", _column(self.radius_px, n, None, np.float64, "radius_px"))
        object.__setattr__(self, "cls", _column(self.cls, n, None, np.int64, "cls"))
        object.__setattr__(self, "confidence", _column(self.confidence, n, None, np.float64, "confidence"))
        xy_mm = np.full((n, 2), np.nan) if self.xy_mm is None else self.xy_mm
        object.__setattr__(self, "xy_mm", _column(xy_mm, n, 2, np.float64, "xy_mm"))
        blurred = np.zeros(n, bool) if self.blurred is None else self.blurred
        object.__setattr__(self, "blurred", _column(blurred, n, None, np.bool_, "blurred"))
        if n and (self.cls.min() < 0 or self.cls.max() >= len(APPEARANCE_CLASSES)):
            raise ValueError(
                f"Detections.cls must index APPEARANCE_CLASSES (0..{len(APPEARANCE_CLASSES) - 1})"
            )
        for arr in (self.xy_px, self.radius_px, self.cls, self.confidence, self.xy_mm, self.blurred):
            arr.setflags(write=False)

    @classmethod
    def empty(cls) -> Detections:
        return cls(np.zeros((0, 2)), np.zeros(0), np.zeros(0, dtype=np.int64), np.zeros(0))

    def __len__(self) -> int:
        return len(self.radius_px)

    def __getitem__(self, index: slice | np.ndarray) -> Detections:
        """Rows by boolean mask, integer array or slice."""
        return Detections(
            self.xy_px[index],
            self.radius_px[index],
            self.cls[index],
            self.confidence[index],
            self.xy_mm[index],
            self.blurred[index],
        )

    def with_xy_mm(self, xy_mm: np.ndarray) -> Detections:
        return Detections(self.xy_px, self.radius_px, self.cls, self.confidence, xy_mm, self.blurred)

    @property
    def class_names(self) -> list[str]:
        return [APPEARANCE_CLASSES[i] for i in self.cls]

    @classmethod
    def merge(cls, parts: list[Detections]) -> Detections:
        if not parts:
            return cls.empty()
        return cls(
            np.concatenate([p.xy_px for p in parts]),
            np.concatenate([p.radius_px for p in parts]),
            np.concatenate([p.cls for p in parts]),
            np.concatenate([p.confidence for p in parts]),
            np.concatenate([p.xy_mm for p in parts]),
            np.concatenate([p.blurred for p in parts]),
        )


@dataclass(frozen=True)
class Pins:
    """Pins seen in one frame (five-pins): table mm and whether each is down; a detector that reads pins
    only on their spots (the classical one) gives the standing ones."""

    xy_mm: np.ndarray  # (N, 2)
    down: np.ndarray  # (N,) bool
    confidence: np.ndarray  # (N,)

    @classmethod
    def none(cls) -> Pins:
        return cls(np.zeros((0, 2)), np.zeros(0, dtype=bool), np.zeros(0))

    @property
    def standing_xy_mm(self) -> np.ndarray:
        standing: np.ndarray = self.xy_mm[~self.down]
        return standing
