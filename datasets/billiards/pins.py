"""Five-pins knock-downs, modelled on top of the engine's ball trajectories (pooltool has no pins).

The model, said plainly: a pin falls the first time a ball centre comes within contact distance of it (the
ball radius plus half the pin's head). The struck pin is thrown along the ball's direction of travel, a
distance that grows with the ball's speed, and knocks down any standing pin it passes within contact
distance of (a pin toppling a neighbour). Pins never deflect or slow a ball, and a pin that is only
nudged (rules text: "moved but still standing, the referee puts it back") is not modelled.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from arbiter.tables import PinSpec, TableModel

from .physics import ShotTrace
from .scene import XY, PinState

# Sampling step for the ball-pin distance: a ball at 8 m/s moves 8 mm a step, a quarter of its radius;
# the contact time is then refined linearly between the two samples around it.
STEP_S = 0.001
# A thrown pin travels this long at the striking ball's speed before it lies still, within the bounds.
THROW_TIME_S = 0.03
THROW_MIN_MM, THROW_MAX_MM = 25.0, 180.0


@dataclass(frozen=True)
class PinFall:
    pin: str
    t: float
    by: str  # the ball, or the pin, that knocked it down
    rest_xy_mm: XY
    angle_rad: float


def _contact_mm(table: TableModel, pin: PinSpec) -> float:
    return table.ball_radius_mm + pin.head_diameter_mm / 2


def knockdowns(trace: ShotTrace) -> tuple[PinFall, ...]:
    """Every pin that falls during the shot, in time order."""
    table = trace.table
    if not table.pins:
        return ()
    times = np.arange(0.0, trace.duration_s + STEP_S, STEP_S)
    frames = trace.states_at(times)
    ids = [b.id for b in frames[0]]
    xy = np.array([[b.xy_mm for b in f] for f in frames])  # (T, balls, 2)
    on = np.array([[b.on_table for b in f] for f in frames])
    falls: dict[str, PinFall] = {}
    for pin in table.pins:
        d = np.linalg.norm(xy - np.asarray(pin.xy_mm), axis=-1)
        d[~on] = np.inf
        hit = d < _contact_mm(table, pin)
        if not hit.any():
            continue
        first_t = np.argmax(hit, axis=0)
        candidates = [(int(first_t[k]), k) for k in range(len(ids)) if hit[:, k].any()]
        ti, k = min(candidates)
        if ti == 0:  # a ball placed touching a pin: the layouts never do this
            continue
        # Linear refinement of the contact time between the samples before and at contact.
        d0, d1 = d[ti - 1, k], d[ti, k]
        frac = (d0 - _contact_mm(table, pin)) / (d0 - d1) if d0 != d1 else 1.0
        t = float(times[ti - 1] + frac * STEP_S)
        v = (xy[ti, k] - xy[ti - 1, k]) / STEP_S
        speed = float(np.hypot(*v))
        angle = math.atan2(v[1], v[0])
        throw = min(THROW_MAX_MM, max(THROW_MIN_MM, speed * THROW_TIME_S))
        rest = (pin.xy_mm[0] + throw * math.cos(angle), pin.xy_mm[1] + throw * math.sin(angle))
        falls[pin.id] = PinFall(pin.id, t, ids[k], rest, angle)
    # A falling pin knocks standing neighbours in its path; repeat until nothing more falls.
    changed = True
    while changed:
        changed = False
        for fall in sorted(falls.values(), key=lambda f: f.t):
            start = next(p.xy_mm for p in table.pins if p.id == fall.pin)
            for other in table.pins:
                if other.id in falls:
                    continue
                reach = other.base_diameter_mm / 2 + other.height_mm / 2
                dist, u = _segment_distance(other.xy_mm, start, fall.rest_xy_mm)
                if dist < reach:
                    t = fall.t + u * THROW_TIME_S
                    rest = (
                        other.xy_mm[0] + other.height_mm * math.cos(fall.angle_rad),
                        other.xy_mm[1] + other.height_mm * math.sin(fall.angle_rad),
                    )
                    falls[other.id] = PinFall(other.id, t, fall.pin, rest, fall.angle_rad)
                    changed = True
    return tuple(sorted(falls.values(), key=lambda f: f.t))


def _segment_distance(p: XY, a: XY, b: XY) -> tuple[float, float]:
    """Distance from ``p`` to segment ``a``-``b`` and the fraction along it of the nearest point."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    u = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    return math.hypot(ax + u * dx - p[0], ay + u * dy - p[1]), u


def pins_at(table: TableModel, falls: tuple[PinFall, ...], t: float) -> tuple[PinState, ...]:
    """Every pin's state at shot time ``t``."""
    fallen = {f.pin: f for f in falls if f.t <= t}
    out = []
    for pin in table.pins:
        f = fallen.get(pin.id)
        out.append(PinState(pin.id, f.rest_xy_mm, True, f.angle_rad) if f else PinState(pin.id, pin.xy_mm))
    return tuple(out)
