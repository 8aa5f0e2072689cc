"""The detector's training set: synthetic frames of every game, rectified into the table view, labelled.

Each shot is drawn, simulated and filmed exactly as ``arbiter synth`` does (same streams, so a seed means
the same shots), but only a few frames per shot are rendered, spread over the clip so that balls at rest,
rolling, blurred and under the cue all appear. Each frame is warped into ``vision.table_view.TableView``
through the recorded camera, with a small random error in the table's placement (a few mm, a fraction of a
degree, a fraction of a percent of scale), because at run time the view comes from an estimated calibration,
not the truth. Labels follow the same perturbed mapping, so they stay exact.

Views are cut into two overlapping square tiles for training (``TILE``): the network trains on tiles with
mosaic augmentation at the view's own scale and runs on the whole view, being fully convolutional.
Layout under ``out``: ``images/{train,val}/*.jpg``, ``labels/{train,val}/*.txt`` (YOLO format) and
``data.yaml`` with ``arbiter.balls.APPEARANCE_CLASSES`` as the class names.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import yaml

from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import BILLIARDS_GAMES
from vision.table_view import TableView

from .camera import Camera
from .render import RenderedFrame
from .synth import SynthConfig, film, frame_times, scenes, simulate_shot

TILE = 352  # square training tile, the view's height: two tiles cover the 640-wide view with overlap
MIN_VISIBLE = 0.5  # a box cut by a tile edge is kept when at least this share of it is inside
# Every box is at least this wide, centred on its object: a 9 px snooker ball or a 3 px pin head gives the
# network's assigner (which takes anchors whose centres fall inside a box, every 8 px) too little to start
# from scratch. Only centres are used at run time; two touching snooker balls' boxes still overlap < 0.3 IoU.
MIN_BOX_PX = 16.0

Box = tuple[int, float, float, float, float]  # class, u0, v0, u1, v1 in view pixels


@dataclass(frozen=True)
class DatasetRecipe:
    """What to generate. More shots give more layouts and cameras; more frames per shot give more motion
    states of the same layout (cheaper: no new physics). Sizes are the camera resolutions drawn from."""

    shots_per_game: int = 30
    frames_per_shot: int = 3
    val_shots_per_game: int = 4
    seed: int = 100
    val_seed: int = 200
    games: tuple[str, ...] = tuple(s.id for s in BILLIARDS_GAMES)
    sizes: tuple[tuple[int, int], ...] = ((1280, 720), (1920, 1080))
    placement_error_mm: float = 8.0
    rotation_error_deg: float = 0.3
    scale_error: float = 0.004

    def to_dict(self) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}


def _placement_error(recipe: DatasetRecipe, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A random similarity ``true = A @ assumed + b`` about the table centre: how far a calibration is off."""
    angle = math.radians(rng.normal(0.0, recipe.rotation_error_deg / 2))
    scale = 1.0 + rng.normal(0.0, recipe.scale_error / 2)
    a = scale * np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    b = rng.normal(0.0, recipe.placement_error_mm / 2, size=2)
    return a, b


def view_labels(
    view: TableView, rendered: RenderedFrame, camera: Camera, to_assumed: Callable[[np.ndarray], np.ndarray]
) -> list[Box]:
    """``(cls, u0, v0, u1, v1)`` in view pixels for every object not hidden: balls as squares of their true
    diameter (at least ``MIN_BOX_PX``) at their true centre; pins by their image box carried back onto the
    table, widened the same way."""
    r = view.table.ball_radius_mm
    out = []
    for o in rendered.objects:
        if o.hidden:
            continue
        cls = APPEARANCE_CLASSES.index(o.cls)
        if o.cls.startswith("pin_"):
            x0, y0, x1, y1 = o.box_px
            corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64)
            uv = view.mm_to_view(to_assumed(camera.px_to_table(corners, r)))
            (u0, v0), (u1, v1) = uv.min(axis=0), uv.max(axis=0)
            cu, cv = (u0 + u1) / 2, (v0 + v1) / 2
            hu, hv = max(u1 - u0, MIN_BOX_PX) / 2, max(v1 - v0, MIN_BOX_PX) / 2
        else:
            centre = camera.px_to_table(np.array([o.xy_px], dtype=np.float64), r)
            cu, cv = view.mm_to_view(to_assumed(centre))[0]
            hu = hv = max(2 * r / view.mm_per_px, MIN_BOX_PX) / 2
        out.append((cls, float(cu - hu), float(cv - hv), float(cu + hu), float(cv + hv)))
    return out


