"""The dashboard's controller: everything the page does, without Streamlit.

The page (``dashboard/app.py``) lays out what this module returns and calls what it offers; nothing here
imports Streamlit, so it is tested directly. It holds no vision and no rules either (docs/style.md, point 9):
it calls what the command line calls.

- a video run is ``pipeline.billiards.referee_video`` (as ``arbiter run``; a dice game:
  ``pipeline.dice.referee_dice_video``, as ``arbiter dice run``) in a background thread, recorded as
  it goes by an ``record.store.Recorder`` (events and the engine's decisions, one transaction each), so the
  page never waits for it and a stopped run, a lost camera or a bad file keeps everything already recorded;
- the table is found by ``vision.calibration.calibrate_auto`` or fitted to typed corners by
  ``calibrate_manual`` (as ``arbiter calibrate``);
- a player's input (a nominated ball, a called pocket, a choice after a foul, a dice claim or bet) is a line
  of the contract, tried on the engine before it is recorded, so a slip is refused with the rule's reason;
- a referee's correction is an ``record.overrides.Override``: the recorded lines stay as they are, the
  overrides are kept beside them in the same database (``OverrideStore``), and every decision after the
  corrected line is recomputed by ``adjudication.engine.referee``;
- exports are ``record.export``'s (JSON Lines, CSV, the HTML report with the shot diagrams).
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from adjudication.engines import OPTION_HELP, engine_for, refereed
from adjudication.referee import Referee, RefereeError
from arbiter import contract as c
from arbiter import narrate
from arbiter.games import GAME_IDS, GAMES, BilliardsSpec, billiards, dice, game
from dashboard import views
from pipeline.billiards import RunOptions, referee_video
from pipeline.dice import DiceRunOptions, referee_dice_video
from record import export, overrides
from record.diagram import read_tracks, shot_svg, split_shots
from record.overrides import Override, OverrideError, Recomputed
from record.recorder import Recorder
from record.store import CAMERA_TYPES, MatchInfo, MatchRecord, RecordError
from vision.calibration import CalibrationError, calibrate_auto, calibrate_manual
from vision.overlays import table_overlay
from vision.sources import FrameSource, SourceError
from vision.yolo import ModelError

DEFAULT_DB = Path("out/arbiter.db")
SAMPLE_SHOT = Path(__file__).resolve().parents[1] / "samples" / "billiards" / "snooker" / "shot_000"
SAMPLE_VIDEO = SAMPLE_SHOT / "video.mp4"
SOURCE_KINDS: Mapping[str, str] = {
    "sample": "the bundled sample clip",
    "upload": "upload a video",
    "file": "a video file on this machine",
    "camera": "a camera (index)",
    "rtsp": "a stream (rtsp:// URL)",
    "folder": "a folder of images",
    "manual": "no video: enter the events by hand",
}
FRAME_EVERY_S = 0.25  # how often the live view keeps a frame of a running video (display only)
BOOT_S = 1.0  # a roll typed by hand is timed this long after the last recorded line at the latest
CORNERS = ("bl", "br", "tl", "tr")  # the points a manual calibration asks for (pocket ids also accepted)
BILLIARDS_INPUTS = ("declare", "call", "choice", "concede")
DICE_INPUTS = ("roll", "choose", "stop", "claim", "challenge", "bet", "operation", "concede")


class DeskError(ValueError):
    """Something the page asked that cannot be done: the message says what was wrong and what to do."""


# --- setup -----------------------------------------------------------------------------------------------


def games() -> tuple[str, ...]:
    """Every game Arbiter referees (a rule engine exists), billiards first, in the contract's order."""
    return tuple(g for g in GAME_IDS if refereed(game(g)))


def is_billiards(game_id: str) -> bool:
    return isinstance(game(game_id), BilliardsSpec)


def dice_video_available() -> bool:
    """Whether this installation reads dice from video (``pipeline.dice``, as ``arbiter dice run``)."""
    return True


def game_options(game_id: str) -> dict[str, str]:
    """The header options the game's engine reads, each with what it sets (empty text where undocumented)."""
    return dict(OPTION_HELP.get(game_id, {}))


def target_option(game: str) -> str | None:
    """The option that says how far a match goes, where the game has one (``target``; snooker: ``frames``)."""
    names = game_options(game)
    for name in ("target", "frames"):
        if name in names:
            return name
    return None


def parse_players(text: str) -> tuple[str, ...]:
    players = tuple(p.strip() for p in text.replace(";", ",").split(",") if p.strip())
    if not players:
        raise DeskError("name the players, in turn order, separated by commas (A, B)")
    if len(set(players)) != len(players):
        raise DeskError(f"each player's name must differ (got {', '.join(players)})")
    return players


def parse_options(text: str) -> dict[str, Any]:
    """The options box: a JSON object, or nothing."""
    if not text.strip():
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DeskError(f'options must be a JSON object such as {{"first": "B"}} ({exc.msg})') from None
    if not isinstance(value, dict):
        raise DeskError('options must be a JSON object such as {"first": "B"}')
    return value


