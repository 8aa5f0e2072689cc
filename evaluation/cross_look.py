"""``arbiter eval cross-look``: the trained detector on a look it never trained on, beside the classical one.

The committed network (``vision.yolo.DEFAULT_MODEL``) was trained on Arbiter's own renders only. Here both
detectors look at frames of pooltool's own 3D renderer (panda3d, offscreen: its table models, cloth, rails,
room and lights; ``datasets.billiards.second_look.pooltool_views``), overhead and from a broadcast camera's
place, with exact truth. Generated once into a cache folder (about 40 s a frame on a loaded 2-core box),
read from there afterwards.

Each detector is given the true camera, as a perfect calibration, so that what is measured is detection
alone: the classical detector with the table's mask and the ball's radius, the network through the table
view (``vision.table_view.TableView``) of pooltool's table, limited to the game's classes. A detection
matches a ball when its centre lies within that ball's radius (``evaluation.scoring.match_detections``).
Balls whose centre is out of the frame or behind a near cushion (``render.foreground.near_cushion_mask``)
are neither required nor held against a detection that finds them. Figures per detector, split overhead
vs broadcast and by table kind: recall (balls found), precision (detections that are a ball), class right
(among the found).
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import billiards
from datasets.billiards.second_look.pooltool_looks import PooltoolView, read_views, seen_balls
from evaluation.detection import Detector, jaws_from_camera, table_mask_from_camera
from evaluation.scoring import match_detections
from vision.classical import ClassicalDetector
from vision.detectors import game_classes
from vision.table_view import TableView
from vision.types import Detections
from vision.yolo import DEFAULT_MODEL, OnnxNetwork, YoloDetector

SCENES = 10  # pooltool scenes (a table kind, balls at rest), seeds FIRST_SEED..
VIEWS_PER_SCENE = 4  # cameras per scene: about a third broadcast
FIRST_SEED = 0
CHUNK = 5  # scenes per generating process: pooltool's scene graph grows with every scene it has shown
GENERATOR = "datasets.billiards.second_look.pooltool_views"
DETECTORS = ("yolo", "classical")
Log = Callable[[str], None]


def view_names(first: int, scenes: int, views: int) -> list[str]:
    """The names ``pooltool_views`` gives the views of scenes ``first..first+scenes``."""
    return [f"pt{seed:05d}_v{v}" for seed in range(first, first + scenes) for v in range(views)]


def generate_views(
    folder: Path,
    scenes: int = SCENES,
    views: int = VIEWS_PER_SCENE,
    first: int = FIRST_SEED,
    log: Log = print,
) -> None:
    """Render the views of scenes ``first..first+scenes`` into ``folder`` that are not there yet, a chunk of
    scenes per process (needs the physics extra: pooltool and panda3d)."""
    folder.mkdir(parents=True, exist_ok=True)
    for start in range(first, first + scenes, CHUNK):
        n = min(CHUNK, first + scenes - start)
        if all((folder / f"{name}.json").exists() for name in view_names(start, n, views)):
            continue
        log(f"rendering pooltool scenes {start}..{start + n - 1} ({views} views each) into {folder}")
        args = [sys.executable, "-m", GENERATOR, str(folder), str(start), str(n), str(views)]
        done = subprocess.run(args, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(
                f"pooltool's renderer failed on scenes {start}..{start + n - 1}: {done.stderr[-800:]}"
            )


@dataclass
class Counts:
    """Balls required and found, detections made and false, found balls named right."""

    truth: int = 0
    found: int = 0
    detections: int = 0
    false: int = 0
    class_right: int = 0
    frames: int = 0
    seconds: float = 0.0

    def add(self, other: Counts) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.__dict__,
            "recall": self.found / self.truth if self.truth else float("nan"),
            "precision": (self.detections - self.false) / self.detections
            if self.detections
            else float("nan"),
            "class_right": self.class_right / self.found if self.found else float("nan"),
            "ms_per_frame": 1000.0 * self.seconds / self.frames if self.frames else float("nan"),
        }


@dataclass(frozen=True)
class Truth:
    """A view's balls in pixels: centre, radius, class index, and whether a detector must find it."""

    xy_px: np.ndarray
    radius_px: np.ndarray
    cls: np.ndarray
    required: np.ndarray


def view_truth(view: PooltoolView) -> Truth:
    """Where each ball of ``view`` is in its image, and which must be found (``seen_balls``)."""
    xy, seen = seen_balls(view)
    r = view.table.ball_radius_mm
    rad = view.camera.radius_px(np.array([[*b.xy_mm, r] for b in view.balls], np.float64).reshape(-1, 3), r)
    cls = np.array([APPEARANCE_CLASSES.index(b.cls) for b in view.balls], np.int64)
    return Truth(xy, rad, cls, seen)


