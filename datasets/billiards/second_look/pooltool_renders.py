"""The pooltool half of the second-look set: pooltool's own 3D renderer (panda3d, offscreen), with exact
truth, so that calibration and detection are measured on a look they were not built on.

A snooker table and a 7 ft pool table, balls placed at random without overlap (one touching pair, the rest
pocketed out of view), seen from four views 4-6 degrees off vertical and three broadcast-like ones. The
panda3d camera is written as an OpenCV pinhole in table millimetres (``datasets.billiards.camera.Camera``):
the conversion agrees with panda3d's own lens projection to 1e-4 px (``projection_check_px``). Corners are
given at the physics cushion-nose height (``corners_px``) and at cloth level (``corners_cloth_px``).

Regenerate (needs the physics extra: pooltool-billiards and panda3d):
``python -m datasets.billiards.second_look.pooltool_renders [OUT]`` (default: ``pooltool/`` beside this
file). Each view runs in its own process: pooltool's scene graph keeps the previous system's nodes.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pooltool as pt
from panda3d.core import LPoint2f, LPoint3f, LVector3f
from pooltool.ani.animate import FrameStepper
from pooltool.ani.globals import Global
from pooltool.ani.image.interface import get_graphics_texture, image_array_from_texture
from pooltool.objects.table.collection import TableName, prebuilt_specs

from datasets.billiards.camera import Camera

SIZE = (960, 540)
JPEG_QUALITY = 92
C_P2CV = np.array(
    [[1.0, 0, 0], [0, 0, -1.0], [0, 1.0, 0]]
)  # panda camera (x right, y forward, z up) -> OpenCV
# name: (table, seed, view, tilt off vertical in degrees)
VIEWS = {
    "pt-snooker-overhead-a": ("snooker", 1, "overhead", 4.0),
    "pt-snooker-overhead-b": ("snooker", 2, "overhead", 6.0),
    "pt-pool-overhead-a": ("pool", 3, "overhead", 5.0),
    "pt-pool-overhead-b": ("pool", 4, "overhead", 4.5),
    "pt-snooker-broadcast-a": ("snooker", 5, "broadcast", 38.0),
    "pt-snooker-broadcast-b": ("snooker", 6, "broadcast", 45.0),
    "pt-pool-broadcast-a": ("pool", 7, "broadcast", 40.0),
}
OVERHEAD_HFOV, BROADCAST_HFOV = 62.0, 40.0
KEEP_BALL = 0.7  # chance each ball of the rack is on the table


def _layout(
    table: Any, ids: list[str], radius: float, rng: np.random.Generator
) -> dict[str, tuple[float, float]]:
    out: dict[str, tuple[float, float]] = {}
    for bid in ids:
        for _ in range(1000):
            x, y = (
                rng.uniform(radius * 1.2, table.w - radius * 1.2),
                rng.uniform(radius * 1.2, table.l - radius * 1.2),
            )
            if all(math.hypot(x - a, y - b) > 2.05 * radius for a, b in out.values()):
                out[bid] = (x, y)
                break
    return out


def _system(kind: str, rng: np.random.Generator) -> tuple[Any, dict[str, tuple[float, float]], float]:
    """A pooltool system at rest with some balls on the table (one pair touching), and their places (m)."""
    if kind == "snooker":
        table = pt.Table.from_table_specs(prebuilt_specs(TableName.SNOOKER_GENERIC))
        balls, cue_id = pt.get_rack(pt.GameType.SNOOKER, table), "white"
    else:
        table = pt.Table.default()
        balls, cue_id = pt.get_rack(pt.GameType.NINEBALL, table), "cue"
    ids = sorted(balls)
    radius = balls[ids[0]].params.R
    keep = [i for i in ids if rng.random() < KEEP_BALL or i == cue_id]
    pos = _layout(table, keep, radius, rng)
    if len(keep) > 3:  # the second object ball touching the first: detectors must split pairs
        a, b = [k for k in keep if k != cue_id][:2]
        pos[b] = (pos[a][0] + 2.0005 * radius, pos[a][1])
    for bid in ids:
        if bid in pos:
            balls[bid].state.rvw[0] = [pos[bid][0], pos[bid][1], radius]
        else:
            balls[bid].state.rvw[0] = [-5.0 - rng.random(), -5.0, radius]  # off the table: out of view
            balls[bid].state.s = 4  # pocketed
    system = pt.System(table=table, balls=balls, cue=pt.Cue(cue_ball_id=cue_id))
    system.strike(V0=1e-4, phi=0)
    pt.simulate(system, inplace=True)
    return system, pos, radius


def _camera_for(
    table: Any, view: str, tilt: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Eye, target, up (m) and horizontal field of view (deg) of a view."""
    cx, cy = table.w / 2, table.l / 2
    if view == "overhead":
        azimuth = rng.uniform(0, 2 * math.pi)
        dist = 0.62 * table.l / math.tan(math.radians(OVERHEAD_HFOV / 2))
        off = dist * math.sin(math.radians(tilt))
        eye = np.array(
            [cx + off * math.cos(azimuth), cy + off * math.sin(azimuth), dist * math.cos(math.radians(tilt))]
        )
        up = np.array([-1.0, 0.0, 0.0]) if rng.random() < 0.5 else np.array([1.0, 0.0, 0.0])
        return eye, np.array([cx, cy, 0.0]), up, OVERHEAD_HFOV
    # broadcast: behind the bottom (baulk) cushion, high, looking up the table, the bottom end nearer
    back = table.l * 0.55 + 1.4 * table.l * math.sin(math.radians(tilt))
    height = 1.4 * table.l * math.cos(math.radians(tilt)) * 0.9
    eye = np.array([cx + rng.uniform(-0.05, 0.05), cy - back, height])
    return eye, np.array([cx, cy + 0.05 * table.l, 0.0]), np.array([0.0, 0.0, 1.0]), BROADCAST_HFOV


