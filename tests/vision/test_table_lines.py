"""A cushion seen from inside the table's outline shows its face, a band much darker than the cloth between
the nose and the bed: the side is moved from the nose to the bed's edge, the cloth-level line the
calibration models. A cushion top merely in shade, or the bed's own fall-off towards a cushion, is no face."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.cushion_noses import _one_way, move_to_nose, to_the_bed
from vision.table_lines import RANSAC_ITERS, SideFit, flat_run, ransac_line, straightest_k1

CLOTH = (40, 150, 40)  # BGR
NOSE_Y, FOOT_Y = 100, 107


def far_cushion(face_level: float, top_level: float = 1.0) -> np.ndarray:
    """A 640 x 360 frame: the bed below FOOT_Y, the face between NOSE_Y and FOOT_Y at ``face_level`` of
    the cloth, the cloth-covered cushion top above it at ``top_level``, a wooden rail above that."""
    img = np.zeros((360, 640, 3), np.uint8)
    img[:] = (40, 70, 110)
    img[60:, 60:580] = CLOTH
    img[85:NOSE_Y, 60:580] = (np.array(CLOTH) * top_level).astype(np.uint8)
    img[NOSE_Y:FOOT_Y, 60:580] = (np.array(CLOTH) * face_level).astype(np.uint8)
    return img


def gray_of(img: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 1.0)


def side_at(y: float) -> SideFit:
    return SideFit(np.array([300.0, y]), np.array([1.0, 0.0]), np.array([0.0, 1.0]), 1.0)


def moved_to(img: np.ndarray) -> float:
    """Where the side found at the nose ends up, at x = 300."""
    ends = (np.array([100.0, NOSE_Y - 0.5]), np.array([540.0, NOSE_Y - 0.5]))
    out = to_the_bed(gray_of(img), side_at(NOSE_Y - 0.5), ends)
    return float(out.point[1] + (300.0 - out.point[0]) * out.direction[1] / out.direction[0])


@pytest.mark.parametrize(("level", "moved"), [(0.25, True), (0.55, True), (0.8, False), (1.0, False)])
def test_a_cushion_s_face_is_stepped_over_to_the_bed(level: float, moved: bool) -> None:
    y = moved_to(far_cushion(level))
    if moved:
        assert abs(y - (FOOT_Y - 0.5)) < 1.0, y
    else:
        assert y == pytest.approx(NOSE_Y - 0.5)


@pytest.mark.parametrize(("top", "moved"), [(1.0, True), (0.7, False)])
def test_a_faint_face_counts_only_after_a_lit_nose(top: float, moved: bool) -> None:
    """A face only a little darker than the bed (0.72 of it: a broadcast camera's long side in soft light)
    is the face where the nose before it is clearly brighter; after a nose as dim as itself it is the
    cloth's fall-off towards a rail (an overhead photo's edge)."""
    y = moved_to(far_cushion(0.72, top_level=top))
    assert abs(y - (FOOT_Y - 0.5)) < 1.0 if moved else y == pytest.approx(NOSE_Y - 0.5)


def test_a_face_seen_on_the_half_of_a_side_nearer_the_camera_is_enough() -> None:
    """From behind one end a long cushion's face shows on its near half only; the line through that half is
    the bed's edge all along."""
    img = far_cushion(0.3)
    img[NOSE_Y:FOOT_Y, 60:300] = CLOTH  # the far half: no face seen, the nose runs straight into the bed
    assert abs(moved_to(img) - (FOOT_Y - 0.5)) < 1.0


def test_a_dark_band_after_an_unlit_cushion_is_no_face() -> None:
    """With the cushion's top as dark as the band (the nose not lit), the band is the cushion's."""
    assert moved_to(far_cushion(0.3, top_level=0.3)) == pytest.approx(NOSE_Y - 0.5)


def test_the_bed_falling_off_towards_a_cushion_is_no_face() -> None:
    """The bed darkening smoothly towards the nose (a lamp's fall-off, the nose's soft shadow on a near
    cushion seen from behind it) has no lit cushion top before it in this frame: nothing moves."""
    img = far_cushion(1.0, top_level=0.5)
    ramp = np.clip(np.linspace(0.5, 1.0, 30), 0, 1)
    for k, f in enumerate(ramp):
        img[NOSE_Y + k, 60:580] = (np.array(CLOTH) * f).astype(np.uint8)
    assert moved_to(img) == pytest.approx(NOSE_Y - 0.5)


