"""Dice geometry and the camera of the rendered dice (``datasets.dice.render``): faces numbered as on Western
dice, orientations, the face up, and a pinhole camera over the table plane in millimetres."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

# --- die geometry ----------------------------------------------------------------------------------------

# Body-frame outward normals and the face on each: opposite faces sum to 7; 1 (+z), 2 (+x), 3 (+y) meet at a
# corner counter-clockwise seen from outside (a right-handed triple), as on Western dice.
BODY_FACES: tuple[tuple[tuple[int, int, int], int], ...] = (
    ((0, 0, 1), 1),
    ((0, 0, -1), 6),
    ((1, 0, 0), 2),
    ((-1, 0, 0), 5),
    ((0, 1, 0), 3),
    ((0, -1, 0), 4),
)
NORMALS = np.array([n for n, _ in BODY_FACES], dtype=np.float64)
VALUES = np.array([v for _, v in BODY_FACES])
CORNERS = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=np.float64) / 2
# Pip centres on a face, in units of the half side (u right, v down on the face texture).
PIP_SPREAD = 0.52
_A = PIP_SPREAD
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-_A, -_A), (_A, _A)),
    3: ((-_A, -_A), (0, 0), (_A, _A)),
    4: ((-_A, -_A), (_A, -_A), (-_A, _A), (_A, _A)),
    5: ((-_A, -_A), (_A, -_A), (0, 0), (-_A, _A), (_A, _A)),
    6: ((-_A, -_A), (-_A, 0), (-_A, _A), (_A, -_A), (_A, 0), (_A, _A)),
}
FLAT_TILT_DEG = 8.0  # a die tilted less than this from a face still shows that face (labelled with it)
COCKED_TILT_DEG = (22.0, 42.0)  # a cocked die leans this far: no face is clearly up
CAMERA_MM = (150.0, 700.0)  # camera distances drawn for stills
MAX_HFOV_DEG = 75.0  # the widest lens drawn
IN_VIEW = 0.3  # share of a die that must show for a clip's truth to count it in view
MIN_VISIBLE = 0.6  # share of a die's silhouette that must be unhidden for it to be labelled
TEXTURE_PX = 96  # face texture side
MAX_TEXTURE_PX = 2400  # table texture side cap: far tables get coarser texels


def face_normal(value: int) -> np.ndarray:
    return np.asarray(NORMALS[int(np.flatnonzero(value == VALUES)[0])])


def top_face(rot: np.ndarray) -> tuple[int, float]:
    """The face most nearly up for a die of orientation ``rot`` (body -> world) and the cosine of its tilt."""
    z = (rot @ NORMALS.T)[2]
    i = int(np.argmax(z))
    return int(VALUES[i]), float(z[i])


def bottom_face(rot: np.ndarray) -> int:
    z = (rot @ NORMALS.T)[2]
    return int(VALUES[int(np.argmin(z))])


def axis_angle(axis: np.ndarray, angle: float) -> np.ndarray:
    axis = np.asarray(axis, dtype=np.float64)
    axis = axis / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.asarray(np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * (k @ k))


def _align(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A rotation taking unit vector ``a`` onto ``b``."""
    v = np.cross(a, b)
    c = float(np.dot(a, b))
    if np.linalg.norm(v) < 1e-9:
        if c > 0:
            return np.eye(3)
        perp = np.array([1.0, 0, 0]) if abs(a[0]) < 0.9 else np.array([0, 1.0, 0])
        return axis_angle(np.cross(a, perp), math.pi)
    return axis_angle(v, math.atan2(np.linalg.norm(v), c))


def face_up(value: int, yaw: float, tilt_deg: float = 0.0, tilt_dir: float = 0.0) -> np.ndarray:
    """An orientation with ``value`` up, turned ``yaw`` about the vertical, then tipped ``tilt_deg``."""
    rot = _align(face_normal(value), np.array([0.0, 0.0, 1.0]))
    rot = axis_angle(np.array([0.0, 0.0, 1.0]), yaw) @ rot
    if tilt_deg:
        axis = np.array([math.cos(tilt_dir), math.sin(tilt_dir), 0.0])
        rot = axis_angle(axis, math.radians(tilt_deg)) @ rot
    return np.asarray(rot)


