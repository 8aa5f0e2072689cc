"""Training the die finder (torch, CPU): random patches of the training photos and renders, their centre
heatmaps as targets, CenterNet's focal loss.

A patch is cut at the scale the finder runs at (``FinderRecipe.long_side`` over the photo's long side)
times a random factor, usually round a die and with that die whole in the patch where it fits (a close-up
die cut in half teaches that its pips are dice), turned a little, stretched a little (the oblique set's
photos were exported at other shapes), flipped and turned by quarter turns (a die seen from above has no
up), recoloured. A patch shrunk is area-averaged, as the run-time input is. The convolutions run in
bfloat16 where the recipe says so (``FinderRecipe.bf16``): on this machine's cores that steps about 1.4x
faster than float32, and the steps it saves buy a longer run.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence

import cv2
import numpy as np
import torch

from evaluation.dice_augment import frame_photometric
from evaluation.dice_nets import Finder, focal_heatmap_loss
from evaluation.dice_recipes import FinderRecipe
from vision.dice_finder import STRIDE

Pool = dict[str, list[tuple[np.ndarray, np.ndarray]]]  # set -> (image, boxes (N, 5): value, x0, y0, x1, y1)


MAX_DIE_SHARE = 0.8  # a die the patch is centred on is scaled down to at most this share of the patch


def _patch_centre(
    boxes: np.ndarray, w: int, h: int, s: float, recipe: FinderRecipe, rng: np.random.Generator
) -> tuple[np.ndarray, float]:
    """Where the patch is centred, in image pixels, and its scale: round a die (whole in the patch, scaled
    down where it would not fit), or anywhere."""
    if not len(boxes) or rng.random() >= recipe.die_share:
        return np.array([rng.uniform(0, w), rng.uniform(0, h)]), s
    b = boxes[rng.integers(len(boxes))]
    centre = np.array([(b[1] + b[3]) / 2, (b[2] + b[4]) / 2])
    half = np.array([b[3] - b[1], b[4] - b[2]]) / 2
    s = min(s, MAX_DIE_SHARE * recipe.patch / max(2 * float(half.max()), 1.0))
    room = np.maximum(recipe.patch / 2 / s - half * 1.1, 0.15 * recipe.patch / s)
    return centre + rng.uniform(-1, 1, 2) * room, s


def _patch_boxes(boxes: np.ndarray, m: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Boxes (N, 5) mapped by the affine ``m``: centres moved, sizes scaled by ``s`` (x, y; not grown by the
    turn)."""
    if not len(boxes):
        return np.zeros((0, 4), np.float32)
    centres = np.stack([(boxes[:, 1] + boxes[:, 3]) / 2, (boxes[:, 2] + boxes[:, 4]) / 2], 1)
    c = centres @ m[:, :2].T + m[:, 2]
    half = np.stack([boxes[:, 3] - boxes[:, 1], boxes[:, 4] - boxes[:, 2]], 1) * s / 2
    return np.asarray(np.concatenate([c - half, c + half], 1).astype(np.float32))


