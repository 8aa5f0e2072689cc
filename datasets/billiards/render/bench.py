"""How fast the renderer is (``arbiter bench render``), on a scene every part of the vision stage also
times itself on: a snooker layout, at rest or with three balls rolling."""

from __future__ import annotations

import math
import time
from dataclasses import replace

import cv2
import numpy as np

from arbiter.games import billiards
from arbiter.tables import TableModel

from ..camera import Camera
from ..look import Look
from ..scene import BallState, SceneSample
from .background import build_background
from .frame import exposure_times
from .renderer import TableRenderer

BENCH_GAME = "snooker"
BENCH_FPS = 30.0
# Three balls rolling at 1.5-2.6 m/s (a firm shot), in mm/s.
BENCH_VELOCITY_MM_S = {"white": (900.0, 2400.0), "red:1": (-1200.0, -800.0), "blue": (600.0, -1500.0)}


def bench_scene(table: TableModel) -> list[BallState]:
    """A snooker layout: colours on their spots, the white in the D, the reds racked behind the pink."""
    r = table.ball_radius_mm
    balls = [BallState(k, xy, False) for k, xy in table.spots.items()]
    apex_x, apex_y = table.spots["pink"][0], table.spots["pink"][1] + 2 * r + 1.0
    n = 1
    for row in range(5):
        for j in range(row + 1):
            x = apex_x + (j - row / 2) * 2 * r
            y = apex_y + row * r * math.sqrt(3)
            balls.append(BallState(f"red:{n}", (x, y), False))
            n += 1
    balls.append(BallState("white", (table.width_mm / 2 - 100.0, 600.0), False))
    return balls


def bench_motion(table: TableModel, balls: list[BallState], t: float) -> SceneSample:
    """``balls`` at time ``t`` with three of them rolling (``BENCH_VELOCITY_MM_S``), wrapped to stay on
    the cloth."""
    out = []
    r = table.ball_radius_mm
    for b in balls:
        v = BENCH_VELOCITY_MM_S.get(b.id)
        if v is None:
            out.append(b)
            continue
        x = r + (b.xy_mm[0] + v[0] * t - r) % (table.width_mm - 2 * r)
        y = r + (b.xy_mm[1] + v[1] * t - r) % (table.length_mm - 2 * r)
        out.append(BallState(b.id, (x, y), True))
    return SceneSample(t, tuple(out))


def _frames_per_s(renderer: TableRenderer, exposures: list[list[SceneSample]]) -> float:
    start = time.perf_counter()
    for ex in exposures:
        renderer.render(ex)
    return len(exposures) / (time.perf_counter() - start)


def bench(width: int = 1280, height: int = 720, frames: int = 300, seed: int = 0) -> dict[str, float]:
    """Frames per second of ``TableRenderer.render`` on one core: a static 22-ball snooker scene (K=1), the
    same with three balls moving under K=3 blur, and a naive peer that rebuilds the warped background each
    frame (what a renderer without the per-shot cache does)."""
    if frames < 1:
        raise ValueError("frames must be >= 1")
    cv2.setNumThreads(1)
    spec = billiards(BENCH_GAME)
    table = spec.table
    rng = np.random.default_rng(seed)
    camera = Camera.random(table, width, height, rng)
    look = replace(Look(), cue=None, arm=None)
    renderer = TableRenderer(spec, camera, look, seed)
    balls = bench_scene(table)
    samples = [[SceneSample(i / BENCH_FPS, tuple(balls))] for i in range(frames)]
    blur = [
        [bench_motion(table, balls, tt) for tt in exposure_times(i / BENCH_FPS, BENCH_FPS, look.exposure, 3)]
        for i in range(frames)
    ]
    renderer.render(samples[0])  # warm the sprite cache, as the first frame of a shot does
    renderer.render(blur[0])
    static_fps = _frames_per_s(renderer, samples)
    blur_fps = _frames_per_s(renderer, blur)
    naive_frames = max(1, min(frames, 10))
    start = time.perf_counter()
    for s in samples[:naive_frames]:
        bg = build_background(spec, camera, look, seed)
        renderer.compose(bg.image, bg.gain, tuple(s))
    naive_s = time.perf_counter() - start
    return {
        "renderer_fps": static_fps,
        "renderer_blur_fps": blur_fps,
        "naive_fps": naive_frames / naive_s,
        "width": width,
        "height": height,
    }
