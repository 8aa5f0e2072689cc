"""The classical ball detector against the synthetic world's truth: settings, a rendered rack of touching
reds, and one generated shot per game scored frame by frame (``evaluation.detection``)."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import billiards
from datasets.billiards.camera import Camera
from datasets.billiards.look import Look
from datasets.billiards.render import TableRenderer, bench_scene
from datasets.billiards.scene import BallState, SceneSample
from datasets.billiards.synth import SynthConfig, synth_billiards
from evaluation.detection import (
    ball_radius_from_camera,
    evaluate_on_clip,
    jaws_from_camera,
    table_mask_from_camera,
)
from vision.calibration import calibrate_auto
from vision.camera_profile import TableCalibration
from vision.classical import ClassicalConfig, ClassicalDetector
from vision.classical.streaks import StreakConfig
from vision.cloth import ClothConfig, ClothModel, classify, score_patches
from vision.detectors import build_detector

W, H = 960, 540
SNOOKER = billiards("snooker")


# ------------------------------------------------------------------------------------------------ settings
@pytest.mark.parametrize(
    "kwargs",
    [
        {"coarse_radius_px": 1.0},
        {"coarse_radius_px": 8.0},  # coarser than the fine level
        {"fine_radius_px": 12.0},  # finer than the cluster level
        {"min_coverage": 0.0},
        {"min_cluster_coverage": 1.0},
        {"min_seed_coverage": -0.1},
        {"opening": 1.2},
        {"mask_margin": -1.0},
        {"centre_inset": 1.5},
        {"min_separation": 0.2},
        {"min_edge": -0.1},
        {"min_outline": -0.1},
        {"min_seed_outline": -0.1},
        {"min_seed_glint": -1.0},
        {"min_tinted_edge": 0.4},  # above max_tinted_edge
        {"min_tinted_coherence": 1.0},
        {"min_jaw_edge": -0.1},
        {"min_jaw_outline": -0.1},
        {"jaw_reach": -1.0},
        {"min_glint": -1.0},
        {"glint_room": -0.5},
        {"glint_room_colour": 1.5},
        {"min_coherence": 1.0},
        {"min_cluster_coherence": 0.0},
        {"plain_outline": -0.1},
        {"highlight_share": 1.0},
        {"white_luma": 0.0},
        {"colour_scale": 0.0},
    ],
)
def test_bad_detector_settings_raise(kwargs) -> None:
    with pytest.raises(ValueError):
        ClassicalConfig(**kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"chroma": 0.0},
        {"bright": 0.9},
        {"min_bright": 1.0},  # no brighter than the cloth
        {"min_bright": 1.5},  # above bright
        {"headroom": 0.0},
        {"dark": 0.9},  # darker than the shadow bound
        {"cell_px": 1},
        {"min_cell_share": 0.0},
        {"update_rate": 1.5},
        {"learn_every": 0},
    ],
)
def test_bad_cloth_settings_raise(kwargs) -> None:
    with pytest.raises(ValueError):
        ClothConfig(**kwargs)


def test_a_ball_brighter_than_a_bright_cloth_is_foreground_as_far_as_the_sensor_lets_it_be() -> None:
    """A pale cloth exposed near the sensor's top (215 of 255 in every channel) leaves a white only 1.19
    times brighter than it, short of ``ClothConfig.bright`` (1.35): a clipped white was cloth. It is
    foreground now, half the way to white being enough; the cloth's grain is not, and on a cloth with room
    above it (120) nothing changes: 1.2 times the cloth is still cloth."""
    cfg = ClothConfig()
    for level, pixel, foreground in (
        (215.0, 255.0, True),  # a clipped white on a bright cloth
        (215.0, 222.0, False),  # the cloth's grain (1.03 times)
        (120.0, 144.0, False),  # 1.2 times a cloth with room: not enough, as ever
        (120.0, 170.0, True),  # 1.42 times it
    ):
        image = np.full((4, 4, 3), pixel, np.float32)
        field = np.full((4, 4, 3), level, np.float32)
        fg = classify(image, field, np.full((4, 4), 3 * level * level, np.float32), cfg)
        assert bool(fg.mask.all()) is foreground, (level, pixel)
        score, _ = score_patches(image[None], field[:1, 0], cfg)
        assert bool((score >= 1.0).all()) is foreground, (level, pixel)


def test_a_bright_cloth_learns_its_lamps_pool_and_still_finds_a_clipped_white() -> None:
    """A pale cloth exposed at 190 of 255, a lamp's pool over a quarter of it 1.24 times brighter, a white
    ball clipped at 255 (1.34 times the cloth) elsewhere. The white is foreground (the sensor's room: 1.17
    times the cloth is enough here), and the pool is cloth: learnt from the first guess against ``bright``
    alone, not called foreground by the room and left out of the field."""
    h, w = 120, 200
    image = np.full((h, w, 3), 190.0, np.float32)
    image[10:60, 20:90] = 235.0  # the lamp's pool
    yy, xx = np.mgrid[:h, :w]
    white = (xx - 150) ** 2 + (yy - 90) ** 2 <= 2.5**2
    image[white] = 255.0
    fg = ClothModel(np.ones((h, w), np.uint8), ClothConfig()).update(image)
    assert fg.mask[white].all(), "the clipped white is cloth"
    assert not fg.mask[15:55, 25:85].any(), "the lamp's pool is foreground"


@pytest.mark.parametrize(
    ("game", "radius", "mask"),
    [
        ("carom", 6.0, None),
        ("snooker", float("nan"), None),
        ("snooker", 1.0, None),
        ("snooker", 6.0, np.zeros((H, W), np.uint8)),
        ("snooker", 6.0, np.ones((H, W, 3), np.uint8)),
    ],
)
def test_bad_detector_arguments_raise(game, radius, mask) -> None:
    with pytest.raises(ValueError):
        ClassicalDetector(billiards(game), radius, mask)


def test_bad_images_raise() -> None:
    detector = ClassicalDetector(billiards("snooker"), 6.0, np.ones((H, W), np.uint8))
    with pytest.raises(ValueError):
        detector.detect(np.zeros((H, W), np.uint8))
    with pytest.raises(ValueError):
        detector.detect(np.zeros((H, W, 3), np.float32))
    with pytest.raises(ValueError, match="table_mask"):
        detector.detect(np.zeros((H // 2, W // 2, 3), np.uint8))


# ------------------------------------------------------------------------------------------------ a rack
@pytest.fixture(scope="module")
def bench():
    """The renderer's bench scene: colours on their spots, the white in the D and fifteen touching reds
    racked behind the pink. Quiet room (no cue, no arm), seeded cloth and light."""
    table = billiards("snooker").table
    camera = Camera.random(table, W, H, np.random.default_rng(3))
    look = replace(Look.random(np.random.default_rng(103)), cue=None, arm=None)
    renderer = TableRenderer(SNOOKER, camera, look, seed=3)
    frames = [renderer.render([SceneSample(i / 30.0, tuple(bench_scene(table)))]) for i in range(3)]
    mask = table_mask_from_camera(camera, table)
    return table, camera, renderer, frames, mask


def _match(xy: np.ndarray, truth: np.ndarray, radius: np.ndarray) -> dict[int, int]:
    """Truth index -> detection index, nearest within the true radius."""
    out = {}
    for j, (t, r) in enumerate(zip(truth, radius, strict=True)):
        d = np.linalg.norm(xy - t, axis=1) if len(xy) else np.array([])
        if len(d) and d.min() <= r:
            out[j] = int(d.argmin())
    return out


def test_a_rack_of_touching_reds_is_split_and_every_ball_named(bench) -> None:
    _, camera, _, frames, mask = bench
    detector = ClassicalDetector(billiards("snooker"), ball_radius_from_camera(camera, SNOOKER.table), mask)
    for rendered in frames:
        found = detector.detect(rendered.image)
    objects = [o for o in frames[-1].objects if not o.hidden]
    truth = np.array([o.xy_px for o in objects])
    matched = _match(found.xy_px, truth, np.array([o.radius_px for o in objects]))
    missed = [objects[j].id for j in range(len(objects)) if j not in matched]
    assert not missed, f"missed {missed} of {len(objects)} balls"
    assert len(found) == len(objects), f"{len(found)} detections for {len(objects)} balls"
    named = {objects[j].id: found.class_names[i] for j, i in matched.items()}
    wrong = {b: n for b, n in named.items() if n != objects[[o.id for o in objects].index(b)].cls}
    assert not wrong, f"misnamed: {wrong}"
    error = np.median([np.linalg.norm(found.xy_px[i] - truth[j]) for j, i in matched.items()])
    assert error < 0.5, f"median centre error {error:.2f} px: sub-pixel expected"


def test_detections_are_well_formed(bench) -> None:
    _, camera, _, frames, mask = bench
    radius = ball_radius_from_camera(camera, SNOOKER.table)
    found = ClassicalDetector(billiards("snooker"), radius, mask).detect(frames[0].image)
    assert len(found) > 0
    assert np.all((found.confidence >= 0) & (found.confidence <= 1))
    assert np.all(np.isnan(found.xy_mm)), "xy_mm is the calibration's to fill"
    assert np.allclose(found.radius_px, radius)
    allowed = {"white", "red", "yellow", "green", "brown", "blue", "pink", "black"}
    assert set(found.class_names) <= allowed


def test_an_empty_table_has_no_balls(bench) -> None:
    _, camera, renderer, _, mask = bench
    detector = ClassicalDetector(billiards("snooker"), ball_radius_from_camera(camera, SNOOKER.table), mask)
    for i in range(3):
        found = detector.detect(renderer.render([SceneSample(i / 30.0, ())]).image)
        assert len(found) == 0, f"frame {i}: {len(found)} detections on an empty table at {found.xy_px}"


def test_without_a_mask_the_cloth_is_found(bench) -> None:
    _, camera, _, frames, _ = bench
    found = ClassicalDetector(billiards("snooker"), ball_radius_from_camera(camera, SNOOKER.table)).detect(
        frames[0].image
    )
    visible = sum(not o.hidden for o in frames[0].objects)
    assert len(found) >= visible - 1, f"{len(found)} of {visible} balls without a table mask"


def test_reset_relearns_the_cloth(bench) -> None:
    _, camera, _, frames, mask = bench
    detector = ClassicalDetector(billiards("snooker"), ball_radius_from_camera(camera, SNOOKER.table), mask)
    first = detector.detect(frames[0].image)
    detector.reset()
    again = detector.detect(frames[0].image)
    assert len(first) == len(again)
    assert np.allclose(np.sort(first.xy_px, axis=0), np.sort(again.xy_px, axis=0))


# ------------------------------------------------------------------------------------------------ clips
# One shot per game at 960x540 (ball radius 5.5-9 px), every third frame scored. Seeds: the first whose
# shot keeps every ball in play on the cloth for a fair share of the clip; straight pool's seed 1 ends with
# the 8 at rest in a corner pocket's mouth, black on black (see the xfail below), so seed 2 is used.
CLIPS = {"snooker": 4, "straight-pool": 2, "pyramid": 3, "five-pins": 1}
# Required at rest (recall, precision, class accuracy): the task's bar for snooker and straight pool; the
# same bar holds for the other two games on these shots.
BAR = (0.97, 0.97, 0.95)


def _shot(tmp_path_factory, game: str, seed: int):
    cfg = SynthConfig(game=game, shots=1, seed=seed, width=W, height=H, fps=30, video=False, yolo_every=3)
    out = tmp_path_factory.mktemp(f"{game}_{seed}")
    synth_billiards(cfg, out)
    return out / "shot_000"


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    return {game: _shot(tmp_path_factory, game, seed) for game, seed in CLIPS.items()}


@pytest.mark.slow
@pytest.mark.parametrize("game", list(CLIPS))
def test_balls_at_rest_are_found_and_named(shots, game) -> None:
    report = evaluate_on_clip(shots[game])
    rest, moving = report["rest"], report["moving"]
    figures = (
        f"{game} seed {CLIPS[game]}: at rest recall {rest['recall']:.3f} precision {rest['precision']:.3f} "
        f"class accuracy {rest['class_accuracy']:.3f} over {rest['truth']} balls, {report['frames']} frames; "
        f"moving recall {moving['recall']:.3f} precision {moving['precision']:.3f}; "
        f"median centre error {report['centre_error_px']:.2f} px; confusions {report['confusion']}"
    )
    assert rest["truth"] >= 100, f"too few balls at rest to score: {figures}"
    recall, precision, accuracy = BAR
    assert rest["recall"] >= recall, figures
    assert rest["precision"] >= precision, figures
    assert rest["class_accuracy"] >= accuracy, figures
    assert report["centre_error_px"] < 1.0, figures
    # Moving balls are blurred streaks; they are reported, not required, except that most are found.
    assert math.isnan(moving["recall"]) or moving["recall"] >= 0.8, figures


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="known weakness: a black ball resting in a pocket mouth is lost")
def test_black_ball_in_a_pocket_mouth(tmp_path_factory) -> None:
    """Straight pool, seed 1: the shot ends with the 8 at rest between the jaws of a corner pocket. Black
    on the pocket's black, its outline shows only against the cloth side, and the circle fitted there is
    pulled off the ball by the pocket's rim: 5 of the 131 balls at rest are missed (recall 0.962). The
    weaker outline asked in a pocket's jaws does not reach it: 9 px across, its glint reads 0.15 of the 1.2
    asked there and its face's coherence 0.61 (a coloured ball there is found: the test below)."""
    report = evaluate_on_clip(_shot(tmp_path_factory, "straight-pool", 1))
    assert report["rest"]["recall"] >= BAR[0], report["rest"]