@dataclass(frozen=True)
class Setup:
    """What a new match is: the game, the players in turn order, the header options, and for a video run
    the detector, the camera profile (None: found automatically) and whether to write ``annotated.mp4``."""

    game: str
    players: tuple[str, ...] = ("A", "B")
    options: Mapping[str, Any] = field(default_factory=dict)
    detector: str = "classical"
    annotate: bool = True
    calibration: Path | None = None
    max_frames: int | None = None

    def header(self) -> c.Match:
        """The match header, checked by the game's engine (unknown or bad options are refused here)."""
        if self.game not in games():
            raise DeskError(f"unknown game {self.game!r}; choose one of {', '.join(games())}")
        try:
            header = c.Match(game=self.game, players=self.players, options=dict(self.options))
            Referee(header)
        except ValueError as exc:  # RuleError included
            raise DeskError(f"{self.game}: {exc}") from None
        return header


def source_spec(kind: str, value: str = "") -> str | None:
    """The ``FrameSource`` spec for a choice of the page's source box; None for a match typed by hand."""
    value = value.strip()
    if kind == "sample":
        return str(SAMPLE_VIDEO)
    if kind == "manual":
        return None
    if kind == "camera":
        if not value.isdigit():
            raise DeskError(f"a camera is given by its index, 0 for the first (got {value!r})")
        return value
    if kind == "rtsp":
        if "://" not in value:
            raise DeskError(f"a stream is given by its URL, such as rtsp://host:554/stream (got {value!r})")
        return value
    if kind in ("file", "upload", "folder"):
        if not value:
            raise DeskError("give the path of the video file or image folder")
        path = Path(value).expanduser()
        if not path.exists():
            raise DeskError(f"{path}: no such file or folder on this machine")
        if kind == "folder" and not path.is_dir():
            raise DeskError(f"{path} is not a folder; choose 'a video file' for a file")
        return str(path)
    raise DeskError(f"unknown source kind {kind!r}; one of {', '.join(SOURCE_KINDS)}")


def parse_point(text: str) -> tuple[float, float]:
    """``"102, 88"`` -> (102.0, 88.0): a pixel typed in the manual calibration box."""
    try:
        x, y = (float(v) for v in text.replace(" ", ",").replace(",,", ",").strip(",").split(","))
    except ValueError:
        raise DeskError(f"a point is two pixel numbers 'x, y' such as '102, 88' (got {text!r})") from None
    return x, y


# --- calibration -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CalibrationPreview:
    """The first frame with the fitted table over it (or with a pixel grid when no fit was found)."""

    image: np.ndarray  # BGR
    ok: bool
    message: str
    profile: Path | None = None
    size: tuple[int, int] | None = None  # width, height of the frame


def first_frame(spec: str) -> np.ndarray:
    try:
        frame = next(iter(FrameSource(spec)), None)
    except SourceError as exc:
        raise DeskError(str(exc)) from None
    if frame is None:
        raise DeskError(f"{spec} gave no frame: check that it plays")
    return frame.image


def calibrate(
    spec: str, game: str, out: Path, points: Mapping[str, tuple[float, float]] | None = None
) -> CalibrationPreview:
    """Find the table on the first frame of ``spec`` (or fit it to typed ``points``), save the camera
    profile to ``out`` and draw the fit over the frame, as ``arbiter calibrate`` does."""
    game_spec = GAMES.get(game)
    if game_spec is None:
        raise DeskError(f"unknown game {game!r}; choose one of {', '.join(GAME_IDS)}")
    if not isinstance(game_spec, BilliardsSpec):
        raise DeskError(f"{game} is a {game_spec.family} game: there is no billiard table to calibrate")
    image = first_frame(spec)
    h, w = image.shape[:2]
    table = game_spec.table
    try:
        if points:
            calib = calibrate_manual(dict(points), table, (w, h), image=image)
        else:
            calib = calibrate_auto(image, table)
    except (CalibrationError, ValueError, KeyError) as exc:
        how = "check the points" if points else "type the four corners instead"
        return CalibrationPreview(views.pixel_grid(image), False, f"{exc} ({how})", None, (w, h))
    out.parent.mkdir(parents=True, exist_ok=True)
    calib.save(out)
    how = "manual" if points else "automatic"
    message = f"{how} calibration, reprojection error {calib.reprojection_error_px:.2f} px"
    return CalibrationPreview(table_overlay(image, calib, table), True, message, out, (w, h))


# --- player inputs ---------------------------------------------------------------------------------------


def input_kinds(game: str) -> tuple[str, ...]:
    """The inputs a camera cannot see, for this game's family (each engine says which it reads, and when)."""
    return BILLIARDS_INPUTS if is_billiards(game) else DICE_INPUTS