def _place_camera(eye: np.ndarray, target: np.ndarray, up: np.ndarray, hfov: float) -> None:
    node = Global.base.cam  # the lens node itself: pooltool turns its parent
    node.setPos(Global.base.render, LPoint3f(*eye))
    node.lookAt(Global.base.render, LPoint3f(*target), LVector3f(*up))
    lens = Global.base.camLens
    lens.setAspectRatio(SIZE[0] / SIZE[1])
    lens.setFov(hfov, math.degrees(2 * math.atan(math.tan(math.radians(hfov / 2)) * SIZE[1] / SIZE[0])))


def _opencv_camera() -> Camera:
    """The panda3d camera as an OpenCV pinhole in table millimetres."""
    cam, render = Global.base.cam, Global.base.render
    o = np.array(cam.getRelativePoint(render, LPoint3f(0, 0, 0)))
    cols = [np.array(cam.getRelativePoint(render, LPoint3f(*e))) - o for e in np.eye(3)]
    rot = C_P2CV @ np.stack(cols, axis=1)
    hfov, vfov = (math.radians(v) for v in Global.base.camLens.getFov())
    fx, fy = SIZE[0] / 2 / math.tan(hfov / 2), SIZE[1] / 2 / math.tan(vfov / 2)
    k = np.array([[fx, 0, SIZE[0] / 2 - 0.5], [0, fy, SIZE[1] / 2 - 0.5], [0, 0, 1]])
    return Camera.from_arrays(SIZE[0], SIZE[1], k, np.zeros(5), cv2.Rodrigues(rot)[0], C_P2CV @ o * 1000.0)


def _check_projection(camera: Camera) -> float:
    """The largest disagreement (px) between panda3d's own lens projection and the OpenCV camera."""
    worst = 0.0
    for p in ([0.1, 0.2, 0.0], [0.8, 1.5, 0.03], [0.5, 0.9, 0.0]):
        film = LPoint2f()
        if Global.base.camLens.project(
            Global.base.cam.getRelativePoint(Global.base.render, LPoint3f(*p)), film
        ):
            px = np.array([(film[0] + 1) / 2 * SIZE[0] - 0.5, (1 - film[1]) / 2 * SIZE[1] - 0.5])
            worst = max(worst, float(np.linalg.norm(px - camera.project(np.array(p) * 1000.0)[0])))
    return worst


