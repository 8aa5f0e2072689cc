"""The balls' size against the table's length (``vision.ball_size``): on drawn disks, and on Arbiter's
renders of tables of several sizes against their truth, where the old measure read them 5-35 % large
(each ball's outline stretched by the wide lens, its shadow, and the blobs kept by their box's size)."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from arbiter.games import billiards
from datasets.billiards import layouts
from datasets.billiards.camera import Camera
from datasets.billiards.look import Look
from datasets.billiards.render import TableRenderer
from datasets.billiards.scene import BallState, SceneSample
from vision import table_geometry as geo
from vision.ball_size import measure_balls, outline_scale
from vision.cloth_colour import estimate, working_copy
from vision.table_corners import find_corners

W, H = 1280, 720
TOLERANCE = 0.05  # a rendered table's balls are read within this share of their size


def drawn_table(balls_per_length: float) -> np.ndarray:
    """A top view of a green bed 1000 px long with six round balls, one of them a black."""
    view = np.full((1000, 500, 3), (40, 110, 30), np.uint8)
    r = 1000 / balls_per_length / 2
    places = [(100, 150), (250, 300), (400, 450), (120, 700), (380, 820), (250, 600)]
    colours = [(30, 30, 200), (20, 200, 230), (240, 240, 240), (20, 20, 20), (200, 60, 20), (30, 30, 200)]
    for (x, y), colour in zip(places, colours, strict=True):
        cv2.circle(view, (x, y), round(r), colour, -1, cv2.LINE_AA)
    return view


@pytest.mark.parametrize(("per_length", "size"), [(68.0, "12ft"), (34.0, "6ft"), (30.0, "6ft")])
def test_the_size_follows_the_balls(per_length: float, size: str) -> None:
    view = drawn_table(per_length)
    cloth = estimate(working_copy(view)[0])
    assert cloth is not None
    share = measure_balls(view, cloth, length_px=2000.0).share  # balls 29 px and more across in the frame
    assert share is not None and 1 / share == pytest.approx(per_length, rel=0.05)
    assert geo.choose_size(billiards("snooker").table, share).size.name == size


def test_balls_too_small_in_the_frame_are_not_measured_and_the_game_s_size_is_taken() -> None:
    view = drawn_table(34.0)
    cloth = estimate(working_copy(view)[0])
    assert cloth is not None
    assert measure_balls(view, cloth, length_px=300.0).share is None  # 9 px balls in the frame itself
    assert measure_balls(view, cloth, length_px=400.0).share is not None  # 12 px balls
    choice = geo.choose_size(billiards("straight-pool").table, None)
    assert (choice.size.name, choice.measured) == ("9ft", False)


def test_highlights_smaller_than_any_table_s_ball_are_not_counted() -> None:
    """Reds on a red cloth show only their highlights: six small bright specks outnumbered the three
    colours that show whole, so no size had a majority and the game's 12 ft table was taken for a 6 ft one
    (a rendered projector photo, seed 9712). An outline smaller than any catalogue's ball (a 120th of the
    length) is no ball's."""
    view = np.full((1000, 500, 3), (30, 30, 150), np.uint8)
    r = round(1000 / 34.0 / 2)  # a 6 ft table's balls
    for (x, y), colour in zip(
        [(100, 150), (380, 820), (250, 600)], [(240, 240, 240), (20, 20, 20), (200, 60, 20)], strict=True
    ):
        cv2.circle(view, (x, y), r, colour, -1, cv2.LINE_AA)
    glint = np.zeros((1000, 500), np.float32)
    for x, y in [(120, 300), (300, 350), (400, 450), (150, 700), (350, 250), (220, 880)]:
        cv2.circle(view, (x, y), r, (34, 34, 160), -1, cv2.LINE_AA)  # a red, a shade off the cloth
        glint[y - 2 : y + 3, x - 2 : x + 3] = 1.0
    glint = cv2.GaussianBlur(glint, (0, 0), 2.0)
    view = np.clip(view + (glint / glint.max())[..., None] * np.array([200, 200, 120]), 0, 255).astype(
        np.uint8
    )
    cloth = estimate(working_copy(view)[0])
    assert cloth is not None
    share = measure_balls(view, cloth, length_px=2000.0).share
    assert share is not None and 1 / share == pytest.approx(34.0, rel=0.08)


@pytest.mark.parametrize("expected", [0.75, 1.0, 1.25])
def test_the_outlines_round_found_balls_say_how_big_they_are_against_expected(expected: float) -> None:
    """Six drawn balls 14.7 px in radius, measured round their centres against a radius 25 % too small, right
    or 25 % too big (``outline_scale``: what the classical detector checks a calibration's size against)."""
    view = drawn_table(34.0)
    r = 1000 / 34.0 / 2
    centres = np.array([(100, 150), (250, 300), (400, 450), (120, 700), (380, 820), (250, 600)], float)
    scale = outline_scale(view, centres + 0.7, np.full(6, expected * r))  # centres found a little off
    assert scale is not None and scale * expected == pytest.approx(1.0, rel=0.06)


