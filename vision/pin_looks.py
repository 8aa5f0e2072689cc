"""Five-pins without a network: is each pin standing on its spot? (the classical detector's pins).

Pins stand on known spots, so nothing has to be searched for: each frame, each pin's head is looked at where
the calibration puts it (the spot, at the pin's height, give or take ``slack_px``) and compared with a ring
round it. A standing pin's head is a small white (or red) disc that stands out from the cloth and from the
line and spot mark it stands on; once the pin is down, what is left there is the spot's mark on its line, or
bare cloth, colours the ring round it shows too. How much a head stands out (``stand_out``: the largest
distance of a pixel of the disc from the nearest colour of the ring) depends on the pin, the light and the
camera, so each pin is compared with itself: its stand-out while standing is learnt
over the first frames (pins stand at the start of a game, and are stood up again between shots) and
followed slowly after, and the pin reads standing while it keeps ``keep`` of it.

A ball over a pin or beside it hides what is to be measured: ring pixels inside a detected ball are left
out, and a pin whose head is under a ball, or whose ring is mostly covered, keeps what it last read (a pin
is only down once the ball that knocked it has moved off its spot; ``tracking.pins`` times the fall at the
ball's touch). The output is the pins read standing, at their spots, as the network's
detector gives them (``Pins``); ``tracking.pins.PinWatch`` turns missing pins into ``pin_down`` events.

Heads too small to measure (``min_head_px``, a radius) are not looked at: ``PinLooks.of`` returns None and
the run says the pins are not watched.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from arbiter.tables import TableModel
from vision.camera_profile import TableCalibration
from vision.types import Pins

_MIN_RING_PX = 1.5  # the ring's gap and width at least this: a pixel or two of cloth all round


@dataclass(frozen=True)
class PinLookConfig:
    """``keep``: a pin reads standing while its head stands out at least this share of its learnt stand-out
    (standing heads of the renders keep 0.9 or more of it as balls and light move; the spots' marks left by
    fallen pins 0.55-0.6). ``learn_frames``: frames whose median stand-out is a pin's first reference.
    ``follow``: blend of each standing frame into the reference (light that changes over minutes).
    ``slack_px``: how far from where the calibration puts it a head is looked for (the calibration's own
    error at the middle of the table, a pixel or two). ``ring``: the gap between the disc looked at and the
    ring round it, and the ring's width, in head radii (at least ``_MIN_RING_PX`` each). ``min_ring_share``:
    share of the ring that must be clear of balls to measure. ``min_head_px``: the smallest head radius (px)
    looked at."""

    keep: float = 0.75
    learn_frames: int = 10
    follow: float = 0.02
    slack_px: float = 1.5
    ring: tuple[float, float] = (1.0, 1.5)
    min_ring_share: float = 0.4
    min_head_px: float = 1.2

    def __post_init__(self) -> None:
        if not 0.0 < self.keep < 1.0:
            raise ValueError(f"PinLookConfig.keep must be in (0, 1), got {self.keep}")
        if self.learn_frames < 1 or not 0.0 <= self.follow < 1.0:
            raise ValueError(
                f"PinLookConfig needs learn_frames >= 1 and follow in [0, 1) (got {self.learn_frames}, "
                f"{self.follow})"
            )
        if self.slack_px < 0.0 or min(self.ring) <= 0.0:
            raise ValueError(
                f"PinLookConfig needs slack_px >= 0 and a ring of positive gap and width (got "
                f"{self.slack_px}, {self.ring})"
            )

        if not 0.0 < self.min_ring_share <= 1.0 or self.min_head_px <= 0.0:
            raise ValueError(
                f"PinLookConfig needs min_ring_share in (0, 1] and min_head_px > 0 (got "
                f"{self.min_ring_share}, {self.min_head_px})"
            )

    def reach(self, head_radius_px: float) -> tuple[float, float, float]:
        """The radii (px) of the disc looked at for a head of ``head_radius_px``, and of its ring's inner and
        outer edges."""
        looked = head_radius_px + 0.5 + self.slack_px
        inner = looked + max(self.ring[0] * head_radius_px, _MIN_RING_PX)
        return looked, inner, inner + max(self.ring[1] * head_radius_px, _MIN_RING_PX)


@dataclass
class _Pin:
    """One pin's head in the image: the window round it, the pixels of the disc looked at and of the ring
    (image coordinates, and indices into the window's pixels), its learnt stand-out and what it last read."""

    xy_mm: np.ndarray
    head_px: np.ndarray  # (2,) the head's centre in the image
    window: tuple[slice, slice]
    disc: np.ndarray  # (n,) indices of the disc's pixels in the window, row-major
    disc_xy: np.ndarray  # (n, 2) their image coordinates
    ring: np.ndarray
    ring_xy: np.ndarray
    outer_px: float  # the ring's outer radius
    learnt: list[float]
    reference: float | None = None
    standing: bool = True

    @classmethod
    def at(cls, xy_mm: np.ndarray, head_px: np.ndarray, radius: float, cfg: PinLookConfig) -> _Pin:
        looked, inner, outer = cfg.reach(radius)
        reach = int(np.ceil(outer + 1.0))
        cx, cy = (int(v) for v in np.round(head_px))
        ys, xs = np.mgrid[cy - reach : cy + reach + 1, cx - reach : cx + reach + 1]
        xy = np.stack([xs.ravel(), ys.ravel()], axis=1).astype(np.float64)
        d = np.linalg.norm(xy - head_px, axis=1)
        disc, ring = np.flatnonzero(d <= looked), np.flatnonzero((d >= inner) & (d <= outer))
        window = (slice(cy - reach, cy + reach + 1), slice(cx - reach, cx + reach + 1))
        return cls(xy_mm, head_px, window, disc, xy[disc], ring, xy[ring], outer, [])


class PinLooks:
    """Each frame, which pins stand on their spots. Build with ``of``."""

    def __init__(self, pins: list[_Pin], config: PinLookConfig) -> None:
        self.config = config
        self._pins = pins

    @classmethod
    def of(
        cls,
        table: TableModel,
        calib: TableCalibration,
        image_shape: tuple[int, ...],
        config: PinLookConfig | None = None,
    ) -> PinLooks | None:
        """The pins of ``table`` as ``calib`` sees them in images of ``image_shape``; None when the table has
        no pins, or a head is too small to measure or its ring is not wholly in the image."""
        cfg = config or PinLookConfig()
        if not table.pins:
            return None
        xy = np.array([p.xy_mm for p in table.pins], np.float64)
        heads = np.array([calib.mm_to_px(xy[k : k + 1], p.height_mm)[0] for k, p in enumerate(table.pins)])
        radii = np.array(
            [
                float(calib.radius_px(xy[k : k + 1], p.head_diameter_mm / 2)[0])
                for k, p in enumerate(table.pins)
            ]
        )
        h, w = image_shape[:2]
        reach = np.array([cfg.reach(r)[2] for r in radii]) + 1.0
        inside = (heads[:, 0] - reach >= 0) & (heads[:, 0] + reach <= w - 1)
        inside &= (heads[:, 1] - reach >= 0) & (heads[:, 1] + reach <= h - 1)
        if radii.min() < cfg.min_head_px or not inside.all():
            return None
        pins = [_Pin.at(xy[k], heads[k], float(radii[k]), cfg) for k in range(len(xy))]
        return cls(pins, cfg)

    def look(self, image: np.ndarray, balls_xy_px: np.ndarray, balls_radius_px: np.ndarray) -> Pins:
        """The pins standing in ``image`` (H x W x 3 uint8), the balls detected in it given (px centres and
        radii) so that what they cover is not read as a pin or as cloth."""
        balls_xy = np.asarray(balls_xy_px, np.float64).reshape(-1, 2)
        balls_r = np.asarray(balls_radius_px, np.float64).reshape(-1)
        for pin in self._pins:
            out = self._stand_out(image, pin, balls_xy, balls_r)
            if out is not None:
                self._read(pin, out)
        standing = [p for p in self._pins if p.standing]
        n = len(standing)
        xy = np.array([p.xy_mm for p in standing], np.float64).reshape(n, 2)
        return Pins(xy, np.zeros(n, bool), np.ones(n))

    def _stand_out(
        self, image: np.ndarray, pin: _Pin, balls_xy: np.ndarray, balls_r: np.ndarray
    ) -> float | None:
        """How far the most distinct pixel of the disc looked at is from every colour of the ring round it
        (8-bit levels): a head stands out from the cloth and from the lines and spot marks beside it, where
        an empty spot shows only what is also in the ring. None when a ball covers the disc or most of the
        ring."""
        pixels = image[pin.window].reshape(-1, 3)
        disc, ring = pixels[pin.disc].astype(np.float32), pixels[pin.ring].astype(np.float32)
        near = np.linalg.norm(balls_xy - pin.head_px, axis=1) <= balls_r + 1.0 + pin.outer_px
        clear = np.ones(len(ring), bool)
        for (bx, by), br in zip(balls_xy[near], balls_r[near], strict=True):
            if (np.hypot(pin.disc_xy[:, 0] - bx, pin.disc_xy[:, 1] - by) <= br + 1.0).any():
                return None
            clear &= np.hypot(pin.ring_xy[:, 0] - bx, pin.ring_xy[:, 1] - by) > br + 1.0
        if clear.sum() < self.config.min_ring_share * len(ring):
            return None
        ring = ring[clear]
        # |a - b|^2 = |a|^2 + |b|^2 - 2 a.b, one small matrix product for every pair
        apart = (disc * disc).sum(axis=1)[:, None] + (ring * ring).sum(axis=1)[None, :] - 2.0 * disc @ ring.T
        return float(np.sqrt(max(float(apart.min(axis=1).max()), 0.0)))

    def _read(self, pin: _Pin, stand_out: float) -> None:
        """Standing or not against the pin's reference, learnt from its first frames and then followed."""
        cfg = self.config
        if pin.reference is None:
            pin.learnt.append(stand_out)
            if len(pin.learnt) >= cfg.learn_frames:
                pin.reference = float(np.median(pin.learnt))
            pin.standing = True
            return
        share = stand_out / max(pin.reference, 1e-6)
        pin.standing = share >= cfg.keep
        if cfg.keep <= share <= 1.0 / cfg.keep:
            pin.reference += cfg.follow * (stand_out - pin.reference)
