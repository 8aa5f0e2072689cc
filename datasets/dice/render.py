"""Synthetic dice: pip dice rendered with numpy and OpenCV (no 3D engine), labelled exactly.

A die is a cube in table millimetres with an orientation; a pinhole camera looks at the table from straight
above to far oblique. Each visible face is its own small texture (body, bevelled edge, pips in the standard
layouts) warped onto the face's projected quad, shaded by a directional light, inside the cube's silhouette
rounded like a real die's corners; it casts a soft shadow along the light. Tables are procedural (wood,
cloth, speckled laminate, stone, printed boards with clutter), lit unevenly and tinted; the camera adds
defocus, noise and JPEG. Dice may be any colour, translucent-looking, with black, white, red or gold pips,
a large or logo one; some rest cocked (no face up) and are labelled ``cocked``.

Faces are numbered on the die body so that opposite faces sum to 7 (``BODY_FACES``, 1-2-3 counter-clockwise
round their corner as on Western dice); what shows on top follows from the orientation (``top_face``).

Two products:
- ``render_image`` / ``render_dataset``: stills with YOLO labels (whole visible die, class = face - 1, or 6
  for a cocked die; dice hidden more than ``MIN_VISIBLE`` are not labelled);
- ``throw_video``: a short clip of throws (dice sliding and tumbling in, settling; kept dice lie still; some
  dice leave the table or end cocked) with per-frame truth and the truth of each throw, for
  ``vision.dice.ThrowWatcher`` and ``arbiter run``.

Everything is a function of the seed: the same seed gives byte-identical images and labels.
"""

from __future__ import annotations

import json
import math
import zlib
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.dice import COCKED_CLASS, DICE_CLASSES, DieReading
from vision.video import VideoWriter

# --- die geometry ----------------------------------------------------------------------------------------

# Body-frame outward normals and the face on each: opposite faces sum to 7; 1 (+z), 2 (+x), 3 (+y) meet at a
# corner counter-clockwise seen from outside (a right-handed triple), as on Western dice.
BODY_FACES: tuple[tuple[tuple[int, int, int], int], ...] = (
    ((0, 0, 1), 1),
    ((0, 0, -1), 6),
    ((1, 0, 0), 2),
    ((-1, 0, 0), 5),
    ((0, 1, 0), 3),
    ((0, -1, 0), 4),
)
NORMALS = np.array([n for n, _ in BODY_FACES], dtype=np.float64)
VALUES = np.array([v for _, v in BODY_FACES])
CORNERS = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=np.float64) / 2
# Pip centres on a face, in units of the half side (u right, v down on the face texture).
PIP_SPREAD = 0.52
_A = PIP_SPREAD
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-_A, -_A), (_A, _A)),
    3: ((-_A, -_A), (0, 0), (_A, _A)),
    4: ((-_A, -_A), (_A, -_A), (-_A, _A), (_A, _A)),
    5: ((-_A, -_A), (_A, -_A), (0, 0), (-_A, _A), (_A, _A)),
    6: ((-_A, -_A), (-_A, 0), (-_A, _A), (_A, -_A), (_A, 0), (_A, _A)),
}
FLAT_TILT_DEG = 8.0  # a die tilted less than this from a face still shows that face (labelled with it)
COCKED_TILT_DEG = (22.0, 42.0)  # a cocked die leans this far: no face is clearly up
CAMERA_MM = (150.0, 700.0)  # camera distances drawn for stills
MAX_HFOV_DEG = 75.0  # the widest lens drawn
IN_VIEW = 0.3  # share of a die that must show for a clip's truth to count it in view
MIN_VISIBLE = 0.6  # share of a die's silhouette that must be unhidden for it to be labelled
TEXTURE_PX = 96  # face texture side
MAX_TEXTURE_PX = 2400  # table texture side cap: far tables get coarser texels


def face_normal(value: int) -> np.ndarray:
    return NORMALS[int(np.flatnonzero(value == VALUES)[0])]


def top_face(rot: np.ndarray) -> tuple[int, float]:
    """The face most nearly up for a die of orientation ``rot`` (body -> world) and the cosine of its tilt."""
    z = (rot @ NORMALS.T)[2]
    i = int(np.argmax(z))
    return int(VALUES[i]), float(z[i])


def bottom_face(rot: np.ndarray) -> int:
    z = (rot @ NORMALS.T)[2]
    return int(VALUES[int(np.argmin(z))])


def _axis_angle(axis: np.ndarray, angle: float) -> np.ndarray:
    axis = np.asarray(axis, dtype=np.float64)
    axis = axis / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * (k @ k)


