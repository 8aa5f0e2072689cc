"""Scoring a detector against the synthetic world's truth, and timing the classical detector.

``evaluate_on_clip`` replays one shot written by ``datasets.billiards.synth`` (its video, or its exported
stills when the video was not written) through a detector and matches every detection with the balls of
``frames.jsonl``: a detection matches a visible ball when its centre lies within that ball's true radius.
Balls at rest and moving balls are scored apart, since motion blur is a different problem. Hidden balls
(under the cue or an arm) and balls partly out of the frame are neither required nor held against a
detection that finds them.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import BilliardsSpec, billiards
from arbiter.tables import TableModel
from datasets.billiards.camera import Camera
from datasets.billiards.look import Look
from datasets.billiards.render import TableRenderer, bench_motion, bench_scene, exposure_times
from datasets.billiards.scene import SceneSample
from evaluation.scoring import match_detections
from vision.classical import ClassicalConfig, ClassicalDetector
from vision.types import Detections

_EDGE_SAMPLES = 32  # points per table side when projecting the mask outline (lens distortion bends it)
_BENCH_DISTINCT_FRAMES = 30  # rendered frames the bench cycles through
_BENCH_FPS = 60.0
_PIN_CLASSES = frozenset(APPEARANCE_CLASSES.index(c) for c in ("pin_standing", "pin_down"))
_NEAR_MOVING = 4  # an unmatched detection within this many ball radii of a moving ball counts as "moving"
STATES = ("rest", "moving")


class Detector(Protocol):
    def detect(self, image: np.ndarray) -> Detections: ...


MakeDetector = Callable[[BilliardsSpec, float, np.ndarray], Detector]


def table_mask_from_camera(camera: Camera, table: TableModel) -> np.ndarray:
    """The playing area (cushion noses) at ball-centre height as seen by ``camera``: where a ball centre
    can be. (The pipeline's calibration draws it at cloth level, pocket throats included; the detector
    takes either.)"""
    s = np.linspace(0.0, 1.0, _EDGE_SAMPLES, endpoint=False)
    w, length, z = table.width_mm, table.length_mm, table.ball_radius_mm
    xs = np.concatenate([w * s, np.full_like(s, w), w * (1 - s), np.zeros_like(s)])
    ys = np.concatenate([np.zeros_like(s), length * s, np.full_like(s, length), length * (1 - s)])
    px = camera.project(np.stack([xs, ys, np.full_like(xs, z)], axis=1))
    mask = np.zeros((camera.height, camera.width), np.uint8)
    cv2.fillPoly(mask, [np.round(px * 16).astype(np.int32)], 1, cv2.LINE_8, 4)
    return mask


def jaws_from_camera(camera: Camera, table: TableModel) -> np.ndarray:
    """The middle of each pocket's mouth at ball-centre height as seen by ``camera`` (P, 2 px)."""
    mouths = np.array([p.mouth_xy_mm for p in table.pockets], np.float64).reshape(-1, 2)
    return np.asarray(camera.project(np.column_stack([mouths, np.full(len(mouths), table.ball_radius_mm)])))


def ball_radius_from_camera(camera: Camera, table: TableModel) -> float:
    """The apparent ball radius at the table centre."""
    centre = np.array([[table.width_mm / 2, table.length_mm / 2, table.ball_radius_mm]])
    return float(camera.radius_px(centre, table.ball_radius_mm)[0])


def _frames(shot_dir: Path) -> Iterator[tuple[int, np.ndarray]]:
    """(frame index, BGR image) from the clip's video, else from its exported stills."""
    video = shot_dir / "video.mp4"
    if video.exists():
        cap = cv2.VideoCapture(str(video))
        try:
            i = 0
            while True:
                ok, image = cap.read()
                if not ok:
                    return
                yield i, image
                i += 1
        finally:
            cap.release()
    stills = sorted((shot_dir / "yolo" / "images").glob("*_f*.jpg"))
    if not stills:
        raise FileNotFoundError(f"{shot_dir} has neither video.mp4 nor yolo/images/*.jpg to evaluate on")
    for path in stills:
        still = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if still is None:
            raise ValueError(f"cannot read {path}")
        yield int(path.stem.rsplit("_f", 1)[1]), still


