"""Circle fits of lone balls, all at once, vectorised over the balls of a frame.

Blobs of one ball's size start from their foreground centroid (a few mean-shift steps inside a disk a
little wider than the ball); *seeds* (a glint with little foreground around it: a ball of the cloth's own
colour, green on green) start at the glint. The centre is then the best radial-edge vote near the start
(a one-radius Hough transform over the colour structure tensor, sampled on a ring), the radius the best of a
few sizes, and coverage is read there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.cloth import score_patches

from .candidates import Candidates
from .kernels import SECTORS, bound, edge_maps, outline, parabola, sector_votes, seen_sectors
from .levels import SIZES, Scene

_ISOLATED_WINDOW = 1.8  # half-size of a lone ball's window, in radii
_SHIFT_REACH, _SHIFT_STEPS = 1.2, 2  # mean-shift disk (radii) and steps for a lone ball's centre
_SEARCH_STEPS = 3  # a lone ball's centre is searched +-1 px around its start, moving up to this often
_SEED_REACH = 0.55  # radii searched around a glint for the centre of its ball
_SIZE_MARGIN = 1.05  # how much better a vote must be to move a ball's radius off the nominal one
_GRID = np.array([-1, 0, 1])  # the hill-climbing grid around a centre
_GRID_Y, _GRID_X = (v.ravel() for v in np.meshgrid(_GRID, _GRID, indexing="ij"))


@dataclass(frozen=True)
class _Windows:
    """A square window of the fine level around each start, and what the cloth model says of it."""

    base: np.ndarray  # (N, 2) integer fine-level pixel at each window's centre
    half: int  # half-size: the window is 2 half + 1 pixels wide
    patch: np.ndarray  # N x S x S x 3 float32
    inside: np.ndarray  # N x S x S bool, inside the analysis mask
    score: np.ndarray  # N x S x S, the cloth model's foreground score (>= 1: foreground)
    ratio: np.ndarray  # N x S x S, brightness along the cloth colour

    @property
    def size(self) -> int:
        return 2 * self.half + 1

    @property
    def foreground(self) -> np.ndarray:
        fg: np.ndarray = (self.score >= 1.0) & self.inside
        return fg


def fit_isolated(scene: Scene, xy0: np.ndarray, seeded: np.ndarray) -> Candidates:
    """Lone balls, starting at fine-level points ``xy0`` (N, 2); ``seeded`` (N,) marks glints."""
    rf = scene.pyramid.fine_radius
    win = _windows(scene, xy0, math.ceil(_ISOLATED_WINDOW * rf))
    size = win.size
    fg = win.foreground
    fgm = fg.astype(np.float32)
    start = _mean_shift(fgm, (xy0 - win.base + win.half).astype(np.float32), ~seeded, rf)
    maps = edge_maps(win.patch.reshape(-1, size, 3)).reshape(3, len(xy0), size, size)
    centre, edge, scale = _best_ring(scene, maps, start, seeded)
    radius = rf * np.array(SIZES)[scale]
    g = np.arange(size, dtype=np.float32)
    dy = (g[None, :] - centre[:, 1, None].astype(np.float32)) ** 2
    dx = (g[None, :] - centre[:, 0, None].astype(np.float32)) ** 2
    disk = bound(
        (radius + 0.5).astype(np.float32)[:, None, None] - np.sqrt(dy[:, :, None] + dx[:, None, :]),
        0.0,
        1.0,
    )
    area = disk.sum(axis=(1, 2))
    sectors = np.zeros((len(start), SECTORS))
    seen = np.ones((len(start), SECTORS), bool)
    at_image = centre + win.base - win.half
    for k, kernels in enumerate(scene.pyramid.fine_sizes):
        at = np.nonzero(scale == k)[0]
        if len(at):
            sectors[at] = sector_votes(maps, centre[at], at, kernels, scene.edge_scale)
            seen[at] = seen_sectors(at_image[at], kernels, scene.fine.shape)
    coverage = (fgm * disk).sum(axis=(1, 2)) / area
    # A ball of the cloth's colour shows as its glint over a darker disk (shaded side and shadow): a seed,
    # and a lone blob too little of whose disk is foreground (its glint and shaded side joined in one blob),
    # is judged as one, on the share of its disk that is foreground or darker than the cloth.
    cfg = scene.config
    shaded = seeded | (coverage < cfg.min_coverage)
    dark_cover = np.zeros(len(start))
    if shaded.any():
        dark = fg[shaded] | ((win.ratio[shaded] < cfg.cloth.shadow) & win.inside[shaded])
        dark_cover[shaded] = (dark * disk[shaded]).sum(axis=(1, 2)) / area[shaded]
    as_seed = seeded | (shaded & (dark_cover >= cfg.min_seed_coverage))
    coverage = np.where(as_seed, dark_cover, coverage)
    return Candidates(
        centre + win.base - win.half,
        coverage,
        edge,
        outline(sectors, seen),
        np.zeros(len(start), bool),
        as_seed,
        radius,
        np.zeros(len(start), bool),
    )


def _windows(scene: Scene, xy0: np.ndarray, half: int) -> _Windows:
    """The window around each start, clamped to the image, scored against the cloth next to it."""
    fine = scene.fine
    ar = np.arange(-half, half + 1)
    hf, wf = fine.shape[:2]
    base = np.round(xy0).astype(np.int64)
    xs = bound(base[:, 0, None] + ar[None, :], 0, wf - 1)
    ys = bound(base[:, 1, None] + ar[None, :], 0, hf - 1)
    patch = fine[ys[:, :, None], xs[:, None, :]].astype(np.float32)  # N x S x S x 3
    inside = scene.geo.masks[scene.pyramid.fine][ys[:, :, None], xs[:, None, :]] > 0
    score, ratio = score_patches(patch, scene.cloth_at(xy0), scene.config.cloth)
    return _Windows(base, half, patch, inside, score, ratio)


def _mean_shift(fgm: np.ndarray, c: np.ndarray, shift: np.ndarray, rf: float) -> np.ndarray:
    """The foreground centroid near each start ``c`` (N, 2, patch coordinates, float32), found by a few
    mean-shift steps inside a disk a little wider than a ball; rows not in ``shift`` stay where they are."""
    size = fgm.shape[1]
    g = np.arange(size, dtype=np.float32)
    reach2 = np.float32((_SHIFT_REACH * rf) ** 2)
    for _ in range(_SHIFT_STEPS):
        near = ((g[None, :] - c[:, 1, None]) ** 2)[:, :, None] + ((g[None, :] - c[:, 0, None]) ** 2)[
            :, None, :
        ] <= reach2
        w = fgm * near
        m = w.sum(axis=(1, 2))
        ok = shift & (m > 0)
        c[ok, 0] = (w.sum(axis=1) @ g)[ok] / m[ok]
        c[ok, 1] = (w.sum(axis=2) @ g)[ok] / m[ok]
    return c


def _best_ring(
    scene: Scene, maps: np.ndarray, start: np.ndarray, seeded: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Centre (N, 2), edge vote (N,) and size (N,: index into ``SIZES``) of each ball: the nominal ring's
    best centre near the start, then each other size tried from there, kept where its vote is clearly
    better."""
    rf, edge_scale = scene.pyramid.fine_radius, scene.edge_scale
    sizes = scene.pyramid.fine_sizes
    centre, edge = ring_search(maps, start, seeded, sizes[0].ring_points, rf, edge_scale)
    scale = np.zeros(len(start), np.int64)
    plain = np.zeros(len(start), bool)
    for k, kernels in enumerate(sizes[1:], start=1):
        xy_k, edge_k = ring_search(maps, centre, plain, kernels.ring_points, rf, edge_scale)
        better = (edge_k > edge * _SIZE_MARGIN) & ~seeded  # a glint's ball is too faint to size
        centre[better], edge[better], scale[better] = xy_k[better], edge_k[better], k
    return centre, edge, scale