def _ransac_in_turn(pts: np.ndarray, tol: float, rng: np.random.Generator) -> np.ndarray:
    """The inliers RANSAC keeps drawing its pairs one at a time: the first pair with the most."""
    best = np.zeros(len(pts), bool)
    for _ in range(RANSAC_ITERS):
        i, j = rng.choice(len(pts), 2, replace=False)
        d = pts[j] - pts[i]
        if np.linalg.norm(d) < 1e-9:
            continue
        inl = np.abs((pts - pts[i]) @ (np.array([-d[1], d[0]]) / np.linalg.norm(d))) < tol
        if inl.sum() > best.sum():
            best = inl
    return best


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ransac_keeps_the_line_of_most_points_past_an_arm_over_the_cushion(seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 400, 160)
    side = np.column_stack([x, 100 + 0.05 * x + rng.normal(0, 0.4, len(x))])
    arm = np.column_stack([rng.uniform(150, 200, 40), rng.uniform(116, 160, 40)])
    pts = np.vstack([side, arm, side[:3]])  # a repeated point: a pair of one point is drawn and skipped
    p, v, inliers = ransac_line(pts, 2.0, np.random.default_rng(seed))
    assert np.array_equal(inliers, _ransac_in_turn(pts, 2.0, np.random.default_rng(seed)))
    assert inliers[: len(side)].mean() > 0.95 and not inliers[len(side) : len(side) + len(arm)].any()
    assert abs(v[1] / v[0] - 0.05) < 0.005 and abs(p[1] - (100 + 0.05 * p[0])) < 0.5


def nose_found(img: np.ndarray) -> float | None:
    """Where ``move_to_nose`` puts the side fitted on the cloth's outline at y = 60 (None: not moved)."""
    ends = (np.array([100.0, 60.0]), np.array([540.0, 60.0]))
    out = move_to_nose(gray_of(img), side_at(60.0), ends)
    return float(out.point[1]) if out.nose_moved else None


def cushion_and_bed(nose_y: int) -> np.ndarray:
    """A rail above y = 60, a cushion a shade darker than the cloth down to its nose, the bed below."""
    img = np.zeros((360, 640, 3), np.uint8)
    img[:] = (40, 70, 110)
    img[60:, 60:580] = CLOTH
    img[60:nose_y, 60:580] = (np.array(CLOTH) * 0.6).astype(np.uint8)
    return img


def test_a_line_painted_on_the_cloth_near_a_cushion_is_not_its_nose() -> None:
    # Snooker's baulk line seen from behind the black end lies just inside the far cushion, and is sharper.
    img = cushion_and_bed(72)
    img[82:84, 60:580] = (235, 235, 235)
    found = nose_found(img)
    assert found is not None and abs(found - 72.0) <= 1.0


def test_a_cushion_s_thin_lit_top_is_no_painted_line() -> None:
    # Seen far off, a cushion's lit top is a few pixels between the dark rail and its shaded face: a rise
    # and a fall like a painted line's, but with no cloth either side of it. Its nose is where it falls.
    img = cushion_and_bed(68)
    img[60:63, 60:580] = (np.array(CLOTH) * 1.4).clip(0, 255).astype(np.uint8)
    img[63:68, 60:580] = (np.array(CLOTH) * 0.35).astype(np.uint8)
    found = nose_found(img)
    assert found is not None and abs(found - 63.0) <= 1.0


def test_a_bend_the_lens_range_cannot_straighten_is_no_lens_s() -> None:
    # A score bar across an end or a cue along a cushion can bend the outline more and more the further
    # the search goes: the straightest at the end of the range tried is no minimum, and no lens's bend.
    centre, f = np.array([640.0, 360.0]), 1000.0
    corners = np.array([[-0.55, -0.3], [0.55, -0.3], [0.55, 0.3], [-0.55, 0.3]])
    sides = []
    for k in range(4):
        a, b = corners[k], corners[(k + 1) % 4]
        t = np.linspace(0.0, 1.0, 80)[:, None]
        xn = a + t * (b - a)
        bent = xn * (1.0 + 0.8 * np.sum(xn * xn, axis=1, keepdims=True))  # far beyond K1_SEARCH
        d = (b - a) / np.linalg.norm(b - a)
        sides.append(SideFit(centre + f * a, d, np.array([-d[1], d[0]]), 1.0, outline=centre + f * bent))
    assert abs(straightest_k1(sides, centre, f)) == 0.0


