"""Synthetic futsal match streams with their ground truth, for the futsal engine's tests and benchmark.

A match is simulated as spells of play and stoppages, drawn from a seeded generator: each spell lasts a
whole number of tenths of a second (the truth is kept in integer tenths, so it is exact), then the ball
goes over a touch or goal line, a foul is whistled (sometimes with a yellow card), a goal is scored or
play is stopped for an injury. Each stoppage is followed by the restart the laws give, taken within four
seconds of the ball being ready (``ready_t``), sometimes after a time-out. Fouls are whistled in midfield,
away from both penalty areas and more than 10 m from both goals, so the kick they give depends only on the
team's count of the half: a direct free kick at the place for the first five, the second penalty mark from
the sixth on (Law 14). The stream times are floats built by adding up spells and pauses, as a real source's
would be.

The truth: the score, each team's accumulated fouls at the end of each half, and the clock the timekeeper
shows at every stoppage.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field

from arbiter.contract import (
    BallOut,
    FoulLine,
    Goal,
    JsonLine,
    Kickoff,
    Match,
    Restart,
    Timeout,
    Whistle,
    write_events,
)

TEAMS = ("Home", "Away")
WIDTH_M, LENGTH_M = 20.0, 40.0
HALF_DS = 12_000  # a 20-minute half in tenths of a second
SPELL_DS = (30, 400)  # a spell of play lasts 3 s to 40 s
PAUSE_S = (3.0, 9.0)  # from the stoppage to the ball played at the restart
TIMEOUT_PAUSE_S = 62.0  # a time-out's minute, and the ball played soon after
SIXTH_FOUL = 6


@dataclass
class Truth:
    score: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TEAMS, 0))
    fouls: list[dict[str, int]] = field(default_factory=list)  # per half, at its end
    stops: list[tuple[float, float]] = field(default_factory=list)  # (stream t, clock shown), every stoppage


@dataclass
class SyntheticMatch:
    header: Match
    lines: list[JsonLine]
    truth: Truth


@dataclass
class _Sim:
    rng: random.Random
    lines: list[JsonLine] = field(default_factory=list)
    truth: Truth = field(default_factory=Truth)
    t: float = 0.0
    clock_ds: int = 0
    fouls: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TEAMS, 0))
    timeouts: set[str] = field(default_factory=set)
    half: int = 0

    def other(self, team: str) -> str:
        return TEAMS[1] if team == TEAMS[0] else TEAMS[0]

    def midfield(self) -> tuple[float, float]:
        return (round(self.rng.uniform(1.0, WIDTH_M - 1.0), 2), round(self.rng.uniform(12.0, 28.0), 2))


def futsal_match(seed: int = 0) -> SyntheticMatch:
    """Two halves of 20 minutes of playing time; a few hundred lines."""
    sim = _Sim(random.Random(seed))
    first = sim.rng.choice(TEAMS)
    for half, kicker in enumerate((first, sim.other(first))):
        sim.t += 0.0 if half == 0 else 600.0  # half-time
        sim.half, sim.clock_ds, sim.fouls, sim.timeouts = half, 0, dict.fromkeys(TEAMS, 0), set()
        _half(sim, kicker)
        sim.truth.fouls.append(dict(sim.fouls))
    header = Match(game="futsal", players=TEAMS, options={"half_min": 20})
    return SyntheticMatch(header, sim.lines, sim.truth)


def write(path: str | os.PathLike[str], seed: int = 0) -> int:
    """The match of ``seed`` as a stream file (``samples/futsal/match.jsonl`` is seed 0); how many lines."""
    m = futsal_match(seed)
    return write_events(path, [m.header, *m.lines])


def _half(sim: _Sim, kicker: str) -> None:
    sim.lines.append(Kickoff(t=sim.t, team=kicker))
    while True:
        spell = sim.rng.randint(*SPELL_DS)
        if sim.clock_ds + spell >= HALF_DS:
            sim.t += (HALF_DS - sim.clock_ds) / 10
            sim.clock_ds = HALF_DS
            sim.lines.append(Whistle(t=sim.t, reason="period_end"))
            sim.truth.stops.append((sim.t, HALF_DS / 10))
            return
        sim.t += spell / 10
        sim.clock_ds += spell
        sim.truth.stops.append((sim.t, sim.clock_ds / 10))
        team, kind, xy = _stoppage(sim)
        _restart(sim, team, kind, xy)


def _stoppage(sim: _Sim) -> tuple[str, str, tuple[float, float] | None]:
    """One stoppage line; the restart it gives: (team, kind, place)."""
    rng, t = sim.rng, sim.t
    roll = rng.random()
    last = rng.choice(TEAMS)
    if roll < 0.45:
        x = rng.choice((-0.2, WIDTH_M + 0.2))
        y = round(rng.uniform(0.5, LENGTH_M - 0.5), 2)
        sim.lines.append(BallOut(t=t, line="touch", xy_m=(x, y), last=last))
        return sim.other(last), "kick_in", (0.0 if x < 0 else WIDTH_M, y)
    if roll < 0.62:
        sim.lines.append(
            BallOut(t=t, line="goal", xy_m=(round(rng.uniform(1, 19), 2), LENGTH_M + 0.2), last=last)
        )
        defender = _defender_of_far_goal(sim)
        return (
            (defender, "goal_clearance", None) if last != defender else (sim.other(defender), "corner", None)
        )
    if roll < 0.9:
        xy = sim.midfield()
        card = "yellow" if rng.random() < 0.1 else None
        player = f"{last}:{rng.randint(1, 14)}" if card else None
        sim.lines.append(FoulLine(t=t, team=last, player=player, kind="direct", xy_m=xy, card=card))
        sim.fouls[last] += 1
        kind = "second_penalty_mark" if sim.fouls[last] >= SIXTH_FOUL else "free_kick_direct"
        return sim.other(last), kind, None
    if roll < 0.97:
        sim.lines.append(Goal(t=t, team=last, by=f"{last}:{rng.randint(1, 14)}"))
        sim.truth.score[last] += 1
        return sim.other(last), "kick_off", None
    sim.lines.append(Whistle(t=t, reason="injury", xy_m=sim.midfield()))
    return rng.choice(TEAMS), "dropped_ball", None


def _defender_of_far_goal(sim: _Sim) -> str:
    """The team defending y = 40: Away in the first half, Home in the second (the ends change)."""
    return TEAMS[1] if sim.half == 0 else TEAMS[0]


def _restart(sim: _Sim, team: str, kind: str, xy: tuple[float, float] | None) -> None:
    pause = sim.rng.uniform(*PAUSE_S)
    if team not in sim.timeouts and sim.rng.random() < 0.05:
        sim.timeouts.add(team)
        sim.lines.append(Timeout(t=sim.t + 0.5, team=team))
        pause = TIMEOUT_PAUSE_S
    sim.t += pause
    ready = sim.t - sim.rng.uniform(0.3, 3.5)
    if kind == "kick_off":
        sim.lines.append(Kickoff(t=sim.t, team=team))
        return
    sim.lines.append(Restart(t=sim.t, team=team, kind=kind, xy_m=xy, ready_t=ready))