def _faces(text: str, what: str) -> list[int]:
    try:
        faces = [int(v) for v in text.replace(",", " ").split()]
    except ValueError:
        raise DeskError(f"{what}: faces are numbers 1..6 separated by spaces, such as '3 5 5 1 6'") from None
    if not faces:
        raise DeskError(f"{what}: give the faces, such as '3 5 5 1 6'")
    return faces


def make_input(kind: str, player: str, t: float | None = None, **fields: Any) -> c.JsonLine:
    """One input line of the contract from the page's form (``fields`` as typed); ``DeskError`` with the
    contract's reason when a field is wrong."""

    def blank(name: str) -> Any:
        value = fields.get(name)
        return None if value in ("", None) else value

    try:
        match kind:
            case "declare":
                return c.Declare(
                    player=player, ball=fields.get("ball", ""), free_ball=bool(fields.get("free_ball"))
                )
            case "call":
                if fields.get("safety"):
                    return c.Call(player=player, safety=True)
                return c.Call(player=player, ball=blank("ball"), pocket=blank("pocket"))
            case "choice":
                return c.Choice(player=player, option=fields.get("option", ""))
            case "concede":
                return c.Concede(player=player)
            case "roll":
                faces = _faces(str(fields.get("faces", "")), "roll")
                dice = tuple(c.Die(id=f"d{i}", value=v) for i, v in enumerate(faces, start=1))
                thrown = tuple(str(fields.get("thrown") or "").replace(",", " ").split()) or tuple(
                    d.id for d in dice
                )
                if t is None:
                    raise DeskError("a roll needs its time: Desk.next_t(match) gives one")
                return c.Roll(t=t, player=player, dice=dice, thrown=thrown)
            case "choose":
                return c.Choose(player=player, category=fields.get("category", ""))
            case "stop":
                return c.Stop(player=player)
            case "claim":
                if blank("number") is not None:
                    return c.Claim(player=player, number=int(fields["number"]))
                return c.Claim(player=player, hand=tuple(_faces(str(fields.get("hand", "")), "claim")))
            case "challenge":
                return c.Challenge(player=player)
            case "bet":
                return c.Bet(
                    player=player, face=int(fields.get("face", 0)), stake=int(fields.get("stake", 1))
                )
            case "operation":
                return c.Operation(player=player, op=fields.get("op", ""))
    except ValueError as exc:
        raise DeskError(str(exc)) from None
    raise DeskError(f"unknown input {kind!r}; one of {', '.join((*BILLIARDS_INPUTS, *DICE_INPUTS))}")


def parse_input_line(text: str) -> c.JsonLine:
    """A line typed as JSON (any event of the contract: a missed cushion, a roll the camera did not see)."""
    try:
        line = c.parse_line(text.strip())
    except c.ContractError as exc:
        raise DeskError(f"not a line of the contract: {exc.message}") from None
    if isinstance(line, c.Match | c.Decision):
        raise DeskError("type an event or an input: headers and decisions are not entered by hand")
    return line


# --- a video run in the background -----------------------------------------------------------------------


@dataclass(frozen=True)
class Progress:
    """Where a run is. ``status``: starting, running, done, stopped, failed, source lost."""

    status: str
    frames: int = 0
    total: int | None = None
    fps: float = 0.0
    elapsed_s: float = 0.0
    message: str = ""
    bad_frames: int = 0

    @property
    def fraction(self) -> float | None:
        if not self.total:
            return None
        return min(self.frames / self.total, 1.0)

    @property
    def eta_s(self) -> float | None:
        """Seconds left at the current speed (a file only: a camera has no end)."""
        if not self.total or self.fps <= 0:
            return None
        return max(self.total - self.frames, 0) / self.fps

    @property
    def active(self) -> bool:
        return self.status in ("starting", "running")


class _Tap:
    """A ``FrameSource`` as the pipeline sees it, which also keeps a recent frame for the live view and
    ends the run cleanly when a stop is asked (the pipeline then closes the shot and its files)."""

    def __init__(self, source: Any, run: PipelineRun) -> None:
        self._source = source
        self._run = run

    def __getattr__(self, name: str) -> Any:
        return getattr(self._source, name)

    def __iter__(self) -> Iterator[Any]:
        for frame in self._source:
            if self._run.stop_requested:
                return
            self._run._see(frame)
            yield frame


