"""A rendered scene (``datasets.dice.render``): dice placed on a table, drawn through the camera with their
shadows, and what the camera's lens does to the picture."""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from datasets.dice.geometry import (
    BODY_FACES,
    CORNERS,
    FLAT_TILT_DEG,
    MAX_TEXTURE_PX,
    TEXTURE_PX,
    Camera,
    resting_height,
    top_face,
)
from datasets.dice.looks import DieLook, Light, TableLook, face_texture, noise_field, table_texture

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
        return np.asarray((self.rot @ (CORNERS * self.look.side_mm).T).T + np.array([*self.xy_mm, z]))

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


# What ``_draw_die`` gives: the ROI in pixels, premultiplied colour and alpha there (None: out of the
# picture), and the share of the die inside the picture.
DieLayer = tuple[tuple[int, int, int, int] | None, np.ndarray | None, np.ndarray | None, float]


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
            tex[off] = floor * (0.9 + 0.1 * noise_field(rng, shape, 40)[off, None])
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
        img *= self._shade(dice)[..., None]
        order = np.argsort(-cam.depth(np.array([d.centre() for d in dice])) if dice else [])
        owner = np.full(img.shape[:2], -1, np.int32)
        drawn_alpha: dict[int, tuple[tuple[int, int, int, int], np.ndarray, float]] = {}
        for i in order:
            poses = [dice[i], *(motion[i] if motion else ())]
            roi, colour, alpha, inside = self._draw_die(poses)
            if roi is None or colour is None or alpha is None:
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

    def _shade(self, dice: Sequence[DieState]) -> np.ndarray:
        """How much light reaches each pixel: every die's soft shadow along the light and its contact
        shadow. Drawn before any die, so no shadow falls over another die's body; each in its own ROI."""
        cam = self.camera
        light = np.asarray(self.light.direction)
        shade = np.ones(self.background.shape[:2], np.float32)
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
            layer: np.ndarray = np.zeros((y1 - y0, x1 - x0), np.float32)
            for poly in (cast, contact):
                hull = cv2.convexHull((poly - (x0, y0)).astype(np.float32))
                cv2.fillConvexPoly(layer, np.round(hull * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
            layer = cv2.GaussianBlur(layer, (0, 0), sigma)
            shade[y0:y1, x0:x1] *= 1 - self.light.shadow * layer * (0.5 if die.look.alpha < 1 else 1.0)
        return shade

    def _draw_die(self, poses: Sequence[DieState]) -> DieLayer:
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

    def _die_layer(
        self, die: DieState, origin: tuple[int, int], ss: int, size: tuple[int, int]
    ) -> tuple[np.ndarray, np.ndarray]:
        cam = self.camera
        w_ss, h_ss = size
        corners = die.corners()
        uv = (cam.project(corners) - np.asarray(origin)) * ss
        colour: np.ndarray = np.zeros((h_ss, w_ss, 3), np.float32)
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
        sil: np.ndarray = np.zeros((h_ss, w_ss), np.uint8)
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
