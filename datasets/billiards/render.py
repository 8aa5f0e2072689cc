"""A fast overhead-camera renderer for synthetic billiards clips, OpenCV and numpy only.

Speed comes from doing the expensive part once per shot: the table (cloth, cushions, pockets, markings,
uneven light, vignette) is drawn in table millimetres and warped through the camera, lens distortion
included, into a static background. Each frame then copies it, blends small pre-shaded ball sprites (one
affine warp each, which also gives sub-pixel placement and the perspective stretch of off-axis balls), draws
pins and occluders and adds a pre-drawn noise field at a per-frame offset. Everything is a function of the
seed and the sample times, so the same inputs give byte-identical frames whatever was rendered before.
"""

from __future__ import annotations

import math
import struct
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from arbiter.balls import PIN_RGB, PIN_WHITE, BallLook
from arbiter.games import billiards
from arbiter.tables import PinSpec, Pocket, TableModel

from .camera import Camera
from .look import CueLook, Look
from .scene import BallState, PinState, SceneSample

XY = tuple[float, float]
RGB = tuple[int, int, int]
Box = tuple[float, float, float, float]

# --- ball print geometry (what a set of balls looks like, not a per-clip knob) ---
STRIPE_HALF_HEIGHT = 0.45  # striped pool balls: the coloured band covers |z| < 0.45 of the radius
NUMBER_DISC_SIN = 0.42  # pool number disc: sine of its angular radius (disc ~ 0.4 ball radius across)
PYRAMID_NUMBER_SIN = 0.5  # pyramid balls print bare numbers, a little larger, no disc
GLYPH_PX = 64  # digit glyph raster: supersampled well past any ball's pixel size
SPRITE_SUPERSAMPLE = 4  # sub-samples per sprite pixel and axis: antialiased edges and digits
SPRITE_RADIUS_STEP = 0.5  # sprites are cached per half pixel of radius; the warp scales the rest
SMEAR_STEP_PX = 1.5  # motion blur: most pixels between drawn copies of a moving ball (smooth streaks)
SMEAR_MAX_COPIES = 48  # cap per ball and frame: bounds the cost of very fast balls
# --- background ---
TEXTURE_OVERSAMPLE = 1.3  # table texture pixels per image pixel: sharper lines vs. build time
FLOOR_MARGIN_MM = 150.0  # floor drawn around the rails; beyond, the texture border colour is used
LINE_WIDTH_MM = 2.5  # chalk lines
SPOT_RADIUS_MM = 5.0  # marked spots
DIAMOND_RADIUS_MM = 7.0  # sights on pool and carom rails
PIXEL_SHIFT = 4  # fractional bits of OpenCV drawing coordinates (1/16 px)
PIN_SHADOW_SCALE = 1.3  # a pin's shadow is a little wider than its head
PIN_BODY_SHADE = 0.8  # the pin's side, less lit than its top
NOISE_PAD = 64  # rows of noise beyond one frame; each frame views the field from its own offset
NOISE_ALIGN = 64  # offsets in bytes are multiples of this: aligned, vectorised adds
MAP_STEP = 2  # the camera->texture map is solved on every 2nd pixel and interpolated (smooth field)
# Cloth grain: feature sizes in mm (mottle = worn patches and dye, nap = brushed streaks along y).
CLOTH_MOTTLE_MM, CLOTH_NAP_MM, CLOTH_GRAIN_MM = 250.0, 8.0, 3.0
CLOTH_NAP_STREAK = 6.0  # nap streak length, in nap cells
CLOTH_NAP_SHARE = 0.6  # of look.cloth_texture; the rest is isotropic grain
WOOD_GRAIN = 0.08  # relative luminance swing of the rails' grain
WOOD_GRAIN_MM, WOOD_GRAIN_STREAK = 6.0, 12.0  # grain width and streak length (cells) along the rail
RAIL_CORNER = 0.35  # outer rail corner radius, in rail widths
# --- pockets, as multiples of the opening (templates are not in tables.py) ---
CORNER_HOLE_RADIUS = 0.56
CORNER_HOLE_SETBACK = (0.5, 0.35)  # hole centre behind the mouth: openings, plus cushion widths
MIDDLE_HOLE_RADIUS = 0.55
MIDDLE_HOLE_SETBACK = (0.35, 0.4)
MIDDLE_FLARE = 0.25  # middle pocket jaw faces open outward: sideways run per unit of depth
POCKET_PLATE = 1.22  # leather or plastic plate around the hole on the rail, in hole radii
POCKET_PLATE_SHADE = 2.2  # the plate, relative to look.pocket_rgb
POCKET_RIM_SHADE = 1.6  # the hole's lit upper wall, relative to look.pocket_rgb
POCKET_CORE = 0.75  # the dark core of the hole, in hole radii
THROAT_SHADE = 0.3  # cloth inside the jaws falls away into shadow
# --- balls ---
BALL_WHITE_RGB = (240, 238, 228)  # stripes' white and number discs
NUMBER_INK_RGB = (24, 20, 20)
PYRAMID_INK_RGB = (140, 30, 30)  # pyramid balls carry red numbers
SPRITE_MARGIN_PX = 1.5  # sprite border beyond the radius: room for antialiasing and the warp
SHADOW_SIZE = 1.05  # contact shadow radius, in ball radii, before blurring
SHADOW_MIN_BLUR_PX = 0.5
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


@dataclass(frozen=True)
class Stroke:
    """The cue's strike that starts the shot, so the stick can be drawn before it and withdraw after it."""

    t: float  # strike time, seconds from the start of the clip
    xy_mm: XY  # cue ball centre at the strike
    aim_rad: float  # direction the cue ball is sent, from +x counter-clockwise (table frame)


@dataclass(frozen=True)
class RenderedObject:
    """Ground truth for one drawn ball or pin in one frame."""

    id: str
    cls: str  # appearance class (arbiter.balls.BallLook.cls) or "pin_standing" / "pin_down"
    xy_px: XY  # balls: projection of the centre (z = radius) at the middle sample; pins: see render()
    radius_px: float
    box_px: Box  # x0, y0, x1, y1 clipped to the image
    hidden: bool  # an occluder covers the centre or more than half of the disk
    visible_fraction: float  # share of the disk inside the image and not under an occluder


@dataclass(frozen=True)
class RenderedFrame:
    t: float  # truth time: the middle exposure sample
    image: np.ndarray  # H x W x 3 BGR uint8
    objects: tuple[RenderedObject, ...]


def exposure_times(t: float, fps: float, exposure: float, k: int) -> tuple[float, ...]:
    """Times of ``k`` samples spread over a shutter open for ``exposure`` of the frame interval, centred on
    ``t`` (midpoints of k equal slices: a box filter). Use odd ``k`` so the middle sample is at ``t``."""
    if k < 1 or fps <= 0 or not 0 < exposure <= 1:
        raise ValueError(
            f"need k >= 1, fps > 0 and 0 < exposure <= 1; got k={k}, fps={fps}, exposure={exposure}"
        )
    span = exposure / fps
    return tuple(t + ((i + 0.5) / k - 0.5) * span for i in range(k))


def jpeg_roundtrip(image: np.ndarray, quality: int) -> np.ndarray:
    """The image after JPEG encoding at ``quality`` (1..100) and decoding: exported stills' artefacts."""
    if not 1 <= quality <= 100:
        raise ValueError(f"JPEG quality must be 1..100, got {quality}")
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise ValueError("OpenCV could not encode the image as JPEG")
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def _bgr(rgb: tuple[int, int, int]) -> np.ndarray:
    return np.array(rgb[::-1], dtype=np.float32)


