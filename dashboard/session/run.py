"""A video run in the background: the pipeline over one source in a thread, each event recorded as it comes.

A billiards video is ``pipeline.billiards.referee_video`` (as ``arbiter run``), a dice game
``pipeline.dice.referee_dice_video`` (as ``arbiter dice run``). The page never waits for it: it polls
``progress()`` and ``latest_frame()``. A stopped run, a lost camera or a bad file keeps everything already
recorded, since each line is recorded (``record_line``, the desk's recorder) the moment it is seen. A run
stopped or lost in the middle of a shot leaves that shot open, undecided, for the resumed run to complete.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np

from arbiter import contract as c
from arbiter import narrate
from arbiter.games import BilliardsSpec, DiceSpec, GameSpec
from dashboard.session.setup import Setup, spec_of
from pipeline.billiards import RunOptions, RunResult, referee_video
from pipeline.dice import DiceRunOptions, draw_dice, referee_dice_video
from record.store import RecordError
from tracking.throws import TrackedDie
from vision.calibration import CalibrationError
from vision.dice import DiceReaderConfig
from vision.sources import FrameSource, SourceError
from vision.yolo import ModelError

FRAME_EVERY_S = 0.25  # how often the live view keeps a frame of a running video (display only)

RecordLine = Callable[[int, object], object]


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


READER_DOUBT = DiceReaderConfig().unsure_below  # the dice reader's own doubt, what a match starts with


def _reader(setup: Setup) -> DiceReaderConfig:
    """The dice reader's settings a match asks for: its doubt, where given."""
    return DiceReaderConfig(unsure_below=READER_DOUBT if setup.unsure_below is None else setup.unsure_below)


class _Tap:
    """A ``FrameSource`` as the pipeline sees it, which also keeps a recent frame for the live view and
    ends the run cleanly when a stop is asked (the pipeline, told of the stop, closes its files and leaves a
    shot in play open)."""

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
        record_line: RecordLine,
        frame_every_s: float = FRAME_EVERY_S,
        shot_open: bool = False,
    ) -> None:
        """``shot_open``: a live source resumed in the middle of a shot (``record.recorder.Recorder``)."""
        self.match_id = match_id
        self.spec = spec
        self.setup = setup
        self.game: GameSpec = spec_of(setup.game)  # resolved once, for the thread
        self.out = out
        self._record_line = record_line
        self._frame_every_s = frame_every_s
        self._shot_open = shot_open
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

    def _on_dice(self, frame: Any, dice: list[TrackedDie]) -> None:
        """The dice followed on a frame: drawn over the live view's frame when it is the one kept (every
        ``frame_every_s``), so the view shows each die's box and face as the run reads them."""
        with self._lock:
            if self._latest is None or self._latest[0] != frame.index:
                return
        drawn = draw_dice(frame.image.copy(), dice)
        with self._lock:
            self._latest = (frame.index, frame.t, drawn)

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

    def _pipeline(self, source: FrameSource) -> Any:
        """The game's pipeline over ``source`` (as ``arbiter run`` or ``arbiter dice run`` runs it)."""
        tap = cast(FrameSource, _Tap(source, self))  # a FrameSource to the pipeline: it only iterates it
        setup = self.setup
        if isinstance(self.game, BilliardsSpec):
            options = RunOptions(
                spec=self.game,
                players=setup.players,
                calibration=setup.calibration,
                corners=setup.corners,
                table_size=setup.table_size,
                annotate=setup.annotate,
                max_frames=setup.max_frames,
                detector=setup.detector,
                shot_open=self._shot_open,
            )
            return referee_video(
                tap,
                options,
                self.out,
                on_frame=self._on_frame,
                on_event=self._on_event,
                stop=self._stop.is_set,
                on_header=self._on_event,  # the match takes the table the run found (record.Recorder)
            )
        if isinstance(self.game, DiceSpec):
            return referee_dice_video(
                tap,
                self.game,
                setup.players,
                self.out,
                DiceRunOptions(reader=_reader(setup), annotate=setup.annotate, max_frames=setup.max_frames),
                match_options=dict(setup.options),
                on_frame=self._on_frame,
                on_event=self._on_dice_event,
                on_dice=self._on_dice,
            )
        raise ValueError(f"{self.game.id} has no camera pipeline yet; enter its events by hand")

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
            result = self._pipeline(source)
        except (CalibrationError, ModelError, ValueError, OSError) as exc:
            self._end("failed", f"{exc}; everything recorded before is kept")
            return
        except Exception as exc:  # an unexpected failure must reach the page, not die in the thread
            self._end("failed", f"{type(exc).__name__}: {exc}; everything recorded before is kept")
            return
        self._ended_well(source, result)

    def _ended_well(self, source: FrameSource, result: Any) -> None:
        """The run's end in words: stopped on request, a live source lost, or the whole file done."""
        with self._lock:
            self._bad_frames = result.bad_frames
            self._frames = result.frames
            self._fps = result.fps
        notes = f"; {result.bad_frames} unreadable frame(s) skipped" if result.bad_frames else ""
        if isinstance(result, RunResult) and result.shot_open:
            notes += "; the shot in play is left open, to be judged whole when the run is resumed"
        if self.stop_requested:
            self._end("stopped", f"stopped after {result.frames} frames{notes}")
        elif source.live:
            self._end(
                "source lost",
                f"{self.spec} stopped sending frames and did not come back within "
                f"{source.reconnect_s:.0f} s; the {result.frames} frames seen are recorded{notes}",
            )
        else:
            self._end("done", f"{result.frames} frames at {result.fps:.1f} fps{notes}")
