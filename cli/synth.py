"""``arbiter synth``: synthetic worlds with exact ground truth."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer

from arbiter.games import BILLIARDS_GAMES
from cli.common import billiards_spec, fail, parse_size
from datasets.billiards.shots import INTENTS
from datasets.billiards.synth import INTENT_WEIGHTS, SynthConfig
from datasets.billiards.synth import synth_billiards as synthesise
from datasets.billiards.variety import VARIETIES

app = typer.Typer(help="Generate synthetic worlds with exact ground truth.", no_args_is_help=True)
GAME_NAMES = ", ".join(s.id for s in BILLIARDS_GAMES)


def _say_shot(summary: dict[str, Any]) -> None:
    """One line per shot written: its intent, first contact, pots, cushions and length."""
    o = summary["outcome"]
    pots = ", ".join(f"{b}->{p}" for b, p in o["pots"]) or "-"
    typer.echo(
        f"shot {summary['shot']:3d}  {summary['intent']:<7} first={o['first_contact'] or '-':<8} "
        f"pots={pots:<20} cushions={o['cushions']:<3} clip={summary['clip_s']:.1f}s"
    )


@app.command("billiards")
def synth_billiards(
    game: Annotated[str, typer.Option(help=f"One of: {GAME_NAMES}.")],
    out: Annotated[Path, typer.Option(help="Output directory (created); one shot_NNN/ folder per shot.")],
    shots: Annotated[int, typer.Option(help="Number of shots.")] = 1,
    seed: Annotated[int, typer.Option(help="Seed: the same seed gives byte-identical truth.")] = 0,
    fps: Annotated[float, typer.Option(help="Frames per second of the simulated camera.")] = 60.0,
    size: Annotated[str, typer.Option(help="Frame size WIDTHxHEIGHT.")] = "1920x1080",
    blur: Annotated[int, typer.Option(help="Sub-frames per frame for motion blur (odd; 1 = none).")] = 3,
    yolo_every: Annotated[
        int, typer.Option(help="Export every Nth frame as a YOLO image and label (0: none).")
    ] = 10,
    video: Annotated[bool, typer.Option(help="Write video.mp4 for each shot.")] = True,
    intent: Annotated[
        list[str] | None,
        typer.Option(help=f"Only shots of this intent (repeat for several): {', '.join(INTENTS)}."),
    ] = None,
    variety: Annotated[
        str,
        typer.Option(help=f"Cameras and rooms drawn: {', '.join(VARIETIES)} (broadcast views: some or all)."),
    ] = "classic",
    table: Annotated[
        str | None,
        typer.Option(help="The table's size, from the game's catalogue (e.g. 6ft); default the game's own."),
    ] = None,
) -> None:
    """Simulate billiard shots with pooltool and film them: truth, frames, video and YOLO data."""
    width, height = parse_size(size)
    spec = billiards_spec(game)
    if variety not in VARIETIES:
        fail(f"unknown variety {variety!r}; choose one of: {', '.join(VARIETIES)}")
    try:
        cfg = SynthConfig(
            game=spec.id,
            shots=shots,
            seed=seed,
            fps=fps,
            width=width,
            height=height,
            blur_samples=blur,
            yolo_every=yolo_every,
            video=video,
            intents=dict.fromkeys(intent, 1.0) if intent else dict(INTENT_WEIGHTS),
            variety=VARIETIES[variety],
            table=table,
        )
    except ValueError as exc:
        fail(str(exc))
    started = time.perf_counter()
    synthesise(cfg, out, on_shot=_say_shot)
    typer.echo(
        f"wrote {shots} shot(s) of {spec.id} to {out} in {time.perf_counter() - started:.1f} s "
        f"(data.yaml lists the YOLO images)"
    )
