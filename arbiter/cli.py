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
train_app = typer.Typer(help="Train models from synthetic data.", no_args_is_help=True)
app.add_typer(train_app, name="train")

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


def _read_stream(path: Path, hint: str) -> tuple[contract.Match, list]:
    """A whole event file, or a clean exit naming the file, the bad line and why."""
    if not path.exists():
        _fail(f"{path} not found: {hint}")
    import adjudication.dice.inputs  # noqa: F401  (registers the dice games' input lines)

    try:
        return contract.read_stream(path.read_text().splitlines())
    except contract.ContractError as exc:
        _fail(f"{path}: {exc}")


@app.command()
def show(
    path: Annotated[Path, typer.Argument(help="A shot folder (from 'arbiter synth') or a .jsonl file.")],
) -> None:
    """Print the events of a shot in plain words, with a summary."""
    truth = path / "truth.jsonl" if path.is_dir() else path
    header, events = _read_stream(truth, "give a shot folder written by 'arbiter synth' or an events file")
    typer.echo(narrate.describe(header))
    for event in events:
        typer.echo("  " + narrate.describe(event))
    for line in narrate.summarise(events):
        typer.echo(line)


@app.command()
def validate(
    path: Annotated[Path, typer.Argument(help="An events file in the contract (JSON Lines).")],
) -> None:
    """Check an events file against the contract; a bad line is reported with its number and the reason."""
    header, events = _read_stream(path, "give an events file (JSON Lines)")
    typer.echo(f"{path}: valid, {header.game}, {len(events)} event(s) after the header")


@app.command("referee")
def referee_cmd(
    events: Annotated[Path, typer.Argument(help="An event stream (JSON Lines) of one match.")],
    game: Annotated[
        str | None, typer.Option(help="The game the stream must be (default: its header's).")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Decisions as contract lines on stdout; the final score on stderr.")
    ] = False,
) -> None:
    """Apply the rules of the match's game to an event stream: every call, its rule, and the final score.
    A line that cannot be used stops it with the line number and the reason, after every decision before."""
    from adjudication.engine import RefereeError, engine_for, referee

    if not events.exists():
        _fail(f"{events} not found: give an events file (JSON Lines) starting with a match header")
    import adjudication.dice.inputs  # noqa: F401  (registers the dice games' input lines)

    engine = None
    if game is not None:
        try:
            engine = engine_for(game)
        except KeyError as exc:
            _fail(str(exc.args[0]))
    state = None
    try:
        for step in referee(events, engine):
            state = step.state
            for decision in step.decisions:
                typer.echo(contract.to_json(decision) if as_json else narrate.describe_decision(decision))
    except RefereeError as exc:
        _fail(f"{events}: {exc}")
    except KeyError as exc:
        _fail(f"{events}: {exc.args[0]}")
    if state is None:
        typer.echo("no events after the header: nothing to decide", err=True)
        return
    result = f"final score: {', '.join(f'{p} {v}' for p, v in state.score.items())}"
    result += (
        f"; {state.winner} wins" if state.winner else ("; over, no winner" if state.over else "; not over")
    )
    typer.echo(result, err=as_json)


