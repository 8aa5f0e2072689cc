"""An end of the table placed from the middle pockets, where the image does not show that end's cushion.

A broadcast camera's frame often cuts the near cushion, or a score bar hides it; the cloth's outline then
ends at the frame's edge or at the graphic's, and the corners there are wrong by several percent of the
length. The long cushions are still seen, and so are the middle pockets: the world puts them half-way. A
projective map keeps cross ratios, so the far corner, the middle pocket and the long sides' vanishing point
fix the near corner (its harmonic conjugate): the homography that takes the seen end's two corners and the
two middle pockets to their places on the table puts the other end's corners where they must be, in the
frame or beyond it, whatever the camera's focal length.

This is used only where it can be trusted: the middle pockets are seen on both long sides at the same place,
the end kept has a cushion nose of its own (not the frame's edge, not a graphic's), the end replaced has a
known weakness (cut by the frame, along a graphic, no nose seen) the kept one lacks, and afterwards the
pockets are half-way within ``HALF_WAY``. An end whose pockets are already within ``HALF_WAY``, and within
``TILT`` of each other, stands, unless its line is a graphic's edge (a score bar's edge a percent short of
the cushion it hides is still not the cushion). Everything else stays as found, with its doubts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from arbiter.tables import TableModel
from vision.camera_fit import focal_from_homography, principal_point, prior_focal
from vision.table_geometry import (
    POCKET_AGREE,
    PlaneView,
    apply_homography,
    cloth_corners_mm,
    corner_index,
    homography,
    middle_pocket_sides,
    name_corners,
    quad_of,
    quad_sides,
    shaped_like_a_table,
)
from vision.table_lines import SideFit, placed_side

# Pockets this far (share of the length) from half-way already: the corners are right, nothing to place. A
# near end off by 1.2 % of the length moves them about half as much (1 %, the value before issue 10's
# nineteenth round, let a broadcast view's near end stand 3 % off at a corner); their own noise, from one
# long side to the other, is a few tenths of a percent.
HALF_WAY = 0.006
ROUNDS = 3  # the pockets are read again in the top view of the corners placed: each round is closer
MAX_BORDER_SHARE = 0.5  # a side with more of its outline on the frame's edge is cut by it
MAX_HIDDEN_SHARE = 0.3  # ... or on a graphic's edge: hidden by it
POCKET_LIFT = 1.0  # the height a middle pocket is seen at (between its jaws), in cushion heights


@dataclass(frozen=True)
class PlacedEnd:
    """The corners (quad order) with one end placed from the middle pockets: which side of the quad was
    replaced, its new line, and where the pockets were seen (shares of the length from the bottom)."""

    quad_px: np.ndarray
    side: int
    line: SideFit
    pockets: tuple[float, float]


# The pockets this far apart (shares of the length) put the end tilted, though half-way between them: one
# corner out and the other in (a bar over one corner, a cue across the rest: 0.491 and 0.509 for seed
# 10000's shot 13, 1.4 % off). On corners right they are usually a few tenths of a percent apart, but a
# projector's picture over an overhead table read 0.503 and 0.488: an end placed for its tilt is kept only
# where, read again on the corners placed, they agree.
TILT = 2 * HALF_WAY
ASKEW_AGREE = 0.06  # the pockets' first reading on each side may differ this much (share of the length)
ALONG_A_GRAPHIC = 2  # ``weakness`` of a side along a graphic: its line is the graphic's, however near


def weakness(side: SideFit) -> int:
    """How little a side's line can be trusted to be its cushion's nose: 3 cut by the frame, 2 along a
    graphic, 1 an outline without a nose seen inside it, 0 a nose."""
    if side.on_border > MAX_BORDER_SHARE and not side.nose_moved:
        return 3
    if side.hidden > MAX_HIDDEN_SHARE:
        return 2
    return 0 if side.nose_moved else 1


def other_end(kept: np.ndarray, middle: np.ndarray) -> np.ndarray:
    """The two corners of the far end (2 x 2 px) from the near end's corners ``kept`` (left, right) and the
    middle pockets on the same long sides ``middle`` (left, right): the homography of the half table
    between them, carried on to the other end."""
    src = np.array([kept[0], kept[1], middle[1], middle[0]], np.float64)
    dst = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 0.5], [0.0, 0.5]])
    return apply_homography(homography(dst, src), np.array([[0.0, 1.0], [1.0, 1.0]]))


def on_the_cloth(
    seen: tuple[float, float], corners: dict[str, np.ndarray], table: TableModel, f: float, centre: np.ndarray
) -> tuple[float, float]:
    """Where the pockets seen at ``seen`` (shares of the length in the corners' top view) stand on the
    table. A pocket is seen between its jaws, a cushion's height above the cloth: from a camera off to one
    end that height moves it away from the camera along the table, by ~1 % of the length at a broadcast
    camera's angle. The corners' homography with the focal length ``f`` gives the camera's place over the
    table (``camera_over``); the pockets are moved back by the parallax of POCKET_LIFT cushion heights."""
    w, length = table.width_mm, table.length_mm
    quad = quad_of(corners)
    cam = camera_over(homography(cloth_corners_mm(table), quad), f, centre)
    if cam is None:
        return seen
    z = POCKET_LIFT * table.cushion_height_mm
    out = []
    for x, share in ((0.0, seen[0]), (w, seen[1])):
        seen_mm = np.array([x, share * length])  # where the cloth plane meets the ray to the pocket
        at = cam[:2] + (seen_mm - cam[:2]) * (cam[2] - z) / cam[2]
        out.append(float(at[1] / length))
    return out[0], out[1]


def shape_focal(corners: dict[str, np.ndarray], table: TableModel, size: tuple[int, int]) -> float:
    """The focal length that gives the corners the catalogue table's shape: the one the middle pockets'
    parallax is taken back with. Not the corners' vanishing points': a camera behind one end sees the ends
    nearly parallel, and a pixel swings the focal length they tell from a fisheye's to a zoom's (630 px for
    a 2,364 px broadcast lens, seed 10000's shot 8), while the table's shape holds it within a few percent.
    Neither a typical lens's: a broadcast lens is two to three times longer, and its parallax estimate would
    be wrong by that much."""
    centre = principal_point(size)
    return focal_from_homography(cloth_corners_mm(table), quad_of(corners), centre, prior_focal(size))


def corners_focal(
    view: PlaneView, corners: dict[str, np.ndarray], table: TableModel, size: tuple[int, int]
) -> float:
    """The focal length the corners' camera is taken with where the table's shape may not be the
    catalogue's (a toy table seen from above): the corners' own where their view tells it, else
    ``shape_focal``."""
    return view.f_px or shape_focal(corners, table, size)


def camera_over(h: np.ndarray, f: float, centre: np.ndarray) -> np.ndarray | None:
    """The camera's centre (x, y, height) in the frame of a plane whose homography to the image is ``h``
    (plane -> pixels), for a pinhole of focal length ``f`` about ``centre``; None when the plane is seen
    edge on or from below."""
    k_inv = np.array([[1 / f, 0, -centre[0] / f], [0, 1 / f, -centre[1] / f], [0, 0, 1]])
    m = k_inv @ h
    scale = 0.5 * (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    if scale < 1e-12:
        return None
    m = m / scale if m[2, 2] > 0 else -m / scale  # the plane's origin in front of the camera
    r1, r2, t = m[:, 0], m[:, 1], m[:, 2]
    rot = np.stack([r1, r2, np.cross(r1, r2)], axis=1)
    c = -rot.T @ t
    return None if abs(c[2]) < 1e-9 else np.array([c[0], c[1], abs(c[2])])


def camera_behind(cam: np.ndarray, width_mm: float, length_mm: float) -> dict[str, bool]:
    """Which named sides (``bottom top left right``) a camera at ``cam`` (x, y, height in the table's frame,
    mm) stands behind: it cannot see their cushions' faces."""
    return {
        "bottom": bool(cam[1] < 0.0),
        "top": bool(cam[1] > length_mm),
        "left": bool(cam[0] < 0.0),
        "right": bool(cam[0] > width_mm),
    }


def pockets_on_the_cloth(
    image: np.ndarray, quad_px: np.ndarray, view: PlaneView, table: TableModel
) -> float | None:
    """Where the middle pockets stand along the table (share of the length from the bottom, their
    parallax taken back) as the corners ``quad_px`` put them; None where they are not seen."""
    seen = read_pockets(image, name_corners(quad_px, view), table, max(view.aspect, 1 / view.aspect))
    return None if seen is None else (seen[0] + seen[1]) / 2


def read_pockets(
    image: np.ndarray,
    corners: dict[str, np.ndarray],
    table: TableModel,
    aspect: float,
    agree: float = POCKET_AGREE,
) -> tuple[float, float] | None:
    """Where the middle pockets on the left and right long sides stand along the table (shares of the length
    from the bottom) as ``corners`` put them: read in their top view (``middle_pocket_sides``), their
    parallax taken back with those corners' own camera (``shape_focal``: each round of placing an end
    brings the lens nearer the truth with the end). None where they are not seen."""
    seen = middle_pocket_sides(image, corners, aspect, agree)
    if seen is None:
        return None
    size = (image.shape[1], image.shape[0])
    centre = principal_point(size)
    return on_the_cloth(seen, corners, table, shape_focal(corners, table, size), centre)


def _on_side(corners: dict[str, np.ndarray], names: tuple[str, str], share: float) -> np.ndarray:
    """The point ``share`` of the length up a long side (``names``: its bottom and top corner) as the
    corners' homography puts it."""
    unit = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    quad = quad_of(corners)
    h = homography(unit, quad)
    u = 0.0 if names[0] == "bl" else 1.0
    p = h @ np.array([u, share, 1.0])
    return np.asarray(p[:2] / p[2])


def place_end(
    image: np.ndarray,
    quad_px: np.ndarray,
    sides: tuple[SideFit, ...],
    view: PlaneView,
    table: TableModel,
    witnessed: int | None = None,
    doubted: bool = False,
) -> PlacedEnd | None:
    """One end of ``quad_px`` placed again from the middle pockets (module docstring), or None where the
    corners need no change or the pockets cannot be trusted to give one (or ``table`` has none). The end
    on side ``witnessed`` was seen where it was found by another witness (a marking): it is kept, however
    weak its own line; where that witness ``doubted`` the other end, the other end is placed however strong
    its own line."""
    if all(p.corner for p in table.pockets):
        return None
    corners = name_corners(quad_px, view)
    aspect = max(view.aspect, 1 / view.aspect)
    size = (image.shape[1], image.shape[0])
    side_of = _end_sides(quad_px, corners)
    if side_of is None:
        return None
    replaced = _replaced_end(side_of, sides, witnessed, doubted)
    if replaced is None:
        return None
    kept = "top" if replaced == "bottom" else "bottom"
    centre = principal_point(size)
    corners = kept_end_at_the_cloth(
        corners, kept, sides[side_of[kept]], table, shape_focal(corners, table, size), centre
    )
    # An end found askew (a score bar over half of it) puts the two pockets apart in the corners' top view:
    # they are first read apart, and must agree once that end is placed.
    seen = read_pockets(image, corners, table, aspect)
    askew = seen is None
    if askew:
        seen = read_pockets(image, corners, table, aspect, ASKEW_AGREE)
    if seen is None:
        return None
    weak = weakness(sides[side_of[replaced]])
    tilted = abs(seen[0] - seen[1]) > TILT
    if abs(sum(seen) / 2 - 0.5) <= HALF_WAY and not tilted and weak < ALONG_A_GRAPHIC:
        return None  # near enough half-way on both sides, and the end has a line of its own: it stands
    settled = False
    for _ in range(ROUNDS):
        corners = _placed(corners, seen, replaced)
        again = read_pockets(image, corners, table, aspect)
        if again is None:  # lost in the new top view: the last reading stands (the end is doubtful anyway),
            settled = not (askew or tilted)  # unless it was read askew or apart: they must be seen to agree
            break
        seen = again
    level = not tilted or abs(seen[0] - seen[1]) <= TILT
    settled = settled or (abs(sum(seen) / 2 - 0.5) <= HALF_WAY and level)
    quad = quad_px.copy()
    for name in ("bl", "br") if replaced == "bottom" else ("tl", "tr"):
        quad[corner_index(quad_px, name_corners(quad_px, view)[name])] = corners[name]
    if not settled or not shaped_like_a_table(quad, size):
        return None
    k = side_of[replaced]
    return PlacedEnd(quad, k, placed_side(quad, k, sides[k]), (float(seen[0]), float(seen[1])))


def kept_end_at_the_cloth(
    corners: dict[str, np.ndarray], end: str, side: SideFit, table: TableModel, f: float, centre: np.ndarray
) -> dict[str, np.ndarray]:
    """``corners`` with the ``end`` (bottom or top) brought down to the cloth where its line is a cushion's
    nose whose face the camera cannot see (it stands behind that end: a broadcast camera's near end): seen
    from there the nose lies a cushion's parallax beyond the cloth's end, and the half table between it and
    the middle pockets comes out short, the other end placed from them twice as short. Each corner slides
    along its long side, which is seen at the cloth; the camera is the corners' own (``camera_over``)."""
    if not side.nose_moved or side.on_the_bed:
        return corners
    quad = quad_of(corners)
    h = homography(cloth_corners_mm(table), quad)
    cam = camera_over(h, f, centre)
    if cam is None:
        return corners
    width, length = table.width_mm, table.length_mm
    if not camera_behind(cam, width, length)[end]:
        return corners  # the camera sees that cushion's face: its line is the bed's edge
    at = 0.0 if end == "bottom" else length
    # The nose (height z over the end) seen where its ray meets the cloth, at ``at``: the nose stands at y.
    y = cam[1] + (at - cam[1]) * (cam[2] - table.cushion_height_mm) / cam[2]
    names = ("bl", "br") if end == "bottom" else ("tl", "tr")
    moved = apply_homography(h, np.array([[0.0, y], [width, y]]))
    return {**corners, names[0]: moved[0], names[1]: moved[1]}


def _replaced_end(
    side_of: dict[str, int], sides: tuple[SideFit, ...], witnessed: int | None, doubted: bool = False
) -> str | None:
    """Which end to place from the pockets: the weaker one (``weakness``), where the other has a nose of
    its own or was ``witnessed``; None where neither is weaker. Where the witness ``doubted`` the other
    end, that end."""
    if doubted and witnessed in side_of.values():
        return next(end for end, k in side_of.items() if k != witnessed)
    weak = {end: 0 if k == witnessed else weakness(sides[k]) for end, k in side_of.items()}
    if weak["bottom"] == weak["top"] or min(weak.values()) > 0:
        return None
    return max(weak, key=lambda e: weak[e])


def _end_sides(quad_px: np.ndarray, corners: dict[str, np.ndarray]) -> dict[str, int] | None:
    """Which side of the quad (``table_geometry.quad_sides``) each end is, or None where the named corners
    of an end are not neighbours in it."""
    named = quad_sides(quad_px, corners)
    ends = {end: named[end] for end in ("bottom", "top")}
    return None if None in ends.values() else {end: k for end, k in ends.items() if k is not None}


def _placed(
    corners: dict[str, np.ndarray], seen: tuple[float, float], replaced: str
) -> dict[str, np.ndarray]:
    """The corners with the ``replaced`` end moved so that the pockets seen come out half-way."""
    middle = np.array([_on_side(corners, ("bl", "tl"), seen[0]), _on_side(corners, ("br", "tr"), seen[1])])
    out = dict(corners)
    if replaced == "bottom":
        far = other_end(np.array([corners["tl"], corners["tr"]]), middle)
        out["bl"], out["br"] = far[0], far[1]
    else:
        far = other_end(np.array([corners["bl"], corners["br"]]), middle)
        out["tl"], out["tr"] = far[0], far[1]
    return out
