"""Score a stage's output against the synthetic world's truth: events now, tracks and detections beside.

Events are matched one to one by type, the balls involved and time: a predicted event matches a true one
of the same type and balls (for ``ball_ball`` the unordered pair; the order is scored apart) within
``tolerance_s``, nearest first. Per type: precision, recall; for ball-ball contacts also the time error
and whether the moving ball was named first; per shot: the first contact of the cue ball.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from arbiter import contract as c

EVENT_TYPES = ("shot_start", "ball_ball", "cushion", "pocket", "off_table", "pin_down", "shot_end")
# Matching windows: a contact must be found within two frames at 60 fps; a shot's start and end are
# softer (the end is "everything has stopped", which a camera sees late by nature).
TOLERANCE_S = {
    "shot_start": 0.1,
    "ball_ball": 0.034,
    "cushion": 0.05,
    "pocket": 0.25,
    "off_table": 0.25,
    "pin_down": 0.1,
    "shot_end": 1.0,
}


def _key(event: object) -> tuple:
    match event:
        case c.BallBall():
            return (frozenset(event.balls),)
        case c.Cushion():
            return (event.ball, event.side)
        case c.Pot():
            return (event.ball, event.pocket)
        case c.ShotStart() | c.OffTable():
            return (event.ball,)
        case c.PinDown():
            return (event.pin,)
    return ()


@dataclass
class EventScore:
    """Counts over many shots; ``as_dict`` gives the figures."""

    tp: dict[str, int]
    fp: dict[str, int]
    fn: dict[str, int]
    contact_dt: list[float]
    order_right: int
    order_total: int
    first_right: int
    first_total: int

    @classmethod
    def new(cls) -> EventScore:
        return cls(defaultdict(int), defaultdict(int), defaultdict(int), [], 0, 0, 0, 0)

    def add(self, truth: Iterable[object], predicted: Iterable[object]) -> None:
        truth = [e for e in truth if getattr(e, "TYPE", None) in EVENT_TYPES]
        predicted = [e for e in predicted if getattr(e, "TYPE", None) in EVENT_TYPES]
        used: set[int] = set()
        for ev in truth:
            tol = TOLERANCE_S[ev.TYPE]
            best, best_dt = None, tol
            for j, pe in enumerate(predicted):
                if j in used or pe.TYPE != ev.TYPE or _key(pe) != _key(ev):
                    continue
                dt = abs(pe.t - ev.t)
                if dt <= best_dt:
                    best, best_dt = j, dt
            if best is None:
                self.fn[ev.TYPE] += 1
                continue
            used.add(best)
            self.tp[ev.TYPE] += 1
            if ev.TYPE == "ball_ball":
                self.contact_dt.append(predicted[best].t - ev.t)
                self.order_total += 1
                self.order_right += predicted[best].balls == ev.balls
        for j, pe in enumerate(predicted):
            if j not in used:
                self.fp[pe.TYPE] += 1
        self.first_total += 1
        self.first_right += first_contact(truth) == first_contact(predicted)

    def as_dict(self) -> dict:
        per_type = {}
        for t in EVENT_TYPES:
            tp, fp, fn = self.tp[t], self.fp[t], self.fn[t]
            if tp + fp + fn == 0:
                continue
            per_type[t] = {
                "precision": round(tp / (tp + fp), 4) if tp + fp else None,
                "recall": round(tp / (tp + fn), 4) if tp + fn else None,
                "true": tp + fn,
                "found": tp + fp,
            }
        dt = np.abs(np.array(self.contact_dt)) * 1000
        return {
            "events": per_type,
            "first_contact_accuracy": round(self.first_right / self.first_total, 4)
            if self.first_total
            else None,
            "moving_ball_first": round(self.order_right / self.order_total, 4) if self.order_total else None,
            "contact_time_error_ms": {
                "mean": round(float(dt.mean()), 2) if len(dt) else None,
                "p95": round(float(np.percentile(dt, 95)), 2) if len(dt) else None,
            },
            "shots": self.first_total,
        }


def first_contact(events: Iterable[object]) -> str | None:
    """The ball the cue ball hit first in a shot, None when it hit none (a miss)."""
    events = list(events)
    start = next((e for e in events if isinstance(e, c.ShotStart)), None)
    if start is None:
        return None
    return next(
        (
            e.balls[1]
            for e in events
            if isinstance(e, c.BallBall) and e.balls[0] == start.ball and e.t >= start.t
        ),
        None,
    )


@dataclass
class TrackScore:
    """CLEAR-MOT counts over frames (Bernardin & Stiefelhagen 2008): misses, false positives and identity
    switches against the truth, with matches within ``match_mm``. MOTA = 1 - (FN + FP + IDSW) / GT."""

    match_mm: float
    gt: int = 0
    fn: int = 0
    fp: int = 0
    idsw: int = 0
    dist_sum: float = 0.0
    matches: int = 0

    def __post_init__(self) -> None:
        self._last: dict[str, str] = {}
        self._votes: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))

    def add_frame(
        self, truth: dict[str, tuple[float, float]], predicted: dict[str, tuple[float, float]]
    ) -> None:
        from scipy.optimize import linear_sum_assignment

        t_ids, p_ids = list(truth), list(predicted)
        self.gt += len(t_ids)
        if not t_ids or not p_ids:
            self.fn += len(t_ids)
            self.fp += len(p_ids)
            return
        tx = np.array([truth[i] for i in t_ids])
        px = np.array([predicted[i] for i in p_ids])
        d = np.linalg.norm(tx[:, None] - px[None], axis=-1)
        # Keep last frame's pairs when still close (CLEAR-MOT), then solve the rest by distance.
        cost = np.where(d <= self.match_mm, d, 1e9)
        for a, t_id in enumerate(t_ids):
            prev = self._last.get(t_id)
            if prev in predicted:
                b = p_ids.index(prev)
                if d[a, b] <= self.match_mm:
                    cost[a, b] = -1.0
        rows, cols = linear_sum_assignment(cost)
        matched_t, matched_p = set(), set()
        for a, b in zip(rows, cols, strict=True):
            if cost[a, b] >= 1e9:
                continue
            t_id, p_id = t_ids[a], p_ids[b]
            matched_t.add(t_id)
            matched_p.add(p_id)
            if t_id in self._last and self._last[t_id] != p_id:
                self.idsw += 1
            self._last[t_id] = p_id
            self._votes[p_id][t_id] += 1
            self.dist_sum += float(d[a, b])
            self.matches += 1
        self.fn += len(t_ids) - len(matched_t)
        self.fp += len(p_ids) - len(matched_p)

    def identity_map(self) -> dict[str, str]:
        """Each predicted id's most frequent true id: to read predicted events in the truth's names."""
        return {p: max(v, key=v.get) for p, v in self._votes.items()}

    def as_dict(self) -> dict:
        return {
            "mota": round(1 - (self.fn + self.fp + self.idsw) / self.gt, 4) if self.gt else None,
            "id_switches": self.idsw,
            "misses": self.fn,
            "false_positives": self.fp,
            "mean_error_mm": round(self.dist_sum / self.matches, 2) if self.matches else None,
            "truth_objects": self.gt,
        }


def rename(event: object, ids: dict[str, str]) -> object:
    """The event with its ball ids read through ``ids`` (unknown ids stay)."""
    from dataclasses import replace

    match event:
        case c.BallBall():
            return replace(event, balls=tuple(ids.get(b, b) for b in event.balls))
        case c.ShotStart() | c.Cushion() | c.Pot() | c.OffTable():
            return replace(event, ball=ids.get(event.ball, event.ball))
        case c.PinDown():
            return replace(event, by=ids.get(event.by, event.by))
        case c.ShotEnd():
            return replace(event, positions={ids.get(b, b): xy for b, xy in event.positions.items()})
    return event
