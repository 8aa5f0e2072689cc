"""Throughput of ``arbiter review`` on this machine (``arbiter bench review``, ``make bench``).

One archive of generated snooker clips (made once and cached) is reviewed four times, each into a fresh
record: with 1 and 2 workers, embedded (local processes) and on a local Ray instance, in one run so that
the figures sit side by side under the same load. Each figure counts from the first video given to the
workers to the last one recorded (``work_s``); starting the pool (processes, or Ray itself) is given apart
(``pool_s``), since they are paid once per review, not per video.

Figures: videos per minute, the multiple of real time (seconds of video refereed per second), the scaling
of 2 workers over 1, and Ray's overhead beside the embedded pool with the same number of workers. The load
average of the machine before and after is reported with them: on a shared machine it says how far the
wall-clock figures can be trusted. The workers' processor time is measured too (``x_real_time_per_cpu_s``:
seconds of video per second of one core's time), which other processes on the machine do not change: the
per-core figure to plan a cluster with.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arbiter.games import billiards
from datasets.billiards.synth import SynthConfig, synth_billiards
from pipeline.review.driver import Planned, ReviewOptions, ReviewReport, review
from pipeline.review.plan import Defaults, gather
from pipeline.review.summary import VideoRow
from record.store import MatchRecord

BENCH_SEED = 2026
BENCH_FPS = 30.0  # an archive's camera: most recorded matches are 25-30 fps
RUNS = (("embedded", 1), ("ray", 1), ("embedded", 2), ("ray", 2))  # interleaved: load drifts over a run


class _Quiet:
    """A review watcher that says nothing: the benchmark reports figures, not progress."""

    def planned(self, plan: Planned) -> None:
        pass

    def frames(self, n: int) -> None:
        pass

    def finished(self, row: VideoRow) -> None:
        pass

    def retrying(self, video: str, crash: str) -> None:
        pass


def review_clips(clips: int, width: int, height: int, cache: Path, log: Callable[[str], None]) -> list[Path]:
    """``clips`` snooker shots at ``width`` x ``height``, generated into ``cache`` once."""
    folder = cache / f"review_{clips}_{width}x{height}"
    videos = sorted(folder.glob("shot_*/video.mp4"))
    if len(videos) < clips:
        log(f"generating {clips} clips in {folder} (once) ...")
        config = SynthConfig(
            game="snooker", shots=clips, seed=BENCH_SEED, fps=BENCH_FPS, width=width, height=height,
            yolo_every=10**6,
        )  # fmt: skip
        synth_billiards(config, folder)
        videos = sorted(folder.glob("shot_*/video.mp4"))
    return videos[:clips]


def _one(videos: list[Path], mode: str, workers: int) -> ReviewReport:
    items = gather([str(v) for v in videos], Defaults(billiards("snooker")))
    with tempfile.TemporaryDirectory(prefix="arbiter-bench-review-") as tmp:
        options = ReviewOptions(out=Path(tmp) / "out", workers=workers, ray="auto" if mode == "ray" else None)
        with MatchRecord.open(Path(tmp) / "bench.db") as record:
            report = review(items, record, options, _Quiet())
    if report.failed:
        errors = "; ".join(f"{r.video}: {r.error}" for r in report.rows if r.status == "failed")
        raise RuntimeError(f"the benchmark review failed on {report.failed} clips: {errors}")
    return report


def _figures(report: ReviewReport) -> dict[str, float]:
    video_s = sum(r.video_s or 0.0 for r in report.rows)
    frames = sum(r.frames or 0 for r in report.rows)
    return {
        "work_s": round(report.work_s, 2),
        "pool_s": round(report.pool_s, 2),
        "videos_per_min": round(len(report.rows) / report.work_s * 60, 2),
        "x_real_time": round(video_s / report.work_s, 2),
        "frames_per_s": round(frames / report.work_s, 1),
        "cpu_s": round(report.cpu_s, 2),
        "x_real_time_per_cpu_s": round(video_s / report.cpu_s, 2),
    }


def bench_review(
    clips: int,
    width: int,
    height: int,
    cache: Path = Path(".cache/bench"),
    with_ray: bool = True,
    rounds: int = 1,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """The figures of the module docstring, as one dictionary; with ``rounds`` > 1 each configuration is
    run that many times (interleaved) and its fastest run kept, the usual guard against a busy moment."""
    videos = review_clips(clips, width, height, cache, log)
    figures: dict[str, Any] = {
        "clips": len(videos),
        "size": [width, height],
        "fps": BENCH_FPS,
        "cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "rounds": rounds,
        "load_before": [round(x, 2) for x in os.getloadavg()],
    }
    for _ in range(rounds):
        for mode, workers in RUNS:
            if mode == "ray" and not with_ray:
                continue
            log(f"reviewing {len(videos)} clips, {mode}, {workers} worker(s) ...")
            run = _figures(_one(videos, mode, workers))
            log(f"  {run}")
            best = figures.get(f"{mode}_{workers}")
            if best is None or run["work_s"] < best["work_s"]:
                figures[f"{mode}_{workers}"] = run
    figures["load_after"] = [round(x, 2) for x in os.getloadavg()]
    return {**figures, **_ratios(figures)}


def _ratios(figures: dict[str, Any]) -> dict[str, float]:
    """Scaling of 2 workers over 1 and Ray beside the embedded pool (wall clock, and processor time per
    video), and what one core reviews in an hour by processor time (the figure to plan a cluster with)."""
    out: dict[str, float] = {}
    for mode in ("embedded", "ray"):
        if f"{mode}_2" in figures:
            one, two = figures[f"{mode}_1"], figures[f"{mode}_2"]
            out[f"{mode}_scaling_2_over_1"] = round(two["videos_per_min"] / one["videos_per_min"], 2)
    for workers in (1, 2):
        if f"ray_{workers}" in figures:
            ray, embedded = figures[f"ray_{workers}"], figures[f"embedded_{workers}"]
            out[f"ray_overhead_{workers}"] = round(ray["work_s"] / embedded["work_s"] - 1, 3)
            out[f"ray_cpu_overhead_{workers}"] = round(ray["cpu_s"] / embedded["cpu_s"] - 1, 3)
    one = figures["embedded_1"]
    out["x_real_time_per_core"] = one["x_real_time_per_cpu_s"]
    out["videos_per_core_hour"] = round(figures["clips"] / one["cpu_s"] * 3600, 1)
    return out
