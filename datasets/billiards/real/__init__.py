"""The real test set: photos of real billiard tables with their playing area's corners and balls labelled
by hand (``labels/README.md`` says how), and the loader the evaluation and the tests share.

Eight photos from public repositories under the MIT licence (``licenses/``, one file per source), phone
photos resized to 1600 px on their long side with their labels scaled: a small snooker table from a phone,
a pool table with grey cloth from a fixed overhead camera, a wide-angle small table, a pool table with tan
cloth from a fixed oblique camera, one corner of a pyramid table. Six have corners; seven have every ball.
A development set, not a stand-in for the hidden ones (other tables, projector light, broadcast frames).

``datasets.billiards.second_look`` loads renders from another renderer in the same shape (``TableImage``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
CORNERS = ("bl", "br", "tr", "tl")
# What a label's table kind is refereed as: the Arbiter game whose table (and catalogue of sizes) it is.
GAME_OF_KIND = MappingProxyType({"snooker": "snooker", "pool": "straight-pool", "pyramid": "pyramid"})
DEFAULT_ASPECT = 2.0  # length / width assumed where a label does not give it: every catalogue table is ~2:1

XY = tuple[float, float]


@dataclass(frozen=True)
class LabelledBall:
    """A ball's silhouette: its centre and radius in pixels, and what it is (a game's ball id kind)."""

    id: str
    xy_px: XY
    radius_px: float


@dataclass(frozen=True)
class TableImage:
    """One labelled image. ``corners_px`` are the playing area's corners at the cushion noses in the
    contract's names (bl: bottom-left standing at the bottom cushion), or None where they are not in view;
    where ``orientation_known`` is False the ends cannot be told apart and a scorer must accept the
    end-for-end swap. ``aspect`` is the playing area's length over width (for scoring in table units)."""

    name: str
    image_path: Path
    real: bool
    game: str
    view: str
    corners_px: Mapping[str, XY] | None
    orientation_known: bool
    aspect: float
    balls: tuple[LabelledBall, ...] = ()
    truth: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def load(self) -> np.ndarray:
        """The image, BGR uint8; OSError if it cannot be read."""
        image = cv2.imread(str(self.image_path), cv2.IMREAD_COLOR)
        if image is None:
            raise OSError(f"cannot read {self.image_path}")
        return image


def read_corners(d: Mapping[str, Any] | None) -> Mapping[str, XY] | None:
    if d is None:
        return None
    return MappingProxyType({k: (float(d[k][0]), float(d[k][1])) for k in CORNERS})


def read_balls(rows: list[Mapping[str, Any]]) -> tuple[LabelledBall, ...]:
    return tuple(
        LabelledBall(str(b["id"]), (float(b["xy_px"][0]), float(b["xy_px"][1])), float(b["radius_px"]))
        for b in rows
    )


def photos(root: Path = HERE) -> tuple[TableImage, ...]:
    """Every labelled photo under ``root`` (``labels/*.json`` beside ``images/``), by name."""
    out = []
    for path in sorted((root / "labels").glob("*.json")):
        rec = json.loads(path.read_text(encoding="utf-8"))
        out.append(
            TableImage(
                name=path.stem,
                image_path=root / "images" / rec["image"],
                real=True,
                game=GAME_OF_KIND[rec["table"]["kind"]],
                view=str(rec.get("view", "")),
                corners_px=read_corners(rec.get("corners_px")),
                orientation_known=str(rec.get("orientation", "")).startswith("known"),
                aspect=float(rec.get("aspect", DEFAULT_ASPECT)),
                balls=read_balls(rec.get("balls", [])),
                truth=MappingProxyType(rec),
            )
        )
    return tuple(out)


def with_corners(images: tuple[TableImage, ...]) -> tuple[TableImage, ...]:
    """The images whose corners are labelled: the calibration set."""
    return tuple(i for i in images if i.corners_px is not None)
