"""``arbiter show``, ``validate`` and ``referee``: an event stream in words, checked, and refereed; and
``arbiter bench referee``: how long refereeing a whole match takes, against issue 13's 200 ms budget."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer

from adjudication.engines import NoEngineError, engine_for
from adjudication.referee import RefereeError, referee
from arbiter import contract, narrate
from cli.common import fail, game_spec, read_stream
from cli.evaluate import bench_app
from evaluation.referee_bench import BUDGET_S, REPEATS, time_referee

app = typer.Typer()
SAMPLE_MATCH = Path(__file__).resolve().parents[1] / "samples" / "futsal" / "match.jsonl"


@app.command()
def show(
    path: Annotated[Path, typer.Argument(help="A shot folder (from 'arbiter synth') or a .jsonl file.")],
) -> None:
    """Print the events of a shot in plain words, with a summary."""
    truth = path / "truth.jsonl" if path.is_dir() else path
    header, events = read_stream(truth, "give a shot folder written by 'arbiter synth' or an events file")
    typer.echo(narrate.describe(header))
    for event in events:
        typer.echo("  " + narrate.describe(event))
    for line in narrate.summarise(list[object](events)):
        typer.echo(line)


@app.command()
def validate(
    path: Annotated[Path, typer.Argument(help="An events file in the contract (JSON Lines).")],
) -> None:
    """Check an events file against the contract; a bad line is reported with its number and the reason."""
    header, events = read_stream(path, "give an events file (JSON Lines)")
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
    if not events.exists():
        fail(f"{events} not found: give an events file (JSON Lines) starting with a match header")
    engine = None
    if game is not None:
        try:
            engine = engine_for(game_spec(game))
        except NoEngineError as exc:
            fail(str(exc))
    state = None
    try:
        for step in referee(events, engine):
            state = step.state
            for decision in step.decisions:
                typer.echo(contract.to_json(decision) if as_json else narrate.describe_decision(decision))
    except RefereeError as exc:
        fail(f"{events}: {exc}")
    if state is None:
        typer.echo("no events after the header: nothing to decide", err=True)
        return
    result = f"final score: {', '.join(f'{p} {v}' for p, v in state.score.items())}"
    result += (
        f"; {state.winner} wins" if state.winner else ("; over, no winner" if state.over else "; not over")
    )
    typer.echo(result, err=as_json)


@bench_app.command("referee")
def bench_referee_cmd(
    streams: Annotated[
        list[Path] | None,
        typer.Argument(help="Event streams of whole matches (default: the bundled futsal match)."),
    ] = None,
    repeats: Annotated[int, typer.Option(min=1, help="Runs of each stream; the best counts.")] = REPEATS,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per stream.")] = False,
) -> None:
    """Wall and CPU milliseconds to referee a whole match (the stream read and checked line by line, the
    engine stepped over it), best of a few runs, against the 200 ms budget; exit status 1 when over it."""
    over = False
    for path in streams or [SAMPLE_MATCH]:
        header, _ = read_stream(path, "give the event stream (JSON Lines) of a whole match")
        try:
            engine = engine_for(game_spec(header.game))
        except NoEngineError as exc:
            fail(str(exc))
        timing = time_referee(path.read_text(encoding="utf-8").splitlines(), engine, repeats)
        over = over or timing.cpu_s >= BUDGET_S
        if as_json:
            figures = {"stream": str(path), **asdict(timing), "wall_ms": timing.best_s * 1000}
            typer.echo(json.dumps({**figures, "cpu_ms": timing.cpu_s * 1000, "budget_ms": BUDGET_S * 1000}))
        else:
            typer.echo(f"{path}: {timing}")
    if over:
        raise typer.Exit(1)
