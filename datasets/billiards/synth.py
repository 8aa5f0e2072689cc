"""The synthetic billiards world: simulated shots filmed by a simulated overhead camera, with the truth.

``arbiter synth billiards`` writes, per shot, under ``OUT/shot_NNN/``:

- ``truth.jsonl``: the match header and the shot's events in the contract, times from the physics engine;
- ``frames.jsonl``: per frame, every ball's position in mm and in pixels, its radius in pixels, and whether
  it is moving, pocketed or hidden behind an occluder (and every pin, standing or down);
- ``video.mp4``: the clip (H.264);
- ``camera.json``, ``look.json``, ``shot.json``: the recorded camera, every appearance option, and the layout,
  strike, intent and outcome of the shot, so that any frame can be re-created and checked;
- ``yolo/images`` and ``yolo/labels``: every ``yolo_every``-th frame in YOLO format; ``OUT/data.yaml``
  lists them with the class names (``arbiter.balls.APPEARANCE_CLASSES``).

Randomness comes from ``numpy.random.default_rng([seed, shot, stream])``, one stream per concern (physics,
camera, look, renderer), so the same seed gives byte-identical truth and frames, and changing the renderer
never changes the physics.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import yaml

from arbiter import contract as c
from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import BilliardsSpec, billiards
from vision.video import VideoWriter

from . import layouts, pins, shots
from .camera import Camera
from .look import Look
from .physics import Contact, ShotTrace, simulate
from .render import RenderedFrame, Stroke, TableRenderer, exposure_times
from .scene import SceneSample
from .variety import CLASSIC, Variety

# Shot intents and how often each is drawn: the mix of a real session (breaks are one shot in many).
INTENT_WEIGHTS = {
    "break": 0.12,
    "pot": 0.28,
    "double": 0.08,
    "plant": 0.1,
    "in_off": 0.1,
    "safety": 0.14,
    "miss": 0.04,
    "power": 0.14,
}
IN_HAND_PROBABILITY = 0.3  # after a foul or an in-off the next player has the cue ball in hand
MAX_SHOT_S = 14.0  # a shot still rolling after this is re-drawn: clips stay short
_STREAMS = {"physics": 0, "camera": 1, "look": 2, "render": 3}


@dataclass(frozen=True)
class SynthConfig:
    """What to generate. ``blur_samples`` sub-frames per frame trade render time for motion-blur realism;
    ``yolo_every`` trades dataset size against near-duplicate frames."""

    game: str
    shots: int = 1
    seed: int = 0
    fps: float = 60.0
    width: int = 1920
    height: int = 1080
    blur_samples: int = 3
    yolo_every: int = 10  # 0: no YOLO images (clips to evaluate on)
    video: bool = True
    players: tuple[str, ...] = ("A", "B")
    pre_roll_s: tuple[float, float] = (0.6, 1.0)
    post_roll_s: float = 0.5
    intents: dict[str, float] = field(default_factory=lambda: dict(INTENT_WEIGHTS))
    variety: Variety = CLASSIC  # the cameras and rooms drawn (``variety``): CLASSIC keeps old seeds' clips
    # The size of table played on, a name of the game's catalogue (``arbiter.tables``); None: the game's own.
    # Physics, layouts, spots and camera all take that table, and the truth's header names it.
    table: str | None = None
    spec: BilliardsSpec = field(init=False, repr=False, compare=False)  # the game's, resolved once here

    def __post_init__(self) -> None:
        # UnknownGameError names the billiards games; ValueError lists the sizes the game is played on.
        object.__setattr__(self, "spec", billiards(self.game).resized(self.table))
        if self.shots < 1:
            raise ValueError(f"shots must be at least 1 (got {self.shots})")
        if not 1 <= self.fps <= 1000:
            raise ValueError(f"fps must be between 1 and 1000 (got {self.fps})")
        if self.width < 64 or self.height < 64:
            raise ValueError(f"frame size {self.width}x{self.height} is too small; use at least 64x64")
        if self.yolo_every < 0:
            raise ValueError(f"yolo_every must be 0 (no YOLO images) or more (got {self.yolo_every})")
        if self.blur_samples < 1 or self.blur_samples % 2 == 0:
            raise ValueError(f"blur_samples must be odd and at least 1 (got {self.blur_samples})")
        unknown = set(self.intents) - set(shots.INTENTS)
        if unknown:
            raise ValueError(f"unknown intents {sorted(unknown)}; choose from {', '.join(shots.INTENTS)}")
        if self.intents.get("break", 0.0) > 0 and not layouts.break_fits(self.spec):
            if self.intents != INTENT_WEIGHTS:
                raise ValueError(
                    f"the {self.game} break does not fit a {self.spec.table.size} table (its balls keep "
                    "their full size and the racked ones reach a spotted ball): leave out the break intent"
                )
            # The default mix on such a table: every intent but the break.
            object.__setattr__(self, "intents", {k: v for k, v in self.intents.items() if k != "break"})


def rng_for(seed: int, shot: int, stream: str) -> np.random.Generator:
    return np.random.default_rng([seed, shot, _STREAMS[stream]])


@dataclass(frozen=True)
class SimulatedShot:
    """A shot ready to film: the trace, what was planned, pin falls, and the clip's time offset."""

    index: int
    trace: ShotTrace
    planned: shots.PlannedShot
    in_hand: bool
    falls: tuple[pins.PinFall, ...]
    t0: float  # clip time of the strike
    clip_s: float

    def clip_time(self, shot_time: float) -> float:
        return self.t0 + shot_time


