"""``arbiter eval``: the whole pipeline over a folder written by ``arbiter synth``, scored against its truth,
with a peer tracker (ByteTrack, from roboflow's ``trackers``) fed the same detections in the same run."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from arbiter import contract as c
from arbiter.games import BilliardsSpec, billiards
from arbiter.tables import TableModel
from datasets.billiards.camera import Camera
from datasets.billiards.picture_moves import MovedSource, PictureMove
from evaluation.real_tables import TOLERANCE
from evaluation.scoring import DetectionScore, EventScore, TrackScore, rename
from evaluation.table_sizes import corners_off
from pipeline.billiards import RunOptions, RunResult, referee_video
from vision.calibration import CalibrationError, TableCalibration
from vision.sources import FrameSource
from vision.types import Detections


def _bytetrack_frames(
    detections: list[tuple[float, Detections]], fps: float
) -> list[tuple[float, dict[str, tuple[float, float]]]]:
    """ByteTrack over the same detections, its tracks placed on the table like ours (by their detection)."""
    import supervision as sv
    from trackers import ByteTrackTracker

    tracker = ByteTrackTracker(frame_rate=fps, lost_track_buffer=int(fps), minimum_consecutive_frames=2)
    out = []
    for t, d in detections:
        r = d.radius_px[:, None] if len(d) else np.zeros((0, 1))
        xyxy = np.hstack([d.xy_px - r, d.xy_px + r]) if len(d) else np.zeros((0, 4))
        sv_d = sv.Detections(
            xyxy=xyxy.astype(np.float32),
            confidence=d.confidence.astype(np.float32),
            class_id=d.cls.astype(int),
            data={"xy_mm": d.xy_mm},
        )
        tracked = tracker.update(sv_d)
        frame = {}
        if tracked.tracker_id is not None:
            for tid, xy in zip(tracked.tracker_id, tracked.data.get("xy_mm", np.zeros((0, 2))), strict=False):
                if tid is not None and int(tid) >= 0 and np.isfinite(xy).all():
                    frame[f"bt:{int(tid)}"] = (float(xy[0]), float(xy[1]))
        out.append((t, frame))
    return out


def _truth_frames(shot: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in (shot / "frames.jsonl").read_text().splitlines()]


def _on_table(record: dict[str, Any]) -> dict[str, tuple[float, float]]:
    """The true centre of every ball of a ``frames.jsonl`` record that is still on the table."""
    return {k: tuple(b["xy_mm"]) for k, b in record["balls"].items() if not b["pocketed"]}


def calibration_row(shot: Path, calib: TableCalibration, table: TableModel) -> dict[str, Any]:
    """How the run's automatic calibration of ``shot`` compares with the camera that filmed it: the table
    size chosen (the truth: ``table``), sure or not, and the worst corner's distance from the true one as a
    share of the table's length (``table_sizes.corners_off``)."""
    camera = Camera.from_dict(json.loads((shot / "camera.json").read_text()))
    return {
        "shot": shot.name,
        "table": calib.table.size,
        "table_right": calib.table.size == table.size,
        "sure": calib.sure,
        "corner_error": round(corners_off(camera, calib, table), 5),
    }


