"""The markerless table finder: cloth of any colour, corners at the noses, a bent lens straightened, and
no table where there is none. Fixtures are synthetic frames (``datasets.billiards``) whose camera is known."""

from __future__ import annotations

import functools
import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

import vision.table_corners as table_corners
from arbiter.games import billiards
from datasets.billiards import layouts
from datasets.billiards.camera import Camera
from datasets.billiards.look import CLOTH_RGB, Look
from datasets.billiards.render import TableRenderer
from datasets.billiards.scene import BallState, SceneSample
from vision.calibration import CalibrationError
from vision.cloth_colour import chroma, estimate, leak, region, working_copy
from vision.table_corners import find_corners
from vision.table_geometry import name_corners
from vision.table_lines import SideFit
from vision.table_verdict import Doubt

W, H = 960, 540
CORNERS = ("bl", "br", "tr", "tl")


@functools.cache
def frame(game: str, seed: int, cloth: str | None = None) -> tuple[np.ndarray, Camera]:
    table = billiards(game).table
    camera = Camera.random(table, W, H, np.random.default_rng([seed, 11]))
    look = Look.random(np.random.default_rng([seed, 12]))
    look = replace(look, arm=None, cue=None, cloth_rgb=CLOTH_RGB[cloth] if cloth else look.cloth_rgb)
    layout = layouts.opening(billiards(game), np.random.default_rng([seed, 13]))
    renderer = TableRenderer(billiards(game), camera, look, seed=seed)
    balls = tuple(BallState(b, xy, False) for b, xy in layout.items())
    return renderer.render([SceneSample(0.0, balls)]).image, camera


def corner_offsets(corners: dict[str, np.ndarray], camera: Camera, game: str) -> np.ndarray:
    """Pixels between the corners found and the camera's own (either end may be called the bottom: the
    finder names ends by convention, the markings are ``calibrate_auto``'s business)."""
    table = billiards(game).table
    xyz = {"bl": (0, 0, 0), "br": (table.width_mm, 0, 0), "tr": (table.width_mm, table.length_mm, 0)}
    xyz["tl"] = (0, table.length_mm, 0)
    truth = {k: camera.project(np.array([v], float))[0] for k, v in xyz.items()}
    turned = {"bl": "tr", "br": "tl", "tr": "bl", "tl": "br"}
    same = np.array([np.linalg.norm(corners[k] - truth[k]) for k in CORNERS])
    other = np.array([np.linalg.norm(corners[turned[k]] - truth[k]) for k in CORNERS])
    return same if same.max() <= other.max() else other


@pytest.mark.parametrize("cloth", ["snooker_green", "tournament_blue", "red", "grey", "teal", "olive_green"])
def test_the_cloth_is_found_from_the_image_whatever_its_colour(cloth: str) -> None:
    image, camera = frame("snooker", 3, cloth)
    found = find_corners(image)
    offsets = corner_offsets(name_corners(found.quad_px, found.view), camera, "snooker")
    length_px = float(np.linalg.norm(camera.project(np.array([[0.0, 0, 0], [0, 3569.0, 0]])) @ [1, -1]))
    assert offsets.max() < 0.01 * length_px, f"{offsets.round(1)} px"
    assert not found.doubts, found.doubts


def test_the_cloth_model_compares_colour_whatever_the_light() -> None:
    """Dimming a colour to under half its level moves its ``chroma`` a third as far as Lab's (a*, b*),
    which go grey with the light: a lamp's fall-off stays cloth."""
    green = np.array([[[44, 104, 38]]], np.uint8)  # BGR
    dim = (green * 0.45).astype(np.uint8)
    lab = cv2.cvtColor(np.concatenate([green, dim], axis=1), cv2.COLOR_BGR2LAB)
    c, ab = chroma(lab)[0], lab[0, :, 1:3].astype(np.float32) - 128.0
    moved_chroma = np.linalg.norm(c[0] - c[1]) / np.linalg.norm(c[0])
    moved_ab = np.linalg.norm(ab[0] - ab[1]) / np.linalg.norm(ab[0])
    assert moved_chroma < moved_ab / 3


