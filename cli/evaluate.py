"""``arbiter eval``, ``bench`` and ``train``: figures against the truth, speed beside a peer, and models."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

import cv2
import typer

from cli.common import fail, parse_size
from datasets.billiards.detector_data import DatasetRecipe
from datasets.billiards.render import bench
from evaluation.bench import PEER_LONG_SIDE, bench_pipeline
from evaluation.billiards import evaluate_dir
from evaluation.real_tables import evaluate_real_tables, format_report
from evaluation.train_detector import TrainSettings
from evaluation.train_detector import train_detector as train

app = typer.Typer()
bench_app = typer.Typer(help="Measure speed, side by side with a peer, in one run.", no_args_is_help=True)
train_app = typer.Typer(help="Train models from synthetic data.", no_args_is_help=True)


REAL = "real"  # ``arbiter eval real``: the real test set, not a folder of synthetic shots


@app.command("eval")
def eval_(
    root: Annotated[
        Path,
        typer.Argument(
            help="A folder written by 'arbiter synth billiards'; or 'real': automatic calibration on the "
            "labelled real photos and second-look renders, beside the first finder."
        ),
    ],
    work: Annotated[Path, typer.Option(help="Where the pipeline's own outputs go.")] = Path("out/eval"),
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    detector: Annotated[str, typer.Option(help="classical or yolo.")] = "classical",
    shots: Annotated[int | None, typer.Option(help="Score only the first N shots.")] = None,
) -> None:
    """Run the whole pipeline on synthetic shots and score it against their truth, beside ByteTrack.
    'arbiter eval real' scores automatic calibration on real tables instead (corners within 1 % of the
    table's length, sure or unsure), with the first finder's figures from the same run beside it."""
    if str(root) == REAL and not root.exists():
        _eval_real(as_json)
        return

    def progress(name: str, info: dict[str, Any]) -> None:
        if not as_json:
            typer.echo(f"{name}: {info['frames']} frames at {info['fps']} fps", err=True)

    try:
        figures = evaluate_dir(root, work, on_shot=progress, detector=detector, max_shots=shots)
    except FileNotFoundError as exc:
        fail(str(exc))
    typer.echo(json.dumps(figures, indent=None if as_json else 1))


def _eval_real(as_json: bool) -> None:
    """``arbiter eval real``: both finders on every labelled real photo and second-look render."""
    report = evaluate_real_tables(
        on_image=None if as_json else lambda row: typer.echo(f"{row.name}: calibrated", err=True)
    )
    typer.echo(json.dumps(report.to_dict()) if as_json else format_report(report))


@bench_app.command("render")
def bench_render(
    size: Annotated[str, typer.Option(help="Frame size WIDTHxHEIGHT.")] = "1280x720",
    frames: Annotated[int, typer.Option(help="Frames to time per renderer.")] = 300,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Frames per second of the synthetic camera on one core, beside a naive renderer in the same run."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    if hasattr(os, "sched_setaffinity"):  # one core, really: pin the process to the first allowed CPU
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    cv2.setNumThreads(1)
    width, height = parse_size(size)
    result = bench(width=width, height=height, frames=frames)
    if as_json:
        typer.echo(json.dumps(result))
        return
    typer.echo(f"renderer at {width}x{height}, one core, {frames} frames of a 22-ball snooker scene:")
    typer.echo(f"  arbiter renderer (cached table, no blur)  {result['renderer_fps']:8.1f} fps")
    typer.echo(f"  arbiter renderer (3-sample motion blur)   {result['renderer_blur_fps']:8.1f} fps")
    typer.echo(f"  naive peer (re-render the table per frame) {result['naive_fps']:7.1f} fps")


@train_app.command("detector")
def train_detector(
    epochs: Annotated[int, typer.Option(help="Training epochs (about 3 min each here).")] = 20,
    shots: Annotated[int, typer.Option(help="Synthetic shots per game for training.")] = 30,
    frames: Annotated[int, typer.Option(help="Frames rendered per shot.")] = 3,
    seed: Annotated[int, typer.Option(help="Seed of the training shots (validation uses seed+100).")] = 100,
    work: Annotated[Path, typer.Option(help="Dataset and training runs go here.")] = Path("work/detector"),
    models: Annotated[Path, typer.Option(help="Where the ONNX model and its record go.")] = Path("models"),
) -> None:
    """Rebuild the ball-and-pin detector from synthetic data: dataset, training, ONNX export, record.
    Needs the train extra of pyproject.toml (torch, ultralytics); running the result needs neither."""
    recipe = DatasetRecipe(shots_per_game=shots, frames_per_shot=frames, seed=seed, val_seed=seed + 100)
    try:
        record = train(
            recipe, TrainSettings(epochs=epochs), work, models, log=lambda m: typer.echo(m, err=True)
        )
    except ImportError as exc:
        fail(f"training needs the train extra ({exc}); install it with: pip install -e '.[train]'")
    typer.echo(json.dumps(record["validation"]))


@bench_app.command("pipeline")
def bench_pipeline_cmd(
    size: Annotated[str, typer.Option(help="Frame size WIDTHxHEIGHT of the generated clip.")] = "1920x1080",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Frames per second of the whole pipeline (decode, detect, calibrate, track, events) on a synthetic
    snooker clip, on this machine, without the annotated video."""
    width, height = parse_size(size)
    figures = bench_pipeline(width, height, log=lambda m: typer.echo(m, err=True))
    if as_json:
        typer.echo(json.dumps(figures))
        return
    typer.echo(f"{figures['frames']} frames of a snooker clip at {width}x{height}, this machine (2 cores):")
    typer.echo(f"  whole pipeline, classical detector        {figures['pipeline_classical_fps']:7.1f} fps")
    typer.echo(f"  whole pipeline, yolo on the table view    {figures['pipeline_yolo_fps']:7.1f} fps")
    typer.echo(
        f"  peer: decode + yolo on every full frame at {PEER_LONG_SIDE} px, no tracking "
        f"{figures['peer_yolo_full_frame_fps']:5.1f} fps"
    )
    typer.echo("  (real time at 60 fps needs 60)")
