"""Plan varied, plausible shots: what a player meant (the intent) and the cue strike that tries it.

Intents aim like a player does, with the ghost-ball method; the physics decides what actually happens, and
the outcome (pots, in-offs, kisses, misses...) is read back from the simulated contacts, never assumed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from arbiter.balls import kind
from arbiter.games import BilliardsSpec
from arbiter.tables import Pocket, TableModel

from .physics import Strike, simulate
from .world import AIM_ERROR_DEG, BreakShot, world_of

XY = tuple[float, float]

INTENTS = ("break", "pot", "double", "plant", "in_off", "safety", "miss", "power")
# Cue speeds in m/s: a touch, a normal shot, a power shot, a break. Pooltool's ranges from its own AI.
SPEEDS = {"soft": (0.4, 1.2), "medium": (1.2, 3.0), "hard": (3.0, 5.5), "break": (6.0, 8.5)}
POCKET_AIM_DEPTH = 1.0  # ball radii behind the mouth
HEADING_WINDOW_S = 0.01  # the potter's departure direction is read over its first 10 ms
HEADING_TOLERANCE_DEG = 0.05
SECANT_STEP_DEG = 0.2
ROLL_DECEL = 0.098  # pooltool's rolling resistance times g (u_r = 0.01)
SLIDE_LOSS = 1.4  # a struck ball keeps 5/7 of its speed once it rolls


@dataclass(frozen=True)
class PlannedShot:
    intent: str
    strike: Strike
    target: str | None = None  # the object ball aimed at first
    pocket: str | None = None  # the pocket the intent aims for
    potter: str | None = None  # the ball meant to drop (the cue ball for an in-off)
    heading_deg: float | None = None  # the direction the potter must leave its contact in


class _Aim(NamedTuple):
    """One makeable try at an aimed intent."""

    difficulty: float  # grows with distance, cut and approach angle
    intent: str
    target: str  # the first ball hit
    pocket: str
    potter: str  # the ball meant to drop
    phi_deg: float  # the cue ball's direction
    legs_mm: tuple[float, ...]  # the legs of the path, cue ball first
    heading_deg: float  # the direction the potter must leave its contact in


def _pocket_aim(pocket: Pocket, r: float) -> XY:
    """Where a player aims to pot into ``pocket``: behind the mouth along the pocket's axis, so that balls
    arriving at an angle clear the near jaw (the effective opening shrinks with the approach angle)."""
    depth = POCKET_AIM_DEPTH * r
    return (
        pocket.mouth_xy_mm[0] - pocket.inward[0] * depth,
        pocket.mouth_xy_mm[1] - pocket.inward[1] * depth,
    )


def _approach_deg(pocket: Pocket, obj: XY) -> float:
    """Angle between the pocket's axis and the line from its mouth to the ball."""
    dx, dy = obj[0] - pocket.mouth_xy_mm[0], obj[1] - pocket.mouth_xy_mm[1]
    cos = (dx * pocket.inward[0] + dy * pocket.inward[1]) / max(math.hypot(dx, dy), 1e-9)
    return math.degrees(math.acos(max(-1.0, min(1.0, cos))))


def _max_approach_deg(pocket: Pocket, ball_mm: float) -> float:
    """The widest approach a pocket accepts grows with its slack over the ball: about 22 degrees for a
    pyramid corner (4.5 mm of slack), 37 for snooker, 45 for a pool corner; middles take more."""
    slack = pocket.opening_mm - ball_mm
    return min(45.0, 20.0 + 0.5 * slack) if pocket.corner else min(55.0, 25.0 + 0.5 * slack)


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


def _speed_for(rng: np.random.Generator, *legs_mm: float) -> float:
    """A speed that carries the balls over the legs of the shot, with a player's margin on top.

    A rolling ball slows at about ``ROLL_DECEL`` m/s^2; the first leg is the cue ball's, every later leg
    gets roughly half the energy at a contact, and the cue ball loses a third of its speed while it slides.
    """
    path_m = sum(leg * (2.0**i) for i, leg in enumerate(legs_mm)) / 1000.0
    base = math.sqrt(2 * ROLL_DECEL * path_m) * SLIDE_LOSS
    return float(np.clip(base * rng.uniform(1.2, 2.5), SPEEDS["soft"][0], SPEEDS["hard"][1]))


