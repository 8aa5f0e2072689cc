"""A ball's centre stepping off its spot while nothing strikes it: the cue at the address, not a stroke.

As a player addresses the cue ball, the cue's tip (or a hand, or its shadow) covers part of the ball, and
the detector's centre of what is left steps a few millimetres off the ball's spot and stays there while
the cue is still (broadcast 9304, shot 7: the white stepped 10 mm and back twice in the half second
before the stroke, and the shot was read as started 0.6 s early, its first contact lost). A struck ball
does not do that: it runs on, or, stunned into a ball frozen to it, stops where the contact left it with
that ball moving off, and it never goes back to its spot unless struck again.

So a ball at rest whose first samples off its spot (``k`` on, ``window`` more) stay within ``STILL_MM`` of
one another, no farther than ``MAX_STEP_MM`` from the spot, with no other ball within touching distance
then or ``LOOK_BACK_S`` before (a ball beside a cushion, struck into it, is thrown back near its spot), is
read on (``read_step``): back at its spot (nothing in between), it never left; moved on from the step,
it left then; still there ``HOLD_S`` after stepping, it was moved (a cue touching the ball at the address
plays a stroke), and it left when it stepped. Until then the events wait (``BallPath.step_from``).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Iterator, Sequence

import numpy as np

from .cushion_sides import Sample
from .paths import position_at

STILL_MM = 3.0  # a step's samples lie this near the first of them (the detector's noise at rest: ~1 mm)
MAX_STEP_MM = 25.0  # about a ball's radius: what covering part of a ball can shift its centre by
HOLD_S = 1.0  # how long a step is awaited: a cue's address is drawn back within a second or played
TOUCH_SLACK_MM = 10.0  # another ball this much beyond touching distance could have been stunned into
LOOK_BACK_S = 0.3  # another ball that touched it this long before could have struck it into a cushion


class Step(enum.Enum):
    WAIT = "wait"  # still at the step, not yet for HOLD_S: undecided
    BACK = "back"  # back at its spot: the step was no motion
    ON = "on"  # moved on from the step: it left there
    STAYED = "stayed"  # stayed at the step for HOLD_S: it was moved, and left when it stepped


def is_step(
    samples: Sequence[Sample],
    k: int,
    window: int,
    rest: tuple[float, float],
    others: Iterable[np.ndarray],
    radius: float,
) -> bool:
    """Whether sample ``k``, a ball's first off its spot ``rest``, starts a step: it and the ``window``
    samples after it lie within ``STILL_MM`` of it, no farther than ``MAX_STEP_MM`` from the spot, and no
    other ball (``others``: their places about then, ``places_about``) lies within touching distance of it."""
    if k + window >= len(samples):
        return False
    place = np.asarray(samples[k][1:], np.float64)
    if float(np.hypot(*(place - rest))) > MAX_STEP_MM:
        return False
    if any(math.dist(s[1:], place) > STILL_MM for s in samples[k + 1 : k + window + 1]):
        return False
    return not touched(rest, others, radius)


def touched(spot: Sequence[float], places: Iterable[np.ndarray | None], radius: float) -> bool:
    """Whether a ball of ``places`` (None: not seen then) lies within touching distance of ``spot``, with
    ``TOUCH_SLACK_MM`` to spare: it could have been struck or stunned into, or could take a kick on."""
    reach = 2 * radius + TOUCH_SLACK_MM
    return any(p is not None and math.dist(p, spot) <= reach for p in places)


def places_about(others: Iterable[Sequence[Sample]], t: float) -> Iterator[np.ndarray]:
    """Where each of the ``others`` (their samples) was at ``t`` and every tenth of a second of the
    ``LOOK_BACK_S`` before it, as asked for (``is_step`` asks only where the ball stepped)."""
    times = np.linspace(t - LOOK_BACK_S, t, round(LOOK_BACK_S * 10) + 1)
    places = (position_at(samples, float(when)) for samples in others for when in times)
    return (p for p in places if p is not None)


def read_step(
    samples: Sequence[Sample], k: int, rest: tuple[float, float], back_mm: float, window: int
) -> tuple[Step, int]:
    """What a step starting at sample ``k`` (``is_step``) was, on the samples there are, and the sample it
    is decided at: the first back within ``back_mm`` of the spot ``rest`` (BACK), the first off the step
    elsewhere (ON), or ``k`` (STAYED, WAIT). A sample off the step is read ``window`` + 1 samples behind the
    last, as every departure is (the other balls' contacts about then are read no sooner)."""
    place = samples[k][1:]
    j = k
    while j + window + 1 < len(samples) and math.dist(samples[j][1:], place) <= STILL_MM:
        j += 1
    if j + window + 1 < len(samples):
        return (Step.BACK if math.dist(samples[j][1:], rest) <= back_mm else Step.ON), j
    return (Step.STAYED if samples[j][0] - samples[k][0] >= HOLD_S else Step.WAIT), k
