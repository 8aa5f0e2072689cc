"""Wiring for dice games, and nothing more: frames -> ``DiceReader`` -> ``ThrowWatcher`` -> ``roll`` events ->
the game's rules engine -> decisions, written as they happen.

Files in ``out``: ``events.jsonl`` (the match header, then one ``roll`` per settled throw: a stream that
``arbiter referee`` replays to the same decisions), ``decisions.jsonl`` (the engine's calls),
``issues.jsonl`` (what the watcher reported instead of guessing, and throws the rules refused) and, when
asked, ``annotated.mp4``. Each line is flushed as it is written, so a killed run loses nothing already seen.

Who threw: the player the engine's last decision named as next (``Decision.next``), at first the match's
``first`` option or the first player. Inputs no camera sees (Pig's ``stop``, claims, bets) are not in a
video; games that need them get them from the event stream, not from here.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from adjudication.engine import RuleError
from adjudication.referee import Referee
from arbiter import contract as c
from arbiter.games import DiceSpec
from tracking.throws import DiceIssue, ThrowWatcher, TrackedDie, WatchConfig
from vision.dice import DEFAULT_DICE_MODEL, DiceReader, DiceReaderConfig, DieReading
from vision.dice_motion import ChangeGate, GateConfig
from vision.sources import FrameSource
from vision.types import Frame
from vision.video import VideoWriter


@dataclass(frozen=True)
class DiceRunOptions:
    """What a dice run was asked to do. ``every``: read every Nth frame (the watcher's times stay real;
    2 halves the cost and still sees a die settle). ``table_px``: the table area in pixels (a die outside it
    is off the table); None: the whole picture. ``gate``: frames unchanged since the last one read keep its
    reading (``vision.dice_motion``; None reads every frame)."""

    model: Path | None = None
    reader: DiceReaderConfig = field(default_factory=DiceReaderConfig)
    watch: WatchConfig = field(default_factory=WatchConfig)
    table_px: tuple[tuple[float, float], ...] | None = None
    annotate: bool = False
    every: int = 1
    max_frames: int | None = None
    gate: GateConfig | None = field(default_factory=GateConfig)

    def __post_init__(self) -> None:
        if self.every < 1:
            raise ValueError(f"every must be at least 1 (got {self.every})")


@dataclass
class DiceRunResult:
    frames: int = 0
    frames_read: int = 0  # frames the reader ran on (the others were skipped or unchanged)
    bad_frames: int = 0
    rolls: list[c.Roll] = field(default_factory=list)
    decisions: list[c.Decision] = field(default_factory=list)
    issues: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    state: Any = None

    @property
    def fps(self) -> float:
        return self.frames / self.seconds if self.seconds > 0 else 0.0


def referee_dice_video(
    source: FrameSource,
    spec: DiceSpec,
    players: Sequence[str],
    out: Path,
    options: DiceRunOptions | None = None,
    match_options: Mapping[str, Any] | None = None,
    read_frame: Callable[[Frame], Sequence[DieReading]] | None = None,
    on_frame: Callable[[int, float], None] | None = None,
    on_event: Callable[[object], None] | None = None,
    on_dice: Callable[[Frame, list[TrackedDie]], None] | None = None,
) -> DiceRunResult:
    """Referee a dice game filmed by ``source``. ``read_frame`` replaces the reader (tests feed truth);
    ``on_event`` sees each roll, decision and issue (as a dict) as it happens; ``on_dice`` sees every frame
    with the dice followed on it (box, id, face, moving: the live reading a view draws). Raises
    ``ValueError`` for a game without an engine or options it cannot use, ``ModelError`` for a missing
    model."""
    options = options or DiceRunOptions()
    match = c.Match(game=spec.id, players=tuple(players), options=dict(match_options or {}))
    try:
        referee = Referee(match)
    except KeyError as exc:
        raise ValueError(str(exc)) from None
    if read_frame is None:
        reader = DiceReader(options.model or DEFAULT_DICE_MODEL, options.reader)

        def read_frame(f: Frame) -> Sequence[DieReading]:
            return reader.read(f.image)

    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with _DiceRun(match, referee, options, out, read_frame, on_event) as run:
        for frame in source:
            if options.max_frames is not None and run.result.frames >= options.max_frames:
                break
            run.step(frame, source.fps)
            if on_dice:
                on_dice(frame, run.watcher.dice())
            if on_frame:
                on_frame(run.result.frames, run.result.frames / max(time.perf_counter() - started, 1e-9))
    result = run.result
    result.seconds = time.perf_counter() - started
    result.bad_frames = source.stats.bad_frames
    result.state = referee.state
    return result


class _DiceRun:
    """One run's moving parts: the watcher, the gate, the referee and the files, stepped frame by frame."""

    def __init__(
        self,
        match: c.Match,
        referee: Referee,
        options: DiceRunOptions,
        out: Path,
        read_frame: Callable[[Frame], Sequence[DieReading]],
        on_event: Callable[[object], None] | None,
    ) -> None:
        self.options, self.referee, self.out = options, referee, out
        self.read_frame, self.on_event = read_frame, on_event
        self.match = match
        self.on_turn = str(match.options.get("first", match.players[0]))
        self.watcher = ThrowWatcher(lambda: self.on_turn, options.watch, options.table_px)
        self.gate = ChangeGate(options.gate) if options.gate is not None else None
        self.result = DiceRunResult()
        self.readings: Sequence[DieReading] = ()
        self.writer: VideoWriter | None = None

    def __enter__(self) -> _DiceRun:
        self.events = (self.out / "events.jsonl").open("w", encoding="utf-8", newline="\n")
        self.decisions = (self.out / "decisions.jsonl").open("w", encoding="utf-8", newline="\n")
        self.issues = (self.out / "issues.jsonl").open("w", encoding="utf-8", newline="\n")
        c.append_event(self.events, self.match)
        return self

    def __exit__(self, *exc: object) -> None:
        for f in (self.events, self.decisions, self.issues):
            f.close()
        if self.writer is not None:
            self.writer.close()

    def step(self, frame: Frame, fps: float) -> None:
        """Read the frame (unless it is skipped, or unchanged since the last one read), follow the dice,
        and referee what settled."""
        self.result.frames += 1
        outputs: list[c.Roll | DiceIssue] = []
        if frame.index % self.options.every == 0:
            if self.gate is None or self.gate.changed(frame.image, frame.t):
                self.readings = self.read_frame(frame)
                self.result.frames_read += 1
            outputs = self.watcher.update(frame.t, self.readings, frame.image, frame.index)
        for item in outputs:
            if isinstance(item, c.Roll):
                self._roll(item)
            else:
                self._issue(item.to_dict())
        if self.options.annotate:
            if self.writer is None:
                h, w = frame.image.shape[:2]
                self.writer = VideoWriter(self.out / "annotated.mp4", w, h, fps)
            self.writer.write(_annotate(frame.image, self.watcher, self.result, self.options.table_px))

    def _issue(self, obj: dict[str, Any]) -> None:
        self.issues.write(json.dumps(obj, ensure_ascii=False) + "\n")
        self.issues.flush()
        self.result.issues.append(obj)
        if self.on_event:
            self.on_event(obj)

    def _roll(self, roll: c.Roll) -> None:
        c.append_event(self.events, roll)
        self.result.rolls.append(roll)
        if self.on_event:
            self.on_event(roll)
        try:
            made = self.referee.step(roll)
        except RuleError as exc:
            self._issue(
                {"type": "rule_error", "t": round(roll.t, 6), "player": roll.player, "message": str(exc)}
            )
            return
        for decision in made:
            c.append_event(self.decisions, decision)
            self.result.decisions.append(decision)
            if decision.next is not None:
                self.on_turn = decision.next
            if self.on_event:
                self.on_event(decision)


