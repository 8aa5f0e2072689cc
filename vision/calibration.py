"""Camera calibration for an overhead view of a billiard table: pixels <-> table millimetres.

The model is an OpenCV pinhole camera with square pixels, the principal point at the image centre and
radial distortion (k1, k2), posed over the table frame of docs/architecture.md (``z`` up from the cloth).
A full 3D model rather than a homography, because ball centres sit a ball radius above the cloth: seen
from 2.5 m that shifts them ~1 % of their distance from the camera's nadir, up to 15 mm at the table's ends.

``calibrate_auto`` finds the cushion noses, and the cushions' outer edges whose parallax (they stand a
cushion height above the cloth) fixes the camera height, with ``vision.table_finder``, and fits the camera
to those edge points by robust Levenberg-Marquardt: first the pose and k1 on the noses with the focal
length held, then everything. ``calibrate_manual`` fits the same model to named points, optionally refined
on the edges. A calibration is saved as a JSON camera profile; ``check_calibration`` tells whether a frame
still fits it (the camera moved).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Literal, NamedTuple

import cv2
import numpy as np

from arbiter.games import billiards
from arbiter.tables import TableModel
from vision import table_finder as tf
from vision.table_finder import CalibrationError, EdgePoints

__all__ = [
    "AutoConfig",
    "CalibrationError",
    "CameraMovedError",
    "TableCalibration",
    "calibrate_auto",
    "calibrate_manual",
    "check_calibration",
    "named_points",
]

PROFILE_TYPE = "arbiter.camera_profile"
PROFILE_VERSION = 1
UNDISTORT_STEPS = 8  # Newton steps inverting the radial polynomial (it stops early once converged)
OPENCV_UNDISTORT_MAX_POINTS = 64  # fewer points are undistorted by OpenCV: ~10 us a call instead of ~100
_UNDISTORT_CRITERIA = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20, 1e-12)
_IDENTITY_K = np.eye(3)
# Prior on the focal length where the data cannot fix it (coplanar points seen nearly straight down): a 70
# degree lens, +-40 % (one sigma, in log f). Tilt and cushion parallax, where seen, outweigh it.
PRIOR_HFOV_DEG = 70.0
PRIOR_LOG_F_SIGMA = 0.4
EDGE_NOISE_PX = 0.5  # expected edge-point noise: weighs the prior against pixel residuals
# Robust loss: Cauchy at this many robust deviations. Edges on balls, the cue or an arm are down-weighted;
# true edge points far off a poor starting model are not thrown away.
CAUCHY_C = 2.5
MIN_SCALE_PX = 0.25  # floor of the robust scale: a near-perfect fit must not make every point an outlier
INLIER_DEVIATIONS = 3.0  # points within this many robust deviations count as fitted (reported RMS, checks)
K1_SEARCH = 0.3  # |k1| range tried for the outline's straightness: wider than any lens ranged for
MIN_FIRST_EDGES = 20  # nose points the first pass must find: fewer is not a table
SAMPLE_SPACING_MM = 20.0  # edge samples along the cushions: more average noise down and cost time
NARROW_WINDOWS_MM = (15.0, 6.0)  # edge searches around the fitted model, coarse to fine
OUTER_WINDOW = 1.5  # outer edges are searched this much wider than noses (their parallax is less certain)
MARKING_EVIDENCE = 0.02  # marking contrast (share of the cloth level) that settles the table's orientation
MANUAL_K1_POINTS, MANUAL_K2_POINTS = 6, 10  # named points needed before k1, k2 are fitted, not left at 0
# The camera-moved check: a nose edge counts when found within this share of the image width (at least
# CHECK_TOLERANCE_PX) of where the calibration puts it. Tighter catches smaller bumps; looser tolerates
# vibration and motion blur.
CHECK_TOLERANCE, CHECK_TOLERANCE_PX, CHECK_SPACING_MM = 0.0025, 2.0, 40.0
# Share of a cushion's nose points that must still be found, on the second worst cushion: one cushion may
# be hidden by a player leaning over it; a camera that moved or turned misplaces at least two.
CAMERA_MOVED_SCORE = 0.5
CLOTH_SAMPLE_STRIDE = 4  # the cloth colour is read on every 4th pixel and row: the median does not need all

Orientation = Literal["markings", "convention", "points"]


class CameraMovedError(CalibrationError):
    """The frame no longer fits the calibration: the camera (or the table) moved."""


# ------------------------------------------------------------------------------------------ camera model
# Parameter vector of the fits: f, k1, k2, rvec (3), tvec (3); OpenCV conventions (world -> camera).
_F, _K1, _K2 = 0, 1, 2
_POSE = slice(3, 9)


class _Parts(NamedTuple):
    """A parameter vector unpacked once for many projections."""

    f: float
    k1: float
    k2: float
    rot: np.ndarray  # world -> camera rotation matrix
    t: np.ndarray  # tvec
    origin: np.ndarray  # the camera's optical centre in table mm


def _split(theta: np.ndarray) -> _Parts:
    rot = cv2.Rodrigues(np.asarray(theta[3:6], dtype=np.float64))[0]
    t = np.asarray(theta[6:9], np.float64)
    return _Parts(float(theta[_F]), float(theta[_K1]), float(theta[_K2]), rot, t, -rot.T @ t)


def _project(cam: _Parts, centre: np.ndarray, xyz: np.ndarray) -> np.ndarray:
    """Table points (N, 3) mm -> pixels (N, 2), distortion included."""
    f, k1, k2, rot, t, _ = cam
    pc = xyz @ rot.T + t
    xn = pc[:, :2] / pc[:, 2:3]
    r2 = np.sum(xn * xn, axis=1, keepdims=True)
    return f * xn * (1.0 + k1 * r2 + k2 * r2 * r2) + centre


def _undistort(xd: np.ndarray, k1: float, k2: float) -> np.ndarray:
    """Distorted -> ideal normalised coordinates. Newton on the radius (the model is radial only) for many
    points; OpenCV's iteration for a few, where numpy's per-call overhead would dominate."""
    if len(xd) <= OPENCV_UNDISTORT_MAX_POINTS:
        src = xd.reshape(-1, 1, 2).astype(np.float64)
        dist = np.array([k1, k2, 0.0, 0.0, 0.0])
        if hasattr(cv2, "undistortPointsIter"):  # OpenCV 4.x
            out = cv2.undistortPointsIter(src, _IDENTITY_K, dist, None, None, _UNDISTORT_CRITERIA)
        else:  # OpenCV 5 folded the criteria into undistortPoints
            out = cv2.undistortPoints(src, _IDENTITY_K, dist, criteria=_UNDISTORT_CRITERIA)
        return out.reshape(-1, 2)
    rd = np.linalg.norm(xd, axis=1)
    ru = rd.copy()
    for _ in range(UNDISTORT_STEPS):
        r2 = ru * ru
        g = ru * (1.0 + k1 * r2 + k2 * r2 * r2) - rd
        ru -= g / (1.0 + 3.0 * k1 * r2 + 5.0 * k2 * r2 * r2)
        if np.max(np.abs(g), initial=0.0) < 1e-13:
            break
    scale = np.divide(ru, rd, out=np.ones_like(rd), where=rd > 0)
    return xd * scale[:, None]


def _backproject(cam: _Parts, centre: np.ndarray, px: np.ndarray, z: np.ndarray | float) -> np.ndarray:
    """Pixels (N, 2) -> (x, y) mm where their rays meet the planes ``z`` (scalar or (N,))."""
    xu = _undistort((px - centre) / cam.f, cam.k1, cam.k2)
    rays = xu @ cam.rot[:2] + cam.rot[2]  # camera rays (x, y, 1) turned into the table frame
    s = (z - cam.origin[2]) / rays[:, 2]
    return cam.origin[:2] + s[:, None] * rays[:, :2]


def _camera_height(theta: np.ndarray) -> float:
    return float(_split(theta).origin[2])


# ------------------------------------------------------------------------------------------ calibration
@dataclass(frozen=True)
class TableCalibration:
    """A camera fitted to a table. Fields are plain numbers so the profile round-trips exactly; arrays
    are derived. ``points_px`` holds the named points the fit used (manual) or found (auto: the four
    corners), so a profile can be checked or corrected by hand."""

    game: str
    image_size: tuple[int, int]  # width, height in pixels
    f_px: float
    k1: float
    k2: float
    rvec: tuple[float, float, float]
    tvec: tuple[float, float, float]
    method: Literal["auto", "manual"]
    points_px: tuple[tuple[str, tuple[float, float]], ...] = ()
    reprojection_error_px: float = 0.0
    orientation: Orientation = "convention"  # what settled which short end is the bottom
    nose_z_mm: float = 0.0  # height of the cushion-nose line the fit used (AutoConfig.nose_z_mm)
    table: TableModel = field(default=None, compare=False, repr=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        w, h = self.image_size
        if int(w) < 2 or int(h) < 2 or not (self.f_px > 0 and math.isfinite(self.f_px)):
            raise ValueError(f"bad calibration: image size {self.image_size}, focal length {self.f_px}")
        pose = (*self.rvec, *self.tvec, self.k1, self.k2)
        if len(self.rvec) != 3 or len(self.tvec) != 3 or not all(math.isfinite(v) for v in pose):
            raise ValueError(
                f"bad calibration: rvec and tvec need 3 finite values, got {self.rvec}, {self.tvec}"
            )
        if self.table is None:
            object.__setattr__(self, "table", billiards(self.game).table)
        elif self.table.game != self.game:
            raise ValueError(f"table {self.table.name!r} is for {self.table.game!r}, not {self.game!r}")

    # --- derived (computed once per instance) ---
    @cached_property
    def _theta(self) -> np.ndarray:
        return np.array([self.f_px, self.k1, self.k2, *self.rvec, *self.tvec], dtype=np.float64)

    @cached_property
    def _parts(self) -> _Parts:
        return _split(self._theta)

    @cached_property
    def _centre(self) -> np.ndarray:
        return np.array([self.image_size[0] / 2 - 0.5, self.image_size[1] / 2 - 0.5])

    @property
    def camera_matrix(self) -> np.ndarray:
        """OpenCV K (3 x 3); with ``dist_coeffs`` and ``rvec``/``tvec`` it drops into any OpenCV call."""
        cx, cy = self._centre
        return np.array([[self.f_px, 0.0, cx], [0.0, self.f_px, cy], [0.0, 0.0, 1.0]])

    @property
    def dist_coeffs(self) -> np.ndarray:
        return np.array([self.k1, self.k2, 0.0, 0.0, 0.0])

    @cached_property
    def camera_centre_mm(self) -> np.ndarray:
        """The camera's optical centre in table mm (its height is ``[2]``)."""
        return self._parts.origin

    @property
    def points(self) -> dict[str, tuple[float, float]]:
        return dict(self.points_px)

    # --- mapping ---
    def px_to_mm(self, xy_px: np.ndarray, z_mm: float = 0.0) -> np.ndarray:
        """Pixels (N, 2) -> table mm (N, 2) on the plane ``z_mm`` above the cloth. Ball centres are at
        ``z_mm = table.ball_radius_mm``."""
        px = np.asarray(xy_px, dtype=np.float64).reshape(-1, 2)
        if len(px) == 0:
            return np.zeros((0, 2))
        return _backproject(self._parts, self._centre, px, z_mm)

    def mm_to_px(self, xy_mm: np.ndarray, z_mm: float = 0.0) -> np.ndarray:
        """Table mm (N, 2) at height ``z_mm`` -> pixels (N, 2), lens distortion included."""
        xy = np.asarray(xy_mm, dtype=np.float64).reshape(-1, 2)
        xyz = np.concatenate([xy, np.full((len(xy), 1), float(z_mm))], axis=1)
        return _project(self._parts, self._centre, xyz) if len(xy) else np.zeros((0, 2))

    def radius_px(self, xy_mm: np.ndarray, radius_mm: float) -> np.ndarray:
        """Apparent radius (N,) of balls of ``radius_mm`` resting at ``xy_mm``: the geometric mean of the
        semi-axes of their silhouettes (ellipses off the axis), what a detector's circle should match."""
        xy = np.asarray(xy_mm, dtype=np.float64).reshape(-1, 2)
        p = np.concatenate([xy, np.full((len(xy), 1), float(radius_mm))], axis=1)
        v = p - self.camera_centre_mm
        dist = np.linalg.norm(v, axis=1, keepdims=True)
        w = v / dist
        rot = self._parts.rot
        u = rot[0][None, :] - (w @ rot[0])[:, None] * w
        u /= np.linalg.norm(u, axis=1, keepdims=True)
        vv = np.cross(w, u)
        ratio = (radius_mm / dist) ** 2  # the silhouette is the circle where rays graze the sphere
        c = p - ratio * v
        r = radius_mm * np.sqrt(1.0 - ratio)
        rim = np.concatenate([c + r * u, c - r * u, c + r * vv, c - r * vv])
        px = _project(self._parts, self._centre, rim)
        px = px.reshape(4, len(p), 2)
        a, b = (px[0] - px[1]) / 2, (px[2] - px[3]) / 2
        return np.sqrt(np.abs(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]))

    def table_mask(self, shape: tuple[int, ...]) -> np.ndarray:
        """uint8 mask (255 inside) of the playing area at cloth level, pocket mouths and throats included
        (a ball dropping into a pocket stays inside it until it is gone)."""
        h, w = int(shape[0]), int(shape[1])
        if (w, h) != tuple(self.image_size):
            raise ValueError(
                f"mask of {w}x{h} px asked from a calibration made for {self.image_size[0]}x"
                f"{self.image_size[1]} px images; recalibrate for this resolution"
            )
        mask = np.zeros((h, w), np.uint8)
        polys = [self.mm_to_px(_outline_mm(self.table))]
        depth = self.table.ball_diameter_mm
        for p in self.table.pockets:
            m, inward = np.array(p.mouth_xy_mm), np.array(p.inward)
            perp = np.array([-inward[1], inward[0]]) * p.opening_mm / 2
            throat = np.array([m + perp, m - perp, m - perp - inward * depth, m + perp - inward * depth])
            polys.append(self.mm_to_px(throat))
        cv2.fillPoly(mask, [np.round(q * 16).astype(np.int32) for q in polys], 255, cv2.LINE_8, 4)
        return mask

    # --- profile ---
    def to_dict(self) -> dict[str, Any]:
        return {
            "type": PROFILE_TYPE,
            "version": PROFILE_VERSION,
            "game": self.game,
            "image_size": list(self.image_size),
            "method": self.method,
            "orientation": self.orientation,
            "camera": {
                "f_px": self.f_px,
                "principal_px": [float(v) for v in self._centre],
                "k1": self.k1,
                "k2": self.k2,
                "rvec": list(self.rvec),
                "tvec": list(self.tvec),
            },
            "nose_z_mm": self.nose_z_mm,
            "points_px": {name: list(xy) for name, xy in self.points_px},
            "reprojection_error_px": self.reprojection_error_px,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], source: str = "camera profile") -> TableCalibration:
        def need(obj: Mapping[str, Any], key: str, where: str) -> Any:
            if not isinstance(obj, Mapping) or key not in obj:
                raise ValueError(f"{source}: missing {where}{key!r}; recalibrate or fix the file")
            return obj[key]

        if d.get("type", PROFILE_TYPE) != PROFILE_TYPE:
            raise ValueError(f"{source}: not a camera profile (type {d.get('type')!r})")
        if int(d.get("version", PROFILE_VERSION)) > PROFILE_VERSION:
            raise ValueError(f"{source}: profile version {d['version']} is newer than this Arbiter reads")
        cam = need(d, "camera", "")
        try:
            size = need(d, "image_size", "")
            w, h = (int(v) for v in size)
            method = str(need(d, "method", ""))
            if method not in ("auto", "manual"):
                raise ValueError(f"method must be 'auto' or 'manual', got {method!r}")
            orientation = str(d.get("orientation", "convention"))
            if orientation not in ("markings", "convention", "points"):
                raise ValueError(f"orientation must be markings, convention or points, got {orientation!r}")
            pts = d.get("points_px", {})
            return cls(
                game=str(need(d, "game", "")),
                image_size=(w, h),
                f_px=float(need(cam, "f_px", "camera.")),
                k1=float(need(cam, "k1", "camera.")),
                k2=float(cam.get("k2", 0.0)),
                rvec=tuple(float(v) for v in need(cam, "rvec", "camera.")),  # type: ignore[arg-type]
                tvec=tuple(float(v) for v in need(cam, "tvec", "camera.")),  # type: ignore[arg-type]
                method=method,  # type: ignore[arg-type]
                points_px=tuple((str(k), (float(v[0]), float(v[1]))) for k, v in pts.items()),
                reprojection_error_px=float(d.get("reprojection_error_px", 0.0)),
                orientation=orientation,  # type: ignore[arg-type]
                nose_z_mm=float(d.get("nose_z_mm", 0.0)),
            )
        except (TypeError, ValueError, IndexError) as e:
            if str(e).startswith(source):
                raise
            raise ValueError(f"{source}: bad value ({e}); recalibrate or fix the file") from e

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n")

    @classmethod
    def load(
        cls, path: str | Path, image_size: tuple[int, int] | None = None, game: str | None = None
    ) -> TableCalibration:
        """Read a profile; with ``image_size`` (the video's) and ``game`` given, refuse a profile made for
        another resolution or table, saying what to do."""
        p = Path(path)
        try:
            d = json.loads(p.read_text())
        except FileNotFoundError:
            raise ValueError(f"camera profile {p} not found") from None
        except json.JSONDecodeError as e:
            raise ValueError(f"camera profile {p} is not JSON: {e}") from e
        if not isinstance(d, dict):
            raise ValueError(f"camera profile {p} must hold a JSON object")
        calib = cls.from_dict(d, source=f"camera profile {p}")
        if image_size is not None and tuple(int(v) for v in image_size) != calib.image_size:
            raise ValueError(
                f"camera profile {p} was made for {calib.image_size[0]}x{calib.image_size[1]} px images but "
                f"the video is {image_size[0]}x{image_size[1]}; calibrate again at this resolution "
                "(automatic, or manual with four corner points) or use the profile made for it"
            )
        if game is not None and game != calib.game:
            raise ValueError(
                f"camera profile {p} is for {calib.game}, not {game}; use a profile of this table"
            )
        return calib


