"""The learned detector at run time: the committed ONNX network run by ONNX Runtime, no torch.

It looks at the table view (``vision.table_view``), where a ball has the same size everywhere, and returns
``Detections`` already placed on the table in millimetres, with pixel positions in the camera frame for
overlays. Pins (five-pins) come back separately: the tracker follows balls only.

Post-processing is the network's usual one, written out because it is short: the best class per anchor,
a confidence threshold, and non-maximum suppression across classes (a ball is one object whatever the
network thinks its colour is; two balls never overlap by more than touching).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from arbiter.balls import APPEARANCE_CLASSES
from vision.table_view import MmToPx, Rectifier, TableView
from vision.types import Detections, Pins

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
DEFAULT_MODEL = MODELS_DIR / "billiards_yolo11n.onnx"
RadiusAt = Callable[[np.ndarray], np.ndarray]  # (N, 2) table mm -> (N,) apparent ball radius in px
PIN_CLASSES = frozenset(APPEARANCE_CLASSES.index(c) for c in ("pin_standing", "pin_down"))


class ModelError(RuntimeError):
    """The detector's model file is missing or unusable."""


@dataclass(frozen=True)
class YoloConfig:
    """``confidence``: lower finds more blurred or half-hidden balls and more false ones. ``iou``: boxes
    overlapping more than this are one object. ``threads``: ONNX Runtime intra-op threads; one leaves the
    other core to decoding and tracking, and avoids spinning threads fighting under load."""

    confidence: float = 0.3
    iou: float = 0.45
    threads: int = 1

    def __post_init__(self) -> None:
        if not 0 < self.confidence < 1 or not 0 < self.iou < 1:
            raise ValueError(f"confidence and iou must lie in (0, 1) (got {self.confidence}, {self.iou})")
        if self.threads < 1:
            raise ValueError(f"threads must be at least 1 (got {self.threads})")


class OnnxNetwork:
    """A YOLO detection network exported to ONNX: image in, ``(boxes_xyxy, scores, classes)`` out."""

    def __init__(self, path: str | Path = DEFAULT_MODEL, config: YoloConfig | None = None) -> None:
        import onnxruntime as ort

        path = Path(path)
        if not path.exists():
            raise ModelError(
                f"detector model {path} not found; it ships in models/ (rebuild it with `arbiter train "
                "detector`) or choose the classical detector with --detector classical"
            )
        self.config = config or YoloConfig()
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = self.config.threads
        opts.inter_op_num_threads = 1
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            self.session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        except Exception as e:  # onnxruntime raises its own exception types for corrupt files
            raise ModelError(f"detector model {path} could not be loaded ({e}); restore it from git") from e
        self.input_name = self.session.get_inputs()[0].name
        record = path.with_suffix(".json")
        self.record = json.loads(record.read_text()) if record.exists() else {}

    def __call__(
        self, image_bgr: np.ndarray, classes: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Boxes ``(N, 4)`` x0 y0 x1 y1 in ``image_bgr`` pixels, scores ``(N,)``, classes ``(N,)``.

        ``classes``: the class indices that can be present (one game's balls): an object is found on the
        score of its best class, then named by the best of these, so a snooker white the network half
        takes for a pyramid ball is still found, and is called white. ``image_bgr``'s sides must be multiples
        of 32 (``letterbox`` makes any image so)."""
        blob = np.ascontiguousarray(image_bgr[..., ::-1].transpose(2, 0, 1)[None], dtype=np.float32) / 255.0
        out = self.session.run(None, {self.input_name: blob})[0][0]  # (4 + classes, anchors)
        scores_all = out[4:]
        # How sure the network is that an object is there: its best class, whatever it is. Which object:
        # the best class among those that can be present.
        score = scores_all.max(axis=0)
        if classes is not None:
            scores_all = np.where(np.isin(np.arange(len(scores_all)), classes)[:, None], scores_all, -1.0)
        cls = scores_all.argmax(axis=0)
        keep = score >= self.config.confidence
        xywh, score, cls = out[:4, keep].T, score[keep], cls[keep]
        if not len(score):
            return np.zeros((0, 4)), np.zeros(0), np.zeros(0, dtype=np.int64)
        boxes = np.concatenate([xywh[:, :2] - xywh[:, 2:] / 2, xywh[:, :2] + xywh[:, 2:] / 2], axis=1)
        kept = cv2.dnn.NMSBoxes(
            [list(map(float, b)) for b in np.c_[boxes[:, :2], xywh[:, 2:]]],
            score.astype(float).tolist(),
            self.config.confidence,
            self.config.iou,
        )
        idx = np.asarray(kept, dtype=np.int64).reshape(-1)
        return boxes[idx].astype(np.float64), score[idx].astype(np.float64), cls[idx].astype(np.int64)


def letterbox(image: np.ndarray, long_side: int) -> tuple[np.ndarray, float]:
    """Scale ``image`` so its long side is ``long_side`` and pad to multiples of 32; returns the scale."""
    h, w = image.shape[:2]
    s = long_side / max(h, w)
    nw, nh = round(w * s), round(h * s)
    out = np.full((-(-nh // 32) * 32, -(-nw // 32) * 32, 3), 114, dtype=np.uint8)
    out[:nh, :nw] = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA)
    return out, s


class YoloDetector:
    """Balls (and pins) of one table seen by one calibrated camera, found by the network in the table view.

    ``mm_to_px`` maps table mm at ball-centre height to camera pixels (``TableCalibration.mm_to_px`` with
    ``z_mm`` the ball radius); ``radius_px`` gives the apparent radius of a ball at table positions."""

    sees_pins = True

    def __init__(
        self,
        view: TableView,
        rectifier: Rectifier,
        mm_to_px: MmToPx,
        radius_px: RadiusAt,
        network: OnnxNetwork,
        classes: np.ndarray | None = None,
    ) -> None:
        self.classes = classes  # the classes this game's table can show (its balls, its pins)
        self.view = view
        self.rectifier = rectifier
        self.mm_to_px = mm_to_px
        self.radius_px = radius_px
        self.network = network
        self.last_pins = Pins.none()

    def detect(self, image: np.ndarray) -> Detections:
        boxes, score, cls = self.network(self.rectifier(image), self.classes)
        centres_mm = (
            self.view.view_to_mm((boxes[:, :2] + boxes[:, 2:]) / 2) if len(boxes) else np.zeros((0, 2))
        )
        is_pin = np.isin(cls, list(PIN_CLASSES))
        self.last_pins = Pins(
            centres_mm[is_pin], cls[is_pin] == APPEARANCE_CLASSES.index("pin_down"), score[is_pin]
        )
        balls = ~is_pin
        xy_mm = centres_mm[balls]
        if not len(xy_mm):
            return Detections.empty()
        return Detections(self.mm_to_px(xy_mm), self.radius_px(xy_mm), cls[balls], score[balls], xy_mm)
