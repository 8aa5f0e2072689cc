"""Rendered throw clips (``datasets.dice.render``): dice thrown in, tumbling and settling, kept dice lying
still, some leaving the table or ending cocked, with per-frame truth and the truth of each throw."""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.dice.geometry import (
    COCKED_TILT_DEG,
    FLAT_TILT_DEG,
    IN_VIEW,
    Camera,
    axis_angle,
    face_up,
    top_face,
)
from datasets.dice.looks import DieLook, Light, TableLook
from datasets.dice.scene import DieState, Lens, SceneRenderer
from datasets.dice.stills import rng_for
from vision.dice import DieReading
from vision.video import VideoWriter

# --- throw videos ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ThrowRecipe:
    """A clip of ``throws`` throws of ``dice`` dice. The first throw throws all; later ones a random
    non-empty subset (the rest are kept, lying still). ``off_table_share`` / ``cocked_share``: chance that a
    throw sends one die off the table / leaves one cocked against a kept die."""

    dice: int = 3
    throws: int = 3
    seed: int = 0
    fps: float = 30.0
    size: tuple[int, int] = (960, 720)
    die_px: float = 48.0
    tilt_deg: float = 20.0
    rest_s: float = 1.6  # still time after each throw settles
    pickup_s: float = 0.5  # thrown dice are off the picture (in the hand) this long before a throw
    roll_s: tuple[float, float] = (0.7, 1.3)  # how long a die rolls
    off_table_share: float = 0.0
    cocked_share: float = 0.0
    motion_blur: int = 3  # sub-poses per frame for a moving die (1: none)

    def __post_init__(self) -> None:
        if self.dice < 1 or self.throws < 1:
            raise ValueError(
                f"a throw clip needs at least one die and one throw (got {self.dice}, {self.throws})"
            )


@dataclass(frozen=True)
class ThrowTruth:
    """One throw: when every die had stopped, which dice were thrown (truth keys), each die's final face
    (None: cocked), dice that left the table."""

    index: int
    t_start: float
    t_settled: float
    thrown: tuple[str, ...]
    values: dict[str, int | None]
    off_table: tuple[str, ...]
    cocked: tuple[str, ...]


@dataclass(frozen=True)
class FrameTruth:
    """One frame: every die in view, its box, face (None while tumbling or cocked) and whether it moves."""

    index: int
    t: float
    dice: tuple[tuple[str, tuple[float, float, float, float], int | None, bool], ...]


@dataclass
class ThrowClip:
    recipe: ThrowRecipe
    frames: list[FrameTruth]
    throws: list[ThrowTruth]
    table_px: list[tuple[float, float]]
    images: list[np.ndarray] = field(default_factory=list)  # filled when rendered

    def truth(self) -> dict[str, Any]:
        return {
            "recipe": {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(self.recipe).items()},
            "table_px": [[round(x, 1), round(y, 1)] for x, y in self.table_px],
            "throws": [asdict(t) for t in self.throws],
            "frames": [
                {
                    "index": f.index,
                    "t": round(f.t, 6),
                    "dice": [
                        {"key": k, "box_px": [round(v, 1) for v in box], "value": value, "moving": moving}
                        for k, box, value, moving in f.dice
                    ],
                }
                for f in self.frames
            ],
        }


@dataclass
class _Motion:
    """One die's path in one throw: from ``start`` to ``end`` (table mm), rolling to ``rot_end``."""

    t0: float
    t1: float
    start: np.ndarray
    end: np.ndarray
    rot_end: np.ndarray
    side_mm: float
    leaves: bool = False  # slides off the table and out of the picture: gone after t1

    def at(self, t: float) -> tuple[np.ndarray, np.ndarray, float, bool]:
        """Position, orientation, lift and whether it moves at time ``t`` within the throw."""
        if t >= self.t1:
            return self.end, self.rot_end, 0.0, False
        tau = max(0.0, (t - self.t0) / (self.t1 - self.t0))
        s = 1 - (1 - tau) ** 2  # constant deceleration
        path = self.end - self.start
        length = float(np.linalg.norm(path))
        pos = self.start + path * s
        direction = path / max(length, 1e-9)
        axis = np.array([-direction[1], direction[0], 0.0])
        remaining = length * (1 - s)
        angle = -remaining / (self.side_mm / 2) * 0.8  # rolls most of the way, slides the rest
        lift = self.side_mm * 0.6 * abs(math.sin(3 * math.pi * tau)) * (1 - tau) ** 2  # bounces
        return pos, axis_angle(axis, angle) @ self.rot_end, lift, True