def _spin(rng: np.random.Generator) -> tuple[float, float]:
    """Tip offset: mostly on the vertical axis (follow or screw), sometimes a touch of side, which squirts
    the cue ball off line, so players use little of it on a pot."""
    if rng.random() < 0.7:
        return 0.0, float(rng.uniform(-0.4, 0.4))
    return float(rng.uniform(-0.25, 0.25)), float(rng.uniform(-0.4, 0.4))


def plan(
    spec: BilliardsSpec,
    layout: dict[str, XY],
    intent: str,
    rng: np.random.Generator,
    cue_ball: str | None = None,
) -> PlannedShot:
    """A strike for ``intent`` from ``layout``. Falls back to a plain shot at a ball when the intent has no
    clear line (no pottable ball, no pocket for a double), and names the intent it really used."""
    if intent not in INTENTS:
        raise ValueError(f"unknown shot intent {intent!r}; choose one of {', '.join(INTENTS)}")
    table = spec.table
    cue = cue_ball or spec.cue_ball
    r = table.ball_radius_mm
    c = layout[cue]
    objects = [b for b in layout if b != cue]
    err = float(rng.normal(0.0, AIM_ERROR_DEG))
    side, follow = _spin(rng)

    def strike(
        phi: float, speed: float | str, a: float = side, b: float = follow, aimed: bool = False
    ) -> Strike:
        """``speed`` in m/s, or the name of a speed band to draw from. Aimed shots get their error after
        ``refine_aim`` has found the line, like a player who knows the table but not his own cue arm."""
        v = _speed(rng, speed) if isinstance(speed, str) else speed
        return Strike(cue, v, (phi + (0.0 if aimed else err)) % 360, 0.0, a, b)

    if intent == "break" or not objects:
        if not objects:
            return PlannedShot("miss", strike(float(rng.uniform(0, 360)), "medium"))
        return _BREAKS[world_of(spec).opening.shot](spec, layout, cue, objects, rng)

    if intent in ("pot", "double", "plant", "in_off") and table.pockets:
        options = _aimed_options(table, layout, cue, intent, rng)
        if options:
            # A player takes one of the easiest shots on, not the first he sees.
            options.sort(key=lambda o: o.difficulty)
            _, kind, target, pocket, potter, phi, legs, heading = options[
                int(rng.integers(min(3, len(options))))
            ]
            b = float(rng.uniform(-0.3, 0.0)) if kind == "in_off" else follow
            a = 0.0 if kind == "in_off" else side
            planned_strike = strike(phi, _speed_for(rng, *legs), a, b, aimed=True)
            return PlannedShot(kind, planned_strike, target, pocket, potter, heading)
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


def _plants(
    table: TableModel, layout: dict[str, XY], cue: str, target: str, pocket: Pocket, approach: float
) -> list[_Aim]:
    """Plants into ``pocket``: a first ball hit into ``target`` so that the target goes to the pocket."""
    r = table.ball_radius_mm
    c, t = layout[cue], layout[target]
    mouth = _pocket_aim(pocket, r)
    g2 = _ghost(t, mouth, r)
    if not _path_clear(t, mouth, layout, {target, cue}, 2 * r):
        return []
    out = []
    for first in layout:
        f = layout[first]
        if first in (cue, target) or not _path_clear(f, g2, layout, {first, target, cue}, 2 * r):
            continue
        g1 = _ghost(f, g2, r)
        if _path_clear(c, g1, layout, {cue, first}, 2 * r) and _cut_ok(c, g1, f):
            legs = (math.dist(c, g1), math.dist(f, g2), math.dist(t, mouth))
            hard = sum(legs) / 1000 + _cut_deg(c, g1, f) / 30 + approach / 15
            out.append(_Aim(hard, "plant", first, pocket.id, target, _phi(c, g1), legs, _phi(t, mouth)))
    return out


def _in_off(table: TableModel, layout: dict[str, XY], cue: str, target: str, pocket: Pocket) -> _Aim | None:
    """The cue ball off ``target`` into ``pocket``, along the tangent line of a stun contact."""
    r = table.ball_radius_mm
    c, t = layout[cue], layout[target]
    mouth = _pocket_aim(pocket, r)
    g = _in_off_ghost(t, mouth, r, c)
    if not g or not _path_clear(c, g, layout, {cue, target}, 2 * r):
        return None
    legs = (math.dist(c, g), math.dist(g, mouth))
    hard = sum(legs) / 1000 + _cut_deg(c, g, t) / 30
    return _Aim(hard, "in_off", target, pocket.id, cue, _phi(c, g), legs, _phi(g, mouth))