def _gain_at(gain: np.ndarray, x: float, y: float) -> float:
    """The light at a pixel (clamped into the frame): what a ball or occluder there is lit by."""
    h, w = gain.shape
    return float(gain[min(max(int(y), 0), h - 1), min(max(int(x), 0), w - 1)])


def _stable_hash(*parts: object) -> int:
    """A process-independent hash (Python's ``hash`` of str is salted per process)."""
    return zlib.crc32(repr(parts).encode())


# ---------------------------------------------------------------------------------------------- background
@dataclass(frozen=True)
class _TextureFrame:
    """Texture raster <-> table mm: pixel (col, row) centre is at (x0 + col / s, y0 + row / s)."""

    x0: float
    y0: float
    s: float  # texture pixels per mm
    width: int
    height: int

    def px(self, xy_mm: np.ndarray) -> np.ndarray:
        return (np.asarray(xy_mm, dtype=np.float64) - [self.x0, self.y0]) * self.s


def _circle(c: XY | np.ndarray, r: float, n: int = 48) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.stack([c[0] + r * np.cos(a), c[1] + r * np.sin(a)], axis=1)


def _rect(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64)


def _rounded_rect(x0: float, y0: float, x1: float, y1: float, r: float, n: int = 8) -> np.ndarray:
    pts = []
    for cx, cy, a0 in (
        (x1 - r, y0 + r, -90),
        (x1 - r, y1 - r, 0),
        (x0 + r, y1 - r, 90),
        (x0 + r, y0 + r, 180),
    ):
        for a in np.radians(np.linspace(a0, a0 + 90, n)):
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return np.array(pts)


def _fixed(pts_px: np.ndarray) -> np.ndarray:
    """Pixel coordinates as OpenCV's fixed-point drawing coordinates (PIXEL_SHIFT fractional bits)."""
    return np.round(np.asarray(pts_px) * (1 << PIXEL_SHIFT)).astype(np.int32)


def _fill(img: np.ndarray, polys_px: Sequence[np.ndarray], colour: np.ndarray | Sequence[float]) -> None:
    """Antialiased constant-colour polygons, drawn by OpenCV in place (sub-pixel vertices)."""
    pts = [_fixed(p) for p in polys_px]
    cv2.fillPoly(img, pts, tuple(float(c) for c in colour), cv2.LINE_AA, PIXEL_SHIFT)


def _blend_mask(img: np.ndarray, mask: np.ndarray, colour: np.ndarray, strength: float) -> None:
    """Blend ``colour`` into uint8 ``img`` by ``mask`` (uint8 coverage) x ``strength``, only where drawn."""
    ys, xs = np.nonzero(mask.any(axis=1))[0], np.nonzero(mask.any(axis=0))[0]
    if len(ys) == 0:
        return
    y0, y1, x0, x1 = ys[0], ys[-1] + 1, xs[0], xs[-1] + 1
    a = mask[y0:y1, x0:x1].astype(np.float32)[..., None] * (strength / 255.0)
    roi = img[y0:y1, x0:x1]
    roi[...] = np.clip(roi + a * (colour - roi), 0, 255).astype(np.uint8)


def _stroke_mask(mask: np.ndarray, lines_px: Sequence[np.ndarray], width_px: float) -> None:
    pts = [_fixed(p) for p in lines_px]
    cv2.polylines(mask, pts, False, 255, max(1, round(width_px)), cv2.LINE_AA, PIXEL_SHIFT)