def _outline_mm(table: TableModel, per_side: int = 48) -> np.ndarray:
    """The playing area's boundary, densely sampled so that distortion bends it correctly in pixels."""
    w, length = table.width_mm, table.length_mm
    s = np.linspace(0.0, 1.0, per_side, endpoint=False)
    return np.concatenate(
        [
            np.stack([w * s, np.zeros_like(s)], 1),
            np.stack([np.full_like(s, w), length * s], 1),
            np.stack([w * (1 - s), np.full_like(s, length)], 1),
            np.stack([np.zeros_like(s), length * (1 - s)], 1),
        ]
    )


# ------------------------------------------------------------------------------------------ fitting
@dataclass(frozen=True)
class _Observations:
    """What a fit matches: edge points that must lie on their table lines, and named points with known
    table coordinates."""

    edges: EdgePoints = field(default_factory=EdgePoints.empty)
    point_px: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    point_xyz: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))

    def with_edges(self, *parts: EdgePoints) -> _Observations:
        return _Observations(EdgePoints.concat([self.edges, *parts]), self.point_px, self.point_xyz)


def _residuals(theta: np.ndarray, centre: np.ndarray, obs: _Observations, px_per_mm: float) -> np.ndarray:
    """Residuals in pixels: each edge point's distance from its line on the table (mm, times a nominal
    scale), each named point's reprojection offset."""
    cam = _split(theta)
    e = obs.edges
    parts = []
    if len(e):
        xy = _backproject(cam, centre, e.xy_px, e.z_mm)
        parts.append((xy[np.arange(len(xy)), e.axis] - e.value_mm) * px_per_mm)
    if len(obs.point_px):
        parts.append((_project(cam, centre, obs.point_xyz) - obs.point_px).ravel())
    return np.concatenate(parts) if parts else np.zeros(0)


