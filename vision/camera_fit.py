"""The camera model behind a table calibration and its fitting: an OpenCV pinhole with square pixels, the
principal point at the image centre and radial distortion (k1, k2), posed over the table frame of
docs/architecture.md (``z`` up from the cloth), fitted to named points and cushion-edge points by robust
Levenberg-Marquardt with a weak prior on the focal length.

A parameter vector ``theta`` is f, k1, k2, rvec (3), tvec (3) in OpenCV's conventions (world -> camera);
``vision.calibration`` keeps the fitted values as plain numbers in ``TableCalibration``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

import cv2
import numpy as np

from arbiter.tables import TableModel
from vision.table_finder import EdgePoints

UNDISTORT_STEPS = 8  # Newton steps inverting the radial polynomial (it stops early once converged)
OPENCV_UNDISTORT_MAX_POINTS = 64  # fewer points are undistorted by OpenCV: ~10 us a call instead of ~100
_UNDISTORT_CRITERIA = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20, 1e-12)
_IDENTITY_K = np.eye(3)
# Prior on the focal length where the data cannot fix it (coplanar points seen nearly straight down): a 70
# degree lens, +-40 % (one sigma, in log f). Tilt and cushion parallax, where seen, outweigh it.
PRIOR_HFOV_DEG = 70.0
PRIOR_LOG_F_SIGMA = 0.4
# Focal lengths believed from a plane's homography, as shares of the prior's: a wide lens (~120 degrees) to
# a broadcast camera zoomed in on the table (~20 degrees; the main camera is ~33).
FOCAL_RANGE = (0.4, 4.0)
FOCAL_TOLD = math.log(1.15)  # ... and only where a pixel's noise on a point moves it less than this
EDGE_NOISE_PX = 0.5  # expected edge-point noise: weighs the prior against pixel residuals
# Robust loss: Cauchy at this many robust deviations. Edges on balls, the cue or an arm are down-weighted;
# true edge points far off a poor starting model are not thrown away.
CAUCHY_C = 2.5
MIN_SCALE_PX = 0.25  # floor of the robust scale: a near-perfect fit must not make every point an outlier
INLIER_DEVIATIONS = 3.0  # points within this many robust deviations count as fitted (reported RMS, checks)

# ------------------------------------------------------------------------------------------ camera model
# Parameter vector of the fits: f, k1, k2, rvec (3), tvec (3); OpenCV conventions (world -> camera).
F, K1, K2 = 0, 1, 2
POSE = slice(3, 9)


class CameraParts(NamedTuple):
    """A parameter vector unpacked once for many projections."""

    f: float
    k1: float
    k2: float
    rot: np.ndarray  # world -> camera rotation matrix
    t: np.ndarray  # tvec
    origin: np.ndarray  # the camera's optical centre in table mm


def split(theta: np.ndarray) -> CameraParts:
    rot = cv2.Rodrigues(np.asarray(theta[3:6], dtype=np.float64))[0]
    t = np.asarray(theta[6:9], np.float64)
    return CameraParts(float(theta[F]), float(theta[K1]), float(theta[K2]), rot, t, -rot.T @ t)


def project(cam: CameraParts, centre: np.ndarray, xyz: np.ndarray) -> np.ndarray:
    """Table points (N, 3) mm -> pixels (N, 2), distortion included."""
    f, k1, k2, rot, t, _ = cam
    pc = xyz @ rot.T + t
    xn = pc[:, :2] / pc[:, 2:3]
    r2 = np.sum(xn * xn, axis=1, keepdims=True)
    return np.asarray(f * xn * (1.0 + k1 * r2 + k2 * r2 * r2) + centre)


def undistort(xd: np.ndarray, k1: float, k2: float) -> np.ndarray:
    """Distorted -> ideal normalised coordinates. Newton on the radius (the model is radial only) for many
    points; OpenCV's iteration for a few, where numpy's per-call overhead would dominate."""
    if len(xd) <= OPENCV_UNDISTORT_MAX_POINTS:
        src = xd.reshape(-1, 1, 2).astype(np.float64)
        dist = np.array([k1, k2, 0.0, 0.0, 0.0])
        if hasattr(cv2, "undistortPointsIter"):  # OpenCV 4.x
            out = cv2.undistortPointsIter(src, _IDENTITY_K, dist, None, None, _UNDISTORT_CRITERIA)
        else:  # OpenCV 5 folded the criteria into undistortPoints
            out = cv2.undistortPoints(src, _IDENTITY_K, dist, criteria=_UNDISTORT_CRITERIA)
        return np.asarray(out.reshape(-1, 2))
    rd = np.linalg.norm(xd, axis=1)
    ru = rd.copy()
    for _ in range(UNDISTORT_STEPS):
        r2 = ru * ru
        g = ru * (1.0 + k1 * r2 + k2 * r2 * r2) - rd
        ru -= g / (1.0 + 3.0 * k1 * r2 + 5.0 * k2 * r2 * r2)
        if np.max(np.abs(g), initial=0.0) < 1e-13:
            break
    scale = np.divide(ru, rd, out=np.ones_like(rd), where=rd > 0)
    return np.asarray(xd * scale[:, None])


def backproject(cam: CameraParts, centre: np.ndarray, px: np.ndarray, z: np.ndarray | float) -> np.ndarray:
    """Pixels (N, 2) -> (x, y) mm where their rays meet the planes ``z`` (scalar or (N,))."""
    xu = undistort((px - centre) / cam.f, cam.k1, cam.k2)
    rays = xu @ cam.rot[:2] + cam.rot[2]  # camera rays (x, y, 1) turned into the table frame
    s = (z - cam.origin[2]) / rays[:, 2]
    return np.asarray(cam.origin[:2] + s[:, None] * rays[:, :2])


def camera_height(theta: np.ndarray) -> float:
    return float(split(theta).origin[2])


# ------------------------------------------------------------------------------------------ fitting
@dataclass(frozen=True)
class Observations:
    """What a fit matches: edge points that must lie on their table lines, and named points with known
    table coordinates."""

    edges: EdgePoints = field(default_factory=EdgePoints.empty)
    point_px: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    point_xyz: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))

    def with_edges(self, *parts: EdgePoints) -> Observations:
        return Observations(EdgePoints.concat([self.edges, *parts]), self.point_px, self.point_xyz)


def residuals(theta: np.ndarray, centre: np.ndarray, obs: Observations, px_per_mm: float) -> np.ndarray:
    """Residuals in pixels: each edge point's distance from its line on the table (mm, times a nominal
    scale), each named point's reprojection offset."""
    cam = split(theta)
    e = obs.edges
    parts = []
    if len(e):
        xy = backproject(cam, centre, e.xy_px, e.z_mm)
        parts.append((xy[np.arange(len(xy)), e.axis] - e.value_mm) * px_per_mm)
    if len(obs.point_px):
        parts.append((project(cam, centre, obs.point_xyz) - obs.point_px).ravel())
    return np.concatenate(parts) if parts else np.zeros(0)