def test_the_cloth_region_reaches_the_dim_end_of_a_table_under_one_lamp() -> None:
    image, _ = frame("snooker", 3)
    ramp = np.linspace(1.0, 0.35, image.shape[1])[None, :, None]  # light falling off along the table
    dimmed = (image * ramp).astype(np.uint8)
    small, _ = working_copy(dimmed)
    model = estimate(small)
    assert model is not None
    found = region(small, model)
    bright, _ = working_copy(image)
    full = region(bright, estimate(bright))  # type: ignore[arg-type]
    assert (found & full).sum() / full.sum() > 0.9


def walled_table() -> tuple[np.ndarray, np.ndarray]:
    """A tan table in a dark rail whose far side has gaps (sights, a glint), against a wall of the cloth's
    own colour a shade brighter, on a wooden floor: the frame and the cloth's corners."""
    image = np.empty((540, 960, 3), np.float32)
    image[:] = (40, 60, 90)
    image[:150] = (165, 188, 204)
    x0, y0, x1, y1 = 200, 170, 760, 440
    image[y0 - 16 : y1 + 16, x0 - 16 : x1 + 16] = (28, 28, 34)
    image[y0:y1, x0:x1] = (150, 175, 190)
    for x in range(x0, x1, 70):
        image[y0 - 20 : y0, x : x + 6] = (165, 188, 204)
    image += np.random.default_rng(0).normal(0.0, 3.0, image.shape)
    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float) - 0.5
    return np.clip(image, 0, 255).astype(np.uint8), corners


