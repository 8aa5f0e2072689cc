"""The table one still camera's photos agree on (``pipeline.fixed_camera``): the most photos within a
percent of each other, more than agree anywhere else; a photo's own sure calibration elsewhere kept; a
video's frames agreeing under one light count once."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from arbiter.games import billiards
from pipeline.fixed_camera import agreed_view, chosen_for, each_photos_table, lights_agreeing
from vision.calibration import TableCalibration, calibrate_manual
from vision.table_verdict import CalibrationVerdict, Doubt, Reason

TABLE = billiards("snooker").table
SIZE = (1280, 720)
CORNERS = {"bl": (200.0, 620.0), "br": (1080.0, 620.0), "tr": (1080.0, 100.0), "tl": (200.0, 100.0)}


def _calib(dx: float = 0.0, sure: bool = False) -> TableCalibration:
    """A calibration with its corners moved ``dx`` px to the right (the table is ~880 px long here)."""
    calib = calibrate_manual({k: (x + dx, y) for k, (x, y) in CORNERS.items()}, TABLE, SIZE)
    doubts = () if sure else (Reason(Doubt.SHAPE, "a test's doubt"),)
    return replace(calib, verdict=CalibrationVerdict(doubts))


def test_the_most_photos_within_a_percent_agree_on_the_table():
    right, near, off = _calib(), _calib(3.0), _calib(60.0)
    agreed = agreed_view([off, right, None, near])
    assert agreed is not None and agreed.calib in (right, near)
    assert (agreed.agreeing, agreed.tried) == (2, 4)


def test_no_agreement_between_two_photos_that_differ_or_as_many_elsewhere():
    assert agreed_view([_calib(), _calib(60.0)]) is None
    assert agreed_view([_calib(), _calib(2.0), _calib(60.0), _calib(62.0)]) is None
    assert agreed_view([_calib()]) is None
    assert agreed_view([None, None]) is None


def test_a_sure_calibration_is_preferred_among_those_that_agree():
    plain, sure = _calib(), _calib(2.0, sure=True)
    agreed = agreed_view([plain, sure, _calib(60.0)])
    assert agreed is not None and agreed.calib is sure


def test_of_the_photos_that_agree_one_naming_the_size_most_name_stands_for_them():
    """One look's calibration puts the corners within 1 % of the others' but names another table, with as
    many doubts and a smaller residual: the size most of the agreeing photos name is the camera's."""
    own = [_calib(dx) for dx in (0.0, 1.0, 2.0)]
    other = replace(_calib(1.0), table=TABLE.resized("10ft"), reprojection_error_px=0.0)
    agreed = agreed_view([other, *own])
    assert agreed is not None and agreed.calib in own and agreed.agreeing == 4


def test_a_photo_takes_its_cameras_table_unless_its_own_is_sure_and_elsewhere():
    agreed = agreed_view([_calib(), _calib(2.0), _calib(1.0)])
    assert agreed is not None
    assert chosen_for(None, agreed) is agreed.calib  # no table found in it alone
    assert chosen_for(_calib(60.0), agreed) is agreed.calib  # unsure and elsewhere: led astray
    moved = _calib(60.0, sure=True)
    assert chosen_for(moved, agreed) is moved  # sure and elsewhere: the camera may have moved
    own = _calib(40.0)
    assert chosen_for(own, None) is own


def test_every_photo_of_a_camera_calibrated_takes_the_table_they_agree_on():
    astray, moved = _calib(60.0), _calib(80.0, sure=True)
    own = [_calib(), _calib(2.0), astray, None, moved]
    tables = each_photos_table(own)
    agreed = agreed_view(own)
    assert agreed is not None
    assert tables == [agreed.calib, agreed.calib, agreed.calib, agreed.calib, moved]
    assert each_photos_table([astray, None]) == [astray, None]  # no agreement: each its own


def test_agreement_across_lights_counts_each_light_once():
    """Three frames under one light agreeing are one look; two frames under two lights agreeing are two."""
    near, far = _calib(), _calib(60.0)
    grey, warm = np.array([100.0, 100.0, 100.0]), np.array([70.0, 90.0, 120.0])
    calibs = [far, far, far, near, near]
    lights = lights_agreeing(calibs, [grey, grey * 1.01, grey * 0.99, grey, warm])
    assert lights == [1, 1, 1, 2, 2]
