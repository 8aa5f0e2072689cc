"""Ball detection on committed real photos (``datasets.billiards.real``), scored by ``evaluation.real_balls``:
floors a little under the figures measured when the detector was tuned (README, `arbiter eval real-balls`),
so a change that loses real balls fails here, and no ball found twice."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from arbiter.games import billiards
from datasets.billiards.real import TableImage, photos
from datasets.billiards.second_look import renders
from evaluation.real_balls import (
    INTERFACE,
    PROJECTED,
    BallScore,
    RealBallsReport,
    evaluate_real_balls,
    format_balls_report,
    interface_gains,
    projected_gains,
    score_detections,
    sized_table,
)
from vision.calibration import calibrate_manual
from vision.classical import ClassicalDetector
from vision.detectors import build_detector

# image: (found, precise, colour right) floors. Measured as shot with the labelled corners (or, for the
# phone close-ups without cushions, no table): snooker phone 1 and 2 16/16 found, 16/16 precise, 16/16
# named; the grey pool table's L0 14/14, 14/14, 13/14 and game1 7/8, 7/7, 7/7 (the cue ball told from the
# stripes turned white side up by the print on their faces, a stripe's colour read from its rim a level
# finer, the bright orange 5 read below the camera's tone-curve shoulder, the 6 against the frame's right
# edge found). Floors: one ball fewer where found or named is full, and L0's colour as measured.
FLOORS = {
    "snooker-small-phone-1": (0.9, 0.9, 0.9),
    "snooker-small-phone-2": (0.9, 0.9, 0.9),
    "pool-grey-overhead-L0": (0.9, 0.9, 0.9),
    "pool-grey-overhead-game1": (0.85, 0.95, 0.85),
}


@pytest.fixture(scope="module")
def images() -> dict[str, TableImage]:
    return {i.name: i for i in photos() if i.name in FLOORS}


@pytest.fixture(scope="module")
def report(images):
    return evaluate_real_balls(
        list(images.values()), settings=("labelled",), lights=("as shot", "blue light")
    )


@pytest.mark.parametrize("name", list(FLOORS))
def test_real_photo_balls_are_found_precisely_and_named(report, name) -> None:
    found, precise, named = FLOORS[name]
    rows = [r for r in report.rows if r.name == name and r.light == "as shot"]
    assert len(rows) == 1 and rows[0].score is not None
    s: BallScore = rows[0].score
    line = format_balls_report(replace(report, rows=tuple(rows)))
    assert s.recall >= found, line
    assert s.precision >= precise, line
    assert s.colour >= named, line


@pytest.mark.parametrize("name", ["pool-grey-overhead-L0", "pool-grey-overhead-game1"])
def test_the_cue_ball_is_not_taken_for_a_stripe_turned_white_side_up(
    report: RealBallsReport, name: str
) -> None:
    row = next(r for r in report.rows if r.name == name and r.light == "as shot")
    assert not [m for m in row.misnamed if m.startswith("cue->") or m.endswith("->white")], row.misnamed


@pytest.mark.parametrize(
    ("name", "ball"),
    [
        ("pool-grey-overhead-game1", "5"),  # bright orange: read below the tone curve's shoulder, not yellow
        ("pool-grey-overhead-L0", "12"),  # white side up: its purple band a thin crescent at the silhouette
    ],
)
def test_the_causes_fixed_stay_fixed_on_the_grey_table(report: RealBallsReport, name: str, ball: str) -> None:
    row = next(r for r in report.rows if r.name == name and r.light == "as shot")
    assert not [m for m in row.misnamed if m.startswith(f"{ball}->")], row.misnamed


def test_coloured_light_keeps_the_snooker_colours(report) -> None:
    """A blue cast over the whole photo (a projector's light): the white ball still sets the balance."""
    rows = [r for r in report.rows if r.name.startswith("snooker") and r.light == "blue light"]
    total = sum((r.score for r in rows if r.score is not None), BallScore())
    assert total.recall >= 0.9 and total.colour >= 0.85, format_balls_report(
        replace(report, rows=tuple(rows))
    )


def _detect(image: TableImage) -> np.ndarray:
    pixels = image.load()
    spec = billiards(image.game)
    if image.corners_px is None:
        radius = float(np.median([b.radius_px for b in image.balls]))
        return ClassicalDetector(spec, radius).detect(pixels).xy_px
    table = sized_table(image)
    calib = calibrate_manual(dict(image.corners_px), table, (pixels.shape[1], pixels.shape[0]))
    return build_detector("classical", replace(spec, table=table), calib, pixels.shape).detect(pixels).xy_px


@pytest.mark.parametrize("name", list(FLOORS))
def test_no_real_ball_is_found_twice(images, name) -> None:
    image = images[name]
    xy = _detect(image)
    truth = np.array([b.xy_px for b in image.balls])
    radius = np.array([b.radius_px for b in image.balls])
    near = (np.linalg.norm(truth[:, None] - xy[None], axis=2) <= radius[:, None]).sum(axis=1)
    doubled = [image.balls[j].id for j in np.nonzero(near > 1)[0]]
    assert not doubled, f"{name}: found twice: {doubled}"
    score, _, _ = score_detections(image, xy, ["red"] * len(xy))
    assert score.found - score.matched <= 1, f"{name}: {score.found - score.matched} detections off any ball"


def test_a_photo_under_a_projectors_ramp_is_refereed_on_the_table_found_in_it(images) -> None:
    """``arbiter run`` over the grey table's photo under a warm ramp: the table found in the lit photo (the
    cloth's colour following the ramp's tint), its balls found and named there. With the cloth taken as one
    colour the table was found 21.5 % off and 3 of its 8 balls were placed on it. Of the seven found, the
    orange 5 and the blue 2 are named under this ramp as near the yellow 1 and the purple 4 under a light
    turned the other way (two lights nearly even on seven balls: 4.51 and 4.72 of colour distance, the
    wrong the nearer), so five at least are named right."""
    image = images["pool-grey-overhead-game1"]
    report = evaluate_real_balls([image], settings=("photos",), lights=("warm ramp",))
    (row,) = report.rows
    assert row.setting == "photos" and row.light == "warm ramp" and row.score is not None
    line = format_balls_report(report)
    assert row.score.recall >= 0.85 and row.score.precision >= 0.95 and row.score.colour >= 0.7, line


def test_the_grey_table_s_balls_are_named_against_each_other_as_arbiter_run_names_them(images) -> None:
    """``arbiter run`` over the grey table's photos as shot (the table found in each): the game photo's
    light turns every hue about 16 degrees, which named its orange 5 the yellow 1 and its blue 2 the purple
    4 from a typical light (names and light fit together better turned); L0's phone turns oranges one way
    and reds the other, which named its orange 13 the yellow 9 (the orange 5 beside it tells it). L0's 14,
    its green band turned out of view, is the one ball left misnamed."""
    names = ("pool-grey-overhead-game1", "pool-grey-overhead-L0")
    report = evaluate_real_balls([images[n] for n in names], settings=("photos",), lights=("as shot",))
    misnamed = {r.name: [m for m in r.misnamed if not m.startswith("14->")] for r in report.rows}
    assert misnamed == {n: [] for n in names}, format_balls_report(report)


def test_a_cameras_photos_under_changing_light_are_refereed_on_the_table_they_agree_on() -> None:
    """The tan table's photo as shot, under magenta light and under a warm ramp, taken as one still camera's
    photos (``arbiter run FOLDER``): alone, the warm look's table runs over the wall (43 % off) and none of
    its six balls is found; on the table the other two agree on, five are."""
    image = next(i for i in photos() if i.name == "pool-tan-oblique-empty-step2")
    lights = ("as shot", "magenta light", "warm ramp")
    report = evaluate_real_balls([image], settings=("photos", "camera"), lights=lights)
    alone, shared = (
        next(r for r in report.rows if r.setting == s and r.light == "warm ramp")
        for s in ("photos", "camera")
    )
    assert alone.score is not None and shared.score is not None
    assert alone.score.matched <= 1 and shared.score.matched >= 5, format_balls_report(report)
    assert shared.score.precision == 1.0


def test_a_projectors_picture_is_a_smooth_light_of_changing_colour_the_same_for_a_seed() -> None:
    gains = projected_gains((72, 128), 0)
    assert gains.shape == (72, 128, 3) and np.array_equal(gains, projected_gains((72, 128), 0))
    assert gains.min() >= np.exp(-0.35) - 1e-6 and gains.max() <= np.exp(0.35) + 1e-6
    spread = np.log(gains).reshape(-1, 3).std(axis=0)
    assert (spread > 0.05).all()  # each channel changes over the picture, each its own way
    assert not np.allclose(np.log(gains[..., 0]), np.log(gains[..., 1]), atol=0.05)


def test_a_projectors_interface_is_sharp_shapes_of_added_light_the_same_for_a_seed() -> None:
    gains = interface_gains((360, 640), 0)
    assert gains.shape == (360, 640, 3) and np.array_equal(gains, interface_gains((360, 640), 0))
    assert gains.min() >= 1.0 and gains.max() > 1.0  # a projector adds light, it takes none away
    drawn = (gains > 1.0).any(axis=2)
    assert 0.005 < drawn.mean() < 0.5  # shapes over the table, most of it as it was
    steps = np.abs(np.diff(gains, axis=1)).max(axis=2)
    assert steps.max() > 0.1  # sharp-edged, not a smooth field
    assert len(INTERFACE) == 6 and not np.array_equal(gains, interface_gains((360, 640), 1))


def test_snooker_colours_under_a_projectors_pictures_are_read_through_the_light_where_each_ball_lies(
    images,
) -> None:
    """The two photos of the small snooker table under six projected pictures, corners typed: each ball read
    through the cloth's colour beside it against the cloth's colour over the bed. Read through the white
    ball's balance alone, 178 of 191 were named right (93.2 %); then 184; since a dark pixel's faint tint is
    black (``ClassicalConfig.dark_chroma``), 189: the black under pictures 2 and 6, read as coloured, had
    made a chain of three misnamed (the green named black, the black brown, the brown red)."""
    chosen = [images["snooker-small-phone-1"], images["snooker-small-phone-2"]]
    report = evaluate_real_balls(chosen, settings=("labelled",), lights=PROJECTED)
    total, n = report.total(lambda r: True, PROJECTED)
    assert n == 12 and total.recall >= 0.95, format_balls_report(report)
    assert total.colour >= 0.98, format_balls_report(report)
    for row in report.rows:
        assert not {"black->brown", "green->black"} & set(row.misnamed), format_balls_report(report)


def test_balls_bigger_than_an_assumed_table_s_are_measured_and_found() -> None:
    """``arbiter run`` over the wide-angle photo of a small pool table: too oblique to measure its balls,
    the calibration assumes the game's 9 ft table, whose balls would be 8.2 px in radius there; they are
    11-12.5 px. Their outlines say so and the detector looks again at their size (``ClassicalDetector``'s
    first frame): the black in the rack, missed at 8.2 px, is found, and the centres are placed within a
    sixth of a radius (0.39 of one before)."""
    image = next(i for i in photos() if i.name == "pool-small-wideangle-lines")
    report = evaluate_real_balls([image], settings=("photos",), lights=("as shot",))
    (row,) = report.rows
    assert row.score is not None
    line = format_balls_report(report)
    assert "black" not in row.missed and row.score.recall >= 13 / 14, line
    assert row.score.centre_error / row.score.matched < 1 / 6, line


def test_a_white_without_a_glint_in_a_pool_of_light_is_found(images) -> None:
    """The small snooker table's close-up under a projector's sixth picture: the white, its highlight clipped
    to its body's level in a warm pool of light, makes one blob with the light round it, and its circle,
    round as only a ball's (coherence 0.99), has no glint. Missed before, and the pink named white."""
    image = images["snooker-small-phone-1"]
    report = evaluate_real_balls([image], settings=("labelled",), lights=("projected picture 6",))
    (row,) = report.rows
    assert row.score is not None
    line = format_balls_report(report)
    assert "white" not in row.missed and not row.misnamed, line
    assert row.score.precision == 1.0, line


def test_a_table_under_a_projectors_patchy_picture_is_found_and_its_balls_refereed(images) -> None:
    """``arbiter run`` over the grey table's first photo under a projector's sixth picture: its left end lies
    under a red patch that no plane across the frame follows, fell out of the cloth's region, and the left
    side was fitted askew through the bed (no table found: its shape 10 % off a 9 ft table's). The cloth's
    colour judged against the cloth found nearby keeps that end in: the table is found, and every ball."""
    image = images["pool-grey-overhead-L0"]
    report = evaluate_real_balls([image], settings=("photos",), lights=("projected picture 6",))
    (row,) = report.rows
    assert row.score is not None, format_balls_report(report)
    assert row.score.recall == 1.0 and row.score.precision == 1.0, format_balls_report(report)


def test_a_ring_of_light_a_projector_draws_is_no_ball(images) -> None:
    """The small snooker table's close-up under a projector's sixth interface: a yellow-green ring of a
    ball's size drawn on the bare cloth below the white, as round as only a ball is (coherence 0.997) and
    outlined all round, was kept as a ball without a glint and named white; the assignment's one ball of
    each colour then named the white brown and the brown red. A ring is hollow: no ball."""
    image = next(i for i in photos() if i.name == "snooker-small-phone-1")
    report = evaluate_real_balls([image], settings=("labelled",), lights=(INTERFACE[5],))
    (row,) = report.rows
    assert row.score is not None, format_balls_report(report)
    assert row.score.precision == 1.0 and row.score.recall == 1.0, format_balls_report(report)
    assert not row.misnamed, format_balls_report(report)


@pytest.mark.parametrize(
    ("name", "light", "setting"),
    [
        ("pool-grey-overhead-L0", "over-exposed 1.7", "labelled"),
        ("pool-grey-overhead-L0", "over-exposed 1.7", "photos"),
        ("pool-small-wideangle-lines", "over-exposed 1.3", "labelled"),
        ("snooker-small-phone-2", "over-exposed 1.5", "labelled"),
        ("snooker-small-phone-2", "over-exposed 1.7", "labelled"),
    ],
)
def test_an_over_exposed_photo_s_bright_balls_are_found(name: str, light: str, setting: str) -> None:
    """A camera exposing brighter than the photo was (``EXPOSED``). The grey table's L0 at 1.7: its cloth at
    206-211 of 255 leaves the sensor's white 1.22 times it, short of the 1.35 a ball had to be brighter by,
    so its white, yellows and pale stripes, clipped at full scale, were cloth (4 of 14 found, 3 as ``arbiter
    run`` referees it). The small snooker table's second photo at 1.5 and 1.7: its white and pink (14 of 16;
    at 1.7 the black was lost in a lamp's pool the field did not learn, till it learnt it first). The
    wide-angle table's rack at 1.3: its yellows, lit to full scale, show no glint above their bodies (11 of
    14). A ball is now as much brighter than the cloth as the sensor leaves room for, and a coloured face
    needs as much glint as it leaves room for."""
    image = next(i for i in photos() if i.name == name)
    report = evaluate_real_balls([image], settings=(setting,), lights=(light,))
    (row,) = report.rows
    assert row.score is not None, format_balls_report(report)
    assert row.score.recall >= 0.92 and row.score.precision == 1.0, format_balls_report(report)


def test_a_score_bars_white_letters_are_asked_a_glint_however_clipped() -> None:
    """A broadcast render's score bar, its corners typed (no graphics masked): its white letters are as
    clipped as a bright ball's face and as round as a ball in a cluster (coherence 0.82-0.87), so a glint
    asked only as far as the face leaves room took five of them for balls. Only a face mostly coloured is
    let off its glint: the two false balls of before, no more."""
    image = next(i for i in renders() if i.name == "arb-broadcast-green-50")
    report = evaluate_real_balls([image], settings=("labelled",), lights=("as shot",))
    (row,) = report.rows
    assert row.score is not None, format_balls_report(report)
    assert row.score.recall == 1.0 and row.extra <= 2, format_balls_report(report)