@dataclass
class _ClipScore:
    """Counts over a clip's frames, apart for balls at rest and moving (``evaluate_on_clip``)."""

    spec: BilliardsSpec
    radius_px: float
    counts: dict[str, Counter[str]] = field(default_factory=lambda: {s: Counter() for s in STATES})
    errors: list[float] = field(default_factory=list)
    offsets: list[np.ndarray] = field(default_factory=list)
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)

    def add_frame(self, truth: dict[str, Any], det: Detections, shape: tuple[int, ...]) -> None:
        balls = det[~np.isin(det.cls, list(_PIN_CLASSES))] if len(det) else det
        required: list[tuple[str, dict[str, Any]]] = []
        dont_care: list[tuple[str, dict[str, Any]]] = []
        for bid, b in truth["balls"].items():
            if b["xy_px"] is None or b["pocketed"]:
                continue
            x, y = b["xy_px"]
            r = b["radius_px"]
            inside = r <= x <= shape[1] - 1 - r and r <= y <= shape[0] - 1 - r
            (dont_care if b["hidden"] or not inside else required).append((bid, b))
        everyone = required + dont_care
        true_xy = np.array([b["xy_px"] for _, b in everyone]).reshape(-1, 2)
        true_r = np.array([b["radius_px"] for _, b in everyone])
        pairs = match_detections(balls.xy_px, true_xy, true_r)
        for state in STATES:
            self.counts[state]["truth"] += sum((b["moving"] == (state == "moving")) for _, b in required)
        for i, j in pairs:
            if j < len(required):
                self._found(balls, i, *required[j])
        moving_xy = np.array([b["xy_px"] for _, b in required if b["moving"]]).reshape(-1, 2)
        matched = {i for i, _ in pairs}
        for i in range(len(balls)):
            if i in matched:
                continue
            dist = np.linalg.norm(moving_xy - balls.xy_px[i], axis=1)
            state = "moving" if len(moving_xy) and np.min(dist) < _NEAR_MOVING * self.radius_px else "rest"
            self.counts[state]["detections"] += 1
            self.counts[state]["false"] += 1

    def _found(self, balls: Detections, i: int, bid: str, b: dict[str, Any]) -> None:
        """Detection ``i`` found required ball ``bid``: its class, and its centre's error at rest."""
        state = "moving" if b["moving"] else "rest"
        true_cls = APPEARANCE_CLASSES.index(self.spec.look(bid).cls)
        self.counts[state]["found"] += 1
        self.counts[state]["detections"] += 1
        if balls.blurred[i]:  # found in its own blur: placed, not named
            self.counts[state]["blurred"] += 1
            return
        self.counts[state]["correct_class"] += int(balls.cls[i] == true_cls)
        if balls.cls[i] != true_cls:
            self.confusion[(APPEARANCE_CLASSES[true_cls], APPEARANCE_CLASSES[balls.cls[i]])] += 1
        if state == "rest":
            off = balls.xy_px[i] - np.asarray(b["xy_px"])
            self.errors.append(float(np.linalg.norm(off)))
            self.offsets.append(off)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for state, c in self.counts.items():
            out[state] = {
                "truth": c["truth"],
                "found": c["found"],
                "detections": c["detections"],
                "false": c["false"],
                "recall": c["found"] / c["truth"] if c["truth"] else float("nan"),
                "precision": (c["detections"] - c["false"]) / c["detections"]
                if c["detections"]
                else float("nan"),
                "class_accuracy": c["correct_class"] / (c["found"] - c["blurred"])
                if c["found"] > c["blurred"]
                else float("nan"),
                "found_blurred": c["blurred"],
            }
        offsets = np.mean(self.offsets, axis=0).round(3).tolist() if self.offsets else [float("nan")] * 2
        out["centre_error_px"] = float(np.median(self.errors)) if self.errors else float("nan")
        out["centre_bias_px"] = offsets
        out["confusion"] = {f"{t}->{p}": n for (t, p), n in self.confusion.most_common()}
        return out


