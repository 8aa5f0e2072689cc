"""Detections made from the truth, with the noise and misses of a real detector: to measure tracking and
event detection apart from vision (``arbiter eval --detector truth``) and to test them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import billiards
from vision.types import Detections


def truth_detections(
    shot_dir: Path, game: str, noise_mm: float = 0.8, miss_rate: float = 0.0, seed: int = 0
) -> Iterator[tuple[float, Detections]]:
    """Per frame of ``frames.jsonl``: every visible ball as a detection at its true position plus gaussian
    noise of ``noise_mm``; each is dropped with probability ``miss_rate``."""
    spec = billiards(game)
    rng = np.random.default_rng(seed)
    with (Path(shot_dir) / "frames.jsonl").open() as lines:
        for line in lines:
            frame = json.loads(line)
            xy, cls = [], []
            for bid, b in frame["balls"].items():
                if b["pocketed"] or b["hidden"] or b["xy_px"] is None or rng.random() < miss_rate:
                    continue
                xy.append(np.asarray(b["xy_mm"]) + rng.normal(0.0, noise_mm, 2))
                cls.append(APPEARANCE_CLASSES.index(spec.look(bid).cls))
            n = len(xy)
            yield (
                frame["t"],
                Detections(
                    np.zeros((n, 2)),
                    np.ones(n),
                    np.asarray(cls, dtype=np.int64),
                    np.ones(n),
                    np.asarray(xy).reshape(n, 2),
                ),
            )
