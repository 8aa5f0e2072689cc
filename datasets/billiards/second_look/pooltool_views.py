"""pooltool's look at scale: frames of pooltool's own 3D renderer (panda3d, offscreen, software GL) with
exact truth, enough of them to train the detector on or to measure it on a look it never saw.

Each scene is one of pooltool's three tables in turn (by seed), with its own ball set (generic snooker
with a snooker set, the 7 ft Showood with a numbered pool set, the three-cushion table with white, yellow
and red), the balls scattered at random with a few touching pairs, sometimes a broken rack, then seen by
several cameras drawn by Arbiter's own camera models (``Camera.random`` overhead, tilted up to 12 degrees, and
``broadcast_camera`` behind one end) without lens distortion, which panda3d cannot draw. The camera is set in
panda3d from the OpenCV pinhole, so the truth (the ``Camera`` and every ball's centre in table mm) is exact:
``projection_check_px`` is the largest disagreement with panda3d's own projection at three table points.

A scene's nodes stay in pooltool's scene graph until ``close_scene``, so one process renders a chunk of
scenes in turn, closing each; a chunk per process keeps a crash or a leak from costing the whole set.
Regenerate: ``python -m datasets.billiards.second_look.pooltool_views OUT FIRST_SEED COUNT [VIEWS]``.
Writes ``<name>.jpg`` (quality 95) and ``<name>.json`` per view.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pooltool as pt
from panda3d.core import LMatrix4f, LPoint2f, LPoint3f
from pooltool.ani.animate import FrameStepper
from pooltool.ani.globals import Global
from pooltool.ani.image.interface import get_graphics_texture, image_array_from_texture

from arbiter.tables import TableModel
from datasets.billiards.camera import BroadcastRanges, Camera, CameraRanges, broadcast_camera

from .pooltool_looks import KINDS, ball_class, view_table

JPEG_QUALITY = 95
SIZES = ((960, 540), (1280, 720))  # the second costs about 1.8 times the render time of the first
OVERHEAD = CameraRanges(tilt_deg=(0.0, 12.0), k1=0.0, tangential=0.0, principal_jitter=0.0)
BROADCAST = BroadcastRanges(k1=0.0)
BROADCAST_SHARE = 0.35  # of the views of a scene
KEEP = (0.3, 1.0)  # share of the set left on the table, drawn per scene
RACK_SHARE = 0.3  # scenes whose balls start from pooltool's own rack (a cluster of touching balls)
TOUCHING_PAIRS = (0, 3)  # pairs pushed into contact per scene


@dataclass(frozen=True)
class Scene:
    """One table and its balls at rest, in pooltool's objects and in Arbiter's table model."""

    kind: str
    system: Any
    table: TableModel  # Arbiter's model with pooltool's playing area, ball and cushion height
    xy_mm: dict[str, tuple[float, float]]


def arbiter_table(kind: str, pt_table: Any, radius_m: float) -> TableModel:
    """Arbiter's table of the game ``kind`` stands for, laid out on pooltool's playing area and sized
    for pooltool's balls and cushions: what the table view and the truth are computed on."""
    nose_m = float(next(iter(pt_table.cushion_segments.linear.values())).height)
    return view_table(
        KINDS[kind].game, pt_table.w * 1000.0, pt_table.l * 1000.0, 2000.0 * radius_m, 1000.0 * nose_m
    )


