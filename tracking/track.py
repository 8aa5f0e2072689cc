"""One ball followed over time: its constant-velocity Kalman filter in table millimetres (filterpy), its
sightings, where it was heading; and the view of it the tracker gives out (``TrackView``). The tracker
(``tracking.tracker``) keeps these; the event detector reads the views."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np
from filterpy.kalman import KalmanFilter

from arbiter.tables import TableModel

from .paths import in_pockets

XY = tuple[float, float]
Sighting = tuple[float, float, float, bool]  # t, x, y (mm), measured (else predicted or held)

# Where a lost ball was heading is fitted to its sightings of this last stretch of time before it was lost
# (up to HEADING_SAMPLES of them): the filter's velocity, a frame or two after a ball is found again, is
# mostly the detector's noise.
HEADING_FIT_S = 0.1
HEADING_SAMPLES = 5
# A ball seen fewer than three times in that stretch (lost in its blur, then glimpsed) is fitted to its
# sightings of up to ACROSS_GAP_S, the gap included, where it ran on at one speed: its speeds before the gap,
# across it and after it within STEADY_SPEED times each other. One that slowed while unseen (a jaw struck in
# the gap) is not fitted across it.
ACROSS_GAP_S = 0.3
STEADY_SPEED = 1.5
# A track's look is what its detections say, weighted by their confidence: a track whose detections of
# another look outweigh those of its own this many times over is that look's ball (``Track.outvoted_by``).
OUTVOTED = 2.0
# A cushion gives back about this share of a ball's speed across it (a prediction carried past a cushion
# comes back in at it, ``reflect_at_cushions``).
CUSHION_RESTITUTION = 0.8


class TrackState(StrEnum):
    TENTATIVE = "tentative"  # seen fewer than n_init times: not yet a ball
    CONFIRMED = "confirmed"  # a ball on the table, seen now or hidden at rest
    GONE = "gone"  # left the table: potted or off (see ``Track.gone_near``)


@dataclass
class Track:
    """One ball followed over time. Mutable inside the tracker; the outside world sees ``TrackView``s."""

    ball: str  # the ball id this track is (``red:4``, ``yellow``, ``7``)
    cls: int
    kf: KalmanFilter
    state: TrackState = TrackState.TENTATIVE
    hits: int = 1
    misses: int = 0
    last_seen_t: float = 0.0
    gone_near: str | None = None  # the pocket id when it was seen going into one and then gone
    pot_unsure: bool = False  # gone at a pocket without being seen clearly into it (``_exit``)
    lost: bool = False  # vanished while moving, away from any pocket: still on the table, place unknown
    pot_pending: tuple[str, bool] | None = None  # (pocket, unsure): seen going in, unseen since; not yet gone
    pot_confirm_s: float = 0.0  # while pending: how long after its last sighting it is potted if unseen
    history: list[Sighting] = field(default_factory=list)
    looks: dict[int, float] = field(default_factory=dict)  # each look its detections were read as: confidence
    was: str | None = None  # the id it had until this frame, where it was renamed this frame
    stand_in: bool = False  # a second ball of a unique look: kept only as a ball misread (``_stand_in``)

    def read_as(self, cls: int, confidence: float) -> None:
        """One more detection of this ball, read as look ``cls`` with ``confidence``."""
        self.looks[cls] = self.looks.get(cls, 0.0) + confidence

    def outvoted_by(self) -> int | None:
        """The look its detections give it where that look outweighs its own ``OUTVOTED`` times over."""
        best = max(self.looks, key=self.looks.__getitem__, default=self.cls)
        if best != self.cls and self.looks[best] > OUTVOTED * self.looks.get(self.cls, 0.0):
            return best
        return None

    @property
    def xy(self) -> XY:
        return (float(self.kf.x[0, 0]), float(self.kf.x[1, 0]))

    @property
    def velocity(self) -> XY:
        return (float(self.kf.x[2, 0]), float(self.kf.x[3, 0]))

    @property
    def speed(self) -> float:
        return math.hypot(*self.velocity)


@dataclass(frozen=True)
class TrackView:
    """A ball as the tracker sees it in one frame."""

    ball: str
    xy_mm: XY
    velocity_mm_s: XY
    state: TrackState
    measured: bool  # detected in this frame (else predicted, or held at rest while hidden)
    moving: bool
    lost: bool = False
    pot_pending: bool = False  # seen going into a pocket and unseen since: potted unless seen again soon
    was: str | None = None  # the id this ball had until this frame, where the tracker renamed it


def new_filter(xy: XY, measurement_mm: float, velocity: XY = (0.0, 0.0)) -> KalmanFilter:
    """A constant-velocity filter (x, y, vx, vy) at ``xy``, at rest unless told a ``velocity`` (which it
    holds loosely: the next sightings correct it); ``measurement_mm``: a detection's error."""
    kf = KalmanFilter(dim_x=4, dim_z=2)
    kf.x = np.array([[xy[0]], [xy[1]], [velocity[0]], [velocity[1]]])
    kf.H = np.array([[1.0, 0, 0, 0], [0, 1.0, 0, 0]])
    kf.R = np.eye(2) * measurement_mm**2
    kf.P = np.diag([measurement_mm**2] * 2 + [2000.0**2] * 2)
    return kf


