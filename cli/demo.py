"""``arbiter demo``: the bundled sample through the whole pipeline, its calls, and its truth."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from adjudication.referee import referee
from arbiter import contract, narrate
from cli.common import SAMPLE_SHOT, billiards_spec, fail
from evaluation.billiards import in_truth_names
from evaluation.scoring import EventScore
from pipeline.billiards import RunOptions, RunResult, referee_video
from record.recorder import recording
from record.store import MatchRecord
from vision.sources import FrameSource, SourceError

app = typer.Typer()

DEMO_DB = "arbiter.db"


@app.command()
def demo(
    shot_dir: Annotated[Path, typer.Option(help="The sample shot to referee.")] = SAMPLE_SHOT,
    out: Annotated[Path, typer.Option(help="Where the run's files go.")] = Path("out/demo"),
) -> None:
    """Referee the bundled sample clip through the whole pipeline, then compare with its ground truth."""
    try:
        src = FrameSource(shot_dir / "video.mp4")
    except SourceError as exc:
        fail(f"{exc} (the bundled sample is missing: git checkout samples/)")
    header, truth = contract.read_stream(shot_dir / "truth.jsonl")
    spec = billiards_spec(header.game)
    width, height = src.size or (0, 0)
    typer.echo(f"refereeing {shot_dir / 'video.mp4'} ({spec.id}, {width}x{height}, {src.fps:.0f} fps)")
    db = out / DEMO_DB
    db.unlink(missing_ok=True)  # the demo's own record, made afresh each time
    with MatchRecord.open(db) as record:
        match_id = record.start_match(contract.Match(game=spec.id, players=header.players), str(src.spec))
        recorder = recording(record, match_id)

        def on_event(event: object) -> None:
            typer.echo("  " + narrate.describe(event))
            recorder(event)

        options = RunOptions(spec=spec, players=header.players)
        result = referee_video(src, options, out, on_event=on_event, on_header=recorder)
        record.finish(match_id)
        decisions = [x for x in record.lines(match_id) if isinstance(x, contract.Decision)]
    typer.echo(
        f"{result.frames} frames at {result.fps:.1f} fps; files in {out}/ (events.jsonl, tracks.jsonl, "
        f"detections.jsonl, annotated.mp4, and the match record {DEMO_DB})"
    )
    for line in narrate.summarise(result.events):
        typer.echo(line)
    typer.echo("the referee's call" + ("s:" if len(decisions) != 1 else ":"))
    for decision in decisions:
        typer.echo("  " + narrate.describe_decision(decision).replace("\n", "\n  "))
    _against_truth(shot_dir, header, truth, result, decisions, spec.table.ball_diameter_mm)


def _calls(decisions: list[contract.Decision]) -> list[tuple[object, ...]]:
    """What a call decides: the foul and its value, the points, who is next, what is on, what is awaited."""
    return [
        (d.foul.reason if d.foul else None, d.foul.penalty if d.foul else 0, dict(d.points), d.next, d.on,
         d.awaiting)
        for d in decisions
    ]  # fmt: skip


def _against_truth(
    shot_dir: Path,
    header: contract.Match,
    truth: list[contract.JsonLine],
    result: RunResult,
    decisions: list[contract.Decision],
    ball_diameter_mm: float,
) -> None:
    """The camera's events and call beside the physics engine's: the same call is what counts."""
    truth_decisions = [d for step in referee([contract.to_json(header), *map(contract.to_json, truth)])
                       for d in step.decisions]  # fmt: skip
    same = _calls(truth_decisions) == _calls(decisions)
    score = EventScore.new()
    score.add(truth, in_truth_names(shot_dir, result, ball_diameter_mm))
    found = score.as_dict()["events"]
    typer.echo(
        "against the physics engine's truth: "
        + ", ".join(f"{k} {round(v['recall'] * v['true'])} of {v['true']} found" for k, v in found.items())
        + f"; the cue ball's first contact {'right' if score.first_kind_right else 'WRONG'} by kind"
        + f"; the call {'is the same' if same else 'DIFFERS'} as on the truth"
    )
