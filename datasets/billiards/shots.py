"""Plan varied, plausible shots: what a player meant (the intent) and the cue strike that tries it.

Intents aim like a player does, with the ghost-ball method; the physics decides what actually happens, and
the outcome (pots, in-offs, kisses, misses...) is read back from the simulated contacts, never assumed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from arbiter.balls import cue_ball_id
from arbiter.tables import TableModel

from .physics import Strike

XY = tuple[float, float]

INTENTS = ("break", "pot", "double", "plant", "in_off", "safety", "miss", "power")
# Cue speeds in m/s: a touch, a normal shot, a power shot, a break. Pooltool's ranges from its own AI.
SPEEDS = {"soft": (0.4, 1.2), "medium": (1.2, 3.0), "hard": (3.0, 5.5), "break": (6.0, 8.5)}
# Aiming error of a good amateur, in degrees: shots are tried, not guaranteed.
AIM_ERROR_DEG = 0.4


@dataclass(frozen=True)
class PlannedShot:
    intent: str
    strike: Strike
    target: str | None = None  # the object ball aimed at first
    pocket: str | None = None  # the pocket the intent aims for


def _phi(a: XY, b: XY) -> float:
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) % 360


def _unit(v: XY) -> XY:
    n = math.hypot(*v)
    return (v[0] / n, v[1] / n)


def _path_clear(a: XY, b: XY, layout: dict[str, XY], skip: set[str], clearance: float) -> bool:
    """No ball centre of ``layout`` (other than ``skip``) lies within ``clearance`` of segment ``a``-``b``."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return True
    for bid, (x, y) in layout.items():
        if bid in skip:
            continue
        u = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / length2))
        if math.hypot(ax + u * dx - x, ay + u * dy - y) < clearance:
            return False
    return True


def _ghost(obj: XY, toward: XY, r: float) -> XY:
    """Where the cue ball's centre must be at contact to send ``obj`` toward ``toward``."""
    ux, uy = _unit((toward[0] - obj[0], toward[1] - obj[1]))
    return (obj[0] - 2 * r * ux, obj[1] - 2 * r * uy)


def _mirror_pocket(table: TableModel, pocket: XY, rng: np.random.Generator) -> XY:
    """The pocket reflected in a cushion: aiming at it banks the ball off that cushion into the pocket."""
    r = table.ball_radius_mm
    side = rng.choice(["left", "right", "bottom", "top"])
    x, y = pocket
    if side == "left":
        return (-(x) + 2 * r, y)
    if side == "right":
        return (2 * (table.width_mm - r) - x, y)
    if side == "bottom":
        return (x, -(y) + 2 * r)
    return (x, 2 * (table.length_mm - r) - y)


def _speed(rng: np.random.Generator, kind: str) -> float:
    lo, hi = SPEEDS[kind]
    return float(rng.uniform(lo, hi))


def _spin(rng: np.random.Generator) -> tuple[float, float]:
    """Tip offset: mostly near the centre, sometimes side, follow or screw."""
    if rng.random() < 0.5:
        return 0.0, float(rng.uniform(-0.15, 0.15))
    return float(rng.uniform(-0.4, 0.4)), float(rng.uniform(-0.5, 0.5))


def plan(
    table: TableModel,
    layout: dict[str, XY],
    intent: str,
    rng: np.random.Generator,
    cue_ball: str | None = None,
) -> PlannedShot:
    """A strike for ``intent`` from ``layout``. Falls back to a plain shot at a ball when the intent has no
    clear line (no pottable ball, no pocket for a double), and names the intent it really used."""
    if intent not in INTENTS:
        raise ValueError(f"unknown shot intent {intent!r}; choose one of {', '.join(INTENTS)}")
    cue = cue_ball or cue_ball_id(table.game)
    r = table.ball_radius_mm
    c = layout[cue]
    objects = [b for b in layout if b != cue]
    err = float(rng.normal(0.0, AIM_ERROR_DEG))
    side, follow = _spin(rng)

    def strike(phi: float, kind: str, theta: float = 0.0, a: float = side, b: float = follow) -> Strike:
        return Strike(cue, _speed(rng, kind), (phi + err) % 360, theta, a, b)

    if intent == "break" or not objects:
        if not objects:
            return PlannedShot("miss", strike(float(rng.uniform(0, 360)), "medium"))
        return _break(table, layout, cue, objects, rng)

    pockets = list(table.pockets)
    if intent in ("pot", "double", "plant", "in_off") and pockets:
        order = [str(b) for b in rng.permutation(objects)]
        for target in order:
            t = layout[target]
            for pocket in rng.permutation(len(pockets)):
                p = pockets[int(pocket)]
                mouth = p.mouth_xy_mm
                aim_at = mouth
                if intent == "double":
                    aim_at = _mirror_pocket(table, mouth, rng)
                if intent == "plant":
                    # Hit a first ball into the target so that the target goes to the pocket.
                    g2 = _ghost(t, mouth, r)
                    for first in order:
                        if first == target:
                            continue
                        f = layout[first]
                        if not _path_clear(f, g2, layout, {first, target, cue}, 2 * r):
                            continue
                        g1 = _ghost(f, g2, r)
                        if _path_clear(c, g1, layout, {cue, first}, 2 * r) and _cut_ok(c, g1, f):
                            return PlannedShot("plant", strike(_phi(c, g1), "medium"), first, p.id)
                    continue
                if intent == "in_off":
                    g = _in_off_ghost(t, mouth, r, c)
                    if g and _path_clear(c, g, layout, {cue, target}, 2 * r):
                        return PlannedShot(
                            "in_off",
                            strike(_phi(c, g), "medium", a=0.0, b=float(rng.uniform(-0.3, 0.0))),
                            target,
                            p.id,
                        )
                    continue
                g = _ghost(t, aim_at, r)
                if not _path_clear(t, mouth if intent == "pot" else aim_at, layout, {target, cue}, 2 * r):
                    continue
                if _path_clear(c, g, layout, {cue, target}, 2 * r) and _cut_ok(c, g, t):
                    kind = str(rng.choice(["soft", "medium", "medium", "hard"]))
                    return PlannedShot(intent, strike(_phi(c, g), kind), target, p.id)
        intent = "safety"

    target = str(rng.choice(objects))
    t = layout[target]
    if intent == "safety":
        # A thin contact at touch pace: the cue ball grazes the object ball and stays near it.
        offset = math.degrees(math.asin(min(1.0, 2 * r * 0.8 / max(math.dist(c, t), 2 * r))))
        phi = _phi(c, t) + float(rng.choice([-1, 1])) * offset
        return PlannedShot("safety", strike(phi, "soft"), target)
    if intent == "miss":
        return PlannedShot("miss", strike(_phi(c, t) + float(rng.uniform(30, 330)), "medium"))
    # power: a full-blooded shot at a ball, cushions and kisses everywhere
    return PlannedShot("power", strike(_phi(c, t), "hard"), target)


