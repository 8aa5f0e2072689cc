"""Speed of the whole pipeline on this machine, beside a peer measured in the same run (``arbiter bench``).

The peer is the design Arbiter's vision avoids: the detector network run on every whole frame, with no
table view and no tracking. Both run on one generated snooker clip, made once and cached.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from arbiter.games import billiards
from datasets.billiards.synth import SynthConfig, synth_billiards
from pipeline.billiards import RunOptions, referee_video
from vision.sources import FrameSource
from vision.yolo import OnnxNetwork, letterbox

PEER_LONG_SIDE = 1280  # the peer runs the network on whole frames at this size: balls ~17 px at 1080p
PEER_FRAMES = 120  # frames the peer is timed on
BENCH_SEED = 2024
DETECTORS = ("classical", "yolo")


def bench_clip(width: int, height: int, cache: Path, log: Any = None) -> Path:
    """The benchmark clip at ``width`` x ``height`` (one snooker shot), generated into ``cache`` once."""
    clip = cache / f"snooker_{width}x{height}"
    video = clip / "shot_000" / "video.mp4"
    if not video.exists():
        if log is not None:
            log(f"generating the benchmark clip in {clip} (once) ...")
        config = SynthConfig(
            game="snooker", shots=1, seed=BENCH_SEED, width=width, height=height, yolo_every=10**6
        )
        synth_billiards(config, clip)
    return video


def yolo_full_frame_fps(video: Path, long_side: int = PEER_LONG_SIDE, frames: int = PEER_FRAMES) -> float:
    """Frames per second of decoding ``video`` and running the detector network on each of its first
    ``frames`` whole frames, letterboxed to ``long_side``: what a detector without a table view costs."""
    network = OnnxNetwork()
    n, started = 0, time.perf_counter()
    for frame in FrameSource(video):
        network(letterbox(frame.image, long_side)[0])
        n += 1
        if n >= frames:
            break
    return n / (time.perf_counter() - started)


def bench_pipeline(
    width: int, height: int, cache: Path = Path(".cache/bench"), log: Any = None
) -> dict[str, Any]:
    """Whole-pipeline frames per second with each detector (the whole run, and its frame loop once the
    table was found, with the calibration's seconds), and the peer's, on the same clip."""
    video = bench_clip(width, height, cache, log)
    figures: dict[str, Any] = {"size": [width, height]}
    for detector in DETECTORS:
        result = referee_video(
            FrameSource(video),
            RunOptions(spec=billiards("snooker"), annotate=False, detector=detector),
            cache / f"run_{detector}",
        )
        figures[f"pipeline_{detector}_fps"] = round(result.fps, 1)
        figures[f"pipeline_{detector}_loop_fps"] = round(result.loop_fps, 1)
        figures[f"calibration_{detector}_s"] = round(result.calibration_seconds, 2)
        figures["frames"] = result.frames
    figures["peer_yolo_full_frame_fps"] = round(yolo_full_frame_fps(video), 1)
    return figures
