"""``arbiter run`` and ``arbiter calibrate``: referee a video or camera, and find the table."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import cv2
import typer
from tqdm import tqdm

from arbiter import narrate
from arbiter.games import GAME_IDS, BilliardsSpec, DiceSpec
from cli import dice
from cli.common import billiards_spec, fail, game_spec, parse_points, table_size
from cli.match_db import DbOption, Recording, ResumeOption, open_recording
from pipeline.billiards import RunOptions, referee_video
from pipeline.photos import referee_photos
from pipeline.table_watch import Notice, TableChoice, find_table, notice
from record.store import RecordError
from vision.calibration import CalibrationError
from vision.overlays import table_overlay
from vision.sources import FrameSource, SourceError
from vision.yolo import ModelError

app = typer.Typer()
TABLE_HELP = (
    "The table's size, from the game's catalogue (snooker: 12ft, 10ft, 9ft, 6ft; pool: 9ft, 8ft, 7ft; ...), "
    "or its own playing area in mm between the cushion noses, length x width (1575x700); default: told from "
    "the balls' size (a table of no catalogue shape seen from above: its own, measured), else the game's own."
)
CORNERS_HELP = (
    "Typed table points in pixels, 'bl=x,y;br=x,y;tl=x,y;tr=x,y' (playing-area corners at the cushion "
    "noses): the way round a table not found, or found unsure."
)
FPS_HELP = (
    "An image folder's frame rate: its images are then the frames of a video, followed as one; without it "
    "each image is a photo refereed on its own."
)


def _recording_of(
    db: Path | None, resume: int | None, spec: BilliardsSpec, names: tuple[str, ...], source: str, live: bool,
    size: str | None,
) -> tuple[Recording | None, tuple[str, ...], str | None]:  # fmt: skip
    """The match the run records into (none without ``--db``), its players and the table's size (``size``,
    ``--table``): a resumed match keeps its own players and table, and must be of the game asked for."""
    if db is None:
        return None, names, size
    rec, header = open_recording(db, resume, spec, names, source, live)
    recorded = (header.table or spec.table.size) if resume is not None else None
    return rec, header.players, _resumed_size(rec, recorded, size)


def _resumed_size(rec: Recording | None, recorded: str | None, size: str | None) -> str | None:
    """The table a run goes on with: a resumed match's own (``--table`` may only repeat it), else ``size``."""
    if recorded is None:
        return size
    if size is not None and size != recorded:
        if rec is not None:
            rec.record.close()
        fail(f"match {rec.match_id if rec else '?'} was recorded on the {recorded} table: resume it without "
             f"--table, or with --table {recorded}")  # fmt: skip
    return recorded


