"""Dice at run time: read every die's top face in an image, and follow throws across video frames.

``DiceReader`` runs the committed ONNX network (``models/dice_yolo11n.onnx``, trained by
``evaluation.train_dice``) through ONNX Runtime: one pass finds every die and reads its face. Its classes are
``DICE_CLASSES``: class k < 6 is face k+1 (the convention of the real photo sets), class 6 is a die resting
cocked (on an edge or against something), which has no face up and is reported, never read.

``tracking.throws.ThrowWatcher`` turns per-frame readings into the contract's ``roll`` events.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.yolo import MODELS_DIR, ModelError, OnnxNetwork, YoloConfig, letterbox

DEFAULT_DICE_MODEL = MODELS_DIR / "dice_yolo11n.onnx"
FACES = (1, 2, 3, 4, 5, 6)
COCKED_CLASS = 6
DICE_CLASSES: tuple[str, ...] = ("one", "two", "three", "four", "five", "six", "cocked")


def value_of(cls: int) -> int | None:
    """The face a class means; None for ``cocked``."""
    return None if cls == COCKED_CLASS else int(cls) + 1


def class_of(value: int | None) -> int:
    return COCKED_CLASS if value is None else value - 1


@dataclass(frozen=True)
class DieReading:
    """One die in one image: its box in pixels (x0, y0, x1, y1), its face (None: cocked, no face up) and the
    network's confidence."""

    box_px: tuple[float, float, float, float]
    value: int | None
    confidence: float

    def __post_init__(self) -> None:
        if self.value is not None and self.value not in FACES:
            raise ValueError(f"DieReading.value must be 1..6 or None for a cocked die (got {self.value!r})")
        x0, y0, x1, y1 = self.box_px
        if not (x1 > x0 and y1 > y0):
            raise ValueError(f"DieReading.box_px must be x0 < x1, y0 < y1 (got {self.box_px})")

    @property
    def centre_px(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box_px
        return (x0 + x1) / 2, (y0 + y1) / 2

    @property
    def size_px(self) -> float:
        """The die's apparent size: the mean of its box's sides."""
        x0, y0, x1, y1 = self.box_px
        return ((x1 - x0) + (y1 - y0)) / 2

    @property
    def aspect(self) -> float:
        x0, y0, x1, y1 = self.box_px
        w, h = x1 - x0, y1 - y0
        return max(w, h) / min(w, h)

    def to_dict(self) -> dict:
        return {
            "box_px": [round(v, 1) for v in self.box_px],
            "value": self.value,
            "cocked": self.value is None,
            "confidence": round(self.confidence, 4),
        }


# --- the reader ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DiceReaderConfig:
    """``confidence``: lower finds more blurred, small or odd dice and more false ones (``arbiter dice eval``
    shows the trade). ``iou``: boxes overlapping more than this are one die (dice never overlap much, even
    seen obliquely). ``long_side``: the image is scaled so its long side is this before the network sees it;
    the network was trained at 640, larger finds smaller dice and costs the square of the ratio in time.
    ``threads``: ONNX Runtime intra-op threads."""

    confidence: float = 0.25
    iou: float = 0.5
    long_side: int = 640
    threads: int = 1

    def __post_init__(self) -> None:
        if not 0 < self.confidence < 1 or not 0 < self.iou < 1:
            raise ValueError(f"confidence and iou must lie in (0, 1) (got {self.confidence}, {self.iou})")
        if self.long_side < 64 or self.long_side % 32:
            raise ValueError(f"long_side must be a multiple of 32, at least 64 (got {self.long_side})")
        if self.threads < 1:
            raise ValueError(f"threads must be at least 1 (got {self.threads})")


class DiceReader:
    """Every die in an image: box, face, confidence. Needs only ONNX Runtime."""

    def __init__(
        self, model: str | Path = DEFAULT_DICE_MODEL, config: DiceReaderConfig | None = None
    ) -> None:
        self.config = config or DiceReaderConfig()
        model = Path(model)
        if not model.exists():
            raise ModelError(
                f"dice model {model} not found: train it with `arbiter dice train` (it writes "
                "models/dice_yolo11n.onnx) or give one with --model"
            )
        cfg = self.config
        self.network = OnnxNetwork(model, YoloConfig(cfg.confidence, cfg.iou, cfg.threads))
        classes = self.network.record.get("classes")
        if classes is not None and tuple(classes) != DICE_CLASSES:
            raise ModelError(f"{model} reads classes {classes}, not the dice classes {list(DICE_CLASSES)}")

    def read(self, image_bgr: np.ndarray) -> list[DieReading]:
        h, w = image_bgr.shape[:2]
        boxed, scale = letterbox(image_bgr, self.config.long_side)
        boxes, scores, classes = self.network(boxed)
        return readings_from(boxes / scale, scores, classes, (w, h))


def readings_from(
    boxes_xyxy: np.ndarray, scores: np.ndarray, classes: np.ndarray, size: tuple[int, int]
) -> list[DieReading]:
    """Network output in image pixels -> readings, boxes clipped to the image, degenerate ones dropped."""
    w, h = size
    out = []
    for (x0, y0, x1, y1), score, cls in zip(boxes_xyxy, scores, classes, strict=True):
        box = (max(float(x0), 0.0), max(float(y0), 0.0), min(float(x1), float(w)), min(float(y1), float(h)))
        if box[2] - box[0] < 1 or box[3] - box[1] < 1 or not 0 <= int(cls) < len(DICE_CLASSES):
            continue
        out.append(DieReading(box, value_of(int(cls)), float(score)))
    return out
