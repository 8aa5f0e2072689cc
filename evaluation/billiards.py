"""``arbiter eval``: the whole pipeline over a folder written by ``arbiter synth``, scored against its truth,
with a peer tracker (ByteTrack, from roboflow's ``trackers``) fed the same detections in the same run."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np

from arbiter import contract as c
from arbiter.games import billiards
from evaluation.scoring import DetectionScore, EventScore, TrackScore, rename
from pipeline.billiards import RunOptions, RunResult, referee_video
from vision.calibration import CalibrationError
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


def in_truth_names(shot: Path, result: RunResult, match_mm: float) -> list[object]:
    """The run's events with its ball ids read as the truth's: look-alike balls (reds) are numbered in the
    order the tracker met them, so each track takes the name of the true ball it followed most."""
    truth_frames = [json.loads(x) for x in (shot / "frames.jsonl").read_text().splitlines()]
    score = TrackScore(match_mm=match_mm)
    for record, (_, tracked) in zip(truth_frames, result.track_frames, strict=False):
        score.add_frame(
            {k: tuple(b["xy_mm"]) for k, b in record["balls"].items() if not b["pocketed"]}, tracked
        )
    ids = score.identity_map()
    return [rename(e, ids) for e in result.events if not isinstance(e, c.Match)]


def evaluate_dir(
    root: Path,
    work: Path,
    on_shot: Callable[[str, dict], None] | None = None,
    detector: str = "classical",
    max_shots: int | None = None,
) -> dict:
    """Score every ``shot_*`` under ``root`` (the first ``max_shots``) with ``detector`` (one of
    ``vision.detectors.DETECTORS``); pipeline outputs go under ``work``."""
    shots = sorted(p for p in root.glob("shot_*") if (p / "video.mp4").exists())[:max_shots]
    if not shots:
        raise FileNotFoundError(f"{root}: no shot_*/video.mp4; make one with 'arbiter synth billiards'")
    header, _ = c.read_stream(shots[0] / "truth.jsonl")
    game = header.game
    table = billiards(game).table
    events = EventScore.new()
    ours = TrackScore(match_mm=table.ball_diameter_mm)
    peer = TrackScore(match_mm=table.ball_diameter_mm)
    dets = DetectionScore(game)
    frames_total, seconds = 0, 0.0
    latency: dict[str, list[float]] = {}
    failed: list[str] = []
    for shot in shots:
        _, truth = c.read_stream(shot / "truth.jsonl")
        source = FrameSource(shot / "video.mp4")
        try:
            result = referee_video(
                source,
                RunOptions(spec=billiards(game), annotate=False, detector=detector),
                work / shot.name,
                keep_detections=True,
            )
        except CalibrationError as exc:
            failed.append(f"{shot.name}: {exc}")
            continue
        frames_total += result.frames
        for kind, dt in result.latency_s:
            latency.setdefault(kind, []).append(dt * 1000)
        seconds += result.seconds
        truth_frames = [json.loads(x) for x in (shot / "frames.jsonl").read_text().splitlines()]
        for record, (_, tracked), (_, d) in zip(
            truth_frames, result.track_frames, result.detections, strict=False
        ):
            on = {k: tuple(b["xy_mm"]) for k, b in record["balls"].items() if not b["pocketed"]}
            ours.add_frame(on, tracked)
            dets.add_frame(record, d)
        for record, (_, tracked) in zip(
            truth_frames, _bytetrack_frames(result.detections, source.fps), strict=False
        ):
            peer.add_frame(
                {k: tuple(b["xy_mm"]) for k, b in record["balls"].items() if not b["pocketed"]}, tracked
            )
        events.add(truth, in_truth_names(shot, result, table.ball_diameter_mm))
        if on_shot:
            on_shot(shot.name, {"frames": result.frames, "fps": round(result.fps, 1)})
    return {
        "game": game,
        "detector": detector,
        "shots": len(shots),
        "detection": dets.as_dict(),
        "tracking": {"arbiter": ours.as_dict(), "bytetrack_peer": peer.as_dict()},
        **events.as_dict(),
        "pipeline_fps": round(frames_total / seconds, 1) if seconds else None,
        # Video time from the frame that shows an event to the frame after which it is written: the live delay
        # on top of processing. shot_end waits for the table to settle by design.
        "event_latency_ms": {
            kind: {
                "mean": round(float(np.mean(v)), 1),
                "p95": round(float(np.percentile(v, 95)), 1),
                "max": round(float(np.max(v)), 1),
            }
            for kind, v in sorted(latency.items())
        },
        "calibration_failures": failed,
    }
