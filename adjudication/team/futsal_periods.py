"""Futsal periods: the kick-off that starts one, its end (by the clock or the timekeeper's whistle), what
follows (half-time, extra time, kicks from the penalty mark, the result), time-outs and the shoot-out.
"""

from __future__ import annotations

from dataclasses import replace

from adjudication.engine import RuleError
from adjudication.team import laws
from adjudication.team.clock import Clock, show
from adjudication.team.futsal_state import (
    EXTRA_PERIODS,
    GAME,
    REGULAR_PERIODS,
    TIMEOUT_S,
    Phase,
    State,
    emit,
)
from adjudication.team.shootout import Shootout
from arbiter.contract import Decision, FrozenMap, KickAtGoal, Kickoff, RestartDue, TeamCall, Timeout, Whistle

Step = tuple[State, tuple[Decision, ...]]
KICK_OFF_LAW = laws.FUTSAL_KICK_OFF
DURATION_LAW = laws.futsal(8)


def default_y0(teams: tuple[str, str], period: int) -> str:
    """Ends change every period: the first-named team defends y = 0 in odd periods (architecture.md)."""
    return teams[0] if period % 2 == 1 else teams[1]


def start_period(state: State, line: Kickoff) -> Step:
    """A kick-off while a period's kick-off is due: the period begins and the clock starts."""
    expected = state.due.team if state.due is not None else None
    if expected is not None and line.team != expected:
        raise RuleError(
            f"{GAME}: {expected} kicks off period {state.period + 1}, not {line.team} ({KICK_OFF_LAW})"
        )
    period = state.period + 1
    y0 = default_y0(state.teams, period)
    if line.defends_y0 is not None:
        if period <= REGULAR_PERIODS and line.defends_y0 != y0:
            raise RuleError(
                f"{GAME}: kickoff.defends_y0 {line.defends_y0!r} contradicts the ground frame: {y0} defends "
                f"y = 0 in period {period} (architecture.md; the ends change at half-time)"
            )
        y0 = line.defends_y0
    fouls = state.fouls if period > REGULAR_PERIODS else FrozenMap(dict.fromkeys(state.teams, 0))
    centre = state.settings.pitch.centre
    state = replace(
        state,
        period=period,
        phase=Phase.PLAY,
        clock=Clock(state.period_us(period)).start(line.t),
        y0=y0,
        fouls=fouls,
        due=None,
        taken=RestartDue("kick_off", line.team, centre),
        just_taken=True,
        kickers=(*state.kickers, line.team),
        timeouts_used=frozenset() if period <= REGULAR_PERIODS else state.timeouts_used,
        ended_by_clock=False,
    )
    notes = [f"{y0} defends the goal at y = 0"]
    if period == REGULAR_PERIODS + 1:
        notes.append("the second half's accumulated fouls go on counting in extra time (Law 14)")
    state, d = emit(
        state, line.t, line.team, TeamCall.PERIOD_START, KICK_OFF_LAW, restart=state.taken, notes=notes
    )
    return state, (d,)


def end_period(state: State, t: float, *, by_clock: bool) -> Step:
    """The period is over at ``t``: half-time, extra time, the kicks from the penalty mark, or the result."""
    clock = state.clock.run_out() if by_clock or state.clock.expired(t) else state.clock.stop(t)
    state = replace(
        state,
        clock=clock,
        due=None,
        also=(),
        due_added=False,
        taken=None,
        taken_added=False,
        just_taken=False,
        added_time=False,
        timeouts_asked=frozenset(),
        ended_by_clock=by_clock,
    )
    period = state.period
    why = (
        f"the clock reached {show(clock.length_us)}"
        if by_clock
        else f"period ended at {show(clock.elapsed_us)}"
    )
    a, b = state.teams
    if period in (1, REGULAR_PERIODS + 1):
        nxt = state.other(state.kickers[-1])
        state = replace(
            state, phase=Phase.BEFORE, due=RestartDue("kick_off", nxt, state.settings.pitch.centre)
        )
        state, d = emit(
            state, t, nxt, TeamCall.PERIOD_END, DURATION_LAW, notes=[why, f"{nxt} kicks off next"]
        )
        state = replace(state, played_us=state.played_us + clock.elapsed_us)
        return state, (d,)
    state = replace(state, played_us=state.played_us + clock.elapsed_us)
    if state.score[a] != state.score[b]:
        winner = a if state.score[a] > state.score[b] else b
        return _finish(state, t, winner, TeamCall.MATCH_END, laws.futsal(11), [why, f"{winner} wins"])
    if period == REGULAR_PERIODS and state.settings.extra_time:
        state = replace(
            state, phase=Phase.BEFORE, due=RestartDue("kick_off", None, state.settings.pitch.centre)
        )
        notes = [
            why,
            f"a draw: extra time, {EXTRA_PERIODS} periods of {state.settings.extra_us / 60e6:g} minutes",
        ]
        state, d = emit(state, t, a, TeamCall.PERIOD_END, laws.WINNER, notes=notes)
        return state, (d,)
    if state.settings.penalties:
        state = replace(state, phase=Phase.SHOOTOUT, shootout=Shootout(state.teams))
        state, d = emit(
            state, t, a, TeamCall.PERIOD_END, laws.WINNER, notes=[why, "a draw: kicks from the penalty mark"]
        )
        return replace(state, period=period + 1), (d,)
    return _finish(state, t, None, TeamCall.MATCH_END, laws.futsal(11), [why, "a draw"])