def test_a_faint_line_where_the_cloth_dims_towards_the_cushion_is_still_painted() -> None:
    # A broadcast render's baulk line, 50 px inside the far cushion, a few levels over a cloth a few levels
    # darker on its outer side (seed 9303, shot 4: the far end taken at the line, 20 % short, before).
    img = cushion_and_bed(72)
    img[60:72, 60:580] = (np.array(CLOTH) * 0.9).astype(np.uint8)  # a cushion hardly darker than the cloth
    img[72:82, 60:580] = (np.array(CLOTH) * 0.97).astype(np.uint8)
    img[82:84, 60:580] = (np.array(CLOTH) * 1.12).astype(np.uint8)
    found = nose_found(img)
    assert found is not None and abs(found - 72.0) <= 1.0


def test_a_cushion_the_cloth_s_colour_under_even_light_shows_no_nose() -> None:
    # A broadcast render's far cushion: no step at its nose, the cloth only a level darker near it; a step of
    # 0.15 a sample was taken for the nose, 16 px onto the bed (seed 9303, shot 8: the far end 5.3 % off, and
    # the near one, placed from the baulk line, carried it).
    img = np.zeros((360, 640, 3), np.uint8)
    img[:] = (40, 70, 110)
    img[60:, 60:580] = CLOTH
    img[60:76, 60:580] = np.array(CLOTH) - 1
    assert nose_found(img) is None


def _near_side(bar_to: int, bar_row: float, tilt_px: float, behind: bool = False) -> np.ndarray:
    """Outline points (working-copy px) of a near cushion from x = 100 to 400, tilted down by ``tilt_px``
    along it, the points left of ``bar_to`` replaced by a bar's edge along row ``bar_row``; with ``behind``,
    the cushion's points lie under the bar too, and a rail's points behind it stand in for the rest."""
    xs = np.arange(100.0, 400.0)
    cushion = np.c_[xs, 240.0 + tilt_px * (xs - 100.0) / 300.0]
    if behind:
        rail = np.c_[np.arange(100.0, 400.0, 4.0), np.full(75, 250.0)]
        return np.vstack([cushion, rail])
    bar = xs < bar_to
    cushion[bar, 1] = bar_row
    return cushion


@pytest.mark.parametrize(
    ("pts", "flagged"),
    [
        (_near_side(250, 234.0, 4.0), True),  # a bar over the left half, 6 px inside the cushion
        (_near_side(250, 238.0, 0.0), True),  # ... 2 px inside a level cushion (a bar a little askew to it)
        (_near_side(100, 0.0, 1.0), False),  # a cushion tilted a pixel: its rows are steps of one line
        (_near_side(250, 246.0, 4.0), False),  # a run outside the rest's line: no graphic hides the cloth
        (_near_side(0, 0.0, 0.0, behind=True), False),  # a rail behind a level cushion: none beside it
    ],
)
def test_a_graphic_s_edge_over_part_of_a_side_is_a_run_along_a_row_inside_the_rest(
    pts: np.ndarray, flagged: bool
) -> None:
    sel = np.ones(len(pts), bool)
    inward = np.array([0.0, -1.0])  # the near cushion: the cloth lies above it in the image
    run = flat_run(pts, sel, inward, 600.0, np.random.default_rng(0))
    assert run.any() == flagged
    if flagged:
        assert np.all(pts[run, 0] < 250) and np.ptp(pts[run, 1]) <= 2.0  # the bar's points, on its row


