"""A camera that moves a little: the calibration followed to where the cushions are now.

A broadcast's main camera re-frames slowly, a tripod settles, someone knocks the stand: the picture moves by
a few pixels, too little and too slowly for a cut (``vision.broadcast.CutDetector``) and too little for the
calibration check to fail at once, yet every pixel a ball is placed off is about 3 mm on a full-size table
seen 1280 px wide: a 15 px drift puts balls a ball's diameter from where they are, cushions touched early or
never, pots in the wrong place.

``CameraFollower`` watches it. ``follow`` finds the cushion noses from where the camera was last seen,
moved by how far the picture moved since (phase correlation of two small grey copies), in narrower and
narrower windows as the calibration's own edge fit does, and re-fits the camera's pose to them, the lens
held (``camera_fit.robust_fit``, pose only). A re-fit of the noses alone is not the calibration's
own fit (which had the corners, the outer edges' parallax and the focal length), so the first re-fit, made
while the camera is where it was calibrated, is the reference: later ones are compared with it, and the
camera's motion between the two re-fits, a rigid motion, is applied to the calibration. Only that motion
counts, never the two fits' difference, so a still camera's calibration is never touched by the re-fit's
own bias. A frame where fewer than three cushions show their noses (a player over two of them) says
nothing; a move of more than ``MOST_FOLLOWED`` of the table's length is no small move (a cut's business).

A view too oblique for the calibration's edge fit (a broadcast's main camera, fitted to its four corners)
has noses its model does not draw: it is followed by the picture's shift alone, the pose fitted to a grid
of the bed moved by it (``shifted``); the first frame's pose, the calibration's own, is the reference.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision import camera_fit as cf
from vision import edge_fit as ef
from vision import table_finder as tf
from vision.camera_profile import TableCalibration
from vision.table_verdict import Note

WINDOWS_MM = (15.0, 6.0)  # after the first look, noses searched this far either side of the model
SPACING_MM = 20.0  # between two nose samples along a cushion (as the calibration's edge fit)
MIN_SIDE_SHARE = 0.5  # a cushion counts when this share of its samples shows its nose
MIN_SIDES = 3  # cushions that must count: a player over one is allowed
SHIFT_PX = 640  # width of the grey copy the picture's shift is measured on
SHIFT_RESPONSE = 0.05  # phase correlation's peak response below which the shift is not clear
STILL_PX = 0.4  # a cushion's nose this close to where it was at the last re-fit: the camera is still
# ... and the picture this close to where it was at the last answer: balls and players moving pull its
# phase correlation by up to ~0.5 px, which must not walk the calibration away
SHIFT_STILL_PX = 1.0
MOST_FOLLOWED = 0.03  # a move beyond this share of the table's length is not followed (a cut's business)
CORNERS = ("bl", "br", "tr", "tl")


@dataclass(frozen=True)
class Pose:
    """A camera pose re-fitted to the cushion noses: rotation matrix and translation (camera frame)."""

    rot: np.ndarray
    t: np.ndarray

    @classmethod
    def of(cls, theta: np.ndarray) -> Pose:
        return cls(cv2.Rodrigues(np.asarray(theta[3:6], np.float64))[0], np.asarray(theta[6:9], np.float64))


@dataclass(frozen=True)
class Followed:
    """The calibration moved with the camera, and how far its corners moved (share of the table's length,
    from the calibration it was made from)."""

    calib: TableCalibration
    moved: float


class CameraFollower:
    """Follows one calibration's camera over the frames of a run: ``follow(image)`` on a frame now and
    then. By the cushion noses where the calibration was fitted to them and the first frame shows them
    (``refit_noses``); else (an oblique view the calibration fitted to its corners alone, whose noses its
    model does not draw: re-fits of a still broadcast view wander by 0.16 %), by the picture's shift alone
    (``picture_shift``: a small pan or knock moves the picture nearly as one)."""

    def __init__(self, calib: TableCalibration) -> None:
        self.calib = calib  # the calibration as made (the motion is applied to it)
        self._reference: Pose | None = None  # the pose the motion is counted from (``by_noses``: a re-fit)
        self.by_noses: bool | None = None  # followed by the noses or by the picture's shift (None: not yet)
        self._theta = calib._theta  # where the last answer put the camera: the next search starts there
        self._seen: np.ndarray | None = None  # the last answer's frame, small and grey (``picture_shift``)
        self._followed = Followed(calib, 0.0)  # the last answer
        self._still: np.ndarray | None = None  # each cushion's nose offset from the last re-fit, on its frame

    def follow(self, image: np.ndarray) -> Followed | None:
        """The calibration moved by the camera's motion since the first frame, or None where this frame
        cannot tell (cushions hidden, no cloth, a move beyond ``MOST_FOLLOWED``); the first frame gives it
        unmoved. A quick look comes first: where each cushion's nose is within ``STILL_PX`` of where it
        was at the last re-fit (or the picture within ``SHIFT_STILL_PX`` of where it was), the camera has
        not moved and the last answer stands."""
        small = _small_grey(image)
        scale = image.shape[1] / small.shape[1]
        if self.by_noses is None:
            fitted = not any(r.kind is Note.EDGE_FIT_SKIPPED for r in self.calib.verdict.notes)
            self.by_noses = fitted and refit_noses(self.calib, image, self._theta) is not None
            self._reference = None if self.by_noses else Pose.of(self.calib._theta)
        if not self.by_noses:
            shift = picture_shift(self._seen, small) * scale if self._seen is not None else np.zeros(2)
            if float(np.hypot(*shift)) < SHIFT_STILL_PX and self._seen is not None:
                return self._followed
            return self._answer(shifted(self.calib, self._theta, shift), small)
        if self._still is not None:
            offsets = nose_offsets(self.calib, image, self._theta)
            seen = np.isfinite(offsets) & np.isfinite(self._still)
            if seen.sum() >= MIN_SIDES and np.abs(offsets - self._still)[seen].max() < STILL_PX:
                return self._followed
        start = self._theta
        if self._seen is not None:
            start = shifted(self.calib, start, picture_shift(self._seen, small) * scale)
        theta = refit_noses(self.calib, image, start)
        if theta is None:
            return None
        answer = self._answer(theta, small)
        if answer is not None:
            self._still = nose_offsets(self.calib, image, theta)
        return answer

    def _answer(self, theta: np.ndarray, small: np.ndarray) -> Followed | None:
        """The calibration moved as the pose ``theta`` moved from the reference (None beyond
        ``MOST_FOLLOWED``), kept as the last answer with the frame it was made on."""
        pose = Pose.of(theta)
        if self._reference is None:
            self._reference = pose
        moved = moved_by(self.calib, self._reference, pose)
        shift = corner_shift(self.calib, moved)
        if shift > MOST_FOLLOWED:
            return None
        self._theta, self._followed, self._seen = theta, Followed(moved, shift), small
        return self._followed


def nose_offsets(calib: TableCalibration, image: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """Per cushion (``table_finder.SIDES``), the median offset (px, outward) of its nose from where the
    camera ``theta`` puts it, searched ``WINDOWS_MM[-1]`` either side; NaN where under ``MIN_SIDE_SHARE``
    of its samples show it."""
    table, centre = calib.table, calib._centre
    cloth = ef.cloth_inside(image, theta, centre, table)
    out = np.full(4, np.nan)
    if cloth.level < tf.MIN_CLOTH_LEVEL:
        return out
    feats = tf.features(image, cloth)
    project = _projector(theta, centre)
    for side in range(4):
        xyz, normal = tf.side_samples(table, side, 0.0, calib.nose_z_mm, SPACING_MM, "nose")
        if len(xyz) == 0:
            continue
        p0, nrm, scale = tf.image_normals(project, xyz, normal)
        win = WINDOWS_MM[-1] * scale + 1.0
        t = tf.nose_edges(feats, p0, nrm, -win, win)
        found = np.isfinite(t) & (np.abs(t) < win - 0.5)  # an edge at the window's end is none
        if found.sum() >= MIN_SIDE_SHARE * len(t):
            out[side] = float(np.median(t[found]))
    return out


def refit_noses(calib: TableCalibration, image: np.ndarray, start: np.ndarray) -> np.ndarray | None:
    """The calibration's camera with its pose re-fitted to the cushion noses, the lens held, searched
    around the pose ``start`` (good to about ``WINDOWS_MM[0]``) coarse to fine, as the calibration's own
    edge fit does; None where fewer than ``MIN_SIDES`` cushions show them."""
    h, w = image.shape[:2]
    if (w, h) != tuple(calib.image_size):
        raise ValueError(
            f"frame is {w}x{h} px but the calibration was made for {calib.image_size[0]}x"
            f"{calib.image_size[1]}: a picture of another size is another camera"
        )
    table, centre, z = calib.table, calib._centre, calib.nose_z_mm
    cloth = ef.cloth_inside(image, start, centre, table)
    if cloth.level < tf.MIN_CLOTH_LEVEL:
        return None
    feats = tf.features(image, cloth)
    free = np.zeros(9, bool)
    free[cf.POSE] = True
    theta = np.asarray(start, np.float64)
    for window in WINDOWS_MM:
        project = _projector(theta, centre)
        try:
            edges = tf.search_edges(feats, project, table, "nose", z, SPACING_MM, window)
        except tf.CalibrationError:
            return None
        if _sides_seen(edges, calib) < MIN_SIDES:
            return None
        obs = cf.Observations().with_edges(edges)
        theta, _ = cf.robust_fit(theta, centre, obs, cf.nominal_px_per_mm(theta), free, float(theta[cf.F]))
    return theta if np.all(np.isfinite(theta)) else None


def _projector(theta: np.ndarray, centre: np.ndarray) -> tf.Project:
    cam = cf.split(theta)
    return lambda xyz: cf.project(cam, centre, xyz)


def picture_shift(before: np.ndarray, now: np.ndarray) -> np.ndarray:
    """How far the picture moved from ``before`` to ``now`` (small grey copies, ``_small_grey``), in
    their pixels: phase correlation, which the still table, rails and room lead (moving balls are a
    small share); (0, 0) where it is not clear."""
    window = cv2.createHanningWindow((now.shape[1], now.shape[0]), cv2.CV_32F)
    (dx, dy), response = cv2.phaseCorrelate(before, now, window)
    return np.array([dx, dy]) if response >= SHIFT_RESPONSE else np.zeros(2)


def _small_grey(image: np.ndarray) -> np.ndarray:
    """A grey float copy about ``SHIFT_PX`` wide, for ``picture_shift``."""
    h, w = image.shape[:2]
    s = min(1.0, SHIFT_PX / w)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    small = cv2.resize(grey, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
    return small.astype(np.float32)


def shifted(calib: TableCalibration, theta: np.ndarray, shift_px: np.ndarray) -> np.ndarray:
    """The pose that sees the table (a grid of points on the bed) ``shift_px`` further along the image
    than ``theta`` does, the lens held: the start of a re-fit after a knock."""
    if float(np.hypot(*shift_px)) < 1.0:
        return theta
    u, v = np.meshgrid(np.linspace(0.0, 1.0, 5), np.linspace(0.0, 1.0, 3))
    xyz = np.stack([u.ravel() * calib.table.width_mm, v.ravel() * calib.table.length_mm, 0 * u.ravel()], 1)
    px = cf.project(cf.split(theta), calib._centre, xyz) + shift_px
    free = np.zeros(9, bool)
    free[cf.POSE] = True
    obs = cf.Observations(point_px=px, point_xyz=xyz)
    out, _ = cf.robust_fit(theta, calib._centre, obs, 1.0, free, float(theta[cf.F]), rounds=1)
    return out if np.all(np.isfinite(out)) else theta


def _sides_seen(edges: tf.EdgePoints, calib: TableCalibration) -> int:
    """The cushions at least ``MIN_SIDE_SHARE`` of whose nose samples found their edge."""
    seen = 0
    for side in range(4):
        expected = len(tf.side_samples(calib.table, side, 0.0, 0.0, SPACING_MM, "nose")[0])
        if expected and np.count_nonzero(edges.side == side) >= MIN_SIDE_SHARE * expected:
            seen += 1
    return seen


def moved_by(calib: TableCalibration, before: Pose, after: Pose) -> TableCalibration:
    """``calib`` with its camera moved as the noses' pose moved from ``before`` to ``after``: the camera's
    own rigid motion, ``X_after = M (X_before - t_before) + t_after`` with ``M = R_after R_before^T``,
    applied to the calibration's pose; its corners and the strip it does not show move with it."""
    motion = after.rot @ before.rot.T
    rot = motion @ calib._parts.rot
    t = motion @ (np.asarray(calib.tvec, np.float64) - before.t) + after.t
    rvec = cv2.Rodrigues(rot)[0].ravel()
    moved = replace(
        calib,
        rvec=(float(rvec[0]), float(rvec[1]), float(rvec[2])),
        tvec=(float(t[0]), float(t[1]), float(t[2])),
    )
    return replace(
        moved,
        points_px=tuple((k, _carried(calib, moved, xy)) for k, xy in calib.points_px),
        unseen_px=tuple(_carried(calib, moved, xy) for xy in calib.unseen_px),
    )


def _carried(
    before: TableCalibration, after: TableCalibration, xy: tuple[float, float]
) -> tuple[float, float]:
    """A pixel of ``before``'s picture where ``after`` sees the same point of the cloth (at nose height)."""
    mm = before.px_to_mm(np.array([xy], np.float64), before.nose_z_mm)
    px = after.mm_to_px(mm, before.nose_z_mm)[0]
    return (round(float(px[0]), 3), round(float(px[1]), 3))


def corner_shift(before: TableCalibration, after: TableCalibration) -> float:
    """The largest move of a playing-area corner between two calibrations, as a share of the table's length
    in the image."""
    names = ef.named_points(before.table, before.nose_z_mm)
    xyz = np.array([names[k] for k in CORNERS], np.float64)
    a = cf.project(before._parts, before._centre, xyz)
    b = cf.project(after._parts, after._centre, xyz)
    length = 0.5 * float(np.linalg.norm(a[3] - a[0]) + np.linalg.norm(a[2] - a[1]))
    return float(np.max(np.linalg.norm(b - a, axis=1))) / max(length, 1.0)