def ring_search(
    maps: np.ndarray,
    start: np.ndarray,
    seeded: np.ndarray,
    ring: tuple[np.ndarray, np.ndarray],
    rf: float,
    edge_scale: float,
) -> tuple[np.ndarray, np.ndarray]:
    """For each patch (maps: 3 x N x S x S edge maps), the centre near ``start`` (N, 2) with the best
    radial-edge vote and that vote: hill-climbing on a 3 x 3 grid (a lone ball's start is within a
    pixel or two; a glint may be half a radius from its ball's centre), then a parabola through the
    peak's neighbours for the sub-pixel position. ``ring``: the sparse ring's offsets and weights."""
    n, size = maps.shape[1], maps.shape[2]
    votes = _RingVotes(maps.reshape(3, -1), ring[0], ring[1].reshape(-1), size)
    c = np.round(start).astype(np.int64)
    steps = np.full(n, _SEARCH_STEPS)
    active = np.nonzero(~seeded)[0]
    if seeded.any():
        # A glint is up to half a radius from its ball's centre, and the vote between them is not
        # monotonic: search the whole neighbourhood, then refine on the 3 x 3 grid around the best.
        m = max(1, math.ceil(_SEED_REACH * rf))
        wide = np.arange(-m, m + 1)
        wy, wx = (v.ravel() for v in np.meshgrid(wide, wide, indexing="ij"))
        idx = np.nonzero(seeded)[0]
        best = votes.at(idx, c[idx, 0, None] + wx[None, :], c[idx, 1, None] + wy[None, :]).argmax(axis=1)
        c[idx] += np.stack([wx[best], wy[best]], axis=1)
        steps[idx] = 1
        active = np.arange(n)
    vote = _climb(votes, c, active, steps)
    by, bx = np.divmod(vote.reshape(n, -1).argmax(axis=1), 3)
    rows = np.arange(n)
    xy = np.stack(
        [
            c[:, 0] + _GRID[bx] + parabola(vote, rows, by, bx, axis=2),
            c[:, 1] + _GRID[by] + parabola(vote, rows, by, bx, axis=1),
        ],
        axis=1,
    )
    return xy, vote[rows, by, bx].astype(np.float64) * edge_scale