@app.command()
def run(
    source: Annotated[
        str, typer.Argument(help="A video file, a camera index (0), an rtsp:// URL or an image folder.")
    ],
    game: Annotated[str, typer.Option(help=f"One of: {', '.join(GAME_IDS)}.")],
    out: Annotated[
        Path, typer.Option(help="Output folder: events.jsonl, tracks.jsonl, detections.jsonl, annotated.mp4.")
    ] = Path("out/run"),
    calibration: Annotated[Path | None, typer.Option(help="A saved camera profile (JSON) to use.")] = None,
    players: Annotated[str, typer.Option(help="Players in turn order, comma separated.")] = "A,B",
    annotate: Annotated[bool, typer.Option(help="Write annotated.mp4.")] = True,
    detector: Annotated[
        str, typer.Option(help="classical (fast) or yolo (the trained network).")
    ] = "classical",
    db: DbOption = None,
    resume: ResumeOption = None,
    table: Annotated[str | None, typer.Option(help=TABLE_HELP)] = None,
    corners: Annotated[str | None, typer.Option(help=CORNERS_HELP)] = None,
    fps: Annotated[float | None, typer.Option(help=FPS_HELP, min=0.1)] = None,
) -> None:
    """Referee a video or a live camera: find the table, follow the balls, write the event stream.
    The table is found from the video itself (frames of its first seconds are tried until the calibration
    is sure; an unsure one is said loudly); --corners or --calibration are the way round it. A cut to
    another camera pauses the events until the table is found again. An image folder (or one image) is
    photos, each refereed on its own (its table, its balls named; --fps: a video's frames instead).
    With --db every event and the referee's decision on it are recorded as they happen. A dice game is
    'arbiter dice run' (its own options there)."""
    spec = game_spec(game)
    if isinstance(spec, DiceSpec):  # a camera over a game table: dice are followed, not balls
        _no_table_options(spec, calibration=calibration, corners=corners, table=table, fps=fps,
                          detector=None if detector == "classical" else detector)  # fmt: skip
        dice.run_cmd(source, spec.id, out, players, annotate, db=db, resume=resume)
        return
    if not isinstance(spec, BilliardsSpec):
        fail(f"{spec.id} has no camera pipeline yet; referee its event stream with 'arbiter referee'")
    size, typed = table_size(spec, table), _typed(corners, calibration)
    src, photos = _opened(source, fps, db is not None)
    names = tuple(p.strip() for p in players.split(",") if p.strip())
    rec, names, size = _recording_of(db, resume, spec, names, source, src.live, size)
    # A live source resumed mid-shot goes on with that shot; a replayed file finds its start again.
    shot_open = src.live and rec is not None and rec.recorder.shot_open
    options = RunOptions(
        spec=spec,
        players=names,
        calibration=calibration,
        corners=typed,
        table_size=size,
        annotate=annotate,
        detector=detector,
        shot_open=shot_open,
    )
    if photos:
        _run_photos(src, options, out)
        return
    _run_billiards(src, options, out, rec)
    if rec is not None:
        typer.echo(f"recorded as match {rec.match_id} in {db}")


def _no_table_options(spec: DiceSpec, **given: object) -> None:
    """Refuse the options of a billiards table given for a dice game, rather than ignore them."""
    named = [f"--{name}" for name, value in given.items() if value is not None]
    if named:
        verb = "is" if len(named) == 1 else "are"
        fail(
            f"{', '.join(named)} {verb} for a billiards table; {spec.id} is a dice game, its camera needs no "
            "table: leave them out (the dice options: 'arbiter dice run --help')"
        )


def _typed(corners: str | None, calibration: Path | None) -> dict[str, tuple[float, float]] | None:
    """The typed corners (``--corners``), refused beside a saved profile (``--calibration``)."""
    typed = parse_points(corners) if corners else None
    if typed is not None and calibration is not None:
        fail("give either --corners or --calibration, not both")
    return typed


def _opened(source: str, fps: float | None, recorded: bool) -> tuple[FrameSource, bool]:
    """The source, and whether it is photos (an image folder or one image, with no ``--fps`` saying they
    are a video's frames); photos cannot be recorded as a match."""
    try:
        src = FrameSource(source, folder_fps=fps or 30.0)
    except SourceError as exc:
        fail(str(exc))
    photos = src.photos is not None and fps is None
    if photos and recorded:
        fail(f"{source} holds photos, which make no match to record: leave out --db, or give --fps to "
             "follow its images as the frames of a video")  # fmt: skip
    return src, photos


def _run_billiards(src: FrameSource, options: RunOptions, out: Path, rec: Recording | None) -> None:
    """The pipeline over ``src`` with a progress bar, each event printed and recorded as it comes."""
    bar = tqdm(total=src.frame_count, unit="frame", disable=None, file=sys.stderr)

    def on_frame(n: int, fps: float) -> None:
        bar.update(1)
        bar.set_postfix(fps=f"{fps:.1f}")

    def on_event(event: object) -> None:
        bar.write(narrate.describe(event))
        if rec is not None:
            rec.recorder(event)

    def on_notice(notice: Notice) -> None:
        bar.clear()
        _say(notice)
        bar.refresh()

    try:
        result = referee_video(
            src,
            options,
            out,
            on_frame=on_frame,
            on_event=on_event,
            on_notice=on_notice,
            on_header=rec.recorder if rec is not None else None,  # the record's match takes the table found
        )
    except (CalibrationError, ModelError, ValueError, RecordError) as exc:
        bar.close()
        if rec is not None:
            rec.record.close()  # the match stays unfinished: it reads as interrupted and can be resumed
        fail(str(exc))
    bar.close()
    if rec is not None:
        rec.close(finished=not result.interrupted)
    typer.echo(
        f"{result.frames} frames ({result.bad_frames} unreadable skipped) at {result.fps:.1f} fps; "
        f"{len(result.events)} events in {out / 'events.jsonl'}"
    )
    if result.paused_frames:
        watch = [n.kind for n in result.notices if n.kind in ("cut", "resumed")]
        end = "; the table was not found again after the last cut" if watch and watch[-1] == "cut" else ""
        typer.echo(
            f"{watch.count('cut')} camera cut(s): {result.paused_frames} frames not refereed while the "
            f"table was found again{end} (times in {out / 'notices.jsonl'})"
        )
    if result.calibration is not None and not result.calibration.sure:
        typer.secho("the calibration was UNSURE: check annotated.mp4 (see the warning above)", fg="yellow")
    if result.shot_open:
        resume = f"; resume the match with --resume {rec.match_id}" if rec is not None else ""
        typer.echo(f"{src.spec} was lost in the middle of a shot: it is left open, not judged{resume}")


