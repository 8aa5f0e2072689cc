"""Fitting the camera of a table calibration: to named points (corners, pockets, spots) and to the
cushion edges the image shows near where a model puts them (``vision.table_finder``), by robust
Levenberg-Marquardt (``vision.camera_fit``). ``vision.calibration`` drives it: ``calibrate_manual`` fits
typed points, ``calibrate_auto`` the corners its finder found, and both refine on the edges.

The edges are modelled as the synthetic world draws them: the cushion noses at ``AutoConfig.nose_z_mm``,
the cushions' outer edges a cushion width out at cushion height, whose parallax fixes the camera height.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from arbiter.tables import TableModel
from vision import camera_fit as cf
from vision import table_finder as tf
from vision.camera_profile import Orientation, TableCalibration
from vision.table_finder import CalibrationError, EdgePoints
from vision.table_verdict import CalibrationVerdict

MIN_FIRST_EDGES = 20  # nose points the first pass must find: fewer is not a table
SAMPLE_SPACING_MM = 20.0  # edge samples along the cushions: more average noise down and cost time
NARROW_WINDOWS_MM = (15.0, 6.0)  # edge searches around the fitted model, coarse to fine
OUTER_WINDOW = 1.5  # outer edges are searched this much wider than noses (their parallax is less certain)
MANUAL_K1_POINTS, MANUAL_K2_POINTS = 6, 10  # named points needed before k1, k2 are fitted, not left at 0
CLOTH_SAMPLE_STRIDE = 4  # the cloth colour is read on every 4th pixel and row: the median does not need all


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
    # How far (share of the table's length in the image) the cushion edges may pull a corner from where the
    # cloth's outline put it before the two are said to disagree: the outline's corners are good to ~0.5 %.
    edge_agreement: float = 0.01
    # "cloth-lines": the markerless finder for real views (``vision.table_corners``). "outline": the first
    # finder (``vision.table_outline``, synthetic overhead views only), kept as the evaluation's baseline.
    finder: Literal["cloth-lines", "outline"] = "cloth-lines"

    def __post_init__(self) -> None:
        if self.finder not in ("cloth-lines", "outline"):
            raise ValueError(f"AutoConfig.finder must be 'cloth-lines' or 'outline', got {self.finder!r}")
        if not 0.0 < self.edge_agreement < 1.0:
            raise ValueError(f"AutoConfig.edge_agreement must be in (0, 1), got {self.edge_agreement}")


def fit_to_edges(
    feats: tf.Features,
    theta: np.ndarray,
    centre: np.ndarray,
    table: TableModel,
    cfg: AutoConfig,
    f_prior: float,
    points: cf.Observations,
    width: int,
) -> tuple[np.ndarray, cf.Observations, np.ndarray]:
    """From a model good to about a cushion width: noses anchored on the cloth's end and a fit of the pose
    and k1 with f held (one plane seen nearly straight down says little about f), then searches around
    the model, coarse to fine, adding the outer edges whose parallax fixes f. Returns the parameters, the
    last observations and which of their edge points are inliers."""

    def project(t: np.ndarray) -> tf.Project:
        cam = cf.split(t)
        return lambda xyz: cf.project(cam, centre, xyz)

    nose = tf.first_noses(feats, project(theta), table, cfg.nose_z_mm, SAMPLE_SPACING_MM, width)
    if len(nose) < MIN_FIRST_EDGES:
        raise tf.no_table_error("no cushion edges found along the cloth's outline")
    free = np.ones(9, bool)
    free[[cf.F, cf.K2]] = False
    theta, _ = cf.robust_fit(
        theta, centre, points.with_edges(nose), cf.nominal_px_per_mm(theta), free, f_prior
    )
    free[cf.F], free[cf.K2] = True, cfg.fit_k2
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
        theta, inliers = cf.robust_fit(theta, centre, obs, cf.nominal_px_per_mm(theta), free, f_prior)
    return theta, obs, inliers[: len(obs.edges)]


def check_fit(
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
    rms = cf.edge_rms_px(theta, centre, edges, inliers)
    limit = cfg.max_rms_px * max(0.5, width / 1920)
    if not math.isfinite(rms) or rms > limit or cf.camera_height(theta) <= 0:
        raise CalibrationError(
            f"the cushion edges found do not fit a {table.game} table (RMS {rms:.2f} px > {limit:.2f}); is "
            "the game right? use `--calibration FILE` or calibrate manually with four corner points"
        )
    return rms


def calibration_of(
    theta: np.ndarray,
    table: TableModel,
    size: tuple[int, int],
    method: Literal["auto", "manual"],
    orientation: Orientation,
    rms: float,
    nose_z_mm: float,
    points: Mapping[str, tuple[float, float]] | None = None,
    verdict: CalibrationVerdict | None = None,
) -> TableCalibration:
    """The calibration value; without named points, the four corners as the fitted model sees them."""
    if points is None:
        names = named_points(table, nose_z_mm)
        keys = ("bl", "br", "tr", "tl")
        px = cf.project(
            cf.split(theta),
            cf.principal_point(size),
            np.array([names[k] for k in keys]),
        )
        points = {k: (round(float(p[0]), 3), round(float(p[1]), 3)) for k, p in zip(keys, px, strict=True)}
    return TableCalibration(
        game=table.game,
        image_size=size,
        f_px=float(theta[cf.F]),
        k1=float(theta[cf.K1]),
        k2=float(theta[cf.K2]),
        rvec=tuple(float(v) for v in theta[3:6]),  # type: ignore[arg-type]
        tvec=tuple(float(v) for v in theta[6:9]),  # type: ignore[arg-type]
        method=method,
        points_px=tuple((k, (float(v[0]), float(v[1]))) for k, v in points.items()),
        reprojection_error_px=float(rms),
        orientation=orientation,
        nose_z_mm=float(nose_z_mm),
        table=table,
        verdict=verdict or CalibrationVerdict(),
    )


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


def fit_named(
    px: np.ndarray, xyz: np.ndarray, size: tuple[int, int], lens: tuple[float, float] | None = None
) -> np.ndarray | None:
    """The camera through named points (pixels ``px`` of table points ``xyz``): the focal length from the
    points' homography where the view is oblique enough to tell (else a typical lens), the pose, then the
    radial terms when there are points enough for them. ``lens`` (f, k1), when a finder measured the
    distortion, is held: four corners cannot tell it. None if no camera above the table fits."""
    centre = cf.principal_point(size)
    f_prior = cf.prior_focal(size)
    free = np.zeros(9, bool)
    free[cf.POSE] = True
    if lens is not None:
        f0, k1 = lens
        straight = cf.undistort((px - centre) / f0, k1, 0.0) * f0 + centre
        theta = cf.pose_from_homography(xyz[:, :2], straight, centre, f0, float(np.mean(xyz[:, 2])))
        if theta is not None:
            theta[cf.K1] = k1
    else:
        f0 = cf.focal_from_homography(xyz[:, :2], px, centre, f_prior)
        theta = cf.pose_from_homography(xyz[:, :2], px, centre, f0, float(np.mean(xyz[:, 2])))
        free[cf.F] = True
    if theta is None:
        return None
    obs = cf.Observations(point_px=px, point_xyz=xyz)
    theta, _ = cf.robust_fit(theta, centre, obs, 1.0, free, f_prior, rounds=1)
    if lens is None:
        free[cf.K1], free[cf.K2] = len(px) >= MANUAL_K1_POINTS, len(px) >= MANUAL_K2_POINTS
        theta, _ = cf.robust_fit(theta, centre, obs, 1.0, free, f_prior, rounds=1)
    return theta


def cloth_inside(
    image: np.ndarray, theta: np.ndarray, centre: np.ndarray, table: TableModel
) -> tf.ClothColour:
    """The cloth colour read where a model puts the middle of the playing area (median colour)."""
    inner = np.array([[0.2, 0.2], [0.8, 0.2], [0.8, 0.8], [0.2, 0.8]]) * [table.width_mm, table.length_mm]
    poly = cf.project(cf.split(theta), centre, np.concatenate([inner, np.zeros((4, 1))], 1))
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 1)
    pixels = image[::CLOTH_SAMPLE_STRIDE, ::CLOTH_SAMPLE_STRIDE][
        mask[::CLOTH_SAMPLE_STRIDE, ::CLOTH_SAMPLE_STRIDE] > 0
    ]
    if len(pixels) == 0:
        return tf.ClothColour((0.0, 0.0, 0.0))
    return tf.ClothColour(tuple(float(v) for v in np.median(pixels.astype(np.float32), axis=0)))  # type: ignore[arg-type]
