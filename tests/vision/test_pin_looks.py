"""Five-pins pins read on their spots by the classical detector (``vision.pin_looks``), on rendered frames:
standing pins read standing, a fallen one missing, a pin under a ball keeps its reading, heads too small to
measure are not looked at, and a run says so."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from arbiter.games import billiards
from datasets.billiards.camera import Camera
from datasets.billiards.look import Look
from datasets.billiards.render import TableRenderer
from datasets.billiards.scene import BallState, PinState, SceneSample
from vision.calibration import calibrate_manual, named_points
from vision.detectors import build_detector
from vision.pin_looks import PinLookConfig, PinLooks

FIVE_PINS = billiards("five-pins")
TABLE = FIVE_PINS.table
SPOTS = {p.id: p.xy_mm for p in TABLE.pins}
W, H = 1280, 720


def _calibration(camera: Camera, size: tuple[int, int]):
    xyz = named_points(TABLE)
    corners = {
        n: tuple(float(v) for v in camera.project(np.array([xyz[n]]))[0]) for n in ("bl", "br", "tr", "tl")
    }
    return calibrate_manual(corners, TABLE, size)


@pytest.fixture(scope="module")
def world():
    camera = Camera.random(TABLE, W, H, np.random.default_rng(5))
    look = replace(Look.random(np.random.default_rng(105)), cue=None, arm=None)
    renderer = TableRenderer(FIVE_PINS, camera, look, seed=5)
    return camera, renderer, _calibration(camera, (W, H))


def _frame(renderer: TableRenderer, t: float, balls=(), down=()):
    pins = tuple(
        PinState(pid, xy if pid not in down else (xy[0] + 60.0, xy[1] + 40.0), pid in down, 0.7)
        for pid, xy in SPOTS.items()
    )
    return renderer.render([SceneSample(t, tuple(balls), pins)]).image


def _standing(pins) -> set[str]:
    ids = {tuple(np.round(xy, 3)): pid for pid, xy in SPOTS.items()}
    return {ids[tuple(np.round(xy, 3))] for xy in pins.standing_xy_mm}


def test_standing_pins_read_standing_and_a_fallen_one_missing(world) -> None:
    _, renderer, calib = world
    detector = build_detector("classical", FIVE_PINS, calib, (H, W, 3))
    assert detector.sees_pins
    far = BallState("white", (300.0, 400.0), False)
    for k in range(12):  # the pins learnt standing
        detector.detect(_frame(renderer, k / 60, [far]))
        assert _standing(detector.last_pins) == set(SPOTS)
    for k in range(12, 16):
        detector.detect(_frame(renderer, k / 60, [far], down=("pin:n",)))
        assert _standing(detector.last_pins) == set(SPOTS) - {"pin:n"}


def test_a_pin_under_a_ball_keeps_its_reading(world) -> None:
    _, renderer, calib = world
    looks = PinLooks.of(TABLE, calib, (H, W, 3))
    assert looks is not None
    on_pin = BallState("red", SPOTS["pin:e"], False)
    xy_px = calib.mm_to_px(np.array([SPOTS["pin:e"]]), TABLE.ball_radius_mm)
    r_px = calib.radius_px(np.array([SPOTS["pin:e"]]), TABLE.ball_radius_mm)
    for k in range(12):
        assert len(looks.look(_frame(renderer, k / 60), np.zeros((0, 2)), np.zeros(0)).xy_mm) == 5
    # The red over the east pin: the pin is down under it, but nothing can be read there while it covers it.
    covered = looks.look(_frame(renderer, 0.3, [on_pin], down=("pin:e",)), xy_px, r_px)
    assert len(covered.xy_mm) == 5
    gone = looks.look(_frame(renderer, 0.4, [], down=("pin:e",)), np.zeros((0, 2)), np.zeros(0))
    assert len(gone.xy_mm) == 4


def test_heads_too_small_to_measure_are_not_looked_at(world) -> None:
    camera, _, _ = world
    small = Camera.random(TABLE, 480, 270, np.random.default_rng(5))
    calib = _calibration(small, (480, 270))
    assert PinLooks.of(TABLE, calib, (270, 480, 3)) is None
    assert not build_detector("classical", FIVE_PINS, calib, (270, 480, 3)).sees_pins
    assert PinLooks.of(billiards("snooker").table, _calibration(camera, (W, H)), (H, W, 3)) is None


@pytest.mark.parametrize(
    "kwargs",
    [
        {"keep": 1.0},
        {"learn_frames": 0},
        {"follow": 1.0},
        {"ring": (0.0, 2.0)},
        {"slack_px": -1.0},
        {"min_ring_share": 0.0},
        {"min_head_px": 0.0},
    ],
)
def test_bad_pin_look_settings_are_refused(kwargs) -> None:
    with pytest.raises(ValueError, match="PinLookConfig"):
        PinLookConfig(**kwargs)
