"""The timekeeper's board on a simulated clock: a whole futsal match (two halves of 20 minutes) played out on
a simulated wall clock with hundreds of stops, the desk's clock read between the lines as a desk reads it
(at any ``now``), right to 0.1 s everywhere; and the board's counts (fouls, time-outs, send-offs, the four
seconds)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from adjudication.referee import referee
from adjudication.team import futsal
from adjudication.team.clock import show
from adjudication.team.timekeeper import Board, board, foul_level
from arbiter.contract import Goal, JsonLine, Match, Timeout, Whistle, to_json
from tests.adjudication.team.team_lines import A, H, foul, ko, out, rs

HALF_S = 20 * 60
HEADER = Match(game="futsal", players=(H, A))


def _board(lines: Sequence[JsonLine]) -> Board:
    text = [to_json(HEADER), *(to_json(x) for x in lines)]
    steps = [(s.event, s.decisions, s.state) for s in referee(text)]
    return board(futsal.ENGINE.start(HEADER), steps)


def _simulated_half(
    rng: random.Random, t: float, kicker: str, other: str
) -> tuple[list[JsonLine], list[tuple[float, float]], float]:
    """One half on a simulated wall clock: lines, the spells of play (start, end) and the time it ended.
    Spells of play of random length, each ended by the ball going out (a kick-in for the kicker within the
    four seconds) or an injury (a dropped ball), until the clock reaches 20 minutes exactly."""
    lines: list[JsonLine] = [ko(t, kicker)]
    spells: list[tuple[float, float]] = []
    played, start = 0.0, t
    while True:
        spell = round(rng.uniform(0.2, 30.0), 3)
        if played + spell >= HALF_S:
            end = round(start + (HALF_S - played), 6)
            spells.append((start, end))
            lines.append(Whistle(t=end, reason="period_end"))
            return lines, spells, end
        end = round(start + spell, 6)
        spells.append((start, end))
        played += end - start
        dead = round(rng.uniform(0.5, 3.5), 3)  # within the four seconds
        if rng.random() < 0.9:
            lines.append(out(end, "touch", (0.0, 20.0), other))
            lines.append(rs(end + dead, kicker, "kick_in", (0.0, 20.0)))
        else:
            lines.append(Whistle(t=end, reason="injury"))
            lines.append(rs(end + dead, kicker, "dropped_ball"))
        start = round(end + dead, 6)


def _truth_s(spells: Sequence[tuple[float, float]], now: float) -> float:
    return sum(max(0.0, min(now, b) - a) for a, b in spells if a <= now)


def test_the_desk_clock_is_right_to_a_tenth_over_forty_minutes_with_stops() -> None:
    rng = random.Random(13)
    first, spells1, end1 = _simulated_half(rng, 5.0, H, A)
    second, spells2, _ = _simulated_half(rng, end1 + 600.0, A, H)  # ten minutes of half-time
    lines = first + second
    text = [to_json(HEADER), *(to_json(x) for x in lines)]
    steps = [(s.event, s.decisions, s.state) for s in referee(text)]
    assert len(steps) == len(lines) > 300  # every line refereed: hundreds of stops
    start = futsal.ENGINE.start(HEADER)
    worst = 0.0
    checked = 0
    for n in range(1, len(steps) + 1):
        b = board(start, steps[:n])
        t0 = float(getattr(lines[n - 1], "t", 0.0))
        t1 = float(getattr(lines[n], "t", t0 + 1.0)) if n < len(lines) else t0 + 1.0
        spells = spells1 if b.period == 1 else spells2
        for k in range(4):  # the desk reads the clock between lines, as it ticks
            now = t0 + (t1 - t0) * k / 4
            error = abs(b.clock_us(now) / 1e6 - _truth_s(spells, now))
            worst = max(worst, error)
            checked += 1
    assert checked > 1200
    assert worst < 0.1
    assert worst < 1e-5  # in fact to the microsecond
    final = board(start, steps)
    assert final.over and final.period == 2 and show(final.clock_us(1e6)) == "20:00.0"
    assert len(final.stops) == len(spells1) + len(spells2)  # every spell of play ended by a stop


def test_a_running_clock_moves_with_now_and_stops_at_the_periods_length() -> None:
    b = _board([ko(10.0), out(70.0, "touch", (0.0, 20.0), A), rs(72.0, H, "kick_in", (0.0, 20.0))])
    assert b.running and b.clock_us(72.0) == 60_000_000
    assert b.clock_us(82.5) == 70_500_000
    assert b.clock_us(10_000.0) == HALF_S * 1_000_000  # never past 20:00
    assert b.clock_us(0.0) == 60_000_000  # a 'now' before the last line reads as the last line
    assert [(s.clock_us, s.why) for s in b.stops] == [(60_000_000, "ball_out")]


def test_fouls_per_half_with_the_fifth_and_sixth_standing_out() -> None:
    lines: list[JsonLine] = [ko(0.0)]
    t = 1.0
    for _ in range(6):
        lines += [foul(t, A, xy=(10.0, 30.0)), rs(t + 2, H, "free_kick_direct", (10.0, 30.0))]
        t += 10
    b = _board(lines[:-1])
    assert b.period_fouls() == {H: 0, A: 6}
    assert [foul_level(n) for n in (4, 5, 6, 9)] == ["normal", "fifth", "sixth", "sixth"]


def test_a_send_off_timer_counts_two_minutes_of_playing_time() -> None:
    lines = [
        ko(0.0),
        foul(30.0, A, card="red", player="Away:4"),
        rs(33.0, H, "free_kick_direct", (10.0, 20.0)),
    ]
    b = _board(lines)
    (timer,) = b.send_offs
    assert (timer.team, timer.player) == (A, "Away:4") and b.on_court == {H: 5, A: 4}
    assert b.send_off_left_us(timer, 33.0) == 120_000_000
    assert b.send_off_left_us(timer, 93.0) == 60_000_000  # the clock ran a minute
    assert b.send_off_left_us(timer, 500.0) == 0


def test_a_goal_conceded_ends_the_send_off() -> None:
    lines = [
        ko(0.0),
        foul(30.0, A, card="red", player="Away:4"),
        rs(33.0, H, "free_kick_direct", (10.0, 20.0)),
        Goal(t=40.0, team=H),
    ]
    assert _board(lines).send_offs == ()


def test_time_outs_left_and_the_minute_running() -> None:
    lines = [ko(0.0), out(20.0, "touch", (0.0, 20.0), A), Timeout(t=21.0, team=H)]
    b = _board(lines)
    assert b.timeouts_left == {H: 0, A: 1}
    assert b.timeout_left_s(31.0) == pytest.approx(50.0)
    assert b.four_seconds(60.0) is None  # the count waits for the minute's end
    assert b.four_seconds(83.0) == pytest.approx(2.0)


def test_the_four_seconds_count_from_the_ball_out_or_from_ready() -> None:
    b = _board([ko(0.0), out(20.0, "touch", (0.0, 20.0), A)])
    assert b.four_seconds(23.5) == pytest.approx(3.5)
    b = _board([ko(0.0), foul(20.0, A, xy=(10.0, 30.0))])
    assert b.four_seconds(25.0) is None  # a free kick counts from ready only
    assert b.four_seconds(25.0, ready_t=24.0) == pytest.approx(1.0)