class PipelineRun:
    """``referee_video`` over one source in a thread, recording each event through ``record_line``."""

    def __init__(
        self,
        match_id: int,
        spec: str,
        setup: Setup,
        out: Path,
        record_line: Any,
        frame_every_s: float = FRAME_EVERY_S,
    ) -> None:
        self.match_id = match_id
        self.spec = spec
        self.setup = setup
        self.out = out
        self._record_line = record_line
        self._frame_every_s = frame_every_s
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._status = "starting"
        self._message = ""
        self._frames = 0
        self._fps = 0.0
        self._total: int | None = None
        self._bad_frames = 0
        self._started = time.monotonic()
        self._ended: float | None = None
        self._latest: tuple[int, float, np.ndarray] | None = None
        self._last_seen = 0.0
        self.problems: list[str] = []  # lines the record refused (the run goes on)

    # -- control --

    def start(self) -> PipelineRun:
        self._thread = threading.Thread(target=self._work, name=f"arbiter-run-{self.match_id}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Ask the run to end after the current frame; what was recorded stays."""
        self._stop.set()

    @property
    def stop_requested(self) -> bool:
        return self._stop.is_set()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the run to end; True when it has."""
        if self._thread is not None:
            self._thread.join(timeout)
            return not self._thread.is_alive()
        return True

    # -- what the page reads --

    def progress(self) -> Progress:
        with self._lock:
            end = self._ended if self._ended is not None else time.monotonic()
            return Progress(
                self._status,
                self._frames,
                self._total,
                self._fps,
                end - self._started,
                self._message,
                self._bad_frames,
            )

    def latest_frame(self) -> tuple[int, float, np.ndarray] | None:
        """(frame index, t, BGR image) of a recent frame, for the live view."""
        with self._lock:
            return self._latest

    # -- the thread --

    def _see(self, frame: Any) -> None:
        now = time.monotonic()
        if now - self._last_seen >= self._frame_every_s:
            self._last_seen = now
            with self._lock:
                self._latest = (frame.index, frame.t, frame.image)

    def _on_frame(self, n: int, fps: float) -> None:
        with self._lock:
            self._frames, self._fps = n, fps
            self._status = "running"

    def _on_event(self, event: object) -> None:
        try:
            self._record_line(self.match_id, event)
        except (RecordError, ValueError, TypeError) as exc:  # one line refused never stops the run
            self.problems.append(f"{narrate.describe(event).strip()}: {exc}")

    def _on_dice_event(self, event: object) -> None:
        """The dice pipeline reports rolls, its own engine's decisions and what its watcher could not read.
        The rolls are recorded (the record's engine decides, inputs included); the rest is shown."""
        if isinstance(event, c.Roll):
            self._on_event(event)
        elif isinstance(event, dict):
            what = event.get("message") or event.get("reason") or event.get("type", "issue")
            self.problems.append(f"the dice reader at t={event.get('t', '?')}: {what}")

    def _dice(self, source: _Tap) -> Any:
        """A dice game from video, as ``arbiter dice run`` runs it (``pipeline.dice``)."""
        return referee_dice_video(
            source,
            dice(self.setup.game),
            self.setup.players,
            self.out,
            DiceRunOptions(annotate=self.setup.annotate, max_frames=self.setup.max_frames),
            match_options=dict(self.setup.options),
            on_frame=self._on_frame,
            on_event=self._on_dice_event,
        )

    def _end(self, status: str, message: str) -> None:
        with self._lock:
            self._status, self._message = status, message
            self._ended = time.monotonic()

    def _work(self) -> None:
        try:
            source = FrameSource(self.spec)
        except SourceError as exc:
            self._end("failed", str(exc))
            return
        with self._lock:
            self._total = source.frame_count
        try:
            if is_billiards(self.setup.game):
                options = RunOptions(
                    spec=billiards(self.setup.game),
                    players=self.setup.players,
                    calibration=self.setup.calibration,
                    annotate=self.setup.annotate,
                    max_frames=self.setup.max_frames,
                    detector=self.setup.detector,
                )
                result = referee_video(
                    _Tap(source, self), options, self.out, on_frame=self._on_frame, on_event=self._on_event
                )
            else:
                result = self._dice(_Tap(source, self))
        except (CalibrationError, ModelError, ValueError, OSError) as exc:
            self._end("failed", f"{exc}; everything recorded before is kept")
            return
        except Exception as exc:  # an unexpected failure must reach the page, not die in the thread
            self._end("failed", f"{type(exc).__name__}: {exc}; everything recorded before is kept")
            return
        with self._lock:
            self._bad_frames = result.bad_frames
            self._frames = result.frames
            self._fps = result.fps
        skipped = f"; {result.bad_frames} unreadable frame(s) skipped" if result.bad_frames else ""
        if self.stop_requested:
            self._end("stopped", f"stopped after {result.frames} frames{skipped}")
        elif source.live:
            self._end(
                "source lost",
                f"{self.spec} stopped sending frames and did not come back within "
                f"{source.reconnect_s:.0f} s; the {result.frames} frames seen are recorded{skipped}",
            )
        else:
            self._end("done", f"{result.frames} frames at {result.fps:.1f} fps{skipped}")


# --- the view of one match -------------------------------------------------------------------------------


@dataclass(frozen=True)
class DecisionRow:
    text: str  # the call in words, with its rule (narrate.describe_decision, first line)
    notes: tuple[str, ...]
    foul: bool
    decision: c.Decision


@dataclass(frozen=True)
class TimelineRow:
    """One line of the corrected stream (``line_no``: 1 is the header) and the decisions it settled."""

    line_no: int
    t: float | None
    type: str
    text: str
    decisions: tuple[DecisionRow, ...] = ()
    json: str = ""  # the line as the contract writes it (to copy into a correction)
    corrected: bool = False  # an override put this line here
    stopped: str | None = None  # the rules could not use this line: why


@dataclass(frozen=True)
class Scoreboard:
    players: tuple[str, ...]
    score: Mapping[str, int]
    next: str | None
    on: str | None
    awaiting: tuple[str, ...]
    over: bool
    winner: str | None
    last_call: str | None = None
    since: tuple[str, ...] = ()  # player inputs taken after the last decision, in words


@dataclass(frozen=True)
class MatchView:
    """Everything the page shows of one match, from its record, its overrides and its engine."""

    info: MatchInfo
    header: c.Match
    rows: tuple[TimelineRow, ...]
    board: Scoreboard
    decisions: tuple[c.Decision, ...]
    overrides: tuple[Override, ...]
    lines: tuple[c.JsonLine, ...]  # the corrected stream after the header, decisions interleaved
    error: str | None = None  # where the rules stopped, if they did
    override_error: str | None = None

    @property
    def id(self) -> int:
        return self.info.id

    @property
    def stream_length(self) -> int:
        """Lines of the corrected stream, the header included: the last line number an override may name."""
        return 1 + sum(not isinstance(x, c.Decision) for x in self.lines)


def _decision_row(d: c.Decision) -> DecisionRow:
    text = narrate.describe_decision(d).splitlines()[0]
    return DecisionRow(text, tuple(d.notes), d.foul is not None, d)


def build_view(
    info: MatchInfo, header_text: str, texts: Sequence[str], overrides_: Sequence[Override]
) -> MatchView:
    """The view of a match whose recorded lines (after the header, decisions skipped) are ``texts``."""
    override_error = None
    try:
        traced = overrides.trace([header_text, *texts], overrides_)
    except OverrideError as exc:  # cannot happen for overrides checked when made; shown if it does
        override_error = str(exc)
        traced = overrides.trace([header_text, *texts], ())
    stream = [line for line, _ in traced]
    header = c.parse_line(stream[0], 1)  # the recorded header, or the one a correction put in its place
    assert isinstance(header, c.Match)  # the record stores Match headers; overrides replace them by headers
    try:
        recomputed = overrides.referee_lines(stream)
    except RefereeError as exc:  # the header itself cannot be refereed (options, no engine): nothing decided
        recomputed = Recomputed(tuple(stream), (), exc)
    steps = {s.line_no: s for s in recomputed.steps}
    error = recomputed.error
    rows: list[TimelineRow] = []
    lines: list[c.JsonLine] = []
    for line_no, (text, corrected) in enumerate(traced[1:], start=2):
        step = steps.get(line_no)
        try:
            line = step.event if step is not None else c.parse_line(text, line_no)
        except c.ContractError as exc:
            rows.append(TimelineRow(line_no, None, "?", text, (), text, corrected, exc.message))
            continue
        decisions = step.decisions if step is not None else ()
        lines.extend([line, *decisions])
        stopped = error.message if error is not None and error.line_no == line_no else None
        rows.append(
            TimelineRow(
                line_no,
                getattr(line, "t", None),
                line.TYPE,
                export.words(line),
                tuple(_decision_row(d) for d in decisions),
                text,
                corrected,
                stopped,
            )
        )
    decisions = tuple(recomputed.decisions)
    board = _board(header, recomputed, decisions, _inputs_since_last_decision(recomputed))
    return MatchView(
        info=info,
        header=header,
        rows=tuple(rows),
        board=board,
        decisions=decisions,
        overrides=tuple(overrides_),
        lines=tuple(lines),
        error=str(error) if error is not None else None,
        override_error=override_error,
    )


def _inputs_since_last_decision(recomputed: Recomputed) -> list[c.JsonLine]:
    """Player inputs the engine took after its last decision (a choice after a foul, a nomination)."""
    out: list[c.JsonLine] = []
    for step in reversed(recomputed.steps):
        if step.decisions:
            break
        if step.event.TYPE not in CAMERA_TYPES:
            out.append(step.event)
    return out[::-1]


def _board(
    header: c.Match, recomputed: Recomputed, decisions: Sequence[c.Decision], since: Sequence[c.JsonLine]
) -> Scoreboard:
    state = recomputed.state
    if state is None:
        try:
            state = engine_for(game(header.game)).start(header)
        except (KeyError, ValueError):
            state = None
    score = dict(state.score) if state is not None else dict.fromkeys(header.players, 0)
    last = decisions[-1] if decisions else None
    first = header.options.get("first") or header.players[0]
    return Scoreboard(
        players=header.players,
        score=score,
        next=last.next if last is not None else first,
        on=last.on if last is not None else None,
        # what the last decision waited for, less the inputs of that type the engine has taken since
        awaiting=tuple(a for a in (last.awaiting if last else ()) if a not in {x.TYPE for x in since}),
        over=bool(state.over) if state is not None else False,
        winner=state.winner if state is not None else None,
        last_call=_decision_row(last).text if last is not None else None,
        since=tuple(export.words(x) for x in since),
    )


# --- overrides kept beside the record --------------------------------------------------------------------


class OverrideStore:
    """The referee's corrections of each match, and the folder of each video run, in the record's own
    database file (tables of their own beside the record's; the record's lines are never touched).

    Append-only: a correction is never edited; a later one corrects it.
    """

    _SCHEMA = """
    CREATE TABLE IF NOT EXISTS arbiter_overrides (
        match_id INTEGER NOT NULL,
        n        INTEGER NOT NULL,          -- 1, 2, ... in the order made
        json     TEXT NOT NULL,             -- Override.to_json()
        made_at  TEXT NOT NULL,
        PRIMARY KEY (match_id, n)
    );
    CREATE TABLE IF NOT EXISTS arbiter_run_folders (
        match_id INTEGER PRIMARY KEY,
        folder   TEXT NOT NULL              -- events.jsonl, tracks.jsonl, annotated.mp4 of the match's run
    );
    """

    def __init__(self, db: Path) -> None:
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(db, timeout=10.0, isolation_level=None, check_same_thread=False)
        self._conn.execute("PRAGMA busy_timeout = 10000")
        self._conn.executescript(self._SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def overrides(self, match_id: int) -> list[Override]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT json FROM arbiter_overrides WHERE match_id = ? ORDER BY n", (match_id,)
            ).fetchall()
        return [Override.from_json(r[0]) for r in rows]

    def add(self, match_id: int, override: Override) -> int:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                n = self._conn.execute(
                    "SELECT coalesce(max(n), 0) + 1 FROM arbiter_overrides WHERE match_id = ?", (match_id,)
                ).fetchone()[0]
                self._conn.execute(
                    "INSERT INTO arbiter_overrides (match_id, n, json, made_at) VALUES (?, ?, ?, ?)",
                    (match_id, n, override.to_json(), datetime.now(UTC).isoformat(timespec="seconds")),
                )
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
        return n

    def set_folder(self, match_id: int, folder: Path) -> None:
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO arbiter_run_folders (match_id, folder) VALUES (?, ?)",
                (match_id, str(folder)),
            )

    def folder(self, match_id: int) -> Path | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT folder FROM arbiter_run_folders WHERE match_id = ?", (match_id,)
            ).fetchone()
        return Path(row[0]) if row else None