def _draw_shot(
    cfg: SynthConfig, rng: np.random.Generator
) -> tuple[shots.PlannedShot, dict[str, layouts.XY], bool]:
    """A layout, an intent and the strike that tries it: (planned shot, layout, cue ball in hand)."""
    spec = cfg.spec
    names = list(cfg.intents)
    weights = np.array([cfg.intents[n] for n in names], dtype=float)
    intent = str(rng.choice(names, p=weights / weights.sum()))
    if intent == "break":
        layout, in_hand = layouts.opening(spec, rng), True
    else:
        layout = layouts.midgame(spec, rng)
        in_hand = bool(rng.random() < IN_HAND_PROBABILITY)
    cue = spec.cue_ball
    if len(spec.cue_balls) > 1 and intent != "break" and rng.random() < 0.5:
        cue = spec.cue_balls[1]  # each player has a ball (five-pins): the players alternate
    if in_hand and intent != "break":
        layout.pop(cue)
        layout[cue] = layouts.place_in_hand(spec, rng, layout)
    planned = shots.refine_aim(spec, layout, shots.plan(spec, layout, intent, rng, cue_ball=cue), rng)
    return planned, layout, in_hand


def simulate_shot(cfg: SynthConfig, index: int) -> SimulatedShot:
    """Draw and simulate shot ``index`` of the run: a layout, an intent, a strike; shots that are still
    rolling after ``MAX_SHOT_S`` are re-drawn from the same stream."""
    rng = rng_for(cfg.seed, index, "physics")
    for _ in range(50):
        planned, layout, in_hand = _draw_shot(cfg, rng)
        trace = simulate(cfg.spec.table, layout, planned.strike, max_duration_s=MAX_SHOT_S)
        if trace.duration_s >= MAX_SHOT_S - 1e-9:
            continue
        falls = pins.knockdowns(trace)
        lo, hi = cfg.pre_roll_s
        t0 = float(rng.uniform(lo, hi))
        return SimulatedShot(
            index, trace, planned, in_hand, falls, t0, t0 + trace.duration_s + cfg.post_roll_s
        )
    raise RuntimeError(f"shot {index}: no shot under {MAX_SHOT_S} s in 50 draws; check the intents")


