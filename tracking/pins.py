"""Five-pins: which pins fell, when, and which ball knocked them (``pin_down`` events).

A pin is watched on its own spot (the table's ``PinSpec``). It is called down when its standing shape has
been missing from the spot for ``down_frames`` frames in a row *and* a ball passed within reach of the spot
just before: a pin only falls when a ball hits it, so an arm or the cue over a pin (the same missing shape)
is not a fall. The ball that came nearest in that moment is the one that knocked it (``by``), and the fall
is timed when it touched the pin (a ball over the pin hides it, so the pin is first seen missing a few frames
after it was hit), or at the first frame missing if that was earlier (and within ``memory_s``);
``pending_from`` tells the event stream how far back a fall not called yet may still be timed. A pin seen
standing again (re-stood between shots) is watched afresh.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

import numpy as np

from arbiter import contract as c
from arbiter.tables import TableModel
from tracking.track import TrackView


@dataclass(frozen=True)
class PinConfig:
    """``match_mm``: a standing-pin detection this close to a spot is that pin (pins stand 1.5 ball
    diameters apart, detections are a few mm off). ``down_frames``: frames missing before a fall is called
    (fewer: faster, but a flicker of the detector becomes a fall). ``reach_mm`` beyond ball radius plus pin
    base: how near a ball must pass (tracking error included). ``memory_s``: how far back a passing ball
    counts. ``stand_frames``: frames a pin must be seen standing on its spot, in a row, before it is
    watched: a pin is stood up by hand between shots and then stays, while a fallen pin rolling past its spot
    can look like a standing one for a frame or two (that must not make it fall twice)."""

    match_mm: float = 25.0
    down_frames: int = 4
    reach_mm: float = 20.0
    memory_s: float = 0.4
    stand_frames: int = 20

    def __post_init__(self) -> None:
        if (
            self.match_mm <= 0
            or self.reach_mm < 0
            or self.memory_s <= 0
            or self.down_frames < 1
            or self.stand_frames < 1
        ):
            raise ValueError(f"PinConfig needs positive distances, times and frame counts (got {self})")


@dataclass
class _Pin:
    id: str
    xy_mm: np.ndarray
    standing: bool = False  # seen standing (stand_frames in a row) since it was last called down
    down: bool = False  # called down, not seen standing again since
    seen_frames: int = 0  # consecutive frames seen standing
    missing_since: float | None = None
    missing_frames: int = 0


class PinWatch:
    """Feed ``update`` every frame with the standing pins detected and the tracked balls."""

    def __init__(self, table: TableModel, config: PinConfig | None = None) -> None:
        self.config = config or PinConfig()
        self.reach_mm = table.ball_radius_mm + max((p.base_diameter_mm for p in table.pins), default=0) / 2
        self.reach_mm += self.config.reach_mm
        # A ball touches a standing pin at its head: centres this far apart (as the synthetic world knocks).
        self.contact_mm = table.ball_radius_mm + max((p.head_diameter_mm for p in table.pins), default=0) / 2
        self._pins = [_Pin(p.id, np.asarray(p.xy_mm, dtype=float)) for p in table.pins]
        self._balls: deque[tuple[float, dict[str, tuple[float, float]]]] = deque()

    def update(self, t: float, standing_xy_mm: np.ndarray, views: list[TrackView]) -> list[c.PinDown]:
        """``standing_xy_mm`` (N, 2): standing pins detected in this frame. Returns the falls called now."""
        cfg = self.config
        self._balls.append((t, {v.ball: v.xy_mm for v in views}))
        while self._balls and t - self._balls[0][0] > cfg.memory_s:
            self._balls.popleft()
        standing = np.asarray(standing_xy_mm, dtype=float).reshape(-1, 2)
        falls = []
        for pin in self._pins:
            seen = bool(len(standing)) and float(np.min(np.hypot(*(standing - pin.xy_mm).T))) <= cfg.match_mm
            if seen:
                pin.seen_frames += 1
                pin.missing_since, pin.missing_frames = None, 0
                pin.standing = pin.standing or pin.seen_frames >= cfg.stand_frames
                pin.down = pin.down and not pin.standing
                continue
            pin.seen_frames = 0
            if not pin.standing:
                continue
            if pin.missing_since is None:
                pin.missing_since = t
            pin.missing_frames += 1
            if pin.missing_frames < cfg.down_frames:
                continue
            nearest = self._nearest_ball(pin)
            if nearest is None:  # nothing came near: something is over the pin, it did not fall
                continue
            by, t_hit = nearest
            since = max(pin.missing_since, t - cfg.memory_s)  # an arm over it long before is not the fall
            falls.append(c.PinDown(t=round(min(t_hit, since), 6), pin=pin.id, by=by))
            pin.standing, pin.down, pin.missing_since, pin.missing_frames = False, True, None, 0
        return falls

    def status(self) -> dict[str, str]:
        """Each pin as the watch has it: "standing" (watched), "down" (called down, not stood up again) or
        "unknown" (not yet seen standing long enough to be watched): what the annotated video shows."""
        return {p.id: "standing" if p.standing else "down" if p.down else "unknown" for p in self._pins}

    def pending_from(self) -> float:
        """The earliest time a fall not called yet may still be timed at (inf: none can): the first moment
        in memory a ball was within reach of a pin standing, or a missing pin's first frame missing. The
        event stream holds back what comes after it, so that a fall called late keeps its own time."""
        if not self._balls:
            return math.inf
        floor = self._balls[-1][0] - self.config.memory_s
        earliest = math.inf
        for pin in self._pins:
            if not pin.standing:
                continue
            if pin.missing_since is not None:
                earliest = min(earliest, max(pin.missing_since, floor))
            for t, balls in self._balls:
                if t >= earliest:
                    break
                if any(
                    math.hypot(x - pin.xy_mm[0], y - pin.xy_mm[1]) <= self.reach_mm for x, y in balls.values()
                ):
                    earliest = t
                    break
        return earliest

    def _nearest_ball(self, pin: _Pin) -> tuple[str, float] | None:
        """The ball that came nearest the pin in the last ``memory_s``, and when it touched it (``_touched``);
        None if none came within reach."""
        best, best_d = None, math.inf
        for _, balls in self._balls:
            for ball, xy in balls.items():
                d = math.hypot(xy[0] - pin.xy_mm[0], xy[1] - pin.xy_mm[1])
                if d <= best_d:
                    best, best_d = ball, d
        if best is None or best_d > self.reach_mm:
            return None
        return best, self._touched(pin, best)

    def _touched(self, pin: _Pin, ball: str) -> float:
        """When ``ball`` first came to ``contact_mm`` of the pin in memory, between the two frames around it
        (the pin does not turn the ball, which goes on nearer: its nearest approach is a frame or two late);
        its nearest approach (the latest, for a ball at rest beside the pin) where it never came that near;
        inf where it touched it all along (the first frame missing times that fall)."""
        prev: tuple[float, float] | None = None
        nearest_t, nearest_d = math.inf, math.inf
        for t, balls in self._balls:
            if ball not in balls:
                continue
            xy = balls[ball]
            d = math.hypot(xy[0] - pin.xy_mm[0], xy[1] - pin.xy_mm[1])
            if d <= self.contact_mm:
                if prev is None:  # touching it all along (at rest against it): when is not seen here
                    return math.inf
                t0, d0 = prev
                return t0 + (t - t0) * (d0 - self.contact_mm) / (d0 - d)
            if d <= nearest_d:
                nearest_t, nearest_d = t, d
            prev = (t, d)
        return nearest_t