def _finish(state: State, t: float, winner: str | None, call: TeamCall, law: str, notes: list[str]) -> Step:
    state = replace(state, phase=Phase.OVER, winner=winner, due=None)
    state, d = emit(state, t, winner or state.teams[0], call, law, notes=notes)
    return state, (d,)


def abandon(state: State, t: float, short: str) -> Step:
    """Law 3, decision 2: a team with fewer than three players on the ground ends the match."""
    state = stopped_clock(state, t)
    notes = [f"{short} has fewer than three players on the ground: the match is abandoned; its result is the "
             "competition's to decide"]  # fmt: skip
    return _finish(state, t, None, TeamCall.ABANDONED, laws.futsal(3), notes)


def stopped_clock(state: State, t: float) -> State:
    return replace(state, clock=state.clock.stop(t), just_taken=False)


def whistle_end(state: State, line: Whistle) -> Step:
    """The timekeeper's signal for the end of a period (Law 7, 8): checked against the computed clock."""
    if state.phase is Phase.BEFORE or state.phase is Phase.OVER:
        if state.ended_by_clock:
            return replace(state, ended_by_clock=False), ()
        raise RuleError(f"{GAME}: whistle for the end of a period, but no period is being played")
    if state.phase is Phase.SHOOTOUT:
        raise RuleError(
            f"{GAME}: whistle period_end during the kicks from the penalty mark; they end by themselves"
        )
    if state.phase is Phase.PLAY and state.taken_added:
        return end_period(state, line.t, by_clock=False)
    if state.phase is Phase.DEAD and state.due_added:
        if state.added_time:
            raise RuleError(
                f"{GAME}: time was added for the {_kind(state)}; the period ends once it is taken"
            )
        state = replace(state, added_time=True)
        notes = [f"time is added for the {_kind(state)} (the period ends once it is taken)"]
        law = laws.futsal(15) if _kind(state) == "penalty" else laws.futsal(14)
        kicker = state.due.team if state.due is not None and state.due.team else state.teams[0]
        state, d = emit(state, line.t, kicker, TeamCall.TIME_ADDED, law, notes=notes)
        return state, (d,)
    left = state.clock.remaining_us(line.t)
    if left > state.settings.tolerance_us:
        raise RuleError(
            f"{GAME}: whistle period_end with {show(left)} of the period still to play on the computed "
            f"clock ({show(state.clock.at_us(line.t))} of {show(state.clock.length_us)}); the stream lacks a "
            "stoppage or the timekeeper signalled early"
        )
    return end_period(state, line.t, by_clock=False)


def _kind(state: State) -> str:
    return state.due.kind if state.due is not None else "kick"


def timeout(state: State, line: Timeout) -> Step:
    """Law 8: one one-minute time-out per team per half, granted when the ball is out of play and the team
    has it; none in extra time. Asked for while not yet grantable, it is granted at the next such moment."""
    team = line.team
    refused = None
    if state.period > REGULAR_PERIODS or state.phase is Phase.SHOOTOUT:
        refused = "no time-out is granted in extra time (Law 8, decision)"
    elif state.phase is Phase.BEFORE or state.phase is Phase.OVER:
        refused = "a time-out is granted only during a half"
    elif team in state.timeouts_used:
        refused = f"{team} has had its time-out this half (one per half, none carried over)"
    if refused is not None:
        state, d = emit(state, line.t, team, TeamCall.TIMEOUT_REFUSED, DURATION_LAW, notes=[refused])
        return state, (d,)
    state = replace(state, timeouts_asked=state.timeouts_asked | {team})
    return grant_timeout(state, line.t)


def grant_timeout(state: State, t: float) -> Step:
    """Grant an asked-for time-out when the ball is out of play and the asking team restarts."""
    due = state.due
    if (
        state.phase is not Phase.DEAD
        or due is None
        or due.team is None
        or due.team not in state.timeouts_asked
    ):
        return state, ()
    team = due.team
    state = replace(
        state,
        timeouts_used=state.timeouts_used | {team},
        timeouts_asked=state.timeouts_asked - {team},
        count_from=t + TIMEOUT_S,
    )
    notes = [f"{team}'s time-out of one minute; play restarts with its {due.kind}"]
    state, d = emit(state, t, team, TeamCall.TIMEOUT, DURATION_LAW, notes=notes)
    return state, (d,)


def shootout_kick(state: State, line: KickAtGoal) -> Step:
    if state.phase is not Phase.SHOOTOUT or state.shootout is None:
        raise RuleError(
            f"{GAME}: kick_at_goal lines are the kicks from the penalty mark, which are not on now"
        )
    if line.kind != "penalty":
        raise RuleError(f"{GAME}: kick_at_goal.kind must be penalty in futsal (got {line.kind!r})")
    shootout = state.shootout.kick(line.team, line.good)
    state = replace(state, shootout=shootout)
    winner = shootout.winner()
    note = f"{line.team} {'scores' if line.good else 'misses'}"
    if winner is not None:
        state = replace(state, phase=Phase.OVER, winner=winner)
        note += f"; {winner} wins on kicks from the penalty mark"
    state, d = emit(state, line.t, line.team, TeamCall.SHOOTOUT_KICK, laws.WINNER, notes=[note])
    return state, (d,)
