"""Finding the table on the first frame: automatically, from corners clicked on the frame, or typed.

As ``arbiter calibrate``: ``vision.calibration.calibrate_auto`` finds the table, ``calibrate_manual`` fits it
to four points. The points are clicked on the frame as the page shows it (``CornerClicks`` turns each click
on the shown image into frame pixels and names it after the next corner still missing) or typed as pixels.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from arbiter.games import BilliardsSpec, GameSpec
from dashboard.session.setup import DeskError
from vision.calibration import CalibrationError, calibrate_auto, calibrate_manual
from vision.overlays import table_overlay
from vision.sources import FrameSource, SourceError

CORNERS = ("bl", "br", "tl", "tr")  # the points a manual calibration asks for (pocket ids also accepted)
CORNER_NAMES: Mapping[str, str] = {
    "bl": "bottom left (baulk cushion)",
    "br": "bottom right (baulk cushion)",
    "tl": "top left (top cushion)",
    "tr": "top right (top cushion)",
}
MARK_PX = 9  # radius of a clicked corner's mark on the frame
MARK_BGR = (0, 220, 255)
GRID_PX = 100  # spacing of the pixel grid drawn under a frame where no table was found

Point = tuple[float, float]


@dataclass(frozen=True)
class CalibrationPreview:
    """The first frame with the fitted table over it (or with a pixel grid when no fit was found)."""

    image: np.ndarray  # BGR
    ok: bool
    message: str
    profile: Path | None = None
    size: tuple[int, int] | None = None  # width, height of the frame
    corners: Mapping[str, Point] | None = None  # the clicked or typed points it was fitted to (None: found)


def first_frame(spec: str) -> np.ndarray:
    try:
        frame = next(iter(FrameSource(spec)), None)
    except SourceError as exc:
        raise DeskError(str(exc)) from None
    if frame is None:
        raise DeskError(f"{spec} gave no frame: check that it plays")
    return frame.image


def table_spec(spec: GameSpec) -> BilliardsSpec:
    """The billiards spec whose table is calibrated; ``DeskError`` for a game with no billiard table."""
    if not isinstance(spec, BilliardsSpec):
        raise DeskError(f"{spec.id} is a {spec.family} game: there is no billiard table to calibrate")
    return spec


def table_sizes(game: GameSpec) -> tuple[str, ...]:
    """The sizes of table the game is played on (``arbiter run --table``), for the page's choice."""
    return tuple(s.name for s in game.table.sizes) if isinstance(game, BilliardsSpec) else ()


def calibrate(
    spec: str,
    game: GameSpec,
    out: Path,
    points: Mapping[str, Point] | None = None,
    size: str | None = None,
) -> CalibrationPreview:
    """Find the table on the first frame of ``spec`` (or fit it to clicked or typed ``points``), save the
    camera profile to ``out`` and draw the fit over the frame, as ``arbiter calibrate`` does. ``size``: the
    table's size from the game's catalogue (``--table``); None: told from the balls."""
    billiards = table_spec(game)
    try:
        table = billiards.resized(size).table
    except ValueError as exc:
        raise DeskError(str(exc)) from None
    image = first_frame(spec)
    h, w = image.shape[:2]
    try:
        if points:
            calib = calibrate_manual(dict(points), table, (w, h), image=image)
        else:
            calib = calibrate_auto(image, billiards.table, size=size)
    except (CalibrationError, ValueError, KeyError) as exc:
        how = "check the points" if points else "click or type the four corners instead"
        return CalibrationPreview(pixel_grid(image), False, f"{exc} ({how})", None, (w, h))
    out.parent.mkdir(parents=True, exist_ok=True)
    calib.save(out)
    how = "manual" if points else "automatic"
    message = (
        f"{how} calibration, reprojection error {calib.reprojection_error_px:.2f} px, on the "
        f"{calib.table.size or 'standard'} table"
    )
    if not calib.sure:
        message += f"; UNSURE: {'; '.join(d.detail for d in calib.verdict.doubts)}"
    return CalibrationPreview(table_overlay(image, calib, calib.table), True, message, out, (w, h), points)


def parse_point(text: str) -> Point:
    """``"102, 88"`` -> (102.0, 88.0): a pixel typed in the manual calibration box."""
    try:
        x, y = (float(v) for v in text.replace(" ", ",").replace(",,", ",").strip(",").split(","))
    except ValueError:
        raise DeskError(f"a point is two pixel numbers 'x, y' such as '102, 88' (got {text!r})") from None
    return x, y


@dataclass(frozen=True)
class CornerClicks:
    """The corners clicked so far on the first frame (frame pixels), and the last click taken, so that the
    same click reported again on the next run of the page is not taken twice."""

    size: tuple[int, int]  # width, height of the frame
    points: Mapping[str, Point] = field(default_factory=dict)
    last_click: Any = None

    @property
    def next_corner(self) -> str | None:
        """The corner the next click names; None once all four are in."""
        return next((name for name in CORNERS if name not in self.points), None)

    @property
    def complete(self) -> bool:
        return self.next_corner is None

    def add(self, click: Mapping[str, Any] | None) -> CornerClicks:
        """With ``click`` (``{"x", "y", "width", "height"}`` on the image as shown, as the click component
        reports it) taken as the next corner; the same when it was taken already or all four are in."""
        if not click or click == self.last_click:
            return self
        corner = self.next_corner
        if corner is None:
            return replace(self, last_click=click)
        shown_w = float(click.get("width") or self.size[0])
        shown_h = float(click.get("height") or self.size[1])
        x = float(click["x"]) * self.size[0] / shown_w
        y = float(click["y"]) * self.size[1] / shown_h
        return replace(self, points={**self.points, corner: (round(x, 1), round(y, 1))}, last_click=click)

    def cleared(self) -> CornerClicks:
        return replace(self, points={})


def mark_corners(image_bgr: np.ndarray, points: Mapping[str, Point]) -> np.ndarray:
    """The frame with each clicked corner ringed and named, to check the clicks by eye."""
    out = image_bgr.copy()
    for name, (x, y) in points.items():
        centre = (round(x), round(y))
        cv2.circle(out, centre, MARK_PX, MARK_BGR, 2, cv2.LINE_AA)
        cv2.putText(out, name, (centre[0] + MARK_PX + 2, centre[1] - MARK_PX), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                    MARK_BGR, 2, cv2.LINE_AA)  # fmt: skip
    return out


def pixel_grid(image_bgr: np.ndarray, step: int = GRID_PX) -> np.ndarray:
    """The frame with a labelled pixel grid, to read corner coordinates off where no table was found."""
    out = image_bgr.copy()
    h, w = out.shape[:2]
    for x in range(0, w, step):
        cv2.line(out, (x, 0), (x, h - 1), (255, 255, 255), 1)
        cv2.putText(out, str(x), (x + 2, 14), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 255, 255), 1, cv2.LINE_AA)
    for y in range(0, h, step):
        cv2.line(out, (0, y), (w - 1, y), (255, 255, 255), 1)
        cv2.putText(out, str(y), (2, y + 14), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 255, 255), 1, cv2.LINE_AA)
    return out