def test_balls_beside_each_other_or_too_few_say_nothing() -> None:
    view = drawn_table(34.0)
    assert outline_scale(view, np.array([[100.0, 150.0]]), np.array([14.0])) is None  # one ball
    assert outline_scale(view, np.array([[3.0, 3.0], [60.0, 60.0]]), np.full(2, 14.0)) is None  # cut, cloth
    touching = drawn_table(1000.0)  # no ball drawn: a rack of seven touching ones instead
    for k in range(7):
        cv2.circle(touching, (100 + 30 * k, 500), 15, (30, 30, 200), -1, cv2.LINE_AA)
    rack = np.array([(100 + 30 * k, 500) for k in range(7)], float)
    assert outline_scale(touching, rack, np.full(7, 15.0)) is None  # a rack's rays end on its neighbours


def test_the_radius_expected_at_each_ball_is_what_its_outline_is_measured_against() -> None:
    """A broadcast's near balls look bigger than its far ones: each is measured against its own."""
    view = np.full((600, 900, 3), (40, 110, 30), np.uint8)
    centres = np.array([(150, 100), (450, 100), (750, 100), (150, 450), (450, 450), (750, 450)], float)
    radii = np.array([8.0, 8.0, 8.0, 16.0, 16.0, 16.0])
    for (x, y), r in zip(centres, radii, strict=True):
        cv2.circle(view, (int(x), int(y)), int(r), (30, 30, 200), -1, cv2.LINE_AA)
    scale = outline_scale(view, centres, radii)
    assert scale is not None and scale == pytest.approx(1.0, rel=0.06)
    assert outline_scale(view, centres, np.full(6, 12.0)) is None  # one size for all: they disagree


def test_an_empty_table_says_nothing_of_its_size() -> None:
    view = np.full((1000, 500, 3), (40, 110, 30), np.uint8)
    cloth = estimate(working_copy(view)[0])
    assert cloth is not None
    assert measure_balls(view, cloth, length_px=2000.0).share is None


def test_pale_balls_whose_shaded_half_is_the_cloth_s_shade_are_read_on_their_long_axes_and_doubted() -> None:
    # Ivory balls on a light grey cloth lit from the top of the view: only the lit half of each and its
    # shading down to the terminator (a half ellipse, light 60 degrees off vertical) stand off the cloth: the
    # short axis is 0.75 of the ball, a 10 ft pyramid table measured as 12 ft. The long axis is the ball.
    per_length = 2946.0 / 68.0
    view = np.full((1000, 500, 3), (172, 172, 168), np.uint8)
    r = 1000 / per_length / 2
    for x, y in [(100, 150), (250, 300), (400, 450), (120, 700), (380, 820), (250, 600)]:
        cv2.ellipse(view, (x, y), (round(r), round(r)), 0, 180, 360, (225, 232, 236), -1, cv2.LINE_AA)
        cv2.ellipse(view, (x, y), (round(r), round(r * math.cos(math.radians(60)))), 0, 0, 180,
                    (205, 212, 216), -1, cv2.LINE_AA)  # fmt: skip
    cloth = estimate(working_copy(view)[0])
    assert cloth is not None
    balls = measure_balls(view, cloth, length_px=2000.0)
    assert balls.shaded and balls.share is not None
    assert 1 / balls.share == pytest.approx(per_length, rel=0.1)  # a drawn lune's fit; renders' within 1 %
    assert not measure_balls(drawn_table(per_length), cloth, length_px=2000.0).shaded  # whole balls are not


def rendered(game: str, size: str, seed: int) -> tuple[np.ndarray, float]:
    """A still of a game in play on a table of ``size``, a random overhead camera (lenses from 60 to 90
    degrees, with their distortion) and room, and the balls' true diameter as a share of the length."""
    spec = billiards(game).resized(size)
    camera = Camera.random(spec.table, W, H, np.random.default_rng([seed, 1]))
    look = replace(Look.random(np.random.default_rng([seed, 2])), cue=None, arm=None)
    layout = layouts.midgame(spec, np.random.default_rng([seed, 3]))
    renderer = TableRenderer(spec, camera, look, seed=seed, clip_s=1.0)
    image = renderer.render([SceneSample(0.5, tuple(BallState(b, xy, False) for b, xy in layout.items()))])
    return image.image, 2 * spec.table.ball_radius_mm / spec.table.length_mm


def measured(image: np.ndarray, game: str) -> float | None:
    """The balls' share of the length, read as calibration reads it: in the top view of the corners found,
    straightened by the lens the finder saw."""
    found = find_corners(image, None, billiards(game).table)
    aspect = max(found.view.aspect, 1 / found.view.aspect)
    named = geo.name_corners(found.quad_px, found.view)
    view = geo.top_view(image, named, aspect, found.k1, found.f_px)
    sides = [float(np.linalg.norm(found.quad_px[(k + 1) % 4] - found.quad_px[k])) for k in range(4)]
    return measure_balls(view, found.cloth, max(sides[0] + sides[2], sides[1] + sides[3]) / 2).share


@pytest.mark.parametrize(
    ("game", "size", "seed"),
    [
        ("snooker", "12ft", 0),
        ("snooker", "10ft", 1),
        ("snooker", "9ft", 0),
        ("snooker", "6ft", 0),
        ("straight-pool", "9ft", 1),
        ("straight-pool", "8ft", 1),
        ("straight-pool", "7ft", 0),
    ],
)
def test_a_rendered_table_s_balls_are_read_at_their_size(game: str, size: str, seed: int) -> None:
    image, truth = rendered(game, size, seed)
    share = measured(image, game)
    assert share is not None
    assert math.log(share / truth) == pytest.approx(0.0, abs=TOLERANCE)
