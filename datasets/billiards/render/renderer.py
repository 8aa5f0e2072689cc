"""The renderer of one shot: the cached background, then per frame the balls (shadows, sprites, motion
blur), the pins, the occluders and the sensor noise, with the truth of every object drawn."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from arbiter.games import BilliardsSpec

from ..camera import Camera
from ..look import Look
from ..scene import SceneSample
from .background import build_background
from .balls import BallSprites, blend_ball, radius_bin, sprite_centre
from .blur import smear, splat_plan
from .draw import XY, gain_at
from .foreground import near_cushion_mask
from .frame import RenderedFrame, RenderedObject, Stroke, object_record
from .graphics import draw_score_bar, score_bar_mask
from .noise import SensorNoise
from .occluders import Occluders, draw_occluders, occluder_mask
from .pins import PinPainter
from .projector import light_by_projector, projector_gains
from .shadows import Shadows, shadow_centre


@dataclass(frozen=True)
class _Entries:
    """The balls on the table in one frame and their entries: one per ball and exposure sample it is in."""

    ids: list[str]
    members: list[list[int]]  # entries of each ball, in sample order
    xy_mm: list[XY]  # per entry
    mid_entry: list[int]  # each ball's entry at the middle sample


@dataclass(frozen=True)
class _Projected:
    """The entries seen by the camera: silhouettes, shadow centres, and each ball's true centre."""

    centres: np.ndarray  # per entry (N, 2) px
    axes: np.ndarray  # per entry (N, 2, 2): unit circle -> silhouette
    shadows: np.ndarray  # per entry (N, 2) px: where the shadow falls on the cloth
    radius: np.ndarray  # per entry (N,) px
    truth: np.ndarray  # per ball (B, 2) px: the centre at the middle sample


