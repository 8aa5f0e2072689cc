"""Five-pins through the whole run with the default (classical) detector: a pin knocked down by a ball is
called, by that ball, at the moment it was hit; where the pins are too small to see, the run says they are
not watched."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from arbiter import contract as c
from arbiter.games import billiards
from datasets.billiards.camera import Camera
from datasets.billiards.look import Look
from datasets.billiards.render import TableRenderer
from datasets.billiards.scene import BallState, PinState, SceneSample
from pipeline.billiards import RunOptions, referee_video
from vision.calibration import named_points
from vision.sources import FrameSource
from vision.video import VideoWriter

SPEC = billiards("five-pins")
TABLE = SPEC.table
SPOTS = {p.id: p.xy_mm for p in TABLE.pins}
FPS = 30.0
REST = (BallState("yellow", (300.0, 500.0), False), BallState("red", (1000.0, 2300.0), False))


def _corners(camera: Camera) -> dict[str, tuple[float, float]]:
    xyz = named_points(TABLE)
    return {
        n: tuple(float(v) for v in camera.project(np.array([xyz[n]]))[0]) for n in ("bl", "br", "tr", "tl")
    }


def _clip(path: Path, size: tuple[int, int], hit_s: float | None) -> tuple[Path, Camera]:
    """Still balls and standing pins for 1.5 s; then, where ``hit_s`` is given, the white rolls up the
    table through the north pin, which falls as the white reaches it, and everything rests for 1 s."""
    w, h = size
    camera = Camera.random(TABLE, w, h, np.random.default_rng(7))
    look = replace(Look.random(np.random.default_rng(107)), cue=None, arm=None)
    renderer = TableRenderer(SPEC, camera, look, seed=7)
    x, y = SPOTS["pin:n"]
    start, speed = 1.5, 1000.0  # s, mm/s: the white starts 600 mm before the pin and rolls 1.2 m
    with VideoWriter(path / "clip.mp4", w, h, FPS) as video:
        for i in range(round(3.7 * FPS)):
            t = i / FPS
            rolled = min(max(t - start, 0.0), 1.2) * speed
            moving = hit_s is not None and start < t < start + 1.2
            white = BallState("white", (x, y - 600.0 + (rolled if hit_s is not None else 0.0)), moving)
            down = hit_s is not None and t >= hit_s
            pins = tuple(
                PinState(
                    pid,
                    (sx + 70.0, sy + 30.0) if pid == "pin:n" and down else (sx, sy),
                    pid == "pin:n" and down,
                    1.2,
                )
                for pid, (sx, sy) in SPOTS.items()
            )
            video.write(renderer.render([SceneSample(t, (white, *REST), pins)]).image)
    return path / "clip.mp4", camera


def test_a_pin_knocked_down_is_called_with_the_ball_that_hit_it(tmp_path: Path) -> None:
    hit_s = 1.5 + 0.6  # the white reaches the north pin's spot
    clip, camera = _clip(tmp_path, (1280, 720), hit_s)
    options = RunOptions(spec=SPEC, corners=_corners(camera))
    result = referee_video(FrameSource(clip), options, tmp_path / "out")
    falls = [e for e in result.events if isinstance(e, c.PinDown)]
    assert [(f.pin, f.by) for f in falls] == [("pin:n", "white")], result.events
    assert abs(falls[0].t - hit_s) <= 0.1, falls  # timed when the white touched it, not frames later
    assert not [n for n in result.notices if n.kind == "pins"]
    # The annotated video crosses the fallen pin's spot out in red and rings the standing ones in green.
    cap = cv2.VideoCapture(str(tmp_path / "out" / "annotated.mp4"))
    cap.set(cv2.CAP_PROP_POS_FRAMES, result.frames - 1)
    ok, last = cap.read()
    assert ok
    for pid, (rb, gb) in {"pin:n": (True, False), "pin:s": (False, True)}.items():
        x, y = (int(v) for v in np.rint(camera.project(np.array([[*SPOTS[pid], 0.0]]))[0]))
        near = last[y - 8 : y + 9, x - 8 : x + 9].reshape(-1, 3).astype(int)
        red = (near[:, 2] > near[:, 1] + 80).sum()
        green = ((near[:, 1] > near[:, 2] + 100) & (near[:, 1] > 180)).sum()
        assert (red >= 4) == rb and (green >= 4) == gb, (pid, red, green)


def test_pins_too_small_to_see_are_said_not_watched(tmp_path: Path) -> None:
    clip, camera = _clip(tmp_path, (480, 270), None)
    options = RunOptions(spec=SPEC, corners=_corners(camera), annotate=False, max_frames=5)
    result = referee_video(FrameSource(clip), options, tmp_path / "out")
    said = [n for n in result.notices if n.kind == "pins"]
    assert len(said) == 1 and "not watched" in said[0].text and "--detector yolo" in said[0].text
    assert '"kind": "pins"' in (tmp_path / "out" / "notices.jsonl").read_text()
