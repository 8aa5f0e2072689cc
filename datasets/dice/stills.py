"""Labelled stills of rendered dice (``datasets.dice.render``): camera, table, light, dice and lens drawn
from a seed and an index, with YOLO labels of every visible die (class = face - 1, or cocked)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.dice.geometry import (
    CAMERA_MM,
    COCKED_TILT_DEG,
    FLAT_TILT_DEG,
    MAX_HFOV_DEG,
    MIN_VISIBLE,
    Camera,
    face_up,
)
from datasets.dice.looks import DieLook, Light, TableLook
from datasets.dice.scene import DieState, DrawnDie, Lens, SceneRenderer
from vision.dice import COCKED_CLASS, DICE_CLASSES

# --- stills with labels ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class StillRecipe:
    """What stills to draw. Die sizes in pixels are drawn log-uniformly from ``die_px``; camera tilt from
    straight down uniformly from ``tilt_deg``. ``cocked_share``: chance that a die rests cocked (labelled
    ``cocked`` when ``label_cocked``, else left out of the picture); ``blank_share``: chance of an unlabelled
    blank cube (a distractor that teaches that pips make a die)."""

    count: int = 2000
    seed: int = 0
    sizes: tuple[tuple[int, int], ...] = ((640, 640), (640, 480), (800, 600), (480, 640))
    die_px: tuple[float, float] = (14.0, 150.0)
    tilt_deg: tuple[float, float] = (0.0, 58.0)
    max_dice: int = 12
    cocked_share: float = 0.04
    label_cocked: bool = True
    blank_share: float = 0.03
    edge_share: float = 0.25  # chance the table's edge (and floor) is in view

    def to_dict(self) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(self).items()}


@dataclass(frozen=True)
class Still:
    image: np.ndarray  # BGR uint8
    dice: tuple[DrawnDie, ...]
    labels: tuple[tuple[int, float, float, float, float], ...]  # YOLO: class, cx, cy, w, h (normalised)
    jpeg_quality: int


def rng_for(seed: int, index: int, stream: str) -> np.random.Generator:
    """Independent streams per image and purpose, so one change does not reshuffle everything else."""
    return np.random.default_rng([seed, index, sum(map(ord, stream)) * 7919 + len(stream)])


def _random_camera(recipe: StillRecipe, rng: np.random.Generator, die_px: float) -> Camera:
    width, height = recipe.sizes[int(rng.integers(len(recipe.sizes)))]
    # A phone or webcam a hand's breadth to an arm's length away; zoom (or a crop) sets the die's size.
    distance = float(math.exp(rng.uniform(math.log(CAMERA_MM[0]), math.log(CAMERA_MM[1]))))
    focal = max(die_px * distance / 16.0, width / 2 / math.tan(math.radians(MAX_HFOV_DEG) / 2))
    distance = focal * 16.0 / die_px
    tilt = float(rng.uniform(*recipe.tilt_deg))
    return Camera.looking_at(
        width, height, focal, (0.0, 0.0, 0.0), distance, tilt, float(rng.uniform(0, 2 * math.pi))
    )


def _place_dice(recipe: StillRecipe, cam: Camera, rng: np.random.Generator, n: int) -> list[DieState]:
    """``n`` dice at random table points in view, not overlapping; some cocked, a few blank."""
    dice: list[DieState] = []
    tries = 0
    while len(dice) < n and tries < 60 * n:
        tries += 1
        margin = 0.04
        uv = np.array(
            [[rng.uniform(margin, 1 - margin) * cam.width, rng.uniform(margin, 1 - margin) * cam.height]]
        )
        xy = cam.to_table(uv)[0]
        look = DieLook.random(rng)
        if rng.random() < recipe.blank_share:
            look = DieLook(**{**asdict(look), "blank": True})
        if any(np.hypot(*(xy - d.xy_mm)) < 0.8 * (look.side_mm + d.look.side_mm) for d in dice):
            continue
        value = int(rng.integers(1, 7))
        yaw = float(rng.uniform(0, 2 * math.pi))
        if rng.random() < recipe.cocked_share:
            if not recipe.label_cocked:
                continue
            rot = face_up(
                value, yaw, float(rng.uniform(*COCKED_TILT_DEG)), float(rng.uniform(0, 2 * math.pi))
            )
        else:
            rot = face_up(
                value, yaw, float(rng.uniform(0, FLAT_TILT_DEG * 0.6)), float(rng.uniform(0, 2 * math.pi))
            )
        dice.append(DieState(f"die{len(dice)}", xy, rot, look))
    return dice


def render_still(recipe: StillRecipe, index: int) -> Still:
    """One labelled still: camera, table, light, dice and lens all drawn from the recipe's seed and
    ``index``."""
    rng = rng_for(recipe.seed, index, "still")
    die_px = float(math.exp(rng.uniform(math.log(recipe.die_px[0]), math.log(recipe.die_px[1]))))
    cam = _random_camera(recipe, rng, die_px)
    table_mm = None
    if rng.random() < recipe.edge_share:
        centre = cam.to_table(np.array([[cam.width / 2, cam.height / 2]]))[0]
        half = 16.0 * cam.width / die_px * rng.uniform(0.3, 0.6)
        x0, y0 = centre - half * rng.uniform(0.8, 2.0, 2)
        x1, y1 = centre + half * rng.uniform(0.8, 2.0, 2)
        table_mm = (float(x0), float(y0), float(x1), float(y1))
    renderer = SceneRenderer(cam, TableLook.random(rng), Light.random(rng), rng, table_mm)
    area = cam.width * cam.height / die_px**2
    cap = int(np.clip(area / 12, 1, recipe.max_dice))
    n = int(min(cap, 1 + rng.geometric(0.3)))
    dice = _place_dice(recipe, cam, rng, n)
    img, drawn = renderer.render(dice)
    lens = Lens.random(rng)
    out = lens.apply(img, rng)
    labels = []
    h, w = out.shape[:2]
    for d in drawn:
        if d.blank or d.visible < MIN_VISIBLE:
            continue
        x0, y0, x1, y1 = d.box_px
        if (x1 - x0) < 4 or (y1 - y0) < 4:
            continue
        cls = COCKED_CLASS if d.value is None else d.value - 1
        labels.append((cls, (x0 + x1) / 2 / w, (y0 + y1) / 2 / h, (x1 - x0) / w, (y1 - y0) / h))
    return Still(out, tuple(drawn), tuple(labels), lens.jpeg_quality)


def _write_still(recipe: StillRecipe, index: int, images: Path, labels: Path) -> list[int]:
    """Render and write still ``index``; returns its label classes."""
    still = render_still(recipe, index)
    stem = f"render_{recipe.seed}_{index:05d}"
    cv2.imwrite(str(images / f"{stem}.jpg"), still.image, [cv2.IMWRITE_JPEG_QUALITY, still.jpeg_quality])
    (labels / f"{stem}.txt").write_text(
        "".join(f"{c} {cx:.6f} {cy:.6f} {bw:.6f} {bh:.6f}\n" for c, cx, cy, bw, bh in still.labels)
    )
    return [c for c, *_ in still.labels]


def render_dataset(
    recipe: StillRecipe,
    out: Path,
    split: str = "train",
    on_image: Callable[[int], None] | None = None,
    processes: int = 1,
) -> dict[str, Any]:
    """``recipe.count`` stills as ``out/images/<split>/render_*.jpg`` and YOLO labels beside in
    ``out/labels/<split>``; returns counts. ``processes`` > 1 renders in parallel (each still depends on
    the seed and its index only, so the files are the same)."""
    images, labels = out / "images" / split, out / "labels" / split
    images.mkdir(parents=True, exist_ok=True)
    labels.mkdir(parents=True, exist_ok=True)
    counts: dict[str, Any] = {"images": 0, "boxes": 0, "classes": dict.fromkeys(DICE_CLASSES, 0)}

    def tally(i: int, classes: list[int]) -> None:
        counts["images"] += 1
        counts["boxes"] += len(classes)
        for c in classes:
            counts["classes"][DICE_CLASSES[c]] += 1
        if on_image:
            on_image(i)

    if processes <= 1:
        for i in range(recipe.count):
            tally(i, _write_still(recipe, i, images, labels))
        return counts
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(processes) as pool:
        jobs = [pool.submit(_write_still, recipe, i, images, labels) for i in range(recipe.count)]
        for i, job in enumerate(jobs):
            tally(i, job.result())
    return counts
