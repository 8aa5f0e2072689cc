"""Camera calibration for a view of a billiard table: pixels <-> table millimetres.

The model (``vision.camera_fit``) is an OpenCV pinhole camera with square pixels, the principal point at
the image centre and radial distortion (k1, k2), posed over the table frame of docs/architecture.md (``z``
up from the cloth). A full 3D model rather than a homography, because ball centres sit a ball radius above
the cloth: seen from 2.5 m that shifts them ~1 % of their distance from the camera's nadir, up to 15 mm at
the table's ends.

``calibrate_auto`` finds the table without markers (``vision.table_corners``: the cloth's colour from the
image, four RANSAC cushion lines moved to the noses), names its corners (long axis from the view's
geometry, the bottom end from one-ended markings or by convention), takes the table's size from the
game's catalogue by the balls' size (``vision.table_geometry``) and fits the camera to the corners, then,
where the image shows them, to the cushion edges by robust Levenberg-Marquardt (``vision.table_finder``),
whose outer edges stand a cushion height above the cloth and fix the camera height by parallax. It returns
a calibration with a verdict (``vision.table_verdict``): sure, or unsure with its reasons; it raises only
where there is no table. ``calibrate_manual`` fits the same model to named points, optionally refined on
the edges: the way round an unsure calibration. ``check_calibration`` tells whether a frame still fits a
calibration (the camera moved); ``vision.broadcast`` tells a cut to another camera.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np

from arbiter.tables import TableModel, own_size_name
from vision import camera_fit as cf
from vision import corner_heights as ch
from vision import edge_fit as ef
from vision import table_finder as tf
from vision import table_geometry as geo
from vision.ball_size import measure_balls
from vision.camera_profile import Orientation, TableCalibration
from vision.edge_fit import AutoConfig, named_points
from vision.score_bar import bar_over_table, unseen_outline
from vision.table_corners import TableCorners, find_corners
from vision.table_finder import CalibrationError
from vision.table_outline import find_outline, label_corners, straight_sides
from vision.table_verdict import CalibrationVerdict, Doubt, Note, Reason

__all__ = [
    "AutoConfig",
    "CalibrationError",
    "CalibrationVerdict",
    "CameraMovedError",
    "TableCalibration",
    "UnsureCalibrationWarning",
    "calibrate_auto",
    "calibrate_manual",
    "check_calibration",
    "named_points",
    "warn_if_unsure",
]

MARKING_EVIDENCE = 0.02  # marking contrast (share of the cloth level) that settles the outline finder's ends
# The camera-moved check: a nose edge counts when found within this share of the image width (at least
# CHECK_TOLERANCE_PX) of where the calibration puts it. Tighter catches smaller bumps; looser tolerates
# vibration and motion blur.
CHECK_TOLERANCE, CHECK_TOLERANCE_PX, CHECK_SPACING_MM = 0.0025, 2.0, 40.0
# Share of a cushion's nose points that must still be found, on the second worst cushion: one cushion may
# be hidden by a player leaning over it; a camera that moved or turned misplaces at least two.
CAMERA_MOVED_SCORE = 0.5
CORNERS = ("bl", "br", "tr", "tl")
# What "sure" promises: every corner within this share of the table's length. A corner found in the image
# is good to about CORNER_PX pixels; a far end seen smaller than that allows is doubtful. A broadcast
# view's far cushion shows its face and its nose as two edges some 4-6 px apart: either may be taken.
# A far end that no marking placed (and the middle pockets confirmed) is held to UNCONFIRMED_CORNER_PX:
# its cushion's top and nose are two steps a few px apart too, and nothing says which was taken.
SURE_WITHIN = 0.01
CORNER_PX = 4.0
UNCONFIRMED_CORNER_PX = 5.0
K1_EXPLAINS = 0.03  # an edge fit's k1 this far from the finder's explains why their corners differ
MIDDLE_TOLERANCE = 0.015  # middle pockets this far (share of the length) from half-way: a cushion is off
# Four corners that no camera sees as the game's table to within this share of its length are no table's:
# the whole tables measured here, real and rendered, fit to 2.5 % at worst (a toy table of its own shape);
# a photo of one corner of a table, its outline closed along the frame's edges, came out 13.6 % off, and
# its "balls" were 14 specks of cloth round the cue at the size a whole table's would be.
NOT_A_TABLE = 0.08


class CameraMovedError(CalibrationError):
    """The frame no longer fits the calibration: the camera (or the table) moved."""


class UnsureCalibrationWarning(UserWarning):
    """A calibration that is not sure of itself is being used: balls may be placed wrongly."""


def warn_if_unsure(calib: TableCalibration) -> TableCalibration:
    """The calibration, after a loud warning (``UnsureCalibrationWarning``, on stderr by default) when it
    is unsure: what a run calls before it uses one, so an unsure calibration is never used silently."""
    if not calib.verdict.sure:
        warnings.warn(UnsureCalibrationWarning(calib.verdict.message()), stacklevel=2)
    return calib


# ------------------------------------------------------------------------------------------ automatic


def calibrate_auto(
    image: np.ndarray,
    table: TableModel,
    config: AutoConfig | None = None,
    *,
    size: str | None = None,
    ignore: np.ndarray | None = None,
) -> TableCalibration:
    """Find the table in an image (H x W x 3 BGR uint8), overhead or from a broadcast camera's place, and
    fit the camera to it. ``table`` is the game's table; ``size`` a name from its catalogue
    (``table.sizes``: ``"10ft"``), else the size is told from the balls where they can be measured, else
    the game's own. ``ignore`` (H x W, nonzero) marks graphics over the view (``vision.broadcast``).

    Which short end is the bottom (baulk / head) comes from one-ended markings where the table has them
    (snooker's baulk line, five-pins' lag line) and otherwise from a convention: the bottom cushion on the
    image's left, or at its bottom for a table along the image's height (where a broadcast camera stands).
    Pool and pyramid tables are marked symmetrically: when such a camera looks the other way, use
    ``calibrate_manual``. The result's ``verdict`` says whether it is sure and why not; raises
    CalibrationError only when there is no table to find."""
    cfg = config or AutoConfig()
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ValueError(f"expected an H x W x 3 uint8 BGR image, got {image.shape} {image.dtype}")
    if ignore is not None and ignore.shape[:2] != image.shape[:2]:
        raise ValueError(
            f"the ignore mask is {ignore.shape[:2]}, the image {image.shape[:2]}: give one per pixel"
        )
    if cfg.finder == "outline":
        return _auto_from_outline(image, table.resized(size) if size else table, cfg)
    done = _fitted(image, find_corners(image, ignore, table), table, size, cfg)
    if _misshapen(done.fit):
        again = _without_flat_runs(image, ignore, table, size, cfg)
        done = again if again is not None and not _misshapen(again.fit) else done
    done = done if size is not None else _own_shape(image, done, cfg)
    found, fit = done.found, done.fit
    view_doubts = _view_doubts(image, done.corners, found, done.sized)
    verdict = CalibrationVerdict.of([*found.doubts, *view_doubts, *fit.reasons, *done.notes])
    h, w = image.shape[:2]
    calib = ef.calibration_of(
        fit.theta, done.sized, (w, h), "auto", done.orientation, fit.rms, cfg.nose_z_mm, fit.points, verdict
    )
    unseen = unseen_outline(found.unseen_px, bar_over_table(image, found.cloth, calib))
    return replace(calib, unseen_px=unseen) if unseen else calib


@dataclass(frozen=True)
class _Fitted:
    """The corners found and named, the table sized, a camera fitted to them, and what was said on the way."""

    found: TableCorners
    corners: dict[str, np.ndarray]
    orientation: Orientation
    sized: TableModel
    fit: _CornerFit
    notes: tuple[Reason, ...]


def _fitted(
    image: np.ndarray, found: TableCorners, table: TableModel, size: str | None, cfg: AutoConfig
) -> _Fitted:
    corners, top, orientation, notes = _name_corners(image, found, table)
    sized, size_notes = _table_size(top, found, table, size)
    fit_ok = not geo.oblique(found.quad_px)  # the edge fit models cushions seen from above
    fit = _camera_from_corners(image, corners, sized, found, cfg, fit_ok)
    return _Fitted(found, corners, orientation, sized, fit, (*notes, *size_notes))


def _own_shape(image: np.ndarray, done: _Fitted, cfg: AutoConfig) -> _Fitted:
    """``done`` again on a table of its own shape where, seen from above, the catalogue's misses the corners
    by more than ``SURE_WITHIN``: as long as the table sized (the balls' size said it) and as wide as the
    corners' view makes it (``table_geometry.plane_view``: exact from straight above, whatever the lens),
    with its camera; ``done`` as it is where that shape is no billiard table's or fits the corners no
    better than half as far off, within ``SURE_WITHIN / 2``."""
    off, sized = done.fit.shape_off, done.sized
    if off <= SURE_WITHIN or geo.oblique(done.found.quad_px):
        return done
    h, w = image.shape[:2]
    across = geo.plane_view(geo.quad_of(done.corners), (w, h)).aspect  # width over length
    try:
        own = sized.resized(own_size_name(sized.length_mm, sized.length_mm * across))
    except ValueError:
        return done
    fit = _camera_from_corners(image, done.corners, own, done.found, cfg, True)
    if fit.shape_off > min(SURE_WITHIN / 2, off / 2):
        return done
    why = (
        f"no catalogue table's shape fits the corners (the {sized.size} table's is off by {off:.1%}): the "
        f"table is taken as one of its own, {own.length_mm:.0f} x {own.width_mm:.0f} mm ({1 / across:.2f}:1; "
        "give --table with its playing area, length x width in mm, or a catalogue size)"
    )
    return replace(done, sized=own, fit=fit, notes=(*done.notes, Reason(Doubt.OWN_SHAPE, why)))


def _misshapen(fit: _CornerFit) -> bool:
    """Whether the table's shape did not fit the corners (a side bent off its cushion)."""
    return any(r.kind is Doubt.SHAPE for r in fit.reasons)


def _without_flat_runs(
    image: np.ndarray, ignore: np.ndarray | None, table: TableModel, size: str | None, cfg: AutoConfig
) -> _Fitted | None:
    """The corners found again with a graphic's edge over part of a side left out of it (``find_corners(...,
    flat_runs=True)``: a score bar over part of the near cushion, taken with the cushion beside it, bends
    that end askew), and fitted; None where that finds no table. Tried only where the table's shape did not
    fit the corners: alone, the rule also takes a far cushion for a graphic in front of its rail."""
    try:
        return _fitted(image, find_corners(image, ignore, table, flat_runs=True), table, size, cfg)
    except CalibrationError:
        return None


def _name_corners(
    image: np.ndarray, found: TableCorners, table: TableModel
) -> tuple[dict[str, np.ndarray], np.ndarray, Orientation, list[Reason]]:
    """The corners named (``bl br tr tl``), the bed's top view, what settled the ends, and a note when
    nothing but the convention did."""
    named = geo.name_corners(found.quad_px, found.view)
    aspect = max(found.view.aspect, 1 / found.view.aspect)
    top = geo.top_view(image, named, aspect, found.k1, found.f_px)
    evidence = geo.marking_evidence(top, table)
    if abs(evidence) >= geo.MARKING_SURE:
        if evidence < 0:
            named = geo.turned(named)
            top = geo.top_view(image, named, aspect, found.k1, found.f_px)
        return named, top, "markings", []
    why = "no one-ended marking told the ends apart: the bottom cushion is taken at the image's left (bottom)"
    return named, top, "convention", [Reason(Note.BOTTOM_BY_CONVENTION, why)]


def _view_doubts(
    image: np.ndarray, corners: dict[str, np.ndarray], found: TableCorners, table: TableModel
) -> list[Reason]:
    """Doubts the named corners raise about themselves: a far end seen too small to place its corners
    within SURE_WITHIN (a smaller one where a marking and the middle pockets confirmed it), middle pockets
    that are not half-way between the corners."""
    aspect = max(found.view.aspect, 1 / found.view.aspect)
    if found.view.f_px is None:  # a view that cannot tell its focal length cannot tell the shape either
        aspect = table.length_mm / table.width_mm
    confirmed = any(r.kind is Note.END_FROM_MARKING for r in found.doubts)
    far = far_end_doubt(corners, aspect, confirmed)
    out = [] if far is None else [far]
    if any(not p.corner for p in table.pockets):
        middle = geo.middle_pockets(image, corners, aspect)
        if middle is not None and abs(middle - 0.5) > MIDDLE_TOLERANCE:
            why = f"the middle pockets are {middle:.1%} of the way up the table, not half-way: a side is off"
            out.append(Reason(Doubt.MIDDLE_POCKETS, why))
    return out


def far_end_doubt(corners: dict[str, np.ndarray], aspect: float, confirmed: bool) -> Reason | None:
    """A doubt when the worst-seen corner (a far end) is seen too small for a corner good to CORNER_PX, or
    to UNCONFIRMED_CORNER_PX where no marking placed that end and the middle pockets confirmed it, to be
    within SURE_WITHIN of the table's length."""
    per_px = geo.corner_resolution(corners, aspect)
    if (CORNER_PX if confirmed else UNCONFIRMED_CORNER_PX) * per_px <= SURE_WITHIN:
        return None
    why = (
        f"the far end is seen at {0.01 / per_px:.1f} px per 1 % of the table's length: too small to place "
        f"its corners within {SURE_WITHIN:.0%}" + ("" if confirmed else " with nothing to confirm it")
    )
    return Reason(Doubt.FAR_END, why)


def _table_size(
    top: np.ndarray, found: TableCorners, table: TableModel, size: str | None
) -> tuple[TableModel, list[Reason]]:
    """The table of the size given, or of the size the balls say (``table_geometry.choose_size``)."""
    if size is not None:
        return table.resized(size), []
    if geo.oblique(found.quad_px):
        why = f"the view is too oblique to measure the balls: the {table.size or 'standard'} table is taken"
        return table, [Reason(Note.SIZE_ASSUMED, why)]
    sides = [float(np.linalg.norm(found.quad_px[(k + 1) % 4] - found.quad_px[k])) for k in range(4)]
    length_px = max(sides[0] + sides[2], sides[1] + sides[3]) / 2  # the long sides, in the image
    balls = measure_balls(top, found.cloth, length_px)
    choice = geo.choose_size(table, balls.share)
    sized, reasons = _size_reasons(table, choice)
    if balls.shaded and choice.measured:
        why = (
            f"the balls' outlines come out {balls.stretch:.2f} times longer than wide, more than a camera "
            "stretches them: their shaded sides are lost against the cloth, and the size they measure on "
            f"their long axes is unsure: the {sized.size} table is taken (give --table if it is another size)"
        )
        reasons = [*reasons, Reason(Doubt.SIZE_UNMEASURED, why)]
    return sized, reasons


def _size_reasons(table: TableModel, choice: geo.SizeChoice) -> tuple[TableModel, list[Reason]]:
    """The table of the size chosen and what is to be said of it: the game's own where the balls measure a
    size too near it to tell apart or measure nothing (a doubt where the game has several sizes)."""
    own = table.table_size(table.size) if table.sizes and table.size else None
    measured = choice.nearest if choice.measured else None
    if own is not None and measured is not None and geo.too_close_to_tell(own, measured):
        why = (
            f"the balls measure the table as {measured.title}, too near the game's {own.title} to tell "
            f"apart by the balls: the {own.title} table is taken (give --table if it is another size)"
        )
        return table, [Reason(Doubt.SIZE_TOO_CLOSE, why)]
    sized = table.resized(choice.size.name) if table.sizes else table
    if len(choice.within_band) > 1:
        names = " and ".join(s.title for s in choice.within_band)
        why = (
            f"the balls measure the table between the {names} tables, too near both to tell them apart: "
            f"the {choice.size.title} table is taken (give --table if it is another size)"
        )
        return sized, [Reason(Doubt.SIZE_TOO_CLOSE, why)]
    if not choice.measured:
        why = (
            f"no balls big enough in the frame to measure the table's size: the game's {choice.size.title} "
            "table is taken (give --table if it is another size)"
        )
        several = len(table.sizes) > 1
        return sized, [Reason(Doubt.SIZE_UNMEASURED, why) if several else Reason(Note.SIZE_ASSUMED, why)]
    if choice.misfit > geo.SIZE_MISFIT:
        why = (
            f"the table is {choice.balls_per_length:.0f} ball diameters long, no catalogue size: the "
            f"nearest, {choice.size.title}, is taken (a ball misread, or a table of its own size: give "
            "--table)"
        )
        return sized, [Reason(Doubt.SIZE_NEAREST, why)]
    return sized, []


@dataclass(frozen=True)
class _CornerFit:
    """A camera fitted from the corners found: its parameters, its RMS residual (px), the points it
    reports (the corners found, or None for the edge fit's own), and its reasons."""

    theta: np.ndarray
    rms: float
    points: dict[str, tuple[float, float]] | None
    reasons: tuple[Reason, ...] = ()
    shape_off: float = 0.0  # how far the table's shape misses the corners (share of its length)


def _corner_lens(
    px: np.ndarray, xyz: np.ndarray, centre: np.ndarray, found: TableCorners, size: tuple[int, int]
) -> tuple[float, float]:
    """The lens the corners' camera is held to: the focal length the corners' own homography gives, once
    straightened by the bend the finder measured (``found.k1``, normalised by ``found.f_px``, a typical
    lens's), where the corners tell it to within their own CORNER_PX (else the typical lens), and that
    bend expressed for it. Held to the typical lens, a long broadcast lens's view of the right table
    looked like another table's shape."""
    prior = cf.prior_focal(size)
    f_bend = found.f_px or prior
    straight = cf.undistort((px - centre) / f_bend, found.k1, 0.0) * f_bend + centre
    f = cf.told_focal(xyz[:, :2], straight, centre, prior, CORNER_PX) or f_bend
    return f, found.k1 * (f / f_bend) ** 2


def _camera_from_corners(
    image: np.ndarray,
    corners: Mapping[str, np.ndarray],
    table: TableModel,
    found: TableCorners,
    cfg: AutoConfig,
    refine: bool,
) -> _CornerFit:
    """The camera through the four corners, refined on the cushion edges where ``refine`` and the image
    shows them (``ef.fit_to_edges``, as a manual calibration with an image is: ``_edge_refined``)."""
    h, w = image.shape[:2]
    names = named_points(table, cfg.nose_z_mm)
    seen = np.array([corners[k] for k in CORNERS], np.float64)
    xyz = np.array([names[k] for k in CORNERS], np.float64)
    centre = cf.principal_point((w, h))
    theta0 = ef.fit_named(seen, xyz, (w, h), _corner_lens(seen, xyz, centre, found, (w, h)))
    if theta0 is None:
        raise tf.no_table_error("the corners found fit no camera above the table")
    theta0, px = _corners_at_the_cloth(theta0, seen, xyz, corners, found, table, (w, h))
    miss = np.linalg.norm(cf.project(cf.split(theta0), centre, xyz) - px, axis=1)
    length_px = 0.5 * float(np.linalg.norm(px[3] - px[0]) + np.linalg.norm(px[2] - px[1]))
    off = float(miss.max()) / length_px
    if off > NOT_A_TABLE:
        raise tf.no_table_error(
            f"the four corners found are no {table.size or 'billiard'} table's seen by a camera (its shape "
            f"is off by {off:.0%} of its length): the image shows part of a table, or something else"
        )
    shape: tuple[Reason, ...] = ()
    if off > SURE_WITHIN / 2:
        why = f"the {table.size} table's shape does not fit the corners (off by {off:.1%})"
        shape = (Reason(Doubt.SHAPE, why),)
    at = {k: (float(p[0]), float(p[1])) for k, p in zip(CORNERS, seen, strict=True)}  # as found
    corner_fit = _CornerFit(theta0, float(np.sqrt(np.mean(miss**2))), at, shape, off)
    if not refine:
        why = "the view is too oblique for the cushion edges: the camera is fitted to the four corners alone"
        return replace(corner_fit, reasons=(*shape, Reason(Note.EDGE_FIT_SKIPPED, why)))
    return replace(_edge_refined(image, corner_fit, px, xyz, table, found, cfg), shape_off=off)


def _corners_at_the_cloth(
    theta: np.ndarray,
    seen: np.ndarray,
    xyz: np.ndarray,
    corners: Mapping[str, np.ndarray],
    found: TableCorners,
    table: TableModel,
    size: tuple[int, int],
) -> tuple[np.ndarray, np.ndarray]:
    """The camera fitted again to the corners ``seen`` brought down to the cloth where a side meeting there
    was seen at its nose, its face hidden from the camera ``theta`` (``vision.corner_heights``), and those
    corners; ``theta`` and ``seen`` unchanged where every side lies on the bed, or where a fit fails."""
    size_mm = (table.width_mm, table.length_mm)
    hidden = ch.faces_hidden(theta, size_mm)
    heights = ch.named_side_heights(found.quad_px, found.sides, corners, hidden, table.cushion_height_mm)
    if not any(heights.values()):
        return theta, seen
    centre = cf.principal_point(size)
    px = seen
    for _ in range(ch.ROUNDS):
        px = seen - ch.parallax(theta, centre, xyz, CORNERS, heights, size_mm)
        again = ef.fit_named(px, xyz, size, _corner_lens(px, xyz, centre, found, size))
        if again is None:
            return theta, seen
        theta = again
    return theta, px


def _edge_refined(
    image: np.ndarray,
    corner_fit: _CornerFit,
    px: np.ndarray,
    xyz: np.ndarray,
    table: TableModel,
    found: TableCorners,
    cfg: AutoConfig,
) -> _CornerFit:
    """The corners' camera refined on the cushion edges. The edge fit models cushions as the synthetic
    world draws them: where it cannot converge the corners' camera stays (a note); where it converges
    but moves a corner more than ``cfg.edge_agreement``, it is taken only when the corners have a known
    weakness that explains the move (a lens bend they were not straightened for, a side whose nose the
    outline did not show), and otherwise the corners' camera stays and the calibration is unsure. ``px``:
    the corners at the cloth the corners' camera was fitted to."""
    h, w = image.shape[:2]
    centre = cf.principal_point((w, h))
    try:
        feats = tf.features(image, tf.ClothColour(found.cloth.bgr))
        f_prior = cf.prior_focal((w, h))
        theta, obs, inliers = ef.fit_to_edges(
            feats, corner_fit.theta, centre, table, cfg, f_prior, cf.Observations(), w
        )
        rms = ef.check_fit(theta, centre, obs.edges, inliers, table, cfg, w)
    except (CalibrationError, np.linalg.LinAlgError):
        why = "the cushion edges could not refine the fit: the camera is fitted to the four corners alone"
        return replace(corner_fit, reasons=(*corner_fit.reasons, Reason(Note.EDGE_FIT_SKIPPED, why)))
    length_px = 0.5 * float(np.linalg.norm(px[3] - px[0]) + np.linalg.norm(px[2] - px[1]))
    moved = float(np.max(np.linalg.norm(cf.project(cf.split(theta), centre, xyz) - px, axis=1))) / length_px
    if moved <= cfg.edge_agreement:
        return _CornerFit(theta, rms, None)
    bent = abs(float(theta[cf.K1]) - found.k1) > K1_EXPLAINS
    blind = any(not s.nose_moved for s in found.sides)
    if bent or blind:
        why = (
            f"the cushion edges moved a corner {moved:.1%} of the table's length from the cloth's outline "
            f"({'a lens bend' if bent else 'a nose the outline did not show'})"
        )
        return _CornerFit(theta, rms, None, (Reason(Note.EDGES_CORRECTED, why),))
    why = f"the cushion edges pull a corner {moved:.1%} of the table's length off the cloth's outline"
    return replace(corner_fit, reasons=(*corner_fit.reasons, Reason(Doubt.EDGES_DISAGREE, why)))


def _auto_from_outline(image: np.ndarray, table: TableModel, cfg: AutoConfig) -> TableCalibration:
    """The first finder's calibration (``AutoConfig(finder="outline")``): the cloth's outline, a camera
    through it half a cushion out, the edge fit; raises CalibrationError wherever it fails."""
    h, w = image.shape[:2]
    size = (int(w), int(h))
    centre = cf.principal_point((w, h))
    outline = find_outline(image)
    feats = tf.features(image, outline.cloth)
    f_prior = cf.prior_focal(size)
    k1, corners_n = straight_sides(outline, centre, f_prior)
    order = label_corners(outline.quad_px)
    # The outline lies between the noses and the cushions' outer edges: take it half a cushion out.
    half = table.cushion_width_mm / 2
    wd, ln = table.width_mm, table.length_mm
    world = np.array([[-half, -half], [wd + half, -half], [wd + half, ln + half], [-half, ln + half]])
    xn = corners_n[order]
    theta = cf.pose_from_homography(world, xn * f_prior + centre, centre, f_prior, cfg.nose_z_mm)
    if theta is None:
        raise tf.no_table_error("the cloth's outline gives no camera above the table")
    # A pose split from a homography with the wrong f misses the corners: fit it to them, f and k1 held
    # (four corners seen nearly straight down cannot tell f; the cushions' parallax will).
    theta[cf.K1] = k1
    corners_px = f_prior * xn * (1.0 + k1 * np.sum(xn * xn, axis=1, keepdims=True)) + centre
    corners = cf.Observations(point_px=corners_px, point_xyz=np.concatenate([world, np.zeros((4, 1))], 1))
    free = np.zeros(9, bool)
    free[cf.POSE] = True
    theta, _ = cf.robust_fit(theta, centre, corners, 1.0, free, f_prior, rounds=1)
    theta, obs, inliers = ef.fit_to_edges(feats, theta, centre, table, cfg, f_prior, cf.Observations(), w)
    rms = ef.check_fit(theta, centre, obs.edges, inliers, table, cfg, w)
    orientation: Orientation = "convention"
    cam = cf.split(theta)
    evidence = tf.marking_evidence(feats, lambda xyz: cf.project(cam, centre, xyz), table)
    if abs(evidence) > MARKING_EVIDENCE:
        orientation = "markings"
        if evidence < 0:
            theta = cf.flip(theta, table)
    return ef.calibration_of(theta, table, size, "auto", orientation, rms, cfg.nose_z_mm)


# ------------------------------------------------------------------------------------------ manual


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
    centre = cf.principal_point((w, h))
    f_prior = cf.prior_focal(size)
    theta = ef.fit_named(px, xyz, size)
    if theta is None:
        raise ValueError(
            "the points fit no camera above the table: are they labelled right? (looking up the table from "
            "the bottom cushion, bl is the bottom left corner and br the bottom right one)"
        )
    obs = cf.Observations(point_px=px, point_xyz=xyz)
    err2 = np.sum((cf.project(cf.split(theta), centre, xyz) - px) ** 2)
    n = len(keys)
    if image is not None:
        feats = tf.features(image, ef.cloth_inside(image, theta, centre, table))
        theta, edges_obs, inliers = ef.fit_to_edges(feats, theta, centre, table, cfg, f_prior, obs, w)
        err2 = np.sum((cf.project(cf.split(theta), centre, xyz) - px) ** 2)
        k = int(inliers.sum())
        if k:
            err2 += cf.edge_rms_px(theta, centre, edges_obs.edges, inliers) ** 2 * k
            n += k
    points = {k: (float(p[0]), float(p[1])) for k, p in zip(keys, px, strict=True)}
    typed = CalibrationVerdict(notes=(Reason(Note.TYPED_POINTS, f"fitted to {len(keys)} typed points"),))
    rms = math.sqrt(err2 / n)
    return ef.calibration_of(theta, table, size, "manual", "points", rms, cfg.nose_z_mm, points, typed)


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
    cloth = ef.cloth_inside(image, calib._theta, centre, table)
    shares = []
    if cloth.level >= tf.MIN_CLOTH_LEVEL:
        feats = tf.features(image, cloth)
        tol = max(CHECK_TOLERANCE_PX, CHECK_TOLERANCE * w)
        for side in range(4):
            xyz, normal = tf.side_samples(table, side, 0.0, calib.nose_z_mm, CHECK_SPACING_MM, "nose")
            p0, nrm, _ = tf.image_normals(lambda p: cf.project(calib._parts, centre, p), xyz, normal)
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