def _smooth_noise(
    rng: np.random.Generator, shape: tuple[int, int], cell: int, blur: tuple[float, float]
) -> np.ndarray:
    """About unit-variance noise with features ``cell`` texture pixels wide, optionally streaked by a
    blur (sigma x, y in cells). Drawn small and upsampled: cheap at any texture size."""
    h, w = shape
    small = rng.standard_normal((max(2, h // cell + 2), max(2, w // cell + 2))).astype(np.float32)
    if blur != (0.0, 0.0):
        small = cv2.GaussianBlur(small, (0, 0), sigmaX=max(blur[0], 0.1), sigmaY=max(blur[1], 0.1))
    small /= float(small.std()) or 1.0
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def pocket_shapes(table: TableModel, pocket: Pocket) -> tuple[np.ndarray, XY, float]:
    """The visible parts of a pocket in table mm: the throat polygon between the jaws, and the hole's
    centre and radius. Jaws sit at the ends of the mouth line (tables.Pocket)."""
    mx, my = pocket.mouth_xy_mm
    ix, iy = pocket.inward
    px, py = -iy, ix
    o, cw = pocket.opening_mm, table.cushion_width_mm
    half = o / 2
    if pocket.corner:
        depth = CORNER_HOLE_SETBACK[0] * o + CORNER_HOLE_SETBACK[1] * cw
        r = CORNER_HOLE_RADIUS * o
        flare = 0.0
    else:
        depth = MIDDLE_HOLE_SETBACK[0] * o + MIDDLE_HOLE_SETBACK[1] * cw
        r = MIDDLE_HOLE_RADIUS * o
        flare = MIDDLE_FLARE
    back = depth
    flare *= back
    throat = np.array(
        [
            (mx + px * half, my + py * half),
            (mx - px * half, my - py * half),
            (mx - px * (half + flare) - ix * back, my - py * (half + flare) - iy * back),
            (mx + px * (half + flare) - ix * back, my + py * (half + flare) - iy * back),
        ]
    )
    return throat, (mx - ix * depth, my - iy * depth), r


def cushion_polygons(table: TableModel) -> list[np.ndarray]:
    """The cushion tops in table mm: one quadrilateral per cushion between two pockets, from the nose line
    back ``cushion_width_mm``, ending at the jaws with faces along the pocket throats."""
    cw, w, length = table.cushion_width_mm, table.width_mm, table.length_mm
    # Each side: nose endpoints (a, b), the outward normal; jaw faces follow the neighbouring pockets.
    by_id = {p.id: p for p in table.pockets}

    def jaw(pocket_id: str, toward: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Jaw point of ``pocket_id`` on the side running toward ``toward`` and its face direction."""
        p = by_id[pocket_id]
        m, inward = np.array(p.mouth_xy_mm), np.array(p.inward)
        perp = np.array([-inward[1], inward[0]])
        side = 1.0 if perp @ toward > 0 else -1.0
        j = m + side * perp * p.opening_mm / 2
        face = -inward if p.corner else -inward + side * perp * MIDDLE_FLARE
        return j, face

    def quad(a: np.ndarray, b: np.ndarray, out: np.ndarray, pa: str | None, pb: str | None) -> np.ndarray:
        along = (b - a) / np.linalg.norm(b - a)
        if pa is None:
            a_back = a + out * cw - along * cw
        else:
            a, f = jaw(pa, along)
            a_back = a + f * (cw / abs(f @ out))
        if pb is None:
            b_back = b + out * cw + along * cw
        else:
            b, f = jaw(pb, -along)
            b_back = b + f * (cw / abs(f @ out))
        return np.array([a, b, b_back, a_back])

    o = np.array
    if not table.pockets:
        return [
            quad(o([0.0, 0.0]), o([w, 0.0]), o([0.0, -1.0]), None, None),
            quad(o([w, length]), o([0.0, length]), o([0.0, 1.0]), None, None),
            quad(o([0.0, length]), o([0.0, 0.0]), o([-1.0, 0.0]), None, None),
            quad(o([w, 0.0]), o([w, length]), o([1.0, 0.0]), None, None),
        ]
    return [
        quad(o([0.0, 0.0]), o([w, 0.0]), o([0.0, -1.0]), "bl", "br"),
        quad(o([w, length]), o([0.0, length]), o([0.0, 1.0]), "tr", "tl"),
        quad(o([0.0, 0.0]), o([0.0, length / 2]), o([-1.0, 0.0]), "bl", "ml"),
        quad(o([0.0, length / 2]), o([0.0, length]), o([-1.0, 0.0]), "ml", "tl"),
        quad(o([w, 0.0]), o([w, length / 2]), o([1.0, 0.0]), "br", "mr"),
        quad(o([w, length / 2]), o([w, length]), o([1.0, 0.0]), "mr", "tr"),
    ]


def _markings(table: TableModel) -> tuple[list[np.ndarray], list[XY]]:
    """Chalk lines (as polylines in mm) and spots of a table."""
    lines: list[np.ndarray] = []
    if table.game == "snooker" or table.game == "five-pins":
        lines += [np.array([[0.0, ln.y_mm], [table.width_mm, ln.y_mm]]) for ln in table.lines]
    for arc in table.arcs:
        a0 = math.pi if arc.toward == "bottom" else 0.0
        a = np.linspace(a0, a0 + math.pi, 64)
        lines.append(
            np.stack(
                [
                    arc.centre_xy_mm[0] + arc.radius_mm * np.cos(a),
                    arc.centre_xy_mm[1] + arc.radius_mm * np.sin(a),
                ],
                axis=1,
            )
        )
    spots = list(table.spots.values())
    spots += [p.xy_mm for p in table.pins]
    return lines, spots


def _diamonds(table: TableModel, look: Look) -> list[XY]:
    """Sights on the rail centre line: pool and carom tables have them, snooker tables do not."""
    if table.game == "snooker":
        return []
    off = table.cushion_width_mm + look.rail_width_mm / 2
    w, length = table.width_mm, table.length_mm
    skip_middle = bool(table.pockets)
    out: list[XY] = []
    for k in range(1, 8):
        if skip_middle and k == 4:
            continue
        out += [(-off, k * length / 8), (w + off, k * length / 8)]
    for k in range(1, 4):
        out += [(k * w / 4, -off), (k * w / 4, length + off)]
    return out


def _table_texture(
    table: TableModel, look: Look, rng: np.random.Generator, tf: _TextureFrame
) -> tuple[np.ndarray, np.ndarray]:
    """The table as seen straight down, lit evenly: albedo in BGR uint8 at the texture's resolution, and
    a mask of the cushion tops. Flat colours are drawn by OpenCV (antialiased), then one luminance field
    adds cloth and wood grain."""
    shape = (tf.height, tf.width)
    cw, rw = table.cushion_width_mm, look.rail_width_mm
    w, length = table.width_mm, table.length_mm
    s = tf.s
    cloth = _bgr(look.cloth_rgb)
    img = np.empty((*shape, 3), np.uint8)
    img[:] = np.round(_bgr(look.floor_rgb)).astype(np.uint8)
    rail_outer = tf.px(_rounded_rect(-cw - rw, -cw - rw, w + cw + rw, length + cw + rw, RAIL_CORNER * rw))
    _fill(img, [rail_outer], _bgr(look.rail_rgb))
    pockets = [pocket_shapes(table, p) for p in table.pockets]
    for _, centre, r in pockets:
        _fill(img, [tf.px(_circle(centre, r * POCKET_PLATE))], _bgr(look.pocket_rgb) * POCKET_PLATE_SHADE)
    cushion_outer = tf.px(_rect(-cw, -cw, w + cw, length + cw))
    cushions = [tf.px(q) for q in cushion_polygons(table)]
    _fill(img, cushions, cloth * look.cushion_shade)
    cushion_mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(cushion_mask, [_fixed(q) for q in cushions], 1, cv2.LINE_8, PIXEL_SHIFT)
    _fill(img, [tf.px(_rect(0.0, 0.0, w, length))], cloth)
    for throat, _, _ in pockets:
        _fill(img, [tf.px(throat)], cloth * THROAT_SHADE)
    for _, centre, r in pockets:
        _fill(img, [tf.px(_circle(centre, r))], _bgr(look.pocket_rgb) * POCKET_RIM_SHADE)
        _fill(img, [tf.px(_circle(centre, r * POCKET_CORE))], _bgr(look.pocket_rgb))

    # Grain: felt (mottle, nap streaks along y, fine grain) on cloth, wood along each rail's length.
    def cells(mm: float) -> int:
        return max(1, int(mm * s))

    lum = look.cloth_mottle * _smooth_noise(rng, shape, cells(CLOTH_MOTTLE_MM), (1.0, 1.0))
    nap = _smooth_noise(rng, shape, cells(CLOTH_NAP_MM), (0.3, CLOTH_NAP_STREAK))
    lum += (CLOTH_NAP_SHARE * look.cloth_texture) * nap
    grain = _smooth_noise(rng, shape, cells(CLOTH_GRAIN_MM), (0.0, 0.0))
    lum += ((1 - CLOTH_NAP_SHARE) * look.cloth_texture) * grain
    region = np.zeros(shape, np.uint8)  # 0 floor, 1 rail, 2 cushions and bed
    cv2.fillPoly(region, [_fixed(rail_outer)], 1, cv2.LINE_8, PIXEL_SHIFT)
    cv2.fillPoly(region, [_fixed(cushion_outer)], 2, cv2.LINE_8, PIXEL_SHIFT)
    ends = np.zeros(shape, np.uint8)
    for y_lo, y_hi in ((-cw - rw, -cw), (length + cw, length + cw + rw)):
        box = tf.px(_rect(-cw - RAIL_CORNER * rw, y_lo, w + cw + RAIL_CORNER * rw, y_hi))
        cv2.fillPoly(ends, [_fixed(box)], 1, cv2.LINE_8, PIXEL_SHIFT)
    grain_y = _smooth_noise(rng, shape, cells(WOOD_GRAIN_MM), (0.2, WOOD_GRAIN_STREAK))
    grain_x = _smooth_noise(rng, shape, cells(WOOD_GRAIN_MM), (WOOD_GRAIN_STREAK, 0.2))
    wood = WOOD_GRAIN * np.where(ends.astype(bool), grain_x, grain_y)
    lum = np.where(region == 1, wood, np.where(region == 2, lum, np.float32(0.0)))
    lum += 1.0
    out = np.clip(img * lum[..., None], 0, 255).astype(np.uint8)

    lines, spots = _markings(table)
    mask = np.zeros(shape, np.uint8)
    _stroke_mask(mask, [tf.px(ln) for ln in lines], LINE_WIDTH_MM * s)
    if spots:
        cv2.fillPoly(
            mask,
            [_fixed(tf.px(_circle(c, SPOT_RADIUS_MM, 16))) for c in spots],
            255,
            cv2.LINE_AA,
            PIXEL_SHIFT,
        )
    _blend_mask(out, mask, _bgr(look.marking_rgb), look.marking_strength)
    diamonds = _diamonds(table, look)
    if diamonds:
        _fill(out, [tf.px(_circle(c, DIAMOND_RADIUS_MM, 4)) for c in diamonds], _bgr(look.marking_rgb))
    return out, cushion_mask


@dataclass(frozen=True)
class Background:
    image: np.ndarray  # H x W x 3 uint8, lit and vignetted
    gain: np.ndarray  # H x W float32: light x vignette x brightness, applied to balls at their centres


def _light_field(table: TableModel, look: Look, xy_mm: np.ndarray) -> np.ndarray:
    """Relative illumination at table points, 1.0 at the brightest point of the playing area."""

    def field(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        out = np.full(x.shape, look.ambient, np.float64)
        for lamp in look.lamps:
            lx, ly = lamp.uv[0] * table.width_mm, lamp.uv[1] * table.length_mm
            sig = lamp.sigma * table.length_mm
            out += lamp.gain * np.exp(-((x - lx) ** 2 + (y - ly) ** 2) / (2 * sig * sig))
        return out

    gx, gy = np.meshgrid(np.linspace(0, table.width_mm, 24), np.linspace(0, table.length_mm, 48))
    peak = float(field(gx, gy).max()) or 1.0
    return field(xy_mm[..., 0], xy_mm[..., 1]) / peak


def _upsample(field: np.ndarray, step: int, width: int, height: int) -> np.ndarray:
    """Undo ``_coarse_grid``: interpolate a field sampled there back to every pixel."""
    h, w = field.shape[:2]
    big = cv2.resize(field, (w * step, h * step), interpolation=cv2.INTER_LINEAR)
    return big[step : step + height, step : step + width]


def _coarse_grid(width: int, height: int, step: int) -> tuple[np.ndarray, int, int]:
    """Pixel positions whose bilinear upsampling by ``step`` (cv2.resize's half-pixel convention) lands
    exactly on the pixel grid, with one extra sample beyond each edge so borders interpolate too."""
    nw, nh = -(-width // step) + 2, -(-height // step) + 2
    offset = (step - 1) / 2 - step  # small index j sits at full-res coordinate step * j + offset
    u = step * np.arange(nw) + offset
    v = step * np.arange(nh) + offset
    uu, vv = np.meshgrid(u, v)
    return np.stack([uu.ravel(), vv.ravel()], axis=1), nw, nh


def build_background(table: TableModel, camera: Camera, look: Look, seed: int) -> Background:
    """The static frame: the table texture warped through the camera (two height planes: cloth at z=0,
    cushion tops and rails at cushion height), lit by the lamps and vignetted."""
    rng = np.random.default_rng([seed, _stable_hash("background")])
    w_img, h_img = camera.width, camera.height
    cw, rw = table.cushion_width_mm, look.rail_width_mm
    pad = cw + rw + FLOOR_MARGIN_MM
    centre = np.array([[table.width_mm / 2, table.length_mm / 2, 0.0]])
    s = float(camera.px_per_mm(centre)[0]) * TEXTURE_OVERSAMPLE
    tf = _TextureFrame(
        x0=-pad,
        y0=-pad,
        s=s,
        width=math.ceil((table.width_mm + 2 * pad) * s) + 1,
        height=math.ceil((table.length_mm + 2 * pad) * s) + 1,
    )
    tex, cushion_mask = _table_texture(table, look, rng, tf)

    grid, nw, nh = _coarse_grid(w_img, h_img, MAP_STEP)
    d = camera.rays(grid, precise=False)
    c = camera.centre_mm
    p0 = c[None, :2] + ((0.0 - c[2]) / d[:, 2])[:, None] * d[:, :2]
    ph = c[None, :2] + ((table.cushion_height_mm - c[2]) / d[:, 2])[:, None] * d[:, :2]

    def outside_mm(p: np.ndarray) -> np.ndarray:
        """Signed distance beyond the cushion noses: > 0 off the bed, < 0 on it."""
        return np.maximum.reduce([-p[:, 0], p[:, 0] - table.width_mm, -p[:, 1], p[:, 1] - table.length_mm])

    # A ray still over the bed at cushion height reaches the cloth, unless it meets a far cushion face.
    d0, dh = outside_mm(p0), outside_mm(ph)
    p = np.where((dh <= 0)[:, None], p0, ph)
    # Face weight ramps over one coarse sample, so the upsampled shade has smooth (antialiased) edges.
    soft = MAP_STEP / s * TEXTURE_OVERSAMPLE
    cols = np.clip(np.round(tf.px(p0)).astype(np.int64), 0, [tf.width - 1, tf.height - 1])
    face = (
        np.clip(d0 / soft + 0.5, 0, 1)
        * np.clip(-dh / soft + 0.5, 0, 1)
        * (cushion_mask[cols[:, 1], cols[:, 0]] > 0)
    )
    tpx = tf.px(p).astype(np.float32).reshape(nh, nw, 2)
    light = _light_field(table, look, p).astype(np.float32)
    shade = (1.0 - (1.0 - look.face_shade) * face).astype(np.float32)
    maps = _upsample(tpx, MAP_STEP, w_img, h_img)
    lit = _upsample((light * shade).reshape(nh, nw), MAP_STEP, w_img, h_img)
    light_only = _upsample(light.reshape(nh, nw), MAP_STEP, w_img, h_img)
    warped = cv2.remap(
        tex,
        maps[..., 0],
        maps[..., 1],
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=tuple(float(x) for x in _bgr(look.floor_rgb)),
    )
    k = np.asarray(camera.K)
    xs = (np.arange(w_img, dtype=np.float32) - np.float32(k[0, 2])) ** 2
    ys = (np.arange(h_img, dtype=np.float32) - np.float32(k[1, 2])) ** 2
    rr = ys[:, None] + xs[None, :]
    vignette = 1.0 - np.float32(look.vignette) * rr / rr.max()
    gain = np.float32(look.brightness) * vignette
    image = cv2.multiply(warped, cv2.merge([gain * lit] * 3), dtype=cv2.CV_8U)
    return Background(image, (gain * light_only).astype(np.float32))


# ---------------------------------------------------------------------------------------------- sprites
def _random_rotation(rng: np.random.Generator) -> np.ndarray:
    q = rng.standard_normal(4)
    q /= np.linalg.norm(q)
    w, x, y, z = q
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def _digit_glyph(number: int) -> np.ndarray:
    """A GLYPH_PX square mask (1 = ink) of the number, centred; 6 and 9 are underlined as on real balls."""
    g = np.zeros((GLYPH_PX, GLYPH_PX), np.uint8)
    text = str(number)
    font = cv2.FONT_HERSHEY_DUPLEX
    thick = 5
    scale = 1.0
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    scale = 0.72 * GLYPH_PX / max(tw, th * 1.15)
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    org = ((GLYPH_PX - tw) // 2, (GLYPH_PX + th) // 2)
    cv2.putText(g, text, org, font, scale, 1, thick, cv2.LINE_8)
    if number in (6, 9):
        y = org[1] + thick + 2
        cv2.line(g, (org[0] + tw // 5, y), (org[0] + tw - tw // 5, y), 1, thick - 1)
    return g.astype(np.float32)


def _smear(
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
    uk = (np.arange(k) + 0.5) / k
    parts_c, parts_s, parts_a = [], [], []
    out_m: list[list[int]] = [[] for _ in members]
    weights = [k] * len(members)
    n = 0

    def put(i: int, pc: np.ndarray, ps: np.ndarray, pa: np.ndarray) -> None:
        nonlocal n
        parts_c.append(pc)
        parts_s.append(ps)
        parts_a.append(pa)
        out_m[i] = list(range(n, n + len(pc)))
        n += len(pc)

    still = [j for j, m in enumerate(copies) if m == 1]
    if still:  # one copy each, at the middle sample
        mid = idx[still, k // 2]
        for j, i in enumerate(full[jj] for jj in still):
            out_m[i] = [n + j]
            weights[i] = 1
        parts_c.append(cen[mid])
        parts_s.append(sh[mid])
        parts_a.append(axes[mid])
        n += len(mid)
    for j, m in enumerate(copies):
        if m == 1:
            continue
        i = full[j]
        u = (np.arange(m) + 0.5) / m
        x = (u - uk[0]) * (k - 1) / (uk[-1] - uk[0])  # fractional sample index, extrapolated at the ends
        i0 = np.minimum(np.maximum(np.floor(x).astype(np.int64), 0), k - 2)
        f = (x - i0)[:, None]
        mem = idx[j]
        a, b = mem[i0], mem[i0 + 1]
        put(
            i,
            cen[a] * (1 - f) + cen[b] * f,
            sh[a] * (1 - f) + sh[b] * f,
            axes[a] * (1 - f[:, :, None]) + axes[b] * f[:, :, None],
        )
        weights[i] = m
    for i, mem in enumerate(members):
        if len(mem) != k:
            put(i, cen[mem], sh[mem], axes[mem])
    return np.concatenate(parts_c), np.concatenate(parts_s), np.concatenate(parts_a), out_m, weights


def _radius_bin(radius: np.ndarray) -> np.ndarray:
    """The cached sprite radius for apparent radii: half-pixel steps (the warp covers the rest)."""
    return np.maximum(SPRITE_RADIUS_STEP, np.round(radius / SPRITE_RADIUS_STEP) * SPRITE_RADIUS_STEP)


def _sprite_centre(r_bin: np.ndarray | float) -> np.ndarray:
    """Centre index of a ball sprite of radius ``r_bin``: the sprite is 2 * centre + 1 px square."""
    return np.ceil(np.asarray(r_bin, dtype=np.float64) + SPRITE_MARGIN_PX)


def _shadow_blur(r_bin: np.ndarray | float, softness: float) -> np.ndarray:
    return np.maximum(SHADOW_MIN_BLUR_PX, softness * np.asarray(r_bin, dtype=np.float64))


def _shadow_centre(r_bin: np.ndarray | float, softness: float) -> np.ndarray:
    """Centre index of a shadow sprite: the disc plus three blur sigmas."""
    return np.ceil(np.asarray(r_bin, dtype=np.float64) * SHADOW_SIZE + 3 * _shadow_blur(r_bin, softness))


def _ball_sprite(
    bl: BallLook, radius: float, orient: np.ndarray, look: Look, glyph: np.ndarray | None
) -> np.ndarray:
    """A shaded ball of ``radius`` px centred in an odd square: BGR premultiplied by alpha, plus alpha.
    Shading: Lambert from the light implied by the highlight position, Phong highlight, cloth bounce."""
    size = 2 * int(_sprite_centre(radius)) + 1
    ss = SPRITE_SUPERSAMPLE
    c = (size - 1) / 2
    coords = (np.arange(size * ss, dtype=np.float32) + 0.5) / ss - 0.5 - c
    xx, yy = np.meshgrid(coords / radius, coords / radius)
    rr = xx * xx + yy * yy
    inside = rr < 1.0
    nz = np.sqrt(np.clip(1.0 - rr, 0.0, 1.0))
    n = np.stack([xx, yy, nz], axis=-1)
    # Material in the ball's own frame; (x right, y up, z to the camera) is right-handed, so the print is
    # not mirrored (image rows run down).
    local = np.stack([xx, -yy, nz], axis=-1) @ orient.T
    base = _bgr(bl.rgb)
    white = _bgr(BALL_WHITE_RGB)
    col = np.broadcast_to(base, (*xx.shape, 3)).copy()
    if bl.striped:
        col[np.abs(local[..., 2]) >= STRIPE_HALF_HEIGHT] = white
    if bl.number is not None and glyph is not None:
        bare = bl.cls == "pyramid_ball"
        cap_sin = PYRAMID_NUMBER_SIN if bare else NUMBER_DISC_SIN
        cap_cos = math.sqrt(1 - cap_sin * cap_sin)
        for sign in (1.0, -1.0):
            in_cap = sign * local[..., 0] > cap_cos
            if not bare:
                col[in_cap] = white
            gu = (sign * local[..., 1] / cap_sin + 1) * 0.5 * (GLYPH_PX - 1)
            gv = (1 - (local[..., 2] / cap_sin + 1) * 0.5) * (GLYPH_PX - 1)
            gi = np.clip(np.round(gv).astype(np.int32), 0, GLYPH_PX - 1)
            gj = np.clip(np.round(gu).astype(np.int32), 0, GLYPH_PX - 1)
            ink = in_cap & (glyph[gi, gj] > 0)
            col[ink] = _bgr(PYRAMID_INK_RGB if bare else NUMBER_INK_RGB)
    # Lighting in the image frame: the highlight normal H, light L = reflection of the view (0, 0, 1).
    hx, hy = look.highlight_uv
    h = np.array([hx, hy, math.sqrt(max(1e-6, 1 - hx * hx - hy * hy))], np.float32)
    light = 2 * h[2] * h - np.array([0, 0, 1], np.float32)
    lambert = np.clip(n @ light, 0.0, 1.0)
    shade = look.ball_ambient + (1 - look.ball_ambient) * lambert
    spec = look.highlight_strength * np.clip(n @ h, 0.0, 1.0) ** look.shininess
    rim = look.cloth_reflection * (1 - nz) ** 2
    rgb = col * shade[..., None] + 255.0 * spec[..., None] + _bgr(look.cloth_rgb) * rim[..., None]
    alpha = inside.astype(np.float32)
    out = np.concatenate([rgb * alpha[..., None], alpha[..., None]], axis=-1).astype(np.float32)
    return cv2.resize(out, (size, size), interpolation=cv2.INTER_AREA)


def _shadow_sprite(radius: float, softness: float) -> np.ndarray:
    """Soft disc of alpha for a ball's contact shadow."""
    blur = float(_shadow_blur(radius, softness))
    size = 2 * int(_shadow_centre(radius, softness)) + 1
    c = (size - 1) / 2
    a = np.zeros((size, size), np.float32)
    cv2.circle(a, (int(c), int(c)), round(radius * SHADOW_SIZE), 1.0, -1, cv2.LINE_AA)
    return cv2.GaussianBlur(a, (0, 0), blur)


# ---------------------------------------------------------------------------------------------- renderer
@dataclass(frozen=True)
class _Poly:
    """An occluder part in the image: outline and flat colour."""

    pts_px: np.ndarray  # (N, 2)
    bgr: tuple[float, float, float]


class TableRenderer:
    """Renders one shot's frames. Build it once per shot (the background and sprites are cached), then call
    ``render`` per frame. ``stroke`` places the cue stick (the physics knows the strike), ``clip_s`` (the
    clip duration) schedules the reaching arm of ``look.arm``; without them those occluders are not drawn."""

    def __init__(
        self,
        table: TableModel,
        game: str,
        camera: Camera,
        look: Look,
        seed: int,
        *,
        stroke: Stroke | None = None,
        clip_s: float | None = None,
    ) -> None:
        if game != table.game:
            raise ValueError(f"table {table.name!r} is for {table.game!r}, not {game!r}")
        if clip_s is not None and clip_s <= 0:
            raise ValueError(f"clip_s must be positive, got {clip_s}")
        self.table, self.game, self.camera, self.look, self.seed = table, game, camera, look, int(seed)
        self.stroke, self.clip_s = stroke, clip_s
        self._radius_mm = table.ball_radius_mm
        self._looks = {bid: billiards(game).look(bid) for bid in billiards(game).balls}
        # Pin heads are drawn like tiny balls; they share the sprite cache under their ids.
        pin_looks = {p.id: BallLook("pin_standing", PIN_RGB.get(p.id, PIN_WHITE)) for p in table.pins}
        self._pins: dict[str, PinSpec] = {p.id: p for p in table.pins}
        self._orient = {
            bid: _random_rotation(np.random.default_rng([self.seed, _stable_hash("orient", bid)]))
            for bid in self._looks
        }
        self._ball_ids = frozenset(self._looks)
        self._looks.update(pin_looks)
        self._orient.update({pid: np.eye(3) for pid in pin_looks})
        self._glyphs: dict[int, np.ndarray] = {}
        self._sprites: dict[tuple[str, float], np.ndarray] = {}
        self._shadows: dict[float, np.ndarray] = {}
        bg = build_background(table, camera, look, self.seed)
        self._bg, self._gain = bg.image, bg.gain
        self._bg.setflags(write=False)
        self._gain.setflags(write=False)
        self._noise = self._noise_field()

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
        return self._compose(self._bg, self._gain, samples)

    # --- per frame ---
    def _compose(self, bg: np.ndarray, gain: np.ndarray, samples: tuple[SceneSample, ...]) -> RenderedFrame:
        cam, look = self.camera, self.look
        k = len(samples)
        mid_i = k // 2
        mid = samples[mid_i]
        t = float(mid.t)
        img = bg.copy()

        ids = [b.id for b in mid.balls if b.on_table]
        for bid in ids:
            if bid not in self._ball_ids:
                raise ValueError(f"{self.game} has no ball {bid!r}")
        index = {bid: i for i, bid in enumerate(ids)}
        members: list[list[int]] = [[] for _ in ids]  # entries (ball at one sub-sample) of each ball
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
        objects: list[RenderedObject] = []
        occluders = self._occluders(t, mid)
        occ_mask = self._occluder_mask(occluders) if occluders else None

        if ids:
            r_mm = self._radius_mm
            n = len(xy)
            p = np.array(xy, dtype=np.float64)
            cen, axes = cam.sphere_axes_px(np.c_[p, np.full(n, r_mm)], r_mm)
            off = np.array(look.shadow_offset) * r_mm
            both = cam.project(
                np.concatenate([np.c_[p + off, np.zeros(n)], np.c_[p[mid_entry], np.full(len(ids), r_mm)]])
            )
            sh_px, truth_px = both[:n], both[n:]
            radius = np.sqrt(np.abs(axes[:, 0, 0] * axes[:, 1, 1] - axes[:, 0, 1] * axes[:, 1, 0]))
            cen_mid, axes_mid = cen[mid_entry], axes[mid_entry]
            mid_bins = _radius_bin(radius[mid_entry])  # one sprite per ball, sized at the middle sample
            mb = mid_bins.tolist()
            weights = [k] * len(ids)  # each drawn copy of ball i carries 1 / weights[i]
            if k > 1:
                cen, sh_px, axes, members, weights = _smear(cen, sh_px, axes, members, k)
            group = np.empty(len(cen), np.int64)
            for i, mem in enumerate(members):
                group[mem] = i
            bins = mid_bins[group]
            if look.shadow_strength > 0:
                boxes, mats = self._splat_plan(
                    sh_px, axes, bins, _shadow_centre(bins, look.shadow_softness), group, len(ids)
                )
                for i, mem in enumerate(members):
                    self._blend_shadow(img, boxes[i], [mats[j] for j in mem], mb[i], weights[i])
            boxes, mats = self._splat_plan(cen, axes, bins, _sprite_centre(bins), group, len(ids))
            tp = truth_px.tolist()
            for i, bid in enumerate(ids):
                cx, cy = tp[i]
                g = _gain_at(gain, cx, cy)
                sprite = self._sprite(bid, mb[i])
                self._blend_ball(img, sprite, boxes[i], [mats[j] for j in members[i]], weights[i], g)
            cen, axes = cen_mid, axes_mid
            half = np.stack(
                [np.hypot(axes[:, 0, 0], axes[:, 0, 1]), np.hypot(axes[:, 1, 0], axes[:, 1, 1])], axis=1
            ).tolist()
            rad = radius[mid_entry].tolist()
            for i, bid in enumerate(ids):
                objects.append(self._record(bid, self._looks[bid].cls, tp[i], rad[i], half[i], occ_mask))

        objects += self._draw_pins(img, mid.pins, gain, occ_mask)
        self._draw_occluders(img, occluders, gain)
        self._add_noise(img, t)
        return RenderedFrame(t, img, tuple(objects))

    def _record(
        self,
        oid: str,
        cls: str,
        xy: Sequence[float],
        radius: float,
        half: Sequence[float],
        occ_mask: np.ndarray | None,
    ) -> RenderedObject:
        w_img, h_img = self.camera.width, self.camera.height
        cx, cy = float(xy[0]), float(xy[1])
        hx, hy = float(half[0]), float(half[1])
        box = (
            min(max(cx - hx, 0.0), w_img),
            min(max(cy - hy, 0.0), h_img),
            min(max(cx + hx, 0.0), w_img),
            min(max(cy + hy, 0.0), h_img),
        )
        if (
            occ_mask is None
            and cx - radius >= 0
            and cy - radius >= 0
            and cx + radius < w_img
            and cy + radius < h_img
        ):
            return RenderedObject(oid, cls, (cx, cy), float(radius), box, False, 1.0)
        visible, hidden = self._visibility(cx, cy, radius, occ_mask)
        return RenderedObject(oid, cls, (cx, cy), float(radius), box, hidden, visible)

    def _visibility(self, cx: float, cy: float, r: float, occ_mask: np.ndarray | None) -> tuple[float, bool]:
        """Share of the disk in the frame and not occluded; hidden if the centre or half of it is covered."""
        w_img, h_img = self.camera.width, self.camera.height
        x0, x1 = math.floor(cx - r), math.ceil(cx + r) + 1
        y0, y1 = math.floor(cy - r), math.ceil(cy + r) + 1
        yy, xx = np.mgrid[y0:y1, x0:x1]
        disk = (xx - cx) ** 2 + (yy - cy) ** 2 <= r * r
        total = int(disk.sum())
        if total == 0:
            return 0.0, True
        inframe = disk & (xx >= 0) & (xx < w_img) & (yy >= 0) & (yy < h_img)
        covered = np.zeros_like(disk)
        centre_hidden = False
        if occ_mask is not None:
            cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w_img), min(y1, h_img)
            if cx1 > cx0 and cy1 > cy0:
                covered[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0] = occ_mask[cy0:cy1, cx0:cx1] > 0
            ix, iy = round(cx), round(cy)
            centre_hidden = 0 <= ix < w_img and 0 <= iy < h_img and bool(occ_mask[iy, ix])
        occluded = int((disk & covered).sum())
        visible = int((inframe & ~covered).sum()) / total
        hidden = centre_hidden or occluded > total / 2 or visible == 0.0
        return visible, hidden

    def _splat_plan(
        self,
        centres: np.ndarray,
        axes: np.ndarray,
        r_bin: np.ndarray,
        sprite_c: np.ndarray,
        group: np.ndarray,
        n_groups: int,
    ) -> tuple[list[list[int]], np.ndarray]:
        """For sprites drawn at ``centres`` through ``axes``: each group's ROI (x0, y0, x1, y1) in the image
        and each entry's affine (sprite px -> ROI px), all at once rather than per ball."""
        scale = (sprite_c / r_bin)[:, None]
        half = (np.abs(axes[:, :, 0]) + np.abs(axes[:, :, 1])) * scale
        lo, hi = centres - half, centres + half
        glo = np.full((n_groups, 2), np.inf)
        ghi = np.full((n_groups, 2), -np.inf)
        np.minimum.at(glo, group, lo)
        np.maximum.at(ghi, group, hi)
        size = np.array([self.camera.width, self.camera.height])
        b0 = np.clip(np.floor(glo).astype(np.int64) - 1, 0, size)
        b1 = np.clip(np.ceil(ghi).astype(np.int64) + 2, 0, size)
        m = axes / r_bin[:, None, None]
        t = centres - b0[group] - sprite_c[:, None] * (m[:, :, 0] + m[:, :, 1])
        mats = np.concatenate([m, t[:, :, None]], axis=2)
        return np.concatenate([b0, b1], axis=1).tolist(), mats

    def _blend_shadow(
        self, img: np.ndarray, box: list[int], mats: list[np.ndarray], r_bin: float, k: int
    ) -> None:
        """Darken ``img`` under a ball's soft shadow (averaged over the sub-samples)."""
        x0, y0, x1, y1 = box
        if x1 <= x0 or y1 <= y0:
            return
        sprite = self._shadows.get(r_bin)
        if sprite is None:  # stored as the factor that keeps light: 1 - strength * coverage
            alpha = _shadow_sprite(r_bin, self.look.shadow_softness)
            sprite = self._shadows[r_bin] = 1.0 - np.float32(self.look.shadow_strength) * alpha
        acc = None
        for m in mats:
            wa = cv2.warpAffine(
                sprite,
                m,
                (x1 - x0, y1 - y0),
                flags=cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_CONSTANT,
                borderValue=1.0,
            )
            acc = wa if acc is None else acc + wa
        if k > 1:
            acc *= 1.0 / k
        roi = img[y0:y1, x0:x1]
        cv2.multiply(roi, cv2.cvtColor(acc, cv2.COLOR_GRAY2BGR), dst=roi, dtype=cv2.CV_8U)

    def _sprite(self, bid: str, r_bin: float) -> np.ndarray:
        key = (bid, r_bin)
        sprite = self._sprites.get(key)
        if sprite is None:
            bl = self._looks[bid]
            glyph = None
            if bl.number is not None:
                glyph = self._glyphs.get(bl.number)
                if glyph is None:
                    glyph = self._glyphs[bl.number] = _digit_glyph(bl.number)
            sprite = self._sprites[key] = _ball_sprite(bl, r_bin, self._orient[bid], self.look, glyph)
        return sprite

    @staticmethod
    def _blend_ball(
        img: np.ndarray, sprite: np.ndarray, box: list[int], mats: list[np.ndarray], k: int, gain: float
    ) -> None:
        """Average the sprite over the sub-sample positions (box filter = motion blur) onto ``img``."""
        x0, y0, x1, y1 = box
        if x1 <= x0 or y1 <= y0:
            return
        acc = None
        for m in mats:
            wa = cv2.warpAffine(
                sprite,
                m,
                (x1 - x0, y1 - y0),
                flags=cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_CONSTANT,
                borderValue=(0, 0, 0, 0),
            )
            acc = wa if acc is None else acc + wa
        roi = img[y0:y1, x0:x1]
        out = roi * (1.0 - acc[..., 3:4] * (1.0 / k))
        out += acc[..., :3] * (gain / k)
        np.minimum(out, 255.0, out=out)
        roi[...] = out

    def _draw_pins(
        self, img: np.ndarray, pins: Sequence[PinState], gain: np.ndarray, occ_mask: np.ndarray | None
    ) -> list[RenderedObject]:
        if not pins:
            return []
        cam, look = self.camera, self.look
        out: list[RenderedObject] = []
        for pin in pins:
            spec = self._pins.get(pin.id)
            if spec is None:
                raise ValueError(f"{self.game} has no pin {pin.id!r}")
            x, y = pin.xy_mm
            if pin.down:  # base, head end, middle (the reference point), lying at head height
                dx, dy = math.cos(pin.fall_angle_rad), math.sin(pin.fall_angle_rad)
                zb = spec.head_diameter_mm / 2
                pts = np.array(
                    [
                        [x, y, zb],
                        [x + dx * spec.height_mm, y + dy * spec.height_mm, zb],
                        [x + dx * spec.height_mm / 2, y + dy * spec.height_mm / 2, zb],
                    ]
                )
            else:  # base, head top (the reference point, what the camera sees), head top
                pts = np.array([[x, y, 0.0], [x, y, spec.height_mm], [x, y, spec.height_mm]])
            base_px, head_px, ref_px = cam.project(pts)
            head_c = pts[1:2].copy()
            head_c[0, 2] -= spec.head_diameter_mm / 2 if not pin.down else 0.0
            centre, axes = cam.sphere_axes_px(head_c, spec.head_diameter_mm / 2)
            head_r = math.sqrt(abs(float(np.linalg.det(axes[0]))))
            scale = float(cam.px_per_mm(pts[2:3])[0])
            g = _gain_at(gain, float(ref_px[0]), float(ref_px[1]))
            sh_off = np.array(look.shadow_offset) * spec.head_diameter_mm
            sh_px = cam.project(np.array([[x + sh_off[0], y + sh_off[1], 0.0]]))
            one = np.zeros(1, np.int64)
            r_bin = _radius_bin(np.array([head_r]))
            if look.shadow_strength > 0:
                sh_axes = axes * PIN_SHADOW_SCALE
                sh_bin = _radius_bin(np.array([head_r * PIN_SHADOW_SCALE]))
                boxes, mats = self._splat_plan(
                    sh_px, sh_axes, sh_bin, _shadow_centre(sh_bin, look.shadow_softness), one, 1
                )
                self._blend_shadow(img, boxes[0], [mats[0]], float(sh_bin[0]), 1)
            # The body shows as a short bar from the base to the head when off-axis or lying down.
            body = tuple(float(c) * g * PIN_BODY_SHADE for c in _bgr(self._looks[pin.id].rgb))
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
            boxes, mats = self._splat_plan(centre, axes, r_bin, _sprite_centre(r_bin), one, 1)
            self._blend_ball(img, self._sprite(pin.id, float(r_bin[0])), boxes[0], [mats[0]], 1, g)
            if pin.down:
                half = (abs(head_px[0] - base_px[0]) / 2 + head_r, abs(head_px[1] - base_px[1]) / 2 + head_r)
                cls, xy = "pin_down", ref_px
            else:
                half = (head_r, head_r)
                cls, xy = "pin_standing", head_px
            out.append(self._record(pin.id, cls, (float(xy[0]), float(xy[1])), head_r, half, occ_mask))
        return out

    # --- occluders: a deterministic function of (seed, t) ---
    def _occluders(self, t: float, mid: SceneSample) -> list[_Poly]:
        """Polygons in draw order (pixels) of the cue stick, bridge hand and reaching arm at time ``t``."""
        shapes: list[tuple[np.ndarray, RGB]] = []  # (points mm (N, 3), rgb)
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
        polys: list[_Poly] = []
        i = 0
        for s, rgb in shapes:
            n = len(s)
            polys.append(_Poly(px[i : i + n], tuple(float(c) for c in _bgr(rgb))))
            i += n
        return polys

    def _cue_shapes(self, t: float, cue: CueLook, stroke: Stroke) -> list[tuple[np.ndarray, RGB]]:
        r = self._radius_mm
        dt = t - stroke.t
        if dt >= cue.withdraw_s:
            return []
        g_min, g_max = cue.gap_mm
        t_feather_end = stroke.t - cue.stroke_s
        lift = 0.0
        if t < t_feather_end:
            phase = 2 * math.pi * cue.feather_hz * (t - t_feather_end)
            gap = g_min + (g_max - g_min) * 0.5 * (1 - math.cos(phase))
        elif dt < 0:
            p = (t - t_feather_end) / cue.stroke_s
            gap = (1 - p) * g_min + CUE_BACKSWING * g_max * math.sin(math.pi * p) ** 2
        elif dt < FOLLOW_S:
            gap = -cue.follow_mm * dt / FOLLOW_S
        else:
            p = (dt - FOLLOW_S) / max(cue.withdraw_s - FOLLOW_S, 1e-6)
            gap = -cue.follow_mm + p * p * (cue.length_mm + WITHDRAW_EXTRA_MM)
            lift = p
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
        shapes: list[tuple[np.ndarray, RGB]] = [
            (segment(tip_f, ferrule_f), CUE_FERRULE_RGB),
            (segment(0.0, tip_f), CUE_TIP_RGB),
            (segment(ferrule_f, CUE_JOINT), cue.shaft_rgb),
            (segment(CUE_JOINT, 1.0), cue.butt_rgb),
            (segment(ferrule_f, CUE_JOINT, CUE_SHEEN_WIDTH, CUE_SHEEN_SHIFT), sheen),
        ]
        if cue.bridge_hand and dt < BRIDGE_LIFT * cue.withdraw_s:
            hand_c = np.array([bx - ax * (r + cue.bridge_mm), by - ay * (r + cue.bridge_mm)])
            bend, z_hand, z_elbow, width = BRIDGE_ARM
            arm = self._hand_and_forearm(
                hand_c, np.array([-ax, -ay]), bend, z_hand, z_elbow, width, BRIDGE_SLEEVE_RGB, cue.skin_rgb
            )
            shapes = [*arm, *shapes]
        return shapes

    def _hand_and_forearm(
        self,
        hand_c: np.ndarray,
        back: np.ndarray,
        bend_rad: float,
        z_hand: float,
        z_elbow: float,
        width_mm: float,
        sleeve: RGB,
        skin: RGB,
    ) -> list[tuple[np.ndarray, RGB]]:
        """A hand ellipse at ``hand_c`` and a forearm leaving it along ``back`` turned by ``bend_rad``."""
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
        return [(arm, sleeve), (hand, skin)]

    def _arm_shapes(self, t: float) -> list[tuple[np.ndarray, RGB]]:
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
        rng = np.random.default_rng([self.seed, _stable_hash("arm")])
        bend = float(rng.uniform(-ARM_BEND_RAD, ARM_BEND_RAD))
        z_hand, z_elbow, z_shoulder = arm.height_mm, arm.height_mm * ARM_RISE[0], arm.height_mm * ARM_RISE[1]
        shapes = self._hand_and_forearm(
            hand, back, bend, z_hand, z_elbow, arm.width_mm, arm.sleeve_rgb, arm.skin_rgb
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

    def _occluder_mask(self, polys: list[_Poly]) -> np.ndarray:
        mask = np.zeros((self.camera.height, self.camera.width), np.uint8)
        cv2.fillPoly(mask, [_fixed(p.pts_px) for p in polys], 255, cv2.LINE_8, PIXEL_SHIFT)
        return mask

    def _draw_occluders(self, img: np.ndarray, polys: list[_Poly], gain: np.ndarray) -> None:
        if not polys:
            return
        for p in polys:
            c = p.pts_px.mean(axis=0)
            g = _gain_at(gain, float(c[0]), float(c[1]))
            colour = tuple(min(255.0, v * g) for v in p.bgr)
            cv2.fillPoly(img, [_fixed(p.pts_px)], colour, cv2.LINE_AA, PIXEL_SHIFT)

    # --- sensor noise ---
    def _noise_field(self) -> np.ndarray | None:
        """The positive half of a gaussian noise field, flat and a few rows longer than a frame. A frame
        adds it at one offset and subtracts it at another: two contiguous saturating passes, symmetric
        zero-mean noise with standard deviation ``look.noise_sigma`` (the scale undoes the halving)."""
        sigma = self.look.noise_sigma
        if sigma <= 0:
            return None
        rng = np.random.default_rng([self.seed, _stable_hash("noise")])
        size = (self.camera.height + NOISE_PAD) * self.camera.width * 3
        scale = np.float32(sigma / math.sqrt(1.0 - 1.0 / math.pi))  # var(X+ - Y+) = (1 - 1/pi) var(X)
        n = np.rint(rng.standard_normal(size, dtype=np.float32) * scale)
        return np.clip(n, 0, 255).astype(np.uint8)

    def _add_noise(self, img: np.ndarray, t: float) -> None:
        if self._noise is None:
            return
        h = zlib.crc32(struct.pack("<qd", self.seed, t))
        slots = NOISE_PAD * self.camera.width * 3 // NOISE_ALIGN
        up, down = (h % slots) * NOISE_ALIGN, ((h // slots) % slots) * NOISE_ALIGN
        if up == down:
            down = (down + NOISE_ALIGN * (slots // 2)) % (slots * NOISE_ALIGN)
        n = img.size
        cv2.add(img, self._noise[up : up + n].reshape(img.shape), dst=img)
        cv2.subtract(img, self._noise[down : down + n].reshape(img.shape), dst=img)


# ---------------------------------------------------------------------------------------------- bench
def bench_scene(table: TableModel) -> list[BallState]:
    """A snooker layout: colours on their spots, the white in the D, the reds racked behind the pink."""
    r = table.ball_radius_mm
    balls = [BallState(k, xy, False) for k, xy in table.spots.items()]
    apex_x, apex_y = table.spots["pink"][0], table.spots["pink"][1] + 2 * r + 1.0
    n = 1
    for row in range(5):
        for j in range(row + 1):
            x = apex_x + (j - row / 2) * 2 * r
            y = apex_y + row * r * math.sqrt(3)
            balls.append(BallState(f"red:{n}", (x, y), False))
            n += 1
    balls.append(BallState("white", (table.width_mm / 2 - 100.0, 600.0), False))
    return balls


def bench(width: int = 1280, height: int = 720, frames: int = 300, seed: int = 0) -> dict[str, float]:
    """Frames per second of ``TableRenderer.render`` on one core: a static 22-ball snooker scene (K=1), the
    same with three balls moving under K=3 blur, and a naive peer that rebuilds the warped background each
    frame (what a renderer without the per-shot cache does)."""
    if frames < 1:
        raise ValueError("frames must be >= 1")
    cv2.setNumThreads(1)
    table = billiards("snooker").table
    rng = np.random.default_rng(seed)
    camera = Camera.random(table, width, height, rng)
    look = replace(Look(), cue=None, arm=None)
    renderer = TableRenderer(table, "snooker", camera, look, seed)
    balls = bench_scene(table)
    fps_video = 30.0
    samples = [SceneSample(i / fps_video, tuple(balls)) for i in range(frames)]

    velocity = {"white": (900.0, 2400.0), "red:1": (-1200.0, -800.0), "blue": (600.0, -1500.0)}  # mm/s

    def moving(t: float) -> SceneSample:
        """Three balls rolling at 1.5-2.6 m/s (a firm shot), wrapped to stay on the cloth."""
        out = []
        r = table.ball_radius_mm
        for b in balls:
            v = velocity.get(b.id)
            if v is None:
                out.append(b)
                continue
            x = r + (b.xy_mm[0] + v[0] * t - r) % (table.width_mm - 2 * r)
            y = r + (b.xy_mm[1] + v[1] * t - r) % (table.length_mm - 2 * r)
            out.append(BallState(b.id, (x, y), True))
        return SceneSample(t, tuple(out))

    blur = [
        [moving(tt) for tt in exposure_times(i / fps_video, fps_video, look.exposure, 3)]
        for i in range(frames)
    ]
    renderer.render([samples[0]])  # warm the sprite cache, as the first frame of a shot does
    renderer.render(blur[0])
    start = time.perf_counter()
    for s in samples:
        renderer.render([s])
    static_s = time.perf_counter() - start
    start = time.perf_counter()
    for ex in blur:
        renderer.render(ex)
    blur_s = time.perf_counter() - start
    naive_frames = max(1, min(frames, 10))
    start = time.perf_counter()
    for s in samples[:naive_frames]:
        bg = build_background(table, camera, look, seed)
        renderer._compose(bg.image, bg.gain, (s,))
    naive_s = time.perf_counter() - start
    return {
        "renderer_fps": frames / static_s,
        "renderer_blur_fps": frames / blur_s,
        "naive_fps": naive_frames / naive_s,
        "width": width,
        "height": height,
    }