def _break(
    table: TableModel, layout: dict[str, XY], cue: str, objects: list[str], rng: np.random.Generator
) -> PlannedShot:
    """The opening shot of each game: a power break into the apex ball (14.1, pyramid), a thin contact on
    an outside red of the pack at medium pace (snooker), the opponent's ball first (five-pins)."""
    c = layout[cue]
    r = table.ball_radius_mm
    if table.game == "snooker":
        reds = [b for b in objects if b.startswith("red:")] or objects
        back = max(layout[b][1] for b in reds)
        corner = [
            b for b in reds if abs(layout[b][1] - back) < 1 and abs(layout[b][0] - table.width_mm / 2) > 3 * r
        ]
        target = str(rng.choice(corner or reds))
        t = layout[target]
        thin = math.degrees(math.asin(0.85)) * (1 if t[0] > c[0] else -1)  # a half-ball-and-more thin cut
        phi = _phi(c, t) + thin * float(rng.uniform(0.02, 0.06))
        return PlannedShot(
            "break",
            Strike(
                cue,
                _speed(rng, "medium") + 1.0,
                phi % 360,
                0.0,
                float(rng.uniform(-0.3, 0.3)),
                float(rng.uniform(-0.1, 0.3)),
            ),
            target,
        )
    if table.game == "five-pins":
        target = "yellow" if cue == "white" else "white"
        target = target if target in layout else objects[0]
        phi = _phi(c, layout[target]) + float(rng.normal(0, 1.5))
        return PlannedShot("break", Strike(cue, _speed(rng, "medium"), phi % 360, 0.0, *_spin(rng)), target)
    target = min(objects, key=lambda b: math.dist(c, layout[b]))
    phi = _phi(c, layout[target]) + float(rng.normal(0, 0.5))
    return PlannedShot(
        "break", Strike(cue, _speed(rng, "break"), phi % 360, 0.0, 0.0, float(rng.uniform(-0.2, 0.2))), target
    )


def _cut_ok(cue: XY, ghost: XY, obj: XY, max_cut_deg: float = 75.0) -> bool:
    """The cut angle between the cue ball's line and the object ball's line is makeable."""
    v1 = (ghost[0] - cue[0], ghost[1] - cue[1])
    v2 = (obj[0] - ghost[0], obj[1] - ghost[1])
    n1, n2 = math.hypot(*v1), math.hypot(*v2)
    if n1 < 1e-6:
        return False
    cos = (v1[0] * v2[0] + v1[1] * v2[1]) / (n1 * n2)
    return math.degrees(math.acos(max(-1.0, min(1.0, cos)))) < max_cut_deg


def _in_off_ghost(obj: XY, pocket: XY, r: float, cue: XY) -> XY | None:
    """A contact point from which a stunned cue ball leaves along the tangent line into ``pocket``.

    After a stun contact the cue ball leaves at right angles to the line of centres, so the contact point
    G lies on the circle with diameter obj-pocket (Thales) at distance 2r from the object ball."""
    d = math.dist(obj, pocket)
    if d <= 2 * r:
        return None
    # Angle at obj between obj->pocket and obj->G: cos = 2r / d.
    base = math.atan2(pocket[1] - obj[1], pocket[0] - obj[0])
    off = math.acos(2 * r / d)
    cands = [
        (obj[0] + 2 * r * math.cos(base + s * off), obj[1] + 2 * r * math.sin(base + s * off))
        for s in (-1, 1)
    ]
    best = min(cands, key=lambda g: math.dist(g, cue))
    return best if _cut_ok(cue, best, obj, 80.0) else None