def _contact_line(con: Contact, t: float) -> c.Event:
    """A contact of the engine as the contract's line at clip time ``t``."""
    if con.kind == "stick":
        return c.ShotStart(t=t, ball=con.ids[0])
    if con.kind == "ball_ball":
        return c.BallBall(t=t, balls=(con.ids[0], con.ids[1]))
    if con.where is None:
        raise ValueError(f"a {con.kind} contact of the engine without its side or pocket: {con}")
    if con.kind == "cushion":
        return c.Cushion(t=t, ball=con.ids[0], side=con.where)
    return c.Pot(t=t, ball=con.ids[0], pocket=con.where)


def truth_events(cfg: SynthConfig, shot: SimulatedShot) -> list[c.JsonLine]:
    """The contract lines of the shot's truth: header, shot_start, every contact, pins, shot_end."""
    # A synthetic shot stands alone: the player who strikes it is the one the header sends in first (where
    # each player has a ball, as in five-pins, the owner of the ball struck).
    striker = shot.trace.strike.cue_ball
    owner = cfg.spec.cue_balls.index(striker) if striker in cfg.spec.cue_balls else 0
    first = cfg.players[owner]
    header = c.Match(game=cfg.spec.id, players=tuple(cfg.players), options={"first": first}, table=cfg.table)
    events: list[tuple[float, int, c.Event]] = []
    for k, con in enumerate(shot.trace.contacts):
        t = round(shot.clip_time(con.t), 6)
        events.append((t, k, _contact_line(con, t)))
    for k, fall in enumerate(shot.falls):
        t = round(shot.clip_time(fall.t), 6)
        events.append((t, len(shot.trace.contacts) + k, c.PinDown(t=t, pin=fall.pin, by=fall.by)))
    events.sort(key=lambda e: (e[0], e[1]))
    end_t = round(shot.clip_time(shot.trace.duration_s), 6)
    positions = {b: (round(x, 2), round(y, 2)) for b, (x, y) in shot.trace.final_positions().items()}
    return [header, *(e for _, _, e in events), c.ShotEnd(t=end_t, positions=positions)]


def frame_times(cfg: SynthConfig, shot: SimulatedShot, look: Look) -> tuple[np.ndarray, np.ndarray]:
    """Clip times of the frames and, per frame, of its ``blur_samples`` sub-samples over the exposure."""
    n = math.ceil(shot.clip_s * cfg.fps)
    t = np.arange(n) / cfg.fps
    sub = np.array([exposure_times(float(ti), cfg.fps, look.exposure, cfg.blur_samples) for ti in t])
    return t, sub.reshape(n, cfg.blur_samples)


def scenes(cfg: SynthConfig, shot: SimulatedShot, sub_times: np.ndarray) -> Iterator[list[SceneSample]]:
    """The scene at every sub-sample of every frame, computed in one pass over the engine's trajectories."""
    flat = sub_times.ravel()
    states = shot.trace.states_at(flat - shot.t0)
    table = shot.trace.table
    k = sub_times.shape[1]
    for i in range(sub_times.shape[0]):
        yield [
            SceneSample(
                float(flat[i * k + j]),
                states[i * k + j],
                pins.pins_at(table, shot.falls, float(flat[i * k + j] - shot.t0)),
            )
            for j in range(k)
        ]


def frame_record(index: int, t: float, sample: SceneSample, rendered: RenderedFrame) -> dict[str, Any]:
    """One line of ``frames.jsonl``: every ball's and pin's truth at the frame's middle sample."""
    objects = {o.id: o for o in rendered.objects}
    balls = {}
    for b in sample.balls:
        o = objects.get(b.id)
        balls[b.id] = {
            "xy_mm": [round(b.xy_mm[0], 3), round(b.xy_mm[1], 3)],
            "xy_px": [round(float(o.xy_px[0]), 3), round(float(o.xy_px[1]), 3)] if o else None,
            "radius_px": round(float(o.radius_px), 3) if o else None,
            "moving": b.moving,
            "pocketed": not b.on_table,
            "hidden": bool(o.hidden) if o else False,
        }
    record: dict[str, Any] = {"frame": index, "t": round(t, 6), "balls": balls}
    if sample.pins:
        record["pins"] = {
            p.id: {
                "xy_mm": [round(p.xy_mm[0], 3), round(p.xy_mm[1], 3)],
                "xy_px": [round(float(objects[p.id].xy_px[0]), 3), round(float(objects[p.id].xy_px[1]), 3)]
                if p.id in objects
                else None,
                "down": p.down,
                "hidden": bool(objects[p.id].hidden) if p.id in objects else False,
            }
            for p in sample.pins
        }
    return record


