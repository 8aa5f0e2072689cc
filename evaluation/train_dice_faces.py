"""Training the face reader (torch, CPU): crops of dice and of places that are no die, read into
``vision.dice.READER_CLASSES`` with the die's box in the crop.

A die's crop is made as at run time (``vision.dice_crops``) round a box moved and resized the way the
finder's boxes err, so the reader learns to read and to re-box from where the finder leaves it. Crops of
no die teach ``not_a_die``: empty table, busy places (drawn where the picture has edges: magnets, pieces,
board print, the tray's wall), single pips of big dice (what a finder sees as a small die) and, from
``FacesRecipe.hard_from`` on, the finder's own mistakes (``evaluation.dice_hard``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np
import torch
import torch.nn.functional as F  # noqa: N812 - torch's own spelling

from evaluation.dice_augment import crop_photometric
from evaluation.dice_hard import finder_mistakes
from evaluation.dice_nets import FaceNet
from evaluation.dice_recipes import FacesRecipe
from vision.dice import COCKED_CLASS, NOT_A_DIE
from vision.dice_crops import CROP, MARGIN, box_target, crop_square, square_transform, warp_crop
from vision.dice_finder import iou_matrix

EDGE_CELL = 8  # the busy-place map is kept at this many pixels per cell


@dataclass(frozen=True)
class Source:
    """One training image for crops: its dice (N, 5), where it is busy (a sampling map) and what the finder
    takes for dice there that is none (``hard``, once mined)."""

    set_name: str
    image: np.ndarray
    boxes: np.ndarray
    busy: np.ndarray  # (h / EDGE_CELL, w / EDGE_CELL) cumulative weights, flattened
    hard: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))  # (K, 4) boxes, image pixels


def busy_map(image: np.ndarray) -> np.ndarray:
    """Where the picture has edges (objects, print, walls), as cumulative sampling weights per cell."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    mag = np.abs(cv2.Sobel(grey, cv2.CV_32F, 1, 0)) + np.abs(cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    h, w = grey.shape
    cells = cv2.resize(mag, (max(1, w // EDGE_CELL), max(1, h // EDGE_CELL)), interpolation=cv2.INTER_AREA)
    return np.cumsum(cells.ravel() ** 1.5 + 1e-3)


def label_of(value: float) -> int:
    return COCKED_CLASS if value == 0 else int(value) - 1


def _die_crop(
    src: Source, recipe: FacesRecipe, rng: np.random.Generator
) -> tuple[np.ndarray, int, np.ndarray, float]:
    """A jittered crop of one die: crop, class, box target, box weight (1 where the crop is straight)."""
    boxes = src.boxes
    if src.set_name == "renders" and (boxes[:, 0] == 0).any() and rng.random() < recipe.cocked_share:
        boxes = boxes[boxes[:, 0] == 0]
    v, x0, y0, x1, y1 = boxes[rng.integers(len(boxes))]
    side = max(x1 - x0, y1 - y0)
    j = np.clip(rng.normal(0, recipe.centre_jitter, 2), -3 * recipe.centre_jitter, 3 * recipe.centre_jitter)
    cx, cy = (x0 + x1) / 2 + j[0] * side, (y0 + y1) / 2 + j[1] * side
    lo, hi = recipe.size_range
    half = side * math.exp(rng.uniform(math.log(lo), math.log(hi))) / 2
    crop_box = (cx - half, cy - half, cx + half, cy + half)
    straight = rng.random() < recipe.straight_share
    if straight:
        angle, persp = 0.0, (0.0, 0.0)
    else:
        turn = 180.0 if src.set_name in recipe.full_turn else recipe.small_turn_deg
        angle = float(rng.uniform(-turn, turn))
        persp = tuple(rng.normal(0, 0.08, 2)) if rng.random() < 0.5 else (0.0, 0.0)
    target = box_target(crop_box, (x0, y0, x1, y1))
    crop = _warp(src.image, cx, cy, MARGIN * 2 * half, angle, persp)
    if rng.random() < 0.5:
        crop = np.ascontiguousarray(crop[:, ::-1])
        target[0] = -target[0]
    return crop, label_of(v), target, float(straight)


def _warp(
    image: np.ndarray, cx: float, cy: float, side: float, angle: float, persp: tuple[float, float]
) -> np.ndarray:
    m = square_transform(cx, cy, side, CROP, angle, persp)
    return warp_crop(image, m, CROP, side / CROP)


def _clear_of_dice(src: Source, cx: float, cy: float, side: float) -> bool:
    """Whether a crop of ``side`` at (cx, cy) shows no die well enough to be read as one."""
    if not len(src.boxes):
        return True
    inner = side / MARGIN
    box = np.array([[cx - inner / 2, cy - inner / 2, cx + inner / 2, cy + inner / 2]])
    if iou_matrix(box, src.boxes[:, 1:5].astype(np.float64)).max() > 0.15:
        return False
    centres = (src.boxes[:, 1:3] + src.boxes[:, 3:5]) / 2
    return bool(np.hypot(centres[:, 0] - cx, centres[:, 1] - cy).min() > 0.35 * side)


def _mistake_crop(src: Source, rng: np.random.Generator) -> np.ndarray | None:
    """A crop of one of the finder's mistakes, as the finder's box would be read (a little moved, resized
    and turned); None when the crop would show a die."""
    x0, y0, x1, y1 = src.hard[rng.integers(len(src.hard))]
    side = max(x1 - x0, y1 - y0) * math.exp(rng.uniform(math.log(0.85), math.log(1.2)))
    cx, cy = (x0 + x1) / 2 + rng.normal(0, 0.05) * side, (y0 + y1) / 2 + rng.normal(0, 0.05) * side
    if not _clear_of_dice(src, cx, cy, side * MARGIN):
        return None
    return _warp(src.image, cx, cy, side * MARGIN, float(rng.uniform(-20, 20)), (0.0, 0.0))


def _no_die_crop(src: Source, rng: np.random.Generator, hard_share: float = 0.0) -> np.ndarray | None:
    """A crop of no die: one of the finder's mistakes (``hard_share`` of them, where the image has any), a
    pip of a big die, a busy place, or anywhere; None when none was found."""
    if len(src.hard) and rng.random() < hard_share:
        crop = _mistake_crop(src, rng)
        if crop is not None:
            return crop
    h, w = src.image.shape[:2]
    sides = np.maximum(src.boxes[:, 3] - src.boxes[:, 1], src.boxes[:, 4] - src.boxes[:, 2])
    big = np.nonzero(sides >= 40)[0]
    if len(big) and rng.random() < 0.3:
        k = int(rng.choice(big))
        _, x0, y0, x1, y1 = src.boxes[k]
        side = sides[k] * rng.uniform(0.2, 0.45) * MARGIN
        cx = rng.uniform(0.9 * x0 + 0.1 * x1, 0.1 * x0 + 0.9 * x1)
        cy = rng.uniform(0.9 * y0 + 0.1 * y1, 0.1 * y0 + 0.9 * y1)
        return _warp(src.image, cx, cy, side, float(rng.uniform(0, 360)), (0.0, 0.0))
    typical = float(np.median(sides)) if len(sides) else float(rng.uniform(20, 120))
    for _ in range(10):
        side = typical * MARGIN * math.exp(rng.uniform(math.log(0.6), math.log(1.6)))
        if rng.random() < 0.6:
            cell = int(np.searchsorted(src.busy, rng.uniform(0, src.busy[-1])))
            gw = max(1, w // EDGE_CELL)
            cx, cy = (cell % gw + rng.random()) * EDGE_CELL, (cell // gw + rng.random()) * EDGE_CELL
        else:
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        if _clear_of_dice(src, cx, cy, side):
            return _warp(src.image, cx, cy, side, float(rng.uniform(0, 360)), (0.0, 0.0))
    return None


def batch(
    pools: dict[str, list[Source]], recipe: FacesRecipe, rng: np.random.Generator
) -> tuple[torch.Tensor, ...]:
    """One batch of crops, labels, box targets and box weights; ``not_a_die_share`` of it crops of no die."""
    names = [k for k in recipe.set_weights if pools.get(k)]
    p = np.array([recipe.set_weights[k] for k in names])
    xs: list[np.ndarray] = []
    ys: list[int] = []
    ts: list[np.ndarray] = []
    ws: list[float] = []
    while len(xs) < recipe.batch:
        pool = pools[names[rng.choice(len(names), p=p / p.sum())]]
        src = pool[rng.integers(len(pool))]
        if rng.random() < recipe.not_a_die_share or not len(src.boxes):
            crop = _no_die_crop(src, rng, recipe.hard_share)
            if crop is None:
                continue
            label, target, weight = NOT_A_DIE, np.zeros(4, np.float32), 0.0
        else:
            crop, label, target, weight = _die_crop(src, recipe, rng)
        xs.append(crop_photometric(crop, rng, CROP))
        ys.append(label)
        ts.append(target)
        ws.append(weight)
    x = np.stack(xs).astype(np.float32).transpose(0, 3, 1, 2) / 255.0
    return torch.from_numpy(x), torch.tensor(ys), torch.from_numpy(np.stack(ts)), torch.tensor(ws)


def plain_crops(sources: list[Source]) -> tuple[torch.Tensor, torch.Tensor]:
    """Every die's crop at its labelled box, not moved: how well the reader reads a well-found die."""
    crops, labels = [], []
    for src in sources:
        for v, *box in src.boxes:
            crops.append(crop_square(src.image, tuple(box)))
            labels.append(label_of(v))
    x = (
        np.stack(crops).astype(np.float32).transpose(0, 3, 1, 2) / 255.0
        if crops
        else np.zeros((0, 3, CROP, CROP), np.float32)
    )
    return torch.from_numpy(x), torch.tensor(labels, dtype=torch.long)


def predict(model: FaceNet, x: torch.Tensor, size: int = 512) -> torch.Tensor:
    with torch.no_grad():
        return torch.cat([model(x[i : i + size])[0] for i in range(0, len(x), size)] or [torch.zeros(0, 8)])


def faces_loss(
    model: FaceNet, x: torch.Tensor, y: torch.Tensor, t: torch.Tensor, w: torch.Tensor, recipe: FacesRecipe
) -> torch.Tensor:
    logits, box = model(x.contiguous(memory_format=torch.channels_last))
    ce = F.cross_entropy(logits, y, label_smoothing=recipe.label_smoothing)
    box_l = (F.smooth_l1_loss(box, t, reduction="none", beta=0.1).sum(1) * w).sum() / w.sum().clamp(min=1)
    return ce + recipe.box_weight * box_l


def train_faces(
    pools: dict[str, list[Source]],
    val: dict[str, tuple[torch.Tensor, torch.Tensor]],
    recipe: FacesRecipe,
    log: Callable[[str], None] = print,
    mine: Callable[[dict[str, list[Source]]], dict[str, list[Source]]] | None = None,
) -> FaceNet:
    """The face reader trained for ``recipe.iters`` steps; ``val``'s reading accuracy logged as it goes. At
    step ``recipe.hard_from`` the pools are given the finder's mistakes by ``mine`` (None: never)."""
    rng = np.random.default_rng(recipe.seed)
    torch.manual_seed(recipe.seed)
    model: FaceNet = FaceNet(recipe.widths).to(memory_format=torch.channels_last)
    opt = torch.optim.AdamW(model.parameters(), lr=recipe.lr, weight_decay=recipe.weight_decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=recipe.lr, total_steps=recipe.iters, pct_start=0.1
    )
    started, data_s = time.time(), 0.0
    for it in range(recipe.iters):
        if mine is not None and recipe.hard_from and it == recipe.hard_from:
            pools = mine(pools)
        model.train()
        t0 = time.time()
        x, y, t, w = batch(pools, recipe, rng)
        data_s += time.time() - t0
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=recipe.bf16):
            loss = faces_loss(model, x, y, t, w, recipe)
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call, unused-ignore]
        opt.step()
        sched.step()
        if it % recipe.eval_every == 0 or it == recipe.iters - 1:
            model.eval()
            acc = {
                k: round(float((predict(model, vx).argmax(1) == vy).float().mean()), 4)
                for k, (vx, vy) in val.items()
                if len(vy)
            }
            log(
                f"faces step {it}: loss {loss.item():.3f}; val read right {acc}; "
                f"{time.time() - started:.0f} s, data {data_s:.0f} s"
            )
    model.eval()
    return model


def fit_temperature(model: FaceNet, val: dict[str, tuple[torch.Tensor, torch.Tensor]]) -> float:
    """One softmax temperature for the reader's probabilities, fitted on the validation crops (least
    negative log-likelihood), so that "90% sure" is right about nine times in ten."""
    pairs = [(predict(model, vx), vy) for vx, vy in val.values() if len(vy)]
    if not pairs:
        return 1.0
    logits, y = torch.cat([p for p, _ in pairs]), torch.cat([v for _, v in pairs])
    best = min((F.cross_entropy(logits / float(t), y).item(), float(t)) for t in np.arange(0.5, 3.01, 0.05))
    return round(best[1], 3)


def face_sources(images: list[tuple[str, np.ndarray, np.ndarray]]) -> dict[str, list[Source]]:
    pools: dict[str, list[Source]] = {}
    for name, image, boxes in images:
        pools.setdefault(name, []).append(Source(name, image, boxes, busy_map(image)))
    return pools


def with_mistakes(
    pools: dict[str, list[Source]], session: Any, long_side: int, min_score: float
) -> tuple[dict[str, list[Source]], dict[str, int]]:
    """The pools with each real photo's finder mistakes (``evaluation.dice_hard``) and their count per set.
    Renders are left alone: their scenes hold no look-alikes."""
    out: dict[str, list[Source]] = {}
    counts: dict[str, int] = {}
    for name, sources in pools.items():
        if name == "renders":
            out[name] = sources
            continue
        out[name] = [
            replace(src, hard=finder_mistakes(session, long_side, src.image, src.boxes, min_score))
            for src in sources
        ]
        counts[name] = sum(len(src.hard) for src in out[name])
    return out, counts
