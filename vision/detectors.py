"""The detectors behind one interface: ``detect(image) -> Detections`` placed on the table (``xy_mm``).

- ``classical``: cloth model, circles of the known ball size, colour (``vision.classical``); five-pins'
  pins read on their spots (``vision.pin_looks``). Fast; the baseline and the fallback.
- ``yolo``: the trained network on the table view (``vision.yolo``). Finds pins anywhere, and balls the
  colour rules miss.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import numpy as np

from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import BilliardsSpec
from vision.calibration import TableCalibration
from vision.classical import MIN_BALL_RADIUS_PX, ClassicalDetector
from vision.pin_looks import PinLooks
from vision.table_view import TableView
from vision.types import Detections, Pins
from vision.yolo import DEFAULT_MODEL, OnnxNetwork, YoloConfig, YoloDetector


class Detector(Protocol):
    """What the pipeline runs: balls placed on the table each frame, and the pins of the last frame (none
    for a detector that does not see pins: ``sees_pins`` says which)."""

    @property
    def sees_pins(self) -> bool: ...

    @property
    def last_pins(self) -> Pins: ...

    def detect(self, image: np.ndarray) -> Detections: ...


class BallsTooSmallError(ValueError):
    """The table is found, but its balls are too few pixels across in the picture to be seen."""


class ClassicalOnTable:
    """The classical detector with its pixel detections carried onto the table by the calibration, and in
    five-pins the pins read on their spots (``vision.pin_looks``) where the image shows their heads.
    ``at_rest``: photos of balls at rest (``ClassicalDetector``)."""

    def __init__(
        self,
        spec: BilliardsSpec,
        calib: TableCalibration,
        image_shape: tuple[int, ...],
        at_rest: bool = False,
    ) -> None:
        table = spec.table
        self.calib = calib
        self.radius_mm = table.ball_radius_mm
        radius_px = float(np.median(calib.radius_px(np.array([table.centre_xy_mm]), self.radius_mm)))
        if radius_px < MIN_BALL_RADIUS_PX:
            raise BallsTooSmallError(
                f"the balls are {2 * radius_px:.1f} px across in this picture, too small to be seen (at "
                f"least {2 * MIN_BALL_RADIUS_PX:g} px): film the table closer or at a higher resolution"
            )
        spots_px = calib.mm_to_px(np.array(list(table.spots.values())).reshape(-1, 2), self.radius_mm)
        jaws_px = calib.mm_to_px(
            np.array([p.mouth_xy_mm for p in table.pockets]).reshape(-1, 2), self.radius_mm
        )
        mask = calib.table_mask(image_shape)
        self.inner = ClassicalDetector(
            spec,
            radius_px,
            mask,
            spots_px=spots_px,
            at_rest=at_rest,
            jaws_px=jaws_px,
            radius_at=self._radius_at,
        )
        self.pins = PinLooks.of(table, calib, image_shape)
        self.last_pins = Pins.none()

    def _radius_at(self, xy_px: np.ndarray) -> np.ndarray:
        """The radius (px) the calibration expects of a ball whose centre shows at each of ``xy_px``."""
        return self.calib.radius_px(self.calib.px_to_mm(xy_px, self.radius_mm), self.radius_mm)

    @property
    def sees_pins(self) -> bool:
        return self.pins is not None

    def detect(self, image: np.ndarray) -> Detections:
        dets = self.inner.detect(image)
        if self.pins is not None:
            self.last_pins = self.pins.look(image, dets.xy_px, dets.radius_px)
        return dets.with_xy_mm(self.calib.px_to_mm(dets.xy_px, self.radius_mm)) if len(dets) else dets


def game_classes(spec: BilliardsSpec) -> np.ndarray:
    """Indices of ``APPEARANCE_CLASSES`` a game's table can show: its balls' looks, and pins in five-pins."""
    names = {look.cls for look in spec.looks.values()}
    if spec.table.pins:
        names |= {"pin_standing", "pin_down"}
    return np.array(sorted(APPEARANCE_CLASSES.index(n) for n in names))


def _classical(
    spec: BilliardsSpec,
    calib: TableCalibration,
    image_shape: tuple[int, ...],
    model: Path | None,
    config: YoloConfig | None,
    at_rest: bool,
) -> Detector:
    return ClassicalOnTable(spec, calib, image_shape, at_rest)


def _yolo(
    spec: BilliardsSpec,
    calib: TableCalibration,
    image_shape: tuple[int, ...],
    model: Path | None,
    config: YoloConfig | None,
    at_rest: bool,
) -> Detector:
    r = spec.table.ball_radius_mm
    view = TableView(spec.table)
    network = OnnxNetwork(model or DEFAULT_MODEL, config)
    return YoloDetector(
        view,
        view.rectifier(lambda xy: calib.mm_to_px(xy, r)),
        lambda xy: calib.mm_to_px(xy, r),
        lambda xy: calib.radius_px(xy, r),
        network,
        game_classes(spec),
    )


_Builder = Callable[
    [BilliardsSpec, TableCalibration, tuple[int, ...], Path | None, YoloConfig | None, bool], Detector
]
_BUILDERS: dict[str, _Builder] = {"classical": _classical, "yolo": _yolo}
DETECTORS = tuple(_BUILDERS)
"""The detector kinds, by the name the command line and the desk use."""


def build_detector(
    kind: str,
    spec: BilliardsSpec,
    calib: TableCalibration,
    image_shape: tuple[int, ...],
    model: Path | None = None,
    config: YoloConfig | None = None,
    at_rest: bool = False,
) -> Detector:
    """The detector ``kind`` (one of ``DETECTORS``) for a game seen through ``calib``; ``model`` and
    ``config`` are the network's (``yolo``); ``at_rest``: the pictures are photos of balls at rest, where
    every ball with a spot of its own is on the table (the classical detector's naming)."""
    builder = _BUILDERS.get(kind)
    if builder is None:
        raise ValueError(f"unknown detector {kind!r}; choose one of: {', '.join(DETECTORS)}")
    return builder(spec, calib, image_shape, model, config, at_rest)