def _throw_camera(recipe: ThrowRecipe, rng: np.random.Generator) -> Camera:
    w, h = recipe.size
    focal = w / 2 / math.tan(math.radians(60) / 2)
    distance = focal * 16.0 / recipe.die_px
    # Square to the table (the image's up is the table's +y), give or take a few degrees.
    azimuth = math.pi / 2 + float(rng.uniform(-0.05, 0.05))
    return Camera.looking_at(w, h, focal, (0.0, 0.0, 0.0), distance, recipe.tilt_deg, azimuth)


@dataclass(frozen=True)
class _Stage:
    """Where a clip plays: the camera, the table (mm; it fills most of the view, its edges square to the
    picture's, a border of floor round it), the safe area dice land in, and the dice's looks."""

    cam: Camera
    lo: np.ndarray  # table corner, mm
    hi: np.ndarray
    safe_lo: np.ndarray  # where thrown dice may come to rest
    safe_hi: np.ndarray
    looks: tuple[DieLook, ...]
    keys: tuple[str, ...]

    @property
    def table_mm(self) -> tuple[float, float, float, float]:
        return float(self.lo[0]), float(self.lo[1]), float(self.hi[0]), float(self.hi[1])

    @property
    def side(self) -> float:
        return float(np.mean([lk.side_mm for lk in self.looks]))

    def look(self, key: str) -> DieLook:
        return self.looks[self.keys.index(key)]


def _stage(recipe: ThrowRecipe, rng: np.random.Generator) -> _Stage:
    cam = _throw_camera(recipe, rng)
    size = np.array(recipe.size, dtype=np.float64)
    tl, tr, br, bl = cam.to_table(np.array([[0.08, 0.08], [0.92, 0.08], [0.92, 0.92], [0.08, 0.92]]) * size)
    lo = np.array([max(tl[0], bl[0]), max(bl[1], br[1])])
    hi = np.array([min(tr[0], br[0]), min(tl[1], tr[1])])
    safe = cam.to_table(np.array([[0.2, 0.2], [0.8, 0.2], [0.8, 0.8], [0.2, 0.8]]) * size)
    s_lo = np.array([max(safe[0, 0], safe[3, 0]), max(safe[2, 1], safe[3, 1])])
    s_hi = np.array([min(safe[1, 0], safe[2, 0]), min(safe[0, 1], safe[1, 1])])
    looks = tuple(DieLook.random(rng) for _ in range(recipe.dice))
    return _Stage(cam, lo, hi, s_lo, s_hi, looks, tuple(f"die{i}" for i in range(recipe.dice)))


def _free_spot(stage: _Stage, taken: list[np.ndarray], rng: np.random.Generator) -> np.ndarray:
    for _ in range(200):
        p = rng.uniform(stage.safe_lo, stage.safe_hi)
        if all(np.hypot(*(p - q)) > 2.2 * stage.side for q in taken):
            return p
    return rng.uniform(stage.safe_lo, stage.safe_hi)


Rest = dict[str, tuple[np.ndarray, np.ndarray] | None]  # each die's place and pose; None: not on the table


def _motions(
    stage: _Stage, recipe: ThrowRecipe, rest: Rest, thrown: list[str], t0: float, rng: np.random.Generator
) -> dict[str, _Motion]:
    """How each thrown die travels: in from the near side, to a free spot (or cocked against a kept die,
    or out over the far edge)."""
    side = stage.side
    kept = [x for x in stage.keys if x not in thrown and rest[x] is not None]
    taken = [rest[x][0] for x in kept if rest[x] is not None]  # type: ignore[index]
    leaver = thrown[int(rng.integers(len(thrown)))] if rng.random() < recipe.off_table_share else None
    cocker = None
    if kept and rng.random() < recipe.cocked_share:
        cocker = next((x for x in thrown if x != leaver), None)
    entry = np.array([rng.uniform(stage.safe_lo[0], stage.safe_hi[0]), stage.lo[1] - 3 * side])
    motions: dict[str, _Motion] = {}
    for x in thrown:
        start = entry + rng.normal(0, side, 2)
        dur = float(rng.uniform(*recipe.roll_s))
        value = int(rng.integers(1, 7))
        yaw = float(rng.uniform(0, 2 * math.pi))
        if x == cocker:
            lean_on = rest[kept[0]][0]  # type: ignore[index]
            away = rng.normal(0, 1, 2)
            away /= np.linalg.norm(away)
            end = lean_on + away * side * 1.3
            lean = math.atan2(-away[1], -away[0]) + math.pi / 2
            rot = face_up(value, yaw, float(rng.uniform(*COCKED_TILT_DEG)), lean)
        else:
            end = _free_spot(stage, taken, rng)
            rot = face_up(value, yaw)
        leaves = x == leaver
        if leaves:  # out over the far edge, beyond the picture
            end = np.array([rng.uniform(stage.lo[0], stage.hi[0]), stage.hi[1] + 6 * side])
            dur *= 0.8
        taken.append(end)
        motions[x] = _Motion(t0, t0 + dur, start, end, rot, stage.look(x).side_mm, leaves)
    return motions