@app.command()
def run(
    source: Annotated[
        str, typer.Argument(help="A video file, a camera index (0), an rtsp:// URL or an image folder.")
    ],
    game: Annotated[str, typer.Option(help=f"One of: {', '.join(GAMES)}, or a dice game (pig, yacht...).")],
    out: Annotated[
        Path, typer.Option(help="Output folder: events.jsonl, tracks.jsonl, annotated.mp4.")
    ] = Path("out/run"),
    calibration: Annotated[Path | None, typer.Option(help="A saved camera profile (JSON) to use.")] = None,
    players: Annotated[str, typer.Option(help="Players in turn order, comma separated.")] = "A,B",
    annotate: Annotated[bool, typer.Option(help="Write annotated.mp4.")] = True,
    detector: Annotated[
        str, typer.Option(help="classical (fast) or yolo (the trained network).")
    ] = "classical",
    db: Annotated[
        Path | None,
        typer.Option(envvar="ARBITER_DB", help="Also record the match, with the referee's calls, here."),
    ] = None,
    resume: Annotated[
        int | None, typer.Option(help="Resume this interrupted match of --db (its game and players).")
    ] = None,
) -> None:
    """Referee a video or a live camera: find the table, follow the balls, write the event stream.
    With --db every event and the referee's decision on it are recorded as they happen."""
    from tqdm import tqdm

    from arbiter.pipeline import RunOptions, referee_video
    from vision.calibration import CalibrationError
    from vision.sources import FrameSource, SourceError
    from vision.yolo import ModelError

    if game in contract.DICE_GAMES:  # a camera over a game table: dice are followed, not balls
        from arbiter.cli_dice import run_cmd as run_dice

        run_dice(source, game, out, players, annotate, model=None, every=1)
        return
    if game not in GAMES:
        _fail(f"unknown game {game!r}; choose one of {', '.join((*GAMES, *contract.DICE_GAMES))}")
    try:
        src = FrameSource(source)
    except SourceError as exc:
        _fail(str(exc))
    names = tuple(p.strip() for p in players.split(",") if p.strip())
    record = recorder = match_id = None
    if db is not None:
        from arbiter.record import MatchRecord, RecordError, recording

        try:
            record = MatchRecord.open(db)
            if resume is not None:
                header = record.header(resume)
                game, names, match_id = header.game, header.players, resume
            else:
                header = contract.Match(game=game, players=names)
                match_id = record.start_match(header, source=source)
            # A file is replayed from its start and what was recorded is skipped; a live source goes on.
            offset = (record.resume_point(match_id) or 0.0) if src.live and resume is not None else 0.0
            recorder = recording(record, match_id, skip_recorded=not src.live, t_offset=offset)
        except (RecordError, KeyError, ValueError) as exc:
            _fail(str(exc))
    options = RunOptions(
        game=game, players=names, calibration=calibration, annotate=annotate, detector=detector
    )
    bar = tqdm(total=src.frame_count, unit="frame", disable=None, file=sys.stderr)

    def on_frame(n: int, fps: float) -> None:
        bar.update(1)
        bar.set_postfix(fps=f"{fps:.1f}")

    def on_event(event: object) -> None:
        bar.write(narrate.describe(event))
        if recorder is not None:
            recorder(event)

    try:
        result = referee_video(src, options, out, on_frame=on_frame, on_event=on_event)
    except (CalibrationError, ModelError, ValueError) as exc:
        bar.close()
        if record is not None:
            record.close()  # the match stays unfinished: it reads as interrupted and can be resumed
        _fail(str(exc))
    bar.close()
    if record is not None:
        if not src.live:
            record.finish(match_id)
        record.close()
        typer.echo(f"recorded as match {match_id} in {db}")
    typer.echo(
        f"{result.frames} frames ({result.bad_frames} unreadable skipped) at {result.fps:.1f} fps; "
        f"{len(result.events)} events in {out / 'events.jsonl'}"
    )


def _parse_points(text: str) -> dict[str, tuple[float, float]]:
    """``bl=102,88;br=1190,95;tl=98,640;tr=1185,650`` -> named pixel points."""
    points = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        try:
            name, xy = part.split("=")
            x, y = (float(v) for v in xy.split(","))
        except ValueError:
            _fail(f"--points must look like 'bl=102,88;br=1190,95;tl=98,640;tr=1185,650' (got {part!r})")
        points[name.strip()] = (x, y)
    return points