def _flip_and_turn(
    out: np.ndarray, bx: np.ndarray, p: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """The eight symmetries of the square: mirror, flip, transpose."""
    if rng.random() < 0.5:
        out = out[:, ::-1]
        bx = np.stack([p - bx[:, 2], bx[:, 1], p - bx[:, 0], bx[:, 3]], 1)
    if rng.random() < 0.5:
        out = out[::-1]
        bx = np.stack([bx[:, 0], p - bx[:, 3], bx[:, 2], p - bx[:, 1]], 1)
    if rng.random() < 0.5:
        out = out.transpose(1, 0, 2)
        bx = bx[:, [1, 0, 3, 2]]
    return np.ascontiguousarray(out), bx


def area_warp(image: np.ndarray, m: np.ndarray, p: int, border: tuple[float, ...]) -> np.ndarray:
    """``image`` warped by the affine ``m`` into a ``p`` x ``p`` patch, area-averaged where ``m`` shrinks it,
    as the run-time input is (``cv2.resize`` with INTER_AREA; ``warpAffine`` only samples, which keeps a fine
    texture's full contrast): the part the patch covers is shrunk first, then turned."""
    s = math.sqrt(abs(float(np.linalg.det(m[:, :2]))))
    if s >= 0.7:
        return cv2.warpAffine(image, m, (p, p), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=border)  # fmt: skip
    inv = cv2.invertAffineTransform(m)
    corners = np.array([[0, 0, 1], [p, 0, 1], [0, p, 1], [p, p, 1]], np.float64) @ inv.T
    h, w = image.shape[:2]
    x0, y0 = (max(0, int(v) - 2) for v in corners.min(0))
    x1, y1 = min(w, int(corners[:, 0].max()) + 3), min(h, int(corners[:, 1].max()) + 3)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return np.full((p, p, 3), border, np.uint8)
    region = image[y0:y1, x0:x1]
    nw, nh = max(1, round((x1 - x0) * s)), max(1, round((y1 - y0) * s))
    small = cv2.resize(region, (nw, nh), interpolation=cv2.INTER_AREA)
    # small pixel q is image pixel (x0, y0) + q * (region / small); the patch is m of that image pixel
    lin = m[:, :2] @ np.diag([(x1 - x0) / nw, (y1 - y0) / nh])
    off = m[:, :2] @ np.array([x0, y0], np.float64) + m[:, 2]
    return cv2.warpAffine(small, np.column_stack([lin, off]), (p, p), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=border)  # fmt: skip


def _stretch(m: np.ndarray, p: int, rng: np.random.Generator, most: float) -> tuple[np.ndarray, np.ndarray]:
    """``m`` followed by a stretch about the patch's centre (width by a, height by 1/a, a log-uniform up to
    ``most``): photos exported at another shape draw dice as upright or flat rectangles."""
    a = math.exp(rng.uniform(-1, 1) * math.log(most)) if most > 1 else 1.0
    k = np.array([a, 1 / a])
    out = m.copy()
    out[:, :2] = k[:, None] * m[:, :2]
    out[:, 2] = k * (m[:, 2] - p / 2) + p / 2
    return out, k


def finder_sample(
    image: np.ndarray, boxes: np.ndarray, recipe: FinderRecipe, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """One training patch: (3, P, P) float32 in 0..1, and the boxes (N, 4) of the dice centred in it."""
    h, w = image.shape[:2]
    lo, hi = recipe.scale_range
    s = recipe.long_side / max(h, w) * math.exp(rng.uniform(math.log(lo), math.log(hi)))
    p = recipe.patch
    c, s = _patch_centre(boxes, w, h, s, recipe, rng)
    turn = rng.uniform(-1, 1) * recipe.max_turn_deg
    m = np.asarray(cv2.getRotationMatrix2D((float(c[0]), float(c[1])), turn, s), np.float64)
    m[:, 2] += p / 2 - c
    m, k = _stretch(m, p, rng, recipe.max_stretch)
    border = tuple(float(v) for v in rng.uniform(0, 255, 3))
    out = area_warp(image, m, p, border)
    out, bx = _flip_and_turn(out, _patch_boxes(boxes, m, s * k), p, rng)
    out = frame_photometric(out, rng)
    centres = (bx[:, :2] + bx[:, 2:]) / 2
    keep = ((centres >= 0) & (centres < p)).all(1)
    return out.transpose(2, 0, 1) / 255.0, bx[keep]


def targets(boxes: np.ndarray, patch: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Heatmap (1, g, g), regression (4, g, g: log w, log h, offset x, y) and its mask (g, g)."""
    g = patch // STRIDE
    heat = np.zeros((g, g), np.float32)
    reg = np.zeros((4, g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g]
    for x0, y0, x1, y1 in boxes:
        w, h = max(x1 - x0, 1.0), max(y1 - y0, 1.0)
        cx, cy = (x0 + x1) / 2 / STRIDE, (y0 + y1) / 2 / STRIDE
        ix, iy = min(int(cx), g - 1), min(int(cy), g - 1)
        sigma = max(0.6, math.sqrt(w * h) / STRIDE / 6)
        heat = np.maximum(heat, np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma**2)))
        heat[iy, ix] = 1.0
        reg[:, iy, ix] = (math.log(w), math.log(h), cx - ix, cy - iy)
        mask[iy, ix] = 1.0
    return heat[None], reg, mask


def batch(pools: Pool, recipe: FinderRecipe, rng: np.random.Generator) -> tuple[torch.Tensor, ...]:
    names = [k for k in recipe.set_weights if pools.get(k)]
    p = np.array([recipe.set_weights[k] for k in names])
    xs: list[np.ndarray] = []
    hs: list[np.ndarray] = []
    rs: list[np.ndarray] = []
    ms: list[np.ndarray] = []
    for _ in range(recipe.batch):
        pool = pools[names[rng.choice(len(names), p=p / p.sum())]]
        image, boxes = pool[rng.integers(len(pool))]
        x, b = finder_sample(image, boxes, recipe, rng)
        heat, reg, mask = targets(b, recipe.patch)
        xs.append(x)
        hs.append(heat)
        rs.append(reg)
        ms.append(mask)
    return tuple(torch.from_numpy(np.stack(v).astype(np.float32)) for v in (xs, hs, rs, ms))


def finder_loss(
    out: torch.Tensor, heat: torch.Tensor, reg: torch.Tensor, mask: torch.Tensor, size_weight: float
) -> tuple[torch.Tensor, tuple[float, float, float]]:
    lh = focal_heatmap_loss(out[:, :1], heat)
    n = mask.sum().clamp(min=1)
    m = mask[:, None]
    lsize = (torch.abs(out[:, 1:3] - reg[:, :2]) * m).sum() / n
    loff = (torch.abs(out[:, 3:5] - reg[:, 2:4]) * m).sum() / n
    return lh + size_weight * lsize + loff, (lh.item(), lsize.item(), loff.item())


def train_finder(
    pools: Pool,
    recipe: FinderRecipe,
    log: Callable[[str], None] = print,
    checkpoint: Callable[[Finder], None] | None = None,
) -> Finder:
    """The finder trained for ``recipe.iters`` steps of AdamW with a one-cycle learning rate; handed to
    ``checkpoint`` as it is after step ``recipe.checkpoint_at`` (in eval mode; training goes on after)."""
    rng = np.random.default_rng(recipe.seed)
    torch.manual_seed(recipe.seed)
    model: Finder = Finder(recipe.widths, recipe.head).to(memory_format=torch.channels_last)
    opt = torch.optim.AdamW(model.parameters(), lr=recipe.lr, weight_decay=recipe.weight_decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=recipe.lr, total_steps=recipe.iters, pct_start=0.1
    )
    model.train()
    started, data_s = time.time(), 0.0
    for it in range(recipe.iters):
        t = time.time()
        x, heat, reg, mask = batch(pools, recipe, rng)
        data_s += time.time() - t
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=recipe.bf16):
            out = model(x.contiguous(memory_format=torch.channels_last))
        loss, parts = finder_loss(out.float(), heat, reg, mask, recipe.size_weight)
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call, unused-ignore]
        opt.step()
        sched.step()
        if checkpoint is not None and it + 1 == recipe.checkpoint_at:
            checkpoint(model.eval())
            model.to(memory_format=torch.channels_last).train()
        if it % 100 == 0 or it == recipe.iters - 1:
            log(
                f"finder step {it}: loss {loss.item():.3f} (heat {parts[0]:.3f}, size {parts[1]:.3f}, "
                f"offset {parts[2]:.3f}); {time.time() - started:.0f} s, data {data_s:.0f} s"
            )
    model.eval()
    return model


def finder_pools(images: Sequence[tuple[str, np.ndarray, np.ndarray]]) -> Pool:
    """(set, image, boxes) -> the pools the batches draw from, per set."""
    pools: Pool = {}
    for name, image, boxes in images:
        pools.setdefault(name, []).append((image, boxes))
    return pools
