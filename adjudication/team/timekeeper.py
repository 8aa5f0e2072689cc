"""The timekeeper's board: what the desk shows of a team match at any moment, from the refereed stream.

The engines fold the stream into a state after each line; the desk needs that state *between* lines too: the
playing clock ticking, a sent-off team's two minutes running down, the four seconds of a restart counting.
``board`` reads the engine's steps once (each line with the state after it) into a ``Board``; the board is
then asked at a stream time ``now`` (seconds from the start of the match, the clock of the stream's ``t``).
Everything here is pure: the same steps and the same ``now`` give the same board, which is how the clock is
tested to the tenth of a second over a whole match (tests/adjudication/team/test_timekeeper.py).

The playing clock is the engine's own (``adjudication.team.clock.Clock``, whole microseconds): it runs from
a kick-off or restart until the ball is out, a foul, a goal or a whistle (futsal Law 7, 8); in mini-rugby it
runs on while the ball is dead and stops only for the referee's whistle (World Rugby Law 5). The board adds
the stops as they happened, the fouls of each period, the time-outs left, the suspensions with their ends,
and where the four seconds of the restart due count from.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from adjudication.team import futsal_state, rugby_state
from adjudication.team.clock import Clock
from adjudication.team.restarts import COUNTED_FROM_OUT, FOUR_SECOND_LAW, FOUR_SECONDS_S
from arbiter.contract import Decision, FrozenMap, JsonLine, RestartDue, TeamCall

TeamState = futsal_state.State | rugby_state.State
TIMEOUTS_PER_HALF = 1  # futsal Law 8: one time-out per team in each half, none in extra time
SIXTH_FOUL = 6  # futsal Law 14: from the sixth accumulated foul of a period, a kick without a wall
BETWEEN = frozenset({"before", "shootout", "over"})  # phases in which no period's clock is running


@dataclass(frozen=True, slots=True)
class ClockStop:
    """The playing clock stopped at stream time ``t`` showing ``clock_us`` of period ``period``: ``why`` is
    the line that stopped it (``ball_out``, ``foul``, ``goal``, ``try``, ``whistle: injury`` ...)."""

    t: float
    clock_us: int
    period: int
    why: str


@dataclass(frozen=True, slots=True)
class SendOffTimer:
    """``team`` plays one short for ``player`` until the match's playing time reaches ``ends_us`` (None: to
    the end of the match). A goal conceded ends a futsal suspension early: the engine then drops it."""

    team: str
    player: str
    ends_us: int | None


@dataclass(frozen=True)
class Board:
    """A team match after its last refereed line, to be read at any ``now`` not before that line."""

    teams: tuple[str, str]
    score: Mapping[str, int]
    period: int
    phase: str
    clock: Clock  # the period's clock: running or stopped, in whole microseconds
    played_us: int  # playing time of the periods already over (suspensions run across them)
    stops: tuple[ClockStop, ...] = ()
    fouls: Mapping[int, Mapping[str, int]] = field(default_factory=dict)  # period -> team -> accumulated
    counts_fouls: bool = False  # the game accumulates fouls per period (futsal; mini-rugby does not)
    timeouts_left: Mapping[str, int] | None = None  # None: the game has no time-outs
    timeouts_asked: frozenset[str] = frozenset()
    timeout_ends_t: float | None = None  # a time-out is running until then
    send_offs: tuple[SendOffTimer, ...] = ()
    on_court: Mapping[str, int] = field(default_factory=dict)
    due: RestartDue | None = None  # the restart (or kick-off) due while the ball is out of play
    count_from_t: float | None = None  # the four seconds of ``due`` count from here (None: not counted)
    shootout: Mapping[str, int] = field(default_factory=dict)
    over: bool = False
    winner: str | None = None
    last_t: float = 0.0  # the time of the last line: ``now`` is never before it

    @property
    def running(self) -> bool:
        return self.clock.running

    def _at(self, now: float) -> float:
        return max(now, self.last_t)

    def clock_us(self, now: float) -> int:
        """Playing time of the period at ``now``, never past its length (the period is over by then)."""
        return min(self.clock.at_us(self._at(now)), self.clock.length_us)

    def remaining_us(self, now: float) -> int:
        return self.clock.length_us - self.clock_us(now)

    def match_us(self, now: float) -> int:
        """Playing time of the whole match at ``now``: what a suspension is measured on."""
        return self.played_us + (0 if self.phase in BETWEEN else self.clock_us(now))

    def send_off_left_us(self, timer: SendOffTimer, now: float) -> int | None:
        """What is left of a suspension at ``now`` (0: the team may be whole again); None: to the end."""
        if timer.ends_us is None:
            return None
        return max(0, timer.ends_us - self.match_us(now))

    def period_fouls(self, period: int | None = None) -> Mapping[str, int]:
        """Accumulated fouls per team of ``period`` (the current one when None)."""
        return self.fouls.get(self.period if period is None else period, dict.fromkeys(self.teams, 0))

    def timeout_left_s(self, now: float) -> float | None:
        """Seconds left of the time-out running at ``now``; None when none runs."""
        if self.timeout_ends_t is None or now >= self.timeout_ends_t:
            return None
        return self.timeout_ends_t - now

    def four_seconds(self, now: float, ready_t: float | None = None) -> float | None:
        """Seconds counted of the restart due at ``now``: from ``ready_t`` (the taker had the ball ready: the
        desk's press) or, for the restarts counted from the ball going out, from then; None when the due
        restart has no four-second limit or the count has not begun (a time-out runs)."""
        if self.due is None or self.due.kind not in FOUR_SECOND_LAW or self.running:
            return None
        start = ready_t if ready_t is not None else self.count_from_t
        if start is None or now < start:
            return None
        return now - start


def _why(line: JsonLine) -> str:
    reason = getattr(line, "reason", None)
    return f"{line.TYPE}: {reason}" if reason else line.TYPE


def _stop(before: TeamState, after: TeamState, line: JsonLine) -> ClockStop | None:
    """The stop a line made: the clock ran before it and does not after (or a new period began)."""
    if not before.clock.running or (after.clock.running and after.period == before.period):
        return None
    t = float(getattr(line, "t", 0.0))
    shown = min(before.clock.at_us(t), before.clock.length_us)
    return ClockStop(t, shown, before.period, _why(line))


def _fouls(decisions: Iterable[Decision]) -> dict[int, Mapping[str, int]]:
    out: dict[int, Mapping[str, int]] = {}
    for d in decisions:
        if d.period is not None and d.fouls:
            out[d.period] = d.fouls
    return out


def _timeouts(state: TeamState) -> tuple[Mapping[str, int] | None, frozenset[str]]:
    if not isinstance(state, futsal_state.State):
        return None, frozenset()
    extra = state.period > futsal_state.REGULAR_PERIODS or state.phase is futsal_state.Phase.SHOOTOUT
    left = {t: 0 if extra or t in state.timeouts_used else TIMEOUTS_PER_HALF for t in state.teams}
    return FrozenMap(left), state.timeouts_asked


def _count_from(state: TeamState) -> float | None:
    """Where the four seconds count from without a press of the desk (the engine's own rule)."""
    if not isinstance(state, futsal_state.State) or state.due is None:
        return None
    return state.count_from if state.due.kind in COUNTED_FROM_OUT else None


def _send_offs(state: TeamState) -> tuple[SendOffTimer, ...]:
    return tuple(SendOffTimer(s.team, s.player, s.ends_us) for s in state.discipline.short)


def board(start: TeamState, steps: Iterable[tuple[JsonLine, tuple[Decision, ...], Any]]) -> Board:
    """The board after ``steps``: each line of the stream (after its header) with the decisions it settled and
    the engine's state after it, as ``adjudication.referee.referee`` yields them; ``start`` is the engine's
    state before the first line (``engine.start(header)``)."""
    state, last_t = start, 0.0
    stops: list[ClockStop] = []
    decisions: list[Decision] = []
    timeout_ends: float | None = None
    for line, decided, after in steps:
        stop = _stop(state, after, line)
        if stop is not None:
            stops.append(stop)
        decisions.extend(decided)
        last_t = float(getattr(line, "t", last_t))
        if any(d.call == TeamCall.TIMEOUT for d in decided):
            timeout_ends = last_t + futsal_state.TIMEOUT_S
        elif after.clock.running or after.period != state.period:
            timeout_ends = None
        state = after
    timeouts_left, asked = _timeouts(state)
    last = decisions[-1] if decisions else None
    return Board(
        teams=state.teams,
        score=FrozenMap(state.score),
        period=state.period,
        phase=state.phase.value,
        clock=state.clock,
        played_us=state.played_us,
        stops=tuple(stops),
        fouls=_fouls(decisions),
        counts_fouls=isinstance(state, futsal_state.State),
        timeouts_left=timeouts_left,
        timeouts_asked=asked,
        timeout_ends_t=timeout_ends,
        send_offs=_send_offs(state),
        on_court=state.on_court(),
        due=state.due,
        count_from_t=_count_from(state),
        shootout=last.shootout if last is not None else {},
        over=state.over,
        winner=state.winner,
        last_t=last_t,
    )


def foul_level(count: int) -> str:
    """How a team's accumulated foul count stands: ``sixth`` from the sixth on (a kick without a wall for
    each), ``fifth`` at five (the next foul is the sixth), else ``normal``."""
    if count >= SIXTH_FOUL:
        return "sixth"
    return "fifth" if count == SIXTH_FOUL - 1 else "normal"


__all__ = [
    "FOUR_SECONDS_S",
    "SIXTH_FOUL",
    "Board",
    "ClockStop",
    "SendOffTimer",
    "TeamState",
    "board",
    "foul_level",
]
