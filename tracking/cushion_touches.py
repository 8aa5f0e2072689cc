"""Gentle cushion touches: a ball that rolls slowly up to a cushion, touches it and draws back a little.

``cushion_sides`` reads a contact as a turn of two lines, and needs the ball to move across the cushion
faster than the fit's noise both ways (``SideConfig.approach_mm_s``, ``leave_mm_s``). A ball dying at a
cushion comes in at a few centimetres a second and leaves at a few millimetres: no line fit tells that from
a ball at rest. Yet whether it touched is a call the rules ask for (a pool foul when no ball reaches a rail
after the contact), and the motion shows it over half a second: the centre comes nearer the cushion, turns
at its ball line and moves back out. Nothing else turns a slow ball there but another ball, and the window
read is cut at the ball's own contacts (``TouchWatch.read``), so a ball struck away is no touch.

The distance to the ball line is read through a running median (a sample's noise is no turn), the touch is
the first sample within the medians' noise of the nearest the ball came in the whole window, and it may lie
``reach_mm`` either side of the line: a calibration a few millimetres off moves the line, not the turn.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from arbiter.tables import TableModel

from .cushion_sides import AXIS, SIDES, Sample, ball_line

FLAT_MM = 0.5  # the nearest a ball came, within the running median's noise


@dataclass(frozen=True)
class TouchConfig:
    """Settings of reading gentle touches. Each trades something off:

    - ``approach_mm``: how much farther the ball was in the first half of the ``approach_s`` before the
      touch (a ball at rest against a cushion does not touch it again and again);
    - ``rebound_mm``, ``rebound_noise``: how much farther it is in the second half of the ``rebound_s``
      after it: at least ``rebound_mm`` and ``rebound_noise`` times the noise of the ball's samples over
      the window (``sample_noise``), so that a steadily tracked ball's small rebound counts (a ball
      glancing off a cushion at a fine angle draws back a millimetre or two in half a second) and a noisy
      one's wobble does not. ``rebound_s`` is also the longest the events after a slow ball near a
      cushion wait;
    - ``reach_mm``: how far from the ball line (either side) the turn may be;
    - ``smooth``: samples in the running median (odd).
    """

    approach_mm: float = 8.0
    approach_s: float = 0.5
    rebound_mm: float = 1.0
    rebound_noise: float = 2.0
    rebound_s: float = 0.5
    reach_mm: float = 15.0
    smooth: int = 5

    def __post_init__(self) -> None:
        if self.rebound_noise < 0:
            raise ValueError(f"rebound_noise must be at least 0 (got {self.rebound_noise})")
        for name in ("approach_mm", "approach_s", "rebound_mm", "rebound_s", "reach_mm"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive (got {getattr(self, name)})")
        if self.smooth < 1 or self.smooth % 2 == 0:
            raise ValueError(f"smooth must be a positive odd number of samples (got {self.smooth})")


def sample_noise(distances: np.ndarray) -> float:
    """The noise of one sample of a smooth path (mm), robustly from its second differences: a rolling
    ball's path bends far less from one frame to the next than its detector's noise moves it, and the one
    turn at a cushion is an outlier the median leaves out."""
    if len(distances) < 5:
        return 0.0
    second = np.diff(distances, 2)
    return float(1.4826 * np.median(np.abs(second - np.median(second))) / math.sqrt(6.0))


def near_a_side(sample: Sample, table: TableModel, config: TouchConfig) -> bool:
    """Whether a sample is near enough a ball line to be a touch (read for every sample of every ball)."""
    r, x, y = table.ball_radius_mm, sample[1], sample[2]
    nearest = min(abs(x - r), abs(table.width_mm - r - x), abs(y - r), abs(table.length_mm - r - y))
    return nearest <= config.reach_mm


@dataclass(frozen=True)
class Touch:
    """A gentle touch: the side, and when."""

    side: str
    t: float


def touch_at(
    samples: Sequence[Sample],
    i: int,
    table: TableModel,
    config: TouchConfig,
    since: float = -np.inf,
    until: float = np.inf,
    complete: bool = True,
) -> list[Touch] | None:
    """The gentle touches sample ``i`` is the turn of: the first sample within ``FLAT_MM`` of the nearest
    the ball came to a side's ball line (median of ``smooth`` samples: a ball that barely draws back
    lingers at the cushion after touching it) in the ``approach_s`` before and the ``rebound_s`` after, within
    ``reach_mm`` of the line, where the first half of the time before was ``approach_mm`` farther and the
    second half of the time after ``rebound_mm`` farther, and ``rebound_noise`` times the samples' noise.
    The window is cut at ``since`` and ``until`` (the ball's contacts before and after: its path beyond
    them is another) and where the samples stop.

    While the samples after ``i`` are not ``complete`` (more may come within the window), a turn is
    called as soon as the ball has drawn back over ``smooth`` medians, and None says it is undecided;
    what cannot be a touch is decided at once (the ball came no nearer before, or went nearer after)."""
    if not near_a_side(samples[i], table, config):
        return []
    t = samples[i][0]
    first, last = max(t - config.approach_s, since), min(t + config.rebound_s, until)
    lo = i
    while lo > 0 and samples[lo - 1][0] > first:
        lo -= 1
    hi = i
    while hi + 1 < len(samples) and samples[hi + 1][0] < last:
        hi += 1
    half = config.smooth // 2
    if i - lo <= half:
        return []
    if hi - i <= half:
        return [] if complete else None
    window = np.asarray(samples[lo : hi + 1], dtype=np.float64)
    at = i - lo - half  # sample i's place in the running median
    touches, undecided = [], False
    for side in SIDES:
        line, sign = ball_line(table, side)
        d = sign * (window[:, 1 + AXIS[side]] - line)
        med = np.median(np.lib.stride_tricks.sliding_window_view(d, config.smooth), axis=1)
        nearest = float(med.min())
        before, after = med[:at], med[at + 1 :]
        came = float(np.median(before[: (len(before) + 1) // 2])) - nearest
        first_there = int(np.argmax(med <= nearest + FLAT_MM)) == at
        if not first_there or abs(nearest) > config.reach_mm or came < config.approach_mm:
            continue
        went = float(np.median(after[len(after) // 2 :])) - nearest
        rebound = max(config.rebound_mm, config.rebound_noise * sample_noise(d))
        if went >= rebound and (complete or len(after) >= 2 * config.smooth):
            touches.append(Touch(side, t))
        elif not complete:
            undecided = True
    return None if undecided else touches


@dataclass
class TouchWatch:
    """One ball's samples as read for gentle touches, in order, each as soon as it is decided: how far
    they were read, and the unread ones near a ball line while it moved (what the event stream waits for:
    a few frames where a contact was called, up to ``rebound_s`` where a slow ball lingers)."""

    checked: int = 0
    near: deque[int] = field(default_factory=deque)

    def saw(self, samples: Sequence[Sample], table: TableModel, config: TouchConfig, moving: bool) -> None:
        """The newest sample arrived; ``moving``: the ball is not at rest."""
        if moving and near_a_side(samples[-1], table, config):
            self.near.append(len(samples) - 1)

    def read(
        self,
        samples: Sequence[Sample],
        table: TableModel,
        config: TouchConfig,
        contacts: Iterable[float],
        now: float,
        wait: int,
        last: bool = False,
    ) -> list[Touch]:
        """The touches decided now, read between the ball's ``contacts`` before and after each sample (the
        side reading or a kink that called the contact already, or another ball that struck this one,
        leaves no turn of its own there). A sample waits for ``wait`` samples after it (so that the side
        reading calls what it can first) or for ``rebound_s``; ``last``: the ball is gone or the source
        ended, and every sample is decided on what there is."""
        times = list(contacts)
        found: list[Touch] = []
        while self.checked < len(samples):
            i = self.checked
            t = samples[i][0]
            if not last and len(samples) <= i + wait and now - t < config.rebound_s:
                break
            since = max((tc for tc in times if tc <= t), default=-math.inf)
            until = min((tc for tc in times if tc > t), default=math.inf)
            complete = last or now - t >= config.rebound_s or until < math.inf
            touches = touch_at(samples, i, table, config, since, until, complete)
            if touches is None:
                break
            self.checked += 1
            while self.near and self.near[0] <= i:
                self.near.popleft()
            found += touches
        return found

    def waits_from(self, samples: Sequence[Sample]) -> float:
        """The time of the first unread sample near a ball line (inf: none)."""
        return samples[self.near[0]][0] if self.near else math.inf
