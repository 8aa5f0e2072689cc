"""Score a stage's output against the synthetic world's truth: events now, tracks and detections beside.

Events are matched one to one by type, the balls involved and time: a predicted event matches a true one
of the same type and balls (for ``ball_ball`` the unordered pair; the order is scored apart) within
``tolerance_s``, nearest first. Per type: precision, recall; for ball-ball contacts also the time error
and whether the moving ball was named first; per shot: the first contact of the cue ball.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from arbiter import contract as c
from arbiter.balls import APPEARANCE_CLASSES, kind
from arbiter.games import BilliardsSpec
from vision.types import Detections

CameraEvent = c.ShotStart | c.BallBall | c.Cushion | c.Pot | c.OffTable | c.PinDown | c.ShotEnd
CAMERA_EVENTS: tuple[type[CameraEvent], ...] = (
    c.ShotStart, c.BallBall, c.Cushion, c.Pot, c.OffTable, c.PinDown, c.ShotEnd
)  # fmt: skip
EVENT_TYPES = tuple(e.TYPE for e in CAMERA_EVENTS)
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


def _key(event: object) -> tuple[object, ...]:
    match event:
        case c.BallBall():
            return (frozenset(event.balls),)
        case c.Cushion():
            return (event.ball, event.side)
        case c.Pot():
            # Which ball by its kind (issue 10: "pocket and colour right"): a red potted is a red potted,
            # whichever of the reds the tracker's numbering followed (the rules look at the kind only).
            return (kind(event.ball), event.pocket)
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
    first_kind_right: int = 0
    pots_right: int = 0  # shots whose pots are exactly the true ones (ball and pocket), none among them

    @classmethod
    def new(cls) -> EventScore:
        return cls(defaultdict(int), defaultdict(int), defaultdict(int), [], 0, 0, 0, 0)

    def add(self, truth: Iterable[object], predicted: Iterable[object]) -> None:
        """One shot: its true lines and the predicted ones (lines other than camera events are ignored)."""
        true_events = [e for e in truth if isinstance(e, CAMERA_EVENTS)]
        found = [e for e in predicted if isinstance(e, CAMERA_EVENTS)]
        used: set[int] = set()
        for ev in true_events:
            best = _nearest(ev, found, used)
            if best is None:
                self.fn[ev.TYPE] += 1
                continue
            used.add(best)
            self.tp[ev.TYPE] += 1
            match = found[best]
            if isinstance(ev, c.BallBall) and isinstance(match, c.BallBall):
                self.contact_dt.append(match.t - ev.t)
                self.order_total += 1
                self.order_right += match.balls == ev.balls
        for j, pe in enumerate(found):
            if j not in used:
                self.fp[pe.TYPE] += 1
        self.pots_right += _pots_right(true_events, found, used)
        self.first_total += 1
        t_first, p_first = first_contact(true_events), first_contact(found)
        self.first_right += t_first == p_first
        # The rules look at the kind only (architecture.md): which red was hit first never matters.
        self.first_kind_right += (t_first and t_first.split(":")[0]) == (p_first and p_first.split(":")[0])

    def as_dict(self) -> dict[str, Any]:
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
            # The rules look at the kind only (architecture.md): which red was hit first never matters.
            "first_contact_kind_accuracy": round(self.first_kind_right / self.first_total, 4)
            if self.first_total
            else None,
            "moving_ball_first": round(self.order_right / self.order_total, 4) if self.order_total else None,
            "contact_time_error_ms": {
                "mean": round(float(dt.mean()), 2) if len(dt) else None,
                "p95": round(float(np.percentile(dt, 95)), 2) if len(dt) else None,
            },
            # Potted or not, and which ball in which pocket, right for the whole shot: what a viewer checks.
            "shots_pots_right": round(self.pots_right / self.first_total, 4) if self.first_total else None,
            "shots": self.first_total,
        }


def _pots_right(true_events: list[CameraEvent], found: list[CameraEvent], used: set[int]) -> bool:
    """Every true pot matched (ball by its kind, and pocket) and no pot called that was not."""
    true_pots = sum(isinstance(e, c.Pot) for e in true_events)
    matched = sum(isinstance(found[j], c.Pot) for j in used)
    return matched == true_pots == sum(isinstance(e, c.Pot) for e in found)


def _nearest(ev: CameraEvent, found: list[CameraEvent], used: set[int]) -> int | None:
    """The unused found event of ``ev``'s type and balls nearest to it in time, within its tolerance."""
    best, best_dt = None, TOLERANCE_S[ev.TYPE]
    for j, pe in enumerate(found):
        if j in used or pe.TYPE != ev.TYPE or _key(pe) != _key(ev):
            continue
        dt = abs(pe.t - ev.t)
        if dt <= best_dt:
            best, best_dt = j, dt
    return best


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
        from scipy.optimize import linear_sum_assignment  # slow to import; only scoring needs it

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
        return {p: max(v, key=lambda t: v[t]) for p, v in self._votes.items()}

    def as_dict(self) -> dict[str, Any]:
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
    match event:
        case c.BallBall():
            pair = (ids.get(event.balls[0], event.balls[0]), ids.get(event.balls[1], event.balls[1]))
            # Two tracks that followed the same true ball keep their own names: the contact is then scored
            # as not found, which is what it is.
            return replace(event, balls=pair) if pair[0] != pair[1] else event
        case c.ShotStart() | c.Cushion() | c.Pot() | c.OffTable():
            return replace(event, ball=ids.get(event.ball, event.ball))
        case c.PinDown():
            return replace(event, by=ids.get(event.by, event.by))
        case c.ShotEnd():
            return replace(event, positions={ids.get(b, b): xy for b, xy in event.positions.items()})
    return event


