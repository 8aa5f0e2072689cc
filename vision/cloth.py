"""The cloth model: what the bare table looks like under the room's light, so that anything else on it is
foreground.

The cloth is one dye lit unevenly (lamps, vignetting), so it is modelled as a smooth colour field: one
colour per cell of a coarse grid, estimated from the pixels that look like cloth and blended slowly into
the previous estimate, so balls, hands and the cue never pull it (they are foreground and ignored) and a
light that dims over minutes is followed. A pixel is compared with the field in two parts, which is what
separates a ball from its own shadow: how much brighter or darker it is *along* the cloth colour
(``ratio``), and how far its colour turns *away* from it (``chroma``, relative to the cloth brightness).
A shadow only darkens the cloth (ratio < 1, chroma ~ 0); a ball changes the colour, or is much brighter
(white, ivory, highlights) or much darker (black) than any shadow.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

_SUM3 = np.ones((1, 3), np.float32)  # cv2.transform kernel: sum of the three channels
_WHITE = 255.0  # the sensor's top level, each channel
_INIT_SAMPLES = 20_000  # pixels sampled for the first, global cloth colour (median): plenty, and fast
_INIT_PASSES = 2  # re-estimations of the field from scratch: the first drops balls, the second settles
_MIN_COLOUR = 1.0  # 8-bit levels: keeps ratios finite on a black frame
_FILL_SIGMA = 0.25  # grid cells with no cloth in view are filled by a blur this wide (share of the grid)
# find_table: working size (image shrunk by this, at least this many px) and its loose thresholds.
_FIND_SHRINK, _FIND_MIN_PX = 8, 16
_FIND_CHROMA, _FIND_SHADOW = 0.25, 0.5


@dataclass(frozen=True)
class ClothConfig:
    """Thresholds of the cloth model, all relative to the local cloth colour so they hold for any cloth
    and any exposure. Each trades missed balls (too strict) against false foreground (too loose)."""

    # Colour turn away from the cloth, as |I - ratio * cloth| / |cloth|. Cloth grain, sensor noise and
    # compression stay below ~0.06 at the coarse level; a red ball on green cloth is ~1, a green ball on a
    # slightly different green ~0.2 (closer ones are found by their glint instead).
    chroma: float = 0.15
    # Brighter than the cloth by this factor: white, ivory and pink balls, highlights. Lamps' pools of light
    # are in the field already; too low and chalk marks and worn patches become foreground.
    bright: float = 1.35
    # ... or, where the cloth is exposed so bright that the sensor's white is less than ``bright`` times
    # it (a pale cloth, a camera exposing for a dark room), this share of the way from the cloth to white:
    # there every ball brighter than the cloth is clipped near white, and ``bright`` would find none.
    headroom: float = 0.5
    # ... but never less than this brighter: the cloth's own grain and noise.
    min_bright: float = 1.06
    # Darker than this share of the cloth is foreground even in the cloth's hue (black ball, pocket
    # holes). Contact shadows keep >= 0.35 of the light, so going above ~0.3 turns shadows into balls.
    dark: float = 0.3
    # Darker than this (and not foreground) is shadow: kept out of the field so shadows do not darken it.
    shadow: float = 0.85
    # Grid cell, in coarse pixels: the field follows light this fine. Small cells let a big cluster of
    # balls (a rack) bias its cell; large ones miss the edge of a lamp's pool of light.
    cell_px: int = 8
    # Share of a cell that must look like cloth for it to update; emptier cells are filled from neighbours.
    min_cell_share: float = 0.3
    # Blend of each new estimate into the field: high follows light changes fast, low resists anything
    # that lingers on the cloth (a hand, a rack) being learnt as cloth.
    update_rate: float = 0.1
    # The field is re-estimated every this many frames: light changes over seconds, and learning costs
    # as much as classifying.
    learn_every: int = 4

    def __post_init__(self) -> None:
        if not 0.0 < self.chroma < 1.0:
            raise ValueError(f"ClothConfig.chroma must be in (0, 1), got {self.chroma}")
        if not 1.0 < self.min_bright <= self.bright:
            raise ValueError(
                f"ClothConfig needs 1 < min_bright <= bright (brighter than the cloth), got "
                f"min_bright={self.min_bright}, bright={self.bright}"
            )
        if not 0.0 < self.headroom <= 1.0:
            raise ValueError(f"ClothConfig.headroom must be in (0, 1], got {self.headroom}")
        if not 0.0 < self.dark < self.shadow < 1.0:
            raise ValueError(
                f"ClothConfig needs 0 < dark < shadow < 1 (got dark={self.dark}, shadow={self.shadow})"
            )
        if self.cell_px < 2:
            raise ValueError(f"ClothConfig.cell_px must be >= 2, got {self.cell_px}")
        if not 0.0 < self.min_cell_share <= 1.0:
            raise ValueError(f"ClothConfig.min_cell_share must be in (0, 1], got {self.min_cell_share}")
        if not 0.0 < self.update_rate <= 1.0:
            raise ValueError(f"ClothConfig.update_rate must be in (0, 1], got {self.update_rate}")
        if self.learn_every < 1:
            raise ValueError(f"ClothConfig.learn_every must be >= 1, got {self.learn_every}")


@dataclass(frozen=True)
class Foreground:
    """A pixel classification against the cloth. ``score`` is how far past the nearest threshold a pixel
    is (>= 1: foreground); ``mask`` is ``score >= 1``; ``cloth`` marks the lit cloth (neither foreground
    nor shadow), what the field is learnt from."""

    mask: np.ndarray  # H x W uint8, 1 = foreground
    score: np.ndarray  # H x W float32
    cloth: np.ndarray  # H x W uint8, 1 = lit cloth


def classify(
    image: np.ndarray,
    field: np.ndarray,
    field_sq: np.ndarray,
    cfg: ClothConfig,
    bright: np.ndarray | None = None,
) -> Foreground:
    """Classify ``image`` (H x W x 3 float32) against the cloth ``field`` (same shape) whose channel sum
    of squares is ``field_sq`` (H x W), and whose ``field_bright_scale`` is ``bright`` where already
    known. A handful of OpenCV passes."""
    dot = cv2.transform(cv2.multiply(image, field), _SUM3)
    sq = cv2.transform(cv2.multiply(image, image), _SUM3)
    inv = 1.0 / field_sq
    ratio = cv2.multiply(dot, inv)
    # |I|^2 - (I.B)^2 / |B|^2 is the squared part of I orthogonal to the cloth colour.
    chroma = cv2.sqrt(cv2.multiply(np.maximum(sq - cv2.multiply(dot, ratio), 0.0), inv))
    if bright is None:
        bright = field_bright_scale(field, field_sq, cfg)
    # One score: the largest of the three tests, each scaled so that its threshold is 1.
    score = cv2.max(chroma * (1.0 / cfg.chroma), cv2.multiply(ratio - 1.0, bright))
    score = cv2.max(score, (1.0 - ratio) * (1.0 / (1.0 - cfg.dark)))
    mask = (score >= 1.0).view(np.uint8)
    cloth = ((ratio >= cfg.shadow) & (score < 1.0)).view(np.uint8)
    return Foreground(mask, score, cloth)


class ClothModel:
    """The cloth colour field over one image geometry (the detector's coarse level). ``mask`` (H x W,
    nonzero = table) says where cloth is expected; the field is extrapolated smoothly beyond it."""

    def __init__(self, mask: np.ndarray, config: ClothConfig) -> None:
        mask = np.asarray(mask)
        if mask.ndim != 2 or not mask.any():
            raise ValueError("the cloth model needs a 2-D table mask with at least one table pixel")
        self.config = config
        self._mask = (mask > 0).astype(np.uint8)
        h, w = self._mask.shape
        self._grid_size = (max(1, round(w / config.cell_px)), max(1, round(h / config.cell_px)))
        self._grid: np.ndarray | None = None  # gh x gw x 3 float32, cloth colour per cell
        self._field = np.zeros((h, w, 3), np.float32)
        self._field_sq = np.ones((h, w), np.float32)
        self._bright = np.full((h, w), 1.0 / (config.bright - 1.0), np.float32)
        self._level = 1.0
        self._typical = np.ones(3, np.float32)
        self._cells_on_table = cv2.resize(self._mask, self._grid_size, interpolation=cv2.INTER_AREA) > 0
        self._frames = 0

    @property
    def ready(self) -> bool:
        return self._grid is not None

    @property
    def field(self) -> np.ndarray:
        """The cloth colour at every pixel (H x W x 3 float32, BGR levels)."""
        return self._field

    @property
    def field_sq(self) -> np.ndarray:
        """The field's channel sum of squares (H x W)."""
        return self._field_sq

    @property
    def typical(self) -> np.ndarray:
        """The cloth's typical colour (3,) over the table: its cells' median, channel by channel."""
        return self._typical

    @property
    def level(self) -> float:
        """The cloth's typical brightness: the length of its BGR colour vector, averaged over the grid."""
        return self._level

    def reset(self) -> None:
        """Forget the cloth (a new table, a cut in the video): the next frame learns it from scratch."""
        self._grid = None
        self._frames = 0

    def update(self, image: np.ndarray) -> Foreground:
        """Classify ``image`` (H x W x 3 float32) and learn the cloth from it. The first frame estimates
        the field from scratch (global median colour, then cell by cell); later frames blend in slowly."""
        if self._grid is None:
            self._initialise(image)
        fg = classify(image, self._field, self._field_sq, self.config, self._bright)
        self._frames += 1
        if self._frames % self.config.learn_every == 0:
            self._learn(image, cv2.bitwise_and(fg.cloth, self._mask), self.config.update_rate)
        return fg

    def _initialise(self, image: np.ndarray) -> None:
        ys, xs = np.nonzero(self._mask)
        step = max(1, len(ys) // _INIT_SAMPLES)
        colour = np.median(image[ys[::step], xs[::step]], axis=0).astype(np.float32)
        gw, gh = self._grid_size
        self._grid = np.empty((gh, gw, 3), np.float32)
        self._grid[:] = np.maximum(colour, _MIN_COLOUR)
        self._render()
        # The first guess is one colour over the whole bed, so its first pass is against ``bright`` alone,
        # however bright the cloth: a lamp's pool 1.2-1.3 times the rest is cloth to learn, where the
        # sensor's room would call it foreground and leave the field dark there. The passes after it, the
        # field near, leave out what the room says is brighter than the cloth (a clipped white ball).
        plain = np.full_like(self._bright, 1.0 / (self.config.bright - 1.0))
        for k in range(_INIT_PASSES):
            fg = classify(image, self._field, self._field_sq, self.config, plain if k == 0 else self._bright)
            self._learn(image, cv2.bitwise_and(fg.cloth, self._mask), 1.0)

    def _learn(self, image: np.ndarray, cloth: np.ndarray, rate: float) -> None:
        """Blend the per-cell mean of the cloth pixels into the grid; cells with too few of them are
        filled from their neighbours (normalised convolution), so the field never has holes."""
        grid = self._grid
        if grid is None:
            return
        size = self._grid_size
        masked = np.zeros_like(image)
        cv2.copyTo(image, cloth, masked)
        share = cv2.resize(cloth.astype(np.float32), size, interpolation=cv2.INTER_AREA)
        estimate = cv2.resize(masked, size, interpolation=cv2.INTER_AREA) / np.maximum(share, 1e-6)[..., None]
        valid = share >= self.config.min_cell_share
        if not valid.all():
            w = valid.astype(np.float32)
            sigma = max(1.0, _FILL_SIGMA * max(size))
            filled = cv2.GaussianBlur(estimate * w[..., None], (0, 0), sigma)
            norm = cv2.GaussianBlur(w, (0, 0), sigma)
            estimate = np.where(valid[..., None], estimate, filled / np.maximum(norm, 1e-6)[..., None])
            # With no cloth in view anywhere near, keep the current colour rather than inventing one.
            valid |= norm > 1e-4
        grid[valid] += rate * (estimate[valid] - grid[valid])
        np.maximum(grid, _MIN_COLOUR, out=grid)
        self._render()

    def _render(self) -> None:
        if self._grid is None:
            return
        h, w = self._mask.shape
        self._field = np.asarray(cv2.resize(self._grid, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)
        self._field_sq = np.asarray(cv2.transform(cv2.multiply(self._field, self._field), _SUM3), np.float32)
        self._bright = field_bright_scale(self._field, self._field_sq, self.config)
        self._level = float(np.sqrt((self._grid * self._grid).sum(axis=2).mean()))
        cells = self._grid[self._cells_on_table] if self._cells_on_table.any() else self._grid.reshape(-1, 3)
        self._typical = np.median(cells, axis=0).astype(np.float32)


def field_bright_scale(field: np.ndarray, field_sq: np.ndarray, cfg: ClothConfig) -> np.ndarray:
    """``bright_scale`` at every pixel of a cloth ``field`` (H x W x 3) whose channel sum of squares is
    ``field_sq``: the sensor's white along the cloth colour is 255 times the field's channel sum over it."""
    white = cv2.divide(cv2.transform(field, _SUM3), field_sq, scale=_WHITE)
    return bright_scale(white, cfg)


def bright_scale(white: np.ndarray, cfg: ClothConfig) -> np.ndarray:
    """1 over how much brighter than the cloth a pixel must be to be foreground, given ``white``, the
    ratio along the cloth colour the sensor's white reaches: ``cfg.bright``, or where the cloth is too
    bright for that, ``cfg.headroom`` of the way to white (never under ``cfg.min_bright``)."""
    limit = np.clip(1.0 + cfg.headroom * (white - 1.0), cfg.min_bright, cfg.bright)
    return np.asarray(1.0 / (limit - 1.0), np.float32)


def score_patches(patch: np.ndarray, colour: np.ndarray, cfg: ClothConfig) -> tuple[np.ndarray, np.ndarray]:
    """``classify``'s score and brightness ratio for a stack of small patches (N x S x S x 3) against one
    cloth colour per patch (N x 3), in numpy: on tiny arrays OpenCV's per-call cost would dominate.
    Channels are handled one by one, as numpy reduces over a short last axis slowly."""
    colour = colour.astype(np.float32)
    inv = (1.0 / (colour * colour).sum(axis=1))[:, None, None]
    p0, p1, p2 = patch[..., 0], patch[..., 1], patch[..., 2]
    dot = p0 * colour[:, 0, None, None] + p1 * colour[:, 1, None, None] + p2 * colour[:, 2, None, None]
    ratio = dot * inv
    chroma = np.sqrt(np.maximum(p0 * p0 + p1 * p1 + p2 * p2 - dot * ratio, 0.0) * inv)
    white = _WHITE * colour.sum(axis=1)[:, None, None] * inv
    score = np.maximum(chroma * (1.0 / cfg.chroma), (ratio - 1.0) * bright_scale(white, cfg))
    return np.maximum(score, (1.0 - ratio) * (1.0 / (1.0 - cfg.dark))), ratio


def find_table(image: np.ndarray) -> np.ndarray:
    """The table (uint8 mask, 1 inside) without a calibration: the cloth is the largest region of the
    colour of the image centre's median, and the table its filled convex hull. For a camera that frames
    the table; a calibration's mask is better (it knows the cushions)."""
    h, w = image.shape[:2]
    size = (max(_FIND_MIN_PX, w // _FIND_SHRINK), max(_FIND_MIN_PX, h // _FIND_SHRINK))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    sh, sw = small.shape[:2]
    centre = small[sh // 4 : 3 * sh // 4, sw // 4 : 3 * sw // 4].reshape(-1, 3)
    field = np.ascontiguousarray(np.broadcast_to(np.median(centre, axis=0), small.shape), dtype=np.float32)
    field_sq = np.maximum(cv2.transform(cv2.multiply(field, field), _SUM3), _MIN_COLOUR)
    # Loose thresholds: lamps and vignetting change the cloth's brightness across the table.
    fg = classify(small, field, field_sq, ClothConfig(chroma=_FIND_CHROMA, shadow=_FIND_SHADOW))
    cloth = (fg.mask == 0).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(cloth, connectivity=4)
    if n <= 1:
        return np.ones((h, w), np.uint8)
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    hull = cv2.convexHull(cv2.findNonZero((labels == biggest).astype(np.uint8))).astype(np.float64)
    scale = np.array([w / sw, h / sh])
    mask = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(mask, np.round(hull * scale).astype(np.int32), 1)
    return mask