@pytest.mark.parametrize(("cloth", "ball"), [((20, 78, 155), "blue"), ((28, 122, 52), "green")])
def test_a_ball_of_the_cloths_own_colour_is_found_at_rest(bench, cloth, ball) -> None:
    """The bench scene on a blue cloth (seed 9231's first shot: its blue on the blue spot was never found
    until struck, and the white's first contact with it went unseen) and on a green one: the ball of the
    cloth's colour shows a glint, a dark rim and a shade deeper body; it is found from its glint (a seed)."""
    table, camera, _, _, mask = bench
    look = replace(Look.random(np.random.default_rng(103)), cue=None, arm=None, cloth_rgb=cloth)
    renderer = TableRenderer(SNOOKER, camera, look, seed=3)
    detector = ClassicalDetector(billiards("snooker"), ball_radius_from_camera(camera, table), mask)
    for i in range(3):
        rendered = renderer.render([SceneSample(i / 30.0, tuple(bench_scene(table)))])
        found = detector.detect(rendered.image)
    target = next(o for o in rendered.objects if o.id == ball)
    d = np.linalg.norm(found.xy_px - np.array(target.xy_px), axis=1)
    assert len(d) and d.min() <= 0.5 * target.radius_px, f"the {ball} on a {ball} cloth was not found"
    assert found.class_names[int(d.argmin())] == ball