def _levenberg_marquardt(
    fun: Callable[[np.ndarray], np.ndarray], x0: np.ndarray, free: np.ndarray, max_iter: int = 60
) -> np.ndarray:
    """Minimise ``|fun(x)|^2`` over ``x[free]``: damped Gauss-Newton with a forward-difference Jacobian.
    Nine parameters at most, so no SciPy (not a runtime dependency) is needed."""
    x = x0.astype(np.float64).copy()
    idx = np.nonzero(free)[0]
    steps = np.maximum(np.abs(x[idx]) * 1e-6, 1e-7)
    r = fun(x)
    cost, lam = float(r @ r), 1e-3
    for _ in range(max_iter):
        jac = np.empty((len(r), len(idx)))
        for j, (i, h) in enumerate(zip(idx, steps, strict=True)):
            xp = x.copy()
            xp[i] += h
            jac[:, j] = (fun(xp) - r) / h
        a, g = jac.T @ jac, jac.T @ r
        diag = np.where(np.diag(a) > 0, np.diag(a), 1.0)
        improved = done = False
        while lam < 1e10:
            try:
                dx = np.linalg.solve(a + lam * np.diag(diag), -g)
            except np.linalg.LinAlgError:
                lam *= 10
                continue
            xn = x.copy()
            xn[idx] += dx
            rn = fun(xn)
            cn = float(rn @ rn)
            if np.isfinite(cn) and cn < cost:
                done = cost - cn < 1e-10 * cost
                x, r, cost, lam, improved = xn, rn, cn, max(lam / 3, 1e-9), True
                break
            lam *= 4
        if not improved or done:
            break
    return x