def _settle(stage: _Stage, rest: Rest, motions: dict[str, _Motion], k: int, t0: float) -> ThrowTruth:
    """Where the dice lie once the throw is over (``rest`` updated) and the throw's truth."""
    values: dict[str, int | None] = {}
    for x in stage.keys:
        if x in motions:
            if motions[x].leaves:
                continue
            rest[x] = (motions[x].end, motions[x].rot_end)
        if rest[x] is not None:
            v, c = top_face(rest[x][1])  # type: ignore[index]
            values[x] = v if c > math.cos(math.radians(FLAT_TILT_DEG)) else None
    for x, m in motions.items():
        if m.leaves:
            rest[x] = None
    return ThrowTruth(
        k,
        t0,
        max(m.t1 for m in motions.values()),
        tuple(motions),
        values,
        tuple(x for x, m in motions.items() if m.leaves),
        tuple(x for x in values if values[x] is None),
    )


Timeline = list[tuple[float, float, dict[str, _Motion], ThrowTruth]]


def _script(stage: _Stage, recipe: ThrowRecipe, rng: np.random.Generator) -> tuple[Timeline, float]:
    """Every throw: when the dice are picked up, thrown, where they go, what they show; and the clip's
    length."""
    keys = list(stage.keys)
    rest: Rest = dict.fromkeys(keys)
    timeline: Timeline = []
    t = 0.4  # an empty table first
    for k in range(recipe.throws):
        thrown = (
            keys
            if k == 0
            else [x for x in keys if rng.random() < 0.6] or [keys[int(rng.integers(len(keys)))]]
        )
        t0 = t + (recipe.pickup_s if k > 0 else 0.0)
        motions = _motions(stage, recipe, rest, thrown, t0, rng)
        truth = _settle(stage, rest, motions, k, t0)
        timeline.append((t, t0, motions, truth))
        t = truth.t_settled + recipe.rest_s
    return timeline, t


Pose = tuple[str, np.ndarray, np.ndarray, float, bool, list[tuple[np.ndarray, np.ndarray, float]]]


def _poses(stage: _Stage, recipe: ThrowRecipe, timeline: Timeline, duration: float) -> list[list[Pose]]:
    """Per frame, every die on the table: key, place, pose, lift, moving, and the sub-poses of its blur."""
    dt = 1 / recipe.fps
    out = []
    for i in range(int(duration * recipe.fps)):
        ft = i * dt
        now: list[Pose] = []
        for x in stage.keys:
            pose = _pose(timeline, x, ft)
            if pose is None:
                continue
            pos, rot, lift, moving = pose
            subs = []
            if moving and recipe.motion_blur > 1:
                for s in range(1, recipe.motion_blur):
                    sub = _pose(timeline, x, ft - dt * s / recipe.motion_blur)
                    if sub is not None:
                        subs.append(sub[:3])
            now.append((x, pos, rot, lift, moving, subs))
        out.append(now)
    return out


def _frames(
    stage: _Stage, recipe: ThrowRecipe, poses: list[list[Pose]], rng: np.random.Generator, render: bool
) -> tuple[list[FrameTruth], list[np.ndarray]]:
    """Each frame's truth (and, with ``render``, its picture)."""
    cam = stage.cam
    renderer = (
        SceneRenderer(cam, TableLook.random(rng), Light.random(rng), rng, stage.table_mm) if render else None
    )
    lens = Lens(0.0, float(rng.uniform(1, 4)), 90)
    frames, images = [], []
    dt = 1 / recipe.fps
    for i, now in enumerate(poses):
        states = [DieState(x, pos, rot, stage.look(x), lift) for x, pos, rot, lift, _, _ in now]
        motion = [[DieState(x, p, r, stage.look(x), lf) for p, r, lf in subs] for x, _, _, _, _, subs in now]
        if renderer is not None:
            img, drawn = renderer.render(states, motion)
            images.append(lens.apply(img, rng))
            boxes: dict[str, tuple[float, float, float, float] | None] = {
                d.key: d.box_px for d in drawn if d.visible > IN_VIEW
            }
        else:
            boxes = {s.key: _box_of(cam, s) for s in states}
        dice = []
        for x, _, rot, _, moving, _ in now:
            box = boxes.get(x)
            if box is None:
                continue
            v, c = top_face(rot)
            flat = c > math.cos(math.radians(FLAT_TILT_DEG))
            dice.append((x, box, v if (flat and not moving) else None, moving))
        frames.append(FrameTruth(i, i * dt, tuple(dice)))
    return frames, images


