"""Futsal's settings and state, and the bookkeeping every step needs (clock, ends, decisions).

Kept apart from the line handlers (``futsal``) so that each file stays one concern; nothing here rules on a
line by itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

from adjudication.team import common
from adjudication.team.clock import Clock, to_us
from adjudication.team.discipline import CardRules, Discipline
from adjudication.team.pitch import Pitch
from adjudication.team.shootout import Shootout
from arbiter.contract import Decision, Foul, FrozenMap, RestartDue, TeamCall
from arbiter.games import game

SPEC = game("futsal")
GAME = SPEC.id
PLAYERS = 5  # Law 3: five a side, one of them the goalkeeper
MIN_PLAYERS = 3  # Law 3, decision 2: fewer than three on the ground and the match is abandoned
SEND_OFF_S = 120  # Law 12, decision: the team plays short for two minutes of playing time
TIMEOUT_S = 60  # Law 8: a time-out lasts one minute
REGULAR_PERIODS = 2
EXTRA_PERIODS = 2  # the procedures after Law 18: two periods of extra time of five minutes
CARDS = CardRules(yellow_us=0, red_us=to_us(SEND_OFF_S))


class Phase(StrEnum):
    BEFORE = "before"  # a period's kick-off is due (before the match, at half-time, before extra time)
    PLAY = "play"  # the ball is in play and the clock runs
    DEAD = "dead"  # the ball is out of play; ``State.due`` is the restart due
    SHOOTOUT = "shootout"  # kicks from the penalty mark
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Settings:
    """The match options, read and checked (the registry's ``SPEC.options`` says what each sets)."""

    half_us: int
    extra_us: int
    extra_time: bool
    penalties: bool
    pitch: Pitch
    tolerance_us: int


@dataclass(frozen=True)
class State:
    """The match between two lines of the stream."""

    teams: tuple[str, str]
    settings: Settings
    score: FrozenMap[str, int]
    fouls: FrozenMap[str, int]  # accumulated fouls this period (the second half's go on in extra time)
    clock: Clock
    period: int = 0
    phase: Phase = Phase.BEFORE
    played_us: int = 0  # playing time of the periods already over
    due: RestartDue | None = None  # the restart due (DEAD) or the kick-off due (BEFORE; team None: either)
    also: tuple[RestartDue, ...] = ()  # restarts the kicking team may take instead of ``due``
    due_added: bool = False  # ``due`` is a kick the period is extended for (Law 14, 15)
    taken: RestartDue | None = None  # the restart the ball is in play from
    taken_added: bool = False  # ... and it was such a kick, not yet complete
    just_taken: bool = False  # the last line was that restart (a distance foul may still retake it)
    kick_offence: str | None = None  # a team broke the positions at the penalty or 10 m kick in play
    count_from: float | None = None  # where the four seconds count from when the stream gives no ready_t
    added_time: bool = False  # the period's time is up and goes on only for the kick due
    ended_by_clock: bool = False  # the clock ended the last period; its whistle line is still to come
    timeouts_used: frozenset[str] = frozenset()
    timeouts_asked: frozenset[str] = frozenset()
    kickers: tuple[str, ...] = ()  # who kicked off each period
    y0: str = ""  # the team defending the goal at y = 0 this period
    discipline: Discipline = field(default_factory=Discipline)
    shootout: Shootout | None = None
    shots: int = 0
    winner: str | None = None

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def ends(self) -> Mapping[str, int]:
        """Each team -> the end it defends this period (0: the goal at y = 0)."""
        return FrozenMap({t: 0 if t == self.y0 else 1 for t in self.teams})

    def other(self, team: str) -> str:
        return common.other(self.teams, team)

    def match_us(self, t: float) -> int:
        """Playing time of the whole match at stream time ``t`` (suspensions run on it). Between periods
        the last period's clock is already in ``played_us``."""
        between = self.phase in (Phase.BEFORE, Phase.SHOOTOUT, Phase.OVER)
        now = min(self.clock.at_us(t), self.clock.length_us)  # added time for a kick is not counted
        return self.played_us + (0 if between else now)

    def on_court(self) -> FrozenMap[str, int]:
        return self.discipline.on_court(self.teams, PLAYERS)

    def period_us(self, period: int) -> int:
        return self.settings.half_us if period <= REGULAR_PERIODS else self.settings.extra_us


def emit(
    state: State,
    t: float,
    team: str,
    call: TeamCall,
    law: str,
    *,
    restart: RestartDue | None = None,
    reason: str | None = None,
    points: Mapping[str, int] | None = None,
    notes: Iterable[str] = (),
) -> tuple[State, Decision]:
    """The next decision, with the state's clock, period, counts and (unless given) its restart due."""
    shot = state.shots + 1
    d = common.decision(
        shot=shot,
        team=team,
        call=call,
        law=law,
        score=state.score,
        restart=restart if restart is not None else state.due,
        clock=min(state.clock.at(t), state.clock.length_us / 1e6),
        period=state.period,
        on_court=state.on_court(),
        fouls=state.fouls,
        foul=Foul(reason=reason, penalty=0, rule=law) if reason else None,
        points=points,
        over=state.over,
        winner=state.winner,
        notes=notes,
        shootout=state.shootout.goals if state.shootout is not None and state.shootout.first else None,
    )
    return replace(state, shots=shot), d
