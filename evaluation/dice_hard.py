"""The face reader's hard negatives: the places the finder itself takes for dice on the training photos that
hold no die.

The finder scores many real oblique dice low (0.1-0.3) and as many look-alikes (tokens with dots, the pips
of a close-up die, carpet, keys) as high. The face reader's not-a-die class could tell them apart, but
random crops of no die rarely show it those look-alikes. So the finder, half-trained, is exported
(``FinderRecipe.checkpoint_at``: ``write_checkpoint``), and the face reader, at a fixed step of its own
(``FacesRecipe.hard_from``: it waits for the checkpoint there, so a run is the same whatever the two
processes' speeds), runs it on its training photos (``finder_mistakes``) and from then on draws part of its
crops of no die from what it found there that is no die.

Only ONNX Runtime and the run-time finder's own decoding are used: what is mined is what the finder, as it
runs in a frame, would put in front of the reader.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from vision.dice import onnx_session
from vision.dice_finder import find_at, iou_matrix
from vision.yolo import ModelError

CHECKPOINT = "finder_checkpoint.onnx"
CHECKPOINT_INFO = "finder_checkpoint.json"
CLEAR_IOU = 0.2  # a find overlapping a labelled die more than this is that die, however loosely boxed
CLEAR_CENTRE = 0.5  # ... and one centred within this share of a die's side of its centre too
_POLL_S = 2.0


class CheckpointError(RuntimeError):
    """The finder's checkpoint never came, or cannot be read."""


def write_checkpoint(export: Callable[[Path], None], out: Path, long_side: int) -> Path:
    """The finder as it is now, for the face reader: exported by ``export`` to a file of its own, then put in
    place whole (a reader polling for it never reads half a file), with the scale it runs at."""
    part = out / f"{CHECKPOINT}.part"
    export(part)
    (out / CHECKPOINT_INFO).write_text(json.dumps({"long_side": long_side}) + "\n")
    os.replace(part, out / CHECKPOINT)
    return out / CHECKPOINT


def wait_for_checkpoint(out: Path, timeout_s: float, log: Callable[[str], None]) -> tuple[Path, int]:
    """The finder's checkpoint in ``out`` and the long side it runs at, once it is there."""
    started = time.time()
    path = out / CHECKPOINT
    while not path.exists():
        if time.time() - started > timeout_s:
            raise CheckpointError(
                f"the finder's checkpoint {path} did not come within {timeout_s:.0f} s: did the finder "
                "stage fail (its log is beside this one), or is its checkpoint_at past its steps?"
            )
        time.sleep(_POLL_S)
    waited = time.time() - started
    if waited >= _POLL_S:
        log(f"waited {waited:.0f} s for the finder's checkpoint")
    return path, int(json.loads((out / CHECKPOINT_INFO).read_text())["long_side"])


def finder_session(path: Path) -> Any:  # an onnxruntime.InferenceSession
    try:
        return onnx_session(path, threads=1)
    except ModelError as e:
        raise CheckpointError(f"the finder's checkpoint {path} cannot be read ({e.__cause__})") from e


def finder_mistakes(
    session: Any, long_side: int, image: np.ndarray, dice: np.ndarray, min_score: float
) -> np.ndarray:
    """The finder's finds in ``image`` scored at least ``min_score`` that are no die: boxes (K, 4) in
    image pixels. ``dice`` (N, 5): the labelled dice (face, x0, y0, x1, y1)."""
    boxes, _ = find_at(session, image, long_side, min_score)
    if not len(boxes) or not len(dice):
        return np.asarray(boxes, np.float64).reshape(-1, 4)
    labelled = np.asarray(dice[:, 1:5], np.float64)
    overlap = iou_matrix(boxes, labelled).max(axis=1)
    centres = (labelled[:, :2] + labelled[:, 2:]) / 2
    sides = np.maximum(labelled[:, 2] - labelled[:, 0], labelled[:, 3] - labelled[:, 1])
    found = (boxes[:, :2] + boxes[:, 2:]) / 2
    apart = np.hypot(*(found[:, None, :] - centres[None, :, :]).transpose(2, 0, 1)) / np.maximum(sides, 1.0)
    clear = (overlap < CLEAR_IOU) & (apart.min(axis=1) > CLEAR_CENTRE)
    return np.asarray(boxes[clear], np.float64).reshape(-1, 4)