def test_the_green_six_on_a_green_cloth_of_seed_9232_is_found_and_named() -> None:
    """Straight pool on a green cloth at 1280x720, seed 9232's fourth shot (its look, camera and balls in
    ``tests/data/billiards_looks``). In the clip (video-compressed, in motion) the green 6 at rest was
    never found: its glint and shaded side made one blob of half a ball, too little of its disk
    foreground for a lone ball (0.37 of 0.4); such a blob is now judged as a seed, on the share of its disk
    darker than the cloth (0.96), measured on the clip (docs/results.md). This still render of the scene
    finds the 6 either way: it guards that the 6 stays found and named, and nothing is added."""
    rendered, found = _still_scene("pool_9232_shot3.json", billiards("straight-pool"))
    _assert_found(rendered, found, "6", "pool_6")


def test_a_green_on_a_green_cloth_shows_half_its_outline_and_is_found_from_its_glint() -> None:
    """Snooker seed 9251's first shot: the green at rest on a green cloth under a lamp on its lit side. Its
    glint and shaded side make a seed, but the outline shows only where the shade meets the cloth (0.12 of
    the 0.2 asked of a ball all round): missed before. A seed's strong glint (1.7 cloth brightnesses; 1.2
    asked) now lets half that outline do."""
    rendered, found = _still_scene("snooker_9251_shot0.json", SNOOKER)
    _assert_found(rendered, found, "green", "green")