def _robust_fit(
    theta: np.ndarray,
    centre: np.ndarray,
    obs: _Observations,
    px_per_mm: float,
    free: np.ndarray,
    f_prior: float,
    rounds: int = 4,
) -> tuple[np.ndarray, np.ndarray]:
    """Iteratively reweighted least squares with Cauchy weights and a weak prior on log f. Returns the
    parameters and, per residual, whether it is an inlier."""
    r = _residuals(theta, centre, obs, px_per_mm)
    weights = np.ones(len(r))
    for _ in range(rounds):

        def fun(x: np.ndarray, w: np.ndarray = weights) -> np.ndarray:
            prior = EDGE_NOISE_PX * math.log(x[_F] / f_prior) / PRIOR_LOG_F_SIGMA if x[_F] > 0 else 1e6
            return np.append(_residuals(x, centre, obs, px_per_mm) * w, prior)

        theta = _levenberg_marquardt(fun, theta, free)
        r = _residuals(theta, centre, obs, px_per_mm)
        scale = max(1.4826 * float(np.median(np.abs(r))), MIN_SCALE_PX)
        weights = 1.0 / np.sqrt(1.0 + (r / (CAUCHY_C * scale)) ** 2)
    scale = max(1.4826 * float(np.median(np.abs(r))), MIN_SCALE_PX) if len(r) else MIN_SCALE_PX
    return theta, np.abs(r) < INLIER_DEVIATIONS * scale