def _pot(
    table: TableModel,
    layout: dict[str, XY],
    cue: str,
    target: str,
    pocket: Pocket,
    approach: float,
    aim_at: XY,
    intent: str,
) -> _Aim | None:
    """``target`` sent toward ``aim_at``: the pocket itself (a pot), or its mirror in a cushion (a double)."""
    r = table.ball_radius_mm
    c, t = layout[cue], layout[target]
    g = _ghost(t, aim_at, r)
    if not _path_clear(t, aim_at, layout, {target, cue}, 2 * r):
        return None
    if not (_path_clear(c, g, layout, {cue, target}, 2 * r) and _cut_ok(c, g, t)):
        return None
    legs = (math.dist(c, g), math.dist(t, aim_at))
    hard = sum(legs) / 1000 + _cut_deg(c, g, t) / 30 + approach / 15
    return _Aim(hard, intent, target, pocket.id, target, _phi(c, g), legs, _phi(t, aim_at))


def _aimed_options(
    table: TableModel, layout: dict[str, XY], cue: str, intent: str, rng: np.random.Generator
) -> list[_Aim]:
    """Every makeable try at ``intent``. Difficulty grows with distance, cut and approach angle."""
    out: list[_Aim] = []
    for target in (b for b in layout if b != cue):
        t = layout[target]
        for p in table.pockets:
            approach = _approach_deg(p, t)
            if approach > _max_approach_deg(p, table.ball_diameter_mm):
                continue  # no player tries a pocket at this angle: the near jaw is in the way
            if intent == "plant":
                out += _plants(table, layout, cue, target, p, approach)
                continue
            aim: _Aim | None
            if intent == "in_off":
                aim = _in_off(table, layout, cue, target, p)
            else:
                mouth = _pocket_aim(p, table.ball_radius_mm)
                aim_at = _mirror_pocket(table, mouth, rng) if intent == "double" else mouth
                aim = _pot(table, layout, cue, target, p, approach, aim_at, intent)
            if aim is not None:
                out.append(aim)
    return out


def _break_off(
    spec: BilliardsSpec, layout: dict[str, XY], cue: str, objects: list[str], rng: np.random.Generator
) -> PlannedShot:
    """Snooker's break-off: from the D toward the end red of the back row on the cue ball's side, a thin
    contact on its outside half at medium pace, so the white comes off the top and side cushions back
    toward baulk."""
    table, c, r = spec.table, layout[cue], spec.table.ball_radius_mm
    reds = [b for b in objects if kind(b) == "red"] or objects
    back = max(layout[b][1] for b in reds)
    row = [b for b in reds if abs(layout[b][1] - back) < 1]
    target = (
        max(row, key=lambda b: layout[b][0])
        if c[0] >= table.width_mm / 2
        else min(row, key=lambda b: layout[b][0])
    )
    t = layout[target]
    ux, uy = _unit((t[0] - c[0], t[1] - c[1]))
    outside = 1.0 if t[0] >= table.width_mm / 2 else -1.0
    normal = (outside * uy, -outside * ux) if uy * outside > 0 else (-outside * uy, outside * ux)
    clip = 2 * r * float(rng.uniform(0.8, 0.95))
    ghost = (t[0] + normal[0] * clip, t[1] + normal[1] * clip)
    speed = float(rng.uniform(3.0, 4.5))
    side, follow = float(rng.uniform(-0.3, 0.3)), float(rng.uniform(0.0, 0.3))
    return PlannedShot("break", Strike(cue, speed, _phi(c, ghost), 0.0, side, follow), target)


def _break_at_opponent(
    spec: BilliardsSpec, layout: dict[str, XY], cue: str, objects: list[str], rng: np.random.Generator
) -> PlannedShot:
    """Five-pins: the other player's ball first."""
    c = layout[cue]
    others = [b for b in spec.cue_balls if b != cue and b in layout]
    target = others[0] if others else objects[0]
    phi = _phi(c, layout[target]) + float(rng.normal(0, 1.5))
    return PlannedShot("break", Strike(cue, _speed(rng, "medium"), phi % 360, 0.0, *_spin(rng)), target)