def test_the_green_on_its_spot_under_the_baulk_line_and_the_d_is_found() -> None:
    """Snooker seed 9001's second shot: the green on its spot, where the baulk line and the D's end cross
    its rim (and pull its circle a third of a radius off): its outline (0.10) and the circularity of its
    rim (0.65) are the markings' as much as its own, so the glint seed on a spot is judged on its glint
    and dark disk alone. Given the table's spots, the detector finds it; given none, it finds it too since
    a ball of the cloth's own colour is kept on a weaker rim (``min_tinted_edge``; missed before)."""
    rendered, found = _still_scene("snooker_9001_shot1.json", SNOOKER, spots=False)
    _assert_found(rendered, found, "green", "green")
    rendered, found_on_spots = _still_scene("snooker_9001_shot1.json", SNOOKER)
    _assert_found(rendered, found_on_spots, "green", "green")


PROJECTOR_6FT = Path(__file__).parents[1] / "data" / "projector_6ft"


@pytest.mark.parametrize(
    ("image", "ball"),
    [
        ("green_on_spot.jpg", "green"),
        ("brown_on_spot.jpg", "brown"),
        ("red_in_jaws_dark_cloth.jpg", "red:15"),
        ("white_on_pale_cloth.jpg", "white"),
    ],
)
def test_a_hard_ball_on_a_6ft_table_under_a_projector_is_found(image: str, ball: str) -> None:
    """A 6 ft table under a projector's cast (frames of rendered clips): the green on its spot on a green
    cloth, its blob joined to the baulk line by the markings the light makes bright (a cluster with no
    ball-thick part), and the brown on a red cloth, with no blob of its own. A circle looked for on the
    spot, or the cluster's circle on it, is judged on its glint, dark disk and one colour over its face;
    before, both were missed. A red rattling in a corner's jaws on a dark teal cloth, its glint a ball's
    (0.82) and not a seed's, kept in the jaws on a face as round as a plain ball's (coherence 0.9); and the
    white by a corner on a pale grey-blue cloth, of the cloth's hue and 1.3 times its brightness, foreground
    over a third of its disk, kept on an outline only a ball has (coherence 0.98, 0.5 all round); before,
    both were lost and their pots called falsely. Every other ball found is named right, and nothing else
    is found."""
    truth = json.loads((PROJECTOR_6FT / "truth.json").read_text())["images"][image]
    pixels = cv2.imread(str(PROJECTOR_6FT / image))
    calib = calibrate_auto(pixels, SNOOKER.table)
    assert calib.sure and calib.table.size == "6ft"
    found = build_detector("classical", SNOOKER.resized("6ft"), calib, pixels.shape).detect(pixels)
    names = [APPEARANCE_CLASSES[int(k)] for k in found.cls]
    for bid, b in truth.items():
        d = np.linalg.norm(found.xy_px - np.array(b["xy_px"]), axis=1)
        if bid == ball or d.min() <= 0.5 * b["radius_px"]:
            assert d.min() <= 0.5 * b["radius_px"], f"the {bid} was not found"
            assert names[int(d.argmin())] == bid.split(":")[0], (
                f"the {bid} was named {names[int(d.argmin())]}"
            )
    near = [min(np.linalg.norm(np.array(b["xy_px"]) - xy) for b in truth.values()) for xy in found.xy_px]
    assert max(near) <= 16.0  # nothing found away from the balls


