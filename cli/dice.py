"""``arbiter dice ...``: read dice in photos, score the reader on labelled photos, train it, render dice, and
referee a filmed dice game.

A composition root only: the work is ``vision.dice``, ``evaluation.dice``, ``evaluation.train_dice``,
``datasets.dice`` and ``pipeline.dice``'s.

``arbiter eval DIR`` scores billiards shots, so dice are scored by ``arbiter dice eval DIR``.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import cv2
import typer

from arbiter import narrate
from arbiter.contract import Roll
from cli.common import dice_spec, fail, parse_size
from cli.match_db import DbOption, ResumeOption, open_recording
from datasets.dice.real import REAL_ROOT, Convention, RealDataError, build_real
from datasets.dice.real_clip import SlideshowRecipe, slideshow_clip
from datasets.dice.render import StillRecipe, ThrowRecipe, render_dataset, throw_clip, write_throw_clip
from evaluation.dice import EvalError, EvalSet, evaluate_folder
from evaluation.dice_bench import bench_dice
from evaluation.dice_recipes import DiceTrainRecipe, FacesRecipe, FinderRecipe, cost_estimate
from evaluation.train_dice import SWEEP_FLOOR, TrainingError, rescore, train_dice
from pipeline.dice import DiceRunOptions, referee_dice_video
from record.store import RecordError
from vision.dice import DEFAULT_DICE_MODEL, DiceReader, DiceReaderConfig
from vision.sources import FrameSource, SourceError
from vision.yolo import MODELS_DIR, ModelError

app = typer.Typer(
    help="Dice: read faces in photos, score on labelled photos, train, render, referee a video.",
    no_args_is_help=True,
)

OPERATING = DiceReaderConfig().confidence  # the reader's operating confidence (chosen on validation photos)
ModelOption = Annotated[
    Path | None,
    typer.Option(help="The dice model: its record dice_reader.json (or its folder); default models/."),
]
UnsureOption = Annotated[
    float,
    typer.Option(
        help="Mark a reading unsure where its face holds less than this share of the six faces' chance: "
        "higher reports more doubts and lets fewer mistakes through as sure (docs/dice.md measures the "
        "trade); a throw with an unsure die is reported, not rolled."
    ),
]
UNSURE = DiceReaderConfig().unsure_below


def _reader(
    model: Path | None,
    confidence: float,
    min_score: float | None = None,
    die_power: float | None = None,
    unsure_below: float = UNSURE,
) -> DiceReader:
    try:
        config = DiceReaderConfig(confidence=confidence, unsure_below=unsure_below)
        if die_power is not None:
            config = replace(config, die_power=die_power)
        if min_score is not None:
            config = replace(config, min_score=min_score)
        return DiceReader(model or DEFAULT_DICE_MODEL, config)
    except (ModelError, ValueError) as exc:
        fail(str(exc))


@app.command("read")
def read_cmd(
    images: Annotated[list[Path], typer.Argument(help="Photos (or video frames saved as images).")],
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object per image: its path and its dice.")
    ] = False,
    model: ModelOption = None,
    confidence: Annotated[float, typer.Option(help="Keep dice read at least this confident.")] = OPERATING,
    unsure_below: UnsureOption = UNSURE,
) -> None:
    """Find every die in each image and read its top face: box in pixels, value, confidence. A die resting
    cocked (no face up) is reported as such, with no value."""

    reader = _reader(model, confidence, unsure_below=unsure_below)
    failed = 0
    for path in images:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
        if image is None:
            failed += 1
            typer.secho(f"error: {path}: not found or not an image", fg=typer.colors.RED, err=True)
            continue
        dice = sorted(reader.read(image), key=lambda d: (d.box_px[1], d.box_px[0]))
        if as_json:
            typer.echo(json.dumps({"image": str(path), "dice": [d.to_dict() for d in dice]}))
            continue
        typer.echo(
            f"{path}: {len(dice)} dice" + (f", total {sum(d.value or 0 for d in dice)}" if dice else "")
        )
        for d in dice:
            x0, y0, x1, y1 = (round(v) for v in d.box_px)
            what = "cocked (no face up)" if d.value is None else f"{d.value}"
            doubt = "  (unsure)" if d.unsure else ""
            typer.echo(
                f"  [{x0:5d} {y0:5d} {x1:5d} {y1:5d}]  {what:<20} confidence {d.confidence:.2f}{doubt}"
            )
    if failed:
        raise typer.Exit(2)


@app.command("eval")
def eval_cmd(
    root: Annotated[
        Path,
        typer.Argument(
            help="A YOLO folder of labelled photos (class k = face k+1), or a folder of such folders (one "
            "set each, e.g. the eval/test folder written by 'arbiter dice data')."
        ),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    convention: Annotated[
        str | None,
        typer.Option(
            help="centre: label boxes are pip clusters (matched by centre); iou: whole dice (IoU >= 0.5). "
            "Default: the folder's dice_set.json, a known set name, or a guess from the label sizes."
        ),
    ] = None,
    model: ModelOption = None,
    confidence: Annotated[
        float, typer.Option(help="The operating threshold the main figures use.")
    ] = OPERATING,
    die_power: Annotated[
        float | None,
        typer.Option(help="Weigh the face reader's doubt that a crop is a die (DiceReaderConfig.die_power)."),
    ] = None,
) -> None:
    """Score the dice reader on real photographs, per set: value accuracy of the dice found, recall,
    precision, a confusion of faces (with cocked and missed), and the figures where recall reaches 99%
    (the goal: at least 99.5% of dice read right there)."""

    conv = None
    if convention is not None:
        try:
            conv = Convention(convention)
        except ValueError:
            fail(f"--convention must be centre or iou (got {convention!r})")
    reader = _reader(model, min(SWEEP_FLOOR, confidence), min_score=SWEEP_FLOOR, die_power=die_power)

    def progress(es: EvalSet) -> None:
        if not as_json:
            typer.echo(
                f"{es.name}: {len(es.pairs)} photos, {es.convention.value} ({es.convention_from})", err=True
            )

    try:
        result = evaluate_folder(root, reader.read, confidence, conv, on_set=progress)
    except EvalError as exc:
        fail(str(exc))
    if as_json:
        typer.echo(json.dumps(result))
        return
    for name, f in [*result["sets"].items(), ("all", result["all"])]:
        typer.echo(_summary(name, f))
        typer.echo(_confusion(f["confusion"]))


def _pct(v: float | None) -> str:
    return "  -   " if v is None else f"{100 * v:6.2f}%"


def _summary(name: str, f: dict[str, Any]) -> str:
    line = (
        f"{name}: {f['labels']} dice in {f['images']} photos; at confidence {f['threshold']}: recall "
        f"{_pct(f['recall'])}, precision {_pct(f['precision'])}, read right {_pct(f['accuracy'])} of found"
    )
    goal = f.get("at_goal_recall")
    if goal:
        line += (
            f"\n  at 99% recall (confidence {goal['threshold']}): read right {_pct(goal['accuracy'])}, "
            f"precision {_pct(goal['precision'])}; {goal['unsure']} unsure, read right of the sure "
            f"{_pct(goal['accuracy_of_sure'])}; goal {'met' if f['goal_met'] else 'NOT met'}"
        )
    else:
        line += "\n  99% recall is not reached at any confidence: goal NOT met"
    return line


def _confusion(confusion: dict[str, Any]) -> str:
    cols = list(next(iter(confusion.values())))
    rows = ["  true\\read " + " ".join(f"{c:>6}" for c in cols)]
    rows += [f"  {t:>9} " + " ".join(f"{n:6d}" for n in row.values()) for t, row in confusion.items()]
    return "\n".join(rows)


@app.command("data")
def data_cmd(
    out: Annotated[Path, typer.Argument(help="Folder to write (created).")] = Path("work/dice/data"),
    link: Annotated[bool, typer.Option(help="Symlink the photos (else copy them).")] = True,
) -> None:
    """Split the real photos (by source photo, stratified by face) into train, val and test, fix their
    known defects, and write YOLO folders (images, labels) plus eval/{val,test}/<set>/ for
    'arbiter dice eval'."""

    try:
        counts = build_real(out, link=link, log=lambda m: typer.echo(m, err=True))
    except RealDataError as exc:
        fail(str(exc))
    typer.echo(json.dumps(counts, indent=1))


@app.command("synth")
def synth_cmd(
    out: Annotated[Path, typer.Argument(help="Output folder (created).")],
    images: Annotated[int, typer.Option(help="Labelled stills: images/train, labels/train (YOLO).")] = 100,
    clips: Annotated[int, typer.Option(help="Throw clips: clip_NNN/video.mp4 and truth.json.")] = 0,
    seed: Annotated[int, typer.Option(help="The same seed gives the same images, byte for byte.")] = 0,
    dice: Annotated[int, typer.Option(help="Dice per throw clip.")] = 3,
    throws: Annotated[int, typer.Option(help="Throws per clip.")] = 3,
    off_table: Annotated[float, typer.Option(help="Chance a throw sends a die off the table.")] = 0.2,
    cocked: Annotated[float, typer.Option(help="Chance a throw leaves a die cocked on another.")] = 0.2,
) -> None:
    """Render dice: labelled stills for training (class = face - 1, 6 = cocked), and short throw clips with
    per-frame truth for the throw watcher and 'arbiter dice run'."""

    if images:
        counts = render_dataset(StillRecipe(count=images, seed=seed), out, "train")
        typer.echo(
            f"{counts['images']} stills, {counts['boxes']} dice in {out}/images/train: {counts['classes']}"
        )
    for k in range(clips):
        try:
            recipe = ThrowRecipe(
                dice=dice, throws=throws, seed=seed + k, off_table_share=off_table, cocked_share=cocked
            )
        except ValueError as exc:
            fail(str(exc))
        clip = throw_clip(recipe)
        video = write_throw_clip(clip, out / f"clip_{k:03d}")
        summary = "; ".join(
            f"throw {t.index}: thrown {','.join(t.thrown)} -> "
            + " ".join(f"{d}={'cocked' if v is None else v}" for d, v in t.values.items())
            + (f" off table {','.join(t.off_table)}" if t.off_table else "")
            for t in clip.throws
        )
        typer.echo(f"{video} ({len(clip.frames)} frames): {summary}")


@app.command("real-clip")
def real_clip_cmd(
    out: Annotated[Path, typer.Argument(help="Output folder (created): video.mp4 and truth.json.")],
    photos: Annotated[int, typer.Option(help="Held-out tray-phone test photos, each a throw.")] = 4,
    dice: Annotated[int | None, typer.Option(help="Keep this many dice of each photo (default all).")] = 5,
    size: Annotated[str, typer.Option(help="Frame size WIDTHxHEIGHT.")] = "1280x720",
) -> None:
    """A throw clip made from real photos (datasets.dice.real_clip): each held-out tray photo is a throw of
    its dice, then one die slides away while the rest are kept; the truth of every throw beside it."""
    try:
        recipe = SlideshowRecipe(photos=photos, dice=dice, size=parse_size(size))
        video = slideshow_clip(out, recipe)
    except (RealDataError, FileNotFoundError, ValueError) as exc:
        fail(str(exc))
    throws = json.loads((out / "truth.json").read_text())["throws"]
    typer.echo(f"{video}: {len(throws)} throws: " + "; ".join(str(t["values"]) for t in throws))


@app.command("train")
def train_cmd(
    finder_iters: Annotated[int, typer.Option(help="Finder training steps.")] = FinderRecipe().iters,
    face_iters: Annotated[int, typer.Option(help="Face reader training steps.")] = FacesRecipe().iters,
    renders: Annotated[int, typer.Option(help="Rendered stills added to the real photos.")] = 800,
    seed: Annotated[int, typer.Option(help="Seed of the finder (the face reader takes seed+1).")] = 0,
    work: Annotated[Path, typer.Option(help="Training data (cached) and stage outputs go here.")] = Path(
        "work/dice"
    ),
    models: Annotated[Path, typer.Option(help="Where the ONNX models and their record go.")] = Path("models"),
    limit: Annotated[
        int | None, typer.Option(help="At most this many real photos per set and split (smoke runs only).")
    ] = None,
    evaluate: Annotated[bool, typer.Option(help="Score the result on the held-out real photos.")] = True,
    estimate: Annotated[bool, typer.Option(help="Print the expected cost and stop.")] = False,
    real: Annotated[Path, typer.Option(help="The real photo sets (one folder per set).")] = REAL_ROOT,
) -> None:
    """Train the dice reader on this machine's CPU: the real training photos of every set plus renders,
    the finder and the face reader at once (one core each), then models/dice_finder.onnx,
    models/dice_faces.onnx and their record dice_reader.json (recipe, seeds, data counts, times, load, and
    the goal's figures on the unseen real photos). Needs torch (the train extra); reading needs neither."""

    base = DiceTrainRecipe().with_steps(finder_iters, face_iters)
    recipe = DiceTrainRecipe(
        data=replace(base.data, renders=replace(base.data.renders, count=renders), limit=limit),
        finder=replace(base.finder, seed=seed),
        faces=replace(base.faces, seed=seed + 1),
    )
    typer.echo(cost_estimate(recipe), err=True)
    if estimate:
        return
    command = "arbiter dice train " + " ".join(sys.argv[3:]) if len(sys.argv) > 3 else "arbiter dice train"
    try:
        record = train_dice(
            recipe,
            work,
            models,
            log=lambda m: typer.echo(m, err=True),
            command=command,
            evaluate=evaluate,
            real_root=real,
        )
    except TrainingError as exc:
        fail(str(exc))
    typer.echo(json.dumps({"seconds": record["seconds"], "goal": _goal_lines(record.get("figures", {}))}))


@app.command("rescore")
def rescore_cmd(
    models: Annotated[Path, typer.Option(help="The models whose record is scored again.")] = MODELS_DIR,
    work: Annotated[Path, typer.Option(help="The training's work folder (its data/eval photos).")] = Path(
        "work/dice"
    ),
) -> None:
    """Score a trained model's record again on the held-out real photos with this code's reader defaults
    (DiceReaderConfig), after its operating point was chosen on the validation photos; the record says so."""
    command = " ".join(["arbiter dice rescore", *sys.argv[3:]])
    eval_root = work / "data" / "eval"
    if not eval_root.is_dir():
        fail(f"{eval_root} not found: give the training's --work (its data/eval holds the held-out photos)")
    try:
        record = rescore(models, eval_root, command, log=lambda m: typer.echo(m, err=True))
    except ModelError as exc:
        fail(str(exc))
    typer.echo(json.dumps({"defaults": record["reader"]["defaults"], "goal": _goal_lines(record["figures"])}))


def _goal_lines(figures: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for split, result in figures.items():
        for name, f in [*result.get("sets", {}).items(), ("all", result.get("all", {}))]:
            out[f"{split}/{name}"] = {
                "recall": f.get("recall"),
                "accuracy": f.get("accuracy"),
                "at_goal_recall": f.get("at_goal_recall"),
                "goal_met": f.get("goal_met"),
            }
    return out


@app.command("run")
def run_cmd(
    source: Annotated[str, typer.Argument(help="A video file, camera index, rtsp:// URL or image folder.")],
    game: Annotated[str, typer.Option(help="A dice game id (pig, yacht, craps...).")],
    out: Annotated[
        Path, typer.Option(help="Output folder: events.jsonl, decisions.jsonl, issues.jsonl.")
    ] = Path("out/dice_run"),
    players: Annotated[str, typer.Option(help="Players in turn order, comma separated.")] = "A,B",
    annotate: Annotated[bool, typer.Option(help="Write annotated.mp4.")] = False,
    model: ModelOption = None,
    every: Annotated[int, typer.Option(help="Read every Nth frame.")] = 1,
    unsure_below: UnsureOption = UNSURE,
    db: DbOption = None,
    resume: ResumeOption = None,
) -> None:
    """Referee a filmed dice game: follow the throws, emit one roll per settled throw, apply the rules.
    With --db each roll and the referee's decisions on it are recorded as they happen (the match history
    and reports of the dashboard); --resume goes on with an interrupted match of a video file, replayed
    from its start (a live camera cannot replay the throws that decided whose turn it is)."""

    spec = dice_spec(game)
    try:
        src = FrameSource(source)
        reader = DiceReaderConfig(unsure_below=unsure_below)
        options = DiceRunOptions(model=model, reader=reader, annotate=annotate, every=every)
    except (SourceError, ValueError) as exc:
        fail(str(exc))
    names = tuple(p.strip() for p in players.split(",") if p.strip())
    rec, match_options = None, None
    if db is not None:
        if resume is not None and src.live:
            fail(
                "a live camera cannot replay the throws before it was lost (they say whose turn it is): "
                "resume a dice match from a video file of it, or start a new match"
            )
        rec, header = open_recording(db, resume, spec, names, source, src.live)
        names, match_options = header.players, dict(header.options)

    def on_event(event: object) -> None:
        if isinstance(event, dict):
            what = event.get("kind", event["type"])
            typer.echo(f"  ! {what}: {event.get('die', '')} {event.get('note', event.get('message', ''))}")
            return
        typer.echo("  " + narrate.describe(event))
        if rec is not None and isinstance(event, Roll):  # the record's engine makes its own decisions
            rec.recorder(event)

    try:
        result = referee_dice_video(src, spec, names, out, options, match_options, on_event=on_event)
    except (ModelError, ValueError, RecordError) as exc:
        if rec is not None:
            rec.close(finished=False)  # the match stays unfinished: it can be resumed
        fail(str(exc))
    typer.echo(
        f"{result.frames} frames at {result.fps:.1f} fps; {len(result.rolls)} rolls, {len(result.decisions)} "
        f"decisions, {len(result.issues)} issues in {out}"
    )
    if rec is not None:
        rec.close(finished=not src.live)  # a live source ends when it is lost: its match reads interrupted
        cut = ", cut short when the camera was lost" if src.live else ""
        typer.echo(f"recorded as match {rec.match_id} in {db}{cut}")


@app.command("bench")
def bench_cmd(
    size: Annotated[
        str, typer.Option(help="Frame size WIDTHxHEIGHT of the rendered throw clip.")
    ] = "1280x720",
    model: ModelOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Frames per second of following dice throws (as 'arbiter dice run' does) on one core, beside
    decoding and reading every whole frame, on one rendered clip of throws."""
    width, height = parse_size(size)
    try:
        figures = bench_dice((width, height), model, log=lambda m: typer.echo(m, err=True))
    except ModelError as exc:
        fail(str(exc))
    if as_json:
        typer.echo(json.dumps(figures))
        return
    f, e = figures["follow"], figures["every_frame"]
    rows = [
        (
            f"following the throws ({f['frames_read']} frames read, {f['rolls']} rolls)",
            f["cpu_fps"],
            f["wall_fps"],
        ),
        ("  while a die moves (every frame read)", f["cpu_fps_while_dice_move"], None),
        ("peer: decode + reader on every whole frame", e["cpu_fps"], e["wall_fps"]),
    ]
    typer.echo(f"{f['frames']} frames of rendered throws at {width}x{height}, one core, CPU time (wall):")
    for what, fps, wall in rows:
        typer.echo(f"  {what:<56} {fps:7.1f} fps" + (f"  ({wall:.1f})" if wall is not None else ""))
    c = figures["crop"]
    typer.echo(
        f"  face reader per die crop: {c['ms_one']} ms one at a time, {c['ms_each_batched']} ms each "
        f"with the frame's {c['dice']} dice batched (goal: at most 15 ms)"
    )
    typer.echo(f"  (load average {figures['load_average']}; the goal is at least 15 fps while following)")