def throw_clip(recipe: ThrowRecipe, render: bool = True) -> ThrowClip:
    """Script (and, with ``render``, draw) a throw clip. Truth keys are ``die0``, ``die1``...; the watcher's
    ids are its own, matched to these by position."""
    rng = rng_for(recipe.seed, 0, "throws")
    stage = _stage(recipe, rng)
    timeline, duration = _script(stage, recipe, rng)
    frames, images = _frames(stage, recipe, _poses(stage, recipe, timeline, duration), rng, render)
    x0, y0, x1, y1 = stage.table_mm
    corners = np.array([[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0]], dtype=np.float64)
    polygon = [(float(x), float(y)) for x, y in stage.cam.project(corners)]
    return ThrowClip(recipe, frames, [tt for *_, tt in timeline], polygon, images)


def _box_of(cam: Camera, die: DieState) -> tuple[float, float, float, float] | None:
    """The die's box without drawing it: its projected hull clipped to the picture, or None when less than
    ``IN_VIEW`` of it is inside (as ``SceneRenderer.render`` reports it, bar occlusion by other dice)."""
    hull = cv2.convexHull(cam.project(die.corners()).astype(np.float32))
    frame = np.array([[0, 0], [cam.width, 0], [cam.width, cam.height], [0, cam.height]], dtype=np.float32)
    area, clipped = cv2.intersectConvexConvex(hull, frame)
    if clipped is None or area < IN_VIEW * cv2.contourArea(hull):
        return None
    (x0, y0), (x1, y1) = clipped.reshape(-1, 2).min(axis=0), clipped.reshape(-1, 2).max(axis=0)
    return float(x0), float(y0), float(x1), float(y1)


def _pose(timeline: Timeline, key: str, t: float) -> tuple[np.ndarray, np.ndarray, float, bool] | None:
    """Where die ``key`` is at ``t``: (pos, rot, lift, moving), or None when it is not on the table (not
    thrown yet, in the hand, or gone off the table)."""
    state = None
    for t_pick, t0, motions, _ in timeline:
        if t < t_pick:
            break
        if key not in motions:
            continue  # kept: it lies where it was
        m = motions[key]
        if t < t0:
            return None  # picked up, in the hand
        pos, rot, lift, moving = m.at(t)
        state = None if (m.leaves and t >= m.t1) else (pos, rot, lift, moving)
    return state


def write_throw_clip(clip: ThrowClip, out: Path) -> Path:
    """``video.mp4`` and ``truth.json`` of a rendered clip in ``out``; returns the video's path."""

    out.mkdir(parents=True, exist_ok=True)
    w, h = clip.recipe.size
    video = out / "video.mp4"
    with VideoWriter(video, w, h, clip.recipe.fps, crf=18) as writer:
        for image in clip.images:
            writer.write(image)
    (out / "truth.json").write_text(json.dumps(clip.truth()) + "\n")
    return video


def truth_readings(
    frame: FrameTruth,
    rng: np.random.Generator,
    jitter_px: float = 0.8,
    miss: float = 0.0,
    confidence: tuple[float, float] = (0.85, 0.99),
) -> list[DieReading]:
    """What a good reader would return for a frame of a clip: the truth's boxes with a little jitter, the
    face of a die at rest (None, i.e. ``cocked``, for a cocked one), a blurred guess at low confidence for a
    tumbling one, and a share ``miss`` of dice not found at all."""
    out = []
    for _key, box, value, moving in frame.dice:
        if rng.random() < miss:
            continue
        x0, y0, x1, y1 = (v + rng.normal(0, jitter_px) for v in box)
        if x1 - x0 < 2 or y1 - y0 < 2:
            continue
        if moving:
            out.append(DieReading((x0, y0, x1, y1), int(rng.integers(1, 7)), float(rng.uniform(0.3, 0.6))))
        else:
            out.append(DieReading((x0, y0, x1, y1), value, float(rng.uniform(*confidence))))
    return out
