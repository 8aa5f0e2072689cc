"""Follow every ball across frames: one Kalman filter per ball in table millimetres (filterpy), association
by the assignment problem constrained by identity, and a lifecycle that tells a hidden ball from a pot.

The loop is SORT's: predict, associate, update, create, emit, remove; call ``update`` once per frame, with
no detections too. What differs is billiards: a ball at rest does not vanish, so a stationary track that
loses its detections (a cue, an arm, a hand over it) is kept where it is for as long as it stays unseen; a
moving track that disappears next to a pocket is a pot candidate; identity comes from the ball's look
(the yellow is the yellow), so the assignment never swaps two balls of different looks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np
from filterpy.kalman import KalmanFilter
from scipy.optimize import linear_sum_assignment

from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import BilliardsSpec
from vision.types import Detections

XY = tuple[float, float]


class TrackState(StrEnum):
    TENTATIVE = "tentative"  # seen fewer than n_init times: not yet a ball
    CONFIRMED = "confirmed"  # a ball on the table, seen now or hidden at rest
    GONE = "gone"  # left the table: potted or off (see ``Track.gone_near``)


@dataclass(frozen=True)
class TrackerConfig:
    """Settings of the tracker. Each trades something off:

    - ``n_init``: hits before a track is a ball; higher ignores flickering false detections, but a ball
      appearing (a respot) is reported later.
    - ``max_misses_moving``: frames a *moving* ball may go unseen before it is gone; too low turns a ball
      briefly hidden by the cue into a pot, too high delays pots.
    - ``gate_mm``: largest distance between a prediction and a detection of look-alike balls (reds) that may
      be associated; it must exceed what a struck ball travels in a frame from rest (a break sends a ball
      at 8 m/s: 133 mm a frame at 60 fps). Balls of a unique look are associated at any distance.
    - ``accel_mm_s2``: process noise, the acceleration the filter expects; collisions and cushions are
      large, sudden accelerations, so it is generous.
    - ``measurement_mm``: the detector's position noise.
    - ``rest_speed_mm_s``: below this the ball counts as at rest.
    - ``pocket_reach_mm``: a moving ball lost within this distance of a pocket mouth is a pot candidate.
    """

    n_init: int = 2
    max_misses_moving: int = 4
    gate_mm: float = 250.0
    accel_mm_s2: float = 20000.0
    measurement_mm: float = 2.0
    rest_speed_mm_s: float = 15.0
    pocket_reach_mm: float = 120.0

    def __post_init__(self) -> None:
        if self.n_init < 1:
            raise ValueError(f"n_init must be at least 1 (got {self.n_init})")
        if self.max_misses_moving < 1:
            raise ValueError(f"max_misses_moving must be at least 1 (got {self.max_misses_moving})")
        for name in ("gate_mm", "accel_mm_s2", "measurement_mm", "rest_speed_mm_s", "pocket_reach_mm"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive (got {getattr(self, name)})")


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
    gone_near: str | None = None  # the pocket id when it vanished next to one
    lost: bool = False  # vanished while moving, away from any pocket: still on the table, place unknown
    history: list[tuple[float, float, float, bool]] = field(default_factory=list)  # t, x, y, measured

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


def _kalman(xy: XY, cfg: TrackerConfig) -> KalmanFilter:
    kf = KalmanFilter(dim_x=4, dim_z=2)
    kf.x = np.array([[xy[0]], [xy[1]], [0.0], [0.0]])
    kf.H = np.array([[1.0, 0, 0, 0], [0, 1.0, 0, 0]])
    kf.R = np.eye(2) * cfg.measurement_mm**2
    kf.P = np.diag([cfg.measurement_mm**2] * 2 + [2000.0**2] * 2)
    return kf


def _set_dt(kf: KalmanFilter, dt: float, accel: float) -> None:
    kf.F = np.array([[1.0, 0, dt, 0], [0, 1.0, 0, dt], [0, 0, 1.0, 0], [0, 0, 0, 1.0]])
    # Piecewise-constant white acceleration (Bar-Shalom): q scales with the expected acceleration squared.
    g = np.array([[0.5 * dt * dt], [0.5 * dt * dt], [dt], [dt]])
    q = np.diag([0.5 * dt * dt, 0.5 * dt * dt, dt, dt]) ** 2
    kf.Q = q * accel**2 if g.size else q


class BallTracker:
    """Tracks the balls of one game in table millimetres. ``update`` once per frame."""

    def __init__(self, spec: BilliardsSpec, config: TrackerConfig | None = None) -> None:
        table = spec.table
        self.table = table
        self.spec = spec
        self.config = config or TrackerConfig()
        self.tracks: list[Track] = []
        self._t: float | None = None
        # Which ids each look may take, in the order they are handed out (red:1, red:2, ...).
        self._ids_by_cls: dict[int, list[str]] = {}
        for bid, look in spec.looks.items():
            self._ids_by_cls.setdefault(APPEARANCE_CLASSES.index(look.cls), []).append(bid)

    def _free_id(self, cls: int) -> str | None:
        taken = {t.ball for t in self.tracks if t.state is not TrackState.GONE}
        return next((b for b in self._ids_by_cls.get(cls, []) if b not in taken), None)

    def _nearest_pocket(self, xy: XY) -> str | None:
        best = min(self.table.pockets, key=lambda p: math.dist(p.mouth_xy_mm, xy), default=None)
        if best is None or math.dist(best.mouth_xy_mm, xy) > self.config.pocket_reach_mm:
            return None
        return best.id

    def _in_jaws(self, xy: XY) -> bool:
        """Whether a ball centre at ``xy`` is within a ball's width of a pocket's mouth."""
        reach = self.table.ball_diameter_mm
        return any(math.dist(p.mouth_xy_mm, xy) < p.opening_mm / 2 + reach for p in self.table.pockets)

    def update(self, t: float, detections: Detections) -> list[TrackView]:
        """Advance to time ``t`` with this frame's detections (``xy_mm`` filled). Returns every live ball."""
        cfg = self.config
        dt = 0.0 if self._t is None else max(t - self._t, 1e-6)
        self._t = t
        live = [tr for tr in self.tracks if tr.state is not TrackState.GONE]
        for tr in live:
            if dt > 0:
                _set_dt(tr.kf, dt, cfg.accel_mm_s2)
                tr.kf.predict()
        det_xy = detections.xy_mm
        valid = np.isfinite(det_xy).all(axis=1)
        det_idx = np.flatnonzero(valid)
        matched_tracks: set[int] = set()
        matched_dets: set[int] = set()
        if live and len(det_idx):
            cost = np.full((len(live), len(det_idx)), 1e6)
            for i, tr in enumerate(live):
                px = np.array(tr.xy)
                d = np.linalg.norm(det_xy[det_idx] - px, axis=1)
                same = detections.cls[det_idx] == tr.cls
                # A ball whose look is unique in the set (the yellow, the 7) that has gone unseen can be found
                # anywhere: its look is its identity. While it is in view it is gated like the others, so a
                # detection of its colour elsewhere (a misread ball) cannot drag it across the table.
                unique = len(self._ids_by_cls.get(tr.cls, ())) == 1
                gate = math.inf if unique and (tr.lost or tr.misses > 0) else cfg.gate_mm + tr.speed * dt
                ok = same & (d <= gate)
                cost[i, ok] = d[ok]
            rows, cols = linear_sum_assignment(cost)
            for r, cidx in zip(rows, cols, strict=True):
                if cost[r, cidx] >= 1e6:
                    continue
                tr = live[r]
                j = int(det_idx[cidx])
                if tr.lost:  # found again after a while: start afresh where it is
                    tr.kf = _kalman((float(det_xy[j, 0]), float(det_xy[j, 1])), cfg)
                    tr.lost = False
                else:
                    tr.kf.update(det_xy[j].reshape(2, 1))
                tr.hits += 1
                tr.misses = 0
                tr.last_seen_t = t
                if tr.state is TrackState.TENTATIVE and tr.hits >= cfg.n_init:
                    tr.state = TrackState.CONFIRMED
                tr.history.append((t, *tr.xy, True))
                matched_tracks.add(id(tr))
                matched_dets.add(j)
        for tr in live:
            if id(tr) in matched_tracks:
                continue
            tr.misses += 1
            moving = tr.speed >= cfg.rest_speed_mm_s
            if tr.state is TrackState.TENTATIVE:
                tr.state = TrackState.GONE  # never became a ball
                continue
            last = next((h for h in reversed(tr.history) if h[3]), None)
            in_jaws = last is not None and self._in_jaws((last[1], last[2]))
            near = self._nearest_pocket((last[1], last[2])) if last else None
            off = last is not None and not self.table.on_table((last[1], last[2]))
            if ((moving and (near or off)) or in_jaws) and tr.misses > cfg.max_misses_moving:
                # Gone: a moving ball that vanished at a pocket or over a cushion, or a slow one that dropped
                # from the jaws of a pocket.
                tr.state = TrackState.GONE
                tr.gone_near = near
                continue
            if moving and tr.misses > cfg.max_misses_moving:
                # Lost in the open (a blur the detector missed, an arm over it): it is still on the table.
                # Stop guessing its path; the next sighting of its look picks it up wherever it is.
                tr.lost = True
                tr.kf.x[2:, 0] = 0.0
                moving = False
            if not moving:
                # Hidden at rest: hold it where it stopped (no drift from a stale velocity).
                tr.kf.x[2:, 0] = 0.0
            tr.history.append((t, *tr.xy, False))
        for j in det_idx:
            if int(j) in matched_dets:
                continue
            cls = int(detections.cls[j])
            ball = self._free_id(cls)
            if ball is None:
                lost = [
                    tr for tr in self.tracks if tr.cls == cls and tr.lost and tr.state is TrackState.CONFIRMED
                ]
                if lost:  # a lost look-alike seen again, further than the gate
                    tr = min(lost, key=lambda tr: math.dist(tr.xy, det_xy[j]))
                    tr.kf = _kalman((float(det_xy[j, 0]), float(det_xy[j, 1])), cfg)
                    tr.lost, tr.misses, tr.last_seen_t = False, 0, t
                    tr.history.append((t, *tr.xy, True))
                    matched_tracks.add(id(tr))
                continue  # more balls of this look than the game has: a false detection
            xy = (float(det_xy[j, 0]), float(det_xy[j, 1]))
            tr = Track(ball, cls, _kalman(xy, cfg), last_seen_t=t)
            tr.history.append((t, *xy, True))
            if cfg.n_init <= 1:
                tr.state = TrackState.CONFIRMED
            self.tracks.append(tr)
        return self.views(matched_tracks)

    def views(self, measured: set[int] | None = None) -> list[TrackView]:
        measured = measured or set()
        return [
            TrackView(
                tr.ball,
                tr.xy,
                tr.velocity,
                tr.state,
                id(tr) in measured,
                tr.speed >= self.config.rest_speed_mm_s,
                tr.lost,
            )
            for tr in self.tracks
            if tr.state is TrackState.CONFIRMED
        ]

    def gone(self) -> Sequence[Track]:
        return [tr for tr in self.tracks if tr.state is TrackState.GONE and tr.hits >= self.config.n_init]