def calibration_summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The shots' calibrations counted: the size right, the corners within ``TOLERANCE``, sure, and sure
    but wrong (the size or the corners; as ``table_sizes.SizeRow`` counts it)."""
    within = [r["corner_error"] <= TOLERANCE for r in rows]
    right = [r["table_right"] and ok for r, ok in zip(rows, within, strict=True)]
    return {
        "shots": len(rows),
        "table_size_right": sum(r["table_right"] for r in rows),
        "corners_within_1pct": sum(within),
        "sure": sum(r["sure"] for r in rows),
        "sure_but_wrong": sum(r["sure"] and not ok for r, ok in zip(rows, right, strict=True)),
        "worst_corner_error": max((r["corner_error"] for r in rows), default=None),
        "per_shot": rows,
    }


def in_truth_names(shot: Path, result: RunResult, match_mm: float) -> list[object]:
    """The run's events with its ball ids read as the truth's: look-alike balls (reds) are numbered in the
    order the tracker met them, so each track takes the name of the true ball it followed most."""
    score = TrackScore(match_mm=match_mm)
    for record, (_, tracked) in zip(_truth_frames(shot), result.track_frames, strict=False):
        score.add_frame(_on_table(record), tracked)
    ids = score.identity_map()
    return [rename(e, ids) for e in result.events if not isinstance(e, c.Match)]


@dataclass
class _DirScore:
    """Everything ``evaluate_dir`` counts over the shots of a folder."""

    spec: BilliardsSpec
    table: TableModel  # the table the shots were played on (the truth header's size)
    events: EventScore = field(default_factory=EventScore.new)
    ours: TrackScore = field(init=False)
    peer: TrackScore = field(init=False)
    dets: DetectionScore = field(init=False)
    frames: int = 0
    seconds: float = 0.0
    latency_ms: dict[str, list[float]] = field(default_factory=dict)
    failed: list[str] = field(default_factory=list)
    calibrations: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.ours = TrackScore(match_mm=self.spec.table.ball_diameter_mm)
        self.peer = TrackScore(match_mm=self.spec.table.ball_diameter_mm)
        self.dets = DetectionScore(self.spec)

    def add(self, shot: Path, truth: list[c.JsonLine], result: RunResult, source: FrameSource) -> None:
        """One shot's run against its truth, and ByteTrack on the same detections."""
        self.frames += result.frames
        self.seconds += result.seconds
        for kind, dt in result.latency_s:
            self.latency_ms.setdefault(kind, []).append(dt * 1000)
        truth_frames = _truth_frames(shot)
        if isinstance(source, MovedSource) and source.size is not None:
            truth_frames = [source.move.record(r, source.size) for r in truth_frames]
        fps = source.fps
        for record, (_, tracked), (_, d) in zip(
            truth_frames, result.track_frames, result.detections, strict=False
        ):
            self.ours.add_frame(_on_table(record), tracked)
            self.dets.add_frame(record, d)
        for record, (_, tracked) in zip(
            truth_frames, _bytetrack_frames(result.detections, fps), strict=False
        ):
            self.peer.add_frame(_on_table(record), tracked)
        self.events.add(truth, in_truth_names(shot, result, self.spec.table.ball_diameter_mm))
        if result.calibration is not None:
            self.calibrations.append(calibration_row(shot, result.calibration, self.table))

    def as_dict(self) -> dict[str, Any]:
        return {
            "detection": self.dets.as_dict(),
            "tracking": {"arbiter": self.ours.as_dict(), "bytetrack_peer": self.peer.as_dict()},
            **self.events.as_dict(),
            "pipeline_fps": round(self.frames / self.seconds, 1) if self.seconds else None,
            # Video time from the frame that shows an event to the frame after which it is written: the
            # live delay on top of processing. shot_end waits for the table to settle by design.
            "event_latency_ms": {
                kind: {
                    "mean": round(float(np.mean(v)), 1),
                    "p95": round(float(np.percentile(v, 95)), 1),
                    "max": round(float(np.max(v)), 1),
                }
                for kind, v in sorted(self.latency_ms.items())
            },
            "calibration": calibration_summary(self.calibrations),
            "calibration_failures": self.failed,
        }


def evaluate_dir(
    root: Path,
    work: Path,
    on_shot: Callable[[str, dict[str, Any]], None] | None = None,
    detector: str = "classical",
    max_shots: int | None = None,
    table_size: str | None = None,
    move: PictureMove | None = None,
) -> dict[str, Any]:
    """Score every ``shot_*`` under ``root`` (the first ``max_shots``) with ``detector`` (one of
    ``vision.detectors.DETECTORS``), the table's size found by the run or given (``table_size``, as
    ``arbiter run --table``); pipeline outputs go under ``work``. ``move``: each clip's picture moved as
    a camera that moves a little moves it (``datasets.billiards.picture_moves``)."""
    shots = sorted(p for p in root.glob("shot_*") if (p / "video.mp4").exists())[:max_shots]
    if not shots:
        raise FileNotFoundError(f"{root}: no shot_*/video.mp4; make one with 'arbiter synth billiards'")
    header, _ = c.read_stream(shots[0] / "truth.jsonl")
    spec = billiards(header.game)  # run as a user would: the table's size found, not given
    score = _DirScore(spec, spec.resized(header.table).table)
    for shot in shots:
        _, truth = c.read_stream(shot / "truth.jsonl")
        video = shot / "video.mp4"
        source = FrameSource(video) if move is None else MovedSource(video, move)
        options = RunOptions(spec=spec, annotate=False, detector=detector, table_size=table_size)
        try:
            result = referee_video(source, options, work / shot.name, keep_detections=True)
        except CalibrationError as exc:
            score.failed.append(f"{shot.name}: {exc}")
            continue
        score.add(shot, truth, result, source)
        if on_shot:
            on_shot(shot.name, {"frames": result.frames, "fps": round(result.fps, 1)})
    return {
        "game": spec.id,
        "detector": detector,
        "table_given": table_size,
        "camera_move": None if move is None else move.kind,
        "shots": len(shots),
        **score.as_dict(),
    }
