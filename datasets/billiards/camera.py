"""The simulated overhead camera: an OpenCV pinhole with lens distortion looking down at the table.

World frame = table frame (docs/architecture.md) plus ``z`` up out of the cloth, all in millimetres; a ball
centre sits at ``z = ball radius``. ``rvec``/``tvec`` are OpenCV extrinsics (world -> camera), ``K`` and
``dist`` (k1, k2, p1, p2, k3) the OpenCV intrinsics, so a real calibration can be dropped in unchanged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import cv2
import numpy as np

from arbiter.tables import TableModel

Vec3 = tuple[float, float, float]
Mat3 = tuple[Vec3, Vec3, Vec3]
Dist5 = tuple[float, float, float, float, float]

# Stop rule for iterative undistortion: converged to 1e-12 in normalised units (~1e-9 px) or 50 steps.
_UNDISTORT_CRITERIA = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 50, 1e-12)


@dataclass(frozen=True)
class CameraRanges:
    """The spread of ``Camera.random``: each range trades realism of odd rigs against how much the vision
    stage must generalise. Angles in degrees."""

    hfov_deg: tuple[float, float] = (60.0, 88.0)  # wide lenses let a low ceiling see a 12 ft table
    tilt_deg: tuple[float, float] = (0.5, 5.0)  # off-vertical; perspective skews ball shapes more
    yaw_deg: float = 2.0  # +- rotation about the vertical: table edges no longer image-aligned
    k1: float = 0.08  # +- radial distortion: barrel (k1 < 0) or pincushion (k1 > 0)
    k2_ratio: float = 0.25  # |k2| <= ratio * |k1|: keeps the radial profile monotonic over the frame
    tangential: float = 5e-4  # +- p1, p2: a slightly decentred lens
    principal_jitter: float = 0.015  # +- principal point offset, as a fraction of width / height
    aim_jitter: float = 0.015  # +- aim point offset from the table centre, as a fraction of its size
    margin: tuple[float, float] = (0.02, 0.07)  # free border around the cushions, fraction of width


@dataclass(frozen=True)
class Camera:
    """A calibrated camera. Every field is plain floats so it serialises exactly; arrays are derived."""

    width: int
    height: int
    K: Mat3
    dist: Dist5
    rvec: Vec3
    tvec: Vec3

    def __post_init__(self) -> None:
        if (
            not (isinstance(self.width, int) and isinstance(self.height, int))
            or self.width < 2
            or self.height < 2
        ):
            raise ValueError(f"camera size must be integers >= 2, got {self.width!r} x {self.height!r}")
        k = np.asarray(self.K, dtype=np.float64)
        if k.shape != (3, 3) or not np.all(np.isfinite(k)) or k[0, 0] <= 0 or k[1, 1] <= 0:
            raise ValueError(f"K must be a 3x3 intrinsic matrix with positive focal lengths, got {self.K!r}")
        if len(self.dist) != 5 or len(self.rvec) != 3 or len(self.tvec) != 3:
            raise ValueError("dist needs 5 coefficients (k1, k2, p1, p2, k3); rvec and tvec 3 values each")

    # --- derived arrays (computed once per instance) ---
    @cached_property
    def _k(self) -> np.ndarray:
        return np.asarray(self.K, dtype=np.float64)

    @cached_property
    def _dist(self) -> np.ndarray:
        return np.asarray(self.dist, dtype=np.float64)

    @cached_property
    def _rvec(self) -> np.ndarray:
        return np.asarray(self.rvec, dtype=np.float64)

    @cached_property
    def _tvec(self) -> np.ndarray:
        return np.asarray(self.tvec, dtype=np.float64)

    @cached_property
    def rotation(self) -> np.ndarray:
        """World -> camera rotation matrix (rows are the camera axes in world coordinates)."""
        rot: np.ndarray = cv2.Rodrigues(self._rvec)[0]
        return rot

    @cached_property
    def centre_mm(self) -> np.ndarray:
        """The camera's optical centre in world (table) millimetres."""
        centre: np.ndarray = -self.rotation.T @ self._tvec
        return centre

    # --- projection ---
    def project(self, xyz_mm: np.ndarray) -> np.ndarray:
        """World points (N, 3) in mm -> pixel coordinates (N, 2), lens distortion included."""
        pts = np.asarray(xyz_mm, dtype=np.float64).reshape(-1, 3)
        if len(pts) == 0:
            return np.zeros((0, 2))
        px, _ = cv2.projectPoints(pts, self._rvec, self._tvec, self._k, self._dist)
        return px.reshape(-1, 2)

    def normalized(self, xy_px: np.ndarray, precise: bool = True) -> np.ndarray:
        """Pixels (N, 2) -> undistorted normalised image coordinates (N, 2). ``precise=False`` uses OpenCV's
        default 5 undistortion steps: ~1e-3 px, ten times faster, enough for raster maps."""
        pts = np.asarray(xy_px, dtype=np.float64).reshape(-1, 1, 2)
        if len(pts) == 0:
            return np.zeros((0, 2))
        if not precise:
            out = cv2.undistortPoints(pts, self._k, self._dist)
        elif hasattr(cv2, "undistortPointsIter"):  # OpenCV 4.x
            out = cv2.undistortPointsIter(pts, self._k, self._dist, None, None, _UNDISTORT_CRITERIA)
        else:  # OpenCV 5 folded the criteria into undistortPoints
            out = cv2.undistortPoints(pts, self._k, self._dist, criteria=_UNDISTORT_CRITERIA)
        return out.reshape(-1, 2)

    def rays(self, xy_px: np.ndarray, precise: bool = True) -> np.ndarray:
        """Unit-free world directions (N, 3) of the rays through pixels (N, 2)."""
        n = self.normalized(xy_px, precise)
        d_cam = np.concatenate([n, np.ones((len(n), 1))], axis=1)
        world: np.ndarray = d_cam @ self.rotation  # == (R.T @ d.T).T
        return world

    def px_to_table(self, xy_px: np.ndarray, z_mm: float, precise: bool = True) -> np.ndarray:
        """Pixels (N, 2) -> the (x, y) mm where their rays meet the plane ``z = z_mm``."""
        d = self.rays(xy_px, precise)
        c = self.centre_mm
        s = (z_mm - c[2]) / d[:, 2]
        xy: np.ndarray = c[None, :2] + s[:, None] * d[:, :2]
        return xy

    def radius_px(self, xyz_mm: np.ndarray, radius_mm: float) -> np.ndarray:
        """Apparent radius (N,) of spheres of ``radius_mm`` centred at ``xyz_mm``: the geometric mean of the
        semi-axes of their (slightly elliptical, distorted) silhouettes."""
        axes = self.sphere_axes_px(xyz_mm, radius_mm)[1]
        radius: np.ndarray = np.sqrt(np.abs(np.linalg.det(axes)))
        return radius

    def sphere_axes_px(self, xyz_mm: np.ndarray, radius_mm: float) -> tuple[np.ndarray, np.ndarray]:
        """Silhouette of spheres as ellipses: centres (N, 2) and 2x2 maps ``A`` (N, 2, 2) taking a unit
        circle (image-aligned: first column ~ image x) onto the silhouette. Linearised per sphere, which
        is exact to a fraction of a pixel for balls a few metres away."""
        p = np.asarray(xyz_mm, dtype=np.float64).reshape(-1, 3)
        n = len(p)
        if n == 0:
            return np.zeros((0, 2)), np.zeros((0, 2, 2))
        v = p - self.centre_mm[None, :]
        dist = np.linalg.norm(v, axis=1, keepdims=True)
        w = v / dist
        cam_x = self.rotation[0]
        u = cam_x[None, :] - (w @ cam_x)[:, None] * w
        u /= np.linalg.norm(u, axis=1, keepdims=True)
        vv = np.cross(w, u)
        # The silhouette is the circle where view rays graze the sphere: nearer to the camera and smaller.
        ratio = (radius_mm / dist) ** 2
        sil_c = p - ratio * v
        sil_r = radius_mm * np.sqrt(1.0 - ratio)
        pts = np.concatenate([sil_c + sil_r * u, sil_c - sil_r * u, sil_c + sil_r * vv, sil_c - sil_r * vv])
        px = self.project(pts).reshape(4, n, 2)
        centre = px.mean(axis=0)
        a = np.stack([(px[0] - px[1]) / 2, (px[2] - px[3]) / 2], axis=2)
        return centre, a

    def px_per_mm(self, xyz_mm: np.ndarray) -> np.ndarray:
        """Local image scale (N,) at world points: pixels per millimetre of a small horizontal step."""
        p = np.asarray(xyz_mm, dtype=np.float64).reshape(-1, 3)
        step = 10.0
        dx, dy = np.array([step, 0.0, 0.0]), np.array([0.0, step, 0.0])
        px = self.project(np.concatenate([p, p + dx, p + dy])).reshape(3, -1, 2)
        jx, jy = px[1] - px[0], px[2] - px[0]
        scale: np.ndarray = np.sqrt(np.abs(jx[:, 0] * jy[:, 1] - jx[:, 1] * jy[:, 0])) / step
        return scale

    # --- serialisation ---
    def to_dict(self) -> dict[str, Any]:
        return {
            "width": self.width,
            "height": self.height,
            "K": [list(row) for row in self.K],
            "dist": list(self.dist),
            "rvec": list(self.rvec),
            "tvec": list(self.tvec),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Camera:
        try:
            return cls(
                width=int(d["width"]),
                height=int(d["height"]),
                K=tuple(tuple(float(v) for v in row) for row in d["K"]),  # type: ignore[arg-type]
                dist=tuple(float(v) for v in d["dist"]),  # type: ignore[arg-type]
                rvec=tuple(float(v) for v in d["rvec"]),  # type: ignore[arg-type]
                tvec=tuple(float(v) for v in d["tvec"]),  # type: ignore[arg-type]
            )
        except (KeyError, TypeError) as e:
            raise ValueError(f"not a camera record ({e!r}); need width, height, K, dist, rvec, tvec") from e

    @classmethod
    def from_arrays(
        cls, width: int, height: int, K: np.ndarray, dist: np.ndarray, rvec: np.ndarray, tvec: np.ndarray
    ) -> Camera:
        k = np.asarray(K, dtype=np.float64).reshape(3, 3)
        return cls(
            width=int(width),
            height=int(height),
            K=tuple(tuple(float(v) for v in row) for row in k),  # type: ignore[arg-type]
            dist=tuple(float(v) for v in np.asarray(dist, dtype=np.float64).ravel()),  # type: ignore[arg-type]
            rvec=tuple(float(v) for v in np.asarray(rvec, dtype=np.float64).ravel()),  # type: ignore[arg-type]
            tvec=tuple(float(v) for v in np.asarray(tvec, dtype=np.float64).ravel()),  # type: ignore[arg-type]
        )

    @classmethod
    def random(
        cls,
        table: TableModel,
        width: int,
        height: int,
        rng: np.random.Generator,
        ranges: CameraRanges | None = None,
    ) -> Camera:
        """An overhead camera over ``table``: its long axis along the image width (bottom cushion on the
        left, left cushion at the top), tilted a few degrees, with moderate distortion, placed as high as
        needed for the playing area plus cushions to fit with a small margin."""
        if width < 16 or height < 16:
            raise ValueError(f"camera image must be at least 16 x 16 px, got {width} x {height}")
        r = ranges or CameraRanges()
        k, dist = _random_lens(width, height, rng, r)
        rot = _random_attitude(rng, r)
        aim = np.array(
            [
                table.width_mm * (0.5 + rng.uniform(-1, 1) * r.aim_jitter),
                table.length_mm * (0.5 + rng.uniform(-1, 1) * r.aim_jitter),
                0.0,
            ]
        )
        margin_px = rng.uniform(*r.margin) * width
        distance = _fitting_distance(table, (width, height), k, dist, rot, aim, margin_px)
        tvec = -rot @ (aim - distance * rot[2])
        return cls.from_arrays(width, height, k, dist, cv2.Rodrigues(rot)[0], tvec)


def _random_lens(
    width: int, height: int, rng: np.random.Generator, r: CameraRanges
) -> tuple[np.ndarray, np.ndarray]:
    """Intrinsics ``K`` and distortion (k1, k2, p1, p2, k3) of a lens drawn within ``r``."""
    hfov = math.radians(rng.uniform(*r.hfov_deg))
    f = (width / 2) / math.tan(hfov / 2)
    cx = width / 2 + rng.uniform(-1, 1) * r.principal_jitter * width
    cy = height / 2 + rng.uniform(-1, 1) * r.principal_jitter * height
    k = np.array([[f, 0.0, cx], [0.0, f, cy], [0.0, 0.0, 1.0]])
    k1 = rng.uniform(-r.k1, r.k1)
    k2 = -np.sign(k1) * rng.uniform(0, r.k2_ratio) * abs(k1)  # opposite sign: real lenses flatten out
    p1, p2 = rng.uniform(-r.tangential, r.tangential, size=2)
    return k, np.array([k1, k2, p1, p2, 0.0])


def _random_attitude(rng: np.random.Generator, r: CameraRanges) -> np.ndarray:
    """World -> camera rotation: looking down, the table's long axis across the image, tilted and turned a
    little (its last row is the optical axis in world coordinates)."""
    # Base pose: camera x = table +y (long axis across the image), camera y = table +x, looking down.
    base = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]])
    tilt = math.radians(rng.uniform(*r.tilt_deg))
    azimuth = rng.uniform(0, 2 * math.pi)
    yaw = math.radians(rng.uniform(-r.yaw_deg, r.yaw_deg))
    pert = np.array([tilt * math.cos(azimuth), tilt * math.sin(azimuth), yaw])
    rot: np.ndarray = cv2.Rodrigues(pert)[0] @ base
    return rot