def draw_dice(image: np.ndarray, dice: Sequence[TrackedDie]) -> np.ndarray:
    """Each die's box with its id and face over ``image`` (in place; red while it moves, ``?`` unread): the
    live reading of a dice run, in ``annotated.mp4`` and in the dashboard's live view."""
    for die in dice:
        x0, y0, x1, y1 = (int(v) for v in die.box_px)
        colour = (0, 0, 255) if die.moving else (0, 220, 0)
        cv2.rectangle(image, (x0, y0), (x1, y1), colour, 2)
        label = f"{die.id} {die.value if die.value is not None else '?'}"
        at = (x0, max(y0 - 4, 12))
        cv2.putText(image, label, at, cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 1, cv2.LINE_AA)
    return image


def _annotate(
    image: np.ndarray,
    watcher: ThrowWatcher,
    result: DiceRunResult,
    table_px: Sequence[tuple[float, float]] | None,
) -> np.ndarray:
    """Each die's box, id and face (red while it moves), the table area, the last roll and decision."""
    out = image.copy()
    if table_px is not None:
        cv2.polylines(out, [np.asarray(table_px, dtype=np.int32)], True, (255, 255, 0), 1, cv2.LINE_AA)
    draw_dice(out, watcher.dice())
    lines = []
    if result.rolls:
        r = result.rolls[-1]
        lines.append(
            f"{r.player}: " + " ".join(f"{d.id}={d.value}" for d in r.dice) + f"  thrown {','.join(r.thrown)}"
        )
    if result.decisions:
        d = result.decisions[-1]
        lines.append(
            "score "
            + ", ".join(f"{p} {v}" for p, v in d.score.items())
            + (f"; next {d.next}" if d.next else "")
        )
    for k, text in enumerate(lines):
        cv2.putText(
            out, text, (10, 24 + 22 * k), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 2, cv2.LINE_AA
        )
    return out