def render_one(out: Path, name: str) -> None:
    """Render one view of VIEWS into ``out`` (in this process: one view per process)."""
    kind, seed, view, tilt = VIEWS[name]
    stepper = FrameStepper()
    Global.base.setFrameRateMeter(False)
    rng = np.random.default_rng(seed)
    system, pos, radius = _system(kind, rng)
    frames, _ = stepper.iterator(system, size=SIZE, fps=1)
    texture = get_graphics_texture()
    next(frames)
    eye, target, up, hfov = _camera_for(system.table, view, tilt, rng)
    _place_camera(eye, target, up, hfov)
    for _ in range(2):
        Global.base.graphicsEngine.renderFrame()
    image = cv2.cvtColor(image_array_from_texture(texture), cv2.COLOR_RGB2BGR)
    camera = _opencv_camera()
    cv2.imwrite(str(out / f"{name}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    truth = _truth(name, camera, system.table, pos, radius, _check_projection(camera))
    (out / f"{name}.json").write_text(json.dumps(truth, indent=1) + "\n")


def _truth(
    name: str, camera: Camera, table: Any, pos: dict[str, tuple[float, float]], radius: float, check_px: float
) -> dict[str, Any]:
    kind, _, view, tilt = VIEWS[name]
    w_mm, l_mm = table.w * 1000, table.l * 1000
    nose_z = float(next(iter(table.cushion_segments.linear.values())).height) * 1000
    ends = {"bl": (0, 0), "br": (w_mm, 0), "tl": (0, l_mm), "tr": (w_mm, l_mm)}
    balls = []
    for bid, (x, y) in sorted(pos.items()):
        xyz = np.array([[x * 1000, y * 1000, radius * 1000]])
        centre, _ = camera.sphere_axes_px(xyz, radius * 1000)
        balls.append(
            {
                "id": bid.split("_")[0] if kind == "snooker" else bid,
                "xy_px": centre[0].tolist(),
                "radius_px": float(camera.radius_px(xyz, radius * 1000)[0]),
                "xy_mm": [x * 1000, y * 1000],
            }
        )
    model = "Generic Snooker" if kind == "snooker" else "7 Ft Showood"
    return {
        "image": f"{name}.jpg",
        "source": "pooltool 0.6.0 panda3d offscreen render (datasets.billiards.second_look.pooltool_renders)",
        "table": {
            "kind": kind,
            "model": f"pooltool {model}",
            "width_mm": w_mm,
            "length_mm": l_mm,
            "ball_diameter_mm": 2000 * radius,
        },
        "view": view,
        "tilt_deg": tilt,
        "corners_px": {
            k: camera.project(np.array([[x, y, nose_z]]))[0].tolist() for k, (x, y) in ends.items()
        },
        "corners_cloth_px": {
            k: camera.project(np.array([[x, y, 0.0]]))[0].tolist() for k, (x, y) in ends.items()
        },
        "corner_height_mm": nose_z,
        "orientation": "known (pooltool y=0 end is bl/br)",
        "camera": camera.to_dict(),
        "projection_check_px": check_px,
        "balls": balls,
    }


def render_all(out: Path) -> None:
    """Every view, one process each."""
    out.mkdir(parents=True, exist_ok=True)
    for name in VIEWS:
        subprocess.run(
            [sys.executable, "-m", __spec__.name if __spec__ else __name__, str(out), name], check=True
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Render the pooltool half of the second-look set.")
    parser.add_argument("out", nargs="?", type=Path, default=Path(__file__).with_name("pooltool"))
    parser.add_argument("view", nargs="?", choices=VIEWS, help="one view only (each runs in its own process)")
    args = parser.parse_args()
    if args.view:
        render_one(args.out, args.view)
    else:
        render_all(args.out)