def _positions(
    ids: list[str],
    rack: dict[str, tuple[float, float]],
    w: float,
    length: float,
    radius: float,
    rng: np.random.Generator,
) -> dict[str, tuple[float, float]]:
    """Places (m) for ``ids``: the rack's where given (kept unless they overlap), the rest at random apart,
    then a few pairs pushed into contact."""
    out: dict[str, tuple[float, float]] = {}
    margin = radius * 1.05
    for bid in ids:
        tries = [rack[bid]] if bid in rack else []
        tries += [(rng.uniform(margin, w - margin), rng.uniform(margin, length - margin)) for _ in range(500)]
        for x, y in tries:
            if all(math.hypot(x - a, y - b) > 2.001 * radius for a, b in out.values()):
                out[bid] = (float(x), float(y))
                break
    keys = list(out)
    for _ in range(int(rng.integers(TOUCHING_PAIRS[0], TOUCHING_PAIRS[1] + 1))):
        if len(keys) < 2:
            break
        a, b = rng.choice(len(keys), size=2, replace=False)
        angle = rng.uniform(0, 2 * math.pi)
        x = out[keys[a]][0] + 2.0005 * radius * math.cos(angle)
        y = out[keys[a]][1] + 2.0005 * radius * math.sin(angle)
        others = [p for k, p in out.items() if k not in (keys[a], keys[b])]
        inside = margin <= x <= w - margin and margin <= y <= length - margin
        if inside and all(math.hypot(x - p, y - q) > 2.001 * radius for p, q in others):
            out[keys[b]] = (x, y)
    return out


def build_scene(seed: int) -> Scene:
    """Scene ``seed``: the table kind, the balls kept and their places, simulated to rest."""
    rng = np.random.default_rng([seed, 11])
    kind = list(KINDS)[seed % len(KINDS)]  # in turn: any ten scenes hold every kind
    game_type = pt.GameType(KINDS[kind].game_type)
    table = pt.Table.from_game_type(game_type)
    balls = pt.get_rack(game_type, table)
    ids = sorted(balls)
    radius = float(balls[ids[0]].params.R)
    keep_share = rng.uniform(*KEEP)
    cue = KINDS[kind].cue_id
    kept = [i for i in ids if i == cue or rng.random() < keep_share]
    rack = {b: (float(balls[b].state.rvw[0][0]), float(balls[b].state.rvw[0][1])) for b in ids}
    pos = _positions(kept, rack if rng.random() < RACK_SHARE else {}, table.w, table.l, radius, rng)
    for bid in ids:
        if bid in pos:
            balls[bid].state.rvw[0] = [pos[bid][0], pos[bid][1], radius]
        else:
            balls[bid].state.rvw[0] = [-5.0 - rng.random(), -5.0, radius]  # off the table, out of view
            balls[bid].state.s = 4  # pocketed
    system = pt.System(table=table, balls=balls, cue=pt.Cue(cue_ball_id=cue))
    system.strike(V0=1e-4, phi=0)
    pt.simulate(system, inplace=True)
    xy_mm = {b: (x * 1000.0, y * 1000.0) for b, (x, y) in pos.items()}
    return Scene(kind, system, arbiter_table(kind, table, radius), xy_mm)


def view_camera(table: TableModel, rng: np.random.Generator) -> tuple[Camera, str]:
    """A camera for one view, and whether it is overhead or broadcast. The principal point sits at the
    image centre as panda3d's lens has it (pixel centres at half-integers: ``(w - 1) / 2``)."""
    width, height = SIZES[int(rng.integers(len(SIZES)))]
    broadcast = rng.random() < BROADCAST_SHARE
    if broadcast:
        cam = broadcast_camera(table, width, height, rng, BROADCAST)
    else:
        cam = Camera.random(table, width, height, rng, OVERHEAD)
    k = np.asarray(cam.K, np.float64).copy()
    k[0, 2], k[1, 2] = (width - 1) / 2, (height - 1) / 2
    camera = Camera.from_arrays(width, height, k, np.zeros(5), np.asarray(cam.rvec), np.asarray(cam.tvec))
    return camera, "broadcast" if broadcast else "overhead"


def place_camera(camera: Camera) -> None:
    """Set panda3d's camera and lens to the OpenCV pinhole ``camera`` (table mm -> pooltool's metres)."""
    rot = camera.rotation
    eye = camera.centre_mm / 1000.0
    # Rows of panda3d's matrix are the node's axes in the world (x right, y forward, z up), then its place;
    # set whole rather than by ``lookAt``, which leaves a roll of up to a degree off the asked-for up.
    rows = np.zeros((4, 4))
    rows[:3, :3], rows[3, :3], rows[3, 3] = np.stack([rot[0], rot[2], -rot[1]]), eye, 1.0
    mat = LMatrix4f(*(float(v) for v in rows.ravel()))
    Global.base.cam.setMat(Global.base.render, mat)  # the lens node itself: pooltool turns its parent
    Global.base.win.setSize(camera.width, camera.height)
    k = np.asarray(camera.K)
    lens = Global.base.camLens
    lens.setAspectRatio(camera.width / camera.height)
    hfov = math.degrees(2 * math.atan(camera.width / 2 / k[0, 0]))
    vfov = math.degrees(2 * math.atan(camera.height / 2 / k[1, 1]))
    lens.setFov(hfov, vfov)