CLOTH_COLOURED = Path(__file__).parents[1] / "data" / "cloth_coloured"


@pytest.mark.parametrize("image", ["red_on_red_far_end", "green_rolling_on_green"])
def test_a_ball_of_the_cloths_colour_with_a_weak_rim_all_round_is_found(image: str) -> None:
    """Frames of broadcast clips (seeds 9304 and 9492, their camera profiles as the run made them): a red
    at rest on a red cloth at the far end, found as a blob but with a rim too weak all round for a ball
    (edge 0.28, outline 0.16), never tracked, so the white's first contact with it was lost; and a green
    rolling slowly on a green cloth (edge 0.26-0.30, a circle blurred to 0.64-0.69), lost on its way to a
    pocket. With a seed's glint over a disk darker than the cloth, a weaker rim does
    (``ClassicalConfig.min_tinted_edge``). Nothing is found away from the balls."""
    case = json.loads((CLOTH_COLOURED / "truth.json").read_text())[image]
    pixels = cv2.imread(str(CLOTH_COLOURED / f"{image}.jpg"))
    calib = TableCalibration.load(CLOTH_COLOURED / f"{image}_camera.json")
    detector = build_detector("classical", SNOOKER.resized(calib.table.size), calib, pixels.shape)
    found = detector.detect(pixels)
    target = case["balls"][case["ball"]]
    d = np.linalg.norm(found.xy_px - np.array(target["xy_px"]), axis=1)
    assert d.min() <= 0.5 * target["radius_px"], f"the {case['ball']} was not found"
    assert APPEARANCE_CLASSES[int(found.cls[int(d.argmin())])] == case["ball"].split(":")[0]
    near = [min(math.dist(b["xy_px"], xy) for b in case["balls"].values()) for xy in found.xy_px]
    assert max(near) <= 0.5 * target["radius_px"]  # nothing found away from the balls