def _power_break(
    spec: BilliardsSpec, layout: dict[str, XY], cue: str, objects: list[str], rng: np.random.Generator
) -> PlannedShot:
    """14.1 and pyramid: a power break into the nearest ball, the apex of the rack."""
    c = layout[cue]
    target = min(objects, key=lambda b: math.dist(c, layout[b]))
    phi = _phi(c, layout[target]) + float(rng.normal(0, 0.5))
    return PlannedShot(
        "break", Strike(cue, _speed(rng, "break"), phi % 360, 0.0, 0.0, float(rng.uniform(-0.2, 0.2))), target
    )


_BREAKS = {
    BreakShot.THIN_ON_PACK: _break_off,
    BreakShot.OPPONENT_BALL: _break_at_opponent,
    BreakShot.POWER: _power_break,
}


def _cut_deg(cue: XY, ghost: XY, obj: XY) -> float:
    """The cut angle between the cue ball's line and the object ball's line."""
    v1 = (ghost[0] - cue[0], ghost[1] - cue[1])
    v2 = (obj[0] - ghost[0], obj[1] - ghost[1])
    n1, n2 = math.hypot(*v1), math.hypot(*v2)
    if n1 < 1e-6 or n2 < 1e-6:
        return 180.0
    cos = (v1[0] * v2[0] + v1[1] * v2[1]) / (n1 * n2)
    return math.degrees(math.acos(max(-1.0, min(1.0, cos))))


def _cut_ok(cue: XY, ghost: XY, obj: XY, max_cut_deg: float = 75.0) -> bool:
    """The cut is makeable."""
    return _cut_deg(cue, ghost, obj) < max_cut_deg


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


def _heading_error(
    table: TableModel, layout: dict[str, XY], strike: Strike, potter: str, heading: float
) -> float | None:
    """How far (degrees, signed) the potter leaves its first contact off ``heading`` under ``strike``,
    measured in the engine; None when it is not hit or hardly moves."""
    trace = simulate(table, layout, strike)
    cue = strike.cue_ball
    first = next(
        (
            c
            for c in trace.contacts
            if c.kind == "ball_ball" and potter in c.ids and (potter != cue or c.ids[0] == cue)
        ),
        None,
    )
    if first is None:
        return None
    start, later = trace.states_at([first.t, first.t + HEADING_WINDOW_S])
    a = next(b.xy_mm for b in start if b.id == potter)
    b = next(b.xy_mm for b in later if b.id == potter)
    if math.dist(a, b) < 1.0:
        return None
    return (_phi(a, b) - heading + 180.0) % 360.0 - 180.0


def refine_aim(
    spec: BilliardsSpec,
    layout: dict[str, XY],
    planned: PlannedShot,
    rng: np.random.Generator,
    iterations: int = 5,
) -> PlannedShot:
    """Correct an aimed shot for throw and squirt the way a practised player does, then add his aiming error.

    The ghost-ball line ignores the friction between the balls (throw) and the cue ball's deflection
    under side spin, which together move the object ball a few degrees: enough to miss a pocket. Secant
    steps on the cue direction bring the potter's departure heading onto the intended one, measured in the
    engine itself."""
    potter, heading = planned.potter, planned.heading_deg
    if potter is None or heading is None:
        return planned

    def error(phi: float) -> float | None:
        return _heading_error(spec.table, layout, replace(planned.strike, phi_deg=phi % 360), potter, heading)

    phi0 = planned.strike.phi_deg
    e0 = error(phi0)
    if e0 is not None and abs(e0) > HEADING_TOLERANCE_DEG:
        phi1 = phi0 + SECANT_STEP_DEG
        e1 = error(phi1)
        for _ in range(iterations):
            if e1 is None or e1 == e0 or abs(e1) <= HEADING_TOLERANCE_DEG:
                break
            phi0, e0, phi1 = phi1, e1, phi1 - e1 * (phi1 - phi0) / (e1 - e0)
            e1 = error(phi1)
        if e1 is not None and abs(e1) < abs(e0):
            phi0 = phi1
    sigma = world_of(spec).aim_error_deg
    aimed = replace(planned.strike, phi_deg=(phi0 + float(rng.normal(0.0, sigma))) % 360)
    return replace(planned, strike=aimed)
