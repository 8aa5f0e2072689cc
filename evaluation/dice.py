"""Scoring dice reading against labelled photographs: how many dice were found, and how many read right.

The real photo sets box different things (``../shared/data/dice-real/README.md``), so a predicted die (always
a box round the whole die) is matched to a label by that label's convention:

- ``Convention.IOU`` (the label boxes the whole die): overlap of at least ``IOU_MIN``;
- ``Convention.CENTRE`` (the label boxes the pip cluster of the top face): the predicted box's centre lies
  in the label's box, or the label's centre lies in the predicted box. The second half is needed because a
  one's cluster is a single pip, a few pixels across, and the centre of the whole die (sides included, seen
  a little obliquely) can fall just outside it while the die plainly contains it. Dice do not overlap, so a
  die's box holding a cluster's centre is that cluster's die.

Predictions are matched greedily in order of confidence, each to the best free label (COCO's rule). So the
matches of the predictions above any threshold are the same whatever lies below it, and one matching at a
low threshold gives the figures at every threshold (``Matching.at``), in particular the threshold where
recall reaches the goal's 99% (``Matching.at_recall``).

Figures: ``recall`` (labelled dice found), ``precision`` (found dice that are labelled dice), ``accuracy``
(found dice read right: the goal's "read right", at least 99.5%), ``read_right`` (labelled dice both found
and read right), ``unsure`` (readings the reader marked unsure) and ``accuracy_of_sure`` (found dice not
marked unsure that were read right: what a referee that asks the players about unsure dice gets right),
and a confusion table: true face by read face, with ``cocked`` (read as no face up) and ``missed``
columns; ``extra`` counts unmatched predictions by the face read.

Everything here is pure (predictions and labels in, numbers out) except ``evaluate_folder``, which reads a
YOLO folder and runs a reader over it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from datasets.dice.real import SET_FILE, Convention
from vision.dice import FACES, DieReading

IOU_MIN = 0.5
GOAL_RECALL = 0.99
GOAL_ACCURACY = 0.995
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")
# Set names that say their convention (the shared real sets); anything else needs dice_set.json, a guess
# from the labels, or --convention.
KNOWN_SETS = {"topdown-webcam": "centre", "oblique-phone": "iou", "tray-phone": "iou"}
COLUMNS = (*(str(v) for v in FACES), "cocked", "missed")
# A folder whose face-one boxes are this much smaller than its four-to-six boxes boxes pip clusters: a one's
# cluster is one pip, a six's is most of the face; whole-die boxes are the same size whatever the face.
CLUSTER_SIZE_RATIO = 0.7


class EvalError(ValueError):
    """A folder that cannot be scored; the message says why and what to give instead."""


@dataclass(frozen=True)
class LabelBox:
    """One labelled die in pixels: its face and its box (x0, y0, x1, y1)."""

    value: int
    box_px: tuple[float, float, float, float]

    @property
    def centre_px(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box_px
        return (x0 + x1) / 2, (y0 + y1) / 2


def labels_from_yolo(text: str, width: int, height: int, where: str = "label") -> list[LabelBox]:
    """YOLO lines (class k = face k+1, normalised centre and size) -> pixel boxes."""
    out = []
    for i, line in enumerate(text.splitlines(), start=1):
        parts = line.split()
        if not parts:
            continue
        try:
            cls = int(parts[0])
            cx, cy, w, h = (float(v) for v in parts[1:5])
        except (ValueError, IndexError):
            raise EvalError(f"{where} line {i}: expected 'class cx cy w h' (got {line!r})") from None
        if not 0 <= cls < len(FACES):
            raise EvalError(f"{where} line {i}: class {cls} is not a face (0..5 means 1..6)")
        box = ((cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height)
        out.append(LabelBox(cls + 1, box))
    return out


def _iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _inside(xy: tuple[float, float], box: tuple[float, ...]) -> bool:
    return box[0] <= xy[0] <= box[2] and box[1] <= xy[1] <= box[3]


def match_image(
    preds: Sequence[DieReading], labels: Sequence[LabelBox], convention: Convention, iou_min: float = IOU_MIN
) -> list[int | None]:
    """For each prediction, the index of the label it found (or None), matched greedily by confidence."""
    order = sorted(range(len(preds)), key=lambda i: -preds[i].confidence)
    free = set(range(len(labels)))
    out: list[int | None] = [None] * len(preds)
    for i in order:
        p = preds[i]
        best, best_key = None, None
        for j in free:
            lab = labels[j]
            if convention is Convention.IOU:
                overlap = _iou(p.box_px, lab.box_px)
                if overlap < iou_min:
                    continue
                key = -overlap
            else:
                if not (_inside(p.centre_px, lab.box_px) or _inside(lab.centre_px, p.box_px)):
                    continue
                key = float(np.hypot(p.centre_px[0] - lab.centre_px[0], p.centre_px[1] - lab.centre_px[1]))
            if best_key is None or key < best_key:
                best, best_key = j, key
        if best is not None:
            out[i] = best
            free.discard(best)
    return out


@dataclass
class Matching:
    """Every prediction of a set with its confidence and what it matched, and every label: enough to give
    the figures at any confidence threshold above the one the predictions were made at."""

    images: int = 0
    labels: list[int] = field(default_factory=list)  # true face of each label
    # per prediction: confidence, read face (None: cocked), index into ``labels`` or -1, marked unsure
    preds: list[tuple[float, int | None, int, bool]] = field(default_factory=list)

    def add(self, preds: Sequence[DieReading], labels: Sequence[LabelBox], convention: Convention) -> None:
        matched = match_image(preds, labels, convention)
        base = len(self.labels)
        self.labels.extend(lab.value for lab in labels)
        for p, j in zip(preds, matched, strict=True):
            self.preds.append((p.confidence, p.value, -1 if j is None else base + j, p.unsure))
        self.images += 1

    def merge(self, other: Matching) -> Matching:
        base = len(self.labels)
        return Matching(
            self.images + other.images,
            self.labels + other.labels,
            self.preds + [(c, v, j + base if j >= 0 else -1, u) for c, v, j, u in other.preds],
        )

    def at(self, threshold: float = 0.0) -> dict[str, Any]:
        """The figures counting only predictions with confidence >= ``threshold``."""
        confusion = {str(v): dict.fromkeys(COLUMNS, 0) for v in FACES}
        extra = dict.fromkeys(COLUMNS[:-1], 0)
        found = [False] * len(self.labels)
        kept = matched = correct = unsure = sure = sure_correct = 0
        for conf, value, j, doubt in self.preds:
            if conf < threshold:
                continue
            kept += 1
            unsure += doubt
            read = "cocked" if value is None else str(value)
            if j < 0:
                extra[read] += 1
                continue
            matched += 1
            found[j] = True
            correct += value == self.labels[j]
            sure += not doubt
            sure_correct += (not doubt) and value == self.labels[j]
            confusion[str(self.labels[j])][read] += 1
        for j, truth in enumerate(self.labels):
            if not found[j]:
                confusion[str(truth)]["missed"] += 1
        n = len(self.labels)
        return {
            "threshold": round(threshold, 4),
            "images": self.images,
            "labels": n,
            "predictions": kept,
            "matched": matched,
            "correct": correct,
            "recall": _ratio(matched, n),
            "precision": _ratio(matched, kept),
            "accuracy": _ratio(correct, matched),
            "read_right": _ratio(correct, n),
            "unsure": unsure,
            "accuracy_of_sure": _ratio(sure_correct, sure),
            "confusion": confusion,
            "extra": extra,
        }

    def at_recall(self, target: float = GOAL_RECALL) -> dict[str, Any] | None:
        """The figures at the highest threshold whose recall reaches ``target`` (None: never reached)."""
        n = len(self.labels)
        if n == 0:
            return None
        hits = sorted(((c, j) for c, _, j, _ in self.preds), key=lambda cj: -cj[0])
        need = int(np.ceil(target * n - 1e-9))
        count = 0
        for conf, j in hits:
            count += j >= 0
            if count >= need:
                return self.at(conf)
        return None


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 5) if b else None


def figures(matching: Matching, threshold: float) -> dict[str, Any]:
    """The figures at the operating ``threshold``, the operating point of the goal (the threshold where
    recall reaches 99%) and whether the goal is met there."""
    out = matching.at(threshold)
    goal = matching.at_recall(GOAL_RECALL)
    out["at_goal_recall"] = (
        None
        if goal is None
        else {
            k: goal[k]
            for k in (
                "threshold",
                "recall",
                "precision",
                "accuracy",
                "read_right",
                "unsure",
                "accuracy_of_sure",
            )
        }
    )
    out["goal_met"] = bool(
        goal is not None and goal["accuracy"] is not None and goal["accuracy"] >= GOAL_ACCURACY
    )
    return out


# --- folders ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EvalSet:
    """A folder of labelled photos to score as one set."""

    name: str
    folder: Path
    convention: Convention
    convention_from: str  # how it was decided: option, dice_set.json, folder name, label sizes
    pairs: tuple[tuple[Path, Path | None], ...]  # image, its label file (None: no dice labelled)
    labels_without_image: int


def _label_for(image: Path) -> Path | None:
    """``.../images/x.jpg`` -> ``.../labels/x.txt``; else ``x.txt`` beside the image."""
    parts = list(image.parts)
    if "images" in parts:
        k = len(parts) - 1 - parts[::-1].index("images")
        candidate = Path(*parts[:k], "labels", *parts[k + 1 : -1], image.stem + ".txt")
        if candidate.exists():
            return candidate
    beside = image.with_suffix(".txt")
    return beside if beside.exists() else None


def _set_roots(root: Path) -> list[Path]:
    """The folders under ``root`` to score as sets: ``root`` itself when it holds images directly (or in
    ``images/``), else each sub-folder that holds images somewhere below it."""

    def has_images(folder: Path, deep: bool) -> bool:
        files = folder.rglob("*") if deep else folder.iterdir()
        return any(p.suffix.lower() in IMAGE_SUFFIXES for p in files if p.is_file())

    if has_images(root, False) or ((root / "images").is_dir() and has_images(root / "images", True)):
        return [root]
    subs = sorted(p for p in root.iterdir() if p.is_dir() and has_images(p, True))
    if not subs and has_images(root, True):
        return [root]
    return subs


def guess_convention(label_texts: Iterable[str]) -> Convention | None:
    """Pip clusters or whole dice, from the sizes of the boxes by face (``CLUSTER_SIZE_RATIO``); None when
    the labels have too few ones or four-to-sixes to tell."""
    ones, highs = [], []
    for text in label_texts:
        for line in text.splitlines():
            parts = line.split()
            if len(parts) != 5:
                continue
            cls, side = int(float(parts[0])), max(float(parts[3]), float(parts[4]))
            if cls == 0:
                ones.append(side)
            elif cls >= 3:
                highs.append(side)
    if len(ones) < 5 or len(highs) < 5:
        return None
    ratio = float(np.median(ones)) / float(np.median(highs))
    return Convention.CENTRE if ratio < CLUSTER_SIZE_RATIO else Convention.IOU


def discover(root: Path, convention: Convention | None = None) -> list[EvalSet]:
    """The sets to score under ``root``, each with its convention: the option if given, else the folder's
    ``dice_set.json``, else a known set's name in its path, else a guess from its label sizes."""
    if not root.is_dir():
        raise EvalError(f"{root} is not a folder: give a YOLO folder of labelled photos (images and labels)")
    sets = []
    for folder in _set_roots(root):
        images = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
        pairs = tuple((img, _label_for(img)) for img in images)
        used = {lab.resolve() for _, lab in pairs if lab is not None}
        image_dirs = {img.parent for img in images}
        all_labels = [
            p
            for p in folder.rglob("*.txt")
            if p.name != "classes.txt" and (p.parent.name == "labels" or p.parent in image_dirs)
        ]
        orphans = sum(1 for p in all_labels if p.resolve() not in used)
        within = [folder, *(d for d in folder.parents if d == root or root in d.parents)]
        info_file = next((d / SET_FILE for d in within if (d / SET_FILE).exists()), None)
        info = json.loads(info_file.read_text()) if info_file else {}
        known = next((k for k in KNOWN_SETS if k in folder.resolve().as_posix()), None)
        name = info.get("set") or known or folder.name
        if convention is not None:
            conv, why = convention, "option"
        elif "convention" in info:
            conv, why = Convention(info["convention"]), SET_FILE
        elif known is not None:
            conv, why = Convention(KNOWN_SETS[known]), "folder name"
        else:
            guessed = guess_convention(lab.read_text() for _, lab in pairs if lab is not None)
            if guessed is None:
                raise EvalError(
                    f"{folder}: cannot tell whether its boxes are pip clusters or whole dice; give "
                    "--convention centre (pip-cluster boxes) or --convention iou (whole-die boxes)"
                )
            conv, why = guessed, "label sizes"
        sets.append(EvalSet(name, folder, conv, why, pairs, orphans))
    if not sets:
        raise EvalError(f"{root} holds no images ({', '.join(IMAGE_SUFFIXES)})")
    return sets


