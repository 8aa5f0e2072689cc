"""Cushion contacts read one side at a time, from the ball's distance to that side's ball line.

A cushion reflects only the part of a ball's velocity across it. Seen along the cushion's normal, a contact
is therefore a plain turn: the distance from the cushion's *ball line* (where the centre is when the ball
touches the nose, one radius in) falls to zero along a straight line in time and rises from it along
another. Read per side, two cushions struck 25 ms apart in a corner are two turns on two different axes,
however blended the kink in the ball's 2D track; and a turn needs no frame at the contact itself: a ball the
detector loses in its blur at the cushion still has a line before its gap and one after, and where they
meet is when it struck. Such a contact, with no sighting within a frame of it, is *inferred*.

``side_turns`` looks at one split of a ball's samples (the interval between two consecutive sightings) and
returns the cushions turned at there, each with how well two lines fit (to choose between neighbouring
splits that both see the same turn). A turn across a gap must also be a path: along each axis that did not
turn, the lines before and after must meet where the turn happened (else the track may have jumped to
another ball in the gap, or the ball was struck by one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from arbiter.tables import TableModel

Sample = tuple[float, float, float]  # t, x, y: one measured position of a ball
SIDES = ("left", "right", "bottom", "top")
AXIS = {"left": 0, "right": 0, "bottom": 1, "top": 1}  # the coordinate across each side
INWARD = {"left": 1.0, "right": -1.0, "bottom": 1.0, "top": -1.0}  # the sign of that coordinate going in
# A turn timed this far (in frames) outside its split still belongs to it: the lines' noise.
SLACK_FRAMES = 0.1
# A split is a gap where its sightings are more than this many frames apart (a frame missed, at least).
GAP_FRAMES = 1.5


@dataclass(frozen=True)
class SideConfig:
    """Settings of reading cushions side by side. Each trades something off:

    - ``span``: samples fitted on each side of a split: more is steadier against detector noise, but two
      contacts of one side closer than ``span`` frames blur into one.
    - ``approach_mm_s`` / ``leave_mm_s``: the speed across the cushion that the ball must have into it and
      away from it; above the noise of a ``span``-sample fit, so a ball rolling along a cushion (or at rest
      against it) does not turn.
    - ``approach_s``: the approach must hold over this long before the contact too (``approach_holds``): a
      centre that jitters a few millimetres (a striped ball's stripe turning as it rolls, a blob refitted
      every other frame) fakes the speed over ``span`` samples, not over a tenth of a second; longer, and a
      ball struck toward a cushion just before it gets there is measured partly before it was struck.
    - ``tol_mm``: how far from the ball line the turn may be (detector noise, the ball's measured centre a
      few millimetres off at the cushion); ``tol_mm_per_s``: more for every second the lines are carried
      over a gap (their speed is known only to the noise of ``span`` samples).
    - ``max_gap_s``: the longest time unseen across which a contact is inferred; longer, and the path may
      have met anything.
    """

    span: int = 3
    approach_mm_s: float = 150.0
    leave_mm_s: float = 100.0
    tol_mm: float = 25.0
    tol_mm_per_s: float = 150.0
    max_gap_s: float = 0.3
    approach_s: float = 0.1

    def __post_init__(self) -> None:
        if self.span < 2:
            raise ValueError(f"span must be at least 2 samples (got {self.span})")
        for name in ("approach_mm_s", "leave_mm_s", "tol_mm", "max_gap_s", "approach_s"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive (got {getattr(self, name)})")
        if self.tol_mm_per_s < 0:
            raise ValueError(f"tol_mm_per_s must not be negative (got {self.tol_mm_per_s})")


@dataclass(frozen=True)
class SideTurn:
    """A cushion contact read across one split: when, which side, how well the two lines fit (the sum of
    squared residuals, mm²), and whether no sighting was within a frame of it (``inferred``)."""

    t: float
    side: str
    residual: float
    inferred: bool


@dataclass(frozen=True)
class _Lines:
    """The lines p(t) = a + v (t - t_ref) fitted to the samples before a split and to those after it."""

    t_ref: float
    a0: np.ndarray
    v0: np.ndarray
    a1: np.ndarray
    v1: np.ndarray
    residual: float


def fit_line(samples: Sequence[Sample] | np.ndarray, t_ref: float) -> tuple[np.ndarray, np.ndarray, float]:
    """Least-squares line p(t) = a + v (t - t_ref) through (t, x, y) samples: a, v and the squared
    residuals. One sample, or samples all at one time, give their mean and no velocity."""
    arr = np.asarray(samples, dtype=np.float64)
    dt = arr[:, 0] - t_ref
    if len(arr) == 1 or np.ptp(dt) == 0:
        a = arr[:, 1:].mean(axis=0)
        return a, np.zeros(2), float(np.sum((arr[:, 1:] - a) ** 2))
    # The normal equations of a straight line in closed form (a general solver costs ten times as much, and
    # this runs for every ball at every split of every frame).
    t_mean = float(dt.mean())
    p_mean = arr[:, 1:].mean(axis=0)
    dtc, pc = dt - t_mean, arr[:, 1:] - p_mean
    v = dtc @ pc / float(dtc @ dtc)
    residual = float(np.sum((pc - dtc[:, None] * v) ** 2))
    return p_mean - v * t_mean, v, residual


def off_line(p: np.ndarray, q: np.ndarray, direction: np.ndarray) -> float:
    """How far the point ``p`` lies from the line through ``q`` along ``direction`` (mm; not zero)."""
    d = np.asarray(direction, np.float64) / float(np.hypot(*direction))
    off = np.asarray(p, np.float64) - np.asarray(q, np.float64)
    return abs(float(off[0] * d[1] - off[1] * d[0]))


def kink_at(s: Sequence[Sample], k: int, w: int) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
    """How sharply the path turns at sample ``k``: the change of velocity between the lines fitted to the
    ``w`` samples before and after it, with the line before (intercept and velocity at ``k``'s time) and the
    velocity after; all zero where ``w`` samples either side are missing."""
    if k - w < 0 or k + w >= len(s):
        return 0.0, np.zeros(2), np.zeros(2), np.zeros(2)
    tk = s[k][0]
    a0, v0, _ = fit_line(s[k - w : k + 1], tk)
    _, v1, _ = fit_line(s[k : k + w + 1], tk)
    return float(np.hypot(*(v1 - v0))), a0, v0, v1


def velocity_change(samples: Sequence[Sample], t: float, w: int) -> float | None:
    """How much the velocity fitted to the ``w + 1`` samples after ``t`` differs from the one fitted to those
    up to it (mm/s); None with fewer than two either side."""
    before = [x for x in samples if x[0] <= t][-(w + 1) :]
    after = [x for x in samples if x[0] > t][: w + 1]
    if len(after) < 2 or len(before) < 2:
        return None
    return float(np.hypot(*(fit_line(after, t)[1] - fit_line(before, t)[1])))


def after_intercept(s: Sequence[Sample], k: int, w: int) -> np.ndarray:
    """Where the line fitted to the ``w + 1`` samples after ``k`` puts the ball at ``k``'s time."""
    a1, _, _ = fit_line(s[k + 1 : k + w + 2], s[k][0])
    return a1


def velocity_before(samples: Sequence[Sample], t: float, w: int) -> np.ndarray:
    """The velocity fitted to the last ``w + 1`` samples up to ``t``; zero with fewer than two."""
    pts = [x for x in samples if x[0] <= t][-(w + 1) :]
    if len(pts) < 2:
        return np.zeros(2)
    return fit_line(pts, t)[1]


def _lines(samples: Sequence[Sample], i: int, span: int, start: int, max_gap_s: float) -> _Lines | None:
    """The lines through the ``span`` samples up to ``i`` (none before ``start``, but two at least) and the
    ``span`` from ``i + 1``; None when the samples do not reach that far either way, or when they are more
    than ``max_gap_s`` apart anywhere: a line carried that far may have met anything."""
    first = max(i - span + 1, start, 0)
    if i - first < 1 or i + span >= len(samples):
        return None
    window = np.asarray(samples[first : i + 1 + span])
    if np.diff(window[:, 0]).max() > max_gap_s:
        return None
    before, after = window[: i + 1 - first], window[i + 1 - first :]
    t_ref = float(before[-1, 0])
    a0, v0, r0 = fit_line(before, t_ref)
    a1, v1, r1 = fit_line(after, t_ref)
    return _Lines(t_ref, a0, v0, a1, v1, r0 + r1)


def ball_line(table: TableModel, side: str) -> tuple[float, float]:
    """The ball line of ``side`` on its axis, and the sign that makes (coordinate - line) the distance in."""
    r = table.ball_radius_mm
    line = {"left": r, "right": table.width_mm - r, "bottom": r, "top": table.length_mm - r}[side]
    return line, INWARD[side]


def kink_side(
    table: TableModel, p: np.ndarray, v0: np.ndarray, v1: np.ndarray, tol_mm: float
) -> tuple[str | None, float]:
    """The cushion a kink at ``p`` (velocity ``v0`` before it, ``v1`` after) is a contact with: of the
    sides whose ball line is within ``tol_mm``, the nearest that the ball went into before and not into
    after; and how far from its ball line ``p`` is (``tol_mm`` when none)."""
    best, best_err = None, tol_mm
    for side in SIDES:
        line, inward = ball_line(table, side)
        axis = AXIS[side]
        err = abs(float(p[axis]) - line)
        if err < best_err and inward * v0[axis] < 0 <= inward * v1[axis]:
            best, best_err = side, err
    return best, best_err


# A kink in a pocket's mouth is a jaw's push when at least this share of the velocity change is across the
# pocket's axis: a jaw's face runs nearly along the axis (it opens a few degrees off it), while a ball's
# centre dragged by the pocket's shade as it drops, or a ball slowing on the bed, changes along the axis.
JAW_SHARE = 0.7


def pocket_rails(inward: tuple[float, float]) -> tuple[str, ...]:
    """The sides whose cushions end at a pocket that looks into the table along ``inward``: a corner
    pocket's two, a middle pocket's one."""
    x, y = inward
    rails = ("left",) if x > 0 else ("right",) if x < 0 else ()
    return rails + (("bottom",) if y > 0 else ("top",) if y < 0 else ())


def jaw_side(table: TableModel, p: np.ndarray, v0: np.ndarray, v1: np.ndarray) -> str | None:
    """The side whose cushion's jaw a kink at ``p`` (velocity ``v0`` before, ``v1`` after) struck: in a
    pocket's mouth (within half its opening of the mouth's middle), past that cushion's ball line, where
    its nose has turned away into the pocket, so no ball line explains the turn. The change is across the
    pocket's axis (``JAW_SHARE``); the jaw is that of the pocket's rail it pushes the ball out of (at a
    corner, the one of the two it pushes out of more), which the ball was going into before. None where
    no pocket's jaw is."""
    dv = np.asarray(v1, np.float64) - np.asarray(v0, np.float64)
    change = float(np.hypot(*dv))
    if change == 0:
        return None
    for pocket in table.pockets:
        if float(np.hypot(*(p - np.asarray(pocket.mouth_xy_mm)))) > pocket.opening_mm / 2:
            continue
        across = abs(float(dv[0] * pocket.inward[1] - dv[1] * pocket.inward[0]))
        side = max(pocket_rails(pocket.inward), key=lambda s: INWARD[s] * float(dv[AXIS[s]]))
        line, inward = ball_line(table, side)
        past = inward * (float(p[AXIS[side]]) - line) < 0  # the nose has turned away: past the ball line
        if past and across >= JAW_SHARE * change and speed_into(side, v0) > 0:
            return side
    return None


# A ball's push and a cushion's normal nearer parallel than this (the sine of the angle between them) cannot
# be told apart in one velocity change.
PARALLEL_SINE = 0.3


@dataclass(frozen=True)
class TwoImpulses:
    """A kink's velocity change split into the push of the ball that struck it (along the line of centres)
    and the push of the nearest cushion within reach (along its inward normal), in mm/s; ``into``: the
    velocity between the two points into that cushion and the one after does not."""

    side: str
    by_ball: float
    by_cushion: float
    into: bool


def two_impulses(
    table: TableModel, p: np.ndarray, push: np.ndarray, v0: np.ndarray, v1: np.ndarray, tol_mm: float
) -> TwoImpulses | None:
    """A kink at ``p`` (velocity ``v0`` before, ``v1`` after) of a ball another touched (``push``: from
    the other's centre to this one's) beside a cushion: the velocity change as the other ball's push along
    ``push`` plus the cushion's along its inward normal. A ball struck while a few millimetres from a
    cushion meets both within a frame: the ball drives it in, the cushion throws it out, and the change
    seen is their sum. None where no ball line is within ``tol_mm`` of ``p`` or the two directions are
    too near parallel to tell apart (a ball struck square into the cushion)."""
    n = np.asarray(push, np.float64)
    norm = float(np.hypot(*n))
    if norm == 0:
        return None
    n = n / norm
    near = [(abs(float(p[AXIS[side]]) - ball_line(table, side)[0]), side) for side in SIDES]
    err, side = min(near)
    if err > tol_mm:
        return None
    m = np.zeros(2)
    m[AXIS[side]] = INWARD[side]
    det = float(n[0] * m[1] - n[1] * m[0])
    if abs(det) < PARALLEL_SINE:
        return None
    dv = np.asarray(v1, np.float64) - np.asarray(v0, np.float64)
    by_ball = float(dv[0] * m[1] - dv[1] * m[0]) / det
    by_cushion = float(n[0] * dv[1] - n[1] * dv[0]) / det
    between = np.asarray(v0, np.float64) + by_ball * n
    into = float(np.dot(between, m)) < 0 <= float(np.dot(v1, m))
    return TwoImpulses(side, by_ball, by_cushion, into)


# A push this far into a cushion (the cosine of its angle to the cushion's inward normal, reversed) at
# least drives a ball into it; a push nearer parallel to the cushion sends the ball along it.
INTO_COSINE = 0.2
# How far (in frames) outside the time between a ball's last sighting at rest and its first in motion the
# line through its first samples may meet the cushion: the noise of a line through two samples.
BOUNCE_SLACK_FRAMES = 0.5


def bounced_before_seen(
    table: TableModel,
    rest: np.ndarray,
    push: np.ndarray,
    left_t: float,
    first: Sequence[Sample],
    tol_mm: float,
    leave_mm_s: float,
) -> tuple[str, float] | None:
    """The cushion a ball struck from rest at ``rest`` along ``push`` (from the striker's centre to its
    own) reached and was thrown back from before it was first seen moving, and when; None where none.

    A ball struck hard a few centimetres from a cushion is there and back within a frame: its first
    sightings in motion (``first``) are already on the way out, so no line reaches the cushion before
    the turn, and no kink is seen. The line through them, run back, still meets the cushion's ball line,
    between the last sighting at rest (``left_t``) and the first in motion, at the place the push from
    ``rest`` would take the ball (within ``tol_mm`` along the cushion), and leaves it at ``leave_mm_s`` at
    least. Nothing else sends a ball pushed into a cushion back out of it so soon."""
    norm = float(np.hypot(*push))
    if norm == 0 or len(first) < 2:
        return None
    n = np.asarray(push, np.float64) / norm
    t_first = first[0][0]
    frame = first[1][0] - t_first
    a, v, _ = fit_line(first, t_first)
    best: tuple[str, float, float] | None = None
    for side in SIDES:
        axis, along = AXIS[side], 1 - AXIS[side]
        line, inward = ball_line(table, side)
        into, away = -inward * float(n[axis]), inward * float(v[axis])
        depth = inward * (float(rest[axis]) - line)  # how far inside its ball line the ball lay
        if into < INTO_COSINE or away < leave_mm_s or depth < -tol_mm:
            continue
        t_back = t_first - inward * (float(a[axis]) - line) / away
        if not left_t - BOUNCE_SLACK_FRAMES * frame <= t_back <= t_first + BOUNCE_SLACK_FRAMES * frame:
            continue
        reached = float(rest[along] + n[along] * max(depth, 0.0) / into)
        err = abs(float(a[along] + v[along] * (t_back - t_first)) - reached)
        if err <= tol_mm and (best is None or err < best[2]):
            best = (side, t_back, err)
    return None if best is None else (best[0], best[1])


def struck_into_cushion(
    table: TableModel,
    rest: np.ndarray,
    push: np.ndarray,
    t0: float,
    left_t: float,
    first: Sequence[Sample],
    tol_mm: float,
    least_mm_s: float,
    leave_mm_s: float,
) -> tuple[str, float] | None:
    """The cushion a ball struck from rest at ``rest`` at ``t0`` (``push``: from the striker's centre to
    its own) was driven into and thrown back from before it was seen moving, and when; None where none.
    Beside a cushion, its velocity as it left (fitted to ``first``, its first samples in motion) is the
    striker's push plus the cushion's, each at least ``least_mm_s`` (``two_impulses``); a few centimetres
    off, struck hard, those samples run back to the cushion where the push took it, between its last
    sighting at rest (``left_t``) and its first in motion (``bounced_before_seen``), or, where its first
    sighting in motion was still on the way in (``on_the_way_in``), between that and its second.
    ``first``: its first two samples in motion, or three."""
    two = first[:2]
    v1 = fit_line(two, two[0][0])[1] if len(two) >= 2 else np.zeros(2)
    split = two_impulses(table, rest, push, np.zeros(2), v1, tol_mm)
    if split is not None and split.into and split.by_ball >= least_mm_s and split.by_cushion >= least_mm_s:
        return split.side, t0
    bounce = bounced_before_seen(table, rest, push, left_t, two, tol_mm, leave_mm_s)
    if bounce is None and len(first) >= 3 and on_the_way_in(rest, push, first[0], tol_mm):
        bounce = bounced_before_seen(table, rest, push, first[0][0], first[1:3], tol_mm, leave_mm_s)
    return None if bounce is None else (bounce[0], max(bounce[1], t0))


def on_the_way_in(rest: np.ndarray, push: np.ndarray, sample: Sample, tol_mm: float) -> bool:
    """Whether ``sample`` lies on the way a ball at rest at ``rest`` was pushed (``push``), past its spot
    and within ``tol_mm`` of that line: a ball struck into a cushion a few centimetres off may be seen once
    on its way there before it comes back out."""
    if float(np.hypot(*push)) == 0:
        return False
    p = np.asarray(sample[1:3], np.float64)
    return float((p - rest) @ push) > 0 and off_line(p, rest, push) <= tol_mm


def lasting_change(samples: Sequence[Sample], k: int, since: int, span_s: float) -> float | None:
    """How much the velocity fitted to the samples over ``span_s`` after sample ``k`` differs from the one
    fitted over ``span_s`` before it (none before ``since``: where the ball left rest), in mm/s: a turn
    holds, a centre's wobble over a few frames does not; None with fewer than two samples before or three
    after."""
    t = samples[k][0]
    before = [x for x in samples[since : k + 1] if x[0] >= t - span_s]
    after = [x for x in samples[k:] if x[0] <= t + span_s]
    if len(before) < 2 or len(after) < 3:
        return None
    return float(np.hypot(*(fit_line(after, t)[1] - fit_line(before, t)[1])))


def side_turns(
    samples: Sequence[Sample],
    i: int,
    table: TableModel,
    config: SideConfig | None = None,
    start: int = 0,
) -> list[SideTurn]:
    """The cushions the ball turned at between samples ``i`` and ``i + 1`` (``config.span`` samples are
    fitted on each side, none before ``start``: where it left rest; none when there are too few)."""
    cfg = config or SideConfig()
    lines = _lines(samples, i, cfg.span, start, cfg.max_gap_s)
    if lines is None:
        return []
    t0, t1 = samples[i][0], samples[i + 1][0]
    frame = min(samples[i][0] - samples[i - 1][0], samples[i + 2][0] - samples[i + 1][0])
    turns = []
    for side in SIDES:
        turn = _turn(lines, side, t0 - SLACK_FRAMES * frame, t1 + SLACK_FRAMES * frame, table, cfg)
        if turn is not None:
            inferred = bool(min(turn - t0, t1 - turn) > frame * 1.01)
            turns.append(SideTurn(turn, side, lines.residual, inferred))
    turns = [
        turn
        for turn in turns
        if approach_holds(samples, i, start, turn.side, speed_into(turn.side, lines.v0), cfg)
    ]
    if turns and t1 - t0 > GAP_FRAMES * frame and not _one_path(lines, turns, t0, t1, cfg):
        return []
    return turns


def _turn(lines: _Lines, side: str, t0: float, t1: float, table: TableModel, cfg: SideConfig) -> float | None:
    """When the lines before and after turned at ``side``'s ball line within the split, or None."""
    axis = AXIS[side]
    line, sign = ball_line(table, side)
    # Distance in from the ball line, before (d0 + u0 tau) and after (d1 + u1 tau), tau from t_ref.
    d0, u0 = sign * (lines.a0[axis] - line), sign * lines.v0[axis]
    d1, u1 = sign * (lines.a1[axis] - line), sign * lines.v1[axis]
    if u0 > -cfg.approach_mm_s or u1 < cfg.leave_mm_s:
        return None
    tau = float((d1 - d0) / (u0 - u1))
    tc = lines.t_ref + tau
    if not t0 <= tc <= t1:
        return None
    carried = max(tc - t0, t1 - tc)
    depth = float(d0 + u0 * tau)
    return tc if abs(depth) <= cfg.tol_mm + cfg.tol_mm_per_s * carried else None


def speed_into(side: str, velocity: np.ndarray) -> float:
    """The part of ``velocity`` (mm/s) that goes into ``side``'s cushion (negative: away from it)."""
    return float(-INWARD[side] * velocity[AXIS[side]])


def approach_holds(
    samples: Sequence[Sample], i: int, start: int, side: str, speed: float, cfg: SideConfig
) -> bool:
    """Whether a contact's approach into ``side`` at ``speed`` (as a short fit up to sample ``i`` measured
    it) holds over the ``approach_s`` before too (fitted on the samples then, none before ``start``: where
    the ball left rest or was last struck), at half that speed or at ``approach_mm_s``, whichever is less.
    A ball slows by far less than half in a tenth of a second, and one struck toward the cushion within
    it is measured partly before it was struck; a centre's jitter, fitted that long, is no approach."""
    t = samples[i][0]
    first = i
    while first > start and samples[first - 1][0] >= t - cfg.approach_s:
        first -= 1
    if i - first < cfg.span:
        return True  # no more samples than the contact's own fit had
    _, v, _ = fit_line(samples[first : i + 1], t)
    return speed_into(side, v) >= min(cfg.approach_mm_s, speed / 2)


def _one_path(lines: _Lines, turns: list[SideTurn], t0: float, t1: float, cfg: SideConfig) -> bool:
    """Across a gap: along an axis that did not turn, the lines before and after meet at the turn."""
    turned = {AXIS[turn.side] for turn in turns}
    for axis in (0, 1):
        if axis in turned:
            continue
        for turn in turns:
            tau = turn.t - lines.t_ref
            apart = abs(float(lines.a0[axis] + lines.v0[axis] * tau - lines.a1[axis] - lines.v1[axis] * tau))
            carried = max(turn.t - t0, t1 - turn.t)
            if apart > cfg.tol_mm + cfg.tol_mm_per_s * carried:
                return False
    return True


# The readings already made at splits of one ball's samples, by (split, start, config): ``split_turns``
# reads every split three times (as itself and beside its two neighbours) unless it keeps them here.
TurnMemo = dict[tuple[int, int, SideConfig], list[SideTurn]]


def split_turns(
    samples: Sequence[Sample],
    i: int,
    table: TableModel,
    config: SideConfig | None = None,
    start: int = 0,
    memo: TurnMemo | None = None,
) -> list[SideTurn]:
    """The turns at split ``i`` that fit better than the same side's turn at the splits beside it: a
    contact between two sightings shows at the splits next to it too, through one sample taken on the wrong
    side of it, which fits worse. Needs ``span + 1`` samples after the split.

    ``memo``: kept between calls on one ball's samples read split after split (samples only ever
    appended), so that each split is fitted once; a reading is kept only once every sample it needs was
    there, and the reading two splits behind ``i`` is let go."""
    cfg = config or SideConfig()

    def read(j: int) -> list[SideTurn]:
        if memo is None or j + cfg.span >= len(samples):
            return side_turns(samples, j, table, cfg, start)
        key = (j, start, cfg)
        if key not in memo:
            memo[key] = side_turns(samples, j, table, cfg, start)
        return memo[key]

    if memo is not None:
        memo.pop((i - 2, start, cfg), None)
    beside = [t for j in (i - 1, i + 1) for t in read(j)]
    return [
        turn for turn in read(i) if all(b.residual > turn.residual for b in beside if b.side == turn.side)
    ]
