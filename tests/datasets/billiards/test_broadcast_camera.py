"""The broadcast camera (behind one end of the table), the near cushions it sees in front of the balls, and
the variety of cameras and rooms the synthetic world and the detector's training set draw from."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from arbiter.games import billiards
from datasets.billiards.camera import BroadcastRanges, Camera, broadcast_camera
from datasets.billiards.detector_data import DatasetRecipe
from datasets.billiards.look import Look, ScoreBar
from datasets.billiards.render import TableRenderer
from datasets.billiards.render.foreground import near_cushion_mask
from datasets.billiards.scene import BallState, SceneSample
from datasets.billiards.variety import CLASSIC, VARIETIES, WIDE, Variety

SIZE = (1280, 720)
SEEDS = (0, 1, 2, 3)


def _broadcast(seed: int, game: str = "snooker", ranges: BroadcastRanges | None = None) -> Camera:
    return broadcast_camera(billiards(game).table, *SIZE, np.random.default_rng(seed), ranges)


@pytest.mark.parametrize("game", ["snooker", "straight-pool", "five-pins"])
@pytest.mark.parametrize("seed", SEEDS)
def test_broadcast_camera_fills_the_frame_with_the_long_axis_up_the_image(game: str, seed: int) -> None:
    table = billiards(game).table
    cam = _broadcast(seed, game)
    w, h = SIZE
    corners = np.array([[x, y, 0.0] for x in (0.0, table.width_mm) for y in (0.0, table.length_mm)])
    px = cam.project(corners)
    assert np.all(px >= -1) and np.all(px[:, 0] <= w) and np.all(px[:, 1] <= h)
    span = px.max(axis=0) - px.min(axis=0)
    assert max(span[0] / w, span[1] / h) > 0.75  # the table fills the frame one way or the other
    a, b = px[3] - px[0], px[1] - px[2]  # diagonals: corners (0,0) (0,L) (W,0) (W,L)
    area = 0.5 * abs(a[0] * b[1] - a[1] * b[0])
    assert area > 0.15 * w * h
    mid_x = table.width_mm / 2
    ends = cam.project(np.array([[mid_x, 0.0, 0.0], [mid_x, table.length_mm, 0.0]]))
    d = np.abs(ends[1] - ends[0])
    assert d[1] > 3 * d[0]  # the long axis runs up the image
    near = 0.0 if cam.centre_mm[1] < 0 else table.length_mm
    far = table.length_mm - near
    width_at = [
        np.linalg.norm(np.subtract(*cam.project(np.array([[0.0, y, 0.0], [table.width_mm, y, 0.0]]))))
        for y in (near, far)
    ]
    assert width_at[0] > 1.15 * width_at[1]  # perspective: the near end is the larger
    assert cam.centre_mm[2] > 1000 and not 0 <= cam.centre_mm[1] <= table.length_mm


def test_broadcast_camera_can_stand_behind_either_end() -> None:
    behind_bottom = [_broadcast(s).centre_mm[1] < 0 for s in range(12)]
    assert any(behind_bottom) and not all(behind_bottom)
    always_bottom = BroadcastRanges(far_end_probability=0.0)
    assert all(_broadcast(s, ranges=always_bottom).centre_mm[1] < 0 for s in range(4))


@pytest.mark.parametrize("seed", SEEDS)
def test_overhead_cameras_have_no_near_cushion(seed: int) -> None:
    table = billiards("snooker").table
    cam = Camera.random(table, *SIZE, np.random.default_rng(seed))
    assert near_cushion_mask(table, cam) is None


def test_near_cushion_hides_the_balls_against_it_in_the_truth() -> None:
    spec = billiards("snooker")
    table = spec.table
    ranges = BroadcastRanges(tilt_deg=(64.0, 66.0), far_end_probability=0.0, side_deg=0.0, yaw_deg=0.0)
    cam = broadcast_camera(table, *SIZE, np.random.default_rng(4), ranges)
    mask = near_cushion_mask(table, cam)
    assert mask is not None and mask.any()
    r = table.ball_radius_mm
    balls = (
        BallState("red:1", (table.width_mm * 0.3, r + 0.5), False),  # against the near (bottom) cushion
        BallState("red:2", (table.width_mm * 0.5, table.length_mm / 2), False),  # in the open
        BallState(
            "red:3", (table.width_mm * 0.7, table.length_mm - r - 0.5), False
        ),  # against the far cushion
    )
    look = replace(Look(), noise_sigma=0.0, cue=None, arm=None)
    renderer = TableRenderer(spec, cam, look, seed=1)
    frame = renderer.render([SceneSample(0.0, balls)])
    seen = {o.id: o for o in frame.objects}
    assert seen["red:1"].visible_fraction < 0.9  # the near cushion's top covers its lower part
    assert seen["red:2"].visible_fraction == 1.0 and not seen["red:2"].hidden
    assert seen["red:3"].visible_fraction == 1.0  # a far cushion is behind the ball, never in front
    # Where the near cushion is in front, the pixels are the empty table's.
    assert np.array_equal(frame.image[mask], renderer.background[mask])


def test_classic_variety_draws_exactly_the_old_cameras_and_rooms() -> None:
    table = billiards("snooker").table
    for seed in SEEDS:
        old = Camera.random(table, *SIZE, np.random.default_rng(seed))
        assert CLASSIC.camera(table, *SIZE, np.random.default_rng(seed)) == old
        assert CLASSIC.room(np.random.default_rng(seed)) == Look.random(np.random.default_rng(seed))


def test_wide_variety_draws_broadcast_and_overhead_cameras() -> None:
    table = billiards("snooker").table
    cams = [WIDE.camera(table, *SIZE, np.random.default_rng(s)) for s in range(20)]
    behind = [not 0 <= c.centre_mm[1] <= table.length_mm for c in cams]
    assert 0 < sum(behind) < len(cams)
    assert VARIETIES["wide"] is WIDE
    with pytest.raises(ValueError, match="broadcast_share"):
        Variety(broadcast_share=1.5)


def test_dataset_recipe_records_its_variety() -> None:
    recipe = DatasetRecipe()
    assert recipe.variety == "wide"
    record = json.loads(json.dumps(recipe.to_dict()))
    assert record["variety_ranges"]["broadcast_share"] == WIDE.broadcast_share
    assert record["variety_ranges"]["name"] == "wide"
    with pytest.raises(ValueError, match="unknown variety 'studio'"):
        DatasetRecipe(variety="studio")


def test_a_score_bar_is_drawn_over_the_frame_and_hides_the_balls_under_it() -> None:
    spec = billiards("snooker")
    table = spec.table
    cam = Camera.random(table, *SIZE, np.random.default_rng(0))
    bar = ScoreBar((0.0, 0.0, 1.0, 0.5), (16, 16, 18), 1.0, "ALPHA 12 (40) 3 BRAVO")
    look = replace(Look(), noise_sigma=0.0, cue=None, arm=None, score_bar=bar)
    assert Look.from_dict(json.loads(json.dumps(look.to_dict()))) == look
    r = table.ball_radius_mm
    balls = tuple(
        BallState(f"red:{i + 1}", (table.width_mm * f, table.length_mm / 2), False)
        for i, f in enumerate((0.1, 0.9))
    )
    frame = TableRenderer(spec, cam, look, seed=1).render([SceneSample(0.0, balls)])
    ys = {o.id: o.xy_px[1] for o in frame.objects}
    hidden = {o.id: o.hidden for o in frame.objects}
    for bid, y in ys.items():
        assert hidden[bid] == (y < 0.5 * SIZE[1] - r)  # under the bar: hidden; below it: seen
    top = frame.image[: SIZE[1] // 2 - 2]
    assert (np.abs(top.astype(int) - [18, 16, 16]).max(axis=2) < 2).mean() > 0.7  # the bar, but for its text


def test_wide_looks_draw_score_bars_and_classic_looks_none() -> None:
    wide = [WIDE.room(np.random.default_rng(s)).score_bar for s in range(24)]
    assert 0 < sum(b is not None for b in wide) < len(wide)
    assert all(CLASSIC.room(np.random.default_rng(s)).score_bar is None for s in range(24))