def levenberg_marquardt(
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


def robust_fit(
    theta: np.ndarray,
    centre: np.ndarray,
    obs: Observations,
    px_per_mm: float,
    free: np.ndarray,
    f_prior: float,
    rounds: int = 4,
) -> tuple[np.ndarray, np.ndarray]:
    """Iteratively reweighted least squares with Cauchy weights and a weak prior on log f. Returns the
    parameters and, per residual, whether it is an inlier."""
    r = residuals(theta, centre, obs, px_per_mm)
    weights = np.ones(len(r))
    for _ in range(rounds):

        def fun(x: np.ndarray, w: np.ndarray = weights) -> np.ndarray:
            prior = EDGE_NOISE_PX * math.log(x[F] / f_prior) / PRIOR_LOG_F_SIGMA if x[F] > 0 else 1e6
            return np.append(residuals(x, centre, obs, px_per_mm) * w, prior)

        theta = levenberg_marquardt(fun, theta, free)
        r = residuals(theta, centre, obs, px_per_mm)
        weights = 1.0 / np.sqrt(1.0 + (r / (CAUCHY_C * _robust_scale(r))) ** 2)
    return theta, np.abs(r) < INLIER_DEVIATIONS * _robust_scale(r)


def _robust_scale(r: np.ndarray) -> float:
    """The residuals' robust deviation (MAD), never below MIN_SCALE_PX (nor undefined without any)."""
    return max(1.4826 * float(np.median(np.abs(r))), MIN_SCALE_PX) if len(r) else MIN_SCALE_PX


def edge_rms_px(theta: np.ndarray, centre: np.ndarray, edges: EdgePoints, keep: np.ndarray) -> float:
    """RMS pixel distance of edge points from their table lines' images: each point is taken back to the
    table, moved onto its line and projected again."""
    if not keep.any():
        return float("nan")
    cam = split(theta)
    px, z = edges.xy_px[keep], edges.z_mm[keep]
    xy = backproject(cam, centre, px, z)
    xy[np.arange(len(xy)), edges.axis[keep]] = edges.value_mm[keep]
    back = project(cam, centre, np.concatenate([xy, z[:, None]], 1))
    return float(np.sqrt(np.mean(np.sum((back - px) ** 2, axis=1))))


def nominal_px_per_mm(theta: np.ndarray) -> float:
    return float(theta[F]) / max(camera_height(theta), 1.0)


def pose_from_homography(
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
    return theta if camera_height(theta) > 0 else None


def focal_from_homography(world_xy: np.ndarray, px: np.ndarray, centre: np.ndarray, f_prior: float) -> float:
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
    return f if FOCAL_RANGE[0] * f_prior < f < FOCAL_RANGE[1] * f_prior else f_prior


def told_focal(
    world_xy: np.ndarray, px: np.ndarray, centre: np.ndarray, f_prior: float, noise_px: float
) -> float | None:
    """``focal_from_homography`` where the points tell it: the same within FOCAL_TOLD when any one point
    moves ``noise_px`` along either axis. A view near straight down tells nothing (its estimate swings
    from a wide lens to a zoom on a pixel's noise); a tilted one, broadcast's, does. None where it
    does not."""
    f = focal_from_homography(world_xy, px, centre, f_prior)
    if f == f_prior:
        return None
    for k in range(len(px)):
        for step in ((noise_px, 0.0), (-noise_px, 0.0), (0.0, noise_px), (0.0, -noise_px)):
            moved = px.copy()
            moved[k] += step
            if abs(math.log(focal_from_homography(world_xy, moved, centre, f_prior) / f)) > FOCAL_TOLD:
                return None
    return f


def principal_point(size: tuple[int, int]) -> np.ndarray:
    """The image's centre (x, y px) for an image of ``size`` (width, height), pixel centres at whole
    numbers: the principal point every camera here is taken to have."""
    return np.array([size[0] / 2 - 0.5, size[1] / 2 - 0.5])


def prior_focal(image_size: tuple[int, int]) -> float:
    return image_size[0] / 2 / math.tan(math.radians(PRIOR_HFOV_DEG) / 2)


def flip(theta: np.ndarray, table: TableModel) -> np.ndarray:
    """The same camera in the table frame turned end for end (x -> W - x, y -> L - y)."""
    _, _, _, rot, t, _ = split(theta)
    out = theta.copy()
    out[3:6] = cv2.Rodrigues(rot @ np.diag([-1.0, -1.0, 1.0]))[0].ravel()
    out[6:9] = rot @ np.array([table.width_mm, table.length_mm, 0.0]) + t
    return out