# --- the desk: one record, its runs, inputs, corrections and exports -------------------------------------


class Desk:
    """The dashboard's state, shared by every browser tab of one server (thread-safe): the record, the
    video runs in progress, and the recorder of each open match."""

    def __init__(self, db: Path = DEFAULT_DB, runs_root: Path | None = None) -> None:
        self.db = Path(db)
        try:
            self.record = MatchRecord.open(self.db)
        except RecordError as exc:
            raise DeskError(str(exc)) from None
        self.store = OverrideStore(self.db)
        self.runs_root = runs_root or self.db.parent / "dashboard"
        self._lock = threading.RLock()
        self._runs: dict[int, PipelineRun] = {}
        self._recorders: dict[int, Recorder] = {}
        self._views: dict[int, tuple[tuple, MatchView]] = {}

    def close(self) -> None:
        for run in list(self._runs.values()):
            run.stop()
            run.join(30)
        self.store.close()
        self.record.close()

    # -- matches --

    def matches(self) -> list[MatchInfo]:
        """Every match of the record, newest first."""
        return list(reversed(self.record.matches()))

    def info(self, match_id: int) -> MatchInfo:
        try:
            return self.record.info(match_id)
        except RecordError as exc:
            raise DeskError(str(exc)) from None

    def folder(self, match_id: int) -> Path | None:
        """The run folder of the match (events.jsonl, tracks.jsonl, annotated.mp4), where it has one."""
        return self.store.folder(match_id)

    def annotated_video(self, match_id: int) -> Path | None:
        folder = self.folder(match_id)
        video = folder / "annotated.mp4" if folder else None
        return video if video is not None and video.is_file() and video.stat().st_size > 0 else None

    def review_time(self, match_id: int) -> float | None:
        """When the annotated video is worth a still: the last pot (its trail and caption on screen), else the
        last contact, else None."""
        rows = [r for r in self.view(match_id).rows if r.t is not None]
        for kinds in (("pocket",), ("ball_ball", "cushion", "pin_down")):
            found = [r.t for r in rows if r.type in kinds]
            if found:
                return found[-1]
        return None

    def tracks(self, match_id: int) -> Path | None:
        folder = self.folder(match_id)
        path = folder / "tracks.jsonl" if folder else None
        return path if path is not None and path.is_file() else None

    def start(self, setup: Setup, spec: str | None, source_label: str | None = None) -> int:
        """A new match: with ``spec`` a video run in the background, without it a match typed by hand."""
        header = setup.header()
        if spec is not None and not is_billiards(setup.game) and not dice_video_available():
            raise DeskError(
                f"{setup.game} is a dice game and this installation does not read dice from video; "
                "choose 'no video' and enter the rolls by hand"
            )
        if spec is not None:
            try:
                FrameSource(spec)  # a wrong path, a busy camera: said now, before a match is recorded
            except SourceError as exc:
                raise DeskError(str(exc)) from None
        match_id = self.record.start_match(header, source_label or spec or "typed by hand")
        if spec is not None:
            folder = self.runs_root / f"match_{match_id}"
            self.store.set_folder(match_id, folder)
            run = PipelineRun(match_id, spec, setup, folder, self._record_line)
            with self._lock:
                self._runs[match_id] = run
            run.start()
        return match_id

    def start_sample(self) -> int:
        """The bundled sample clip, refereed as snooker between A and B (one click on the page)."""
        header = c.read_stream(SAMPLE_SHOT / "truth.jsonl")[0]
        setup = Setup(game=header.game, players=header.players, options=dict(header.options))
        return self.start(setup, str(SAMPLE_VIDEO))

    def open_folder(self, folder: Path) -> int:
        """A finished run folder (``arbiter run``/``demo`` output: ``events.jsonl`` beside ``tracks.jsonl``
        and ``annotated.mp4``) as a finished match of the record, refereed as it is recorded; the same folder
        with the same events is the same match (``make demo`` run twice shows one match)."""
        folder = Path(folder)
        events = folder / "events.jsonl" if folder.is_dir() else folder
        folder = events.parent
        if not events.is_file():
            raise DeskError(
                f"{events} not found: give a run folder written by 'arbiter run' or 'arbiter demo'"
            )
        try:
            header, lines = c.read_stream(events)
        except c.ContractError as exc:
            raise DeskError(f"{events}: {exc}") from None
        texts = [c.to_json(x) for x in lines if not isinstance(x, c.Decision)]
        source = str(folder.resolve())
        for info in self.record.matches():
            if info.source == source and self._event_texts(info.id) == texts:
                return info.id
        match_id = self.record.start_match(header, source)
        self.store.set_folder(match_id, folder.resolve())
        for line in lines:
            if not isinstance(line, c.Decision):
                self._record_line(match_id, line)
        self.finish(match_id)
        return match_id

    def resume(self, match_id: int, detector: str = "classical") -> PipelineRun:
        """Go on with a match whose video run ended early (stopped, or the server went down): a file is run
        again from its start and what was recorded is skipped (``record.Recorder``); a camera or stream goes
        on from now, its clock shifted past the last recorded time. The run's camera profile is reused."""
        info = self.info(match_id)
        if info.status == "finished":
            raise DeskError(f"match {match_id} is finished; start a new match to go on")
        if self.running(match_id):
            raise DeskError(f"match {match_id} is running already")
        spec = info.source or ""
        try:
            source = FrameSource(spec)
        except SourceError as exc:
            raise DeskError(f"cannot resume match {match_id} from its source: {exc}") from None
        header = self.record.header(match_id)
        if not is_billiards(header.game):
            raise DeskError(f"match {match_id} was typed by hand: there is no video to resume")
        folder = self.folder(match_id) or self.runs_root / f"match_{match_id}"
        self.store.set_folder(match_id, folder)
        profile = folder / "camera_profile.json"
        setup = Setup(
            game=header.game,
            players=header.players,
            options=dict(header.options),
            detector=detector,
            calibration=profile if profile.is_file() else None,
        )
        with self._lock:
            offset = (self.record.resume_point(match_id) or 0.0) if source.live else 0.0
            recorder = Recorder(self.record, match_id, skip_recorded=not source.live, t_offset=offset)
            recorder.catch_up()
            self._recorders[match_id] = recorder
            run = PipelineRun(match_id, spec, setup, folder, self._record_line)
            self._runs[match_id] = run
        return run.start()

    def run(self, match_id: int) -> PipelineRun | None:
        with self._lock:
            return self._runs.get(match_id)

    def running(self, match_id: int) -> bool:
        run = self.run(match_id)
        return run is not None and run.progress().active

    def stop(self, match_id: int) -> None:
        run = self.run(match_id)
        if run is not None:
            run.stop()

    def finish(self, match_id: int) -> None:
        """Close the match: it takes no more lines (corrections still apply)."""
        if self.running(match_id):
            raise DeskError("the video run is still going: stop it first")
        with self._lock:
            self._recorders.pop(match_id, None)
        try:
            self.record.finish(match_id)
        except RecordError as exc:
            raise DeskError(str(exc)) from None

    # -- recording --

    def _recorder(self, match_id: int) -> Recorder:
        with self._lock:
            rec = self._recorders.get(match_id)
            if rec is None:
                rec = Recorder(self.record, match_id, skip_recorded=False)
                rec.catch_up()
                self._recorders[match_id] = rec
            return rec

    def _record_line(self, match_id: int, line: object) -> list[int]:
        """Record one line with the decisions it settles (the pipeline's ``on_event`` and every input)."""
        with self._lock:
            return self._recorder(match_id)(line)

    def _event_texts(self, match_id: int) -> list[str]:
        return [r.text for r in self.record.rows(match_id) if r.type != c.Decision.TYPE]

    def add_input(self, match_id: int, line: c.JsonLine) -> MatchView:
        """Record a player's input (or a typed event) after the lines recorded so far, once the engine has
        accepted it on the corrected stream; ``DeskError`` with the rule's reason when it refuses it."""
        info = self.info(match_id)
        if info.status == "finished":
            raise DeskError(
                f"match {match_id} is finished and takes no more lines; correct it with an override instead"
            )
        with self._lock:
            view = self.view(match_id)
            if view.error is None:
                ovs = list(view.overrides)
                base = [self.record.header_text(match_id), *self._event_texts(match_id)]
                trial = overrides.recompute([*base, c.to_json(line)], ovs)
                if trial.error is not None:
                    raise DeskError(f"the rules refuse it: {trial.error.message}")
            try:
                self._record_line(match_id, line)
            except RecordError as exc:
                raise DeskError(str(exc)) from None
        return self.view(match_id)

    def next_t(self, match_id: int) -> float:
        """A time for a line typed by hand that needs one (a roll): the seconds since the match started,
        and at least ``BOOT_S`` after the last timed line recorded."""
        info = self.info(match_id)
        last = max((r.t for r in self.record.rows(match_id) if r.t is not None), default=None)
        since = (datetime.now(UTC) - info.started_at).total_seconds()
        return round(since if last is None else max(since, last + BOOT_S), 3)

    # -- corrections --

    def override(
        self, match_id: int, op: str, at: int, line: str | None = None, reason: str = ""
    ) -> MatchView:
        """Correct the match: delete, replace or insert a line (numbered as the timeline shows it), recompute
        every decision after it, and keep the correction in the record beside the original lines."""
        try:
            new = Override(op, int(at), line if op != "delete" else None, reason.strip())
        except ValueError as exc:
            raise DeskError(str(exc)) from None
        with self._lock:
            existing = self.store.overrides(match_id)
            base = [self.record.header_text(match_id), *self._event_texts(match_id)]
            try:
                overrides.check(base, [*existing, new])
            except OverrideError as exc:
                raise DeskError(str(exc)) from None
            self.store.add(match_id, new)
            self._views.pop(match_id, None)
        return self.view(match_id)

    # -- what the page shows --

    def view(self, match_id: int) -> MatchView:
        """The match as the page shows it; recomputed only when a line or a correction was added."""
        info = self.info(match_id)
        ovs = self.store.overrides(match_id)
        key = (info.lines, len(ovs), info.status)
        with self._lock:
            cached = self._views.get(match_id)
            if cached is not None and cached[0] == key:
                return cached[1]
        view = build_view(info, self.record.header_text(match_id), self._event_texts(match_id), ovs)
        with self._lock:
            self._views[match_id] = (key, view)
        return view

    def shot_diagrams(self, match_id: int, width_px: int = 420) -> list[str]:
        """One SVG per shot of the corrected stream, with the run's ball paths where it has tracks."""
        view = self.view(match_id)
        if not is_billiards(view.header.game):
            return []
        tracks = self.tracks(match_id)
        frames = read_tracks(tracks) if tracks is not None else None
        return [
            shot_svg(billiards(view.header.game), shot, frames, width_px, title=f"shot {n}")
            for n, shot in enumerate(split_shots(view.lines), start=1)
        ]

    # -- exports --

    def export_text(self, match_id: int, fmt: str, corrected: bool | None = None) -> str:
        """The match as ``jsonl``, ``csv`` or ``html`` (the report), through ``record.export``. With
        corrections (``corrected`` None: when the match has any) the corrected stream and its recomputed
        decisions are exported; the original lines always are with ``corrected=False``."""
        if fmt not in export.FORMATS:
            raise DeskError(f"unknown export format {fmt!r}; one of {', '.join(export.FORMATS)}")
        view = self.view(match_id)
        if corrected is None:
            corrected = bool(view.overrides)
        tracks = self.tracks(match_id)
        if not corrected:
            if fmt == "html":
                return export.report_html(self.record, match_id, tracks)
            return export.FORMATS[fmt](self.record, match_id)
        with (
            tempfile.TemporaryDirectory(prefix="arbiter-corrected-") as tmp,
            MatchRecord.open(Path(tmp) / "corrected.db") as scratch,
        ):
            source = (
                f"{view.info.source or 'match'}; match {match_id} with {len(view.overrides)} correction(s)"
            )
            new_id = scratch.start_match(view.header, source)
            if view.lines:
                scratch.append_many(new_id, view.lines)
            if fmt == "html":
                return export.report_html(scratch, new_id, tracks)
            return export.FORMATS[fmt](scratch, new_id)
