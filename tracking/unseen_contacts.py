"""Contacts the camera did not see happen: read from where the balls were seen before and after them.

A ball struck from rest may never be seen moving: lost in its blur, or its detection taken by another track
of its look (two reds a ball apart, the struck one running into the other's place). The tracker gives such
a ball up as struck (``BallTracker._struck``: lost); the event stream then waits for it
(``struck_lost_from``), and where it stays unseen, it left its spot when a moving ball first came to touch
it (``first_touch``). A striker may be lost in its blur too (a power shot unseen from the cue to the object
ball): it moved while unseen (``moved_unseen_at``), and where its first sighting after a ball left rest, or
its first line after the gap run back to when that ball left (a fast striker is seen well past the contact),
touches that ball's spot, it struck it (``struck_by_unseen``); the shot started at its last sighting before
(``unseen_since``). And a ball at rest still at its spot well after a kink was not struck by it
(``still_after``, read by ``near_misses``), whatever moved it later.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from .ball_path import BallPath
from .cushion_sides import Sample, fit_line

SEEN_AGAIN_S = 0.1  # a striker lost in its blur is seen again at most this long after the contact
# Its first sightings again, run back along their line to the contact (a fast striker is seen well past it).
RUN_BACK_SAMPLES = 2


def first_touch(
    paths: Mapping[str, BallPath],
    ball: str,
    p: np.ndarray,
    span: tuple[float, float],
    radius_mm: float,
    tol_mm: float,
    speed_mm_s: float,
) -> tuple[str, float] | None:
    """The ball of ``paths`` other than ``ball`` first seen within ``span`` (after its start, up to its end)
    with its centre two radii, within ``tol_mm``, from ``p``, having come there at ``speed_mm_s`` or more
    from its sighting before, and when; None where none was."""
    best: tuple[str, float] | None = None
    for other, path in paths.items():
        if other == ball:
            continue
        s = path.samples
        i = bisect.bisect_right(s, span[0], key=lambda q: q[0])
        for (t0, x0, y0), (t, x, y) in zip(s[max(i - 1, 0) :], s[max(i, 1) :], strict=False):
            if t > span[1] or (best is not None and t >= best[1]):
                break
            touching = abs(math.hypot(x - p[0], y - p[1]) - 2 * radius_mm) <= tol_mm
            if touching and _moved((t0, x0, y0), (t, x, y), speed_mm_s):
                best = (other, t)
                break
    return best


def moved_unseen_at(samples: Sequence[Sample], t: float, speed_mm_s: float) -> bool:
    """Whether the ball was unseen at ``t`` and its sightings either side are as far apart as a ball moving
    at ``speed_mm_s`` or more gets in that time: it moved while unseen (a struck ball lost in its blur)."""
    i = _moved_across(samples, t, speed_mm_s)
    return i is not None and samples[i][0] != t


def unseen_since(samples: Sequence[Sample], t: float, speed_mm_s: float) -> float:
    """The ball's last sighting before ``t`` where it moved from there to its next sighting (at ``t`` or
    after) at ``speed_mm_s`` or more, unseen between (when it was struck is not known: from then); else
    ``t``."""
    i = _moved_across(samples, t, speed_mm_s)
    return t if i is None else samples[i - 1][0]


def struck_by_unseen(
    paths: Mapping[str, BallPath],
    ball: str,
    t: float,
    p: np.ndarray,
    radius_mm: float,
    tol_mm: float,
    speed_mm_s: float,
) -> tuple[str, float] | None:
    """The ball of ``paths`` other than ``ball`` that moved unseen at ``t`` (``moved_unseen_at``) and was
    first seen again, at most ``SEEN_AGAIN_S`` later, with its centre two radii, within ``tol_mm``, from ``p``
    (the nearest to touching of those), and when it was seen there: a striker lost in its blur, seen just
    after the contact. Its first line from there run back to ``t`` (``_run_back``) may touch ``p`` instead,
    at ``t``. None where none was."""
    best, best_err = None, tol_mm
    for other, path in paths.items():
        s = path.samples
        i = None if other == ball else _moved_across(s, t, speed_mm_s)
        if i is None or s[i][0] == t:
            continue
        t1, x1, y1 = s[i]
        err = abs(math.hypot(x1 - p[0], y1 - p[1]) - 2 * radius_mm)
        if (back := _run_back(s, i, t)) is not None:  # where it was at ``t``, had it run straight from there
            err_back = abs(float(np.hypot(*(back - p))) - 2 * radius_mm)
            err, t1 = (err_back, t) if err_back < err else (err, t1)
        if s[i][0] - t <= SEEN_AGAIN_S and err <= best_err:
            best, best_err = (other, t1), err
    return best


def still_after(samples: Sequence[Sample], t: float, after_s: float, within_mm: float) -> bool:
    """Whether the ball's sightings from ``after_s`` before ``t`` to its first ``after_s`` or more after it
    all lie within ``within_mm`` of its last sighting up to ``t``: at rest through ``t``, nothing moved it
    then."""
    last = bisect.bisect_right(samples, t, key=lambda q: q[0]) - 1
    later = bisect.bisect_left(samples, t + after_s, key=lambda q: q[0])
    if last < 0 or later >= len(samples):
        return False
    here = samples[last][1:]
    around = [q for q in samples[: later + 1] if q[0] >= t - after_s]
    return all(math.dist(q[1:], here) <= within_mm for q in around)


def struck_lost_from(paths: Iterable[BallPath], t: float, within_s: float) -> float:
    """The earliest last sighting of a ball at rest given up as struck (``BallPath.struck_lost``) at most
    ``within_s`` before ``t`` and not yet read (inf: none): its departure, and the contact that caused it,
    may come from then."""
    return min(
        (
            p.struck_lost
            for p in paths
            if p.struck_lost is not None and p.rest is not None and t - p.struck_lost <= within_s
        ),
        default=math.inf,
    )


def _run_back(samples: Sequence[Sample], i: int, t: float) -> np.ndarray | None:
    """Where the line of the ball's first ``RUN_BACK_SAMPLES`` sightings from ``i`` on, within
    ``SEEN_AGAIN_S`` of one another, puts it at ``t`` before them; None where there are too few."""
    first = samples[i : i + RUN_BACK_SAMPLES]
    if len(first) < RUN_BACK_SAMPLES or first[-1][0] - first[0][0] > SEEN_AGAIN_S:
        return None
    return fit_line(first, t)[0]


def _moved_across(samples: Sequence[Sample], t: float, speed_mm_s: float) -> int | None:
    """The index of the ball's first sighting at or after ``t`` where it got there from its sighting before
    at ``speed_mm_s`` or more; None where it did not, or was not seen on both sides."""
    i = bisect.bisect_left(samples, t, key=lambda q: q[0])
    if i == 0 or i >= len(samples) or not _moved(samples[i - 1], samples[i], speed_mm_s):
        return None
    return i


def _moved(a: Sample, b: Sample, speed_mm_s: float) -> bool:
    return math.hypot(b[1] - a[1], b[2] - a[2]) >= speed_mm_s * (b[0] - a[0])
