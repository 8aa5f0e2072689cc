"""The table seen straight down, in table millimetres: pockets, cushions, rails, cloth and wood grain, and
the markings of each game (chalk lines, spots, sights on the rails)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from arbiter.games import BilliardsSpec
from arbiter.tables import Pocket, TableModel

from ..look import Look
from ..world import world_of
from .draw import (
    PIXEL_SHIFT,
    XY,
    bgr,
    blend_mask,
    circle,
    fill,
    fixed,
    rect,
    rounded_rect,
    smooth_noise,
    stroke_mask,
)

LINE_WIDTH_MM = 2.5  # chalk lines
SPOT_RADIUS_MM = 5.0  # marked spots
DIAMOND_RADIUS_MM = 7.0  # sights on pool and carom rails
# Cloth grain: feature sizes in mm (mottle = worn patches and dye, nap = brushed streaks along y).
CLOTH_MOTTLE_MM, CLOTH_NAP_MM, CLOTH_GRAIN_MM = 250.0, 8.0, 3.0
CLOTH_NAP_STREAK = 6.0  # nap streak length, in nap cells
CLOTH_NAP_SHARE = 0.6  # of look.cloth_texture; the rest is isotropic grain
WOOD_GRAIN = 0.08  # relative luminance swing of the rails' grain
WOOD_GRAIN_MM, WOOD_GRAIN_STREAK = 6.0, 12.0  # grain width and streak length (cells) along the rail
RAIL_CORNER = 0.35  # outer rail corner radius, in rail widths
MARKER_WHITE, MARKER_BLACK = (232.0, 234.0, 236.0), (22.0, 22.0, 24.0)  # printed markers' paper and ink (BGR)
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


@dataclass(frozen=True)
class TextureFrame:
    """Texture raster <-> table mm: pixel (col, row) centre is at (x0 + col / s, y0 + row / s)."""

    x0: float
    y0: float
    s: float  # texture pixels per mm
    width: int
    height: int

    def px(self, xy_mm: np.ndarray) -> np.ndarray:
        return (np.asarray(xy_mm, dtype=np.float64) - [self.x0, self.y0]) * self.s


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


def markings(table: TableModel, chalk_lines: bool) -> tuple[list[np.ndarray], list[XY]]:
    """Chalk lines (as polylines in mm; the table's lines only where ``chalk_lines``) and spots of a table."""
    lines: list[np.ndarray] = []
    if chalk_lines:
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


def diamonds(table: TableModel, look: Look) -> list[XY]:
    """Sights on the rail centre line (pool and carom tables have them, snooker tables do not)."""
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


def _flat_table(
    table: TableModel, look: Look, tf: TextureFrame
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Flat colours, drawn by OpenCV (antialiased): floor, rail, pocket plates, cushions, bed, throats and
    holes. Returns the image, a mask of the cushion tops and the outlines of the rail and the cushions."""
    shape = (tf.height, tf.width)
    cw, rw = table.cushion_width_mm, look.rail_width_mm
    w, length = table.width_mm, table.length_mm
    cloth = bgr(look.cloth_rgb)
    img = np.empty((*shape, 3), np.uint8)
    img[:] = np.round(bgr(look.floor_rgb)).astype(np.uint8)
    rail_outer = tf.px(rounded_rect(-cw - rw, -cw - rw, w + cw + rw, length + cw + rw, RAIL_CORNER * rw))
    fill(img, [rail_outer], bgr(look.rail_rgb))
    pockets = [pocket_shapes(table, p) for p in table.pockets]
    for _, centre, r in pockets:
        fill(img, [tf.px(circle(centre, r * POCKET_PLATE))], bgr(look.pocket_rgb) * POCKET_PLATE_SHADE)
    cushion_outer = tf.px(rect(-cw, -cw, w + cw, length + cw))
    cushions = [tf.px(q) for q in cushion_polygons(table)]
    fill(img, cushions, cloth * look.cushion_shade)
    cushion_mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(cushion_mask, [fixed(q) for q in cushions], 1, cv2.LINE_8, PIXEL_SHIFT)
    fill(img, [tf.px(rect(0.0, 0.0, w, length))], cloth)
    for throat, _, _ in pockets:
        fill(img, [tf.px(throat)], cloth * THROAT_SHADE)
    for _, centre, r in pockets:
        fill(img, [tf.px(circle(centre, r))], bgr(look.pocket_rgb) * POCKET_RIM_SHADE)
        fill(img, [tf.px(circle(centre, r * POCKET_CORE))], bgr(look.pocket_rgb))
    return img, cushion_mask, rail_outer, cushion_outer


def _grain(
    table: TableModel,
    look: Look,
    rng: np.random.Generator,
    tf: TextureFrame,
    outlines: tuple[np.ndarray, np.ndarray],
) -> np.ndarray:
    """The luminance factor of the grain: felt (mottle, nap streaks along y, fine grain) on the cushions
    and the bed inside ``outlines[1]``, wood along each rail's length inside ``outlines[0]``, 1 elsewhere."""
    shape = (tf.height, tf.width)
    cw, rw = table.cushion_width_mm, look.rail_width_mm
    w, length = table.width_mm, table.length_mm
    rail_outer, cushion_outer = outlines

    def cells(mm: float) -> int:
        return max(1, int(mm * tf.s))

    lum = look.cloth_mottle * smooth_noise(rng, shape, cells(CLOTH_MOTTLE_MM), (1.0, 1.0))
    nap = smooth_noise(rng, shape, cells(CLOTH_NAP_MM), (0.3, CLOTH_NAP_STREAK))
    lum += (CLOTH_NAP_SHARE * look.cloth_texture) * nap
    grain = smooth_noise(rng, shape, cells(CLOTH_GRAIN_MM), (0.0, 0.0))
    lum += ((1 - CLOTH_NAP_SHARE) * look.cloth_texture) * grain
    region = np.zeros(shape, np.uint8)  # 0 floor, 1 rail, 2 cushions and bed
    cv2.fillPoly(region, [fixed(rail_outer)], 1, cv2.LINE_8, PIXEL_SHIFT)
    cv2.fillPoly(region, [fixed(cushion_outer)], 2, cv2.LINE_8, PIXEL_SHIFT)
    ends = np.zeros(shape, np.uint8)
    for y_lo, y_hi in ((-cw - rw, -cw), (length + cw, length + cw + rw)):
        box = tf.px(rect(-cw - RAIL_CORNER * rw, y_lo, w + cw + RAIL_CORNER * rw, y_hi))
        cv2.fillPoly(ends, [fixed(box)], 1, cv2.LINE_8, PIXEL_SHIFT)
    grain_y = smooth_noise(rng, shape, cells(WOOD_GRAIN_MM), (0.2, WOOD_GRAIN_STREAK))
    grain_x = smooth_noise(rng, shape, cells(WOOD_GRAIN_MM), (WOOD_GRAIN_STREAK, 0.2))
    wood = WOOD_GRAIN * np.where(ends.astype(bool), grain_x, grain_y)
    lum = np.where(region == 1, wood, np.where(region == 2, lum, np.float32(0.0)))
    lum += 1.0
    return lum


def _mark(img: np.ndarray, spec: BilliardsSpec, look: Look, tf: TextureFrame) -> None:
    """Chalk lines and spots blended onto the cloth, sights on the rails where the game's tables have them."""
    table, world = spec.table, world_of(spec)
    lines, spots = markings(table, world.chalk_lines)
    mask = np.zeros((tf.height, tf.width), np.uint8)
    stroke_mask(mask, [tf.px(ln) for ln in lines], LINE_WIDTH_MM * tf.s)
    if spots:
        cv2.fillPoly(
            mask,
            [fixed(tf.px(circle(c, SPOT_RADIUS_MM, 16))) for c in spots],
            255,
            cv2.LINE_AA,
            PIXEL_SHIFT,
        )
    blend_mask(img, mask, bgr(look.marking_rgb), look.marking_strength)
    sights = diamonds(table, look) if world.diamonds else []
    if sights:
        fill(img, [tf.px(circle(c, DIAMOND_RADIUS_MM, 4)) for c in sights], bgr(look.marking_rgb))


def _print_markers(
    img: np.ndarray, table: TableModel, look: Look, tf: TextureFrame, rng: np.random.Generator
) -> None:
    """Printed square markers on the rails (``look.rail_markers``): spread evenly round the rail's centre
    line from a random start, each a white square with a black border and a random code of black cells."""
    markers = look.rail_markers
    if markers is None or markers.count == 0:
        return
    off = table.cushion_width_mm + look.rail_width_mm / 2
    w, length = table.width_mm + 2 * off, table.length_mm + 2 * off
    perimeter = 2 * (w + length)
    side = min(markers.size_mm, 0.8 * look.rail_width_mm)
    n = markers.cells + 2  # the code and its black border
    start = rng.uniform(0, perimeter)
    for k in range(markers.count):
        d = (start + k * perimeter / markers.count) % perimeter
        if d < w:
            x, y = d, 0.0
        elif d < w + length:
            x, y = w, d - w
        elif d < 2 * w + length:
            x, y = 2 * w + length - d, length
        else:
            x, y = 0.0, perimeter - d
        code = np.zeros((n, n), bool)
        code[1:-1, 1:-1] = rng.random((markers.cells, markers.cells)) < 0.5
        x0, y0 = x - off - side / 2, y - off - side / 2
        cell = side / n
        paper = rect(x0 - cell, y0 - cell, x0 + side + cell, y0 + side + cell)  # a white margin round it
        fill(img, [tf.px(paper)], MARKER_WHITE)
        for i, j in zip(*np.nonzero(~code), strict=True):
            cx, cy = x0 + j * cell, y0 + i * cell
            fill(img, [tf.px(rect(cx, cy, cx + cell, cy + cell))], MARKER_BLACK)


def table_texture(
    spec: BilliardsSpec, look: Look, rng: np.random.Generator, tf: TextureFrame
) -> tuple[np.ndarray, np.ndarray]:
    """The table as seen straight down, lit evenly: albedo in BGR uint8 at the texture's resolution, and
    a mask of the cushion tops. Flat colours are drawn by OpenCV (antialiased), then one luminance field
    adds cloth and wood grain."""
    img, cushion_mask, rail_outer, cushion_outer = _flat_table(spec.table, look, tf)
    lum = _grain(spec.table, look, rng, tf, (rail_outer, cushion_outer))
    out = np.clip(img * lum[..., None], 0, 255).astype(np.uint8)
    _mark(out, spec, look, tf)
    _print_markers(out, spec.table, look, tf, rng)
    return out, cushion_mask