def resting_height(rot: np.ndarray, side_mm: float) -> float:
    """Height of the die's centre when its lowest point touches the table."""
    return float(-(rot @ (CORNERS * side_mm).T)[2].min())


# --- camera ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Camera:
    """A pinhole camera over the table plane z = 0 (mm). ``rot`` maps world to camera axes (x right, y down,
    z forward); ``centre`` is its position."""

    width: int
    height: int
    focal_px: float
    rot: np.ndarray
    centre: np.ndarray

    @classmethod
    def looking_at(
        cls,
        width: int,
        height: int,
        focal_px: float,
        target: Sequence[float],
        distance: float,
        tilt_deg: float,
        azimuth: float,
    ) -> Camera:
        """``tilt_deg`` from straight down (0: top-down); the image's up points along ``azimuth`` on the
        table."""
        tilt = math.radians(tilt_deg)
        h = np.array([math.cos(azimuth), math.sin(azimuth), 0.0])
        fwd = np.array([*(math.sin(tilt) * h[:2]), -math.cos(tilt)])
        up = h - np.dot(h, fwd) * fwd
        up /= np.linalg.norm(up)
        y = -up
        x = np.cross(y, fwd)
        rot = np.stack([x, y, fwd])
        centre = np.asarray(target, dtype=np.float64) - distance * fwd
        return cls(width, height, focal_px, rot, centre)

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points ``(N, 3)`` -> pixels ``(N, 2)``."""
        pc = (np.asarray(points, dtype=np.float64) - self.centre) @ self.rot.T
        return np.stack(
            [
                self.focal_px * pc[:, 0] / pc[:, 2] + self.width / 2,
                self.focal_px * pc[:, 1] / pc[:, 2] + self.height / 2,
            ],
            axis=1,
        )

    def depth(self, points: np.ndarray) -> np.ndarray:
        return np.asarray(((np.asarray(points, dtype=np.float64) - self.centre) @ self.rot.T)[:, 2])

    def to_table(self, uv: np.ndarray) -> np.ndarray:
        """Pixels ``(N, 2)`` -> table points ``(N, 2)`` in mm (the rays' meeting with z = 0)."""
        uv = np.asarray(uv, dtype=np.float64).reshape(-1, 2)
        d_cam = np.c_[
            (uv[:, 0] - self.width / 2) / self.focal_px, (uv[:, 1] - self.height / 2) / self.focal_px
        ]
        d = np.c_[d_cam, np.ones(len(uv))] @ self.rot
        s = -self.centre[2] / d[:, 2]
        return np.asarray((self.centre + s[:, None] * d)[:, :2])

    def table_homography(self) -> np.ndarray:
        """3x3: table (x, y, 1) in mm -> homogeneous pixels."""
        k = np.array([[self.focal_px, 0, self.width / 2], [0, self.focal_px, self.height / 2], [0, 0, 1.0]])
        t = -self.rot @ self.centre
        return np.asarray(k @ np.c_[self.rot[:, 0], self.rot[:, 1], t])

    def mm_per_px(self, xy_mm: Sequence[float] | np.ndarray) -> float:
        """Table millimetres per pixel around a table point (for sizes)."""
        p = np.array(
            [[xy_mm[0], xy_mm[1], 0.0], [xy_mm[0] + 1.0, xy_mm[1], 0.0], [xy_mm[0], xy_mm[1] + 1.0, 0.0]]
        )
        uv = self.project(p)
        (ax, ay), (bx, by) = uv[1] - uv[0], uv[2] - uv[0]
        return 1.0 / max(math.sqrt(abs(ax * by - ay * bx)), 1e-9)
