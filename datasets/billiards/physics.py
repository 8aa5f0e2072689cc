"""One billiard shot simulated by pooltool (the physics engine), in Arbiter's table frame and ids.

pooltool works in metres with the same axes as Arbiter's table frame (origin at the bottom-left cushion-nose
corner, y up the table), so positions only change units. It reports every ball-ball, ball-cushion and
ball-pocket contact with its exact time; this module maps them onto Arbiter's ids: pockets (pooltool's
``lb`` is Arbiter's ``bl``), cushion sides (from each cushion segment's place on the table) and the order of
the two balls of a contact (the one moving into the other first).

Not modelled, because pooltool has no such state: balls leaving the table (no airborne motion, so no
``off_table`` events), jumps, and pins (five-pins pins are modelled on top of the trajectories in
``pins.py``; a pin never deflects a ball).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from arbiter.tables import TableModel

from .scene import BallState

XY = tuple[float, float]
MM_PER_M = 1000.0
# pooltool motion states (pooltool.constants): 0 stationary, 1 spinning, 2 sliding, 3 rolling, 4 pocketed.
_POCKETED = 4
_POCKET_IDS = {"lb": "bl", "rb": "br", "lc": "ml", "rc": "mr", "lt": "tl", "rt": "tr"}
# Below this speed a ball is at rest for the camera: pooltool ends rolling exactly, so any positive
# threshold under a pixel a frame works; 1 mm/s is far below what a 60 fps camera can see.
MOVING_SPEED_MM_S = 1.0


@dataclass(frozen=True)
class Strike:
    """How the cue hits the cue ball: speed, direction ``phi_deg`` (pooltool: degrees counter-clockwise
    from +x), cue elevation, and the tip offset from centre as fractions of the radius (side ``a``,
    follow/draw ``b``)."""

    cue_ball: str
    speed_mps: float
    phi_deg: float
    theta_deg: float = 0.0
    side: float = 0.0
    follow: float = 0.0


@dataclass(frozen=True)
class Contact:
    """One contact reported by the engine, already in Arbiter's vocabulary.

    ``kind`` is ``ball_ball`` (``ids`` = moving ball, struck ball), ``cushion`` (``ids`` = (ball,),
    ``where`` = side), ``pocket`` (``where`` = pocket id) or ``stick`` (the cue strikes ``ids[0]``)."""

    kind: str
    t: float
    ids: tuple[str, ...]
    where: str | None = None
    engine_type: str = ""
    engine_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class ShotTrace:
    """A simulated shot: the layout it started from, the strike, every contact in time order and the end
    time (all balls at rest), with ball states available at any instant through ``states_at``."""

    table: TableModel
    start: Mapping[str, XY]
    strike: Strike
    contacts: tuple[Contact, ...]
    duration_s: float
    _system: object  # the simulated pooltool System, kept for exact interpolation

    @property
    def system(self) -> object:
        """The simulated pooltool ``System`` (for pooltool's own tools, such as its rulesets)."""
        return self._system

    def states_at(self, times: Sequence[float] | np.ndarray) -> list[tuple[BallState, ...]]:
        """Every ball's state at each time in ``times`` (seconds after the strike; clamped to the shot)."""
        import pooltool as pt

        raw = np.asarray(times, dtype=np.float64)
        # Before the strike the balls stand still: the engine's state at t=0 already has the cue's impulse.
        waiting = raw < 0.0
        ts = np.clip(raw, 0.0, self.duration_s)
        order = np.argsort(ts, kind="stable")
        per_ball: dict[str, list[Any]] = {}
        for bid, ball in self._system.balls.items():  # type: ignore[attr-defined]
            states = pt.interpolate_ball_states(ball, ts[order], extrapolate=True)
            unsorted: list[Any] = [None] * len(ts)
            for i, st in zip(order, states, strict=True):
                unsorted[i] = st
            per_ball[bid] = unsorted
        pocket_of = self.pocket_of()
        out = []
        for i in range(len(ts)):
            frame = []
            for bid in self.start:
                st = per_ball[bid][i]
                x, y = float(st.rvw[0][0]) * MM_PER_M, float(st.rvw[0][1]) * MM_PER_M
                speed = math.hypot(float(st.rvw[1][0]), float(st.rvw[1][1])) * MM_PER_M
                pocketed = int(st.s) == _POCKETED
                frame.append(
                    BallState(
                        bid,
                        (x, y),
                        moving=not (pocketed or waiting[i]) and speed > MOVING_SPEED_MM_S,
                        on_table=not pocketed,
                        pocket=pocket_of.get(bid) if pocketed else None,
                    )
                )
            out.append(tuple(frame))
        return out

    def pocket_of(self) -> dict[str, str]:
        return {c.ids[0]: c.where for c in self.contacts if c.kind == "pocket" and c.where}

    def final_positions(self) -> dict[str, XY]:
        """Where every ball still on the table came to rest."""
        (final,) = self.states_at([self.duration_s])
        return {b.id: b.xy_mm for b in final if b.on_table}


def _pooltool_table(table: TableModel) -> Any:
    """pooltool's table of ``table``: a carom table, or one with pockets of its openings and jaw angles."""
    import pooltool as pt
    from pooltool.objects.table.specs import BilliardTableSpecs, PocketTableSpecs

    length, width = table.length_mm / MM_PER_M, table.width_mm / MM_PER_M
    cushion_width, cushion_height = table.cushion_width_mm / MM_PER_M, table.cushion_height_mm / MM_PER_M
    if not table.pockets:
        return pt.Table.from_table_specs(
            BilliardTableSpecs(l=length, w=width, cushion_width=cushion_width, cushion_height=cushion_height)
        )
    corner = next(p for p in table.pockets if p.corner)
    middle = next(p for p in table.pockets if not p.corner)
    specs = PocketTableSpecs(
        l=length,
        w=width,
        cushion_width=cushion_width,
        cushion_height=cushion_height,
        corner_pocket_width=corner.opening_mm / MM_PER_M,
        side_pocket_width=middle.opening_mm / MM_PER_M,
        corner_pocket_angle=corner.jaw_angle_deg,
        side_pocket_angle=middle.jaw_angle_deg,
    )
    return pt.Table.from_table_specs(specs)


def _cushion_sides(pt_table: Any, table: TableModel) -> dict[str, str]:
    """Map every cushion segment id to the side of the table it belongs to, by where its middle lies."""
    w, length = table.width_mm / MM_PER_M, table.length_mm / MM_PER_M
    sides = {}
    segments = {**pt_table.cushion_segments.linear, **pt_table.cushion_segments.circular}
    for sid, seg in segments.items():
        mid = (seg.p1[:2] + seg.p2[:2]) / 2 if hasattr(seg, "p1") else np.asarray(seg.center[:2])
        dist = {"left": mid[0], "right": w - mid[0], "bottom": mid[1], "top": length - mid[1]}
        sides[sid] = min(dist, key=lambda s: abs(dist[s]))
    return sides


def _moving_first(event: Any) -> tuple[str, str]:
    """Order the two balls of a contact: the one whose velocity carries it into the other comes first."""
    a, b = event.agents
    pa, va = a.initial.state.rvw[0][:2], a.initial.state.rvw[1][:2]
    pb, vb = b.initial.state.rvw[0][:2], b.initial.state.rvw[1][:2]
    towards_b = pb - pa
    # Approach speed of each ball along the line of centres, toward the other.
    approach_a = float(np.dot(va, towards_b))
    approach_b = float(np.dot(vb, -towards_b))
    return (a.id, b.id) if approach_a >= approach_b else (b.id, a.id)


def simulate(
    table: TableModel, layout: Mapping[str, XY], strike: Strike, max_duration_s: float = 20.0
) -> ShotTrace:
    """Simulate one shot from ``layout`` (ball id -> centre in mm) with pooltool.

    Raises ``ValueError`` when the layout is not playable (balls overlapping or off the cloth): the engine
    would otherwise produce nonsense."""
    import pooltool as pt

    r = table.ball_radius_mm
    ids = list(layout)
    if strike.cue_ball not in layout:
        raise ValueError(f"cue ball {strike.cue_ball!r} is not in the layout")
    pts = np.array([layout[i] for i in ids], dtype=float)
    for i, bid in enumerate(ids):
        if not table.on_table(tuple(pts[i]), margin_mm=r * 0.999):
            raise ValueError(f"ball {bid} at {tuple(pts[i])} mm is not fully on the cloth")
    if len(ids) > 1:
        d = np.linalg.norm(pts[:, None] - pts[None], axis=-1) + np.eye(len(ids)) * 1e9
        if d.min() < 2 * r * 0.999:
            a, b = (int(k) for k in np.unravel_index(np.argmin(d), d.shape))
            raise ValueError(f"balls {ids[a]} and {ids[b]} overlap ({d[a, b]:.1f} mm apart)")

    pt_table = _pooltool_table(table)
    balls = {
        bid: pt.Ball.create(bid, xy=(x / MM_PER_M, y / MM_PER_M), R=r / MM_PER_M)
        for bid, (x, y) in layout.items()
    }
    system = pt.System(cue=pt.Cue(cue_ball_id=strike.cue_ball), table=pt_table, balls=balls)
    system.cue.set_state(
        V0=strike.speed_mps, phi=strike.phi_deg, theta=strike.theta_deg, a=strike.side, b=strike.follow
    )
    pt.simulate(system, inplace=True, t_final=max_duration_s)

    sides = _cushion_sides(pt_table, table)
    contacts = []
    for ev in system.events:
        et = ev.event_type
        kind = None
        ids_: tuple[str, ...]
        where: str | None
        if et == pt.EventType.STICK_BALL:
            kind, ids_, where = "stick", (ev.ids[1],), None
        elif et == pt.EventType.BALL_BALL:
            kind, ids_, where = "ball_ball", _moving_first(ev), None
        elif et in (pt.EventType.BALL_LINEAR_CUSHION, pt.EventType.BALL_CIRCULAR_CUSHION):
            kind, ids_, where = "cushion", (ev.ids[0],), sides[ev.ids[1]]
        elif et == pt.EventType.BALL_POCKET:
            kind, ids_, where = "pocket", (ev.ids[0],), _POCKET_IDS[ev.ids[1]]
        if kind:
            contacts.append(Contact(kind, float(ev.time), ids_, where, et.value, tuple(ev.ids)))
    duration = float(max(ev.time for ev in system.events))
    return ShotTrace(table, MappingProxyType(dict(layout)), strike, tuple(contacts), duration, system)