def _edge_rms_px(theta: np.ndarray, centre: np.ndarray, edges: EdgePoints, keep: np.ndarray) -> float:
    """RMS pixel distance of edge points from their table lines' images: each point is taken back to the
    table, moved onto its line and projected again."""
    if not keep.any():
        return float("nan")
    cam = _split(theta)
    px, z = edges.xy_px[keep], edges.z_mm[keep]
    xy = _backproject(cam, centre, px, z)
    xy[np.arange(len(xy)), edges.axis[keep]] = edges.value_mm[keep]
    back = _project(cam, centre, np.concatenate([xy, z[:, None]], 1))
    return float(np.sqrt(np.mean(np.sum((back - px) ** 2, axis=1))))


def _nominal_px_per_mm(theta: np.ndarray) -> float:
    return float(theta[_F]) / max(_camera_height(theta), 1.0)


def _pose_from_homography(
    world_xy: np.ndarray, px: np.ndarray, centre: np.ndarray, f: float, z_mm: float
) -> np.ndarray | None:
    """Parameters (no distortion) from >= 4 points on one plane: the homography to normalised image
    coordinates, split into a rotation and a translation. None if there is no camera above the plane."""
    hom, _ = cv2.findHomography(world_xy.astype(np.float64), ((px - centre) / f).astype(np.float64), 0)
    if hom is None or not np.all(np.isfinite(hom)):
        return None
    n1, n2 = np.linalg.norm(hom[:, 0]), np.linalg.norm(hom[:, 1])
    r1, r2, t = hom[:, 0] / n1, hom[:, 1] / n2, hom[:, 2] / ((n1 + n2) / 2)
    if t[2] < 0:  # the plane must be in front of the camera
        r1, r2, t = -r1, -r2, -t
    u, _, vt = np.linalg.svd(np.stack([r1, r2, np.cross(r1, r2)], axis=1))
    rot = u @ vt
    theta = np.array([f, 0.0, 0.0, *cv2.Rodrigues(rot)[0].ravel(), *(t - rot[:, 2] * z_mm)])
    return theta if _camera_height(theta) > 0 else None


def _focal_from_homography(world_xy: np.ndarray, px: np.ndarray, centre: np.ndarray, f_prior: float) -> float:
    """Zhang's closed form for the focal length from one plane's homography, the principal point known:
    the start for named points. Falls back to ``f_prior`` when the view is too close to straight down to
    tell (the usual overhead rig, and why ``calibrate_auto`` starts from the prior and leaves f to the
    cushions' parallax)."""
    hom, _ = cv2.findHomography(world_xy.astype(np.float64), (px - centre).astype(np.float64), 0)
    if hom is None:
        return f_prior
    h1, h2 = hom[:, 0], hom[:, 1]
    # (a1 a2 + b1 b2) w + c1 c2 = 0 and (a1^2 + b1^2 - a2^2 - b2^2) w + c1^2 - c2^2 = 0, w = 1 / f^2.
    a = np.array([h1[0] * h2[0] + h1[1] * h2[1], h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2])
    b = -np.array([h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2])
    w = float(a @ b / (a @ a)) if a @ a > 0 else 0.0
    f = 1.0 / math.sqrt(w) if w > 0 else f_prior
    return f if 0.5 * f_prior < f < 2.0 * f_prior else f_prior


def _prior_focal(image_size: tuple[int, int]) -> float:
    return image_size[0] / 2 / math.tan(math.radians(PRIOR_HFOV_DEG) / 2)


def _straight_sides(outline: tf.Outline, centre: np.ndarray, f: float) -> tuple[float, np.ndarray]:
    """The k1 that makes the outline's sides straightest, and its corners as intersections of the
    straightened sides (ideal normalised coordinates): the distortion guess the first edge search needs."""

    def lines(k1: float) -> tuple[float, list[tuple[np.ndarray, np.ndarray]]]:
        cost, out = 0.0, []
        for pts in outline.sides_px:
            xu = _undistort((pts - centre) / f, k1, 0.0)
            mean = xu.mean(axis=0)
            _, sv, vt = np.linalg.svd(xu - mean, full_matrices=False)
            cost += float(sv[-1] ** 2) / len(xu)
            out.append((mean, vt[0]))
        return cost, out

    k1 = 0.0
    if min(len(p) for p in outline.sides_px) >= 4:
        grid = np.linspace(-K1_SEARCH, K1_SEARCH, 61)
        costs = np.array([lines(k)[0] for k in grid])
        j = int(np.argmin(costs))
        k1 = float(grid[j])
        if 0 < j < len(grid) - 1 and costs[j - 1] - 2 * costs[j] + costs[j + 1] > 0:
            a, b, c = costs[j - 1], costs[j], costs[j + 1]
            k1 += 0.5 * (a - c) / (a - 2 * b + c) * (grid[1] - grid[0])
    else:
        raise tf.no_table_error("a side of the cloth's outline is missing")
    _, side_lines = lines(k1)
    corners = []
    for i in range(4):
        (p, u), (q, v) = side_lines[i - 1], side_lines[i]
        m = np.array([u, -v]).T
        if abs(np.linalg.det(m)) < 1e-9:
            raise tf.no_table_error("two neighbouring sides of the cloth are parallel")
        corners.append(p + np.linalg.solve(m, q - p)[0] * u)
    return k1, np.array(corners)


