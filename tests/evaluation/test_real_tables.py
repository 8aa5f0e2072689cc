"""Automatic calibration on the real test set and the second-look renders, beside the first finder: every
image is right within 1 % of the table's length or says it is unsure, and the figures do not slip back."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from datasets.billiards.real import photos, with_corners
from datasets.billiards.second_look import renders
from evaluation.real_tables import (
    TOLERANCE,
    RealTablesReport,
    as_camera_frame,
    corner_error,
    evaluate_real_tables,
    format_report,
)
from vision import cloth_colour

IMAGES = with_corners(photos()) + renders()


@functools.cache
def report() -> RealTablesReport:
    return evaluate_real_tables(IMAGES)


@pytest.mark.parametrize("name", [i.name for i in IMAGES])
def test_never_sure_and_wrong(name: str) -> None:
    row = next(r for r in report().rows if r.name == name)
    assert not row.new.sure_but_wrong(report().tolerance), f"sure but {row.new.error:.2%} off"
    assert row.new.error is not None, f"no table found: {row.new.failure}"


def test_the_figures_hold() -> None:
    """Floors under the measured figures (README of the real set): a change that loses a table fails."""
    real, rendered = report().summary(True), report().summary(False)
    assert (real.images, rendered.images) == (6, 12)
    assert real.new_right >= 2 and rendered.new_right >= 8 and rendered.new_sure_right >= 5
    assert real.new_sure_but_wrong == 0 and rendered.new_sure_but_wrong == 0
    assert real.new_right > real.old_right and rendered.new_right > rendered.old_right


def test_the_camera_is_scored_beside_the_corners_found() -> None:
    """What the referee maps balls with: the camera's corners at the cloth. It differs from the corners found
    where the camera is fitted to others (a nose's height taken out, a catalogue table's shape)."""
    rows = [r for r in report().rows if r.new.error is not None]
    assert all(r.new.camera_error is not None for r in rows)
    rendered = report().summary(False)
    assert rendered.new_camera_right >= 9 and rendered.new_camera_sure_but_wrong <= 1
    arbiter_renders = [r for r in rows if r.name.startswith("arb-")]
    assert all(abs(r.new.camera_error - r.new.error) < 0.001 for r in arbiter_renders)  # type: ignore[operator]
    assert "its camera" in format_report(report())


@pytest.mark.parametrize(
    ("name", "sure"),
    [("arb-broadcast-green-40", True), ("arb-broadcast-red-35", True), ("pt-snooker-broadcast-b", False)],
)
def test_broadcast_views_with_the_near_cushion_hidden_or_the_far_face_seen_are_right(
    name: str, sure: bool
) -> None:
    """The score bar over the near cushion (its end placed from the baulk line, the middle pockets
    confirming it: sure) and pooltool's far cushion face (stepped over to the nose: still unsure), each
    right within 1 %."""
    row = next(r for r in report().rows if r.name == name)
    assert row.new.right(report().tolerance) and row.new.sure == sure, row


def test_the_report_prints_every_image_and_both_finders() -> None:
    text = format_report(report())
    assert all(i.name in text for i in IMAGES)
    assert "Real photos (6)" in text and "first finder" in text
    assert report().to_dict()["real"]["images"] == 6


def test_coloured_light_is_a_row_of_its_own_with_its_own_figures() -> None:
    """``--lights``: every image again under each light, scored and summed apart from the photos as shot."""
    image = next(i for i in IMAGES if i.name == "pt-pool-overhead-a")
    lit = evaluate_real_tables([image], lights=("as shot", "blue light"))
    assert [r.light for r in lit.rows] == ["as shot", "blue light"] == list(lit.lights)
    assert lit.summary(False, "blue light").images == 1 and lit.summary(False).images == 1
    assert lit.rows[1].new.sure and lit.rows[1].new.right(lit.tolerance)  # 0.87 %, sure, as shot too
    assert "Second-look renders (1, under blue light)" in format_report(lit)
    assert set(lit.to_dict()["lights"]) == {"as shot", "blue light"}  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown light 'green'"):
        evaluate_real_tables([image], lights=("green",))


def test_a_camera_frame_is_the_photo_scaled_and_compressed_with_its_corners() -> None:
    """``--long-side``: the hidden set's frames are 1280x720; a labelled phone photo is made one, its corners
    scaled with it, and the report says at what size it scored."""
    image = next(i for i in IMAGES if i.name == "snooker-small-phone-2")
    shot = image.load()
    framed, pixels = as_camera_frame(image, shot, 1280)
    assert max(pixels.shape[:2]) == 1280 and pixels.shape[2] == 3
    s = 1280 / max(shot.shape[:2])
    assert image.corners_px is not None and framed.corners_px is not None
    (x, y), (fx, fy) = image.corners_px["tl"], framed.corners_px["tl"]
    assert abs(fx - ((x + 0.5) * s - 0.5)) < 1e-9 and abs(fy - ((y + 0.5) * s - 0.5)) < 1e-9
    render = next(i for i in IMAGES if i.name == "pt-pool-overhead-a")
    report = evaluate_real_tables([render], long_side=960)
    assert report.long_side == 960 and report.rows[0].new.right(report.tolerance)
    assert "Second-look renders (1, as 960 px camera frames)" in format_report(report)
    with pytest.raises(ValueError, match="too small"):
        evaluate_real_tables([render], long_side=100)


def test_the_small_snooker_table_s_ends_are_told_by_its_baulk_line_in_a_1280_px_frame_under_blue_light() -> (
    None
):
    """The baulk line of the small snooker table is a thin dark line, and the corners found leave it tilted by
    a pixel or two across the top view: read as one row profile over the width it fell under the evidence
    that settles the ends (9.7), and the table was named the wrong way round (112 % off, unsure). Read along
    small shears of the view it is 16.6 (``table_geometry.marking_evidence``)."""
    image = next(i for i in IMAGES if i.name == "snooker-small-phone-2")
    row = evaluate_real_tables([image], lights=("blue light",), long_side=1280).rows[0]
    assert row.new.orientation == "markings" and row.new.right(TOLERANCE), row.new


def test_the_small_snooker_table_in_a_1280_px_frame_under_a_warm_ramp_keeps_the_tint_s_corners() -> None:
    """Both finders' passes raise no doubt: one colour's region takes the carpet over the top rail, and its
    top side runs 42 % along the frame's edge, 8.2 % off and sure; the tint's is 0.6 % off. The pass with
    less of its outline along the frame's edge is kept (``table_corners._plain_or_trend``)."""
    image = next(i for i in IMAGES if i.name == "snooker-small-phone-2")
    row = evaluate_real_tables([image], lights=("warm ramp",), long_side=1280).rows[0]
    assert row.new.right(TOLERANCE) and not row.new.sure_but_wrong(TOLERANCE), row.new