def projection_check_px(camera: Camera, table: TableModel) -> float:
    """The largest disagreement (px) between panda3d's lens and ``camera`` at three points on the table."""
    worst = 0.0
    for fx, fy, z in ((0.1, 0.2, 0.0), (0.8, 0.7, 30.0), (0.5, 0.5, 0.0)):
        p = np.array([fx * table.width_mm, fy * table.length_mm, z])
        film = LPoint2f()
        rel = Global.base.cam.getRelativePoint(Global.base.render, LPoint3f(*(p / 1000.0)))
        if Global.base.camLens.project(rel, film):
            px = np.array([(film[0] + 1) / 2 * camera.width - 0.5, (1 - film[1]) / 2 * camera.height - 0.5])
            worst = max(worst, float(np.linalg.norm(px - camera.project(p[None])[0])))
    return worst


def truth(name: str, scene: Scene, camera: Camera, view: str, check_px: float) -> dict[str, Any]:
    """What the view shows: the table, the camera and every ball on the table (its Arbiter class)."""
    t = scene.table
    return {
        "image": f"{name}.jpg",
        "source": f"pooltool {pt.__version__} panda3d offscreen ({__spec__.name if __spec__ else __name__})",
        "kind": scene.kind,
        "game": KINDS[scene.kind].game,
        "table": {
            "width_mm": t.width_mm,
            "length_mm": t.length_mm,
            "ball_diameter_mm": t.ball_diameter_mm,
            "cushion_height_mm": t.cushion_height_mm,
        },
        "view": view,
        "camera": camera.to_dict(),
        "projection_check_px": check_px,
        "balls": [
            {"id": bid, "cls": ball_class(scene.kind, bid), "xy_mm": [x, y]}
            for bid, (x, y) in sorted(scene.xy_mm.items())
        ],
    }


def render_chunk(out: Path, seeds: list[int], views: int) -> None:
    """Render ``views`` views of each scene in ``seeds`` into ``out``, in this process."""
    out.mkdir(parents=True, exist_ok=True)
    stepper = FrameStepper()
    Global.base.setFrameRateMeter(False)
    texture = get_graphics_texture()
    for seed in seeds:
        started = time.time()
        scene = build_scene(seed)
        frames, _ = stepper.iterator(scene.system, size=(960, 540), fps=1)
        next(frames)
        rng = np.random.default_rng([seed, 12])
        for v in range(views):
            name = f"pt{seed:05d}_v{v}"
            camera, view = view_camera(scene.table, rng)
            place_camera(camera)
            for _ in range(2):
                Global.base.graphicsEngine.renderFrame()
            image = cv2.cvtColor(image_array_from_texture(texture), cv2.COLOR_RGB2BGR)
            if image.shape[:2] != (camera.height, camera.width):
                raise RuntimeError(
                    f"panda3d rendered {image.shape[1]}x{image.shape[0]}, not the camera's size"
                )
            cv2.imwrite(str(out / f"{name}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
            record = truth(name, scene, camera, view, projection_check_px(camera, scene.table))
            record["render_s"] = round((time.time() - started) / (v + 1), 3)
            (out / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n")
        stepper.close_scene()  # type: ignore[no-untyped-call]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Render seeds of pooltool's views into OUT.")
    parser.add_argument("out", type=Path)
    parser.add_argument("first", type=int, help="the first scene seed")
    parser.add_argument("count", type=int, help="how many seeds")
    parser.add_argument("views", type=int, nargs="?", default=4, help="views per scene")
    args = parser.parse_args()
    render_chunk(args.out, list(range(args.first, args.first + args.count)), args.views)
