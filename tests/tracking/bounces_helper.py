"""A ball rolling on a table and reflected off its cushions, sampled as a camera would see it, and its
cushions as the event detector reports them: for the tests of reading cushions (side by side, unfolded)."""

from __future__ import annotations

import numpy as np

from arbiter import contract as c
from arbiter.games import billiards
from tracking.events import EventDetector
from tracking.track import TrackState, TrackView

SPEC = billiards("snooker")
TABLE = SPEC.table
R = TABLE.ball_radius_mm
FPS = 60.0
NOISE_MM = 1.0


def reflected(start, velocity, seconds, restitution=0.8, slowing_mm_s2=0.0):
    """Positions every 1/FPS s of a ball rolling from ``start`` (slowing by ``slowing_mm_s2``) and reflected
    off the ball lines (losing a part of its speed across the cushion), and the true (t, side) of every
    contact, found on a fine step."""
    lo = np.array([R, R])
    hi = np.array([TABLE.width_mm - R, TABLE.length_mm - R])
    names = (("left", "bottom"), ("right", "top"))
    p, v = np.array(start, float), np.array(velocity, float)
    dt = 1e-4
    contacts, samples = [], []
    for n in range(round(seconds / dt) + 1):
        t = n * dt
        if n % round(1 / FPS / dt) == 0:
            samples.append((t, float(p[0]), float(p[1])))
        speed = float(np.hypot(*v))
        v = v * max(speed - slowing_mm_s2 * dt, 0.0) / speed if speed else v
        p = p + v * dt
        for axis in (0, 1):
            for bound, beyond, name in ((lo, -1, names[0][axis]), (hi, 1, names[1][axis])):
                if (p[axis] - bound[axis]) * beyond > 0 and v[axis] * beyond > 0:
                    p[axis] = 2 * bound[axis] - p[axis]
                    v[axis] = -v[axis] * restitution
                    contacts.append((t, name))
    return samples, contacts


def noisy(samples, seed=0):
    rng = np.random.default_rng(seed)
    return [(t, x + rng.normal(0, NOISE_MM), y + rng.normal(0, NOISE_MM)) for t, x, y in samples]


def unseen(samples, t0, t1):
    return [s for s in samples if not t0 <= s[0] <= t1]


def detect_cushions(samples, t_end):
    """One ball's sightings fed to the event detector as the tracker would give them (unseen frames are
    predicted views, not measured); the cushions it reports."""
    detector = EventDetector(SPEC)
    seen = {round(t * FPS): (x, y) for t, x, y in samples}
    out, views, last = [], [], samples[0][1:]
    for n in range(round(t_end * FPS) + 1):
        xy = seen.get(n)
        last = xy or last
        views = [TrackView("red:1", last, (0.0, 0.0), TrackState.CONFIRMED, xy is not None, True)]
        out += detector.update(n / FPS, views, [])
    out += detector.finish(t_end, views)
    return [e for e in out if isinstance(e, c.Cushion)]