@dataclass(frozen=True)
class _RingVotes:
    """The sparse ring's vote over a stack of patches' edge maps."""

    flat: np.ndarray  # 3 x (N S S): the edge maps, flattened
    offsets: np.ndarray  # (P, 2)
    weights: np.ndarray  # (3 P,)
    size: int  # S

    def at(self, rows: np.ndarray, cx: np.ndarray, cy: np.ndarray) -> np.ndarray:
        """The vote (R, K) at integer centres ``cx``, ``cy`` (R, K) of the patches ``rows`` (R,)."""
        last = self.size - 1
        px = bound(cx[:, :, None] + self.offsets[None, None, :, 0], 0, last)
        py = bound(cy[:, :, None] + self.offsets[None, None, :, 1], 0, last)
        at = (rows[:, None, None] * self.size + py) * self.size + px
        gathered = self.flat[:, at].transpose(1, 2, 0, 3).reshape(len(rows), cx.shape[1], -1)
        return np.asarray(gathered @ self.weights)


def _climb(votes: _RingVotes, c: np.ndarray, active: np.ndarray, steps: np.ndarray) -> np.ndarray:
    """Hill-climb each active centre ``c`` (N, 2, moved in place) on the 3 x 3 grid around it, at most
    ``steps`` (N,) times; returns the last grid of votes (N x 3 x 3) around every centre."""
    vote = np.zeros((len(c), 3, 3), np.float32)
    for step in range(_SEARCH_STEPS):
        cx = c[active, 0, None] + _GRID_X[None, :]
        cy = c[active, 1, None] + _GRID_Y[None, :]
        vote[active] = votes.at(active, cx, cy).reshape(-1, 3, 3)
        best = vote[active].reshape(len(active), -1).argmax(axis=1)
        # A peak on the grid's rim may lie beyond it: step there and look again.
        moved = (best != 4) & (step + 1 < steps[active])
        c[active[moved]] += np.stack([_GRID_X[best[moved]], _GRID_Y[best[moved]]], axis=1)
        active = active[moved]
        if len(active) == 0:
            break
    return vote