def _align(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A rotation taking unit vector ``a`` onto ``b``."""
    v = np.cross(a, b)
    c = float(np.dot(a, b))
    if np.linalg.norm(v) < 1e-9:
        if c > 0:
            return np.eye(3)
        perp = np.array([1.0, 0, 0]) if abs(a[0]) < 0.9 else np.array([0, 1.0, 0])
        return _axis_angle(np.cross(a, perp), math.pi)
    return _axis_angle(v, math.atan2(np.linalg.norm(v), c))


def face_up(value: int, yaw: float, tilt_deg: float = 0.0, tilt_dir: float = 0.0) -> np.ndarray:
    """An orientation with ``value`` up, turned ``yaw`` about the vertical, then tipped ``tilt_deg``."""
    rot = _align(face_normal(value), np.array([0.0, 0.0, 1.0]))
    rot = _axis_angle(np.array([0.0, 0.0, 1.0]), yaw) @ rot
    if tilt_deg:
        axis = np.array([math.cos(tilt_dir), math.sin(tilt_dir), 0.0])
        rot = _axis_angle(axis, math.radians(tilt_deg)) @ rot
    return rot


def resting_height(rot: np.ndarray, side_mm: float) -> float:
    """Height of the die's centre when its lowest point touches the table."""
    return float(-(rot @ (CORNERS * side_mm).T)[2].min())


# --- camera ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Camera:
    """A pinhole camera over the table plane z = 0 (mm). ``rot`` maps world to camera axes (x right, y down,
    z forward); ``centre`` is its position."""

    width: int
    height: int
    focal_px: float
    rot: np.ndarray
    centre: np.ndarray

    @classmethod
    def looking_at(
        cls,
        width: int,
        height: int,
        focal_px: float,
        target: Sequence[float],
        distance: float,
        tilt_deg: float,
        azimuth: float,
    ) -> Camera:
        """``tilt_deg`` from straight down (0: top-down); the image's up points along ``azimuth`` on the
        table."""
        tilt = math.radians(tilt_deg)
        h = np.array([math.cos(azimuth), math.sin(azimuth), 0.0])
        fwd = np.array([*(math.sin(tilt) * h[:2]), -math.cos(tilt)])
        up = h - np.dot(h, fwd) * fwd
        up /= np.linalg.norm(up)
        y = -up
        x = np.cross(y, fwd)
        rot = np.stack([x, y, fwd])
        centre = np.asarray(target, dtype=np.float64) - distance * fwd
        return cls(width, height, focal_px, rot, centre)

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points ``(N, 3)`` -> pixels ``(N, 2)``."""
        pc = (np.asarray(points, dtype=np.float64) - self.centre) @ self.rot.T
        return np.c_[
            self.focal_px * pc[:, 0] / pc[:, 2] + self.width / 2,
            self.focal_px * pc[:, 1] / pc[:, 2] + self.height / 2,
        ]

    def depth(self, points: np.ndarray) -> np.ndarray:
        return ((np.asarray(points, dtype=np.float64) - self.centre) @ self.rot.T)[:, 2]

    def to_table(self, uv: np.ndarray) -> np.ndarray:
        """Pixels ``(N, 2)`` -> table points ``(N, 2)`` in mm (the rays' meeting with z = 0)."""
        uv = np.asarray(uv, dtype=np.float64).reshape(-1, 2)
        d_cam = np.c_[
            (uv[:, 0] - self.width / 2) / self.focal_px, (uv[:, 1] - self.height / 2) / self.focal_px
        ]
        d = np.c_[d_cam, np.ones(len(uv))] @ self.rot
        s = -self.centre[2] / d[:, 2]
        return (self.centre + s[:, None] * d)[:, :2]

    def table_homography(self) -> np.ndarray:
        """3x3: table (x, y, 1) in mm -> homogeneous pixels."""
        k = np.array([[self.focal_px, 0, self.width / 2], [0, self.focal_px, self.height / 2], [0, 0, 1.0]])
        t = -self.rot @ self.centre
        return k @ np.c_[self.rot[:, 0], self.rot[:, 1], t]

    def mm_per_px(self, xy_mm: Sequence[float]) -> float:
        """Table millimetres per pixel around a table point (for sizes)."""
        p = np.array(
            [[xy_mm[0], xy_mm[1], 0.0], [xy_mm[0] + 1.0, xy_mm[1], 0.0], [xy_mm[0], xy_mm[1] + 1.0, 0.0]]
        )
        uv = self.project(p)
        (ax, ay), (bx, by) = uv[1] - uv[0], uv[2] - uv[0]
        return 1.0 / max(math.sqrt(abs(ax * by - ay * bx)), 1e-9)


# --- looks -----------------------------------------------------------------------------------------------

# Body colours (RGB) of common dice and the pip colours that go with them.
BODIES: tuple[tuple[tuple[int, int, int], tuple[tuple[int, int, int], ...]], ...] = (
    ((242, 238, 228), ((20, 20, 20), (25, 25, 25), (180, 20, 25), (30, 40, 120))),  # ivory / white
    ((250, 250, 250), ((15, 15, 15), (200, 25, 30))),  # white
    ((25, 25, 28), ((240, 240, 240), (210, 170, 60))),  # black
    ((200, 30, 35), ((245, 245, 245), (15, 15, 15))),  # red
    ((30, 120, 60), ((245, 245, 245), (15, 15, 15))),  # green
    ((35, 70, 170), ((245, 245, 245), (230, 200, 80))),  # blue
    ((240, 200, 40), ((20, 20, 20),)),  # yellow
    ((235, 120, 30), ((20, 20, 20), (250, 250, 250))),  # orange
    ((110, 45, 140), ((245, 245, 245), (230, 200, 80))),  # purple
    ((240, 150, 180), ((250, 250, 250), (30, 30, 30))),  # pink
    ((150, 200, 230), ((20, 20, 20),)),  # light blue
    ((170, 120, 70), ((20, 20, 20), (240, 230, 210))),  # wood-coloured
)


@dataclass(frozen=True)
class DieLook:
    """How one die looks. ``alpha`` < 1: translucent (the table shows through the body; pips stay solid).
    ``pip_radius`` in half sides; ``rounding``: corner radius in sides; ``one_scale``: the one pip's size
    relative to the others; ``logo``: the one shows a ring logo instead of a pip."""

    body_rgb: tuple[int, int, int]
    pip_rgb: tuple[int, int, int]
    one_rgb: tuple[int, int, int]
    alpha: float = 1.0
    gloss: float = 0.15
    pip_radius: float = 0.17
    one_scale: float = 1.0
    rounding: float = 0.12
    side_mm: float = 16.0
    logo: bool = False
    blank: bool = False  # a cube without pips: a distractor, never labelled

    @classmethod
    def random(cls, rng: np.random.Generator, side_mm: float = 16.0) -> DieLook:
        body, pips = BODIES[int(rng.integers(len(BODIES)))]
        body = tuple(int(np.clip(c + rng.normal(0, 12), 0, 255)) for c in body)
        pip = pips[int(rng.integers(len(pips)))]
        one = pip if rng.random() > 0.15 else (190, 25, 30)
        translucent = rng.random() < 0.22
        return cls(
            body_rgb=body,  # type: ignore[arg-type]
            pip_rgb=pip,
            one_rgb=one,
            alpha=float(rng.uniform(0.55, 0.85)) if translucent else 1.0,
            gloss=float(rng.uniform(0.3, 0.7) if translucent else rng.uniform(0.0, 0.35)),
            pip_radius=float(rng.uniform(0.13, 0.21)),
            one_scale=float(rng.choice([1.0, 1.0, 1.3, 1.7])),
            rounding=float(rng.uniform(0.06, 0.2)),
            side_mm=side_mm * float(rng.uniform(0.85, 1.2)),
            logo=bool(rng.random() < 0.05),
        )


@dataclass(frozen=True)
class Light:
    """A directional light (unit vector towards it) over ambient light; ``tint`` multiplies RGB."""

    direction: tuple[float, float, float]
    ambient: float
    diffuse: float
    tint: tuple[float, float, float]
    shadow: float  # how much of the light a shadow takes away
    shadow_soft: float  # shadow blur in die sizes

    @classmethod
    def random(cls, rng: np.random.Generator) -> Light:
        elev = math.radians(rng.uniform(28, 85))
        az = rng.uniform(0, 2 * math.pi)
        d = (math.cos(elev) * math.cos(az), math.cos(elev) * math.sin(az), math.sin(elev))
        return cls(
            direction=d,
            ambient=float(rng.uniform(0.35, 0.6)),
            diffuse=float(rng.uniform(0.35, 0.65)),
            tint=tuple(float(v) for v in rng.uniform(0.85, 1.12, 3)),  # type: ignore[arg-type]
            shadow=float(rng.uniform(0.25, 0.65)),
            shadow_soft=float(rng.uniform(0.05, 0.35)),
        )


TABLE_KINDS = ("wood", "cloth", "speckle", "stone", "board", "plain")


@dataclass(frozen=True)
class TableLook:
    kind: str
    rgb: tuple[int, int, int]
    rgb2: tuple[int, int, int]
    scale_mm: float  # feature size of the pattern
    floor_rgb: tuple[int, int, int]

    @classmethod
    def random(cls, rng: np.random.Generator) -> TableLook:
        kind = TABLE_KINDS[int(rng.choice(len(TABLE_KINDS), p=[0.28, 0.2, 0.16, 0.1, 0.12, 0.14]))]
        palettes = {
            "wood": ((215, 180, 130), (170, 120, 70), (235, 215, 175), (120, 80, 50), (90, 60, 40)),
            "cloth": (
                (30, 110, 50),
                (40, 60, 140),
                (130, 30, 35),
                (40, 40, 45),
                (60, 90, 160),
                (150, 140, 120),
            ),
            "speckle": ((225, 225, 222), (205, 210, 215), (190, 185, 175), (70, 80, 150)),
            "stone": ((200, 200, 198), (60, 60, 62), (180, 170, 160)),
            "board": ((60, 90, 170), (230, 230, 225), (40, 140, 160), (120, 110, 160)),
            "plain": ((235, 235, 235), (30, 30, 30), (110, 130, 150), (200, 190, 170), (90, 140, 190)),
        }[kind]
        base = palettes[int(rng.integers(len(palettes)))]
        jitter = rng.normal(0, 10, 3)
        rgb = tuple(int(np.clip(c + j, 0, 255)) for c, j in zip(base, jitter, strict=True))
        rgb2 = tuple(int(np.clip(c * rng.uniform(0.6, 1.25), 0, 255)) for c in rgb)
        floor = tuple(int(v) for v in rng.integers(20, 200, 3))
        return cls(kind, rgb, rgb2, float(rng.uniform(3, 40)), floor)  # type: ignore[arg-type]


# --- textures --------------------------------------------------------------------------------------------


def _noise(rng: np.random.Generator, shape: tuple[int, int], cell: float) -> np.ndarray:
    """Smooth value noise in [-1, 1] with features about ``cell`` pixels."""
    h, w = shape
    gh, gw = max(2, int(h / max(cell, 1)) + 2), max(2, int(w / max(cell, 1)) + 2)
    g = rng.uniform(-1, 1, (gh, gw)).astype(np.float32)
    return cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)


def _mix(a: Sequence[int], b: Sequence[int], t: np.ndarray) -> np.ndarray:
    a_ = np.asarray(a, np.float32)[::-1]  # RGB -> BGR
    b_ = np.asarray(b, np.float32)[::-1]
    return a_ + (b_ - a_) * t[..., None]


def table_texture(
    look: TableLook, shape: tuple[int, int], texel_mm: float, rng: np.random.Generator
) -> np.ndarray:
    """A BGR float32 texture of the table surface, ``shape`` texels of ``texel_mm``."""
    h, w = shape
    feat = look.scale_mm / texel_mm
    if look.kind == "wood":
        ang = rng.uniform(0, math.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        u = xx * math.cos(ang) + yy * math.sin(ang)
        warp = _noise(rng, shape, feat * 8) * 3 + _noise(rng, shape, feat * 2) * 0.5
        t = 0.5 + 0.5 * np.sin(2 * math.pi * (u / max(feat, 1.5) + warp))
        t = t**3 * 0.7 + 0.15 * _noise(rng, shape, feat * 4)
        img = _mix(look.rgb, look.rgb2, np.clip(t, 0, 1))
    elif look.kind == "cloth":
        t = 0.5 + 0.25 * _noise(rng, shape, feat * 10)
        img = _mix(look.rgb, look.rgb2, np.clip(t, 0, 1) * 0.5)
        img *= (1 + 0.06 * rng.standard_normal((h, w)).astype(np.float32))[..., None]
    elif look.kind == "speckle":
        img = _mix(look.rgb, look.rgb2, 0.3 + 0.2 * _noise(rng, shape, feat * 20))
        n = int(h * w * rng.uniform(0.002, 0.01))
        ys, xs = rng.integers(0, h, n), rng.integers(0, w, n)
        dark = rng.uniform(0.2, 0.6, n).astype(np.float32)
        img[ys, xs] *= dark[:, None]
    elif look.kind == "stone":
        v = np.abs(np.sin(_noise(rng, shape, feat * 6) * 6 + _noise(rng, shape, feat * 30) * 3))
        img = _mix(look.rgb, look.rgb2, (1 - v) ** 6)
    elif look.kind == "board":
        img = _mix(look.rgb, look.rgb2, 0.2 + 0.1 * _noise(rng, shape, feat * 10))
        for _ in range(int(rng.integers(3, 14))):  # printed shapes, tiles, cards
            colour = tuple(float(c) for c in rng.integers(20, 255, 3))
            cx, cy = rng.integers(0, w), rng.integers(0, h)
            r = rng.uniform(0.05, 0.25) * min(h, w)
            sides = int(rng.choice([3, 4, 6, 6, 12]))
            a0 = rng.uniform(0, math.pi)
            pts = np.array(
                [
                    [
                        cx + r * math.cos(a0 + 2 * math.pi * k / sides),
                        cy + r * math.sin(a0 + 2 * math.pi * k / sides),
                    ]
                    for k in range(sides)
                ],
                dtype=np.int32,
            )
            cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
            if rng.random() < 0.5:
                cv2.polylines(
                    img, [pts], True, tuple(c * 0.5 for c in colour), max(1, int(r / 25)), cv2.LINE_AA
                )
    else:  # plain
        img = _mix(look.rgb, look.rgb2, 0.15 * (1 + _noise(rng, shape, feat * 30)))
    img += rng.normal(0, 3, (h, w, 1)).astype(np.float32)
    return np.clip(img, 0, 255)


def face_texture(look: DieLook, value: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """BGR float32 colour and float32 alpha of one face, ``TEXTURE_PX`` square: body, edge bevel, pips."""
    n = TEXTURE_PX
    body = np.asarray(look.body_rgb[::-1], np.float32)
    yy, xx = (np.mgrid[0:n, 0:n].astype(np.float32) + 0.5) / n * 2 - 1  # -1..1
    edge = np.maximum(np.abs(xx), np.abs(yy))
    bevel = np.clip((edge - (1 - 2 * look.rounding)) / (2 * look.rounding + 1e-6), 0, 1)
    shade = 1.0 - 0.28 * bevel**1.5
    colour = body * shade[..., None]
    colour += rng.normal(0, 2.0, (n, n, 1)).astype(np.float32)
    alpha = np.full((n, n), look.alpha, np.float32)
    if not look.blank:
        big = 4
        pip_mask = np.zeros((n * big, n * big), np.uint8)
        one_mask = np.zeros_like(pip_mask)
        for u, v in PIPS[value]:
            r = look.pip_radius * (look.one_scale if value == 1 else 1.0)
            cx, cy = (u + 1) / 2 * n * big, (v + 1) / 2 * n * big
            target = one_mask if value == 1 else pip_mask
            if value == 1 and look.logo:
                cv2.circle(target, (int(cx), int(cy)), int(0.55 * n / 2 * big), 255, int(0.06 * n * big))
                cv2.circle(target, (int(cx), int(cy)), int(0.2 * n / 2 * big), 255, -1)
            else:
                cv2.circle(target, (int(cx), int(cy)), int(r * n / 2 * big), 255, -1)
        for mask, rgb in ((pip_mask, look.pip_rgb), (one_mask, look.one_rgb)):
            if not mask.any():
                continue
            m = cv2.resize(mask, (n, n), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
            # Pips are drilled: their upper rim catches less light.
            rim = np.clip(cv2.GaussianBlur(m, (0, 0), 1.2) - np.roll(m, 2, axis=0), 0, 1)
            pip = np.asarray(rgb[::-1], np.float32) * (1 - 0.35 * rim[..., None])
            colour = colour * (1 - m[..., None]) + pip * m[..., None]
            alpha = np.maximum(alpha, m)
    k = int(rng.integers(4))
    return np.rot90(colour, k).copy(), np.rot90(alpha, k).copy()


# --- scenes ----------------------------------------------------------------------------------------------


@dataclass
class DieState:
    """A die in the scene: where, how turned, its look; ``key`` names it in truth."""

    key: str
    xy_mm: np.ndarray
    rot: np.ndarray
    look: DieLook
    z_lift_mm: float = 0.0  # above resting height (a bounce)

    def corners(self) -> np.ndarray:
        z = resting_height(self.rot, self.look.side_mm) + self.z_lift_mm
        return (self.rot @ (CORNERS * self.look.side_mm).T).T + np.array([*self.xy_mm, z])

    def centre(self) -> np.ndarray:
        return np.array([*self.xy_mm, resting_height(self.rot, self.look.side_mm) + self.z_lift_mm])


@dataclass(frozen=True)
class DrawnDie:
    """What a die became in the image: its box in pixels (whole silhouette, clipped to the picture) and the
    share of it that shows (not hidden by nearer dice, not beyond the picture's edge)."""

    key: str
    box_px: tuple[float, float, float, float]
    visible: float
    value: int | None  # None: cocked
    blank: bool


class SceneRenderer:
    """One camera over one table: the background (table, floor, light falloff) is built once; ``render``
    draws dice (with shadows) over it. ``table_mm``: the table rectangle (x0, y0, x1, y1); beyond is floor."""

    def __init__(
        self,
        camera: Camera,
        table: TableLook,
        light: Light,
        rng: np.random.Generator,
        table_mm: tuple[float, float, float, float] | None = None,
    ) -> None:
        self.camera = camera
        self.light = light
        self.table_mm = table_mm
        self._textures: dict[tuple[str, int], tuple[np.ndarray, np.ndarray]] = {}
        self._texture_seed = int(rng.integers(2**31))
        w, h = camera.width, camera.height
        corners = camera.to_table(np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64))
        lo, hi = corners.min(axis=0), corners.max(axis=0)
        centre_mm = camera.to_table(np.array([[w / 2, h / 2]]))[0]
        texel = camera.mm_per_px(centre_mm) * 0.8
        texel = max(texel, float((hi - lo).max()) / MAX_TEXTURE_PX)
        shape = (int((hi[1] - lo[1]) / texel) + 2, int((hi[0] - lo[0]) / texel) + 2)
        tex = table_texture(table, shape, texel, rng)
        if table_mm is not None:
            yy, xx = np.mgrid[0 : shape[0], 0 : shape[1]]
            x_mm, y_mm = lo[0] + xx * texel, lo[1] + yy * texel
            x0, y0, x1, y1 = table_mm
            off = (x_mm < x0) | (x_mm > x1) | (y_mm < y0) | (y_mm > y1)
            floor = np.asarray(table.floor_rgb[::-1], np.float32)
            tex[off] = floor * (0.9 + 0.1 * _noise(rng, shape, 40)[off, None])
        to_tex = np.array([[1 / texel, 0, -lo[0] / texel], [0, 1 / texel, -lo[1] / texel], [0, 0, 1]])
        hom = camera.table_homography() @ np.linalg.inv(to_tex)
        bg = cv2.warpPerspective(tex, hom, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        # Uneven light: a broad gradient and a vignette, then the light's colour.
        yy, xx = (np.mgrid[0:h, 0:w].astype(np.float32) / max(w, h)) - 0.5
        g = rng.normal(0, 0.35, 2)
        falloff = 1 + g[0] * xx + g[1] * yy - rng.uniform(0.1, 0.6) * (xx**2 + yy**2)
        falloff *= rng.uniform(0.75, 1.15)
        self.light_field = falloff.astype(np.float32)
        tint = np.asarray(light.tint[::-1], np.float32)
        self.background = bg * falloff[..., None] * tint

    def _face_texture(self, die: DieState, value: int) -> tuple[np.ndarray, np.ndarray]:
        """One face of one die, drawn once (its own random stream: the same whatever was drawn before)."""
        key = (die.key, value)
        if key not in self._textures:
            rng = np.random.default_rng([self._texture_seed, zlib.crc32(die.key.encode()), value])
            self._textures[key] = face_texture(die.look, value, rng)
        return self._textures[key]

    def table_polygon_px(self) -> np.ndarray | None:
        if self.table_mm is None:
            return None
        x0, y0, x1, y1 = self.table_mm
        pts = np.array([[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0]], dtype=np.float64)
        return self.camera.project(pts)

    def render(
        self, dice: Sequence[DieState], motion: Sequence[Sequence[DieState]] | None = None
    ) -> tuple[np.ndarray, list[DrawnDie]]:
        """The image (float32 BGR, before camera effects) and what each die became. ``motion``: for each
        die, extra poses within the exposure (motion blur); empty for a still die."""
        cam = self.camera
        img = self.background.copy()
        light = np.asarray(self.light.direction)
        # Shadows first, all dice, so none falls over another die's body; each drawn and blurred in its ROI.
        shade = np.ones(img.shape[:2], np.float32)
        h, w = shade.shape
        for die in dice:
            pts = die.corners()
            ground = pts[:, :2] - (pts[:, 2:3] / light[2]) * light[:2]
            cast = cam.project(np.c_[ground, np.zeros(len(ground))])
            contact = cam.project(np.c_[pts[:, :2], np.zeros(len(pts))])
            size_px = die.look.side_mm / cam.mm_per_px(die.xy_mm)
            sigma = max(0.6, self.light.shadow_soft * size_px)
            both = np.concatenate([cast, contact])
            m = 3 * sigma + 2
            x0, y0 = (max(int(v), 0) for v in both.min(axis=0) - m)
            x1, y1 = int(min(both[:, 0].max() + m, w)), int(min(both[:, 1].max() + m, h))
            if x1 - x0 < 1 or y1 - y0 < 1:
                continue
            layer = np.zeros((y1 - y0, x1 - x0), np.float32)
            for poly in (cast, contact):
                hull = cv2.convexHull((poly - (x0, y0)).astype(np.float32))
                cv2.fillConvexPoly(layer, np.round(hull * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
            layer = cv2.GaussianBlur(layer, (0, 0), sigma)
            shade[y0:y1, x0:x1] *= 1 - self.light.shadow * layer * (0.5 if die.look.alpha < 1 else 1.0)
        img *= shade[..., None]
        order = np.argsort(-cam.depth(np.array([d.centre() for d in dice])) if dice else [])
        owner = np.full(img.shape[:2], -1, np.int32)
        drawn_alpha: dict[int, tuple[tuple[int, int, int, int], np.ndarray, float]] = {}
        for i in order:
            poses = [dice[i], *(motion[i] if motion else ())]
            roi, colour, alpha, inside = self._draw_die(poses)
            if roi is None:
                continue
            x0, y0, x1, y1 = roi
            sub = img[y0:y1, x0:x1]
            sub *= 1 - alpha[..., None]
            sub += colour
            owner[y0:y1, x0:x1][alpha > 0.5] = i
            drawn_alpha[int(i)] = (roi, alpha, inside)
        out = []
        for i, die in enumerate(dice):
            value, cos_tilt = top_face(die.rot)
            cocked = cos_tilt < math.cos(math.radians(FLAT_TILT_DEG))
            if i not in drawn_alpha:
                continue
            (x0, y0, x1, y1), alpha, inside = drawn_alpha[i]
            ys, xs = np.nonzero(alpha > 0.25)
            if not len(xs):
                continue
            total = int((alpha > 0.5).sum())
            visible = inside * float((owner == i).sum()) / total if total else 0.0
            box = (
                float(x0 + xs.min()),
                float(y0 + ys.min()),
                float(x0 + xs.max() + 1),
                float(y0 + ys.max() + 1),
            )
            out.append(DrawnDie(die.key, box, visible, None if cocked else value, die.look.blank))
        return img, out

    def _draw_die(self, poses: Sequence[DieState]):
        """Premultiplied colour and alpha of one die (averaged over ``poses``) in its pixel ROI, clipped to
        the picture, and the share of the die inside the picture."""
        cam = self.camera
        all_uv = np.concatenate([cam.project(p.corners()) for p in poses])
        x0 = math.floor(all_uv[:, 0].min()) - 2
        y0 = math.floor(all_uv[:, 1].min()) - 2
        x1 = math.ceil(all_uv[:, 0].max()) + 2
        y1 = math.ceil(all_uv[:, 1].max()) + 2
        cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, cam.width), min(y1, cam.height)
        if cx1 - cx0 < 2 or cy1 - cy0 < 2:
            return None, None, None, 0.0
        size = max(x1 - x0, y1 - y0)
        ss = int(np.clip(math.ceil(64 / max(size, 1)), 2, 6))
        w_ss, h_ss = (x1 - x0) * ss, (y1 - y0) * ss
        acc_c = np.zeros((h_ss, w_ss, 3), np.float32)
        acc_a = np.zeros((h_ss, w_ss), np.float32)
        for pose in poses:
            c, a = self._die_layer(pose, (x0, y0), ss, (w_ss, h_ss))
            acc_c += c
            acc_a += a
        acc_c /= len(poses)
        acc_a /= len(poses)
        colour = cv2.resize(acc_c, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
        alpha = cv2.resize(acc_a, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
        sl = np.s_[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0]
        inside = float(alpha[sl].sum()) / max(float(alpha.sum()), 1e-9)
        return (cx0, cy0, cx1, cy1), colour[sl], np.clip(alpha[sl], 0, 1), inside

    def _die_layer(self, die: DieState, origin: tuple[int, int], ss: int, size: tuple[int, int]):
        cam = self.camera
        w_ss, h_ss = size
        corners = die.corners()
        uv = (cam.project(corners) - np.asarray(origin)) * ss
        colour = np.zeros((h_ss, w_ss, 3), np.float32)
        alpha = np.zeros((h_ss, w_ss), np.float32)
        light = np.asarray(self.light.direction)
        centre = die.centre()
        tint = np.asarray(self.light.tint[::-1], np.float32)
        px = cam.project(centre[None])[0]
        ambient_field = float(
            self.light_field[int(np.clip(px[1], 0, cam.height - 1)), int(np.clip(px[0], 0, cam.width - 1))]
        )
        n_tex = TEXTURE_PX
        src = np.array([[0, 0], [n_tex, 0], [n_tex, n_tex], [0, n_tex]], dtype=np.float32)
        half = die.look.side_mm / 2
        for normal_b, value in BODY_FACES:
            nb = np.asarray(normal_b, dtype=np.float64)
            nw = die.rot @ nb
            face_c = centre + nw * half
            view = cam.centre - face_c
            if np.dot(nw, view) <= 1e-6:
                continue
            # The face's corners in texture order: u along one in-face axis, v along the other.
            a = np.array([1.0, 0, 0]) if abs(nb[0]) < 0.5 else np.array([0, 1.0, 0])
            b = np.cross(nb, a)
            quad_b = np.array([(-a - b), (a - b), (a + b), (-a + b)]) * half + nb * half
            quad_w = (die.rot @ quad_b.T).T + centre
            quad = ((cam.project(quad_w) - np.asarray(origin)) * ss).astype(np.float32)
            hom = cv2.getPerspectiveTransform(src, quad)
            tex_c, tex_a = self._face_texture(die, value)
            lambert = max(0.0, float(np.dot(nw, light)))
            half_vec = light + view / np.linalg.norm(view)
            half_vec /= np.linalg.norm(half_vec)
            spec = die.look.gloss * max(0.0, float(np.dot(nw, half_vec))) ** 20 * 255
            k = (self.light.ambient + self.light.diffuse * lambert) * ambient_field
            fc = cv2.warpPerspective(tex_c * k * tint + spec, hom, (w_ss, h_ss), flags=cv2.INTER_LINEAR)
            fa = cv2.warpPerspective(tex_a, hom, (w_ss, h_ss), flags=cv2.INTER_LINEAR)
            colour += fc * fa[..., None]
            alpha = np.maximum(alpha, fa)
        # Rounded corners and edges: the silhouette opened by a disc of the corner radius.
        hull = cv2.convexHull(uv.astype(np.float32))
        sil = np.zeros((h_ss, w_ss), np.uint8)
        cv2.fillConvexPoly(sil, np.round(hull * 4).astype(np.int32), 255, cv2.LINE_AA, 2)
        face_px = float(np.linalg.norm(uv[0] - uv[1]))
        r = int(die.look.rounding * face_px)
        if r >= 2:
            sil = cv2.morphologyEx(
                sil, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1,) * 2)
            )
        sil_f = sil.astype(np.float32) / 255
        # Faces meet along the silhouette's inside; fill hairline gaps between warped faces with the body.
        body = np.asarray(die.look.body_rgb[::-1], np.float32) * self.light.ambient * ambient_field * tint
        gap = np.clip(sil_f - alpha, 0, 1) if die.look.alpha >= 1 else np.zeros_like(alpha)
        colour = colour * sil_f[..., None] + body * 0.8 * gap[..., None]
        alpha = np.maximum(alpha * sil_f, gap)
        return colour, alpha


# --- camera effects --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Lens:
    """What the camera does to the light: defocus (px), sensor noise (grey levels), JPEG quality."""

    defocus_px: float
    noise: float
    jpeg_quality: int

    @classmethod
    def random(cls, rng: np.random.Generator) -> Lens:
        return cls(
            defocus_px=float(rng.choice([0.0, 0.0, rng.uniform(0.4, 1.6)])),
            noise=float(rng.uniform(0.5, 7.0)),
            jpeg_quality=int(rng.integers(45, 96)),
        )

    def apply(self, img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        if self.defocus_px > 0:
            img = cv2.GaussianBlur(img, (0, 0), self.defocus_px)
        img = img + rng.normal(0, self.noise, img.shape).astype(np.float32)
        return np.clip(img + 0.5, 0, 255).astype(np.uint8)


# --- stills with labels ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class StillRecipe:
    """What stills to draw. Die sizes in pixels are drawn log-uniformly from ``die_px``; camera tilt from
    straight down uniformly from ``tilt_deg``. ``cocked_share``: chance that a die rests cocked (labelled
    ``cocked`` when ``label_cocked``, else left out of the picture); ``blank_share``: chance of an unlabelled
    blank cube (a distractor that teaches that pips make a die)."""

    count: int = 2000
    seed: int = 0
    sizes: tuple[tuple[int, int], ...] = ((640, 640), (640, 480), (800, 600), (480, 640))
    die_px: tuple[float, float] = (14.0, 150.0)
    tilt_deg: tuple[float, float] = (0.0, 58.0)
    max_dice: int = 12
    cocked_share: float = 0.04
    label_cocked: bool = True
    blank_share: float = 0.03
    edge_share: float = 0.25  # chance the table's edge (and floor) is in view

    def to_dict(self) -> dict:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(self).items()}


@dataclass(frozen=True)
class Still:
    image: np.ndarray  # BGR uint8
    dice: tuple[DrawnDie, ...]
    labels: tuple[tuple[int, float, float, float, float], ...]  # YOLO: class, cx, cy, w, h (normalised)
    jpeg_quality: int


def rng_for(seed: int, index: int, stream: str) -> np.random.Generator:
    """Independent streams per image and purpose, so one change does not reshuffle everything else."""
    return np.random.default_rng([seed, index, sum(map(ord, stream)) * 7919 + len(stream)])


def _random_camera(recipe: StillRecipe, rng: np.random.Generator, die_px: float) -> Camera:
    width, height = recipe.sizes[int(rng.integers(len(recipe.sizes)))]
    # A phone or webcam a hand's breadth to an arm's length away; zoom (or a crop) sets the die's size.
    distance = float(math.exp(rng.uniform(math.log(CAMERA_MM[0]), math.log(CAMERA_MM[1]))))
    focal = max(die_px * distance / 16.0, width / 2 / math.tan(math.radians(MAX_HFOV_DEG) / 2))
    distance = focal * 16.0 / die_px
    tilt = float(rng.uniform(*recipe.tilt_deg))
    return Camera.looking_at(
        width, height, focal, (0.0, 0.0, 0.0), distance, tilt, float(rng.uniform(0, 2 * math.pi))
    )


def _place_dice(recipe: StillRecipe, cam: Camera, rng: np.random.Generator, n: int) -> list[DieState]:
    """``n`` dice at random table points in view, not overlapping; some cocked, a few blank."""
    dice: list[DieState] = []
    tries = 0
    while len(dice) < n and tries < 60 * n:
        tries += 1
        margin = 0.04
        uv = np.array(
            [[rng.uniform(margin, 1 - margin) * cam.width, rng.uniform(margin, 1 - margin) * cam.height]]
        )
        xy = cam.to_table(uv)[0]
        look = DieLook.random(rng)
        if rng.random() < recipe.blank_share:
            look = DieLook(**{**asdict(look), "blank": True})
        if any(np.hypot(*(xy - d.xy_mm)) < 0.8 * (look.side_mm + d.look.side_mm) for d in dice):
            continue
        value = int(rng.integers(1, 7))
        yaw = float(rng.uniform(0, 2 * math.pi))
        if rng.random() < recipe.cocked_share:
            if not recipe.label_cocked:
                continue
            rot = face_up(
                value, yaw, float(rng.uniform(*COCKED_TILT_DEG)), float(rng.uniform(0, 2 * math.pi))
            )
        else:
            rot = face_up(
                value, yaw, float(rng.uniform(0, FLAT_TILT_DEG * 0.6)), float(rng.uniform(0, 2 * math.pi))
            )
        dice.append(DieState(f"die{len(dice)}", xy, rot, look))
    return dice


def render_still(recipe: StillRecipe, index: int) -> Still:
    """One labelled still: camera, table, light, dice and lens all drawn from the recipe's seed and
    ``index``."""
    rng = rng_for(recipe.seed, index, "still")
    die_px = float(math.exp(rng.uniform(math.log(recipe.die_px[0]), math.log(recipe.die_px[1]))))
    cam = _random_camera(recipe, rng, die_px)
    table_mm = None
    if rng.random() < recipe.edge_share:
        centre = cam.to_table(np.array([[cam.width / 2, cam.height / 2]]))[0]
        half = 16.0 * cam.width / die_px * rng.uniform(0.3, 0.6)
        x0, y0 = centre - half * rng.uniform(0.8, 2.0, 2)
        x1, y1 = centre + half * rng.uniform(0.8, 2.0, 2)
        table_mm = (float(x0), float(y0), float(x1), float(y1))
    renderer = SceneRenderer(cam, TableLook.random(rng), Light.random(rng), rng, table_mm)
    area = cam.width * cam.height / die_px**2
    cap = int(np.clip(area / 12, 1, recipe.max_dice))
    n = int(min(cap, 1 + rng.geometric(0.3)))
    dice = _place_dice(recipe, cam, rng, n)
    img, drawn = renderer.render(dice)
    lens = Lens.random(rng)
    out = lens.apply(img, rng)
    labels = []
    h, w = out.shape[:2]
    for d in drawn:
        if d.blank or d.visible < MIN_VISIBLE:
            continue
        x0, y0, x1, y1 = d.box_px
        if (x1 - x0) < 4 or (y1 - y0) < 4:
            continue
        cls = COCKED_CLASS if d.value is None else d.value - 1
        labels.append((cls, (x0 + x1) / 2 / w, (y0 + y1) / 2 / h, (x1 - x0) / w, (y1 - y0) / h))
    return Still(out, tuple(drawn), tuple(labels), lens.jpeg_quality)


def _write_still(recipe: StillRecipe, index: int, images: Path, labels: Path) -> list[int]:
    """Render and write still ``index``; returns its label classes."""
    still = render_still(recipe, index)
    stem = f"render_{recipe.seed}_{index:05d}"
    cv2.imwrite(str(images / f"{stem}.jpg"), still.image, [cv2.IMWRITE_JPEG_QUALITY, still.jpeg_quality])
    (labels / f"{stem}.txt").write_text(
        "".join(f"{c} {cx:.6f} {cy:.6f} {bw:.6f} {bh:.6f}\n" for c, cx, cy, bw, bh in still.labels)
    )
    return [c for c, *_ in still.labels]


def render_dataset(
    recipe: StillRecipe,
    out: Path,
    split: str = "train",
    on_image: Callable[[int], None] | None = None,
    processes: int = 1,
) -> dict:
    """``recipe.count`` stills as ``out/images/<split>/render_*.jpg`` and YOLO labels beside in
    ``out/labels/<split>``; returns counts. ``processes`` > 1 renders in parallel (each still depends on
    the seed and its index only, so the files are the same)."""
    images, labels = out / "images" / split, out / "labels" / split
    images.mkdir(parents=True, exist_ok=True)
    labels.mkdir(parents=True, exist_ok=True)
    counts = {"images": 0, "boxes": 0, "classes": dict.fromkeys(DICE_CLASSES, 0)}

    def tally(i: int, classes: list[int]) -> None:
        counts["images"] += 1
        counts["boxes"] += len(classes)
        for c in classes:
            counts["classes"][DICE_CLASSES[c]] += 1
        if on_image:
            on_image(i)

    if processes <= 1:
        for i in range(recipe.count):
            tally(i, _write_still(recipe, i, images, labels))
        return counts
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(processes) as pool:
        jobs = [pool.submit(_write_still, recipe, i, images, labels) for i in range(recipe.count)]
        for i, job in enumerate(jobs):
            tally(i, job.result())
    return counts


# --- throw videos ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ThrowRecipe:
    """A clip of ``throws`` throws of ``dice`` dice. The first throw throws all; later ones a random
    non-empty subset (the rest are kept, lying still). ``off_table_share`` / ``cocked_share``: chance that a
    throw sends one die off the table / leaves one cocked against a kept die."""

    dice: int = 3
    throws: int = 3
    seed: int = 0
    fps: float = 30.0
    size: tuple[int, int] = (960, 720)
    die_px: float = 48.0
    tilt_deg: float = 20.0
    rest_s: float = 1.6  # still time after each throw settles
    pickup_s: float = 0.5  # thrown dice are off the picture (in the hand) this long before a throw
    roll_s: tuple[float, float] = (0.7, 1.3)  # how long a die rolls
    off_table_share: float = 0.0
    cocked_share: float = 0.0
    motion_blur: int = 3  # sub-poses per frame for a moving die (1: none)

    def __post_init__(self) -> None:
        if self.dice < 1 or self.throws < 1:
            raise ValueError(
                f"a throw clip needs at least one die and one throw (got {self.dice}, {self.throws})"
            )


@dataclass(frozen=True)
class ThrowTruth:
    """One throw: when every die had stopped, which dice were thrown (truth keys), each die's final face
    (None: cocked), dice that left the table."""

    index: int
    t_start: float
    t_settled: float
    thrown: tuple[str, ...]
    values: dict[str, int | None]
    off_table: tuple[str, ...]
    cocked: tuple[str, ...]


@dataclass(frozen=True)
class FrameTruth:
    """One frame: every die in view, its box, face (None while tumbling or cocked) and whether it moves."""

    index: int
    t: float
    dice: tuple[tuple[str, tuple[float, float, float, float], int | None, bool], ...]


@dataclass
class ThrowClip:
    recipe: ThrowRecipe
    frames: list[FrameTruth]
    throws: list[ThrowTruth]
    table_px: list[tuple[float, float]]
    images: list[np.ndarray] = field(default_factory=list)  # filled when rendered

    def truth(self) -> dict:
        return {
            "recipe": {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(self.recipe).items()},
            "table_px": [[round(x, 1), round(y, 1)] for x, y in self.table_px],
            "throws": [asdict(t) for t in self.throws],
            "frames": [
                {
                    "index": f.index,
                    "t": round(f.t, 6),
                    "dice": [
                        {"key": k, "box_px": [round(v, 1) for v in box], "value": value, "moving": moving}
                        for k, box, value, moving in f.dice
                    ],
                }
                for f in self.frames
            ],
        }


@dataclass
class _Motion:
    """One die's path in one throw: from ``start`` to ``end`` (table mm), rolling to ``rot_end``."""

    t0: float
    t1: float
    start: np.ndarray
    end: np.ndarray
    rot_end: np.ndarray
    side_mm: float
    leaves: bool = False  # slides off the table and out of the picture: gone after t1

    def at(self, t: float) -> tuple[np.ndarray, np.ndarray, float, bool]:
        """Position, orientation, lift and whether it moves at time ``t`` within the throw."""
        if t >= self.t1:
            return self.end, self.rot_end, 0.0, False
        tau = max(0.0, (t - self.t0) / (self.t1 - self.t0))
        s = 1 - (1 - tau) ** 2  # constant deceleration
        path = self.end - self.start
        length = float(np.linalg.norm(path))
        pos = self.start + path * s
        direction = path / max(length, 1e-9)
        axis = np.array([-direction[1], direction[0], 0.0])
        remaining = length * (1 - s)
        angle = -remaining / (self.side_mm / 2) * 0.8  # rolls most of the way, slides the rest
        lift = self.side_mm * 0.6 * abs(math.sin(3 * math.pi * tau)) * (1 - tau) ** 2  # bounces
        return pos, _axis_angle(axis, angle) @ self.rot_end, lift, True


def _throw_camera(recipe: ThrowRecipe, rng: np.random.Generator) -> Camera:
    w, h = recipe.size
    focal = w / 2 / math.tan(math.radians(60) / 2)
    distance = focal * 16.0 / recipe.die_px
    # Square to the table (the image's up is the table's +y), give or take a few degrees.
    azimuth = math.pi / 2 + float(rng.uniform(-0.05, 0.05))
    return Camera.looking_at(w, h, focal, (0.0, 0.0, 0.0), distance, recipe.tilt_deg, azimuth)


def throw_clip(recipe: ThrowRecipe, render: bool = True) -> ThrowClip:
    """Script (and, with ``render``, draw) a throw clip. Truth keys are ``die0``, ``die1``...; the watcher's
    ids are its own, matched to these by position."""
    rng = rng_for(recipe.seed, 0, "throws")
    cam = _throw_camera(recipe, rng)
    # The table fills most of the view, its edges square to the picture's; a border of floor shows round it.
    size = np.array(recipe.size, dtype=np.float64)
    tl, tr, br, bl = cam.to_table(np.array([[0.08, 0.08], [0.92, 0.08], [0.92, 0.92], [0.08, 0.92]]) * size)
    lo = np.array([max(tl[0], bl[0]), max(bl[1], br[1])])
    hi = np.array([min(tr[0], br[0]), min(tl[1], tr[1])])
    table_mm = (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))
    safe = cam.to_table(np.array([[0.2, 0.2], [0.8, 0.2], [0.8, 0.8], [0.2, 0.8]]) * size)
    s_lo = np.array([max(safe[0, 0], safe[3, 0]), max(safe[2, 1], safe[3, 1])])
    s_hi = np.array([min(safe[1, 0], safe[2, 0]), min(safe[0, 1], safe[1, 1])])
    looks = [DieLook.random(rng) for _ in range(recipe.dice)]
    keys = [f"die{i}" for i in range(recipe.dice)]
    side = float(np.mean([lk.side_mm for lk in looks]))

    def free_spot(taken: list[np.ndarray]) -> np.ndarray:
        for _ in range(200):
            p = rng.uniform(s_lo, s_hi)
            if all(np.hypot(*(p - q)) > 2.2 * side for q in taken):
                return p
        return rng.uniform(s_lo, s_hi)

    # Where each die is, and its pose, between throws; None: not on the table (before the first throw).
    rest: dict[str, tuple[np.ndarray, np.ndarray] | None] = dict.fromkeys(keys)
    timeline: list[tuple[float, float, dict[str, _Motion], ThrowTruth]] = []
    t = 0.4  # an empty table first
    for k in range(recipe.throws):
        thrown = (
            list(keys)
            if k == 0
            else [x for x in keys if rng.random() < 0.6] or [keys[int(rng.integers(len(keys)))]]
        )
        kept = [x for x in keys if x not in thrown and rest[x] is not None]
        t_pick = t
        t0 = t + (recipe.pickup_s if k > 0 else 0.0)
        taken = [rest[x][0] for x in kept if rest[x] is not None]  # type: ignore[index]
        motions: dict[str, _Motion] = {}
        leaver = thrown[int(rng.integers(len(thrown)))] if rng.random() < recipe.off_table_share else None
        cocker = None
        if kept and rng.random() < recipe.cocked_share:
            cocker = next((x for x in thrown if x != leaver), None)
        entry = np.array([rng.uniform(s_lo[0], s_hi[0]), lo[1] - 3 * side])  # from the near side, off picture
        for x in thrown:
            start = entry + rng.normal(0, side, 2)
            dur = float(rng.uniform(*recipe.roll_s))
            value = int(rng.integers(1, 7))
            yaw = float(rng.uniform(0, 2 * math.pi))
            if x == cocker:
                lean_on = rest[kept[0]][0]  # type: ignore[index]
                away = rng.normal(0, 1, 2)
                away /= np.linalg.norm(away)
                end = lean_on + away * side * 1.3
                rot = face_up(
                    value,
                    yaw,
                    float(rng.uniform(*COCKED_TILT_DEG)),
                    math.atan2(-away[1], -away[0]) + math.pi / 2,
                )
            else:
                end = free_spot(taken)
                rot = face_up(value, yaw)
            leaves = x == leaver
            if leaves:  # out over the far edge, beyond the picture
                end = np.array([rng.uniform(lo[0], hi[0]), hi[1] + 6 * side])
                dur *= 0.8
            taken.append(end)
            motions[x] = _Motion(t0, t0 + dur, start, end, rot, looks[keys.index(x)].side_mm, leaves)
        t_settled = max(m.t1 for m in motions.values())
        values: dict[str, int | None] = {}
        for x in keys:
            if x in motions:
                if motions[x].leaves:
                    continue
                rest[x] = (motions[x].end, motions[x].rot_end)
            if rest[x] is not None:
                v, c = top_face(rest[x][1])  # type: ignore[index]
                values[x] = v if c > math.cos(math.radians(FLAT_TILT_DEG)) else None
        for x, m in motions.items():
            if m.leaves:
                rest[x] = None
        truth = ThrowTruth(
            k,
            t0,
            t_settled,
            tuple(thrown),
            values,
            tuple(x for x, m in motions.items() if m.leaves),
            tuple(x for x in values if values[x] is None),
        )
        timeline.append((t_pick, t0, motions, truth))
        t = t_settled + recipe.rest_s
    duration = t
    # Poses per frame.
    frames: list[FrameTruth] = []
    poses_at: list[
        list[tuple[str, np.ndarray, np.ndarray, float, bool, list[tuple[np.ndarray, np.ndarray, float]]]]
    ] = []
    n_frames = int(duration * recipe.fps)
    dt = 1 / recipe.fps
    for i in range(n_frames):
        ft = i * dt
        now = []
        for x in keys:
            pose = _pose(timeline, x, ft)
            if pose is None:
                continue
            pos, rot, lift, moving = pose
            subs = []
            if moving and recipe.motion_blur > 1:
                for s in range(1, recipe.motion_blur):
                    sub = _pose(timeline, x, ft - dt * s / recipe.motion_blur)
                    if sub is not None:
                        subs.append(sub[:3])
            now.append((x, pos, rot, lift, moving, subs))
        poses_at.append(now)
    renderer = SceneRenderer(cam, TableLook.random(rng), Light.random(rng), rng, table_mm) if render else None
    lens = Lens(0.0, float(rng.uniform(1, 4)), 90)
    images = []
    for i, now in enumerate(poses_at):
        states = [DieState(x, pos, rot, looks[keys.index(x)], lift) for x, pos, rot, lift, _, _ in now]
        motion = [
            [DieState(x, p, r, looks[keys.index(x)], lf) for p, r, lf in subs] for x, _, _, _, _, subs in now
        ]
        if renderer is not None:
            img, drawn = renderer.render(states, motion)
            images.append(lens.apply(img, rng))
            boxes = {d.key: d.box_px for d in drawn if d.visible > IN_VIEW}
        else:
            boxes = {s.key: _box_of(cam, s) for s in states}
        dice = []
        for x, _, rot, _, moving, _ in now:
            if x not in boxes or boxes[x] is None:
                continue
            v, c = top_face(rot)
            flat = c > math.cos(math.radians(FLAT_TILT_DEG))
            dice.append((x, boxes[x], v if (flat and not moving) else None, moving))
        frames.append(FrameTruth(i, i * dt, tuple(dice)))
    polygon = [
        (float(x), float(y))
        for x, y in cam.project(
            np.array(
                [
                    [table_mm[0], table_mm[1], 0],
                    [table_mm[2], table_mm[1], 0],
                    [table_mm[2], table_mm[3], 0],
                    [table_mm[0], table_mm[3], 0],
                ],
                dtype=np.float64,
            )
        )
    ]
    return ThrowClip(recipe, frames, [tt for *_, tt in timeline], polygon, images)


def _box_of(cam: Camera, die: DieState) -> tuple[float, float, float, float] | None:
    """The die's box without drawing it: its projected hull clipped to the picture, or None when less than
    ``IN_VIEW`` of it is inside (as ``SceneRenderer.render`` reports it, bar occlusion by other dice)."""
    hull = cv2.convexHull(cam.project(die.corners()).astype(np.float32))
    frame = np.array([[0, 0], [cam.width, 0], [cam.width, cam.height], [0, cam.height]], dtype=np.float32)
    area, clipped = cv2.intersectConvexConvex(hull, frame)
    if clipped is None or area < IN_VIEW * cv2.contourArea(hull):
        return None
    (x0, y0), (x1, y1) = clipped.reshape(-1, 2).min(axis=0), clipped.reshape(-1, 2).max(axis=0)
    return float(x0), float(y0), float(x1), float(y1)


def _pose(timeline, key: str, t: float):
    """Where die ``key`` is at ``t``: (pos, rot, lift, moving), or None when it is not on the table (not
    thrown yet, in the hand, or gone off the table)."""
    state = None
    for t_pick, t0, motions, _ in timeline:
        if t < t_pick:
            break
        if key not in motions:
            continue  # kept: it lies where it was
        m = motions[key]
        if t < t0:
            return None  # picked up, in the hand
        pos, rot, lift, moving = m.at(t)
        state = None if (m.leaves and t >= m.t1) else (pos, rot, lift, moving)
    return state


def write_throw_clip(clip: ThrowClip, out: Path) -> Path:
    """``video.mp4`` and ``truth.json`` of a rendered clip in ``out``; returns the video's path."""

    out.mkdir(parents=True, exist_ok=True)
    w, h = clip.recipe.size
    video = out / "video.mp4"
    with VideoWriter(video, w, h, clip.recipe.fps, crf=18) as writer:
        for image in clip.images:
            writer.write(image)
    (out / "truth.json").write_text(json.dumps(clip.truth()) + "\n")
    return video


def truth_readings(
    frame: FrameTruth,
    rng: np.random.Generator,
    jitter_px: float = 0.8,
    miss: float = 0.0,
    confidence: tuple[float, float] = (0.85, 0.99),
) -> list[DieReading]:
    """What a good reader would return for a frame of a clip: the truth's boxes with a little jitter, the
    face of a die at rest (None, i.e. ``cocked``, for a cocked one), a blurred guess at low confidence for a
    tumbling one, and a share ``miss`` of dice not found at all."""
    out = []
    for _key, box, value, moving in frame.dice:
        if rng.random() < miss:
            continue
        x0, y0, x1, y1 = (v + rng.normal(0, jitter_px) for v in box)
        if x1 - x0 < 2 or y1 - y0 < 2:
            continue
        if moving:
            out.append(DieReading((x0, y0, x1, y1), int(rng.integers(1, 7)), float(rng.uniform(0.3, 0.6))))
        else:
            out.append(DieReading((x0, y0, x1, y1), value, float(rng.uniform(*confidence))))
    return out
