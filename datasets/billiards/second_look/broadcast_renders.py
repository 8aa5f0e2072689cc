"""The Arbiter-renderer half of the second-look set: broadcast-like frames, with their truth.

A camera high behind the bottom (baulk) cushion, tilted 35-50 degrees off vertical, the table filling most
of 1280 x 720; painted over it, a score bar across the bottom cushion (a static graphic), a dark
player-shaped occluder over one side and a cue. One grey-cloth overhead view besides. Any ``Camera`` pose
renders (only ``Camera.random`` is overhead-only): the renderer warps cloth and cushion tops through the
camera on two planes and shades the far cushions' faces.

Regenerate (deterministic): ``python -m datasets.billiards.second_look.broadcast_renders [OUT]`` (default:
``arbiter/`` beside this file). Writes ``<name>.jpg`` and ``<name>.json`` (the table, the camera, the
corners at cloth level, where Arbiter's cushions stand, every ball with ``occluded`` under the graphics).
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from arbiter.games import billiards
from arbiter.tables import TableModel
from datasets.billiards.camera import Camera
from datasets.billiards.look import CLOTH_RGB, Look
from datasets.billiards.render import TableRenderer
from datasets.billiards.scene import BallState, SceneSample

SIZE = (1280, 720)
JPEG_QUALITY = 92
# name: (seed, tilt off vertical (deg), cloth, reds kept, yaw (deg))
SCENES = {
    "arb-broadcast-green-40": (11, 40.0, "snooker_green", 9, 0.0),
    "arb-broadcast-green-50": (12, 50.0, "tournament_green", 15, 1.5),
    "arb-broadcast-blue-45": (13, 45.0, "tournament_blue", 6, -1.0),
    "arb-broadcast-red-35": (14, 35.0, "red", 4, 0.5),
    "arb-overhead-grey": (15, 3.0, "grey", 7, 0.0),
}
BROADCAST_HFOV, OVERHEAD_HFOV = 42.0, 70.0
FRAME_MARGIN_PX = 8  # the playing area plus cushions (and 60 mm) fill the frame up to this margin


def broadcast_camera(table: TableModel, tilt_deg: float, yaw_deg: float, hfov_deg: float) -> Camera:
    """A camera behind the bottom cushion looking up the table, as close as the table plus its cushions
    fit in the frame (bisected, as ``Camera.random`` does for overhead views)."""
    w, h = SIZE
    f = (w / 2) / math.tan(math.radians(hfov_deg / 2))
    k = np.array([[f, 0, w / 2 - 0.5], [0, f, h / 2 - 0.5], [0, 0, 1.0]])
    t = math.radians(tilt_deg)
    axis = np.array([0.0, math.sin(t), -math.cos(t)])  # up the table (+y) and down (-z)
    x_cam = np.array([1.0, 0.0, 0.0])
    rot = cv2.Rodrigues(np.array([0.0, 0.0, math.radians(yaw_deg)]))[0] @ np.stack(
        [x_cam, np.cross(axis, x_cam), axis]
    )
    aim = np.array([table.width_mm / 2, table.length_mm * 0.5, 0.0])
    c = table.cushion_width_mm + 60
    outline = np.array(
        [
            [-c, -c, 0],
            [table.width_mm + c, -c, 0],
            [table.width_mm + c, table.length_mm + c, 0],
            [-c, table.length_mm + c, 0],
        ],
        float,
    )
    lo, hi = 500.0, 50_000.0
    for _ in range(60):
        mid = (lo + hi) / 2
        px, _ = cv2.projectPoints(outline, cv2.Rodrigues(rot)[0], -rot @ (aim - mid * rot[2]), k, np.zeros(5))
        px = px.reshape(-1, 2)
        fits = np.all(px >= FRAME_MARGIN_PX) and np.all(px <= np.array(SIZE) - FRAME_MARGIN_PX)
        lo, hi = (lo, mid) if fits else (mid, hi)
    return Camera.from_arrays(w, h, k, np.zeros(5), cv2.Rodrigues(rot)[0], -rot @ (aim - hi * rot[2]))


def layout(table: TableModel, reds: int, rng: np.random.Generator) -> list[BallState]:
    """Snooker's colours and ``reds`` reds at random, apart, plus one red touching another ball."""
    r = table.ball_radius_mm
    colours = [b for b in billiards("snooker").balls if not b.startswith("red:")]
    ids = colours + [f"red:{i}" for i in range(1, reds + 1)]
    out: list[BallState] = []
    for bid in ids:
        for _ in range(2000):
            x, y = (
                rng.uniform(r * 1.1, table.width_mm - r * 1.1),
                rng.uniform(r * 1.1, table.length_mm - r * 1.1),
            )
            if all(math.hypot(x - b.xy_mm[0], y - b.xy_mm[1]) > 2.02 * r for b in out):
                out.append(BallState(bid, (x, y), False))
                break
    if reds < 15:  # one touching pair: detectors must split it, never double it
        a = out[-1]
        x = a.xy_mm[0] + 2.0 * r if a.xy_mm[0] < table.width_mm / 2 else a.xy_mm[0] - 2.0 * r
        out.append(BallState("red:15", (x, a.xy_mm[1]), False))
    return out


