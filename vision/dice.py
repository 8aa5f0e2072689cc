"""Dice at run time: find every die in an image and read its top face, with ONNX Runtime and OpenCV only.

Two small networks, both trained on this machine's CPU by ``arbiter dice train`` (``evaluation.train_dice``)
and committed in ``models/`` beside their record ``dice_reader.json``:

1. the finder (``dice_finder.onnx``, ``vision.dice_finder``) looks at the whole frame scaled down (long side
   ``DiceReaderConfig.long_side``) and marks every die's centre and rough size;
2. the face reader (``dice_faces.onnx``) looks at each die's square crop taken from the full-resolution
   frame (``vision.dice_crops``) and gives the chance of each of ``READER_CLASSES``: faces 1..6, ``cocked``
   (resting on an edge or against something: no face up, reported, never read) and ``not_a_die`` (a pip of
   a big die, a magnet, a game piece); it also says where the die lies in the crop, so the box is refined
   from the full-resolution pixels and the die is cropped again there.

A reading's confidence is the finder's score times the face's probability, times the reader's chance
that it is a die at all raised to ``DiceReaderConfig.die_power`` (``reading_confidence``). A reading is
marked ``unsure`` where another face competes (the face read holds less than ``unsure_below`` of the six
faces' chance) or where the die may be cocked (``cocked_doubt``): ``reading_unsure``.

``tracking.throws.ThrowWatcher`` turns per-frame readings into the contract's ``roll`` events.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from vision.dice_crops import CROP, MARGIN, Box, box_from, crop_batch
from vision.dice_finder import STRIDE, find_at, nms
from vision.dice_pips import count_pips
from vision.yolo import MODELS_DIR, ModelError

DEFAULT_DICE_MODEL = MODELS_DIR / "dice_reader.json"
FACES = (1, 2, 3, 4, 5, 6)
COCKED_CLASS = 6
NOT_A_DIE = 7
DICE_CLASSES: tuple[str, ...] = ("one", "two", "three", "four", "five", "six", "cocked")
READER_CLASSES: tuple[str, ...] = (*DICE_CLASSES, "not_a_die")
# The face reader learnt crops moved up to 0.1 of their side from the die's centre (the faces recipe's
# centre_jitter): a read moved further looks at crops it never met.
MAX_JITTER = 0.1
FIND_IOU = 0.5  # the finder's own merge of one die's boxes (vision.dice_finder.decode)


def value_of(cls: int) -> int | None:
    """The face a class means; None for ``cocked``."""
    return None if cls == COCKED_CLASS else int(cls) + 1


def class_of(value: int | None) -> int:
    return COCKED_CLASS if value is None else value - 1


@dataclass(frozen=True)
class DieReading:
    """One die in one image: its box in pixels (x0, y0, x1, y1), its face (None: cocked, no face up), the
    reader's confidence, whether the face reader was unsure of the face, and its probabilities of
    ``DICE_CLASSES`` (faces 1..6, cocked; given that it is a die; empty when the reading came from
    elsewhere, a test or a label)."""

    box_px: tuple[float, float, float, float]
    value: int | None
    confidence: float
    unsure: bool = False
    probs: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        if self.value is not None and self.value not in FACES:
            raise ValueError(f"DieReading.value must be 1..6 or None for a cocked die (got {self.value!r})")
        x0, y0, x1, y1 = self.box_px
        if not (x1 > x0 and y1 > y0):
            raise ValueError(f"DieReading.box_px must be x0 < x1, y0 < y1 (got {self.box_px})")
        if self.probs and len(self.probs) != len(DICE_CLASSES):
            raise ValueError(
                f"DieReading.probs must hold {len(DICE_CLASSES)} probabilities (got {self.probs})"
            )

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

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "box_px": [round(v, 1) for v in self.box_px],
            "value": self.value,
            "cocked": self.value is None,
            "confidence": round(self.confidence, 4),
            "unsure": self.unsure,
        }
        if self.probs:
            out["probs"] = {name: round(p, 4) for name, p in zip(DICE_CLASSES, self.probs, strict=True)}
        return out


# --- the reader ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DiceReaderConfig:
    """How the reader trades speed, recall and false dice.

    - ``confidence``: readings below this (``reading_confidence``) are dropped; lower finds more blurred,
      small or odd dice and more false ones (``arbiter dice eval`` shows the trade). Chosen with
      ``die_power`` on the real validation photos (docs/dice.md).
    - ``die_power``: the confidence is also multiplied by the face reader's chance that the crop is a die
      (1 - P(not a die)) to this power. The finder scores many real oblique dice low (0.1-0.3) and as many
      look-alikes (game tokens with dots, pieces, pips of big dice) as high; the face reader, taught on the
      finder's own mistakes (``evaluation.dice_hard``), doubts the look-alikes, so weighting its doubt ranks
      the dice above them and lets the confidence go lower. 4 with ``confidence`` 0.125 (the default,
      chosen on the validation photos: the shipped model's recall there at the precision the model before
      it had at its default) finds 4.7 points more of the validation dice; 0: the face's probability
      alone (docs/dice.md, "The face reader taught on the finder's mistakes").
    - ``long_side``: the frame is scaled so its long side is this before the finder sees it; larger finds
      smaller dice and costs the square of the ratio in time (the finder learnt dice of about 8 to 200 px
      at the scale it was trained at). None: the scale the model was trained at (its record's
      ``reader.long_side``; 512 where the record does not say).
    - ``coarse_long_side``: the finder looks a second time at the frame scaled to this smaller long side,
      and the dice of both looks are pooled (``pool_finds``): a die filling much of a close-up photo, or
      one the first look scored low, meets the finder at a size it knows better. Costs the square of its
      ratio to ``long_side`` in finder time (384 against 512: 56% more); None: one look.
    - ``min_score``: finder peaks below this are not read at all (each read costs a crop or two).
    - ``refine``: passes of the face reader at the box it refined itself (0: read at the finder's box).
    - ``flip``: also read each crop mirrored (pip counts survive a mirror) and average: steadier faces,
      twice the face reader's time.
    - ``jitter``: the last read also looks at the crop moved this share of the die box's long side up and
      down, and averages the three (``jittered_boxes``). Seen obliquely, a die's top face fills the upper
      part of its box and its front face the lower part; a box a little off tips the read towards the
      wrong face (a 2 on top over a 3 in front). Three times the last read's cost; 0: one crop.
    - ``unsure_below``: a face holding less than this of the six faces' probability marks the reading
      ``unsure`` (another face competes); a cocked reading, less than this of the die's probability.
    - ``cocked_doubt``: a chance above this that the die is cocked also marks a face reading ``unsure``.
      Apart from the faces' competition, because the two are different doubts: a die read plainly as a 5
      with one chance in ten of leaning (a rendered die seen at 25 degrees) is a 5, where a 5 with one
      chance in ten of being a 6 is not sure. On the real validation photos, 0.2 to 0.5 leave the same
      readings sure but wrong as counting the cocked chance against the face (5 of 1,103 at the labelled
      boxes) and mark 23-26 fewer right readings unsure (24 at 0.25, the middle; docs/dice.md).
    - ``iou``: readings whose boxes overlap more than this are one die.
    - ``pip_check``: count the pips classically too (``vision.dice_pips``) and mark a reading unsure where
      the count is clear and differs.
    - ``threads``: ONNX Runtime intra-op threads.
    """

    confidence: float = 0.125
    die_power: float = 4.0
    long_side: int | None = None
    coarse_long_side: int | None = None
    min_score: float = 0.1
    refine: int = 1
    flip: bool = True
    jitter: float = 0.04
    unsure_below: float = 0.9
    cocked_doubt: float = 0.25
    iou: float = 0.5
    pip_check: bool = False
    threads: int = 1

    def __post_init__(self) -> None:
        if not 0 < self.confidence < 1 or not 0 < self.iou < 1 or not 0 < self.min_score < 1:
            raise ValueError(
                f"confidence, min_score and iou must lie in (0, 1) (got {self.confidence}, "
                f"{self.min_score}, {self.iou})"
            )
        for name, side in (("long_side", self.long_side), ("coarse_long_side", self.coarse_long_side)):
            if side is not None and (side < 64 or side % 32):
                raise ValueError(f"{name} must be a multiple of 32, at least 64 (got {side})")
        if self.threads < 1 or self.refine < 0:
            raise ValueError(f"threads must be at least 1, refine at least 0 ({self.threads}, {self.refine})")
        for name in ("unsure_below", "cocked_doubt"):
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError(f"{name} must lie in [0, 1] (got {getattr(self, name)})")
        if self.die_power < 0:
            raise ValueError(f"die_power must be at least 0 (got {self.die_power})")
        if not 0 <= self.jitter <= MAX_JITTER:
            raise ValueError(f"jitter must lie in [0, {MAX_JITTER}] of the box's side (got {self.jitter})")


def onnx_session(path: Path, threads: int) -> Any:  # an onnxruntime.InferenceSession
    """An ONNX Runtime session of a dice network on the CPU; ``ModelError`` when the file cannot be read."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    except Exception as e:  # onnxruntime raises its own exception types for corrupt files
        raise ModelError(f"dice model {path} could not be loaded ({e}); restore it from git") from e


def model_record(model: str | Path) -> tuple[Path, dict[str, Any]]:
    """The record file of a dice model (``dice_reader.json``, or the folder holding it) and its contents."""
    path = Path(model)
    if path.is_dir():
        path = path / DEFAULT_DICE_MODEL.name
    if not path.exists():
        raise ModelError(
            f"dice model {path} not found: it ships in models/ (dice_reader.json beside dice_finder.onnx "
            "and dice_faces.onnx); rebuild it with `arbiter dice train`, or give one with --model"
        )
    try:
        return path, json.loads(path.read_text())
    except ValueError as e:
        raise ModelError(f"dice model record {path} is not JSON ({e}); restore it from git") from e


class DiceReader:
    """Every die in an image: box, face, confidence. Needs only ONNX Runtime and OpenCV."""

    def __init__(
        self, model: str | Path = DEFAULT_DICE_MODEL, config: DiceReaderConfig | None = None
    ) -> None:
        self.config = config or DiceReaderConfig()
        path, self.record = model_record(model)
        reader = self.record.get("reader", {})
        classes = tuple(reader.get("classes", READER_CLASSES))
        if classes not in (READER_CLASSES, DICE_CLASSES):
            raise ModelError(f"{path} reads classes {list(classes)}, not {list(READER_CLASSES)}")
        if (reader.get("crop", CROP), reader.get("margin", MARGIN), reader.get("stride", STRIDE)) != (
            CROP,
            MARGIN,
            STRIDE,
        ):
            raise ModelError(f"{path} was trained for other crops or strides than this code makes ({reader})")
        self.temperature = float(reader.get("temperature", 1.0))
        files = self.record.get("files", {"finder": "dice_finder.onnx", "faces": "dice_faces.onnx"})
        for key in ("finder", "faces"):
            if not (path.parent / files[key]).exists():
                raise ModelError(f"{path.parent / files[key]} not found: restore it from git or retrain")
        self.finder = onnx_session(path.parent / files["finder"], self.config.threads)
        self.faces = onnx_session(path.parent / files["faces"], self.config.threads)
        # A face reader of the first design has no box output (the finder's box is kept) and no
        # not-a-die class (a false find is left to the finder's score).
        self.box_head = len(self.faces.get_outputs()) > 1
        self.long_side = self.config.long_side or int(reader.get("long_side", 512))

    def find(self, image_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Candidate dice: boxes (N, 4) in frame pixels and the finder's scores, best first."""
        coarse = self.config.coarse_long_side
        sides = (self.long_side,) if coarse in (None, self.long_side) else (self.long_side, coarse)
        return pool_finds([find_at(self.finder, image_bgr, side, self.config.min_score) for side in sides])

    def classify(
        self, image_bgr: np.ndarray, boxes: np.ndarray, scores: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The face reader on each box, ``refine`` times re-cropped at the box it found: the final boxes
        (N, 4) and probabilities (N, 8) of ``READER_CLASSES``. Given the finder's ``scores``, the jittered
        reads are spent only on the boxes that can make a reading (score at least ``confidence``: a
        reading's confidence is its score times a probability)."""
        boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
        probs = np.zeros((len(boxes), len(READER_CLASSES)), np.float32)
        passes = self.config.refine + 1 if self.box_head else 1
        for k in range(passes):
            if not len(boxes):
                break
            logits, deltas = self._run_faces(crop_batch(image_bgr, boxes))
            if k == passes - 1 and self.config.jitter > 0:
                worth = np.ones(len(boxes), bool) if scores is None else scores >= self.config.confidence
                logits[worth] = self._jittered_logits(image_bgr, boxes[worth], logits[worth])
            probs = softmax(logits / self.temperature)
            if deltas is not None:
                boxes = np.array([box_from(_box(b), d) for b, d in zip(boxes, deltas, strict=True)])
        return boxes, probs

    def _jittered_logits(self, image_bgr: np.ndarray, boxes: np.ndarray, logits: np.ndarray) -> np.ndarray:
        """``logits`` (read at ``boxes``) averaged with those of the crops moved up and down by ``jitter``."""
        if not len(boxes):
            return logits
        reads = [logits]
        for moved in jittered_boxes(boxes, self.config.jitter):
            reads.append(self._run_faces(crop_batch(image_bgr, moved))[0])
        return np.asarray(np.mean(reads, 0), np.float32)

    def _run_faces(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """Logits of ``READER_CLASSES`` per crop (a reader without the not-a-die class gets it at no
        chance) and the die's box in each crop (None from a reader without a box output)."""
        n = len(crops)
        batch = np.concatenate([crops, crops[..., ::-1]]) if self.config.flip else crops
        outputs = self.faces.run(None, {"crops": batch})
        logits = outputs[0]
        if logits.shape[1] == len(DICE_CLASSES):
            logits = np.concatenate([logits, np.full((len(logits), 1), -1e4, logits.dtype)], 1)
        deltas = outputs[1] if self.box_head else None
        if not self.config.flip:
            return logits, deltas
        if deltas is not None:
            deltas = (deltas[:n] + deltas[n:] * np.array([-1, 1, 1, 1], np.float32)) / 2
        return (logits[:n] + logits[n:]) / 2, deltas

    def read(self, image_bgr: np.ndarray) -> list[DieReading]:
        h, w = image_bgr.shape[:2]
        boxes, scores = self.find(image_bgr)
        boxes, probs = self.classify(image_bgr, boxes, scores)
        readings = readings_from(boxes, scores, probs, (w, h), self.config)
        if self.config.pip_check:
            readings = [_cross_checked(image_bgr, r) for r in readings]
        return readings


def _cross_checked(image_bgr: np.ndarray, reading: DieReading) -> DieReading:
    """``reading`` marked unsure where the pips, counted classically, clearly say another face."""
    if reading.value is None or reading.unsure:
        return reading
    counted = count_pips(image_bgr, reading.box_px)
    return reading if counted in (None, reading.value) else replace(reading, unsure=True)


def pool_finds(looks: Sequence[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """The finder's (boxes, scores) of several looks as one list, best first; of boxes overlapping more
    than ``FIND_IOU`` only the best kept (the same die seen twice)."""
    boxes = np.concatenate([b.reshape(-1, 4) for b, _ in looks])
    scores = np.concatenate([s for _, s in looks])
    keep = nms(boxes, scores, FIND_IOU)
    return boxes[keep], scores[keep]


def jittered_boxes(boxes: np.ndarray, share: float) -> tuple[np.ndarray, np.ndarray]:
    """``boxes`` (N, 4) moved up and down by ``share`` of each box's long side."""
    step = share * np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    shift = np.stack([np.zeros_like(step), step, np.zeros_like(step), step], 1)
    return boxes - shift, boxes + shift


def _box(row: Sequence[float] | np.ndarray) -> Box:
    return float(row[0]), float(row[1]), float(row[2]), float(row[3])


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(1, keepdims=True)
    e = np.exp(z)
    return np.asarray(e / e.sum(1, keepdims=True))


def reading_confidence(scores: np.ndarray, die: np.ndarray, die_power: float) -> np.ndarray:
    """How sure each reading is that a die lies there with the face read: the finder's ``scores`` (N,) times
    the face's probability, times the chance it is a die at all to ``die_power``. ``die`` (N, 7): the face
    reader's probabilities of ``DICE_CLASSES``, each already times that chance (their sum is it)."""
    is_die = die.sum(1).clip(0.0, 1.0)
    return np.asarray(scores * die.max(1) * is_die**die_power)


def reading_unsure(given: np.ndarray, config: DiceReaderConfig) -> bool:
    """Whether a reading is doubted, from ``given`` (7,), the chances of ``DICE_CLASSES`` given that it is a
    die: a cocked reading where cocked holds less than ``unsure_below``; a face where another face competes
    (it holds less than ``unsure_below`` of the six faces' chance) or the die may be cocked (its chance
    above ``cocked_doubt``)."""
    cls = int(given.argmax())
    if cls == COCKED_CLASS:
        return bool(given[cls] < config.unsure_below)
    faces = given[:COCKED_CLASS]
    share = faces[cls] / max(float(faces.sum()), 1e-9)
    return bool(share < config.unsure_below or given[COCKED_CLASS] > config.cocked_doubt)


def readings_from(
    boxes_xyxy: np.ndarray,
    scores: np.ndarray,
    probs: np.ndarray,
    size: tuple[int, int],
    config: DiceReaderConfig | None = None,
) -> list[DieReading]:
    """Boxes in frame pixels, the finder's scores and the face reader's probabilities of
    ``READER_CLASSES`` -> readings, best first: boxes clipped to the frame (degenerate ones dropped), those
    below ``confidence`` dropped, and of boxes overlapping more than ``iou`` only the best kept."""
    cfg = config or DiceReaderConfig()
    w, h = size
    boxes = np.asarray(boxes_xyxy, np.float64).reshape(-1, 4).copy()
    boxes[:, [0, 2]] = boxes[:, [0, 2]].clip(0, w)
    boxes[:, [1, 3]] = boxes[:, [1, 3]].clip(0, h)
    probs = np.asarray(probs, np.float64).reshape(len(boxes), len(READER_CLASSES))
    die = probs[:, : len(DICE_CLASSES)]
    cls = die.argmax(1)
    confidence = reading_confidence(np.asarray(scores, np.float64), die, cfg.die_power)
    ok = (boxes[:, 2] - boxes[:, 0] >= 1) & (boxes[:, 3] - boxes[:, 1] >= 1) & (confidence >= cfg.confidence)
    index = np.nonzero(ok)[0]
    index = index[nms(boxes[index], confidence[index], cfg.iou)]
    out = []
    for i in index:
        given = die[i] / max(die[i].sum(), 1e-9)
        out.append(
            DieReading(
                _box(boxes[i]),
                value_of(int(cls[i])),
                float(confidence[i]),
                reading_unsure(given, cfg),
                tuple(float(p) for p in given),
            )
        )
    return out
