"""The simulated shots: contacts in Arbiter's vocabulary equal pooltool's own event list."""

from __future__ import annotations

import math

import numpy as np
import pooltool as pt
import pytest

from arbiter.games import BILLIARDS_GAMES, billiards
from datasets.billiards import layouts, pins, shots
from datasets.billiards.physics import Strike, simulate

GAMES = tuple(s.id for s in BILLIARDS_GAMES)

ENGINE_KINDS = {
    pt.EventType.STICK_BALL: "stick",
    pt.EventType.BALL_BALL: "ball_ball",
    pt.EventType.BALL_LINEAR_CUSHION: "cushion",
    pt.EventType.BALL_CIRCULAR_CUSHION: "cushion",
    pt.EventType.BALL_POCKET: "pocket",
}


def _trace(game: str, intent: str, seed: int):
    spec = billiards(game)
    rng = np.random.default_rng(seed)
    lay = layouts.opening(spec, rng) if intent == "break" else layouts.midgame(spec, rng)
    return simulate(spec.table, lay, shots.plan(spec, lay, intent, rng).strike)


@pytest.mark.parametrize(
    ("game", "intent", "seed"),
    [
        ("snooker", "break", 1),
        ("snooker", "pot", 2),
        ("straight-pool", "break", 3),
        ("straight-pool", "power", 4),
        ("pyramid", "pot", 5),
        ("five-pins", "break", 6),
    ],
)
def test_contacts_are_the_engines_events_one_to_one(game, intent, seed):
    trace = _trace(game, intent, seed)
    engine = [e for e in trace._system.events if e.event_type in ENGINE_KINDS]
    assert len(engine) == len(trace.contacts)
    for ev, con in zip(engine, trace.contacts, strict=True):
        assert con.kind == ENGINE_KINDS[ev.event_type]
        assert con.t == ev.time
        if con.kind == "ball_ball":
            assert set(con.ids) == set(ev.ids)
        elif con.kind == "stick":
            assert con.ids == (ev.ids[1],)
        else:
            assert con.ids[0] == ev.ids[0]


def test_the_moving_ball_comes_first_and_cushion_sides_follow_the_geometry():
    table = billiards("straight-pool").table
    # cue ball straight up the table into a stationary ball, which then hits the top cushion
    trace = simulate(table, {"cue": (635.0, 400.0), "3": (635.0, 1800.0)}, Strike("cue", 3.0, 90.0))
    bb = [c for c in trace.contacts if c.kind == "ball_ball"]
    assert bb[0].ids == ("cue", "3")
    first_cushion = next(c for c in trace.contacts if c.kind == "cushion")
    assert first_cushion.ids == ("3",) and first_cushion.where == "top"
    # a ball sent left hits the left cushion
    trace = simulate(table, {"cue": (635.0, 1000.0)}, Strike("cue", 1.0, 180.0))
    assert next(c for c in trace.contacts if c.kind == "cushion").where == "left"


def test_a_straight_pot_is_reported_in_the_right_pocket():
    table = billiards("straight-pool").table
    tr = table.pocket("tr").mouth_xy_mm
    obj = (tr[0] - 300.0, tr[1] - 300.0)
    d = math.sqrt(0.5)
    ghost = (obj[0] - table.ball_diameter_mm * d, obj[1] - table.ball_diameter_mm * d)
    cue = (ghost[0] - 400.0, ghost[1] - 400.0)
    trace = simulate(table, {"cue": cue, "9": obj}, Strike("cue", 2.0, 45.0))
    pots = [c for c in trace.contacts if c.kind == "pocket"]
    assert [(c.ids[0], c.where) for c in pots] == [("9", "tr")]
    final = trace.final_positions()
    assert "9" not in final and "cue" in final


def test_states_follow_the_shot():
    trace = _trace("snooker", "power", 11)
    start, end = trace.states_at([0.0, trace.duration_s])
    assert {b.id for b in start} == set(trace.start)
    assert not any(b.moving for b in end)
    assert next(b for b in start if b.id == trace.strike.cue_ball).xy_mm == pytest.approx(
        trace.start[trace.strike.cue_ball]
    )
    potted = {c.ids[0] for c in trace.contacts if c.kind == "pocket"}
    assert {b.id for b in end if not b.on_table} == potted


@pytest.mark.parametrize(
    "bad",
    [
        {"cue": (635.0, 400.0), "1": (635.0, 420.0)},  # overlapping
        {"cue": (10.0, 400.0)},  # through the cushion
    ],
)
def test_an_unplayable_layout_is_refused(bad):
    with pytest.raises(ValueError, match=r"overlap|not fully on the cloth"):
        simulate(billiards("straight-pool").table, bad, Strike("cue", 1.0, 90.0))


def test_a_ball_through_the_pins_knocks_them_down_in_time_order():
    table = billiards("five-pins").table
    cx, cy = table.centre_xy_mm
    trace = simulate(table, {"white": (cx, cy - 600.0), "yellow": (200.0, 200.0)}, Strike("white", 2.5, 90.0))
    falls = pins.knockdowns(trace)
    assert [f.pin for f in falls][:2] == ["pin:s", "pin:c"]
    assert all(f.by == "white" or f.by.startswith("pin:") for f in falls)
    assert [f.t for f in falls] == sorted(f.t for f in falls)
    # the first contact happens when the ball is exactly at contact distance from the south pin
    south = next(p for p in table.pins if p.id == "pin:s")
    (state,) = trace.states_at([falls[0].t])
    white = next(b for b in state if b.id == "white")
    contact = table.ball_radius_mm + south.head_diameter_mm / 2
    assert math.dist(white.xy_mm, south.xy_mm) == pytest.approx(contact, abs=0.5)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("intent", shots.INTENTS)
def test_every_intent_plans_a_strike(game, intent):
    spec = billiards(game)
    rng = np.random.default_rng(5)
    lay = layouts.opening(spec, rng) if intent == "break" else layouts.midgame(spec, rng)
    planned = shots.plan(spec, lay, intent, rng)
    assert planned.intent in shots.INTENTS
    assert 0 <= planned.strike.phi_deg < 360 and planned.strike.speed_mps > 0
    assert planned.strike.cue_ball in lay