def _still_scene(name: str, spec, spots: bool = True):
    """A scene of ``tests/data/billiards_looks`` (look, camera, balls at rest) rendered still three times
    and the detector's last finding (told where the table's spots are, unless not ``spots``)."""
    case = json.loads((Path(__file__).parents[1] / "data/billiards_looks" / name).read_text())
    camera, look = Camera.from_dict(case["camera"]), Look.from_dict(case["look"])
    balls = tuple(BallState(b, (xy[0], xy[1]), False) for b, xy in case["balls"].items())
    renderer = TableRenderer(spec, camera, look, seed=3)
    table = spec.table
    r = table.ball_radius_mm
    spots_px = camera.project(np.array([[x, y, r] for x, y in table.spots.values()])) if spots else None
    detector = ClassicalDetector(
        spec,
        ball_radius_from_camera(camera, table),
        table_mask_from_camera(camera, table),
        spots_px=spots_px,
        jaws_px=jaws_from_camera(camera, table),
    )
    for i in range(3):
        rendered = renderer.render([SceneSample(i / 30.0, balls)])
        found = detector.detect(rendered.image)
    return rendered, found


def test_a_brown_at_rest_half_over_a_corners_mouth_is_found_and_named() -> None:
    """Snooker on a 6 ft table under a projector, seed 9702's second shot: the brown rattled in the top right
    corner's jaws and rests there, half over the mouth's black (its case in ``tests/data/billiards_looks``).
    Its blob joins the mouth's, and its outline shows only where it meets the cloth (edge vote 0.26 of the
    0.3 asked in a cluster, outline 0.19 of 0.2): never a candidate, its vanishing read as a pot. In a
    pocket's jaws a circle with a seed's glint and one colour over its face is kept on that outline."""
    spec = SNOOKER.resized("6ft")
    rendered, found = _still_scene("snooker_9702_shot1.json", spec)
    _assert_found(rendered, found, "brown", "brown")


def test_a_white_without_a_glint_touching_a_red_is_found_on_its_outline() -> None:
    """Seed 9702's tenth shot ends with the white touching a red under a pink light: the white's highlight
    is clipped to its body's level (glint 0.22 of the 0.35 asked), and in a cluster a ball without a glint
    was never kept, however round and outlined. Coherence 0.99 and an outline of 0.98 all round are a
    ball's: in a cluster a circle that round and that outlined is kept without a glint."""
    spec = SNOOKER.resized("6ft")
    rendered, found = _still_scene("snooker_9702_shot9.json", spec)
    _assert_found(rendered, found, "white", "white")


def test_no_ball_is_found_in_an_empty_pockets_jaws(bench) -> None:
    """The bench scene, no ball near any pocket: the weaker outline asked in a pocket's jaws finds nothing
    in the mouths' black, their leather or the cushions' noses beside them."""
    table, camera, _, frames, mask = bench
    detector = ClassicalDetector(
        SNOOKER, ball_radius_from_camera(camera, table), mask, jaws_px=jaws_from_camera(camera, table)
    )
    for rendered in frames:
        found = detector.detect(rendered.image)
    jaws = jaws_from_camera(camera, table)
    apart = np.linalg.norm(found.xy_px[:, None, :] - jaws[None, :, :], axis=2).min(axis=1)
    radius = ball_radius_from_camera(camera, table)
    assert len(found) == sum(not o.hidden for o in rendered.objects)
    assert (apart > ClassicalConfig().jaw_reach * radius).all()


def _assert_found(rendered, found, ball: str, cls: str) -> None:
    """``ball`` found within half its radius and named ``cls``; nothing found beyond the balls in view."""
    target = next(o for o in rendered.objects if o.id == ball)
    d = np.linalg.norm(found.xy_px - np.array(target.xy_px), axis=1)
    assert len(d) and d.min() <= 0.5 * target.radius_px, f"the {ball} was not found"
    assert found.class_names[int(d.argmin())] == cls
    assert len(found) <= sum(not o.hidden for o in rendered.objects)


