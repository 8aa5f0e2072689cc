"""Speed of following dice throws, beside reading every whole frame, on one core (``arbiter dice bench``).

Both run on one rendered clip of throws (made once and cached): ``follow`` is the dice pipeline as
``arbiter dice run`` runs it (decode, the reader on the frames that changed, the throw watcher, the rules);
``every frame`` is decoding and the reader on every whole frame, nothing skipped. Figures are frames per
second of CPU time of this process pinned to one core (what a free core gives; another program on a busy
machine does not inflate them), with wall-clock figures beside, and the follower's figure over the frames
in which a die moves (a throw in progress: nothing is skipped there).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2

from arbiter.games import dice
from datasets.dice.render import ThrowRecipe, throw_clip, write_throw_clip
from pipeline.dice import DiceRunOptions, referee_dice_video
from vision.dice import DiceReader
from vision.sources import FrameSource
from vision.types import Frame

BENCH_RECIPE = ThrowRecipe(dice=5, throws=3, seed=11, fps=30.0, size=(1280, 720), die_px=56.0, tilt_deg=25.0)


def one_core() -> None:
    """Pin this process (and its threads) to one CPU, one thread each for OpenCV and ONNX Runtime."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    cv2.setNumThreads(1)


def bench_clip(size: tuple[int, int], cache: Path, log: Callable[[str], None] | None = None) -> Path:
    """The rendered throw clip at ``size`` (cached in ``cache``) and its truth beside it."""
    recipe = replace(BENCH_RECIPE, size=size)
    folder = cache / f"dice_throws_{size[0]}x{size[1]}_seed{recipe.seed}"
    video = folder / "video.mp4"
    if not video.exists():
        if log:
            log(f"rendering the benchmark clip into {folder} (once) ...")
        write_throw_clip(throw_clip(recipe), folder)
    return video


def _moving_frames(video: Path) -> set[int]:
    truth = json.loads((video.parent / "truth.json").read_text())
    return {f["index"] for f in truth["frames"] if any(d["moving"] for d in f["dice"])}


def follow(video: Path, model: Path | None, out: Path) -> dict[str, Any]:
    """The pipeline over ``video`` as ``arbiter dice run`` runs it: CPU and wall time per frame."""
    moving = _moving_frames(video)
    cpu: list[float] = []
    last = [time.process_time()]

    def on_frame(n: int, fps: float) -> None:
        now = time.process_time()
        cpu.append(now - last[0])
        last[0] = now

    wall = time.perf_counter()
    result = referee_dice_video(
        FrameSource(video), dice("pig"), ("A", "B"), out, DiceRunOptions(model=model), on_frame=on_frame
    )
    wall = time.perf_counter() - wall
    during = [c for i, c in enumerate(cpu) if i in moving]
    return {
        "frames": result.frames,
        "frames_read": result.frames_read,
        "rolls": len(result.rolls),
        "cpu_fps": round(len(cpu) / max(sum(cpu), 1e-9), 1),
        "cpu_fps_while_dice_move": round(len(during) / max(sum(during), 1e-9), 1) if during else None,
        "wall_fps": round(result.frames / wall, 1),
    }


def every_frame(video: Path, model: Path | None) -> dict[str, Any]:
    """Decoding and the reader on every whole frame: CPU and wall time per frame."""
    reader = DiceReader(model) if model else DiceReader()
    n, cpu, wall = 0, time.process_time(), time.perf_counter()
    frame: Frame
    for frame in FrameSource(video):
        reader.read(frame.image)
        n += 1
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"frames": n, "cpu_fps": round(n / max(cpu, 1e-9), 1), "wall_fps": round(n / wall, 1)}


def crop_ms(video: Path, model: Path | None, repeats: int = 20) -> dict[str, Any]:
    """The face reader's cost per die crop (its refining passes and mirrored read included), one die at a
    time and all of a frame's dice at once, on the last frame of ``video`` (the dice at rest)."""
    reader = DiceReader(model) if model else DiceReader()
    image = None
    for frame in FrameSource(video):
        image = frame.image
    if image is None:
        raise ValueError(f"{video} has no frames")
    boxes, _ = reader.find(image)
    boxes = boxes[:5]
    if not len(boxes):
        return {"dice": 0, "ms_one": None, "ms_each_batched": None}
    started = time.process_time()
    for _ in range(repeats):
        for box in boxes:
            reader.classify(image, box[None])
    one = (time.process_time() - started) / (repeats * len(boxes))
    started = time.process_time()
    for _ in range(repeats):
        reader.classify(image, boxes)
    batched = (time.process_time() - started) / (repeats * len(boxes))
    return {"dice": len(boxes), "ms_one": round(one * 1000, 2), "ms_each_batched": round(batched * 1000, 2)}


def bench_dice(
    size: tuple[int, int] = (1280, 720),
    model: Path | None = None,
    cache: Path = Path(".cache/bench"),
    log: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Both figures on the same clip, on one core; the machine's load beside them."""
    one_core()
    video = bench_clip(size, cache, log)
    load = os.getloadavg()
    return {
        "size": list(size),
        "clip": str(video),
        "follow": follow(video, model, cache / "dice_run"),
        "every_frame": every_frame(video, model),
        "crop": crop_ms(video, model),
        "load_average": [round(v, 2) for v in load],
    }
