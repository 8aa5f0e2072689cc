"""The playing clock: right to 0.1 s (in fact to the microsecond) over 40 minutes with many stops."""

from __future__ import annotations

import random

import pytest

from adjudication.team.clock import Clock, show, to_us


def test_forty_minutes_with_a_thousand_stops() -> None:
    """Spells of play of a random number of milliseconds between stops of random float length: the clock
    read at every stop equals the sum of the spells, kept in integers, to within 0.1 s (and to 1 µs)."""
    rng = random.Random(7)
    clock = Clock(to_us(40 * 60))
    t, truth_ms, stops = 0.0, 0, 0
    while truth_ms < 40 * 60 * 1000:
        spell_ms = min(rng.randint(50, 4000), 40 * 60 * 1000 - truth_ms)
        clock = clock.start(t)
        t += spell_ms / 1000
        truth_ms += spell_ms
        assert abs(clock.at(t) - truth_ms / 1000) < 0.1
        clock = clock.stop(t)
        assert clock.elapsed_us == truth_ms * 1000
        t += rng.uniform(0.1, 90.0)  # the ball out of play: the clock must not move
        assert clock.at(t) == truth_ms / 1000
        stops += 1
    assert stops > 1000
    assert clock.at(t) == 2400.0 and not clock.expired(t)


def test_a_running_clock_knows_when_it_runs_out() -> None:
    clock = Clock(to_us(1200)).start(10.0).stop(110.0).start(200.0)
    assert clock.at(300.0) == 200.0
    assert clock.expiry_t() == pytest.approx(1200.0 + 100.0)
    assert not clock.expired(1300.0) and clock.expired(1300.000002)
    assert clock.run_out().at(5000.0) == 1200.0


@pytest.mark.parametrize(
    ("seconds", "text"), [(0, "00:00.0"), (61.25, "01:01.2"), (1200, "20:00.0"), (299.99, "04:59.9")]
)
def test_show_is_the_timekeeper_display(seconds: float, text: str) -> None:
    assert show(to_us(seconds)) == text