@app.command()
def calibrate(
    source: Annotated[
        str, typer.Argument(help="A video file, camera index, URL or image folder showing the table.")
    ],
    game: Annotated[str, typer.Option(help=f"One of: {', '.join(GAMES)}.")],
    out: Annotated[Path, typer.Option(help="The camera profile to write (JSON).")] = Path(
        "camera_profile.json"
    ),
    points: Annotated[
        str | None,
        typer.Option(
            help="Manual: table points in pixels, 'bl=x,y;br=x,y;tl=x,y;tr=x,y' (corners of the "
            "playing area at the cushion noses; pocket ids and spot names also accepted)."
        ),
    ] = None,
) -> None:
    """Find the table (or take four or more typed points) and save the camera profile for 'run --calibration'.
    Also writes PROFILE.png: the fitted table drawn over the frame, to check by eye."""
    import cv2
    import numpy as np

    from arbiter.tables import table_for
    from vision.calibration import CalibrationError, calibrate_auto, calibrate_manual
    from vision.sources import FrameSource, SourceError

    if game not in GAMES:
        _fail(f"unknown billiards game {game!r}; choose one of {', '.join(GAMES)}")
    try:
        frame = next(iter(FrameSource(source)), None)
    except SourceError as exc:
        _fail(str(exc))
    if frame is None:
        _fail(f"{source} gave no frame")
    table = table_for(game)
    h, w = frame.image.shape[:2]
    try:
        if points:
            calib = calibrate_manual(_parse_points(points), table, (w, h), image=frame.image)
        else:
            calib = calibrate_auto(frame.image, table)
    except (CalibrationError, ValueError, KeyError) as exc:
        _fail(str(exc))
    calib.save(out)
    overlay = frame.image.copy()
    corners = np.array([[0, 0], [table.width_mm, 0], [table.width_mm, table.length_mm], [0, table.length_mm]])
    cv2.polylines(overlay, [calib.mm_to_px(corners).astype(np.int32)], True, (0, 255, 255), 2, cv2.LINE_AA)
    for p in table.pockets:
        cx, cy = calib.mm_to_px(np.array([p.mouth_xy_mm]))[0]
        cv2.circle(overlay, (int(cx), int(cy)), 6, (0, 0, 255), 2, cv2.LINE_AA)
    cv2.imwrite(str(out.with_suffix(".png")), overlay)
    typer.echo(
        f"camera profile {out} ({'manual' if points else 'automatic'}), reprojection error "
        f"{calib.reprojection_error_px:.2f} px; check {out.with_suffix('.png')}"
    )


@app.command("eval")
def eval_(
    root: Annotated[Path, typer.Argument(help="A folder written by 'arbiter synth billiards'.")],
    work: Annotated[Path, typer.Option(help="Where the pipeline's own outputs go.")] = Path("out/eval"),
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    detector: Annotated[str, typer.Option(help="classical or yolo.")] = "classical",
    shots: Annotated[int | None, typer.Option(help="Score only the first N shots.")] = None,
) -> None:
    """Run the whole pipeline on synthetic shots and score it against their truth, beside ByteTrack."""
    from arbiter.evaluate import evaluate_dir

    def progress(name: str, info: dict) -> None:
        if not as_json:
            typer.echo(f"{name}: {info['frames']} frames at {info['fps']} fps", err=True)

    try:
        figures = evaluate_dir(root, work, on_shot=progress, detector=detector, max_shots=shots)
    except FileNotFoundError as exc:
        _fail(str(exc))
    typer.echo(json.dumps(figures, indent=None if as_json else 1))


DEMO_DB = "arbiter.db"