def test_a_side_carried_beyond_the_frame_where_the_frame_cut_the_cloth_is_a_doubt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under a warm ramp, with the cloth taken as one colour, the small snooker table's rail and the carpet
    at its top right take the cloth's colour: the top side runs along the frame's edge for 40 % of its
    outline and its line is carried 27 px beyond the frame, 9.8 % off. It was called sure; the side cut by
    the frame says so."""
    monkeypatch.setattr(cloth_colour, "TREND_GAIN", -1.0)  # the cloth of one colour, whatever its tint
    image = next(i for i in IMAGES if i.name == "snooker-small-phone-2")
    row = evaluate_real_tables([image], lights=("warm ramp",)).rows[0]
    assert not row.new.sure_but_wrong(TOLERANCE), row
    assert "cut_by_frame" in row.new.doubts


@pytest.mark.parametrize("name", ["snooker-small-phone-2", "pool-grey-overhead-game1"])
def test_a_cloth_whose_tint_runs_across_the_frame_is_followed_and_its_table_found(name: str) -> None:
    """The same photo under the warm ramp with the cloth's colour following the ramp's tint: the carpet,
    of the cloth's tinted colour but at the cloth's untinted end, is no cloth, and the table is found
    within 1 % (9.7 % and 21.5 % off with the cloth of one colour)."""
    image = next(i for i in IMAGES if i.name == name)
    row = evaluate_real_tables([image], lights=("warm ramp",)).rows[0]
    assert row.new.right(TOLERANCE), row


def test_the_corner_error_forgives_the_ends_only_when_asked() -> None:
    truth = {"bl": (0.0, 0.0), "br": (100.0, 0.0), "tr": (100.0, 200.0), "tl": (0.0, 200.0)}
    turned = {"bl": truth["tr"], "br": truth["tl"], "tr": truth["bl"], "tl": truth["br"]}
    assert corner_error(truth, truth, 2.0, either_end=False) == 0.0
    assert corner_error(turned, truth, 2.0, either_end=True) == 0.0
    assert corner_error(turned, truth, 2.0, either_end=False) == pytest.approx(np.hypot(0.5, 1.0))
    moved = dict(truth, tr=(100.0, 202.0))  # 2 px of a 200 px long table
    assert corner_error(moved, truth, 2.0, either_end=False) == pytest.approx(0.01)


def test_one_images_looks_as_one_cameras_photos_share_the_table_most_agree_on() -> None:
    """The small snooker table as shot and under a warm ramp, with and without printed markers: alone, the
    warm ramp with markers puts it 7.7 % off (unsure); as one camera's photos it takes the table the other
    three agree on, as `arbiter run FOLDER` would (``pipeline.fixed_camera``)."""
    table = next(i for i in IMAGES if i.name == "snooker-small-phone-2")
    looks = evaluate_real_tables([table], lights=("as shot", "warm ramp"), markers=True)
    astray = next(r for r in looks.rows if r.light == "warm ramp, printed markers")
    assert astray.new.error is not None and astray.new.error > TOLERANCE and not astray.new.sure
    assert astray.one_camera is not None and astray.one_camera.right(TOLERANCE)
    every = looks.summary(True, None)
    assert (every.images, every.one_camera_right, every.one_camera_sure_but_wrong) == (4, 4, 0)
    assert every.new_right == 3
    assert "each image's 2 looks one camera's photos" not in format_report(looks)
    assert "each image's 4 looks one camera's photos" in format_report(looks)