def _fitting_distance(
    table: TableModel,
    size: tuple[int, int],
    k: np.ndarray,
    dist: np.ndarray,
    rot: np.ndarray,
    aim: np.ndarray,
    margin_px: float,
) -> float:
    """The nearest distance along the optical axis from ``aim`` at which the cushions' outer edge stays
    ``margin_px`` inside an image of ``size``."""
    width, height = size
    axis = rot[2]
    outline = _fit_outline(table)

    def fits(distance: float) -> bool:
        t = -rot @ (aim - distance * axis)
        px, _ = cv2.projectPoints(outline, cv2.Rodrigues(rot)[0], t, k, dist)
        px = px.reshape(-1, 2)
        return bool(
            np.all(px >= margin_px)
            and np.all(px[:, 0] <= width - margin_px)
            and np.all(px[:, 1] <= height - margin_px)
        )

    lo, hi = 100.0, 100_000.0
    if not fits(hi):
        raise ValueError(f"the table cannot fit a {width} x {height} image with this lens")
    for _ in range(60):  # bisection on the distance along the optical axis: ~1e-14 relative
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if fits(mid) else (mid, hi)
    return hi


def _fit_outline(table: TableModel, per_side: int = 24) -> np.ndarray:
    """Points along the outer edge of the cushions, at cushion height: what must stay inside the frame."""
    c = table.cushion_width_mm
    x0, x1, y0, y1 = -c, table.width_mm + c, -c, table.length_mm + c
    s = np.linspace(0.0, 1.0, per_side)
    xs = np.concatenate(
        [x0 + (x1 - x0) * s, np.full(per_side, x1), x1 - (x1 - x0) * s, np.full(per_side, x0)]
    )
    ys = np.concatenate(
        [np.full(per_side, y0), y0 + (y1 - y0) * s, np.full(per_side, y1), y1 - (y1 - y0) * s]
    )
    return np.stack([xs, ys, np.full_like(xs, table.cushion_height_mm)], axis=1)
