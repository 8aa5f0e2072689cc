"""Corners found where a side seen at its nose meets another, brought down to the cloth: the parallax exact
on a known camera, which faces a camera cannot see, and which sides are taken at the nose."""

from __future__ import annotations

import cv2
import numpy as np

from arbiter.games import billiards
from vision import camera_fit as cf
from vision.corner_heights import faces_hidden, faces_seen, named_side_heights, parallax
from vision.edge_fit import fit_named, named_points
from vision.table_geometry import name_corners, plane_view
from vision.table_lines import SideFit

SIZE = (1280, 720)
CENTRE = np.array([SIZE[0] / 2 - 0.5, SIZE[1] / 2 - 0.5])
TABLE = billiards("snooker").table
TABLE_MM = (TABLE.width_mm, TABLE.length_mm)
NOSE = TABLE.cushion_height_mm
NAMES = ("bl", "br", "tr", "tl")
XYZ = np.array([named_points(TABLE)[k] for k in NAMES])


def theta_at(position_mm: np.ndarray, f: float = 1400.0) -> np.ndarray:
    """A camera at ``position_mm`` looking at the table's centre (``camera_fit``'s parameters, no bend)."""
    target = np.array([TABLE.width_mm / 2, TABLE.length_mm / 2, 0.0])
    forward = (target - position_mm) / np.linalg.norm(target - position_mm)
    right = np.cross(forward, [0.0, 0.0, 1.0]) if abs(forward[2]) < 0.99 else np.array([1.0, 0.0, 0.0])
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    rot = np.stack([right, down, forward])
    theta = np.zeros(9)
    theta[cf.F] = f
    theta[3:6] = cv2.Rodrigues(rot)[0].ravel()
    theta[6:9] = -rot @ position_mm
    return theta


BROADCAST = theta_at(np.array([900.0, -2600.0, 3200.0]))  # behind the bottom end, high
OVERHEAD = theta_at(np.array([TABLE.width_mm / 2, TABLE.length_mm / 2 + 1.0, 2800.0]), f=800.0)


def crossing(theta: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Where the camera sees the table lines through the point pairs ``a`` and ``b`` (2, 3) cross."""
    cam = cf.split(theta)
    pa, pb = cf.project(cam, CENTRE, a), cf.project(cam, CENTRE, b)
    m = np.array([pa[1] - pa[0], pb[0] - pb[1]]).T
    t = np.linalg.solve(m, pb[0] - pa[0])[0]
    return np.asarray(pa[0] + t * (pa[1] - pa[0]))


def seen_with_the_bottom_at_its_nose(theta: np.ndarray) -> np.ndarray:
    """The four corners as a camera sees them where the bottom end's line is its nose's (a cushion's height
    up) and the other sides' lines lie on the cloth."""
    w, ln = TABLE_MM
    bottom = np.array([[0.0, 0.0, NOSE], [w, 0.0, NOSE]])
    left, right = np.array([[0.0, 0.0, 0.0], [0.0, ln, 0.0]]), np.array([[w, 0.0, 0.0], [w, ln, 0.0]])
    top = cf.project(cf.split(theta), CENTRE, XYZ[2:])
    return np.array([crossing(theta, bottom, left), crossing(theta, bottom, right), top[0], top[1]])


def test_a_broadcast_camera_cannot_see_the_face_of_the_end_it_stands_behind() -> None:
    assert faces_hidden(BROADCAST, TABLE_MM) == {"bottom": True, "top": False, "left": False, "right": False}
    assert not any(faces_hidden(OVERHEAD, TABLE_MM).values())


def test_the_parallax_of_a_nose_seen_is_where_its_line_meets_the_others() -> None:
    seen = seen_with_the_bottom_at_its_nose(BROADCAST)
    truth = cf.project(cf.split(BROADCAST), CENTRE, XYZ)
    heights = {"bottom": NOSE, "top": 0.0, "left": 0.0, "right": 0.0}
    shift = parallax(BROADCAST, CENTRE, XYZ, NAMES, heights, TABLE_MM)
    # the nose's line lies well clear of the cloth's corner from this camera: several px up the image
    assert np.all(truth[:2, 1] - seen[:2, 1] > 5.0)
    np.testing.assert_allclose(seen - shift, truth, atol=1e-6)
    assert not parallax(BROADCAST, CENTRE, XYZ, NAMES, dict.fromkeys(heights, 0.0), TABLE_MM).any()


def test_a_camera_fitted_to_corners_brought_down_to_the_cloth_finds_the_table_again() -> None:
    seen = seen_with_the_bottom_at_its_nose(BROADCAST)
    truth = cf.project(cf.split(BROADCAST), CENTRE, XYZ)
    heights = {"bottom": NOSE, "top": 0.0, "left": 0.0, "right": 0.0}
    theta = fit_named(seen, XYZ, SIZE)
    assert theta is not None
    length_px = float(np.linalg.norm(truth[3] - truth[0]))
    before = np.abs(cf.project(cf.split(theta), CENTRE, XYZ) - truth).max() / length_px
    for _ in range(3):
        again = fit_named(seen - parallax(theta, CENTRE, XYZ, NAMES, heights, TABLE_MM), XYZ, SIZE)
        assert again is not None
        theta = again
    after = np.abs(cf.project(cf.split(theta), CENTRE, XYZ) - truth).max() / length_px
    assert before > 0.01 and after < 0.002


def side(nose: bool = True, bed: bool = False) -> SideFit:
    along, inward = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    return SideFit(np.zeros(2), along, inward, 1.0, nose_moved=nose, on_the_bed=bed)


def test_only_a_side_moved_to_its_nose_with_its_face_hidden_is_taken_at_the_nose() -> None:
    quad = np.array([[0.0, 100.0], [100.0, 100.0], [90.0, 0.0], [10.0, 0.0]])  # bl br tr tl; side k: k -> k+1
    corners = dict(zip(NAMES, quad, strict=True))
    hidden = {"bottom": True, "top": False, "left": False, "right": False}
    sides = [side(), side(), side(), side()]
    assert named_side_heights(quad, sides, corners, hidden, NOSE) == {
        "bottom": NOSE,
        "top": 0.0,
        "left": 0.0,
        "right": 0.0,
    }
    for unmoved in (side(nose=False), side(bed=True)):  # the outline alone; the bed's edge, or placed
        heights = named_side_heights(quad, [unmoved, side(), side(), side()], corners, hidden, NOSE)
        assert heights["bottom"] == 0.0
    assert not any(named_side_heights(quad, sides, corners, dict.fromkeys(hidden, False), NOSE).values())


def test_the_corners_tell_which_faces_the_camera_sees() -> None:
    """From behind the bottom end the camera cannot see that cushion's face (a dark band inside its nose
    is the cloth's own shading there), and sees the others'; from overhead it sees all four."""
    for theta, hidden in ((BROADCAST, "bottom"), (OVERHEAD, None)):
        quad = cf.project(cf.split(theta), CENTRE, XYZ)
        seen = faces_seen(quad, plane_view(quad, SIZE), TABLE, SIZE)
        assert seen is not None
        named = name_corners(quad, plane_view(quad, SIZE))
        for k in range(4):
            ends = {
                n for n, p in named.items() if np.allclose(p, quad[k]) or np.allclose(p, quad[(k + 1) % 4])
            }
            assert seen[k] == (ends != {"bl", "br"} or hidden is None), (k, ends)
