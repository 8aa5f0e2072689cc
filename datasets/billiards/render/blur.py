"""Placing sprites in a frame, and motion blur: a moving ball drawn as a streak of copies over the shutter.

Every ball is drawn by warping its sprite through an affine map onto a region of interest; ``splat_plan``
finds all the regions and maps of a frame at once. ``smear`` turns a ball's K exposure samples into the
copies that make its streak.
"""

from __future__ import annotations

import numpy as np

SMEAR_STEP_PX = 1.5  # motion blur: most pixels between drawn copies of a moving ball (smooth streaks)
SMEAR_MAX_COPIES = 48  # cap per ball and frame: bounds the cost of very fast balls

Copies = tuple[np.ndarray, np.ndarray, np.ndarray]  # centres (N, 2), shadow centres (N, 2), axes (N, 2, 2)


def _streak(cen: np.ndarray, sh: np.ndarray, axes: np.ndarray, mem: np.ndarray, m: int, k: int) -> Copies:
    """``m`` evenly timed copies along the piecewise-linear path through a ball's ``k`` samples ``mem``,
    over the whole shutter time (the samples are the midpoints of k equal slices of it)."""
    uk = (np.arange(k) + 0.5) / k
    u = (np.arange(m) + 0.5) / m
    x = (u - uk[0]) * (k - 1) / (uk[-1] - uk[0])  # fractional sample index, extrapolated at the ends
    i0 = np.minimum(np.maximum(np.floor(x).astype(np.int64), 0), k - 2)
    f = (x - i0)[:, None]
    a, b = mem[i0], mem[i0 + 1]
    return (
        cen[a] * (1 - f) + cen[b] * f,
        sh[a] * (1 - f) + sh[b] * f,
        axes[a] * (1 - f[:, :, None]) + axes[b] * f[:, :, None],
    )


def smear(
    cen: np.ndarray, sh: np.ndarray, axes: np.ndarray, members: list[list[int]], k: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[list[int]], list[int]]:
    """Motion blur as a box filter: each ball seen at all ``k`` samples is redrawn at enough evenly timed
    positions along its piecewise-linear path over the whole shutter time that copies are at most
    SMEAR_STEP_PX apart (a continuous streak, not k ghosts); a ball that did not move is drawn once.
    Balls missing from some samples (falling into a pocket) keep their samples, each at 1 / k."""
    full = [i for i, mem in enumerate(members) if len(mem) == k]
    idx = np.array([members[i] for i in full], dtype=np.int64).reshape(-1, k)
    c = cen[idx]
    path = np.linalg.norm(np.diff(c, axis=1), axis=2).sum(axis=1) * (k / (k - 1))
    copies = np.clip(np.ceil(path / SMEAR_STEP_PX), 1, SMEAR_MAX_COPIES).astype(np.int64).tolist()
    parts: list[Copies] = []
    out_m: list[list[int]] = [[] for _ in members]
    weights = [k] * len(members)
    n = 0

    def put(i: int, part: Copies) -> None:
        nonlocal n
        parts.append(part)
        out_m[i] = list(range(n, n + len(part[0])))
        n += len(part[0])

    still = [j for j, m in enumerate(copies) if m == 1]
    if still:  # one copy each, at the middle sample
        mid = idx[still, k // 2]
        for j, i in enumerate(full[jj] for jj in still):
            out_m[i] = [n + j]
            weights[i] = 1
        parts.append((cen[mid], sh[mid], axes[mid]))
        n += len(mid)
    for j, m in enumerate(copies):
        if m > 1:
            put(full[j], _streak(cen, sh, axes, idx[j], m, k))
            weights[full[j]] = m
    for i, mem in enumerate(members):
        if len(mem) != k:
            put(i, (cen[mem], sh[mem], axes[mem]))
    return (
        np.concatenate([p[0] for p in parts]),
        np.concatenate([p[1] for p in parts]),
        np.concatenate([p[2] for p in parts]),
        out_m,
        weights,
    )


def splat_plan(
    centres: np.ndarray,
    axes: np.ndarray,
    r_bin: np.ndarray,
    sprite_c: np.ndarray,
    group: np.ndarray,
    n_groups: int,
    size: tuple[int, int],
) -> tuple[list[list[int]], np.ndarray]:
    """For sprites drawn at ``centres`` through ``axes`` into an image of ``size`` (width, height): each
    group's ROI (x0, y0, x1, y1) in the image and each entry's affine (sprite px -> ROI px), all at once
    rather than per ball."""
    scale = (sprite_c / r_bin)[:, None]
    half = (np.abs(axes[:, :, 0]) + np.abs(axes[:, :, 1])) * scale
    lo, hi = centres - half, centres + half
    glo = np.full((n_groups, 2), np.inf)
    ghi = np.full((n_groups, 2), -np.inf)
    np.minimum.at(glo, group, lo)
    np.maximum.at(ghi, group, hi)
    bound = np.array(size)
    b0 = np.clip(np.floor(glo).astype(np.int64) - 1, 0, bound)
    b1 = np.clip(np.ceil(ghi).astype(np.int64) + 2, 0, bound)
    m = axes / r_bin[:, None, None]
    t = centres - b0[group] - sprite_c[:, None] * (m[:, :, 0] + m[:, :, 1])
    mats = np.concatenate([m, t[:, :, None]], axis=2)
    return np.concatenate([b0, b1], axis=1).tolist(), mats