def _flip(theta: np.ndarray, table: TableModel) -> np.ndarray:
    """The same camera in the table frame turned end for end (x -> W - x, y -> L - y)."""
    _, _, _, rot, t, _ = _split(theta)
    out = theta.copy()
    out[3:6] = cv2.Rodrigues(rot @ np.diag([-1.0, -1.0, 1.0]))[0].ravel()
    out[6:9] = rot @ np.array([table.width_mm, table.length_mm, 0.0]) + t
    return out


# ------------------------------------------------------------------------------------------ automatic
@dataclass(frozen=True)
class AutoConfig:
    """Knobs of ``calibrate_auto`` (and of ``calibrate_manual``'s refinement on an image)."""

    # Height above the cloth of the edge seen between the bed and the cushions. 0 in the synthetic world
    # (its cushions are walls standing on the cloth). On a real table the rubber nose overhangs the cloth:
    # set ``table.cushion_height_mm`` there, or the table's ends come out ~1 % of the camera distance short.
    nose_z_mm: float = 0.0
    # The cushions' outer edges (cloth -> rail, at cushion height) give the camera height by parallax; turn
    # off for tables whose cushion tops are not cloth-coloured or whose cushion width differs from the model.
    use_outer_edges: bool = True
    fit_k2: bool = True  # a second radial term: better for wide lenses, needs edges across the whole frame
    # Largest RMS edge residual accepted, in pixels at 1920 px width (scaled with the image): above it the
    # edges found are not a table of this game (a wrong ``--game``, a bent view, a cloth-coloured floor).
    max_rms_px: float = 2.0
    min_side_share: float = 0.3  # each cushion must yield this share of its samples as fitted nose points


def _fit_to_edges(
    feats: tf.Features,
    theta: np.ndarray,
    centre: np.ndarray,
    table: TableModel,
    cfg: AutoConfig,
    f_prior: float,
    points: _Observations,
    width: int,
) -> tuple[np.ndarray, _Observations, np.ndarray]:
    """From a model good to about a cushion width: noses anchored on the cloth's end and a fit of the pose
    and k1 with f held (one plane seen nearly straight down says little about f), then searches around
    the model, coarse to fine, adding the outer edges whose parallax fixes f. Returns the parameters, the
    last observations and which of their edge points are inliers."""

    def project(t: np.ndarray) -> tf.Project:
        cam = _split(t)
        return lambda xyz: _project(cam, centre, xyz)

    nose = tf.first_noses(feats, project(theta), table, cfg.nose_z_mm, SAMPLE_SPACING_MM, width)
    if len(nose) < MIN_FIRST_EDGES:
        raise tf.no_table_error("no cushion edges found along the cloth's outline")
    free = np.ones(9, bool)
    free[[_F, _K2]] = False
    theta, _ = _robust_fit(theta, centre, points.with_edges(nose), _nominal_px_per_mm(theta), free, f_prior)
    free[_F], free[_K2] = True, cfg.fit_k2
    obs, inliers = points, np.zeros(0, bool)
    for stage, window in enumerate(NARROW_WINDOWS_MM):
        proj = project(theta)
        found = [tf.search_edges(feats, proj, table, "nose", cfg.nose_z_mm, SAMPLE_SPACING_MM, window)]
        if cfg.use_outer_edges:
            wide = stage == 0  # the focal length is still a guess: search where it does not matter
            span = tf.OUTER_SEARCH_MM if wide else OUTER_WINDOW * window
            found.append(
                tf.search_edges(feats, proj, table, "outer", cfg.nose_z_mm, SAMPLE_SPACING_MM, span, wide)
            )
        obs = points.with_edges(*found)
        theta, inliers = _robust_fit(theta, centre, obs, _nominal_px_per_mm(theta), free, f_prior)
    return theta, obs, inliers[: len(obs.edges)]


def calibrate_auto(
    image: np.ndarray, table: TableModel, config: AutoConfig | None = None
) -> TableCalibration:
    """Find the table in an overhead image (H x W x 3 BGR uint8) and fit the camera to its cushion edges.

    Which short end is the bottom (baulk / head) comes from one-ended markings where the table has them
    (snooker's baulk line and D, five-pins' lag line) and otherwise from the synthetic camera's convention:
    the bottom cushion on the image's left (or at its bottom, for a table along the image height). Pool and
    pyramid tables are marked symmetrically: when such a camera looks the other way, use
    ``calibrate_manual``. Raises CalibrationError when there is no table to find."""
    cfg = config or AutoConfig()
    h, w = image.shape[:2]
    size = (int(w), int(h))
    centre = np.array([w / 2 - 0.5, h / 2 - 0.5])
    outline = tf.find_outline(image)
    feats = tf.features(image, outline.cloth)
    f_prior = _prior_focal(size)
    k1, corners_n = _straight_sides(outline, centre, f_prior)
    order = tf.label_corners(outline.quad_px)
    # The outline lies between the noses and the cushions' outer edges: take it half a cushion out.
    half = table.cushion_width_mm / 2
    wd, ln = table.width_mm, table.length_mm
    world = np.array([[-half, -half], [wd + half, -half], [wd + half, ln + half], [-half, ln + half]])
    xn = corners_n[order]
    theta = _pose_from_homography(world, xn * f_prior + centre, centre, f_prior, cfg.nose_z_mm)
    if theta is None:
        raise tf.no_table_error("the cloth's outline gives no camera above the table")
    # A pose split from a homography with the wrong f misses the corners: fit it to them, f and k1 held
    # (four corners seen nearly straight down cannot tell f; the cushions' parallax will).
    theta[_K1] = k1
    corners_px = f_prior * xn * (1.0 + k1 * np.sum(xn * xn, axis=1, keepdims=True)) + centre
    corners = _Observations(point_px=corners_px, point_xyz=np.concatenate([world, np.zeros((4, 1))], 1))
    free = np.zeros(9, bool)
    free[_POSE] = True
    theta, _ = _robust_fit(theta, centre, corners, 1.0, free, f_prior, rounds=1)
    theta, obs, inliers = _fit_to_edges(feats, theta, centre, table, cfg, f_prior, _Observations(), w)
    rms = _check_fit(theta, centre, obs.edges, inliers, table, cfg, w)
    orientation: Orientation = "convention"
    cam = _split(theta)
    evidence = tf.marking_evidence(feats, lambda xyz: _project(cam, centre, xyz), table)
    if abs(evidence) > MARKING_EVIDENCE:
        orientation = "markings"
        if evidence < 0:
            theta = _flip(theta, table)
    return _calibration(theta, table, size, "auto", orientation, rms, cfg.nose_z_mm)