def test_a_nose_not_parallel_to_the_outline_is_found_along_its_own_line() -> None:
    # A long side running up the view from behind its near end (seed 9303's shot 4): the cushion top between
    # the rail and the nose is 3 px wide at the far, upper end and 27 px at the near, lower one, so no step
    # parallel to the outline is common to the profiles; the nose is where each steps, on a line of its own.
    img = np.zeros((640, 640, 3), np.uint8)
    img[:] = (40, 70, 110)
    img[60:580, 60:] = CLOTH
    top = np.array([[60, 60], [63, 60], [87, 580], [60, 580]], np.int32)
    cv2.fillPoly(img, [top], tuple(int(v * 0.6) for v in CLOTH))
    side = SideFit(np.array([60.0, 320.0]), np.array([0.0, 1.0]), np.array([1.0, 0.0]), 1.0)
    out = move_to_nose(gray_of(img), side, (np.array([60.0, 100.0]), np.array([60.0, 540.0])))
    assert out.nose_moved

    def x_at(y: float) -> float:
        return float(out.point[0] + (y - out.point[1]) * out.direction[0] / out.direction[1])

    for y in (100.0, 320.0, 540.0):
        assert abs(x_at(y) - (63.0 + 24.0 * (y - 60.0) / 520.0)) <= 1.5, (y, x_at(y))


def test_a_side_across_the_view_keeps_to_noses_parallel_to_it() -> None:
    # A far end seen from behind the near one runs across the view: its cushion top is as wide all along, and
    # a slanting step inside it (a shading, a ball's shadow) is no nose.
    img = np.zeros((360, 640, 3), np.uint8)
    img[:] = (40, 70, 110)
    img[60:, 60:580] = CLOTH
    top = np.array([[60, 60], [580, 60], [580, 87], [60, 63]], np.int32)
    cv2.fillPoly(img, [top], tuple(int(v * 0.6) for v in CLOTH))
    assert nose_found(img) is None


def test_a_nose_is_read_on_one_edge_where_the_face_widens_along_the_side() -> None:
    # A long side seen from behind one end (seed 10000's shot 5): its face widens towards the camera, and
    # along the half where the nose is lit dimly each profile's strongest step is the face's inner edge onto
    # the bed (dark to bright), along the other the nose's onto the face (bright to dark). A line through
    # both edges crossed from one to the other, turned 2 degrees, its near corner 15 px out; the steps of
    # one way lie on one edge.
    img = np.zeros((720, 1280, 3), np.uint8)
    img[:] = (40, 70, 110)
    img[60:, 60:1220] = CLOTH
    nose_y = 80
    for col in range(60, 1220):
        face = round(2.0 + 10.0 * (col - 60) / 1160)  # px: 2 at the far end, 12 at the near one
        top = 0.75 if col < 640 else 1.6
        img[60:nose_y, col] = np.clip(np.array(CLOTH) * top, 0, 255).astype(np.uint8)
        img[nose_y : nose_y + face, col] = (np.array(CLOTH) * 0.5).astype(np.uint8)
    side = SideFit(np.array([640.0, 60.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0]), 1.0)
    out = move_to_nose(gray_of(img), side, (np.array([100.0, 60.0]), np.array([1180.0, 60.0])))
    assert out.nose_moved
    ys = [float(out.point[1] + (x - out.point[0]) * out.direction[1] / out.direction[0]) for x in (150, 1130)]
    assert all(abs(y - (nose_y - 0.5)) < 1.0 for y in ys), ys  # on the nose all along, not across to the bed


def test_steps_of_both_ways_mixed_along_a_side_are_all_kept() -> None:
    # Two edges show as two stretches of the side, each its own way; ways mixed all along it, or a few the
    # other way, are noise for the line's RANSAC, and every profile agreeing on the nose is kept.
    agree = np.ones(60, bool)
    two_stretches = np.r_[np.ones(25), -np.ones(35)]
    assert np.array_equal(_one_way(agree, two_stretches), two_stretches < 0)
    mixed = np.where(np.arange(60) % 2 == 0, 1.0, -1.0)
    assert _one_way(agree, mixed).all()
    few = np.r_[np.ones(5), -np.ones(55)]
    assert _one_way(agree, few).all()
    seen_on_few = np.zeros(60, bool)
    seen_on_few[:25] = True  # a graphic hides the rest of the side: 12 one way, 13 the other are too few
    assert np.array_equal(_one_way(seen_on_few, np.r_[np.ones(12), -np.ones(48)]), seen_on_few)
