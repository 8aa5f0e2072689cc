"""What comes between the camera and the balls: the cue stick and its bridge hand around the stroke, and
an arm reaching over the table. Each is a deterministic function of the seed and the time, drawn as flat,
lit polygons projected from table millimetres; the balls they cover are marked hidden in the truth."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from arbiter.tables import TableModel

from ..camera import Camera
from ..look import CueLook, Look
from .draw import PIXEL_SHIFT, RGB, bgr, fixed, gain_at, stable_hash
from .frame import Stroke

# --- cue, hands and arms (mm, s) ---
CUE_SHEEN = 0.3  # the lit stripe along the shaft, as a blend toward white
CUE_SHEEN_WIDTH, CUE_SHEEN_SHIFT = 0.3, -0.2  # the stripe's width and offset, in stick widths
CUE_TIP_MM, CUE_FERRULE_MM = 12.0, 23.0  # leather tip, then the white ferrule
CUE_JOINT = 0.55  # fraction of the length from the tip where the shaft meets the dark butt
CUE_TIP_RGB, CUE_FERRULE_RGB = (150, 90, 60), (226, 234, 236)  # chalked blue tip, ivory ferrule
CUE_BACKSWING = 1.5  # the final backswing, in maximum feathering gaps
FOLLOW_S = 0.08  # the follow-through after the strike
WITHDRAW_EXTRA_MM = 800.0  # how far past its own length the stick is pulled out while withdrawing
BRIDGE_LIFT = 0.4  # the bridge hand leaves this fraction of the withdrawal time after the strike
BRIDGE_ARM = (0.6, 40.0, 300.0, 85.0)  # forearm bend off the cue line (rad), hand and elbow z, width
BRIDGE_SLEEVE_RGB = (40, 40, 44)
FOREARM_MM = 450.0  # bridge arm and reaching arm: forearm length drawn from the hand back
HAND_MM = (170.0, 95.0)  # hand ellipse length and width
WRIST = 0.45  # the sleeve starts this far along the hand, in hand lengths
ARM_TAPER = (0.35, 0.6, 0.7)  # half-widths at wrist, elbow, shoulder, in arm widths
ARM_RISE = (1.6, 2.5)  # elbow and shoulder height, in hand heights
ARM_BEND_RAD = 0.3  # +- random bend of a reaching forearm

Shape = tuple[np.ndarray, RGB]  # outline in table mm (N, 3) and its colour


@dataclass(frozen=True)
class Poly:
    """An occluder part in the image: outline and flat colour."""

    pts_px: np.ndarray  # (N, 2)
    bgr: tuple[float, ...]


def _cue_gap(t: float, cue: CueLook, stroke: Stroke) -> tuple[float, float]:
    """The tip's distance behind the cue ball (negative: past its start) and how far the withdrawal has
    gone (0..1, lifting the butt) at ``t``: feathering, the final backswing and delivery, the
    follow-through, then the withdrawal."""
    g_min, g_max = cue.gap_mm
    dt = t - stroke.t
    t_feather_end = stroke.t - cue.stroke_s
    if t < t_feather_end:
        phase = 2 * math.pi * cue.feather_hz * (t - t_feather_end)
        return g_min + (g_max - g_min) * 0.5 * (1 - math.cos(phase)), 0.0
    if dt < 0:
        p = (t - t_feather_end) / cue.stroke_s
        return (1 - p) * g_min + CUE_BACKSWING * g_max * math.sin(math.pi * p) ** 2, 0.0
    if dt < FOLLOW_S:
        return -cue.follow_mm * dt / FOLLOW_S, 0.0
    p = (dt - FOLLOW_S) / max(cue.withdraw_s - FOLLOW_S, 1e-6)
    return -cue.follow_mm + p * p * (cue.length_mm + WITHDRAW_EXTRA_MM), p


def hand_and_forearm(
    hand_c: np.ndarray,
    back: np.ndarray,
    bend_rad: float,
    z_hand: float,
    z_elbow: float,
    width_mm: float,
    colours: tuple[RGB, RGB],
) -> list[Shape]:
    """A hand ellipse at ``hand_c`` and a forearm leaving it along ``back`` turned by ``bend_rad``;
    ``colours`` are the sleeve's and the skin's."""
    c, s = math.cos(bend_rad), math.sin(bend_rad)
    d = np.array([back[0] * c - back[1] * s, back[0] * s + back[1] * c])
    perp = np.array([-d[1], d[0]])
    wrist = hand_c + d * HAND_MM[0] * WRIST
    elbow = hand_c + d * FOREARM_MM
    w_wrist, w_elbow = ARM_TAPER[0] * width_mm, ARM_TAPER[1] * width_mm
    arm = np.array(
        [
            [*(wrist + perp * w_wrist), z_hand],
            [*(elbow + perp * w_elbow), z_elbow],
            [*(elbow - perp * w_elbow), z_elbow],
            [*(wrist - perp * w_wrist), z_hand],
        ]
    )
    a = np.linspace(0, 2 * math.pi, 20, endpoint=False)
    hand = np.stack(
        [
            hand_c[0] + np.cos(a) * d[0] * HAND_MM[0] / 2 + np.sin(a) * perp[0] * HAND_MM[1] / 2,
            hand_c[1] + np.cos(a) * d[1] * HAND_MM[0] / 2 + np.sin(a) * perp[1] * HAND_MM[1] / 2,
            np.full_like(a, z_hand),
        ],
        axis=1,
    )
    sleeve, skin = colours
    return [(arm, sleeve), (hand, skin)]


@dataclass(frozen=True)
class Occluders:
    """The occluders of one shot. ``stroke`` places the cue stick (drawn when the look has one), ``clip_s``
    (the clip duration) schedules the reaching arm of ``look.arm``; without them those are not drawn."""

    table: TableModel
    camera: Camera
    look: Look
    seed: int
    stroke: Stroke | None = None
    clip_s: float | None = None

    def polygons(self, t: float) -> list[Poly]:
        """Polygons in draw order (pixels) of the cue stick, bridge hand and reaching arm at time ``t``."""
        shapes: list[Shape] = []
        cue = self.look.cue
        if cue is not None and self.stroke is not None:
            shapes += self._cue_shapes(t, cue, self.stroke)
        arm = self.look.arm
        if arm is not None and self.clip_s is not None:
            shapes += self._arm_shapes(t)
        if not shapes:
            return []
        pts = np.concatenate([s[0] for s in shapes])
        px = self.camera.project(pts)
        polys: list[Poly] = []
        i = 0
        for s, rgb in shapes:
            n = len(s)
            polys.append(Poly(px[i : i + n], tuple(float(c) for c in bgr(rgb))))
            i += n
        return polys

    def _cue_shapes(self, t: float, cue: CueLook, stroke: Stroke) -> list[Shape]:
        r = self.table.ball_radius_mm
        dt = t - stroke.t
        if dt >= cue.withdraw_s:
            return []
        gap, lift = _cue_gap(t, cue, stroke)
        ax, ay = math.cos(stroke.aim_rad), math.sin(stroke.aim_rad)
        bx, by = stroke.xy_mm
        elev = math.radians(cue.elevation_deg) * (1 + lift)
        tip = np.array([bx - ax * (r + gap), by - ay * (r + gap), r])
        axis = np.array([-ax * math.cos(elev), -ay * math.cos(elev), math.sin(elev)])
        perp = np.array([-ay, ax, 0.0])
        length = cue.length_mm

        def segment(f0: float, f1: float, w_scale: float = 1.0, shift: float = 0.0) -> np.ndarray:
            f = np.linspace(f0, f1, 6)
            pos = tip[None, :] + (f * length)[:, None] * axis[None, :]
            wid = (cue.tip_mm + (cue.butt_mm - cue.tip_mm) * f) * w_scale
            centre = pos + (shift * wid)[:, None] * perp[None, :]
            left = centre + (wid / 2)[:, None] * perp[None, :]
            right = centre - (wid / 2)[:, None] * perp[None, :]
            return np.concatenate([left, right[::-1]])

        tip_f, ferrule_f = CUE_TIP_MM / length, (CUE_TIP_MM + CUE_FERRULE_MM) / length
        sheen: RGB = tuple(int(c + CUE_SHEEN * (255 - c)) for c in cue.shaft_rgb)  # type: ignore[assignment]
        shapes: list[Shape] = [
            (segment(tip_f, ferrule_f), CUE_FERRULE_RGB),
            (segment(0.0, tip_f), CUE_TIP_RGB),
            (segment(ferrule_f, CUE_JOINT), cue.shaft_rgb),
            (segment(CUE_JOINT, 1.0), cue.butt_rgb),
            (segment(ferrule_f, CUE_JOINT, CUE_SHEEN_WIDTH, CUE_SHEEN_SHIFT), sheen),
        ]
        if cue.bridge_hand and dt < BRIDGE_LIFT * cue.withdraw_s:
            hand_c = np.array([bx - ax * (r + cue.bridge_mm), by - ay * (r + cue.bridge_mm)])
            bend, z_hand, z_elbow, width = BRIDGE_ARM
            arm = hand_and_forearm(
                hand_c, np.array([-ax, -ay]), bend, z_hand, z_elbow, width, (BRIDGE_SLEEVE_RGB, cue.skin_rgb)
            )
            shapes = [*arm, *shapes]
        return shapes

    def _arm_shapes(self, t: float) -> list[Shape]:
        arm, clip = self.look.arm, self.clip_s
        if arm is None or clip is None:
            return []
        t0 = arm.start_frac * clip
        t1 = t0 + arm.duration_frac * clip
        if not t0 <= t <= t1:
            return []
        move = max(min(arm.move_s, (t1 - t0) / 2), 1e-6)
        ext = min(1.0, (t - t0) / move, (t1 - t) / move)
        ext = 0.5 - 0.5 * math.cos(math.pi * ext)
        w, length = self.table.width_mm, self.table.length_mm
        reach = np.array([arm.reach_uv[0] * w, arm.reach_uv[1] * length])
        outside = self.table.cushion_width_mm + self.look.rail_width_mm + FOREARM_MM
        start = {
            "left": np.array([-outside, reach[1]]),
            "right": np.array([w + outside, reach[1]]),
            "bottom": np.array([reach[0], -outside]),
            "top": np.array([reach[0], length + outside]),
        }[arm.side]
        hand = start + (reach - start) * ext
        back = start - reach
        back = back / (np.linalg.norm(back) or 1.0)
        rng = np.random.default_rng([self.seed, stable_hash("arm")])
        bend = float(rng.uniform(-ARM_BEND_RAD, ARM_BEND_RAD))
        z_hand, z_elbow, z_shoulder = arm.height_mm, arm.height_mm * ARM_RISE[0], arm.height_mm * ARM_RISE[1]
        shapes = hand_and_forearm(
            hand, back, bend, z_hand, z_elbow, arm.width_mm, (arm.sleeve_rgb, arm.skin_rgb)
        )
        # The upper arm continues out of the frame.
        elbow = hand + back * FOREARM_MM
        far = elbow + back * 2 * FOREARM_MM
        perp = np.array([-back[1], back[0]])
        w_elbow, w_shoulder = ARM_TAPER[1] * arm.width_mm, ARM_TAPER[2] * arm.width_mm
        upper = np.array(
            [
                [*(elbow + perp * w_elbow), z_elbow],
                [*(far + perp * w_shoulder), z_shoulder],
                [*(far - perp * w_shoulder), z_shoulder],
                [*(elbow - perp * w_elbow), z_elbow],
            ]
        )
        return [(upper, arm.sleeve_rgb), *shapes]


def occluder_mask(polys: list[Poly], size: tuple[int, int]) -> np.ndarray:
    """Where the occluders cover an image of ``size`` (width, height): 255, else 0."""
    mask = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillPoly(mask, [fixed(p.pts_px) for p in polys], 255, cv2.LINE_8, PIXEL_SHIFT)
    return mask


def draw_occluders(img: np.ndarray, polys: list[Poly], gain: np.ndarray) -> None:
    """Each polygon in its colour, lit by the light at its middle."""
    for p in polys:
        c = p.pts_px.mean(axis=0)
        g = gain_at(gain, float(c[0]), float(c[1]))
        colour = tuple(min(255.0, v * g) for v in p.bgr)
        cv2.fillPoly(img, [fixed(p.pts_px)], colour, cv2.LINE_AA, PIXEL_SHIFT)