def _run_photos(src: FrameSource, options: RunOptions, out: Path) -> None:
    """Every photo of ``src`` on its own (``pipeline.photos``), with a progress bar; then how many had
    their table found, and where the files are."""
    bar = tqdm(total=src.frame_count, unit="photo", disable=None, file=sys.stderr)

    def on_notice(notice: Notice) -> None:
        bar.clear()
        _say(notice)
        bar.refresh()

    try:
        result = referee_photos(src, options, out, on_frame=lambda n, fps: bar.update(1), on_notice=on_notice)
    except (CalibrationError, ModelError, ValueError) as exc:
        bar.close()
        fail(str(exc))
    bar.close()
    unsure = sum(n.kind == "unsure" for n in result.notices)
    small = sum(n.kind == "too_small" for n in result.notices)
    balls = sum(len(balls) for _, balls in result.track_frames)
    skipped = f": {', '.join(src.stats.unreadable)}" if src.stats.unreadable else ""
    too_small = f", {small} with balls too small to see" if small else ""
    typer.echo(
        f"{result.frames} photos ({result.bad_frames} unreadable skipped{skipped}): the table found on "
        f"{result.frames - result.paused_frames} ({unsure} calibration(s) UNSURE{too_small}), {balls} balls "
        f"named; each photo's balls in {out / 'tracks.jsonl'}, drawn in {out / 'annotated'}"
    )
    if unsure or small or result.paused_frames:
        typer.secho("check the photos the warnings above name (annotated/), or give --corners", fg="yellow")


def _say(notice: Notice) -> None:
    """A notice of the run on stderr: an unsure calibration in yellow, with what to do."""
    loud = notice.kind == "unsure"
    head = "WARNING: " if loud else ""
    typer.secho(f"[{notice.t:7.2f} s] {head}{notice.text}", fg="yellow" if loud else None, err=True)


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
    table: Annotated[str | None, typer.Option(help=TABLE_HELP)] = None,
) -> None:
    """Find the table (or take four or more typed points) and save the camera profile for 'run --calibration'.
    Automatic: frames of the first seconds are tried until the calibration is sure; the profile records the
    verdict and the table's size. Also writes PROFILE.png: the fitted table drawn over the frame."""
    spec = billiards_spec(game)
    size = table_size(spec, table)
    try:
        src = FrameSource(source)
    except SourceError as exc:
        fail(str(exc))
    typed = parse_points(points) if points else None
    try:
        found = find_table(iter(src), spec, TableChoice(corners=typed, size=size), src.fps or 30.0)
    except CalibrationError as exc:
        fail(str(exc))
    calib = found.calib
    calib.save(out)
    cv2.imwrite(str(out.with_suffix(".png")), table_overlay(found.frame.image, calib, calib.table))
    _say(notice(found))
    typer.echo(
        f"camera profile {out} ({'manual' if points else 'automatic'}, {calib.table.size or 'standard'} "
        f"table, {'sure' if calib.sure else 'UNSURE'}), reprojection error "
        f"{calib.reprojection_error_px:.2f} px; check {out.with_suffix('.png')}"
    )
