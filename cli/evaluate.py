"""``arbiter eval``, ``bench`` and ``train``: figures against the truth, speed beside a peer, and models."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

import cv2
import typer
from typer.core import TyperGroup

from cli.common import billiards_spec, fail, parse_size
from datasets.billiards.detector_data import DatasetRecipe
from datasets.billiards.picture_moves import MOVES
from datasets.billiards.render import bench
from evaluation import real_tables, rendered_photos, table_sizes
from evaluation.bench import PEER_LONG_SIDE, bench_pipeline
from evaluation.billiards import evaluate_dir
from evaluation.cross_look import SCENES, VIEWS_PER_SCENE, evaluate_cross_look, format_report, generate_views
from evaluation.real_balls import LIGHTS, BallRow, evaluate_real_balls, format_balls_report, load_start
from evaluation.train_detector import TrainSettings
from evaluation.train_detector import train_detector as train


class _EvalGroup(TyperGroup):
    """``arbiter eval ROOT`` stays the pipeline's score on synthetic shots (the ``shots`` command) while
    ``arbiter eval cross-look`` and later scores are commands of the group: whatever is not a command's
    name is taken as the shots' folder."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = ["shots", *args]
        return super().parse_args(ctx, args)


app = typer.Typer(
    cls=_EvalGroup,
    help="Score Arbiter against the truth: ROOT (synthetic shots) or one of the commands below.",
    no_args_is_help=True,
)
bench_app = typer.Typer(help="Measure speed, side by side with a peer, in one run.", no_args_is_help=True)
train_app = typer.Typer(help="Train models from synthetic data.", no_args_is_help=True)


@app.command("shots")
def eval_(
    root: Annotated[Path, typer.Argument(help="A folder written by 'arbiter synth billiards'.")],
    work: Annotated[Path, typer.Option(help="Where the pipeline's own outputs go.")] = Path("out/eval"),
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    detector: Annotated[str, typer.Option(help="classical or yolo.")] = "classical",
    shots: Annotated[int | None, typer.Option(help="Score only the first N shots.")] = None,
    table: Annotated[
        str | None, typer.Option(help="Give the table's size (as arbiter run --table); default: found.")
    ] = None,
    camera_move: Annotated[
        str | None,
        typer.Option(
            help="Move each clip's picture as a camera that moves a little: knock (1 % at once, 1.45 s in) "
            "or drift (1.2 % over 7.5 s)."
        ),
    ] = None,
) -> None:
    """Run the whole pipeline on synthetic shots and score it against their truth, beside ByteTrack."""
    if camera_move is not None and camera_move not in MOVES:
        fail(f"--camera-move {camera_move!r}: choose one of {', '.join(MOVES)}")

    def progress(name: str, info: dict[str, Any]) -> None:
        if not as_json:
            typer.echo(f"{name}: {info['frames']} frames at {info['fps']} fps", err=True)

    try:
        move = MOVES[camera_move] if camera_move else None
        figures = evaluate_dir(root, work, progress, detector, shots, table, move)
    except (FileNotFoundError, ValueError) as exc:
        fail(str(exc))
    typer.echo(json.dumps(figures, indent=None if as_json else 1))


@app.command("real")
def eval_real(
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    lights: Annotated[
        bool,
        typer.Option(
            "--lights",
            help="Also under coloured light: a projector's blue and magenta, a warm ramp (4x as long).",
        ),
    ] = False,
    markers: Annotated[
        bool,
        typer.Option(
            "--markers",
            help="Also with printed markers pasted on the tables' rails, under each light (2x as long).",
        ),
    ] = False,
    long_side: Annotated[
        int | None,
        typer.Option(
            "--long-side",
            help="Each image first made a camera frame this many px on its long side, JPEG-compressed "
            "(1280: the hidden real set's 1280x720 frames).",
        ),
    ] = None,
) -> None:
    """Automatic calibration on the labelled real photos and second-look renders (corners within 1 % of the
    table's length, sure or unsure), with the first finder's figures from the same run beside it."""

    def progress(row: real_tables.Row) -> None:
        typer.echo(f"{row.name} ({row.light}): calibrated", err=True)

    try:
        report = real_tables.evaluate_real_tables(
            on_image=None if as_json else progress,
            lights=tuple(LIGHTS) if lights else (real_tables.AS_SHOT,),
            markers=markers,
            long_side=long_side,
        )
    except ValueError as exc:
        fail(str(exc))
    typer.echo(json.dumps(report.to_dict()) if as_json else real_tables.format_report(report))