def score_frame(det: Detections, truth: Truth) -> Counts:
    """One frame's counts: matches to a ball not required count neither way."""
    out = Counts(truth=int(truth.required.sum()), frames=1)
    pairs = match_detections(det.xy_px, truth.xy_px, truth.radius_px)
    to_spare = sum(1 for _, j in pairs if not truth.required[j])
    out.detections = len(det) - to_spare
    found = [(i, j) for i, j in pairs if truth.required[j]]
    out.found = len(found)
    out.false = out.detections - out.found
    out.class_right = sum(int(det.cls[i] == truth.cls[j]) for i, j in found)
    return out


def detector_for(name: str, view: PooltoolView, network: OnnxNetwork) -> Detector:
    """Detector ``name`` for ``view``'s table, through the view's true camera."""
    spec = billiards(view.game)
    cam, table = view.camera, view.table
    r = table.ball_radius_mm

    def mm_to_px(xy: np.ndarray) -> np.ndarray:
        return cam.project(np.c_[xy, np.full(len(xy), r)])

    if name == "classical":
        radius = float(cam.radius_px(np.array([[table.width_mm / 2, table.length_mm / 2, r]]), r)[0])
        return ClassicalDetector(
            spec, radius, table_mask_from_camera(cam, table), jaws_px=jaws_from_camera(cam, table)
        )
    tv = TableView(table)
    return YoloDetector(
        tv,
        tv.rectifier(mm_to_px),
        mm_to_px,
        lambda xy: cam.radius_px(np.c_[xy, np.full(len(xy), r)], r),
        network,
        game_classes(spec),
    )


@dataclass
class CrossLookReport:
    """Counts by detector, then by group (``all``, ``overhead``, ``broadcast``, ``kind:<table kind>``)."""

    model: str
    views: int = 0
    counts: dict[str, dict[str, Counts]] = field(default_factory=dict)
    worst_projection_px: float = 0.0

    def add(self, detector: str, view: PooltoolView, c: Counts) -> None:
        groups = self.counts.setdefault(detector, {})
        for g in ("all", view.view, f"kind:{view.kind}"):
            groups.setdefault(g, Counts()).add(c)

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "views": self.views,
            "worst_projection_px": self.worst_projection_px,
            "detectors": {d: {g: c.as_dict() for g, c in gs.items()} for d, gs in self.counts.items()},
        }


def evaluate_cross_look(
    folder: Path, model: Path | None = None, on_view: Callable[[str], None] | None = None
) -> CrossLookReport:
    """Both detectors on every view in ``folder`` (written by ``generate_views``); ``model`` defaults to
    the committed network."""
    views = read_views(folder)
    if not views:
        raise FileNotFoundError(f"{folder} holds no pooltool views; generate them with --generate")
    path = model or DEFAULT_MODEL
    network = OnnxNetwork(path)
    report = CrossLookReport(model=path.name, views=len(views))
    for view in views:
        image = cv2.imread(str(view.image_path), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"cannot read {view.image_path}")
        truth = view_truth(view)
        report.worst_projection_px = max(report.worst_projection_px, view.projection_check_px)
        for name in DETECTORS:
            detector = detector_for(name, view, network)
            started = time.perf_counter()
            det = detector.detect(image)
            seconds = time.perf_counter() - started
            c = score_frame(det, truth)
            c.seconds = seconds
            report.add(name, view, c)
        if on_view is not None:
            on_view(view.name)
    return report


def _pct(v: float) -> str:
    return "-" if v != v else f"{100 * v:.1f} %"


def format_report(report: CrossLookReport) -> str:
    """A Markdown table: a row per detector and group."""
    lines = [
        f"{report.views} pooltool views, true cameras; model {report.model}",
        "",
        "| detector | views | balls | recall | precision | class right | ms/frame |",
        "|---|---|---|---|---|---|---|",
    ]
    for det, groups in report.counts.items():
        order = ["all", "overhead", "broadcast", *sorted(g for g in groups if g.startswith("kind:"))]
        for g in order:
            if g not in groups:
                continue
            d = groups[g].as_dict()
            lines.append(
                f"| {det} | {g} ({d['frames']}) | {d['truth']} | {_pct(d['recall'])} "
                f"| {_pct(d['precision'])} | {_pct(d['class_right'])} | {d['ms_per_frame']:.0f} |"
            )
    return "\n".join(lines)