def match_detections(det_xy: np.ndarray, true_xy: np.ndarray, true_r: np.ndarray) -> list[tuple[int, int]]:
    """One-to-one matches of detections to true balls, closest pairs first, within each true radius."""
    if len(det_xy) == 0 or len(true_xy) == 0:
        return []
    d = np.linalg.norm(det_xy[:, None, :] - true_xy[None, :, :], axis=2)
    ok = d <= true_r[None, :]
    pairs = sorted(zip(*np.nonzero(ok), strict=True), key=lambda p: d[p])
    used_d, used_t, out = set(), set(), []
    for i, j in pairs:
        if i not in used_d and j not in used_t:
            used_d.add(i)
            used_t.add(j)
            out.append((int(i), int(j)))
    return out


@dataclass
class DetectionScore:
    """Detector recall, precision and class accuracy against ``frames.jsonl``, apart for balls at rest and
    moving. Hidden balls are neither required nor counted against a detection that finds them. A ball found
    in its own blur (``Detections.blurred``) is found but not named: class accuracy is over the named."""

    spec: BilliardsSpec

    def __post_init__(self) -> None:
        self.counts: dict[str, defaultdict[str, int]] = {s: defaultdict(int) for s in ("rest", "moving")}

    def add_frame(self, record: dict[str, Any], detections: Detections) -> None:
        required = [
            (bid, b) for bid, b in record["balls"].items() if b["xy_px"] is not None and not b["hidden"]
        ]
        hidden = [b for b in record["balls"].values() if b["xy_px"] is not None and b["hidden"]]
        true_xy = np.array([b["xy_px"] for _, b in required]).reshape(-1, 2)
        true_r = np.array([b["radius_px"] for _, b in required])
        matches = match_detections(detections.xy_px, true_xy, true_r)
        for _, b in required:
            self.counts["moving" if b["moving"] else "rest"]["truth"] += 1
        matched = set()
        for i, j in matches:
            bid, b = required[j]
            state = self.counts["moving" if b["moving"] else "rest"]
            state["found"] += 1
            matched.add(i)
            if detections.blurred[i]:  # found in its own blur: placed, not named
                state["blurred"] += 1
                continue
            state["right_class"] += int(
                detections.cls[i] == APPEARANCE_CLASSES.index(self.spec.look(bid).cls)
            )
        moving_xy = np.array([b["xy_px"] for _, b in required if b["moving"]]).reshape(-1, 2)
        hidden_xy = np.array([b["xy_px"] for b in hidden]).reshape(-1, 2)
        for i in range(len(detections)):
            if i in matched:
                continue
            p = detections.xy_px[i]
            r = 2 * float(detections.radius_px[i])
            if len(hidden_xy) and np.min(np.linalg.norm(hidden_xy - p, axis=1)) < r:
                continue  # a ball the truth calls hidden, seen anyway: not a false detection
            near_moving = len(moving_xy) and np.min(np.linalg.norm(moving_xy - p, axis=1)) < 2 * r
            self.counts["moving" if near_moving else "rest"]["false"] += 1

    def as_dict(self) -> dict[str, Any]:
        out = {}
        for state, k in self.counts.items():
            found, truth, false = k["found"], k["truth"], k["false"]
            out[state] = {
                "recall": round(found / truth, 4) if truth else None,
                "precision": round(found / (found + false), 4) if found + false else None,
                "class_accuracy": round(k["right_class"] / (found - k["blurred"]), 4)
                if found > k["blurred"]
                else None,
                "found_blurred": k["blurred"],
                "balls": truth,
            }
        return out