def tiles(width: int) -> tuple[int, ...]:
    """Left edges of the square tiles covering a view ``width`` wide."""
    return (0, width - TILE) if width > TILE else (0,)


def tile_lines(boxes: Iterable[Box], left: int, height: int) -> list[str]:
    lines = []
    for cls, u0, v0, u1, v1 in boxes:
        a0, a1 = max(u0, left), min(u1, left + TILE)
        b0, b1 = max(v0, 0.0), min(v1, float(height))
        if a1 <= a0 or b1 <= b0 or (a1 - a0) * (b1 - b0) < MIN_VISIBLE * (u1 - u0) * (v1 - v0):
            continue
        cx, cy = ((a0 + a1) / 2 - left) / TILE, (b0 + b1) / 2 / height
        lines.append(f"{cls} {cx:.6f} {cy:.6f} {(a1 - a0) / TILE:.6f} {(b1 - b0) / height:.6f}")
    return lines


View = tuple[str, np.ndarray, list[Box], int]  # name, view image, labels, JPEG quality


def _shot_views(recipe: DatasetRecipe, game: str, seed: int, index: int) -> Iterator[View]:
    """Yield ``(name, view image, boxes, JPEG quality)`` for the chosen frames of one shot."""
    rng = np.random.default_rng([seed, index, 7])
    width, height = recipe.sizes[int(rng.integers(len(recipe.sizes)))]
    cfg = SynthConfig(game=game, seed=seed, width=width, height=height, video=False)
    shot = simulate_shot(cfg, index)
    filming = film(cfg, shot)
    camera, table = filming.camera, cfg.spec.table
    times, sub_times = frame_times(cfg, shot, filming.look)
    picks = np.sort(rng.choice(len(times), size=min(recipe.frames_per_shot, len(times)), replace=False))
    view = TableView(table)
    r = table.ball_radius_mm
    for k, exposure in zip(picks, scenes(cfg, shot, sub_times[picks]), strict=True):
        a, b = _placement_error(recipe, rng)
        a_inv = np.linalg.inv(a)

        def to_image(xy: np.ndarray, a: np.ndarray = a, b: np.ndarray = b) -> np.ndarray:
            return camera.project(np.c_[xy @ a.T + b, np.full(len(xy), r)])

        def to_assumed(xy: np.ndarray, a_inv: np.ndarray = a_inv, b: np.ndarray = b) -> np.ndarray:
            result: np.ndarray = (xy - b) @ a_inv.T
            return result

        rendered = filming.renderer.render(exposure)
        boxes = view_labels(view, rendered, camera, to_assumed)
        image = view.rectifier(to_image)(rendered.image)
        yield f"{game}_{seed}_{index:03d}_f{int(k):04d}", image, boxes, int(filming.look.jpeg_quality)


def build(
    recipe: DatasetRecipe, out: Path, on_shot: Callable[[str, int], None] | None = None
) -> dict[str, dict[str, int]]:
    """Write the dataset under ``out``; returns counts per split."""
    counts = {"train": {"views": 0, "tiles": 0, "boxes": 0}, "val": {"views": 0, "tiles": 0, "boxes": 0}}
    for split, seed, n in (
        ("train", recipe.seed, recipe.shots_per_game),
        ("val", recipe.val_seed, recipe.val_shots_per_game),
    ):
        images, labels = out / "images" / split, out / "labels" / split
        images.mkdir(parents=True, exist_ok=True)
        labels.mkdir(parents=True, exist_ok=True)
        for game in recipe.games:
            for index in range(n):
                for name, image, boxes, quality in _shot_views(recipe, game, seed, index):
                    counts[split]["views"] += 1
                    h, w = image.shape[:2]
                    for left in tiles(w):
                        lines = tile_lines(boxes, left, h)
                        stem = f"{name}_x{left}"
                        cv2.imwrite(
                            str(images / f"{stem}.jpg"),
                            image[:, left : left + TILE],
                            [cv2.IMWRITE_JPEG_QUALITY, quality],
                        )
                        (labels / f"{stem}.txt").write_text("".join(x + "\n" for x in lines))
                        counts[split]["tiles"] += 1
                        counts[split]["boxes"] += len(lines)
                if on_shot:
                    on_shot(game, index)
    data = {
        "path": str(out.resolve()),
        "train": "images/train",
        "val": "images/val",
        "names": dict(enumerate(APPEARANCE_CLASSES)),
    }
    (out / "data.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    return counts