def yolo_lines(rendered: RenderedFrame, width: int, height: int) -> list[str]:
    """YOLO labels of a frame: every object at least half visible, box normalised to the image."""
    lines = []
    for o in rendered.objects:
        if o.hidden:
            continue
        x0, y0, x1, y1 = o.box_px
        if x1 <= x0 or y1 <= y0:
            continue
        cls = APPEARANCE_CLASSES.index(o.cls)
        cx, cy = (x0 + x1) / 2 / width, (y0 + y1) / 2 / height
        lines.append(f"{cls} {cx:.6f} {cy:.6f} {(x1 - x0) / width:.6f} {(y1 - y0) / height:.6f}")
    return lines


def _dump(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"))


@dataclass(frozen=True)
class Filming:
    """How a shot is filmed: its camera, its look and the renderer built for them, each from its own
    stream of the run's seed."""

    camera: Camera
    look: Look
    renderer: TableRenderer


def film(cfg: SynthConfig, shot: SimulatedShot) -> Filming:
    """The camera, look and renderer of ``shot`` (the same for ``arbiter synth`` and the detector's set)."""
    camera = cfg.variety.camera(
        cfg.spec.table, cfg.width, cfg.height, rng_for(cfg.seed, shot.index, "camera")
    )
    look = cfg.variety.room(rng_for(cfg.seed, shot.index, "look"))
    strike = shot.trace.strike
    renderer = TableRenderer(
        cfg.spec,
        camera,
        look,
        seed=int(rng_for(cfg.seed, shot.index, "render").integers(2**31)),
        stroke=Stroke(shot.t0, shot.trace.start[strike.cue_ball], math.radians(strike.phi_deg)),
        clip_s=shot.clip_s,
    )
    return Filming(camera, look, renderer)


def write_shot(cfg: SynthConfig, shot: SimulatedShot, out: Path) -> dict[str, Any]:
    """Film ``shot`` and write everything under ``out`` (created). Returns the shot's summary."""
    out.mkdir(parents=True, exist_ok=True)
    filming = film(cfg, shot)
    (out / "camera.json").write_text(json.dumps(filming.camera.to_dict(), indent=1) + "\n")
    (out / "look.json").write_text(json.dumps(filming.look.to_dict(), indent=1) + "\n")
    truth = truth_events(cfg, shot)
    (out / "truth.jsonl").write_text("".join(c.to_json(e) + "\n" for e in truth))
    summary = shot_summary(cfg, shot, truth)
    (out / "shot.json").write_text(json.dumps(summary, indent=1) + "\n")
    _write_frames(cfg, shot, filming, out)
    return summary


def _write_frames(cfg: SynthConfig, shot: SimulatedShot, filming: Filming, out: Path) -> None:
    """Render every frame: its truth to ``frames.jsonl``, the clip to ``video.mp4``, every
    ``yolo_every``-th frame to ``yolo/`` (none when 0)."""
    images, labels = out / "yolo" / "images", out / "yolo" / "labels"
    images.mkdir(parents=True, exist_ok=True)
    labels.mkdir(parents=True, exist_ok=True)
    times, sub_times = frame_times(cfg, shot, filming.look)
    video = VideoWriter(out / "video.mp4", cfg.width, cfg.height, cfg.fps) if cfg.video else None
    mid = cfg.blur_samples // 2
    quality = [cv2.IMWRITE_JPEG_QUALITY, int(filming.look.jpeg_quality)]
    try:
        with (out / "frames.jsonl").open("w") as frames_file:
            for i, exposure in enumerate(scenes(cfg, shot, sub_times)):
                rendered = filming.renderer.render(exposure)
                frames_file.write(_dump(frame_record(i, float(times[i]), exposure[mid], rendered)) + "\n")
                if video:
                    video.write(rendered.image)
                if cfg.yolo_every and i % cfg.yolo_every == 0:
                    name = f"shot_{shot.index:03d}_f{i:05d}"
                    cv2.imwrite(str(images / f"{name}.jpg"), rendered.image, quality)
                    (labels / f"{name}.txt").write_text(
                        "".join(line + "\n" for line in yolo_lines(rendered, cfg.width, cfg.height))
                    )
    finally:
        if video:
            video.close()


def shot_summary(cfg: SynthConfig, shot: SimulatedShot, truth: list[c.JsonLine]) -> dict[str, Any]:
    """The shot's recipe and outcome, read from its truth: what a dataset browser or a test filters on."""
    trace = shot.trace
    cue = trace.strike.cue_ball
    contacts = [e for e in truth if isinstance(e, c.BallBall)]
    pots = [e for e in truth if isinstance(e, c.Pot)]
    first = next((e.balls[1] for e in contacts if e.balls[0] == cue), None)
    outcome = {
        "first_contact": first,
        "pots": [[e.ball, e.pocket] for e in pots],
        "in_off": any(e.ball == cue for e in pots),
        "cushions": sum(isinstance(e, c.Cushion) for e in truth),
        "ball_contacts": len(contacts),
        "kiss": any(cue not in e.balls for e in contacts),
        "missed_everything": first is None,
        "pins_down": [[f.pin, f.by] for f in shot.falls],
    }
    return {
        "shot": shot.index,
        "game": cfg.spec.id,
        "table": cfg.spec.table.size,
        "seed": cfg.seed,
        "fps": cfg.fps,
        "size": [cfg.width, cfg.height],
        "blur_samples": cfg.blur_samples,
        "intent": shot.planned.intent,
        "target": shot.planned.target,
        "aimed_pocket": shot.planned.pocket,
        "cue_ball_in_hand": shot.in_hand,
        "strike": {
            "cue_ball": cue,
            "speed_mps": round(trace.strike.speed_mps, 4),
            "phi_deg": round(trace.strike.phi_deg, 4),
            "theta_deg": trace.strike.theta_deg,
            "side": round(trace.strike.side, 4),
            "follow": round(trace.strike.follow, 4),
        },
        "layout": {b: [round(x, 3), round(y, 3)] for b, (x, y) in trace.start.items()},
        "strike_t": round(shot.t0, 6),
        "clip_s": round(shot.clip_s, 6),
        "outcome": outcome,
    }


def write_data_yaml(out: Path, shot_dirs: list[str]) -> None:
    # Validation takes whole shots (the last tenth), never frames of a training shot: neighbouring frames
    # are near-duplicates and would leak.
    n_val = max(1, len(shot_dirs) // 10) if len(shot_dirs) > 1 else 0
    train, val = shot_dirs[: len(shot_dirs) - n_val], shot_dirs[len(shot_dirs) - n_val :] or shot_dirs
    data = {
        "train": [f"{d}/yolo/images" for d in train],
        "val": [f"{d}/yolo/images" for d in val],
        "names": dict(enumerate(APPEARANCE_CLASSES)),
    }
    (out / "data.yaml").write_text(yaml.safe_dump(data, sort_keys=False))


def synth_billiards(
    cfg: SynthConfig, out: Path, on_shot: Callable[[dict[str, Any]], None] | None = None
) -> list[dict[str, Any]]:
    """Generate ``cfg.shots`` shots under ``out``. Calls ``on_shot(summary)`` after each one."""
    out.mkdir(parents=True, exist_ok=True)
    summaries = []
    dirs = []
    for index in range(cfg.shots):
        shot = simulate_shot(cfg, index)
        name = f"shot_{index:03d}"
        summary = write_shot(cfg, shot, out / name)
        summaries.append(summary)
        dirs.append(name)
        if on_shot:
            on_shot(summary)
    write_data_yaml(out, dirs)
    return summaries
