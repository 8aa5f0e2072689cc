"""The renderer: deterministic frames, truth that matches the pixels, occluders, motion blur."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from arbiter.games import billiards
from datasets.billiards.camera import Camera
from datasets.billiards.look import ArmLook, CueLook, Look, LookRanges, Projector, RailMarkers
from datasets.billiards.render import (
    Stroke,
    TableRenderer,
    bench,
    bench_scene,
    exposure_times,
    jpeg_roundtrip,
    pocket_shapes,
)
from datasets.billiards.scene import BallState, PinState, SceneSample

W, H = 960, 540
FPS = 30.0


def quiet_look() -> Look:
    """No noise and no occluders: pixels can be checked against the truth."""
    return replace(Look(), noise_sigma=0.0, cue=None, arm=None)


@pytest.fixture(scope="module")
def snooker():
    table = billiards("snooker").table
    camera = Camera.random(table, W, H, np.random.default_rng(0))
    return table, camera, tuple(bench_scene(table))


@pytest.fixture(scope="module")
def quiet(snooker) -> TableRenderer:
    _, camera, _ = snooker
    return TableRenderer(billiards("snooker"), camera, quiet_look(), seed=1)


def _scene(balls, t: float = 0.0) -> list[SceneSample]:
    return [SceneSample(t, tuple(balls))]


def test_same_seed_gives_identical_frames_and_different_seed_differs(snooker) -> None:
    _, camera, balls = snooker
    look = Look.random(np.random.default_rng(5))
    a = TableRenderer(billiards("snooker"), camera, look, seed=3).render(_scene(balls, 0.4))
    b_renderer = TableRenderer(billiards("snooker"), camera, look, seed=3)
    b_renderer.render(_scene(balls, 2.0))  # call history must not matter
    b = b_renderer.render(_scene(balls, 0.4))
    c = TableRenderer(billiards("snooker"), camera, look, seed=4).render(_scene(balls, 0.4))
    assert a.image.dtype == np.uint8 and a.image.shape == (H, W, 3)
    assert np.array_equal(a.image, b.image)
    assert a.objects == b.objects
    assert not np.array_equal(a.image, c.image)


def test_truth_matches_the_camera(quiet: TableRenderer, snooker) -> None:
    table, camera, balls = snooker
    frame = quiet.render(_scene(balls))
    assert {o.id for o in frame.objects} == set(billiards("snooker").balls)
    by_id = {b.id: b for b in balls}
    r = table.ball_radius_mm
    for o in frame.objects:
        x0, y0, x1, y1 = o.box_px
        cx, cy = o.xy_px
        assert x0 < cx < x1 and y0 < cy < y1
        expected = camera.project(np.array([[*by_id[o.id].xy_mm, r]]))[0]
        assert np.allclose(o.xy_px, expected)
        assert o.radius_px == pytest.approx(
            float(camera.radius_px(np.array([[*by_id[o.id].xy_mm, r]]), r)[0])
        )
        assert x1 - x0 == pytest.approx(2 * o.radius_px, rel=0.15)
        assert o.cls == billiards("snooker").look(o.id).cls
        assert not o.hidden and o.visible_fraction == 1.0


def _colour_distance(pixel_rgb: np.ndarray, rgb: tuple[int, int, int], gain: float) -> float:
    """Distance to the nearest shade of ``rgb`` a lit sphere can show at its centre."""
    ref = np.array(rgb, dtype=np.float64) * gain
    return min(float(np.linalg.norm(pixel_rgb - s * ref)) for s in np.linspace(0.4, 1.2, 33))


def test_pixel_at_ball_centre_has_the_ball_colour(quiet: TableRenderer, snooker) -> None:
    _, _, balls = snooker
    frame = quiet.render(_scene(balls))
    kinds = {billiards("snooker").look(bid).rgb for bid in billiards("snooker").balls}
    for o in frame.objects:
        x, y = round(o.xy_px[0]), round(o.xy_px[1])
        pixel = frame.image[y, x, ::-1].astype(np.float64)
        g = float(quiet.gain[y, x])
        own = billiards("snooker").look(o.id).rgb
        d_own = _colour_distance(pixel, own, g)
        assert all(d_own < _colour_distance(pixel, rgb, g) for rgb in kinds - {own}), o.id


def test_background_pockets_are_dark_and_the_bed_is_cloth(quiet: TableRenderer, snooker) -> None:
    table, camera, _ = snooker
    bg = quiet.background
    cloth = np.array(quiet.look.cloth_rgb[::-1], dtype=np.float64)
    for pocket in table.pockets:
        _, centre, _ = pocket_shapes(table, pocket)
        x, y = camera.project(np.array([[*centre, 0.0]]))[0]
        assert bg[round(y), round(x)].max() < 40, pocket.id
    for xy in ((table.width_mm / 2, table.length_mm / 3), (300.0, 2500.0)):
        x, y = camera.project(np.array([[*xy, 0.0]]))[0]
        pixel = bg[round(y), round(x)].astype(np.float64)
        g = float(quiet.gain[round(y), round(x)])
        assert np.linalg.norm(pixel - cloth * g) < 25


def test_ball_off_the_table_is_neither_drawn_nor_listed(quiet: TableRenderer, snooker) -> None:
    _, _, balls = snooker
    potted = [replace(b, on_table=False, pocket="tr") if b.id == "black" else b for b in balls]
    without = [b for b in balls if b.id != "black"]
    a = quiet.render(_scene(potted))
    b = quiet.render(_scene(without))
    assert "black" not in {o.id for o in a.objects}
    assert np.array_equal(a.image, b.image)
    assert not np.array_equal(a.image, quiet.render(_scene(balls)).image)


def test_arm_over_a_ball_hides_it(snooker) -> None:
    table, camera, balls = snooker
    target = next(b for b in balls if b.id == "blue")
    u, v = target.xy_mm[0] / table.width_mm, target.xy_mm[1] / table.length_mm
    arm = ArmLook(0.2, 0.6, "left", (u, v), 100.0, 250.0, 0.2, (24, 24, 28), (214, 160, 120))
    renderer = TableRenderer(billiards("snooker"), camera, replace(quiet_look(), arm=arm), seed=1, clip_s=2.0)
    during = {o.id: o for o in renderer.render(_scene(balls, 1.0)).objects}
    assert during["blue"].hidden and during["blue"].visible_fraction < 0.5
    assert not during["black"].hidden
    before = {o.id: o for o in renderer.render(_scene(balls, 0.1)).objects}
    assert not before["blue"].hidden and before["blue"].visible_fraction == 1.0


def test_cue_stick_is_there_before_the_strike_and_gone_after_withdrawing(
    quiet: TableRenderer, snooker
) -> None:
    _, camera, balls = snooker
    white = next(b for b in balls if b.id == "white")
    cue = CueLook()
    look = replace(quiet_look(), cue=cue)
    stroke = Stroke(1.0, white.xy_mm, math.pi / 2)
    with_cue = TableRenderer(billiards("snooker"), camera, look, seed=1, stroke=stroke)
    before = with_cue.render(_scene(balls, 0.5)).image
    assert not np.array_equal(before, quiet.render(_scene(balls, 0.5)).image)
    after = with_cue.render(_scene(balls, 1.0 + cue.withdraw_s + 0.1)).image
    assert np.array_equal(after, quiet.render(_scene(balls, 1.0 + cue.withdraw_s + 0.1)).image)


def _footprint(image: np.ndarray, background: np.ndarray) -> tuple[int, np.ndarray]:
    changed = np.abs(image.astype(np.int16) - background.astype(np.int16)).max(axis=2) > 12
    ys, xs = np.nonzero(changed)
    return int(changed.sum()), np.array([xs.max() - xs.min(), ys.max() - ys.min()])


def test_motion_blur_spreads_a_moving_ball_along_its_path(quiet: TableRenderer, snooker) -> None:
    table, camera, _ = snooker
    speed = 3000.0  # mm/s along +y
    start = (table.width_mm / 2, table.length_mm / 2)

    def at(t: float) -> SceneSample:
        return SceneSample(t, (BallState("red:1", (start[0], start[1] + speed * t), True),))

    times = exposure_times(0.1, FPS, 0.8, 3)
    sharp = quiet.render([at(0.1)])
    blurred = quiet.render([at(t) for t in times])
    assert sharp.objects == blurred.objects  # truth is the middle sample either way
    n_sharp, ext_sharp = _footprint(sharp.image, quiet.background)
    n_blur, ext_blur = _footprint(blurred.image, quiet.background)
    ends = camera.project(np.array([[*at(t).balls[0].xy_mm, 0.0] for t in (times[0], times[-1])]))
    travel = np.abs(ends[1] - ends[0])  # image motion between the first and last samples
    assert n_blur > n_sharp
    axis = int(np.argmax(travel))
    assert ext_blur[axis] >= ext_sharp[axis] + 0.7 * travel[axis]
    assert ext_blur[1 - axis] <= ext_sharp[1 - axis] + 2


def test_pins_are_drawn_and_listed() -> None:
    table = billiards("five-pins").table
    camera = Camera.random(table, W, H, np.random.default_rng(2))
    renderer = TableRenderer(billiards("five-pins"), camera, quiet_look(), seed=0)
    pins = tuple(PinState(p.id, p.xy_mm, down=p.id == "pin:n", fall_angle_rad=0.5) for p in table.pins)
    balls = (BallState("white", (300.0, 400.0), False),)
    frame = renderer.render([SceneSample(0.0, balls, pins)])
    classes = {o.id: o.cls for o in frame.objects}
    assert classes["pin:n"] == "pin_down"
    assert classes["pin:c"] == "pin_standing"
    assert len(frame.objects) == 1 + len(table.pins)
    centre = next(o for o in frame.objects if o.id == "pin:c")
    x, y = round(centre.xy_px[0]), round(centre.xy_px[1])
    pixel = frame.image[y, x].astype(int)
    assert pixel[2] > pixel[1] + 40  # the red centre pin


def test_bad_input_raises(snooker) -> None:
    _, camera, _ = snooker
    renderer = TableRenderer(billiards("snooker"), camera, quiet_look(), seed=0)
    with pytest.raises(ValueError, match="no ball"):
        renderer.render(_scene([BallState("cue", (100.0, 100.0), False)]))
    with pytest.raises(ValueError, match="at least one"):
        renderer.render([])
    with pytest.raises(ValueError, match="snooker has no pin 'pin:c'"):
        renderer.render([SceneSample(0.0, (), (PinState("pin:c", (100.0, 100.0)),))])


def test_exposure_times_are_centred_slices() -> None:
    times = exposure_times(1.0, 25.0, 0.5, 3)
    assert times[1] == pytest.approx(1.0)
    assert times[2] - times[0] == pytest.approx(0.5 / 25.0 * 2 / 3)
    with pytest.raises(ValueError):
        exposure_times(1.0, 25.0, 1.5, 3)


def test_jpeg_roundtrip(quiet: TableRenderer) -> None:
    image = quiet.background.copy()
    out = jpeg_roundtrip(image, 60)
    assert out.shape == image.shape and out.dtype == np.uint8
    assert 0 < np.abs(out.astype(int) - image).mean() < 5
    with pytest.raises(ValueError):
        jpeg_roundtrip(image, 0)


def test_look_round_trips_through_json() -> None:
    for seed in range(20):
        look = Look.random(np.random.default_rng(seed))
        assert Look.from_dict(json.loads(json.dumps(look.to_dict()))) == look
    assert Look.random(np.random.default_rng(1)) == Look.random(np.random.default_rng(1))
    with pytest.raises(ValueError, match="unknown"):
        Look.from_dict({"colour": 1})
    with pytest.raises(ValueError, match="exposure"):
        replace(Look(), exposure=0.0)


def test_a_projector_and_rail_markers_round_trip_and_leave_a_classic_draw_alone() -> None:
    wide = LookRanges(projector_probability=1.0, rail_markers_probability=1.0)
    for seed in range(10):
        look = Look.random(np.random.default_rng(seed), wide)
        assert look.projector is not None and look.rail_markers is not None
        assert Look.from_dict(json.loads(json.dumps(look.to_dict()))) == look
        # Drawn after everything else: the rest of the room is the classic draw of the same seed.
        classic = Look.random(np.random.default_rng(seed))
        assert replace(look, projector=None, rail_markers=None) == classic
    with pytest.raises(ValueError, match="positive"):
        Projector((1.0, 0.0, 1.0), (1.0, 1.0, 1.0), 0.0)
    with pytest.raises(ValueError, match="cells"):
        RailMarkers(4, 50.0, cells=1)


def test_a_projectors_cast_falls_on_cloth_and_balls_and_ramps_across_the_frame(snooker) -> None:
    _, camera, balls = snooker
    bluish = Projector((0.7, 0.9, 1.25), (1.0, 1.0, 1.0), angle_deg=0.0)  # blue at the left, none at right
    plain = TableRenderer(billiards("snooker"), camera, quiet_look(), seed=1).render(_scene(balls))
    lit = TableRenderer(billiards("snooker"), camera, replace(quiet_look(), projector=bluish), seed=1).render(
        _scene(balls)
    )
    assert lit.objects == plain.objects  # light changes no truth
    ratio = (lit.image.astype(float) + 1) / (plain.image.astype(float) + 1)
    left, right = ratio[:, : W // 8].reshape(-1, 3).mean(0), ratio[:, -W // 8 :].reshape(-1, 3).mean(0)
    assert left[0] > 1.1 and left[2] < 0.8  # BGR: more blue, less red at the left
    assert np.allclose(right, 1.0, atol=0.08)
    white = next(o for o in plain.objects if o.id == "white")
    x, y = (round(v) for v in white.xy_px)
    b, _, r = lit.image[y, x].astype(int)
    assert b > r  # the white ball takes the cast too


def test_rail_markers_are_printed_on_the_rails_not_the_cloth(snooker) -> None:
    _, camera, _ = snooker
    table = billiards("snooker").table
    look = replace(quiet_look(), rail_markers=RailMarkers(8, 60.0))
    plain = TableRenderer(billiards("snooker"), camera, quiet_look(), seed=1).background
    marked = TableRenderer(billiards("snooker"), camera, look, seed=1).background
    changed = np.abs(marked.astype(int) - plain.astype(int)).max(axis=2) > 40
    assert changed.sum() > 8 * 50  # eight markers of some pixels each
    w, length = table.width_mm, table.length_mm
    bed = camera.project(np.array([[0, 0, 0], [w, 0, 0], [w, length, 0], [0, length, 0]], float))
    inside = np.zeros(changed.shape, np.uint8)
    cv2.fillPoly(inside, [np.round(bed).astype(np.int32)], 1)
    inside = cv2.erode(inside, np.ones((5, 5), np.uint8))  # the bed, its antialiased edge left out
    assert not changed[inside > 0].any()


def test_bench_reports_all_rates() -> None:
    result = bench(width=320, height=180, frames=3, seed=0)
    assert set(result) == {"renderer_fps", "renderer_blur_fps", "naive_fps", "width", "height"}
    assert result["renderer_fps"] > result["naive_fps"] > 0
