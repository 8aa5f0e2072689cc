"""``arbiter``: the command line. A composition root only: it parses arguments, calls the packages and
prints; no vision, tracking or rule logic lives here."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from arbiter import contract, narrate
from arbiter.tables import GAMES

app = typer.Typer(
    help="Arbiter: a computer-vision referee for table games. Run a subcommand with --help for its options.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
synth_app = typer.Typer(help="Generate synthetic worlds with exact ground truth.", no_args_is_help=True)
bench_app = typer.Typer(help="Measure speed, side by side with a peer, in one run.", no_args_is_help=True)
app.add_typer(synth_app, name="synth")
app.add_typer(bench_app, name="bench")

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
SAMPLE_SHOT = SAMPLES / "billiards" / "snooker" / "shot_000"


def _fail(message: str) -> None:
    typer.secho(f"error: {message}", fg=typer.colors.RED, err=True)
    raise typer.Exit(2)


def _parse_size(size: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in size.lower().split("x"))
    except ValueError:
        _fail(f"--size must look like 1920x1080 (got {size!r})")
    return w, h


@synth_app.command("billiards")
def synth_billiards(
    game: Annotated[str, typer.Option(help=f"One of: {', '.join(GAMES)}.")],
    out: Annotated[Path, typer.Option(help="Output directory (created); one shot_NNN/ folder per shot.")],
    shots: Annotated[int, typer.Option(help="Number of shots.")] = 1,
    seed: Annotated[int, typer.Option(help="Seed: the same seed gives byte-identical truth.")] = 0,
    fps: Annotated[float, typer.Option(help="Frames per second of the simulated camera.")] = 60.0,
    size: Annotated[str, typer.Option(help="Frame size WIDTHxHEIGHT.")] = "1920x1080",
    blur: Annotated[int, typer.Option(help="Sub-frames per frame for motion blur (odd; 1 = none).")] = 3,
    yolo_every: Annotated[int, typer.Option(help="Export every Nth frame as a YOLO image and label.")] = 10,
    video: Annotated[bool, typer.Option(help="Write video.mp4 for each shot.")] = True,
) -> None:
    """Simulate billiard shots with pooltool and film them: truth, frames, video and YOLO data."""
    from datasets.billiards.synth import SynthConfig
    from datasets.billiards.synth import synth_billiards as run

    width, height = _parse_size(size)
    try:
        cfg = SynthConfig(
            game=game,
            shots=shots,
            seed=seed,
            fps=fps,
            width=width,
            height=height,
            blur_samples=blur,
            yolo_every=max(1, yolo_every),
            video=video,
        )
    except ValueError as exc:
        _fail(str(exc))
    started = time.perf_counter()

    def report(summary: dict) -> None:
        o = summary["outcome"]
        pots = ", ".join(f"{b}->{p}" for b, p in o["pots"]) or "-"
        typer.echo(
            f"shot {summary['shot']:3d}  {summary['intent']:<7} first={o['first_contact'] or '-':<8} "
            f"pots={pots:<20} cushions={o['cushions']:<3} clip={summary['clip_s']:.1f}s"
        )

    run(cfg, out, on_shot=report)
    typer.echo(
        f"wrote {shots} shot(s) of {game} to {out} in {time.perf_counter() - started:.1f} s "
        f"(data.yaml lists the YOLO images)"
    )


def _print_shot(shot_dir: Path) -> None:
    truth = shot_dir / "truth.jsonl" if shot_dir.is_dir() else shot_dir
    if not truth.exists():
        _fail(f"{truth} not found: give a shot folder written by 'arbiter synth' or a truth.jsonl file")
    try:
        header, events = contract.read_stream(truth.read_text().splitlines())
    except contract.ContractError as exc:
        _fail(f"{truth}: {exc}")
    typer.echo(narrate.describe(header))
    for event in events:
        typer.echo("  " + narrate.describe(event))
    for line in narrate.summarise(events):
        typer.echo(line)


@app.command()
def show(
    path: Annotated[Path, typer.Argument(help="A shot folder (from 'arbiter synth') or a .jsonl file.")],
) -> None:
    """Print the events of a shot in plain words, with a summary."""
    _print_shot(path)


@app.command()
def validate(
    path: Annotated[Path, typer.Argument(help="An events file in the contract (JSON Lines).")],
) -> None:
    """Check an events file against the contract; a bad line is reported with its number and the reason."""
    if not path.exists():
        _fail(f"{path} not found")
    try:
        header, events = contract.read_stream(path.read_text().splitlines())
    except contract.ContractError as exc:
        _fail(f"{path}: {exc}")
    typer.echo(f"{path}: valid, {header.game}, {len(events)} event(s) after the header")


@app.command()
def demo(
    shot_dir: Annotated[Path, typer.Option(help="The sample shot to show.")] = SAMPLE_SHOT,
) -> None:
    """Play the bundled sample shot: check its video and tell what happened in it."""
    import cv2

    video = shot_dir / "video.mp4"
    cap = cv2.VideoCapture(str(video))
    if not cap.isOpened():
        _fail(f"cannot open {video}: the bundled sample is missing or corrupt (git checkout samples/)")
    frames, fps = int(cap.get(cv2.CAP_PROP_FRAME_COUNT)), cap.get(cv2.CAP_PROP_FPS)
    w, h = int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT))
    read = 0
    while True:
        ok, _ = cap.read()
        if not ok:
            break
        read += 1
    cap.release()
    typer.echo(
        f"sample clip {video}: {read} of {frames} frames decoded, {w}x{h} at {fps:.0f} fps "
        f"({read / fps:.1f} s)"
    )
    typer.echo("what happened (the physics engine's ground truth; the camera pipeline arrives in issue 3):")
    _print_shot(shot_dir)


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
    import cv2

    cv2.setNumThreads(1)
    from datasets.billiards.render import bench

    width, height = _parse_size(size)
    result = bench(width=width, height=height, frames=frames)
    if as_json:
        typer.echo(json.dumps(result))
        return
    typer.echo(f"renderer at {width}x{height}, one core, {frames} frames of a 22-ball snooker scene:")
    typer.echo(f"  arbiter renderer (cached table, no blur)  {result['renderer_fps']:8.1f} fps")
    typer.echo(f"  arbiter renderer (3-sample motion blur)   {result['renderer_blur_fps']:8.1f} fps")
    typer.echo(f"  naive peer (re-render the table per frame) {result['naive_fps']:7.1f} fps")


def main() -> None:  # pragma: no cover - console entry
    sys.exit(app())


if __name__ == "__main__":  # pragma: no cover
    main()
