"""The corners found brought down to the cloth, where the calibration models them.

A corner is where two sides seen meet, and a side is seen at one of two heights: at the bed's edge, where
a camera inside the table's outline sees a cushion's face below its nose (``cushion_noses.to_the_bed``), or
placed from the cloth's markings or the middle pockets; or at the nose itself, a cushion's height above the
cloth, where the camera stands behind the cushion's face and cannot see it: the end nearest a broadcast
camera. Taken at the cloth, that nose's line puts its end a cushion's parallax out: about 1 % of the
table's length (12 px at 1280x720).

The camera fitted to the corners as found tells that parallax: each corner is moved by the difference
between where the camera sees its two sides meet at the heights they were seen at and where it sees the
cloth-level corner, and the camera fitted again, a few rounds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from arbiter.tables import TableModel
from vision import camera_fit as cf
from vision.table_geometry import PlaneView, cloth_corners_mm, homography, name_corners, quad_of, quad_sides
from vision.table_lines import SideFit, lines_cross
from vision.table_pockets import camera_behind, camera_over, corners_focal

# Each corner's two sides: its end (along the table's width) and its long side (along the length).
CORNER_SIDES = {
    "bl": ("bottom", "left"),
    "br": ("bottom", "right"),
    "tr": ("top", "right"),
    "tl": ("top", "left"),
}
ALONG = 0.25  # the second point of a side's line, this share of the side's length from the corner
ROUNDS = 3  # fits of the camera to the corners moved: the move is a few px, and settles in two


def faces_hidden(theta: np.ndarray, size_mm: tuple[float, float]) -> dict[str, bool]:
    """Which named sides' cushion faces the camera ``theta`` cannot see: those whose plane it stands
    behind (a broadcast camera behind the near end). ``size_mm``: the table's width and length."""
    return camera_behind(cf.split(theta)[-1], *size_mm)


def named_side_heights(
    quad_px: np.ndarray,
    sides: Sequence[SideFit],
    corners: Mapping[str, np.ndarray],
    hidden: Mapping[str, bool],
    cushion_mm: float,
) -> dict[str, float]:
    """The height above the cloth (mm) of the line each named side (``bottom top left right``) was found
    on: a nose's where the side was moved to its nose and its face is ``hidden``, else the cloth's (the
    bed's edge below a face seen, a side placed on the bed; a side a camera looks straight down on is within
    a few px of both; the cloth's outline alone, a cushion's top of the cloth's colour, is left). The quad's
    ``sides[k]`` runs from corner k to corner k + 1; its corners are named in ``corners``."""
    heights = {}
    for name, k in quad_sides(quad_px, corners).items():
        at_nose = k is not None and hidden[name] and sides[k].nose_moved and not sides[k].on_the_bed
        heights[name] = cushion_mm if at_nose else 0.0
    return heights


def parallax(
    theta: np.ndarray,
    centre: np.ndarray,
    xyz: np.ndarray,
    names: Sequence[str],
    heights: Mapping[str, float],
    size_mm: tuple[float, float],
) -> np.ndarray:
    """How far (N, 2 px) the camera ``theta`` sees each named corner (``names``, at the cloth points ``xyz``)
    moved where its two sides meet at their ``heights``: what to take off a corner found to bring it to
    the cloth. ``size_mm``: the table's width and length."""
    cam = cf.split(theta)
    width, length = size_mm
    shift = np.zeros((len(names), 2))
    for i, name in enumerate(names):
        end, long_side = CORNER_SIDES[name]
        x, y = float(xyz[i, 0]), float(xyz[i, 1])
        dx = ALONG * width * (1.0 if x < width / 2 else -1.0)
        dy = ALONG * length * (1.0 if y < length / 2 else -1.0)
        za, zb = heights[end], heights[long_side]
        if za == 0.0 and zb == 0.0:
            continue
        a = cf.project(cam, centre, np.array([[x, y, za], [x + dx, y, za]]))
        b = cf.project(cam, centre, np.array([[x, y, zb], [x, y + dy, zb]]))
        met = lines_cross(a[0], a[1] - a[0], b[0], b[1] - b[0])
        if np.all(np.isfinite(met)):
            shift[i] = met - cf.project(cam, centre, np.array([[x, y, 0.0]]))[0]
    return shift


def faces_seen(
    quad_px: np.ndarray, view: PlaneView, table: TableModel, size: tuple[int, int]
) -> list[bool] | None:
    """For each side of ``quad_px`` (side k from corner k to corner k + 1), whether the camera can see its
    cushion's face: it stands on the table's side of that face's plane, as the corners' homography puts it
    (``table_pockets.corners_focal``). None where the corners tell no camera. A face the camera cannot see
    (the near end's, from behind it) shows no band between nose and bed: a dark band there is the cloth's own
    shading."""
    corners = name_corners(quad_px, view)
    centre = cf.principal_point(size)
    f = corners_focal(view, corners, table, size)
    cam = camera_over(homography(cloth_corners_mm(table), quad_of(corners)), f, centre)
    if cam is None:
        return None
    hidden = camera_behind(cam, table.width_mm, table.length_mm)
    seen = [True] * 4
    for name, k in quad_sides(quad_px, corners).items():
        if k is not None:
            seen[k] = not hidden[name]
    return seen