def test_a_wall_of_the_cloths_colour_behind_a_gapped_rail_is_not_cloth() -> None:
    """The wall joins the cloth through the rail's gaps in the working copy (the finder found no table
    before); split off where the region narrows, it is no part of the table."""
    image, corners = walled_table()
    small, _ = working_copy(image)
    cloth = estimate(small)
    assert cloth is not None
    leaked = leak(image, cloth, (small.shape[1], small.shape[0]))
    assert leaked is not None and leaked[: small.shape[0] // 4].mean() > 0.9
    found = find_corners(image)
    nearest = [float(np.min(np.linalg.norm(found.quad_px - c, axis=1))) for c in corners]
    assert max(nearest) < 4.0, found.quad_px.round(1)


def test_a_wall_split_off_beside_a_graphic_over_the_view() -> None:
    """A graphic masked out of the view (a logo in a corner, ``ignore``) and a wall of the cloth's colour to
    split off: the leak comes back at the working copy's size, as the region it is cut from (it came back
    at the finer copy's and the finder raised on the shapes)."""
    image, corners = walled_table()
    ignore = np.zeros(image.shape[:2], np.uint8)
    ignore[480:530, 20:160] = 1  # a logo over the floor at the bottom left
    small, _ = working_copy(image)
    cloth = estimate(small)
    assert cloth is not None
    leaked = leak(image, cloth, (small.shape[1], small.shape[0]), ignore)
    assert leaked is not None and leaked.shape == small.shape[:2]
    found = find_corners(image, ignore)
    nearest = [float(np.min(np.linalg.norm(found.quad_px - c, axis=1))) for c in corners]
    assert max(nearest) < 4.0, found.quad_px.round(1)


def test_cloth_beyond_a_chalk_line_is_no_leak() -> None:
    """A chalk line across the table splits the cloth as a rail's gaps split a wall from it, but the two
    halves make one convex table: nothing is cut."""
    image, _ = frame("snooker", 3)
    y = image.shape[0] // 2
    lined = image.copy()
    lined[y - 2 : y + 2] = (235, 235, 235)
    small, _ = working_copy(lined)
    cloth = estimate(small)
    assert cloth is not None and leak(lined, cloth, (small.shape[1], small.shape[0])) is None


def test_a_wide_lens_is_straightened_before_the_corners_are_read() -> None:
    """A strongly barrelled view: the corners come out where the lens shows them, and the finder says
    which k1 it straightened the sides with."""
    table = billiards("straight-pool").table
    image, camera = frame("straight-pool", 0)
    k1 = camera.dist[0]
    found = find_corners(image)
    offsets = corner_offsets(name_corners(found.quad_px, found.view), camera, "straight-pool")
    assert abs(k1) > 0.05, "the fixture must bend the cushions"
    assert found.k1 != 0.0 and math.copysign(1, found.k1) == math.copysign(1, k1)
    length_px = float(
        np.linalg.norm(camera.project(np.array([[0.0, 0, 0], [0, table.length_mm, 0]])) @ [1, -1])
    )
    assert offsets.max() < 0.01 * length_px, f"{offsets.round(1)} px"


@pytest.mark.parametrize(
    ("image", "why"),
    [
        (np.full((H, W, 3), 90, np.uint8), "one flat colour"),
        (np.random.default_rng(3).integers(0, 256, (H, W, 3), dtype=np.uint8), "no table found"),
        (np.zeros((H, W, 3), np.uint8), "no table found"),
    ],
    ids=["flat", "noise", "black"],
)
def test_no_table_in_view_raises(image: np.ndarray, why: str) -> None:
    with pytest.raises(CalibrationError, match=why):
        find_corners(image)


def test_a_region_whose_neighbouring_sides_are_parallel_is_no_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cloth-coloured sliver along the frame's edge can give an outline two of whose neighbouring sides
    are parallel (a real grey table under a warm ramp at 1280 px did): no corner where they meet, so no
    table, said as such, never a crash naming the corners of a quad that has none."""

    def sides(*_: object, **__: object) -> tuple[object, np.ndarray, list[SideFit]]:
        def side(point: tuple[float, float], along: tuple[float, float]) -> SideFit:
            d = np.array(along, np.float64)
            return SideFit(np.array(point, np.float64), d, np.array([-d[1], d[0]]), 1.0)

        lines = [
            side((900, 100), (0, 1)),
            side((900, 500), (-1, 0)),
            side((950, 500), (0, -1)),
            side((900, 100), (0, -1)),
        ]
        return None, np.zeros((4, 4), np.uint8), lines

    monkeypatch.setattr(table_corners, "_cloth_sides", sides)
    image, _ = frame("snooker", 3)
    with pytest.raises(CalibrationError, match="parallel"):
        find_corners(image, None, billiards("snooker").table)


def _square_sides(moved: tuple[bool, bool, bool, bool]) -> list[SideFit]:
    return [
        SideFit(np.zeros(2), np.array([1.0, 0.0]), np.array([0.0, 1.0]), 1.0, nose_moved=m) for m in moved
    ]


def test_a_side_moved_in_far_less_than_the_others_from_above_is_doubted() -> None:
    """The four cushions are one width: from above, a side whose nose lies 0.7 % of the length inside the
    cloth's outline where the others' lie 4 % stopped at a cushion top's or a rail's edge."""
    quad = np.array([[100.0, 100.0], [1100.0, 100.0], [1100.0, 600.0], [100.0, 600.0]])  # 1000 x 500
    outline = quad + np.array([[-40.0, -7.0], [40.0, -7.0], [40.0, 40.0], [-40.0, 40.0]])  # top: 7 px
    short = table_corners._short_inset(outline, quad, _square_sides((True, True, True, True)), None)
    assert short is not None and short.kind is Doubt.SHORT_INSET and "0.7%" in short.detail
    assert table_corners._short_inset(outline, quad, _square_sides((False, True, True, True)), None) is None
    assert table_corners._short_inset(outline, quad, _square_sides((True, True, True, True)), 0) is None
    even = quad + np.array([[-40.0, -40.0], [40.0, -40.0], [40.0, 40.0], [-40.0, 40.0]])
    assert table_corners._short_inset(even, quad, _square_sides((True, True, True, True)), None) is None
    seen_from_an_end = np.array([[300.0, 100.0], [900.0, 100.0], [1100.0, 600.0], [100.0, 600.0]])
    assert table_corners._short_inset(outline, seen_from_an_end, _square_sides((True,) * 4), None) is None


Gains = tuple[float, float, float]


def tinted(image: np.ndarray, left: Gains, right: Gains) -> np.ndarray:
    """``image`` under a light whose colour (BGR gains) runs from ``left`` to ``right`` across the frame."""
    t = np.linspace(0.0, 1.0, image.shape[1], dtype=np.float32)[None, :, None]
    gain = np.array(left, np.float32) + (np.array(right, np.float32) - np.array(left, np.float32)) * t
    return np.asarray(np.clip(image * gain + 0.5, 0, 255).astype(np.uint8))


@pytest.mark.parametrize(
    ("gains", "reach", "rounding"),
    [((0.55, 0.7, 1.5), 0.08, 0.0), ((0.55, 0.7, 1.5), 0.1, 0.5), ((0.5, 0.65, 1.6), 0.08, 0.5)],
)
def test_a_cloth_under_a_projectors_patch_of_colour_is_found_whole(
    gains: Gains, reach: float, rounding: float
) -> None:
    """A projector's picture tints the cloth by patches that no plane across the frame follows: a warm patch
    over the baulk end (BGR ``gains`` at its heart, fading over ``reach`` of the frame) fell out of the
    cloth's region, and the table was found 170 px off, on two of these three with no doubt raised. The
    cloth's colour judged against the cloth found nearby keeps the patch in."""
    image, camera = frame("snooker", 3)
    ys, xs = np.mgrid[0:H, 0:W]
    patch = np.exp(-((xs / W - 0.2) ** 2 + (ys / H - 0.6) ** 2) / (2 * reach**2))[..., None]
    lit = np.clip(image * np.power(np.array(gains), patch) + rounding, 0, 255).astype(np.uint8)
    found = find_corners(lit)
    offsets = corner_offsets(name_corners(found.quad_px, found.view), camera, "snooker")
    length_px = float(np.linalg.norm(camera.project(np.array([[0.0, 0, 0], [0, 3569.0, 0]])) @ [1, -1]))
    assert offsets.max() < 0.01 * length_px, f"{offsets.round(1)} px"
    assert not found.doubts, found.doubts


def test_a_cloth_lit_evenly_is_one_colour() -> None:
    image, _ = frame("snooker", 3)
    cloth = estimate(working_copy(image)[0])
    assert cloth is not None and not cloth.follows_tint


def test_a_cloth_tinted_across_the_frame_follows_its_tint() -> None:
    """A projector's warm light at the left end, none at the right: the cloth's colour follows the tint, so
    the colour the cloth takes at its warm end is cloth there and not at the right end (a carpet of that
    hue beside the rail); taken as one colour, its spread stretched along the tint, it is cloth at both."""
    image, _ = frame("snooker", 3)
    warm = tinted(image, (0.6, 0.9, 1.35), (1.0, 1.0, 1.0))
    small, _ = working_copy(warm)
    followed, one_colour = estimate(small), estimate(small, trend=False)
    assert followed is not None and one_colour is not None
    assert followed.follows_tint and not one_colour.follows_tint
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    cloth = region(small, followed) > 0
    w = cloth.shape[1]
    left, right = cloth.copy(), cloth.copy()
    left[:, w // 5 :], right[:, : 4 * w // 5] = False, False
    warm_cloth = np.median(lab[left], axis=0).astype(np.uint8)
    carpet = lab.copy()
    carpet[right] = warm_cloth  # the warm end's colour at the untinted end
    assert np.mean(followed.mask(carpet)[right]) < 0.1
    assert np.mean(one_colour.mask(carpet)[right]) > 0.9
    assert np.mean(followed.mask(lab)[cloth]) > 0.95  # the tinted cloth itself is cloth end to end