def _check_fit(
    theta: np.ndarray,
    centre: np.ndarray,
    edges: EdgePoints,
    inliers: np.ndarray,
    table: TableModel,
    cfg: AutoConfig,
    width: int,
) -> float:
    """The fit's RMS edge residual (px), or CalibrationError when a cushion is missing or the edges do not
    fit the table: a wrong game, a table partly out of view."""
    nose = ~edges.outer
    for side, (name, _, _) in enumerate(tf.SIDES):
        expected = len(tf.side_samples(table, side, 0.0, 0.0, SAMPLE_SPACING_MM, "nose")[0])
        found = int((inliers & nose & (edges.side == side)).sum())
        if found < cfg.min_side_share * expected:
            raise CalibrationError(
                f"the {name} cushion of the {table.game} table was not found ({found} of {expected} edge "
                "points): is the whole table in view and the game right? use `--calibration FILE` or "
                "calibrate manually with four corner points"
            )
    rms = _edge_rms_px(theta, centre, edges, inliers)
    limit = cfg.max_rms_px * max(0.5, width / 1920)
    if not math.isfinite(rms) or rms > limit or _camera_height(theta) <= 0:
        raise CalibrationError(
            f"the cushion edges found do not fit a {table.game} table (RMS {rms:.2f} px > {limit:.2f}); is "
            "the game right? use `--calibration FILE` or calibrate manually with four corner points"
        )
    return rms


def _calibration(
    theta: np.ndarray,
    table: TableModel,
    size: tuple[int, int],
    method: Literal["auto", "manual"],
    orientation: Orientation,
    rms: float,
    nose_z_mm: float,
    points: Mapping[str, tuple[float, float]] | None = None,
) -> TableCalibration:
    """The calibration value; without named points, the four corners as the fitted model sees them."""
    if points is None:
        names = named_points(table, nose_z_mm)
        keys = ("bl", "br", "tr", "tl")
        px = _project(
            _split(theta),
            np.array([size[0] / 2 - 0.5, size[1] / 2 - 0.5]),
            np.array([names[k] for k in keys]),
        )
        points = {k: (round(float(p[0]), 3), round(float(p[1]), 3)) for k, p in zip(keys, px, strict=True)}
    return TableCalibration(
        game=table.game,
        image_size=size,
        f_px=float(theta[_F]),
        k1=float(theta[_K1]),
        k2=float(theta[_K2]),
        rvec=tuple(float(v) for v in theta[3:6]),  # type: ignore[arg-type]
        tvec=tuple(float(v) for v in theta[6:9]),  # type: ignore[arg-type]
        method=method,
        points_px=tuple((k, (float(v[0]), float(v[1]))) for k, v in points.items()),
        reprojection_error_px=float(rms),
        orientation=orientation,
        nose_z_mm=float(nose_z_mm),
        table=table,
    )


# ------------------------------------------------------------------------------------------ manual
def named_points(table: TableModel, nose_z_mm: float = 0.0) -> dict[str, tuple[float, float, float]]:
    """Every point name ``calibrate_manual`` accepts, with its table coordinates (mm, z up): the playing
    area's corners ``bl br tr tl`` and middle pocket mouths ``ml mr`` at the nose height, any pocket's
    mouth as ``pocket:<id>``, and the table's spots on the cloth."""
    w, length = table.width_mm, table.length_mm
    out = {
        "bl": (0.0, 0.0, nose_z_mm),
        "br": (w, 0.0, nose_z_mm),
        "tr": (w, length, nose_z_mm),
        "tl": (0.0, length, nose_z_mm),
    }
    for p in table.pockets:
        xyz = (p.mouth_xy_mm[0], p.mouth_xy_mm[1], nose_z_mm)
        out[f"pocket:{p.id}"] = xyz
        if not p.corner:
            out[p.id] = xyz
    for name, (x, y) in table.spots.items():
        out.setdefault(name, (x, y, 0.0))
    return out


