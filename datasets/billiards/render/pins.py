"""Five-pins pins: a shadow, the body as a short bar from base to head, the head drawn like a tiny ball.

A standing pin seen from above is mostly its head; off-axis, or lying down, its body shows as a bar. The
truth's point of a standing pin is its head top (what the camera sees), of a fallen one the middle of its
length.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from arbiter.tables import PinSpec

from ..camera import Camera
from ..look import Look
from ..scene import PinState
from .balls import BallSprites, blend_ball, radius_bin, sprite_centre
from .blur import splat_plan
from .draw import PIXEL_SHIFT, bgr, gain_at
from .frame import RenderedObject, object_record
from .shadows import Shadows, shadow_centre

PIN_SHADOW_SCALE = 1.3  # a pin's shadow is a little wider than its head
PIN_BODY_SHADE = 0.8  # the pin's side, less lit than its top


def _pin_points(spec: PinSpec, pin: PinState) -> np.ndarray:
    """Base, head and reference point of a pin in mm (3, 3): standing, the head top twice (the reference
    is what the camera sees); lying down at head height, the head end and the middle of its length."""
    x, y = pin.xy_mm
    if pin.down:
        dx, dy = math.cos(pin.fall_angle_rad), math.sin(pin.fall_angle_rad)
        zb = spec.head_diameter_mm / 2
        return np.array(
            [
                [x, y, zb],
                [x + dx * spec.height_mm, y + dy * spec.height_mm, zb],
                [x + dx * spec.height_mm / 2, y + dy * spec.height_mm / 2, zb],
            ]
        )
    return np.array([[x, y, 0.0], [x, y, spec.height_mm], [x, y, spec.height_mm]])


@dataclass(frozen=True)
class PinPainter:
    """Draws the pins of a game's table, sharing the renderer's camera, look, sprites and shadows."""

    game: str  # the game's id, for messages
    specs: dict[str, PinSpec]
    camera: Camera
    look: Look
    sprites: BallSprites
    shadows: Shadows

    def draw(
        self, img: np.ndarray, pins: Sequence[PinState], gain: np.ndarray, occ_mask: np.ndarray | None
    ) -> list[RenderedObject]:
        out: list[RenderedObject] = []
        for pin in pins:
            spec = self.specs.get(pin.id)
            if spec is None:
                raise ValueError(f"{self.game} has no pin {pin.id!r}")
            out.append(self._draw_one(img, pin, spec, gain, occ_mask))
        return out

    def _draw_one(
        self, img: np.ndarray, pin: PinState, spec: PinSpec, gain: np.ndarray, occ_mask: np.ndarray | None
    ) -> RenderedObject:
        cam, look, size = self.camera, self.look, (self.camera.width, self.camera.height)
        x, y = pin.xy_mm
        pts = _pin_points(spec, pin)
        base_px, head_px, ref_px = cam.project(pts)
        head_c = pts[1:2].copy()
        head_c[0, 2] -= spec.head_diameter_mm / 2 if not pin.down else 0.0
        centre, axes = cam.sphere_axes_px(head_c, spec.head_diameter_mm / 2)
        head_r = math.sqrt(abs(float(np.linalg.det(axes[0]))))
        scale = float(cam.px_per_mm(pts[2:3])[0])
        g = gain_at(gain, float(ref_px[0]), float(ref_px[1]))
        sh_off = np.array(look.shadow_offset) * spec.head_diameter_mm
        sh_px = cam.project(np.array([[x + sh_off[0], y + sh_off[1], 0.0]]))
        one = np.zeros(1, np.int64)
        r_bin = radius_bin(np.array([head_r]))
        if look.shadow_strength > 0:
            sh_bin = radius_bin(np.array([head_r * PIN_SHADOW_SCALE]))
            sh_c = shadow_centre(sh_bin, look.shadow_softness)
            boxes, mats = splat_plan(sh_px, axes * PIN_SHADOW_SCALE, sh_bin, sh_c, one, 1, size)
            self.shadows.blend(img, boxes[0], [mats[0]], float(sh_bin[0]), 1)
        # The body shows as a short bar from the base to the head when off-axis or lying down.
        body = tuple(float(c) * g * PIN_BODY_SHADE for c in bgr(self.sprites.looks[pin.id].rgb))
        f = 1 << PIXEL_SHIFT
        cv2.line(
            img,
            (round(float(base_px[0]) * f), round(float(base_px[1]) * f)),
            (round(float(head_px[0]) * f), round(float(head_px[1]) * f)),
            body,
            max(1, round(spec.base_diameter_mm * scale)),
            cv2.LINE_AA,
            PIXEL_SHIFT,
        )
        boxes, mats = splat_plan(centre, axes, r_bin, sprite_centre(r_bin), one, 1, size)
        blend_ball(img, self.sprites.sprite(pin.id, float(r_bin[0])), boxes[0], [mats[0]], 1, g)
        if pin.down:
            half = (abs(head_px[0] - base_px[0]) / 2 + head_r, abs(head_px[1] - base_px[1]) / 2 + head_r)
            return object_record(pin.id, "pin_down", ref_px, head_r, half, occ_mask, size)
        return object_record(pin.id, "pin_standing", head_px, head_r, (head_r, head_r), occ_mask, size)
