"""One ball's measured path as the event detector reads it (``tracking.events``): its samples, how far they
were read, where it rests while it does, and the memos of the cushion readings."""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from .address_steps import HOLD_S, Step, is_step, read_step
from .cushion_sides import GAP_FRAMES, Sample, SideConfig, TurnMemo, fit_line, off_line, velocity_before
from .cushion_touches import TouchWatch
from .event_config import EventConfig
from .paths import StruckLine, position_at
from .unfolding import UnfoldConfig

# The rest position is the running mean of up to this many samples (detector noise averages out).
REST_AVERAGE_SAMPLES = 30
# A ball's first sightings are read for a strike before it (``BallPath.first_due``) once there are enough of
# them, and not awaited longer than this: a ball seen in a frame or two and then hidden holds nothing back.
FIRST_READ_WAIT_S = 0.5
RECENT_S = 0.15  # a ball's speed now is fitted to its samples of this last stretch of time
INTO_POCKET_S = 0.3  # a ball's velocity into a pocket may be fitted to its samples of this last stretch
# A ball leaving rest is timed from its first samples in motion: few, so that the next contact stays out.
DEPARTURE_FIT_SAMPLES = 2


@dataclass
class BallPath:
    """The measured positions of one ball, and how far kink detection has looked at them."""

    samples: list[Sample] = field(default_factory=list)
    checked: int = 0  # samples before this index were looked at as kink centres
    quiet_until: float = -math.inf  # no new kink before this time (one contact is one kink)
    rest: tuple[float, float] | None = None  # where it rests, while it does
    rest_n: int = 0  # samples averaged into ``rest``; 0 while it has never been at rest
    sides_checked: int = 0  # splits before this index were read for cushion turns (``cushion_sides``)
    moving_from: int = 0  # its first sample in motion since it last left rest
    turns: TurnMemo = field(default_factory=dict)  # splits read for cushion turns (``split_turns``)
    touch: TouchWatch = field(default_factory=TouchWatch)  # its samples read for gentle touches
    contacts: deque[float] = field(default_factory=lambda: deque(maxlen=16))  # when its contacts were
    first_read: bool = False  # its first sightings were read for a strike before it was seen
    # Its first line in motion missed its spot: it met a cushion unseen, and left somewhere in the gap.
    left_bent: bool = False
    # Its last sighting at rest, where the tracker has given it up as struck since and that was not read yet
    # (``unseen_contacts``); -inf once read with no striker found, until it is seen at rest again.
    struck_lost: float | None = None
    step_from: float | None = None  # its centre stepped off its spot then, and is awaited (``address_steps``)

    def maybe_rest(self, k: int, window: int, rest_mm_s: float) -> None:
        """At rest from sample ``k`` where its last ``2 window`` samples fit a speed under ``rest_mm_s``."""
        if k < 2 * window:
            return
        pts = self.samples[k - 2 * window : k + 1]
        _, v, _ = fit_line(pts, pts[-1][0])
        if float(np.hypot(*v)) < rest_mm_s:
            self.rest = (float(np.mean([p[1] for p in pts])), float(np.mean([p[2] for p in pts])))
            self.rest_n = len(pts)
            self.left_bent = False  # of the departure before this rest

    def left_rest_within(self, t0: float, within: float, early: float) -> tuple[float, float]:
        """When it may have left rest, its departure read at ``t0`` from its first samples in motion: from its
        last sighting at rest, where it was unseen since (lost in its blur), at most ``within`` before, to
        ``early`` after (its detection pulled towards the striker's image); all the time unseen where its
        first line missed its spot (``left_bent``)."""
        last_rest = self.samples[self.moving_from - 1][0] if self.moving_from > 0 else t0
        if self.left_bent:
            return min(t0, last_rest), max(t0, self.samples[self.moving_from][0]) + early
        return min(t0, max(last_rest, t0 - within)), t0 + early

    @property
    def last_seen_t(self) -> float:
        """When it was last seen (-inf: never)."""
        return self.samples[-1][0] if self.samples else -math.inf

    def lost_at_rest(self) -> None:
        """The tracker gave it up as struck (lost) while it rests here: from its last sighting on it may have
        left unseen (``unseen_contacts.struck_lost_from``)."""
        if self.rest is not None and self.samples and self.struck_lost is None:
            self.struck_lost = self.samples[-1][0]

    def leave_rest(self, k: int, radius_mm: float, window: int) -> tuple[float, np.ndarray]:
        """It left rest between samples k-1 and k: when, from its first moving samples (its line back to its
        spot; from its last sighting at rest where that line misses the spot by a diameter: it met a cushion
        unseen, and left somewhere in the gap), and its velocity then."""
        s = self.samples
        rest = np.array(self.rest)
        self.rest, self.struck_lost = None, None
        first = s[k : k + DEPARTURE_FIT_SAMPLES]
        t_ref = first[0][0]
        a1, v1, _ = fit_line(first, t_ref)
        speed2 = float(np.dot(v1, v1))
        tau = float(-np.dot(a1 - rest, v1) / speed2) if speed2 > 0 else 0.0
        self.left_bent = speed2 > 0 and off_line(rest, a1, v1) > 2 * radius_mm
        t0 = s[k - 1][0] if self.left_bent else max(s[k - 1][0], min(t_ref, t_ref + tau))
        self.quiet_until = s[min(k + window, len(s) - 1)][0]
        self.moving_from = k
        self.turns.clear()  # read from the rest it left: the splits are read again from k
        return t0, v1

    def left_unseen(self, t_last: float) -> None:
        """It left rest unseen after its last sighting at ``t_last`` (never seen moving)."""
        self.rest, self.struck_lost = None, None
        self.moving_from, self.checked, self.quiet_until = len(self.samples), len(self.samples), t_last

    def read_step(
        self, k: int, window: int, others: Iterable[np.ndarray], radius_mm: float, back_mm: float
    ) -> tuple[Step | None, int]:
        """Sample ``k``, its first off its spot, read as a step (``address_steps``): (None, k) where it starts
        none; else what it was and the sample it left at (ON, STAYED), came back at (BACK) or waits at (WAIT),
        with ``checked`` set to read on from there."""
        assert self.rest is not None
        awaited = self.step_from == self.samples[k][0]  # a step read before from this very sample
        if not awaited and not is_step(self.samples, k, window, self.rest, others, radius_mm):
            self.step_from = None
            return None, k
        step, j = read_step(self.samples, k, self.rest, back_mm, window)
        self.step_from = self.samples[k][0] if step is Step.WAIT else None
        self.checked = {Step.WAIT: k, Step.BACK: j}.get(step, j + 1)
        return step, j

    def departure_unread_from(self, window: int, departure_mm: float) -> float:
        """The last sighting at rest before a sighting off its spot not yet read (inf: none), among its last
        ``window`` + 2 samples (those ``_scan`` reads a departure from): the departure, and the contact that
        set it moving, may be timed from then. A ball at rest unseen a few frames (lost in its blur as it
        was struck) and seen again far off its spot left in that gap."""
        if self.rest is None:
            return math.inf
        s = self.samples
        for k in range(max(self.checked, len(s) - window - 2, 1), len(s)):
            if math.dist(s[k][1:], self.rest) > departure_mm:
                return s[k - 1][0]
        return math.inf

    def still_at(self, k: int) -> None:
        """Sample ``k`` is one more of it at rest: the running mean of its place takes it in."""
        assert self.rest is not None
        if self.struck_lost is not None and self.samples[k][0] > self.struck_lost:
            self.struck_lost = None  # seen again where it lay
        n, (x, y) = self.rest_n, self.samples[k][1:]
        self.rest = ((self.rest[0] * n + x) / (n + 1), (self.rest[1] * n + y) / (n + 1))
        self.rest_n = min(n + 1, REST_AVERAGE_SAMPLES)

    def velocity_into_pocket(self, t_last: float, window: int) -> np.ndarray:
        """Its velocity as it went into a pocket, last seen at ``t_last``: fitted to its last ``window + 1``
        samples, or to those of the last ``INTO_POCKET_S`` since it last left rest or had a contact where that
        is faster: a ball does not stop in front of a pocket, but a far ball's detection may stall at the
        jaws for a few frames while the ball goes in (broadcast seed 9304: 0.5 s late by the short fit)."""
        short = velocity_before(self.samples, t_last, window)
        since = max(t_last - INTO_POCKET_S, max(self.contacts, default=-math.inf))
        if self.moving_from < len(self.samples):
            since = max(since, self.samples[self.moving_from][0])
        pts = [x for x in self.samples if since <= x[0] <= t_last]
        if len(pts) <= window + 1:
            return short
        longer = fit_line(pts, t_last)[1]
        return longer if float(np.hypot(*longer)) > float(np.hypot(*short)) else short

    def recent_speed(self, t: float, window: int) -> float:
        """Its speed fitted to its last ``2 window + 1`` samples within RECENT_S of ``t`` (0: under 3)."""
        pts = [x for x in self.samples[-(2 * window + 1) :] if t - x[0] <= RECENT_S]
        return float(np.hypot(*fit_line(pts, t)[1])) if len(pts) >= 3 else 0.0

    def first_due(self, now: float, window: int) -> bool:
        """Whether its first sightings are to be read now for a strike before it (once: ``first_read``): when
        there are ``2 window + 1``; never where there were fewer ``FIRST_READ_WAIT_S`` after the first."""
        if self.first_read or not self.samples:
            return False
        enough = len(self.samples) > 2 * window
        self.first_read = enough or now - self.samples[0][0] > FIRST_READ_WAIT_S
        return enough

    def carry(self, moved: Callable[[np.ndarray], np.ndarray], behind: int) -> None:
        """The camera moved: the samples still to be read, and ``behind`` before them (the fits' reach),
        carried to where the moved calibration puts them (mm, N x 2 -> N x 2). A ball at rest rests where
        it was last seen: its older samples were seen through a camera on its way."""
        first = min(self.checked, self.sides_checked, self.touch.checked)
        if self.rest is None:
            first = min(first, self.moving_from)
        tail = self.samples[max(0, first - behind) :]
        if not tail:
            return
        xy = moved(np.array([p[1:] for p in tail]))
        self.samples[len(self.samples) - len(tail) :] = [
            (p[0], float(x), float(y)) for p, (x, y) in zip(tail, xy, strict=True)
        ]
        if self.rest is not None:
            self.rest, self.rest_n = self.samples[-1][1:], 1

    def first_seen_struck(self, window: int, speed_mm_s: float) -> StruckLine | None:
        """Where it was first seen, its velocity then and when (its first ``2 window + 1`` samples fitted),
        where it was already moving at ``speed_mm_s`` or more: a ball found only once struck. Else None."""
        if len(self.samples) <= 2 * window:
            return None
        first = self.samples[: 2 * window + 1]
        a, v, _ = fit_line(first, first[0][0])
        return (a, v, first[0][0]) if float(np.hypot(*v)) >= speed_mm_s else None

    def gap_unread_from(
        self, t: float, sides: SideConfig, window: int, unfold: UnfoldConfig | None = None
    ) -> float:
        """The time from which a cushion contact inferred across a gap may still come (inf: none): the first
        split not yet read, where the ball was moving fast enough to turn at a cushion when it was lost,
        with that gap in its unread samples or unseen now, for up to the sides' ``max_gap_s`` (nothing is
        inferred across a longer gap), or the unfolding's for a ball fast enough for it (``unfold``)."""
        unread = [x[0] for x in self.samples[max(self.sides_checked - 1, 0) :]]
        if len(unread) < 2:
            return math.inf
        times = [*unread, t] if t > unread[-1] else unread
        steps = np.diff(times)
        gap = int(np.argmax(steps))
        if steps[gap] <= GAP_FRAMES * steps.min():
            return math.inf
        speed = float(np.hypot(*velocity_before(self.samples, times[gap], window)))
        longest = sides.max_gap_s
        if unfold is not None and speed >= unfold.min_speed_mm_s:
            longest = max(longest, unfold.max_gap_s)
        if t - unread[-1] > longest:
            return math.inf
        return unread[0] if speed >= sides.approach_mm_s else math.inf