@app.command()
def demo(
    shot_dir: Annotated[Path, typer.Option(help="The sample shot to referee.")] = SAMPLE_SHOT,
    out: Annotated[Path, typer.Option(help="Where the run's files go.")] = Path("out/demo"),
) -> None:
    """Referee the bundled sample clip through the whole pipeline, then compare with its ground truth."""
    from arbiter.evaluate import in_truth_names
    from arbiter.pipeline import RunOptions, referee_video
    from arbiter.record import MatchRecord, recording
    from arbiter.tables import table_for
    from datasets.billiards.scoring import EventScore
    from vision.sources import FrameSource, SourceError

    try:
        src = FrameSource(shot_dir / "video.mp4")
    except SourceError as exc:
        _fail(f"{exc} (the bundled sample is missing: git checkout samples/)")
    header, truth = contract.read_stream(shot_dir / "truth.jsonl")
    typer.echo(
        f"refereeing {shot_dir / 'video.mp4'} ({header.game}, {src.size[0]}x{src.size[1]}, {src.fps:.0f} fps)"
    )
    db = out / DEMO_DB
    db.unlink(missing_ok=True)  # the demo's own record, made afresh each time
    with MatchRecord.open(db) as record:
        match_id = record.start_match(contract.Match(game=header.game, players=header.players), str(src.spec))
        recorder = recording(record, match_id)

        def on_event(event: object) -> None:
            typer.echo("  " + narrate.describe(event))
            recorder(event)

        result = referee_video(
            src, RunOptions(game=header.game, players=header.players), out, on_event=on_event
        )
        record.finish(match_id)
        decisions = [x for x in record.lines(match_id) if isinstance(x, contract.Decision)]
    typer.echo(
        f"{result.frames} frames at {result.fps:.1f} fps; files in {out}/ (events.jsonl, tracks.jsonl, "
        f"annotated.mp4, and the match record {DEMO_DB})"
    )
    for line in narrate.summarise(result.events):
        typer.echo(line)
    typer.echo("the referee's call" + ("s:" if len(decisions) != 1 else ":"))
    for decision in decisions:
        typer.echo("  " + narrate.describe_decision(decision).replace("\n", "\n  "))
    score = EventScore.new()
    score.add(truth, in_truth_names(shot_dir, result, table_for(header.game).ball_diameter_mm))
    found = score.as_dict()["events"]
    typer.echo(
        "against the physics engine's truth: "
        + ", ".join(f"{k} {round(v['recall'] * v['true'])} of {v['true']} found" for k, v in found.items())
        + f"; first contact {'right' if score.first_right else 'WRONG'}"
    )


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
    try:
        from vision.training import TrainSettings
        from vision.training import train_detector as train
    except ImportError as exc:
        _fail(f"training needs the train extra ({exc}); install it with: pip install -e '.[train]'")
    from datasets.billiards.detector_data import DatasetRecipe

    recipe = DatasetRecipe(shots_per_game=shots, frames_per_shot=frames, seed=seed, val_seed=seed + 100)
    record = train(recipe, TrainSettings(epochs=epochs), work, models, log=lambda m: typer.echo(m, err=True))
    typer.echo(json.dumps(record["validation"]))


@bench_app.command("pipeline")
def bench_pipeline(
    size: Annotated[str, typer.Option(help="Frame size WIDTHxHEIGHT of the generated clip.")] = "1920x1080",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Frames per second of the whole pipeline (decode, detect, calibrate, track, events) on a synthetic
    snooker clip, on this machine, without the annotated video."""
    from arbiter.pipeline import RunOptions, referee_video
    from datasets.billiards.synth import SynthConfig, synth_billiards
    from vision.sources import FrameSource

    width, height = _parse_size(size)
    clip = Path(".cache") / "bench" / f"snooker_{width}x{height}"
    if not (clip / "shot_000" / "video.mp4").exists():
        typer.echo(f"generating the benchmark clip in {clip} (once) ...", err=True)
        synth_billiards(
            SynthConfig(game="snooker", shots=1, seed=2024, width=width, height=height, yolo_every=10**6),
            clip,
        )
    video = clip / "shot_000" / "video.mp4"
    figures: dict = {"size": [width, height]}
    for detector in ("classical", "yolo"):
        result = referee_video(
            FrameSource(video),
            RunOptions(game="snooker", annotate=False, detector=detector),
            Path(".cache") / "bench" / f"run_{detector}",
        )
        figures[f"pipeline_{detector}_fps"] = round(result.fps, 1)
        figures["frames"] = result.frames
    figures["peer_yolo_full_frame_fps"] = round(yolo_full_frame_fps(video, PEER_LONG_SIDE), 1)
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


PEER_LONG_SIDE = 1280  # the peer runs the network on whole frames at this size: balls ~17 px at 1080p


def yolo_full_frame_fps(video: Path, long_side: int, frames: int = 120) -> float:
    """Frames per second of decoding ``video`` and running the detector network on each of its first
    ``frames`` whole frames, letterboxed to ``long_side``: what a detector without a table view costs."""
    import time

    from vision.sources import FrameSource
    from vision.yolo import OnnxNetwork, letterbox

    network = OnnxNetwork()
    n, started = 0, time.perf_counter()
    for frame in FrameSource(video):
        network(letterbox(frame.image, long_side)[0])
        n += 1
        if n >= frames:
            break
    return n / (time.perf_counter() - started)


# Commands defined in their own modules register themselves on ``app`` when imported.
from arbiter import cli_dashboard, cli_dice, cli_record  # noqa: E402,F401  (dashboard; dice; matches, export)


def main() -> None:  # pragma: no cover - console entry
    sys.exit(app())


if __name__ == "__main__":  # pragma: no cover
    main()
