"""What pooltool's three table kinds stand for in Arbiter: the game whose ball set and table layout a
pooltool scene is compared against, and the appearance class (``arbiter.balls.APPEARANCE_CLASSES``) of each
of pooltool's ball ids; and the views' truth read back (``read_views``). Kept apart from
``pooltool_views`` so that reading the views needs no pooltool: the game type is named by its value."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType

import numpy as np

from arbiter.games import billiards
from arbiter.tables import TableModel, TableSize, scaled
from datasets.billiards.camera import Camera
from datasets.billiards.render.foreground import near_cushion_mask


@dataclass(frozen=True)
class Kind:
    """One of pooltool's table kinds: Arbiter's game with the same ball set, pooltool's ``GameType``
    value, and pooltool's id of the cue ball."""

    game: str
    game_type: str
    cue_id: str


KINDS = MappingProxyType(
    {
        "snooker": Kind("snooker", "Snooker", "white"),  # generic snooker table, 22 balls
        "pool": Kind("straight-pool", "Eight Ball", "cue"),  # 7 ft Showood, cue ball and 1-15
        "carom": Kind("five-pins", "Three Cushion", "white"),  # three-cushion table, white, yellow, red
    }
)


def arbiter_id(kind: str, pooltool_id: str) -> str:
    """Arbiter's ball id for pooltool's: snooker's ``red_01`` is ``red:1``; the other ids are the same."""
    if kind == "snooker" and pooltool_id.startswith("red_"):
        return f"red:{int(pooltool_id[4:])}"
    return pooltool_id


def ball_class(kind: str, pooltool_id: str) -> str:
    """The appearance class Arbiter's detectors name pooltool's ball ``pooltool_id`` by."""
    return billiards(KINDS[kind].game).look(arbiter_id(kind, pooltool_id)).cls


def view_table(
    game: str, width_mm: float, length_mm: float, ball_diameter_mm: float, cushion_height_mm: float
) -> TableModel:
    """Arbiter's table of ``game`` laid out on pooltool's playing area and sized for pooltool's balls and
    cushions (no pins: pooltool's carom table has none): what a view's truth is computed on."""
    size = TableSize("pooltool", "pooltool", length_mm, width_mm, "pooltool table")
    return replace(
        scaled(billiards(game).table, size),
        ball_diameter_mm=ball_diameter_mm,
        cushion_height_mm=cushion_height_mm,
        pins=(),
    )


@dataclass(frozen=True)
class TrueBall:
    id: str  # pooltool's
    cls: str  # Arbiter's appearance class
    xy_mm: tuple[float, float]


@dataclass(frozen=True)
class PooltoolView:
    """One frame written by ``pooltool_views`` and its truth, read without pooltool."""

    name: str
    image_path: Path
    kind: str
    game: str
    view: str  # "overhead" or "broadcast"
    camera: Camera
    table: TableModel
    balls: tuple[TrueBall, ...]
    projection_check_px: float


def read_view(path: Path) -> PooltoolView:
    """The view whose truth is the JSON file ``path``."""
    rec = json.loads(path.read_text(encoding="utf-8"))
    t = rec["table"]
    table = view_table(
        rec["game"], t["width_mm"], t["length_mm"], t["ball_diameter_mm"], t["cushion_height_mm"]
    )
    balls = tuple(
        TrueBall(b["id"], b["cls"], (float(b["xy_mm"][0]), float(b["xy_mm"][1]))) for b in rec["balls"]
    )
    return PooltoolView(
        name=path.stem,
        image_path=path.with_name(rec["image"]),
        kind=rec["kind"],
        game=rec["game"],
        view=rec["view"],
        camera=Camera.from_dict(rec["camera"]),
        table=table,
        balls=balls,
        projection_check_px=float(rec["projection_check_px"]),
    )


def read_views(folder: Path) -> tuple[PooltoolView, ...]:
    """Every view in ``folder``, by name."""
    return tuple(read_view(p) for p in sorted(Path(folder).glob("*.json")))


def seen_balls(view: PooltoolView) -> tuple[np.ndarray, np.ndarray]:
    """Each ball's centre in the image (N, 2) and whether it can be seen there: the centre inside the frame
    by the ball's radius and not behind a near cushion. What a detector must find and a label may show."""
    cam, r = view.camera, view.table.ball_radius_mm
    xyz = np.array([[*b.xy_mm, r] for b in view.balls], np.float64).reshape(-1, 3)
    xy = cam.project(xyz)
    rad = cam.radius_px(xyz, r)
    w, h = cam.width, cam.height
    seen = (xy[:, 0] >= rad) & (xy[:, 0] <= w - 1 - rad) & (xy[:, 1] >= rad) & (xy[:, 1] <= h - 1 - rad)
    near = near_cushion_mask(view.table, cam)
    if near is not None and len(xy):
        ix = np.clip(np.round(xy).astype(np.int64), 0, [w - 1, h - 1])
        seen &= ~near[ix[:, 1], ix[:, 0]]
    return xy, seen