def touching(
    paths: Mapping[str, BallPath],
    ball: str,
    t: float,
    p: np.ndarray,
    radius_mm: float,
    tol_mm: float,
    window: int,
    among: set[str] | None = None,
) -> tuple[str | None, float]:
    """The ball of ``paths`` other than ``ball`` (of ``among`` when given: the balls in motion) whose centre
    was two radii, within ``tol_mm``, from ``p`` at time ``t``, and how far from touching it was (inf: none).
    A ball in motion's place at ``t`` is uncertain by the distance it covers in half a frame."""
    best, best_score, best_err = None, 1.0, math.inf
    for other, path in paths.items():
        if other == ball or not path.samples or (among is not None and other not in among):
            continue
        q = position_at(path.samples, t)
        if q is None:
            continue
        err = abs(float(np.hypot(*(q - p))) - 2 * radius_mm)
        tol = tol_mm
        if among is not None and len(path.samples) > 1:
            frame = path.samples[-1][0] - path.samples[-2][0]
            tol += float(np.hypot(*velocity_before(path.samples, t, window))) * frame / 2
        if err / tol < best_score:
            best, best_score, best_err = other, err / tol, err
    return best, best_err


def paths_bound(paths: Iterable[BallPath], t: float, sides: SideConfig, config: EventConfig) -> float:
    """Release no event before a gentle touch (``TouchWatch.waits_from``), a contact inferred across a gap
    (``BallPath.gap_unread_from``; without a gap, as the kinks: ``config.window`` frames behind), a departure
    from rest not yet read (``BallPath.departure_unread_from``) or a step of a ball's centre off its spot
    still awaited (``BallPath.step_from``, for up to twice ``HOLD_S``) may come."""
    paths = list(paths)
    touches = (p.touch.waits_from(p.samples) for p in paths)
    gaps = (p.gap_unread_from(t, sides, config.window, config.unfold) for p in paths)
    departures = (p.departure_unread_from(config.window, config.departure_mm) for p in paths)
    steps = (p.step_from for p in paths if p.step_from is not None and t - p.step_from < 2 * HOLD_S)
    return min([*touches, *gaps, *departures, *steps], default=math.inf) - 1e-6


def unread_since(paths: Iterable[BallPath]) -> float:
    """The earliest first sighting of the ``paths`` whose first sightings are not yet read (inf: none)."""
    return min((p.samples[0][0] for p in paths if not p.first_read and p.samples), default=math.inf)
