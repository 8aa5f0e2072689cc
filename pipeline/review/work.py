"""One video refereed by a worker: the task that travels to it, and the outcome that travels back.

A worker (a local process, or a Ray task on any node of a cluster) runs the same pipeline as ``arbiter run``
(``pipeline.billiards.referee_video``; a dice game: ``pipeline.dice.referee_dice_video``) into a scratch
folder of its own and returns the run's event lines, exact contract text. It never opens the record: the
driver records what comes back, so one process writes the SQLite file.

Everything a worker needs travels with the task, so a node needs only Arbiter installed and the video at
the same path: the camera profile as its JSON text, the detector network as bytes (``Models``), written to
the scratch folder before the run.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2

from arbiter import contract as c
from arbiter.games import BilliardsSpec, DiceSpec, GameSpec, game
from pipeline.billiards import RunOptions, referee_video
from pipeline.dice import DiceRunOptions, referee_dice_video
from vision.calibration import CalibrationError
from vision.sources import FrameSource, SourceError
from vision.yolo import ModelError

ReportFrames = Callable[[int, int], None]
"""Told ``(position, frames refereed so far)`` of the video a worker is on, about once a second."""

REPORT_EVERY_S = 1.0


@dataclass(frozen=True)
class Models:
    """The detector networks a review's workers need, as the bytes of their ONNX files (None: not used)."""

    billiards: bytes | None = None  # the ball detector, for --detector yolo
    dice: bytes | None = None  # the dice reader


@dataclass(frozen=True)
class VideoTask:
    """One video for a worker: where it is, its game (the resolved spec), players and camera profile."""

    position: int
    video: str
    spec: GameSpec
    players: tuple[str, ...]
    calibration: str | None = None  # the camera profile's JSON text; None: found automatically
    detector: str = "classical"  # vision.detectors.DETECTORS, for billiards

    def __reduce__(self) -> tuple[Any, ...]:
        # A spec holds read-only mappings, which do not pickle; it crosses to a worker as its registry id
        # and is the registry's same spec on the other side.
        return _task, (self.position, self.video, self.spec.id, self.players, self.calibration, self.detector)


def _task(position: int, video: str, game_id: str, players: tuple[str, ...], calibration: str | None,
          detector: str) -> VideoTask:  # fmt: skip
    return VideoTask(position, video, game(game_id), players, calibration, detector)


@dataclass(frozen=True)
class VideoOutcome:
    """What a worker sends back. ``error``: the video cannot be refereed (it does not open, the table is
    not found, a model is missing); saying so again would not change it, so it is not retried."""

    position: int
    frames: int
    fps: float
    work_s: float
    lines: tuple[str, ...] = ()  # the events after the match header, each line exactly as written
    error: str | None = None
    cpu_s: float = 0.0  # processor time the worker spent on it: its cost on a shared machine
    table: str | None = None  # the table the run found (its header's ``table``): the match is judged on it

    @property
    def video_s(self) -> float:
        """Seconds of video refereed."""
        return self.frames / self.fps if self.fps > 0 else 0.0


class _Throttle:
    """Passes a worker's frame count on at most once every ``REPORT_EVERY_S``."""

    def __init__(self, position: int, report: ReportFrames | None) -> None:
        self.position = position
        self.report = report
        self.last = 0.0

    def __call__(self, frames: int, fps: float) -> None:
        now = time.monotonic()
        if self.report is not None and now - self.last >= REPORT_EVERY_S:
            self.last = now
            self.report(self.position, frames)


def one_core() -> None:
    """A worker is one core: OpenCV's own thread pool would make N workers fight over N cores (and so its
    video is read in line, not decoded ahead on a second thread)."""
    cv2.setNumThreads(1)


def referee_task(task: VideoTask, models: Models, report: ReportFrames | None = None) -> VideoOutcome:
    """Referee one video in a scratch folder; its events, or the reason it cannot be refereed. Anything
    else raised is a crash, which the driver retries once."""
    started, cpu = time.perf_counter(), time.process_time()
    with tempfile.TemporaryDirectory(prefix="arbiter-review-") as scratch:
        work = Path(scratch)
        try:
            source = FrameSource(task.video, read_ahead=0)  # one core: no thread decoding ahead
            frames = _run(task, models, source, work, _Throttle(task.position, report))
        except (SourceError, CalibrationError, ModelError, ValueError) as exc:
            return VideoOutcome(task.position, 0, 0.0, time.perf_counter() - started, error=str(exc))
        written = (work / "run" / "events.jsonl").read_text(encoding="utf-8").splitlines()
    if frames == 0:
        return VideoOutcome(
            task.position, 0, 0.0, time.perf_counter() - started, error="no frame could be read"
        )
    if report is not None:
        report(task.position, frames)
    return VideoOutcome(
        task.position,
        frames,
        source.fps,
        time.perf_counter() - started,
        tuple(written[1:]),
        cpu_s=time.process_time() - cpu,
        table=_table_of(written[0]) if written else None,
    )


def _run(task: VideoTask, models: Models, source: FrameSource, work: Path, on_frame: _Throttle) -> int:
    """The game's pipeline over ``source`` into ``work``; the frames refereed."""
    spec = task.spec
    if isinstance(spec, BilliardsSpec):
        calibration = _written(work / "camera_in.json", task.calibration)
        model = _written(work / "detector.onnx", models.billiards)
        options = RunOptions(
            spec=spec,
            players=task.players,
            calibration=calibration,
            annotate=False,
            detector=task.detector,
            model=model,
        )
        return referee_video(source, options, work / "run", on_frame=on_frame).frames
    if isinstance(spec, DiceSpec):
        model = _written(work / "dice.onnx", models.dice)
        run = referee_dice_video(
            source, spec, task.players, work / "run", DiceRunOptions(model=model), on_frame=on_frame
        )
        return run.frames
    raise ValueError(f"{spec.id} has no camera pipeline; referee its event stream instead")


def _written(path: Path, content: str | bytes | None) -> Path | None:
    """``content`` as the file ``path`` (None: nothing carried, the pipeline's default is used)."""
    if content is None:
        return None
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    return path


def _table_of(header_text: str) -> str | None:
    """The table a run's header (``events.jsonl``'s first line) names."""
    header = c.parse_line(header_text, 1)
    return header.table if isinstance(header, c.Match) else None
