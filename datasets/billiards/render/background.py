"""The static frame of a shot: the table texture warped through the camera, lit by the lamps, vignetted.

Built once per shot; every frame starts as a copy of it. The warp is solved on a coarse pixel grid and
interpolated (the map is smooth), with two height planes: the cloth at z = 0 and the cushion tops and rails
at cushion height, so a tilted camera sees the far cushion faces.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from arbiter.games import BilliardsSpec
from arbiter.tables import TableModel

from ..camera import Camera
from ..look import Look
from .draw import bgr, stable_hash
from .table import TextureFrame, table_texture

TEXTURE_OVERSAMPLE = 1.3  # table texture pixels per image pixel: sharper lines vs. build time
FLOOR_MARGIN_MM = 150.0  # floor drawn around the rails; beyond, the texture border colour is used
MAP_STEP = 2  # the camera->texture map is solved on every 2nd pixel and interpolated (smooth field)


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


def _texture_frame(table: TableModel, camera: Camera, look: Look) -> TextureFrame:
    """The texture raster: the table, rails and a margin of floor, a little finer than the image."""
    pad = table.cushion_width_mm + look.rail_width_mm + FLOOR_MARGIN_MM
    centre = np.array([[table.width_mm / 2, table.length_mm / 2, 0.0]])
    s = float(camera.px_per_mm(centre)[0]) * TEXTURE_OVERSAMPLE
    return TextureFrame(
        x0=-pad,
        y0=-pad,
        s=s,
        width=math.ceil((table.width_mm + 2 * pad) * s) + 1,
        height=math.ceil((table.length_mm + 2 * pad) * s) + 1,
    )


def _surface(
    table: TableModel, camera: Camera, tf: TextureFrame, cushion_mask: np.ndarray, grid: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Where the rays through ``grid`` pixels meet the table (mm), and how much each sees a cushion face."""
    d = camera.rays(grid, precise=False)
    c = camera.centre_mm
    p0 = c[None, :2] + ((0.0 - c[2]) / d[:, 2])[:, None] * d[:, :2]
    ph = c[None, :2] + ((table.cushion_height_mm - c[2]) / d[:, 2])[:, None] * d[:, :2]

    def outside_mm(p: np.ndarray) -> np.ndarray:
        """Signed distance beyond the cushion noses: > 0 off the bed, < 0 on it."""
        beyond: np.ndarray = np.maximum.reduce(
            [-p[:, 0], p[:, 0] - table.width_mm, -p[:, 1], p[:, 1] - table.length_mm]
        )
        return beyond

    # A ray still over the bed at cushion height reaches the cloth, unless it meets a far cushion face.
    d0, dh = outside_mm(p0), outside_mm(ph)
    p = np.where((dh <= 0)[:, None], p0, ph)
    # Face weight ramps over one coarse sample, so the upsampled shade has smooth (antialiased) edges.
    soft = MAP_STEP / tf.s * TEXTURE_OVERSAMPLE
    cols = np.clip(np.round(tf.px(p0)).astype(np.int64), 0, [tf.width - 1, tf.height - 1])
    face = (
        np.clip(d0 / soft + 0.5, 0, 1)
        * np.clip(-dh / soft + 0.5, 0, 1)
        * (cushion_mask[cols[:, 1], cols[:, 0]] > 0)
    )
    return p, face


def _exposure_gain(camera: Camera, look: Look) -> np.ndarray:
    """Brightness times vignetting (darker toward the frame corners), per pixel."""
    k = np.asarray(camera.K)
    xs = (np.arange(camera.width, dtype=np.float32) - np.float32(k[0, 2])) ** 2
    ys = (np.arange(camera.height, dtype=np.float32) - np.float32(k[1, 2])) ** 2
    rr = ys[:, None] + xs[None, :]
    vignette = 1.0 - np.float32(look.vignette) * rr / rr.max()
    gain: np.ndarray = np.float32(look.brightness) * vignette
    return gain


def build_background(spec: BilliardsSpec, camera: Camera, look: Look, seed: int) -> Background:
    """The static frame: the table texture warped through the camera (two height planes: cloth at z=0,
    cushion tops and rails at cushion height), lit by the lamps and vignetted."""
    table = spec.table
    rng = np.random.default_rng([seed, stable_hash("background")])
    w_img, h_img = camera.width, camera.height
    tf = _texture_frame(table, camera, look)
    tex, cushion_mask = table_texture(spec, look, rng, tf)
    grid, nw, nh = _coarse_grid(w_img, h_img, MAP_STEP)
    p, face = _surface(table, camera, tf, cushion_mask, grid)
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
        borderValue=tuple(float(x) for x in bgr(look.floor_rgb)),
    )
    gain = _exposure_gain(camera, look)
    image = cv2.multiply(warped, cv2.merge([gain * lit] * 3), dtype=cv2.CV_8U)
    return Background(image, (gain * light_only).astype(np.float32))