def set_dt(kf: KalmanFilter, dt: float, accel: float) -> None:
    kf.F = np.array([[1.0, 0, dt, 0], [0, 1.0, 0, dt], [0, 0, 1.0, 0], [0, 0, 0, 1.0]])
    # Piecewise-constant white acceleration (Bar-Shalom): q scales with the expected acceleration squared.
    q = np.diag([0.5 * dt * dt, 0.5 * dt * dt, dt, dt]) ** 2
    kf.Q = q * accel**2


def reflect_at_cushions(kf: KalmanFilter, table: TableModel) -> None:
    """A prediction carried past a cushion's ball line, heading out, brought back in as the cushion throws
    the ball (its speed across it times ``CUSHION_RESTITUTION``): a ball at 7 m/s is predicted where it is
    a frame after it struck a cushion, not 100 mm past the table's edge, so its next detection, read as
    any look, is still its own. Not in a pocket (``in_pockets``), nor where its path crossed the ball line
    in a pocket's mouth (within half the opening and a ball's radius of the mouth's middle): there the
    ball may be going in, or has gone (a fast ball carried past a corner's mouth in a frame, or one running
    along a cushion into the corner, thrown back onto the table with its velocity turned out of the
    pocket, was held there as lost instead of potted)."""
    r, x = table.ball_radius_mm, kf.x
    if in_pockets(table, x[:2, 0], r).any():
        return
    for axis, far in ((0, table.width_mm - r), (1, table.length_mm - r)):
        pos, vel = float(x[axis, 0]), float(x[axis + 2, 0])
        line = r if pos < r and vel < 0 else far if pos > far and vel > 0 else None
        if line is None or _crossed_in_a_mouth(x, axis, line, table):
            continue
        x[axis, 0] = line + CUSHION_RESTITUTION * (line - pos)
        x[axis + 2, 0] = -CUSHION_RESTITUTION * vel
        jacobian = np.ones(4)  # of the state's map, diagonal: its covariance carried through it
        jacobian[[axis, axis + 2]] = -CUSHION_RESTITUTION
        kf.P = kf.P * np.outer(jacobian, jacobian)


def _crossed_in_a_mouth(x: np.ndarray, axis: int, line: float, table: TableModel) -> bool:
    """Whether the state ``x`` (4 x 1), run back along its velocity to where ``axis`` was at ``line``,
    crossed it in a pocket's mouth or beyond the table's end along it (behind a corner pocket's mouth)."""
    back = (float(x[axis, 0]) - line) / float(x[axis + 2, 0])
    at = [float(x[0, 0] - x[2, 0] * back), float(x[1, 0] - x[3, 0] * back)]
    at[axis] = line
    along = at[1 - axis]
    if not 0.0 <= along <= (table.length_mm if axis == 0 else table.width_mm):
        return True
    return bool(in_pockets(table, np.array(at), table.ball_radius_mm).any())


def heading_of(tr: Track) -> XY:
    """The velocity of ``tr`` fitted to its last sightings (``HEADING_FIT_S``), else to a steady path
    across the gap before them (``ACROSS_GAP_S``); the filter's where neither has three."""
    seen = _last_sightings(tr)
    if not seen:
        return tr.velocity
    fitted = fitted_velocity([h for h in seen if h[0] >= seen[-1][0] - HEADING_FIT_S])
    if fitted is None:
        fitted = steady_velocity(seen)
    return tr.velocity if fitted is None else fitted


def _last_sightings(tr: Track) -> list[Sighting]:
    """``tr``'s last ``HEADING_SAMPLES`` sightings within ``ACROSS_GAP_S`` of its last, oldest first."""
    seen: list[Sighting] = []
    for h in reversed(tr.history):
        if seen and h[0] < seen[0][0] - ACROSS_GAP_S:
            break
        if h[3]:
            seen.append(h)
            if len(seen) == HEADING_SAMPLES:
                break
    return seen[::-1]


def steady_velocity(sightings: list[Sighting]) -> XY | None:
    """The velocity fitted to ``sightings`` across the longest gap between them, where the ball ran as fast
    before it (at least two sightings), across it and after it (at least two), to ``STEADY_SPEED``; else
    None."""
    if len(sightings) < 4:
        return None
    gap = max(range(1, len(sightings)), key=lambda i: sightings[i][0] - sightings[i - 1][0])
    if gap < 2 or gap > len(sightings) - 2:
        return None
    speeds = [
        chord_speed(sightings[0], sightings[gap - 1]),
        chord_speed(sightings[gap - 1], sightings[gap]),
        chord_speed(sightings[gap], sightings[-1]),
    ]
    if min(speeds) <= 0.0 or max(speeds) > STEADY_SPEED * min(speeds):
        return None
    return fitted_velocity(sightings)


def chord_speed(a: Sighting, b: Sighting) -> float:
    """The speed (mm/s) of the straight line from sighting ``a`` to the later ``b`` (at a later time)."""
    return math.dist(a[1:3], b[1:3]) / (b[0] - a[0])


def fitted_velocity(sightings: list[Sighting]) -> XY | None:
    """The velocity (mm/s) fitted by least squares to ``sightings`` (t, x, y, measured); None with fewer
    than three."""
    if len(sightings) < 3:
        return None
    recent = np.array([h[:3] for h in sightings])
    t = recent[:, 0] - recent[:, 0].mean()
    v = (t @ (recent[:, 1:] - recent[:, 1:].mean(axis=0))) / float(t @ t)
    return (float(v[0]), float(v[1]))
