"""How rendered dice, tables and light look (``datasets.dice.render``): every die colour, translucent-looking
dice, pips of any colour, procedural tables, and the face and table textures drawn from them."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from datasets.dice.geometry import PIPS, TEXTURE_PX

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
        r, g, b = (int(np.clip(c + rng.normal(0, 12), 0, 255)) for c in body)
        pip = pips[int(rng.integers(len(pips)))]
        one = pip if rng.random() > 0.15 else (190, 25, 30)
        translucent = rng.random() < 0.22
        return cls(
            body_rgb=(r, g, b),
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


def noise_field(rng: np.random.Generator, shape: tuple[int, int], cell: float) -> np.ndarray:
    """Smooth value noise in [-1, 1] with features about ``cell`` pixels."""
    h, w = shape
    gh, gw = max(2, int(h / max(cell, 1)) + 2), max(2, int(w / max(cell, 1)) + 2)
    g = rng.uniform(-1, 1, (gh, gw)).astype(np.float32)
    return cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)


def _mix(a: Sequence[int], b: Sequence[int], t: np.ndarray) -> np.ndarray:
    a_ = np.asarray(a, np.float32)[::-1]  # RGB -> BGR
    b_ = np.asarray(b, np.float32)[::-1]
    return np.asarray(a_ + (b_ - a_) * t[..., None])


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
        warp = noise_field(rng, shape, feat * 8) * 3 + noise_field(rng, shape, feat * 2) * 0.5
        t = 0.5 + 0.5 * np.sin(2 * math.pi * (u / max(feat, 1.5) + warp))
        t = t**3 * 0.7 + 0.15 * noise_field(rng, shape, feat * 4)
        img = _mix(look.rgb, look.rgb2, np.clip(t, 0, 1))
    elif look.kind == "cloth":
        t = 0.5 + 0.25 * noise_field(rng, shape, feat * 10)
        img = _mix(look.rgb, look.rgb2, np.clip(t, 0, 1) * 0.5)
        img *= (1 + 0.06 * rng.standard_normal((h, w)).astype(np.float32))[..., None]
    elif look.kind == "speckle":
        img = _mix(look.rgb, look.rgb2, 0.3 + 0.2 * noise_field(rng, shape, feat * 20))
        n = int(h * w * rng.uniform(0.002, 0.01))
        ys, xs = rng.integers(0, h, n), rng.integers(0, w, n)
        dark = rng.uniform(0.2, 0.6, n).astype(np.float32)
        img[ys, xs] *= dark[:, None]
    elif look.kind == "stone":
        v = np.abs(np.sin(noise_field(rng, shape, feat * 6) * 6 + noise_field(rng, shape, feat * 30) * 3))
        img = _mix(look.rgb, look.rgb2, (1 - v) ** 6)
    elif look.kind == "board":
        img = _mix(look.rgb, look.rgb2, 0.2 + 0.1 * noise_field(rng, shape, feat * 10))
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
        img = _mix(look.rgb, look.rgb2, 0.15 * (1 + noise_field(rng, shape, feat * 30)))
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
