"""Ball sprites: each ball of a set shaded once per half pixel of radius, then warped into place per frame.

A sprite carries the ball's print (colour, stripe, number) in the ball's own random orientation, Lambert
shading from the light implied by the look's highlight, a Phong highlight and the cloth's bounce on its
rim. Pin heads are drawn the same way, as tiny white or red balls.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from arbiter.balls import PIN_RGB, PIN_WHITE, BallLook
from arbiter.games import BilliardsSpec

from ..look import Look
from .draw import bgr, stable_hash

# --- ball print geometry (what a set of balls looks like, not a per-clip knob) ---
STRIPE_HALF_HEIGHT = 0.45  # striped pool balls: the coloured band covers |z| < 0.45 of the radius
NUMBER_DISC_SIN = 0.42  # pool number disc: sine of its angular radius (disc ~ 0.4 ball radius across)
PYRAMID_NUMBER_SIN = 0.5  # pyramid balls print bare numbers, a little larger, no disc
GLYPH_PX = 64  # digit glyph raster: supersampled well past any ball's pixel size
SPRITE_SUPERSAMPLE = 4  # sub-samples per sprite pixel and axis: antialiased edges and digits
SPRITE_RADIUS_STEP = 0.5  # sprites are cached per half pixel of radius; the warp scales the rest
SPRITE_MARGIN_PX = 1.5  # sprite border beyond the radius: room for antialiasing and the warp
BALL_WHITE_RGB = (240, 238, 228)  # stripes' white and number discs
NUMBER_INK_RGB = (24, 20, 20)
PYRAMID_INK_RGB = (140, 30, 30)  # pyramid balls carry red numbers


def random_rotation(rng: np.random.Generator) -> np.ndarray:
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


def digit_glyph(number: int) -> np.ndarray:
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


def radius_bin(radius: np.ndarray) -> np.ndarray:
    """The cached sprite radius for apparent radii: half-pixel steps (the warp covers the rest)."""
    return np.maximum(SPRITE_RADIUS_STEP, np.round(radius / SPRITE_RADIUS_STEP) * SPRITE_RADIUS_STEP)


def sprite_centre(r_bin: np.ndarray | float) -> np.ndarray:
    """Centre index of a ball sprite of radius ``r_bin``: the sprite is 2 * centre + 1 px square."""
    return np.ceil(np.asarray(r_bin, dtype=np.float64) + SPRITE_MARGIN_PX)


def ball_sprite(
    bl: BallLook, radius: float, orient: np.ndarray, look: Look, glyph: np.ndarray | None
) -> np.ndarray:
    """A shaded ball of ``radius`` px centred in an odd square: BGR premultiplied by alpha, plus alpha.
    Shading: Lambert from the light implied by the highlight position, Phong highlight, cloth bounce."""
    size = 2 * int(sprite_centre(radius)) + 1
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
    base = bgr(bl.rgb)
    white = bgr(BALL_WHITE_RGB)
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
            col[ink] = bgr(PYRAMID_INK_RGB if bare else NUMBER_INK_RGB)
    # Lighting in the image frame: the highlight normal H, light L = reflection of the view (0, 0, 1).
    hx, hy = look.highlight_uv
    h = np.array([hx, hy, math.sqrt(max(1e-6, 1 - hx * hx - hy * hy))], np.float32)
    light = 2 * h[2] * h - np.array([0, 0, 1], np.float32)
    lambert = np.clip(n @ light, 0.0, 1.0)
    shade = look.ball_ambient + (1 - look.ball_ambient) * lambert
    spec = look.highlight_strength * np.clip(n @ h, 0.0, 1.0) ** look.shininess
    rim = look.cloth_reflection * (1 - nz) ** 2
    rgb = col * shade[..., None] + 255.0 * spec[..., None] + bgr(look.cloth_rgb) * rim[..., None]
    alpha = inside.astype(np.float32)
    out = np.concatenate([rgb * alpha[..., None], alpha[..., None]], axis=-1).astype(np.float32)
    sprite: np.ndarray = cv2.resize(out, (size, size), interpolation=cv2.INTER_AREA)
    return sprite


class BallSprites:
    """The sprites of a game's balls and pin heads, shaded on first use and kept for the whole shot."""

    def __init__(self, spec: BilliardsSpec, look: Look, seed: int) -> None:
        self.look = look
        self.looks: dict[str, BallLook] = {bid: spec.look(bid) for bid in spec.balls}
        self.ball_ids = frozenset(self.looks)
        self._orient = {
            bid: random_rotation(np.random.default_rng([seed, stable_hash("orient", bid)]))
            for bid in self.looks
        }
        for pin in spec.table.pins:  # pin heads share the cache under their ids, printed plain
            self.looks[pin.id] = BallLook("pin_standing", PIN_RGB.get(pin.id, PIN_WHITE))
            self._orient[pin.id] = np.eye(3)
        self._glyphs: dict[int, np.ndarray] = {}
        self._sprites: dict[tuple[str, float], np.ndarray] = {}

    def sprite(self, oid: str, r_bin: float) -> np.ndarray:
        """The sprite of ball or pin ``oid`` at radius ``r_bin`` (a ``radius_bin``)."""
        key = (oid, r_bin)
        sprite = self._sprites.get(key)
        if sprite is None:
            bl = self.looks[oid]
            glyph = None
            if bl.number is not None:
                glyph = self._glyphs.get(bl.number)
                if glyph is None:
                    glyph = self._glyphs[bl.number] = digit_glyph(bl.number)
            sprite = self._sprites[key] = ball_sprite(bl, r_bin, self._orient[oid], self.look, glyph)
        return sprite


def blend_ball(
    img: np.ndarray, sprite: np.ndarray, box: list[int], mats: list[np.ndarray], k: int, gain: float
) -> None:
    """Average the sprite over the sub-sample positions (box filter = motion blur) onto ``img``."""
    x0, y0, x1, y1 = box
    if x1 <= x0 or y1 <= y0:
        return
    acc = np.zeros((y1 - y0, x1 - x0, 4), np.float32)
    for m in mats:
        acc += cv2.warpAffine(
            sprite,
            m,
            (x1 - x0, y1 - y0),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=(0, 0, 0, 0),
        )
    roi = img[y0:y1, x0:x1]
    out = roi * (1.0 - acc[..., 3:4] * (1.0 / k))
    out += acc[..., :3] * (gain / k)
    np.minimum(out, 255.0, out=out)
    roi[...] = out
