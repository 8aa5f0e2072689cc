"""``arbiter run`` and ``arbiter calibrate``: referee a video or camera, and find the table."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import cv2
import typer
from tqdm import tqdm

from arbiter import contract, narrate
from arbiter.games import GAME_IDS, BilliardsSpec, DiceSpec, GameSpec
from cli import dice
from cli.common import billiards_spec, fail, game_spec, parse_points
from pipeline.billiards import RunOptions, referee_video
from record.recorder import Recorder, recording
from record.store import MatchRecord, RecordError
from vision.calibration import CalibrationError, calibrate_auto, calibrate_manual
from vision.overlays import table_overlay
from vision.sources import FrameSource, SourceError
from vision.yolo import ModelError

app = typer.Typer()


@dataclass
class _Recording:
    """The match record a run writes into, when ``--db`` asks for one."""

    record: MatchRecord
    match_id: int
    recorder: Recorder


def _open_recording(db: Path, resume: int | None, spec: GameSpec, names: tuple[str, ...], source: str,
                    live: bool) -> tuple[_Recording, contract.Match]:  # fmt: skip
    """Open ``db`` and start (or resume) the match; a file is replayed from its start and what was recorded
    is skipped, a live source goes on from where the record stopped."""
    try:
        record = MatchRecord.open(db)
        if resume is not None:
            header = record.header(resume)
            match_id = resume
        else:
            header = contract.Match(game=spec.id, players=names)
            match_id = record.start_match(header, source=source)
        offset = (record.resume_point(match_id) or 0.0) if live and resume is not None else 0.0
        recorder = recording(record, match_id, skip_recorded=not live, t_offset=offset)
    except (RecordError, KeyError, ValueError) as exc:
        fail(str(exc))
    return _Recording(record, match_id, recorder), header


@app.command()
def run(
    source: Annotated[
        str, typer.Argument(help="A video file, a camera index (0), an rtsp:// URL or an image folder.")
    ],
    game: Annotated[str, typer.Option(help=f"One of: {', '.join(GAME_IDS)}.")],
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
    spec = game_spec(game)
    if isinstance(spec, DiceSpec):  # a camera over a game table: dice are followed, not balls
        dice.run_cmd(source, spec.id, out, players, annotate, model=None, every=1)
        return
    if not isinstance(spec, BilliardsSpec):
        fail(f"{spec.id} has no camera pipeline yet; referee its event stream with 'arbiter referee'")
    try:
        src = FrameSource(source)
    except SourceError as exc:
        fail(str(exc))
    names = tuple(p.strip() for p in players.split(",") if p.strip())
    rec = None
    if db is not None:
        rec, header = _open_recording(db, resume, spec, names, source, src.live)
        if header.game != spec.id:
            rec.record.close()
            fail(
                f"match {rec.match_id} of {db} is a {header.game} match: resume it with --game {header.game}"
            )
        names = header.players
    # A live source resumed mid-shot goes on with that shot; a replayed file finds its start again.
    shot_open = src.live and rec is not None and rec.recorder.shot_open
    options = RunOptions(
        spec=spec,
        players=names,
        calibration=calibration,
        annotate=annotate,
        detector=detector,
        shot_open=shot_open,
    )
    _run_billiards(src, options, out, rec)
    if rec is not None:
        typer.echo(f"recorded as match {rec.match_id} in {db}")


def _run_billiards(src: FrameSource, options: RunOptions, out: Path, rec: _Recording | None) -> None:
    """The pipeline over ``src`` with a progress bar, each event printed and recorded as it comes."""
    bar = tqdm(total=src.frame_count, unit="frame", disable=None, file=sys.stderr)

    def on_frame(n: int, fps: float) -> None:
        bar.update(1)
        bar.set_postfix(fps=f"{fps:.1f}")

    def on_event(event: object) -> None:
        bar.write(narrate.describe(event))
        if rec is not None:
            rec.recorder(event)

    try:
        result = referee_video(src, options, out, on_frame=on_frame, on_event=on_event)
    except (CalibrationError, ModelError, ValueError) as exc:
        bar.close()
        if rec is not None:
            rec.record.close()  # the match stays unfinished: it reads as interrupted and can be resumed
        fail(str(exc))
    bar.close()
    if rec is not None:
        if not result.interrupted:
            rec.record.finish(rec.match_id)
        rec.record.close()
    typer.echo(
        f"{result.frames} frames ({result.bad_frames} unreadable skipped) at {result.fps:.1f} fps; "
        f"{len(result.events)} events in {out / 'events.jsonl'}"
    )
    if result.shot_open:
        resume = f"; resume the match with --resume {rec.match_id}" if rec is not None else ""
        typer.echo(f"{src.spec} was lost in the middle of a shot: it is left open, not judged{resume}")


@app.command()
def calibrate(
    source: Annotated[
        str, typer.Argument(help="A video file, camera index, URL or image folder showing the table.")
    ],
    game: Annotated[str, typer.Option(help="A billiards game: snooker, straight-pool, pyramid, five-pins.")],
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
    table = billiards_spec(game).table
    try:
        frame = next(iter(FrameSource(source)), None)
    except SourceError as exc:
        fail(str(exc))
    if frame is None:
        fail(f"{source} gave no frame")
    h, w = frame.image.shape[:2]
    try:
        if points:
            calib = calibrate_manual(parse_points(points), table, (w, h), image=frame.image)
        else:
            calib = calibrate_auto(frame.image, table)
    except (CalibrationError, ValueError, KeyError) as exc:
        fail(str(exc))
    calib.save(out)
    cv2.imwrite(str(out.with_suffix(".png")), table_overlay(frame.image, calib, table))
    typer.echo(
        f"camera profile {out} ({'manual' if points else 'automatic'}), reprojection error "
        f"{calib.reprojection_error_px:.2f} px; check {out.with_suffix('.png')}"
    )
