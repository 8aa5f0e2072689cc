"""The table one still camera's photos agree on.

A fixed camera's photos all show the table at the same place, but each photo's automatic calibration is
made on that photo alone, and a photo's light (a projector's colour ramp), a hand or printed markers on the
rails can lead one of them astray: the small snooker table under a warm ramp with markers was placed 7.7 %
off, where the same camera's other looks put it within 1 %. So the photos of one camera
(``vision.picture_print.same_camera``) are calibrated one by one, and the calibration most of them agree on
(``agreed_view``: corners within ``SAME_VIEW`` of each other, more photos than agree on any other; of
those, one naming the table size most of them name) is the table of all of them (``chosen_for``). A
photo whose own calibration is sure and elsewhere keeps its own: the camera may have been knocked between
two photos too little for the prints to tell. Agreement makes no calibration sure; an unsure one is said
unsure, with how many photos agree on it. A video's first frames are asked the same only across lights
(``lights_agreeing``): frames of one view under one light are one look, and on a broadcast most of them can
place an end alike and wrongly; a projector's changing light makes each light's error its own, as it does
a folder's photos.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.calibration import TableCalibration

MIN_AGREEING = 2  # photos that must agree on a table for it to be the camera's
# Two calibrations with every corner within this share of the table's length of each other are the same
# view: a table found again where it was after a change of the picture over it (a player, the cue, a flash),
# or two photos of one camera agreeing.
SAME_VIEW = 0.01
# Two pictures whose cloth's mean colour differs by less than this in every channel (log of the ratio, ~5 %)
# are under one light: players and balls moving over a broadcast's cloth move it by under 2 %, a projector's
# colour by 10-50 %.
SAME_LIGHT = 0.05


@dataclass(frozen=True)
class Agreement:
    """The calibration a camera's photos agree on, how many of them put the table there (``agreeing``) and
    how many were calibrated (``tried``, failures included)."""

    calib: TableCalibration
    agreeing: int
    tried: int


def same_view(a: TableCalibration, b: TableCalibration) -> bool:
    """Whether two calibrations of one picture size put every corner within SAME_VIEW of the table's
    length (in pixels) of each other: the same camera, still."""
    if tuple(a.image_size) != tuple(b.image_size):
        return False
    pa, pb = a.points, b.points
    names = ("bl", "br", "tr", "tl")
    if not all(k in pa and k in pb for k in names):
        return False
    return max(math.dist(pa[k], pb[k]) for k in names) <= SAME_VIEW * length_px(b)


def length_px(calib: TableCalibration) -> float:
    """The table's length in the image, from its corners (pixels)."""
    p = calib.points
    return 0.5 * (math.dist(p["bl"], p["tl"]) + math.dist(p["br"], p["tr"]))


def same_table(a: TableCalibration, b: TableCalibration) -> bool:
    """The same view (``same_view``) of a table of the same size (length and width within SAME_VIEW): of
    calibrations that agree on where the corners are, the ones that also agree on what table it is."""
    ta, tb = a.table, b.table
    alike = abs(math.log(ta.length_mm / tb.length_mm)) <= SAME_VIEW
    return alike and abs(math.log(ta.width_mm / tb.width_mm)) <= SAME_VIEW and same_view(a, b)


def agreed_view(calibs: Sequence[TableCalibration | None]) -> Agreement | None:
    """The calibration the most of one camera's photos agree on (None where a photo found no table):
    the one with the most others within SAME_VIEW of it, sure before unsure, then the one whose table's
    size the most of them name too (``same_table``: one photo's 9 ft table within 1 % of the corners of the
    others' own shape), then fewer doubts, then the smaller residual; None unless at least MIN_AGREEING
    agree on it and more than on any table elsewhere."""
    found = [c for c in calibs if c is not None]
    if not found:
        return None
    support, sized = agreeing(found), agreeing(found, same_table)

    def rank(i: int) -> tuple[int, bool, int, int, float]:
        c = found[i]
        return support[i], c.verdict.sure, sized[i], -len(c.verdict.doubts), -c.reprojection_error_px

    best = max(range(len(found)), key=rank)
    elsewhere = [support[i] for i, c in enumerate(found) if not same_view(c, found[best])]
    if support[best] < MIN_AGREEING or support[best] <= max(elsewhere, default=0):
        return None
    return Agreement(found[best], support[best], len(calibs))


def agreeing(
    calibs: Sequence[TableCalibration],
    alike: Callable[[TableCalibration, TableCalibration], bool] = same_view,
) -> list[int]:
    """For each calibration, how many of ``calibs`` (itself included) put the table ``alike``: in the same
    view (``same_view``), or ``same_table``."""
    return [sum(alike(c, d) for d in calibs) for c in calibs]


def chosen_for(own: TableCalibration | None, agreed: Agreement | None) -> TableCalibration | None:
    """A photo's calibration: its camera's agreed one, unless there is none or the photo's own is sure and
    puts the table elsewhere (None where neither is)."""
    if agreed is None:
        return own
    if own is not None and own.sure and not same_view(own, agreed.calib):
        return own
    return agreed.calib


def each_photos_table(calibs: Sequence[TableCalibration | None]) -> list[TableCalibration | None]:
    """Every photo's calibration (``chosen_for``) where all of one camera's photos were calibrated, given
    each one's own (None where it found no table)."""
    agreed = agreed_view(calibs)
    return [chosen_for(c, agreed) for c in calibs]


def cloth_colour(image: np.ndarray, calib: TableCalibration) -> np.ndarray:
    """The mean colour (B, G, R) of ``image`` over the table ``calib`` puts in it: the light on its cloth."""
    return np.array(cv2.mean(image, mask=calib.table_mask(image.shape))[:3])


def lights_agreeing(
    calibs: Sequence[TableCalibration],
    colours: Sequence[np.ndarray],
    alike: Callable[[TableCalibration, TableCalibration], bool] = same_view,
) -> list[int]:
    """For each calibration, under how many lights (the cloth's colours, ``cloth_colour``, apart by
    ``SAME_LIGHT`` or more) the pictures of ``calibs`` put the table ``alike`` (the same view; or
    ``same_table``): agreement that counts a picture under a light already seen as no more evidence."""
    pairs = list(zip(calibs, colours, strict=True))
    return [_lights([colour for d, colour in pairs if alike(c, d)]) for c in calibs]


def _lights(colours: Sequence[np.ndarray]) -> int:
    """How many lights ``colours`` were seen under (greedily grouped within SAME_LIGHT)."""
    seen: list[np.ndarray] = []
    for colour in colours:
        if not any(np.all(np.abs(np.log((colour + 1.0) / (other + 1.0))) < SAME_LIGHT) for other in seen):
            seen.append(colour)
    return len(seen)
