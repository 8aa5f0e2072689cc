"""The dice reader's training data, built once into a cache folder: real photographs and renders, with
whole-die boxes in pixels.

``build_training_data`` writes into ``cache``:

- ``index.json``: the recipe, and for every training and validation image its set, split, file and boxes
  ``[value, x0, y0, x1, y1]`` in pixels (value 0: a cocked die, renders only). Real boxes are the sets' own,
  except ``topdown-webcam``'s pip-cluster boxes, grown to whole dice (``real.training_boxes``), the box every
  other source and the run-time reader use;
- ``renders/``: the rendered stills (PNG, exactly as drawn);
- ``eval/{val,test}/<set>/``: each set's held-out photos with its own boxes and convention, for
  ``arbiter dice eval``. Test photos are written only there and never listed in the index: nothing trains
  on them.

A cache whose recipe matches is reused as it is (the boxes take minutes to grow and the stills to draw).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from multiprocessing import Pool
from multiprocessing.pool import Pool as PoolType
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.dice.real import (
    REAL_ROOT,
    SETS,
    Photo,
    RealDataError,
    SplitRecipe,
    load_set,
    split_set,
    training_boxes,
)
from datasets.dice.real import write_eval_folder as write_eval
from datasets.dice.render import StillRecipe, render_still
from vision.dice import COCKED_CLASS

INDEX = "index.json"
RENDERS = "renders"
RENDER_SET = "renders"  # the set name renders go by in the index
TRAIN_SPLITS = ("train", "val")


def default_renders() -> StillRecipe:
    """Renders for training: dice from tiny to close-up, a sixth of them cocked (the real sets have none)."""
    return StillRecipe(count=800, seed=0, die_px=(12.0, 160.0), cocked_share=0.15, max_dice=10)


@dataclass(frozen=True)
class DataRecipe:
    """What to train on: the real sets (split by ``split``: keep its salt fixed, or test photos leak into
    training), the renders added to the real training photos, and ``limit`` (at most this many photos per
    set and split: smoke runs only)."""

    split: SplitRecipe = field(default_factory=SplitRecipe)
    renders: StillRecipe = field(default_factory=default_renders)
    sets: tuple[str, ...] = tuple(SETS)
    limit: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "split": asdict(self.split),
            "renders": self.renders.to_dict(),
            "sets": list(self.sets),
            "limit": self.limit,
        }


@dataclass(frozen=True)
class TrainingImage:
    """One image to learn from: its set and split, its file, and its dice ``(value, x0, y0, x1, y1)`` in
    pixels, value 0 for a cocked die."""

    set_name: str
    split: str
    path: Path
    boxes: np.ndarray  # (N, 5) float32

    def load(self) -> np.ndarray:
        image = cv2.imread(str(self.path), cv2.IMREAD_COLOR)
        if image is None:
            raise FileNotFoundError(f"{self.path}: not found or not an image; rebuild the training cache")
        return image


def _real_entry(photo_split: tuple[Photo, str]) -> tuple[dict[str, Any], int]:
    photo, split = photo_split
    image = cv2.imread(str(photo.image), cv2.IMREAD_COLOR)
    if image is None:
        raise RealDataError(f"{photo.image} cannot be read as an image")
    h, w = image.shape[:2]
    boxes, fallbacks = training_boxes(photo)
    rows = [[b.value, *(round(v, 2) for v in b.xyxy(w, h))] for b in boxes]
    return {"set": photo.set_name, "split": split, "path": str(photo.image), "boxes": rows}, fallbacks


def _render_entry(args: tuple[StillRecipe, int, str]) -> dict[str, Any]:
    recipe, index, folder = args
    still = render_still(recipe, index)
    path = Path(folder) / f"render_{recipe.seed}_{index:05d}.png"
    cv2.imwrite(str(path), still.image)
    h, w = still.image.shape[:2]
    rows = [
        [0 if c == COCKED_CLASS else c + 1, *(round(v, 2) for v in ((cx - bw / 2) * w, (cy - bh / 2) * h,
         (cx + bw / 2) * w, (cy + bh / 2) * h))]
        for c, cx, cy, bw, bh in still.labels
    ]  # fmt: skip
    return {"set": RENDER_SET, "split": "train", "path": str(path), "boxes": rows}


def _real_sets(
    recipe: DataRecipe, cache: Path, pool: PoolType, root: Path, log: Callable[[str], None]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Index entries of the real training and validation photos, and the held-out folders written."""
    entries: list[dict[str, Any]] = []
    counts: dict[str, Any] = {}
    for name in recipe.sets:
        load = load_set(name, root)
        parts = split_set(load, recipe.split)
        counts[name] = {}
        for split, photos in parts.items():
            photos = photos[: recipe.limit] if recipe.limit is not None else photos
            counts[name][split] = {
                "photos": len(photos),
                "sources": len({p.source for p in photos}),
                "dice": sum(len(p.boxes) for p in photos),
            }
            if split != "train":
                write_eval(photos, cache / "eval" / split / name, load.set)
            if split in TRAIN_SPLITS:
                done = pool.map(_real_entry, [(p, split) for p in photos], chunksize=4)
                entries += [e for e, _ in done]
                counts[name][split]["fallback_boxes"] = sum(f for _, f in done)
        log(f"{name}: {counts[name]}")
    return entries, counts


def build_training_data(
    recipe: DataRecipe,
    cache: Path,
    processes: int = 2,
    log: Callable[[str], None] = print,
    root: Path = REAL_ROOT,
) -> dict[str, Any]:
    """The index of the training data in ``cache`` (built, or reused when its recipe matches). The paths it
    lists are absolute, so the cache is read from any working folder (``arbiter dice train --work``)."""
    cache, root = cache.resolve(), root.resolve()
    index_file = cache / INDEX
    if index_file.exists():
        index: dict[str, Any] = json.loads(index_file.read_text())
        if index.get("recipe") == json.loads(json.dumps(recipe.to_dict())):
            log(f"training data reused from {cache}")
            return index
    started = time.time()
    (cache / RENDERS).mkdir(parents=True, exist_ok=True)
    with Pool(max(1, processes)) as pool:
        entries, counts = _real_sets(recipe, cache, pool, root, log)
        real_s = time.time() - started
        jobs = [(recipe.renders, i, str(cache / RENDERS)) for i in range(recipe.renders.count)]
        renders = pool.map(_render_entry, jobs, chunksize=8)
    rendered = [b for e in renders for b in e["boxes"]]
    counts[RENDER_SET] = {
        "train": {"images": len(renders), "dice": len(rendered), "cocked": sum(b[0] == 0 for b in rendered)}
    }
    log(f"{RENDER_SET}: {counts[RENDER_SET]['train']}")
    index = {
        "recipe": recipe.to_dict(),
        "images": entries + renders,
        "counts": counts,
        "seconds": {"real": round(real_s, 1), "renders": round(time.time() - started - real_s, 1)},
    }
    index_file.write_text(json.dumps(index) + "\n")
    return index


def training_images(index: dict[str, Any], splits: Sequence[str] = ("train",)) -> list[TrainingImage]:
    """The images of ``splits`` listed in a training index."""
    return [
        TrainingImage(
            e["set"], e["split"], Path(e["path"]), np.asarray(e["boxes"], np.float32).reshape(-1, 5)
        )
        for e in index["images"]
        if e["split"] in splits
    ]