def evaluate_folder(
    root: Path,
    read: Callable[[np.ndarray], Sequence[DieReading]],
    threshold: float,
    convention: Convention | None = None,
    on_set: Callable[[EvalSet], None] | None = None,
) -> dict[str, Any]:
    """Read every photo under ``root`` with ``read`` (image -> readings, made at a threshold at or below
    ``threshold``) and score it per set and over all sets."""
    import cv2

    out: dict[str, Any] = {"threshold": threshold, "sets": {}}
    total = Matching()
    for es in discover(root, convention):
        if on_set:
            on_set(es)
        m = Matching()
        unreadable = 0
        for image_path, label_path in es.pairs:
            image = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
            if image is None:
                unreadable += 1
                continue
            h, w = image.shape[:2]
            labels = (
                labels_from_yolo(label_path.read_text(), w, h, str(label_path))
                if label_path is not None
                else []
            )
            m.add(read(image), labels, es.convention)
        entry = figures(m, threshold)
        entry.update(
            convention=es.convention.value,
            convention_from=es.convention_from,
            folder=str(es.folder),
            unreadable_images=unreadable,
            labels_without_image=es.labels_without_image,
        )
        out["sets"][es.name] = entry
        total = total.merge(m)
    out["all"] = figures(total, threshold)
    return out