class TableRenderer:
    """Renders one shot's frames. Build it once per shot (the background and sprites are cached), then call
    ``render`` per frame. ``stroke`` places the cue stick (the physics knows the strike), ``clip_s`` (the
    clip duration) schedules the reaching arm of ``look.arm``; without them those occluders are not drawn."""

    def __init__(
        self,
        spec: BilliardsSpec,
        camera: Camera,
        look: Look,
        seed: int,
        *,
        stroke: Stroke | None = None,
        clip_s: float | None = None,
    ) -> None:
        if clip_s is not None and clip_s <= 0:
            raise ValueError(f"clip_s must be positive, got {clip_s}")
        self.spec, self.camera, self.look, self.seed = spec, camera, look, int(seed)
        self.stroke, self.clip_s = stroke, clip_s
        self._size = (camera.width, camera.height)
        self._sprites = BallSprites(spec, look, self.seed)
        self._shadows = Shadows(look)
        pins = {p.id: p for p in spec.table.pins}
        self._pins = PinPainter(spec.id, pins, camera, look, self._sprites, self._shadows)
        self._occluders = Occluders(spec.table, camera, look, self.seed, stroke, clip_s)
        bg = build_background(spec, camera, look, self.seed)
        self._bg, self._gain = bg.image, bg.gain
        self._bg.setflags(write=False)
        self._gain.setflags(write=False)
        self._noise = SensorNoise(camera.width, camera.height, look.noise_sigma, self.seed)
        # Near cushions in front of the balls (a camera behind one end): None for every overhead camera.
        self._near = near_cushion_mask(spec.table, camera)
        near_u8 = None if self._near is None else self._near.astype(np.uint8) * 255
        bar = score_bar_mask(look.score_bar, self._size)  # a broadcast's score graphic, over everything
        self._static_hide = bar if near_u8 is None else near_u8 if bar is None else np.maximum(near_u8, bar)
        self._projector = projector_gains(look.projector, self._size)  # None: no projector over the table

    @property
    def background(self) -> np.ndarray:
        """The static frame (read-only): the table without balls, noise or occluders."""
        return self._bg

    @property
    def gain(self) -> np.ndarray:
        """Per-pixel light (lamps x vignette x brightness, read-only) that balls are lit by."""
        return self._gain

    def render(self, exposure: Sequence[SceneSample]) -> RenderedFrame:
        """One frame from 1..K samples spread over the shutter time (K > 1 blurs moving balls). The truth
        (positions, boxes, time) is taken at the middle sample ``exposure[len // 2]``. The samples are read
        as the midpoints of K equal slices of the shutter time (``exposure_times``); the streak of a moving
        ball covers the whole shutter time, interpolated between them.

        Pins: a standing pin's ``xy_px`` is its head top, a fallen one's the middle of its length."""
        samples = tuple(exposure)
        if not samples:
            raise ValueError("render needs at least one scene sample")
        return self.compose(self._bg, self._gain, samples)

    def compose(self, bg: np.ndarray, gain: np.ndarray, samples: tuple[SceneSample, ...]) -> RenderedFrame:
        """``render`` onto a given background lit by ``gain`` (the bench's peer rebuilds it every frame)."""
        k = len(samples)
        mid = samples[k // 2]
        t = float(mid.t)
        img = bg.copy()
        entries = self._entries(samples, k // 2)
        occluders = self._occluders.polygons(t)
        occ_mask = occluder_mask(occluders, self._size) if occluders else None
        hide = occ_mask  # the near cushions and a score bar are drawn over the balls: hidden in the truth
        if self._static_hide is not None:
            hide = self._static_hide if occ_mask is None else np.maximum(occ_mask, self._static_hide)
        objects = self._balls(img, gain, entries, k, hide) if entries.ids else []
        if self._near is not None:
            np.copyto(img, bg, where=self._near[..., None])
        objects += self._pins.draw(img, mid.pins, gain, hide)
        draw_occluders(img, occluders, gain)
        light_by_projector(img, self._projector)
        self._noise.add(img, t)
        draw_score_bar(img, self.look.score_bar)
        return RenderedFrame(t, img, tuple(objects))

    def _entries(self, samples: tuple[SceneSample, ...], mid_i: int) -> _Entries:
        """The balls on the table at the middle sample, each with its place at every sample it is in."""
        ids = [b.id for b in samples[mid_i].balls if b.on_table]
        for bid in ids:
            if bid not in self._sprites.ball_ids:
                raise ValueError(f"{self.spec.id} has no ball {bid!r}")
        index = {bid: i for i, bid in enumerate(ids)}
        members: list[list[int]] = [[] for _ in ids]
        xy: list[XY] = []
        mid_entry = [0] * len(ids)
        for si, s in enumerate(samples):
            for b in s.balls:
                i = index.get(b.id)
                if i is not None and b.on_table:
                    if si == mid_i:
                        mid_entry[i] = len(xy)
                    members[i].append(len(xy))
                    xy.append(b.xy_mm)
        return _Entries(ids, members, xy, mid_entry)

    def _project(self, entries: _Entries) -> _Projected:
        r_mm = self.spec.table.ball_radius_mm
        n = len(entries.xy_mm)
        p = np.array(entries.xy_mm, dtype=np.float64)
        cen, axes = self.camera.sphere_axes_px(np.c_[p, np.full(n, r_mm)], r_mm)
        off = np.array(self.look.shadow_offset) * r_mm
        mid = p[entries.mid_entry]
        both = self.camera.project(
            np.concatenate([np.c_[p + off, np.zeros(n)], np.c_[mid, np.full(len(entries.ids), r_mm)]])
        )
        radius = np.sqrt(np.abs(axes[:, 0, 0] * axes[:, 1, 1] - axes[:, 0, 1] * axes[:, 1, 0]))
        return _Projected(cen, axes, both[:n], radius, both[n:])

    def _balls(
        self, img: np.ndarray, gain: np.ndarray, entries: _Entries, k: int, occ_mask: np.ndarray | None
    ) -> list[RenderedObject]:
        """Draw every ball (shadows first, then the balls, streaked over the shutter when k > 1) and
        return their truth at the middle sample."""
        geo = self._project(entries)
        tp = geo.truth.tolist()
        self._paint_balls(img, gain, entries, geo, tp, k)
        axes = geo.axes[entries.mid_entry]
        half = np.stack(
            [np.hypot(axes[:, 0, 0], axes[:, 0, 1]), np.hypot(axes[:, 1, 0], axes[:, 1, 1])], axis=1
        ).tolist()
        rad = geo.radius[entries.mid_entry].tolist()
        looks = self._sprites.looks
        return [
            object_record(bid, looks[bid].cls, tp[i], rad[i], half[i], occ_mask, self._size)
            for i, bid in enumerate(entries.ids)
        ]

    def _paint_balls(
        self,
        img: np.ndarray,
        gain: np.ndarray,
        entries: _Entries,
        geo: _Projected,
        truth_px: list[list[float]],
        k: int,
    ) -> None:
        n_balls = len(entries.ids)
        mid_bins = radius_bin(geo.radius[entries.mid_entry])  # one sprite per ball, sized at the middle
        mb = mid_bins.tolist()
        cen, sh_px, axes, members = geo.centres, geo.shadows, geo.axes, entries.members
        weights = [k] * n_balls  # each drawn copy of ball i carries 1 / weights[i]
        if k > 1:
            cen, sh_px, axes, members, weights = smear(cen, sh_px, axes, members, k)
        group = np.empty(len(cen), np.int64)
        for i, mem in enumerate(members):
            group[mem] = i
        bins = mid_bins[group]
        if self.look.shadow_strength > 0:
            sh_c = shadow_centre(bins, self.look.shadow_softness)
            boxes, mats = splat_plan(sh_px, axes, bins, sh_c, group, n_balls, self._size)
            for i, mem in enumerate(members):
                self._shadows.blend(img, boxes[i], [mats[j] for j in mem], mb[i], weights[i])
        boxes, mats = splat_plan(cen, axes, bins, sprite_centre(bins), group, n_balls, self._size)
        for i, bid in enumerate(entries.ids):
            cx, cy = truth_px[i]
            sprite = self._sprites.sprite(bid, mb[i])
            blend_ball(
                img, sprite, boxes[i], [mats[j] for j in members[i]], weights[i], gain_at(gain, cx, cy)
            )