def evaluate_on_clip(
    shot_dir: str | Path, config: ClassicalConfig | None = None, make_detector: MakeDetector | None = None
) -> dict[str, Any]:
    """Run a detector over one synthetic shot and score it against ``frames.jsonl``.

    ``make_detector(spec, radius_px, table_mask)`` builds the detector (anything with ``detect(image) ->
    Detections``); by default the classical one with ``config``. Returns counts and rates for balls at
    rest and moving: ``recall`` (visible balls found), ``precision`` (detections that are a ball: those
    near a moving ball count under ``moving``, the rest under ``rest``), ``class_accuracy`` among matches,
    the median centre error, the confusions, and the mean detection time per frame."""
    shot_dir = Path(shot_dir)
    spec = billiards(json.loads((shot_dir / "shot.json").read_text())["game"])
    camera = Camera.from_dict(json.loads((shot_dir / "camera.json").read_text()))
    radius = ball_radius_from_camera(camera, spec.table)
    mask = table_mask_from_camera(camera, spec.table)
    detector: Detector = (
        ClassicalDetector(
            spec, radius, mask, config or ClassicalConfig(), jaws_px=jaws_from_camera(camera, spec.table)
        )
        if make_detector is None
        else make_detector(spec, radius, mask)
    )
    truth = [json.loads(line) for line in (shot_dir / "frames.jsonl").read_text().splitlines()]
    score = _ClipScore(spec, radius)
    seconds, n_frames = 0.0, 0
    for index, image in _frames(shot_dir):
        if index >= len(truth):
            break
        start = time.perf_counter()
        det = detector.detect(image)
        seconds += time.perf_counter() - start
        n_frames += 1
        score.add_frame(truth[index], det, image.shape)
    out: dict[str, Any] = {"game": spec.id, "frames": n_frames, "radius_px": radius, **score.as_dict()}
    out["ms_per_frame"] = 1000.0 * seconds / max(n_frames, 1)
    return out


def _bench_images(
    spec: BilliardsSpec, camera: Camera, seed: int, frames: int
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Rendered frames of the renderer's bench scene: all balls at rest, and three of them rolling."""
    look = replace(Look(), cue=None, arm=None)
    renderer = TableRenderer(spec, camera, look, seed)
    table = spec.table
    balls = bench_scene(table)
    distinct = min(frames, _BENCH_DISTINCT_FRAMES)
    rest = [renderer.render([SceneSample(i / _BENCH_FPS, tuple(balls))]).image for i in range(distinct)]
    moving = [
        renderer.render(
            [
                bench_motion(table, balls, t)
                for t in exposure_times(i / _BENCH_FPS, _BENCH_FPS, look.exposure, 3)
            ]
        ).image
        for i in range(distinct)
    ]
    return rest, moving


def bench_classical(
    width: int = 1920, height: int = 1080, frames: int = 120, seed: int = 0
) -> dict[str, float]:
    """Print and return the classical detector's time per frame (ms, process CPU time, OpenCV on one
    thread as on a small box that runs the rest of the pipeline on its other core) on rendered
    ``width`` x ``height`` frames of the renderer's bench scene (22 snooker balls, 15 of them racked):

    - ``rest``: the balls at rest (fresh sensor noise in every frame), what most of a match looks like;
    - ``moving``: three balls rolling at 1.5-2.6 m/s with motion blur, the rest at rest;
    - ``worst``: the moving frames with ``reuse_still`` off, so every blob is refitted every frame."""
    spec = billiards("snooker")
    camera = Camera.random(spec.table, width, height, np.random.default_rng(seed))
    rest, moving = _bench_images(spec, camera, seed, frames)
    radius = ball_radius_from_camera(camera, spec.table)
    mask = table_mask_from_camera(camera, spec.table)
    jaws = jaws_from_camera(camera, spec.table)
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    out: dict[str, float] = {}
    try:
        for name, images, config in (
            ("rest", rest, ClassicalConfig()),
            ("moving", moving, ClassicalConfig()),
            ("worst", moving, ClassicalConfig(reuse_still=False)),
        ):
            detector = ClassicalDetector(spec, radius, mask, config, jaws_px=jaws)
            detector.detect(images[0])  # learns the cloth
            start = time.process_time()
            for i in range(frames):
                found = detector.detect(images[i % len(images)])
            out[name] = 1000.0 * (time.process_time() - start) / frames
            size = f"{width}x{height}"
            print(f"classical detector, {name:6s}: {out[name]:6.2f} ms per {size} frame, {len(found)} balls")
    finally:
        cv2.setNumThreads(threads)
    return out