@app.command("table-sizes")
def eval_table_sizes(
    shots: Annotated[int, typer.Option(help="Shots per game, size and room.")] = table_sizes.SHOTS,
    game: Annotated[
        list[str] | None, typer.Option(help="Only this game (repeat for several); default every one.")
    ] = None,
    seed: Annotated[
        int, typer.Option(help="The first size's seed (each size takes the next): another draw of frames.")
    ] = table_sizes.SEED,
    room: Annotated[
        list[str] | None,
        typer.Option(
            help="A room (repeat for several): classic, projector, broadcast (a television camera behind "
            "one end, a score bar over the view); default classic and projector."
        ),
    ] = None,
    size: Annotated[
        list[str] | None, typer.Option(help="Only this catalogue size, e.g. 12ft (repeat for several).")
    ] = None,
    shot: Annotated[
        list[int] | None,
        typer.Option(help="Only this shot of the draw, e.g. one seen wrong (repeat for several; from 0)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Automatic calibration on rendered tables of every size of each game's catalogue, in a classic room
    and under a projector's light (or the rooms asked for): the size chosen, the corners within 1 %, sure
    or not."""

    def progress(row: table_sizes.SizeRow) -> None:
        if not as_json:
            found = f"{row.found} ({'sure' if row.sure else 'unsure'})" if row.found else "failed"
            typer.echo(f"{row.game} {row.size} {row.room} shot {row.shot}: {found}", err=True)

    for g in game or ():
        billiards_spec(g)  # an unknown game is named before anything is drawn
    for r in room or ():
        if r not in table_sizes.ROOMS_KNOWN:
            fail(f"unknown room {r!r}: use one of {', '.join(table_sizes.ROOMS_KNOWN)}")
    known = table_sizes.catalogue_sizes(game or None)
    for z in size or ():
        if z not in known:
            where = ", ".join(game or ["any game"])
            fail(f"no table of size {z!r} in the catalogue of {where}: use one of {', '.join(known)}")
    if any(k < 0 for k in shot or ()):
        fail(f"a shot is counted from 0: {min(shot or ())} is none")
    rows = table_sizes.evaluate_table_sizes(
        game or None,
        shots,
        tuple(room or table_sizes.ROOMS),
        seed=seed,
        on_row=progress,
        sizes=size,
        only_shots=shot,
    )
    typer.echo(json.dumps(table_sizes.to_dict(rows)) if as_json else table_sizes.format_report(rows))


@app.command("real-balls")
def eval_real_balls(
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Ball detection on the real labelled photos and the second-look renders (found, precision, colour
    right per setting and light), beside the figures of the detector before issue 10 in the same output."""

    def progress(row: BallRow) -> None:
        if not as_json:
            typer.echo(f"{row.name} ({row.setting}, {row.light})", err=True)

    report = evaluate_real_balls(on_row=progress)
    start = load_start()
    if as_json:
        typer.echo(json.dumps({**report.to_dict(), "start": start["groups"] if start else None}))
        return
    typer.echo(format_balls_report(report, start))


@app.command("rendered-photos")
def eval_rendered_photos(
    clips: Annotated[
        list[Path], typer.Argument(help="Clip sets made by 'arbiter synth billiards' (shot_*/).")
    ],
    work: Annotated[Path, typer.Option(help="Where each set's photos and run are written.")] = Path(
        "work/rendered_photos"
    ),
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """The first and last frame of every shot of each clip set as a folder of photos, refereed as 'arbiter
    run FOLDER' does (the table found in the photos, its size from the balls): balls found, named right and
    false against the renderer's truth, per set and in all (the hidden overhead set's form)."""

    def progress(name: str, rows: list[rendered_photos.PhotoScore]) -> None:
        if not as_json:
            t = rendered_photos.totals(rows)
            typer.echo(f"{name}: {t['found']} of {t['balls']} balls found, {t['false']} false", err=True)

    for folder in clips:
        if not folder.is_dir():
            fail(f"{folder} is not a folder: give the output folder of 'arbiter synth billiards'")
    try:
        rows = rendered_photos.evaluate_rendered_photos(clips, work, on_set=progress)
    except FileNotFoundError as exc:
        fail(str(exc))
    typer.echo(json.dumps(rendered_photos.to_dict(rows)) if as_json else rendered_photos.format_report(rows))


@app.command("cross-look")
def eval_cross_look(
    views: Annotated[
        Path, typer.Option(help="Cache folder of pooltool's views (rendered there once with --generate).")
    ] = Path("work/pooltool_views"),
    generate: Annotated[
        bool,
        typer.Option(help="Render the views missing from the folder first (needs pooltool, ~40 s each)."),
    ] = False,
    scenes: Annotated[int, typer.Option(help="Scenes to render with --generate.")] = SCENES,
    per_scene: Annotated[int, typer.Option(help="Views per scene with --generate.")] = VIEWS_PER_SCENE,
    model: Annotated[
        Path | None, typer.Option(help="The ONNX detector (default: the committed one).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """The trained detector beside the classical one on pooltool's 3D renders, a look it never trained on:
    recall, precision and class right, overhead vs broadcast, with the true camera."""
    if generate:
        try:
            generate_views(views, scenes, per_scene, log=lambda m: typer.echo(m, err=True))
        except RuntimeError as exc:
            fail(str(exc))
    try:
        report = evaluate_cross_look(views, model)
    except FileNotFoundError as exc:
        fail(str(exc))
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
    variety: Annotated[str, typer.Option(help="Cameras and rooms of the shots: wide or classic.")] = "wide",
    second_look: Annotated[
        Path | None,
        typer.Option(help="A folder of pooltool views to train on too (seeds apart from cross-look's 0-9)."),
    ] = None,
) -> None:
    """Rebuild the ball-and-pin detector from synthetic data: dataset, training, ONNX export, record.
    Needs the train extra of pyproject.toml (torch, ultralytics); running the result needs neither."""
    try:
        recipe = DatasetRecipe(
            shots_per_game=shots,
            frames_per_shot=frames,
            seed=seed,
            val_seed=seed + 100,
            variety=variety,
            second_look="" if second_look is None else str(second_look),
        )
    except ValueError as exc:
        fail(str(exc))
    try:
        record = train(
            recipe, TrainSettings(epochs=epochs), work, models, log=lambda m: typer.echo(m, err=True)
        )
    except ImportError as exc:
        fail(f"training needs the train extra ({exc}); install it with: pip install -e '.[train]'")
    except (ValueError, FileNotFoundError) as exc:
        fail(str(exc))
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
    for detector, name in (("classical", "classical detector    "), ("yolo", "yolo on the table view")):
        typer.echo(
            f"  whole pipeline, {name} {figures[f'pipeline_{detector}_fps']:7.1f} fps; once the table is "
            f"found {figures[f'pipeline_{detector}_loop_fps']:5.1f} fps (calibration "
            f"{figures[f'calibration_{detector}_s']:.2f} s)"
        )
    typer.echo(
        f"  peer: decode + yolo on every full frame at {PEER_LONG_SIDE} px, no tracking "
        f"{figures['peer_yolo_full_frame_fps']:5.1f} fps"
    )
    typer.echo("  (real time at 60 fps needs 60)")