def overlays(img: np.ndarray, rng: np.random.Generator) -> dict[str, Any]:
    """A static score bar over the bottom of the frame, a dark player and a cue over one side (drawn in
    place); returns where they are."""
    h, w = img.shape[:2]
    bar = (int(w * 0.22), int(h * 0.885), int(w * 0.78), int(h * 0.955))
    roi = img[bar[1] : bar[3], bar[0] : bar[2]]
    roi[:] = (0.25 * roi + 0.75 * np.array([60, 20, 20])).astype(np.uint8)
    cv2.putText(
        img,
        "ALPHA 45  (87)  12  BRAVO",
        (bar[0] + 20, bar[3] - 14),
        cv2.FONT_HERSHEY_SIMPLEX,
        0.9,
        (255, 255, 255),
        2,
        cv2.LINE_AA,
    )
    x0 = int(w * (0.03 if rng.choice(["left", "right"]) == "left" else 0.84))
    body = np.array([[x0, h], [x0 + 150, h], [x0 + 130, int(h * 0.45)], [x0 + 40, int(h * 0.4)]], np.int32)
    cv2.fillPoly(img, [body], (22, 20, 24), cv2.LINE_AA)
    cv2.line(img, (x0 + 90, int(h * 0.5)), (int(w * 0.5), int(h * 0.55)), (120, 170, 210), 5, cv2.LINE_AA)
    return {"score_bar_px": list(bar), "player_poly_px": body.tolist()}


def _occluded(xy: tuple[float, float], occ: dict[str, Any]) -> bool:
    if not occ:
        return False
    x0, y0, x1, y1 = occ["score_bar_px"]
    poly = np.array(occ["player_poly_px"], np.float32)
    inside = cv2.pointPolygonTest(poly, (float(xy[0]), float(xy[1])), False) >= 0
    return bool((x0 <= xy[0] <= x1 and y0 <= xy[1] <= y1) or inside)


def render(name: str, out: Path) -> None:
    """Render one scene of SCENES into ``out``: the image and its truth."""
    seed, tilt, cloth, reds, yaw = SCENES[name]
    rng = np.random.default_rng(seed)
    table = billiards("snooker").table
    broadcast = "broadcast" in name
    cam = broadcast_camera(table, tilt, yaw, BROADCAST_HFOV if broadcast else OVERHEAD_HFOV)
    look = replace(Look.random(rng), cloth_rgb=CLOTH_RGB[cloth], cue=None, arm=None)
    balls = layout(table, reds, rng)
    frame = TableRenderer(billiards("snooker"), cam, look, seed).render([SceneSample(0.0, tuple(balls))])
    img = frame.image.copy()
    occ = overlays(img, rng) if broadcast else {}
    cv2.imwrite(str(out / f"{name}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    ends = {
        "bl": (0, 0),
        "br": (table.width_mm, 0),
        "tl": (0, table.length_mm),
        "tr": (table.width_mm, table.length_mm),
    }
    corners = {k: cam.project(np.array([[x, y, 0.0]]))[0].tolist() for k, (x, y) in ends.items()}
    truth = {
        "image": f"{name}.jpg",
        "source": "Arbiter datasets.billiards.render (datasets.billiards.second_look.broadcast_renders)",
        "table": {
            "kind": "snooker",
            "model": table.name,
            "width_mm": table.width_mm,
            "length_mm": table.length_mm,
            "ball_diameter_mm": table.ball_diameter_mm,
        },
        "view": "broadcast" if broadcast else "overhead",
        "tilt_deg": tilt,
        "corners_px": corners,
        "corner_height_mm": 0.0,
        "orientation": "known",
        "camera": cam.to_dict(),
        "look": {"cloth": cloth},
        "overlays": occ,
        "balls": [
            {
                "id": o.id.split(":")[0],
                "xy_px": list(o.xy_px),
                "radius_px": o.radius_px,
                "occluded": _occluded(o.xy_px, occ),
            }
            for o in frame.objects
            if not o.id.startswith("pin")
        ],
    }
    (out / f"{name}.json").write_text(json.dumps(truth, indent=1, default=float) + "\n")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Render the Arbiter half of the second-look set.")
    parser.add_argument("out", nargs="?", type=Path, default=Path(__file__).with_name("arbiter"))
    target = parser.parse_args().out
    target.mkdir(parents=True, exist_ok=True)
    for scene in SCENES:
        render(scene, target)
