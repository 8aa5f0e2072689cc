"""Broadcast views: cuts between cameras, graphics learnt over frames, a score bar over a cushion.

The frames are the second-look renders (pooltool's renderer, other views than Arbiter's own) with a score
bar painted at the same place in every one, as a broadcast lays it over every camera's picture."""

from __future__ import annotations

import functools

import cv2
import numpy as np
import pytest

from arbiter.games import billiards
from datasets.billiards.second_look import renders
from evaluation.real_tables import corner_error
from vision.broadcast import CutConfig, CutDetector, OverlayConfig, StaticOverlay
from vision.calibration import calibrate_auto
from vision.table_verdict import Doubt

W, H = 1280, 720
BAR = (300, 640, 980, 690)  # x0, y0, x1, y1
# Views different enough to be cuts (two overheads of one table from nearly the same place are not).
VIEWS = ("pt-pool-broadcast-a", "pt-pool-overhead-a", "pt-snooker-broadcast-a", "pt-snooker-overhead-b")


@functools.cache
def view(name: str) -> np.ndarray:
    image = next(r for r in renders() if r.name == name).load()
    return cv2.resize(image, (W, H), interpolation=cv2.INTER_AREA)


def with_bar(image: np.ndarray, bar: tuple[int, int, int, int] = BAR) -> np.ndarray:
    out = image.copy()
    x0, y0, x1, y1 = bar
    out[y0:y1, x0:x1] = (70, 25, 20)
    cv2.putText(
        out, "ALPHA 45 (87) 12 BRAVO", (x0 + 20, y1 - 14), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (255,) * 3, 2
    )
    return out


def noisy(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.clip(image.astype(np.int16) + rng.integers(-3, 4, image.shape), 0, 255).astype(np.uint8)


def broadcast(frames_per_view: int = 4) -> tuple[list[np.ndarray], list[int]]:
    """Frames cutting between the views, each view held a few frames (one with an arm over the table),
    and the indices of the first frame of every new view."""
    rng = np.random.default_rng(0)
    frames, cuts = [], []
    for v, name in enumerate(VIEWS):
        for k in range(frames_per_view):
            frame = noisy(with_bar(view(name)), rng)
            if k == 2:  # a player's arm over the table for one frame: no cut
                cv2.circle(frame, (W // 2, H // 2), 90, (30, 30, 40), -1)
            frames.append(frame)
        if v:
            cuts.append(v * frames_per_view)
    return frames, cuts


def test_a_cut_between_two_cameras_is_found_and_nothing_else_is() -> None:
    frames, cuts = broadcast()
    detector = CutDetector()
    found = [i for i, frame in enumerate(frames) if detector.update(frame)]
    assert found == cuts


def test_a_pan_of_a_few_pixels_a_frame_is_no_cut() -> None:
    detector = CutDetector()
    image = view("pt-snooker-overhead-b")
    assert not any(detector.update(np.roll(image, 3 * k, axis=1)) for k in range(10))


def test_a_cut_inside_the_table_region_only() -> None:
    """With the table's region given, a change round it (the crowd, a graphic) is no cut."""
    image = view("pt-snooker-overhead-b")
    region = np.zeros((H, W), np.uint8)
    region[200:520, 300:980] = 255
    detector = CutDetector(region=region)
    detector.update(image)
    changed = image.copy()
    changed[:150] = 255 - changed[:150]  # everything above the table changes
    assert not detector.update(changed)
    detector.set_region(None)
    detector.reset()
    detector.update(image)
    assert detector.update(view("pt-pool-broadcast-a"))


def test_a_picture_of_another_shape_is_a_cut() -> None:
    """A source whose pictures change shape (a folder of photos from two cameras) has changed camera."""
    detector = CutDetector()
    image = view("pt-snooker-overhead-b")
    detector.update(image)
    assert not detector.update(image)
    assert detector.update(cv2.resize(image[:, : W // 2], (W // 2, H)))
    assert detector.last_persist == 0.0


def test_the_score_bar_is_learnt_over_cuts_and_little_else() -> None:
    frames, _ = broadcast()
    overlay = StaticOverlay()
    for frame in frames:
        overlay.update(frame)
    assert overlay.ready
    mask = overlay.mask((H, W)) > 0
    bar = np.zeros((H, W), bool)
    bar[BAR[1] : BAR[3], BAR[0] : BAR[2]] = True
    assert (mask & bar).sum() / (mask | bar).sum() > 0.8
    assert (mask & ~bar).mean() < 0.01


def test_a_fixed_camera_teaches_no_graphic() -> None:
    """Without the picture changing, a graphic cannot be told from the table under it: no mask."""
    overlay = StaticOverlay()
    rng = np.random.default_rng(1)
    for _ in range(10):
        overlay.update(noisy(with_bar(view("pt-snooker-overhead-b")), rng))
    assert not overlay.ready
    assert not overlay.mask((H, W)).any()


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (lambda: CutConfig(cut_share=1.5), "cut_share"),
        (lambda: CutConfig(work_px=2), "work_px"),
        (lambda: OverlayConfig(scene_change=0.0), "scene_change"),
        (lambda: OverlayConfig(min_evidence=0), "min_evidence"),
    ],
)
def test_bad_settings_are_refused(config, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        config()


def test_frames_must_be_colour_images() -> None:
    with pytest.raises(ValueError, match="H x W x 3 uint8"):
        CutDetector().update(np.zeros((10, 10), np.uint8))


# --------------------------------------------------------------------------------------- a bar over a cushion
@functools.cache
def bar_over_the_bottom_cushion() -> tuple[np.ndarray, np.ndarray, dict]:
    """An overhead view whose cushion at the image's bottom is half covered by a score bar, the bar's
    mask, and the truth."""
    render = next(r for r in renders() if r.name == "pt-snooker-overhead-b")
    image = render.load()
    corners = render.corners_px
    assert corners is not None
    xs = [p[0] for p in corners.values()]
    bottom = max(p[1] for p in corners.values())
    left, right = min(xs), max(xs)
    bar = (
        int(left + 0.2 * (right - left)),
        int(bottom - 18),
        int(left + 0.8 * (right - left)),
        int(bottom + 14),
    )
    mask = np.zeros(image.shape[:2], np.uint8)
    mask[bar[1] : bar[3], bar[0] : bar[2]] = 255
    return with_bar(image, bar), mask, {"corners": corners, "aspect": render.aspect}


@pytest.mark.parametrize("masked", [False, True], ids=["single frame", "bar masked"])
def test_a_score_bar_over_a_cushion_is_found_round_or_said_unsure(masked: bool) -> None:
    image, mask, truth = bar_over_the_bottom_cushion()
    calib = calibrate_auto(image, billiards("snooker").table, ignore=mask if masked else None)
    error = corner_error(calib.points, truth["corners"], truth["aspect"], either_end=False)
    assert error <= 0.01 or not calib.sure, f"sure but {error:.1%} off"
    if masked and not calib.sure:
        assert Doubt.HIDDEN_BY_GRAPHIC in {r.kind for r in calib.verdict.doubts}