def calibrate_manual(
    points_px: Mapping[str, tuple[float, float]],
    table: TableModel,
    image_size: tuple[int, int],
    *,
    image: np.ndarray | None = None,
    config: AutoConfig | None = None,
) -> TableCalibration:
    """Fit the camera to named points (``named_points``) picked in an image of ``image_size`` (width,
    height).

    Four corners fix a homography only: the lens distortion and the focal length (hence the camera height
    behind the ball-height correction) stay guesses, worth tens of millimetres with a wide lens. Add the
    middle pockets and spots (6+ points fit k1, 10+ also k2), or pass the ``image`` to refine the fit on
    the cushion edges as ``calibrate_auto`` does (``config.nose_z_mm`` is the corners' height too)."""
    cfg = config or AutoConfig()
    names = named_points(table, cfg.nose_z_mm)
    unknown = sorted(set(points_px) - set(names))
    if unknown:
        raise ValueError(f"unknown point names {unknown} for {table.game}; use {', '.join(names)}")
    if len(points_px) < 4:
        raise ValueError(f"manual calibration needs at least 4 named points, got {len(points_px)}")
    w, h = (int(v) for v in image_size)
    if image is not None and image.shape[:2] != (h, w):
        raise ValueError(f"image is {image.shape[1]}x{image.shape[0]} px but image_size is {w}x{h}")
    keys = list(points_px)
    px = np.array([[float(v) for v in points_px[k]] for k in keys], dtype=np.float64)
    if px.shape != (len(keys), 2) or not np.all(np.isfinite(px)):
        raise ValueError("every point must be an (x, y) pair of finite pixel coordinates")
    xyz = np.array([names[k] for k in keys], dtype=np.float64)
    size = (w, h)
    centre = np.array([w / 2 - 0.5, h / 2 - 0.5])
    f_prior = _prior_focal(size)
    f0 = _focal_from_homography(xyz[:, :2], px, centre, f_prior)
    theta = _pose_from_homography(xyz[:, :2], px, centre, f0, float(np.mean(xyz[:, 2])))
    if theta is None:
        raise ValueError(
            "the points fit no camera above the table: are they labelled right? (looking up the table from "
            "the bottom cushion, bl is the bottom left corner and br the bottom right one)"
        )
    obs = _Observations(point_px=px, point_xyz=xyz)
    free = np.zeros(9, bool)
    free[_POSE], free[_F] = True, True
    theta, _ = _robust_fit(theta, centre, obs, 1.0, free, f_prior, rounds=1)
    free[_K1], free[_K2] = len(keys) >= MANUAL_K1_POINTS, len(keys) >= MANUAL_K2_POINTS
    theta, _ = _robust_fit(theta, centre, obs, 1.0, free, f_prior, rounds=1)
    err2 = np.sum((_project(_split(theta), centre, xyz) - px) ** 2)
    n = len(keys)
    if image is not None:
        feats = tf.features(image, _cloth_inside(image, theta, centre, table))
        theta, edges_obs, inliers = _fit_to_edges(feats, theta, centre, table, cfg, f_prior, obs, w)
        err2 = np.sum((_project(_split(theta), centre, xyz) - px) ** 2)
        k = int(inliers.sum())
        if k:
            err2 += _edge_rms_px(theta, centre, edges_obs.edges, inliers) ** 2 * k
            n += k
    points = {k: (float(p[0]), float(p[1])) for k, p in zip(keys, px, strict=True)}
    return _calibration(theta, table, size, "manual", "points", math.sqrt(err2 / n), cfg.nose_z_mm, points)


def _cloth_inside(
    image: np.ndarray, theta: np.ndarray, centre: np.ndarray, table: TableModel
) -> tf.ClothColour:
    """The cloth colour read where a model puts the middle of the playing area (median colour)."""
    inner = np.array([[0.2, 0.2], [0.8, 0.2], [0.8, 0.8], [0.2, 0.8]]) * [table.width_mm, table.length_mm]
    poly = _project(_split(theta), centre, np.concatenate([inner, np.zeros((4, 1))], 1))
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 1)
    pixels = image[::CLOTH_SAMPLE_STRIDE, ::CLOTH_SAMPLE_STRIDE][
        mask[::CLOTH_SAMPLE_STRIDE, ::CLOTH_SAMPLE_STRIDE] > 0
    ]
    if len(pixels) == 0:
        return tf.ClothColour((0.0, 0.0, 0.0))
    return tf.ClothColour(tuple(float(v) for v in np.median(pixels.astype(np.float32), axis=0)))  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------ checking
def check_calibration(
    calib: TableCalibration, image: np.ndarray, min_score: float = CAMERA_MOVED_SCORE
) -> float:
    """How well a frame still fits a calibration, in [0, 1]: per cushion, the share of its nose points
    where the frame has a nose edge within ``CHECK_TOLERANCE`` of where the calibration puts it; the score
    is the second worst cushion's share. Raises CameraMovedError below ``min_score``. Costs ~10 ms at
    960 x 540 and ~40 ms at 1920 x 1080: run it every second or so, not on every frame."""
    h, w = image.shape[:2]
    if (w, h) != tuple(calib.image_size):
        raise ValueError(
            f"frame is {w}x{h} px but the calibration was made for {calib.image_size[0]}x"
            f"{calib.image_size[1]}; calibrate again at this resolution"
        )
    table, centre = calib.table, calib._centre
    cloth = _cloth_inside(image, calib._theta, centre, table)
    shares = []
    if cloth.level >= tf.MIN_CLOTH_LEVEL:
        feats = tf.features(image, cloth)
        tol = max(CHECK_TOLERANCE_PX, CHECK_TOLERANCE * w)
        for side in range(4):
            xyz, normal = tf.side_samples(table, side, 0.0, calib.nose_z_mm, CHECK_SPACING_MM, "nose")
            p0, nrm, _ = tf.image_normals(lambda p: _project(calib._parts, centre, p), xyz, normal)
            win = np.full(len(p0), tol + 2.0)
            t = tf.nose_edges(feats, p0, nrm, -win, win)
            shares.append(float(np.mean(np.abs(np.nan_to_num(t, nan=np.inf)) <= tol)))
    score = sorted(shares)[1] if shares else 0.0
    if score < min_score:
        raise CameraMovedError(
            f"the frame no longer fits the calibration (score {score:.2f} < {min_score:.2f}: the cushions "
            "are not where it puts them); the camera or the table moved: calibrate again (calibrate_auto, "
            "or manually with four corner points) or load the profile made for this view"
        )
    return score