def test_a_ball_creeping_to_a_stop_is_found_where_it_stops(bench) -> None:
    """A yellow rolling at 0.3 mm a frame changes its pixels too little from one frame to the next for the
    detector to fit it again (``StillBlobs``), but they add up: compared with the frame it was last fitted
    on, it is fitted again, and found where it stops, not where it was first thought still."""
    _, camera, renderer, _, mask = bench
    detector = ClassicalDetector(SNOOKER, ball_radius_from_camera(camera, SNOOKER.table), mask)
    for k in range(150):  # the yellow creeps; the pink, rolling across, has each frame looked at in full
        ball = BallState("yellow", (900.0, 1200.0 + 0.3 * k), moving=True)
        other = BallState("pink", (200.0 + 8.0 * k, 2500.0), moving=True)
        rendered = renderer.render([SceneSample(k / 60.0, (ball, other))])
        found = detector.detect(rendered.image)
    obj = next(o for o in rendered.objects if o.id == "yellow")
    assert len(found) == 2
    error = float(np.min(np.linalg.norm(found.xy_px - np.asarray(obj.xy_px), axis=1)))
    assert error < 0.5 * obj.radius_px, (
        f"found {error:.1f} px from where it is ({obj.radius_px:.1f} px radius)"
    )


# ------------------------------------------------------------------------------------------------ streaks
def _struck(renderer, ball: str, start: tuple[float, float], step: tuple[float, float], k: int, fast: bool):
    """Frame ``k`` of ``ball`` moving ``step`` mm a frame from ``start``, the shutter open the whole frame
    (eight samples) when ``fast``; one sample (no blur) otherwise."""
    n = 8 if fast else 1
    samples = []
    for s in range(n):
        f = k + (s + 0.5) / n - 0.5 if fast else k
        xy = (start[0] + step[0] * f, start[1] + step[1] * f)
        samples.append(SceneSample((k + (s + 0.5) / n) / 60.0, (BallState(ball, xy, moving=fast),)))
    return renderer.render(samples)


@pytest.mark.parametrize("ball", ["red:1", "blue", "black", "white"])
def test_a_ball_in_its_own_blur_is_found_as_a_streak_not_named(bench, ball) -> None:
    """A ball at 6 m/s (100 mm a 60 fps frame, a streak three diameters long) shows no outline or glint:
    it is found as a streak at the middle of its blur, marked ``blurred``; at rest it is a named ball and
    no streak."""
    _, camera, renderer, _, mask = bench
    detector = ClassicalDetector(SNOOKER, ball_radius_from_camera(camera, SNOOKER.table), mask)
    start, step = (700.0, 1000.0), (30.0, 95.0)
    for _ in range(3):
        still = detector.detect(_struck(renderer, ball, start, step, 0, fast=False).image)
        assert not still.blurred.any(), "a ball at rest is no streak"
    for k in range(1, 7):
        rendered = _struck(renderer, ball, start, step, k, fast=True)
        found = detector.detect(rendered.image)
        obj = rendered.objects[0]
        streaks = found[found.blurred]
        assert len(streaks) == len(found) == 1, f"frame {k}: {len(streaks)} streaks in {len(found)} finds"
        error = float(np.linalg.norm(streaks.xy_px[0] - np.asarray(obj.xy_px)))
        assert error < 1.5 * obj.radius_px, f"frame {k}: the streak's centre is {error:.1f} px off"


def test_streaks_are_off_when_turned_off(bench) -> None:
    _, camera, renderer, _, mask = bench
    config = ClassicalConfig(streaks=StreakConfig(enabled=False))
    detector = ClassicalDetector(SNOOKER, ball_radius_from_camera(camera, SNOOKER.table), mask, config)
    for k in range(4):
        found = detector.detect(_struck(renderer, "blue", (700.0, 1000.0), (30.0, 95.0), k, fast=k > 0).image)
    assert not found.blurred.any()


@pytest.mark.parametrize(
    "kwargs",
    [
        {"low": 1.5, "peak": 1.0},
        {"area": (2.0, 1.0)},
        {"width": (0.0, 1.0)},
        {"confidence": 1.0},
        {"new": 0.0},
    ],
)
def test_bad_streak_settings_raise(kwargs) -> None:
    with pytest.raises(ValueError):
        StreakConfig(**kwargs)
