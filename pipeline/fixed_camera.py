"""The table one still camera's photos agree on.

A fixed camera's photos all show the table at the same place, but each photo's automatic calibration is
made on that photo alone, and a photo's light (a projector's colour ramp), a hand or printed markers on the
rails can lead one of them astray: the small snooker table under a warm ramp with markers was placed 7.7 %
off, where the same camera's other looks put it within 1 %. So the photos of one camera
(``vision.picture_print.same_camera``) are calibrated one by one, and the calibration most of them agree on
(``agreed_view``: corners within ``table_watch.SAME_VIEW`` of each other, more photos than agree on any other)
is the table of all of them (``chosen_for``). A photo whose own calibration is sure and elsewhere keeps its
own: the camera may have been knocked between two photos too little for the prints to tell. Agreement makes
no calibration sure; an unsure one is said unsure, with how many photos agree on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from vision.calibration import TableCalibration

from .table_watch import same_view

MIN_AGREEING = 2  # photos that must agree on a table for it to be the camera's


@dataclass(frozen=True)
class Agreement:
    """The calibration a camera's photos agree on, how many of them put the table there (``agreeing``) and
    how many were calibrated (``tried``, failures included)."""

    calib: TableCalibration
    agreeing: int
    tried: int


def agreed_view(calibs: Sequence[TableCalibration | None]) -> Agreement | None:
    """The calibration the most of one camera's photos agree on (None where a photo found no table):
    the one with the most others within SAME_VIEW of it, sure before unsure, then fewer doubts, then the
    smaller residual; None unless at least MIN_AGREEING agree on it and more than on any table elsewhere."""
    found = [c for c in calibs if c is not None]
    if not found:
        return None
    support = [sum(same_view(c, d) for d in found) for c in found]

    def rank(i: int) -> tuple[int, bool, int, float]:
        c = found[i]
        return support[i], c.verdict.sure, -len(c.verdict.doubts), -c.reprojection_error_px

    best = max(range(len(found)), key=rank)
    elsewhere = [support[i] for i, c in enumerate(found) if not same_view(c, found[best])]
    if support[best] < MIN_AGREEING or support[best] <= max(elsewhere, default=0):
        return None
    return Agreement(found[best], support[best], len(calibs))


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
