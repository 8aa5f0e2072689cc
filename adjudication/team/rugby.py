"""School mini-rugby, rugby-5 and rugby-7: the school rules text, World Rugby's laws (2018
numbering, sevens variations) where the text is silent. One set of rules for both games; ``rugby_5`` and
``rugby_7`` each give theirs the registry's spec and what the text fixes for it (``Variant``) through
``engine``. Full table, inputs and departures: docs/games/rugby-5.md (rugby-7.md points to it).

The text gives: the teams (rugby-5: 5 players and 5 substitutes; rugby-7: 7 and 4),
substitutions only at the break ("Игроки могут заменяться после каждого перерыва"), two halves of 10 min
with a 5 min break (rugby-5) or 15 min with 10 (rugby-7), the kick-off, the restart by a kick of "the
attacking team" from a place it names, the opponents 3 m (rugby-5) or 10 m (rugby-7) away, a re-kick when
the receivers break that distance, and a scrum to the other team when the kickers break the rules of the
kick.

Inputs: ``kickoff``, ``restart`` (``kick_off``, ``restart_kick``, ``scrum``, ``penalty``, ``free_kick``,
``lineout``, ``drop_out``), ``ball_out``, ``try``, ``kick_at_goal`` (``conversion``, ``penalty``,
``drop``), ``foul``, ``substitution``, ``whistle``. Options (the registry's, ``arbiter.games``): ``half_min``
and ``break_min`` (defaults by game, from the text), ``restart_by`` (``scorers``), ``pitch_m`` (rugby-5
[20, 40], a handball court; rugby-7 [47, 56], the text), ``clock_tolerance_s`` (1.0).

Where the text is silent (docs/games/rugby-5.md, "Departures", says why):

- scoring: the text gives none; World Rugby Law 8 (the same in sevens): try 5, conversion 2, penalty goal 3,
  drop goal 3. A conversion is due after every try, from the scoring team, before anything else;
- the restart after a score: "атакующей командой" is read as the team that scored (the sevens variation
  of Law 12); ``restart_by: conceders`` gives the fifteens rule. Its place is quoted in a note, not given
  as ``xy_m``: the text's places (the handball court's goal-area arc, behind the normal pitch's 5 m line) are
  not points of the ground frame;
- the clock runs from the kick-off to the end of the half and stops only for the referee's time off (a
  ``whistle`` ``stoppage`` or ``injury``) until play restarts (World Rugby Law 5); the half ends at the
  referee's ``whistle`` ``period_end`` once time is up (the referee is also timekeeper, the rules text);
- play (World Rugby): into touch a lineout to the other team (Law 18); dead in in-goal off an attacker a
  drop-out, off a defender a 5 m scrum to the attackers (Law 21); ``handling`` (a knock-on or throw
  forward) a scrum, ``indirect`` a free kick, ``direct`` and foul play a penalty (Law 11, 20);
- cards (sevens variation of Law 9): a yellow card two minutes of playing time short, a red card short
  for the rest of the match; the text has none;
- no extra time: the text has none, a level match is a draw;
- not judged: a kick-off that does not travel or goes straight into touch (the text names only the
  positions and the distance), the sevens' time limits on conversions and penalty kicks, the length of
  the break (reported in a note), the ground's size.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import partial
from types import MappingProxyType
from typing import Any

from adjudication import options
from adjudication.engine import Engine, RuleError
from adjudication.team import common, laws
from adjudication.team.clock import Clock, show, to_us
from adjudication.team.discipline import Card, CardRules, card
from adjudication.team.pitch import XY
from adjudication.team.rugby_state import Phase, Settings, State, Variant
from arbiter.contract import (
    RUGBY_RESTARTS,
    BallOut,
    Decision,
    Foul,
    FoulLine,
    FrozenMap,
    JsonLine,
    KickAtGoal,
    Kickoff,
    Match,
    Restart,
    RestartDue,
    Substitution,
    TeamCall,
    Try,
    Whistle,
)
from arbiter.games import GameSpec

POINTS: Mapping[str, int] = MappingProxyType({"try": 5, "conversion": 2, "penalty": 3, "drop": 3})  # WR Law 8
SIN_BIN_S = 120  # World Rugby Law 9, sevens variation: a yellow card suspends for two minutes
CARDS = CardRules(yellow_us=to_us(SIN_BIN_S), red_us=None)
KICKS = frozenset({"kick_off", "restart_kick"})  # the kicks whose distance and rules the text sets

L_TEAMS = laws.rugby("Число игроков (l.7-9)")
L_DURATION = laws.rugby("Продолжительность игры (l.12-13)", 5)
L_KICK_OFF = laws.rugby("Начало игры (l.14-20)", 12)
L_RESTART = laws.rugby("Возобновление игры (l.21-25)", 12, sevens=True)
L_REKICK = laws.rugby("Возобновление игры (l.27)")
L_SCRUM = laws.rugby("Возобновление игры (l.26)")
L_SCORING = laws.rugby("", 8, sevens=True)
L_TOUCH = laws.rugby("", 18)
L_IN_GOAL = laws.rugby("", 21)
L_FOUL = laws.rugby("", 20)
L_KNOCK_ON = laws.rugby("", 11)
L_CARDS = laws.rugby("", 9, sevens=True)


TAKES = "kickoff, restart, ball_out, try, kick_at_goal, foul, substitution and whistle"

Step = tuple[State, tuple[Decision, ...]]


PITCH_BOUNDS = (10.0, 70.0, 20.0, 100.0)  # any court or part of a pitch a school plays on


def engine(spec: GameSpec, variant: Variant) -> Engine:
    """The engine of one mini-rugby game: these rules with what the text fixes for it (``rugby_5``,
    ``rugby_7``)."""
    return Engine(game=spec.id, start=partial(start, spec, variant), step=step)


def start(spec: GameSpec, variant: Variant, match: Match) -> State:
    teams = common.teams(spec, match)
    width, length = common.pitch_option(spec, match, PITCH_BOUNDS)
    settings = Settings(
        game=spec.id,
        variant=variant,
        half_us=common.minutes_us(spec, match, "half_min"),
        break_min=options.read(spec, match, "break_min"),
        restart_by=options.read(spec, match, "restart_by"),
        pitch_m=(width, length),
        tolerance_us=common.seconds_us(spec, match, "clock_tolerance_s"),
    )
    return State(
        teams=teams,
        settings=settings,
        score=common.zero(teams),
        clock=Clock(settings.half_us),
        due=RestartDue("kick_off", None, (width / 2, length / 2)),
        came_on=FrozenMap({t: frozenset() for t in teams}),
        went_off=FrozenMap({t: frozenset() for t in teams}),
    )


def emit(
    state: State,
    t: float,
    team: str,
    call: TeamCall,
    law: str,
    *,
    reason: str | None = None,
    points: Mapping[str, int] | None = None,
    notes: tuple[str, ...] | list[str] = (),
) -> tuple[State, tuple[Decision, ...]]:
    shot = state.shots + 1
    d = common.decision(
        shot=shot,
        team=team,
        call=call,
        law=law,
        score=state.score,
        restart=state.due,
        clock=min(state.clock.at(t), state.clock.length_us / 1e6),
        period=state.period,
        on_court=state.on_court(),
        foul=Foul(reason=reason, penalty=0, rule=law) if reason else None,
        points=points,
        over=state.over,
        winner=state.winner,
        notes=notes,
    )
    if state.phase is Phase.CONVERSION and not d.over:
        d = replace(d, awaiting=("kick_at_goal",), next=state.scorer)
    return replace(state, shots=shot), (d,)


def step(state: State, line: JsonLine) -> Step:
    handler = HANDLERS.get(type(line))
    if handler is None:
        raise common.not_taken(state.game, line, TAKES)
    common.check_names(state.game, state.teams, line)
    if state.phase is Phase.OVER:
        raise RuleError(
            f"{state.game}: the match is over ({state.winner or 'a draw'}); no {line.TYPE} line is taken"
        )
    t: float = line.t  # type: ignore[attr-defined]
    discipline = state.discipline.expire(state.match_us(t)) if state.discipline.short else state.discipline
    if discipline is not state.discipline:
        state = replace(state, discipline=discipline)
    state, decisions = handler(state, line)
    if state.kick is not None and not isinstance(line, Restart | Kickoff):
        state = replace(state, kick=None)  # the kick's own rules bind the line right after it only
    return state, decisions


# --- kicks and restarts -----------------------------------------------------------------------------------


def _kickoff(state: State, line: Kickoff) -> Step:
    if state.phase is not Phase.BEFORE:
        if state.phase is Phase.DEAD and state.due is not None and state.due.kind == "kick_off":
            return _take(state, line.t, line.team, "kick_off")
        raise RuleError(f"{state.game}: a kickoff starts a half; {_now(state)}")
    expected = state.due.team if state.due is not None else None
    if expected is not None and line.team != expected:
        raise RuleError(f"{state.game}: {expected} kicks off the second half, not {line.team} ({L_KICK_OFF})")
    period = state.period + 1
    kick = RestartDue("kick_off", line.team, _centre(state))
    state = replace(
        state,
        period=period,
        phase=Phase.PLAY,
        clock=Clock(state.settings.half_us).start(line.t),
        due=None,
        kick=kick,
        kickers=(*state.kickers, line.team),
    )
    distance = state.settings.variant.distance_m
    notes = [
        f"{state.other(line.team)} stands at least {distance:g} m away",
        f"{line.team}'s players stand behind the kicker",
    ]
    state, ds = emit(state, line.t, line.team, TeamCall.PERIOD_START, L_KICK_OFF, notes=notes)
    return state, (replace(ds[0], restart=kick, next=line.team),)


def _centre(state: State) -> XY:
    width, length = state.settings.pitch_m
    return (width / 2, length / 2)


def _restart(state: State, line: Restart) -> Step:
    if line.kind not in RUGBY_RESTARTS:
        raise RuleError(
            f"{state.game}: restart.kind {line.kind!r} is a futsal restart; "
            f"rugby's: {', '.join(RUGBY_RESTARTS)}"
        )
    if state.phase is Phase.BEFORE and line.kind == "kick_off":
        return _kickoff(state, Kickoff(t=line.t, team=line.team))
    if state.phase is not Phase.DEAD:
        raise RuleError(f"{state.game}: a {line.kind} restarts play when the ball is dead; {_now(state)}")
    return _take(state, line.t, line.team, line.kind)


def _take(state: State, t: float, team: str, kind: str) -> Step:
    due = state.due or RestartDue("scrum", None)
    if kind != due.kind or due.team not in (None, team):
        raise RuleError(
            f"{state.game}: the restart due is a {due.kind} by {due.team or 'either team'}; "
            f"got a {kind} by {team}"
        )
    taken = replace(due, team=team)
    state = replace(
        state,
        phase=Phase.PLAY,
        clock=state.clock.start(t),
        due=None,
        kick=taken if kind in KICKS else None,
    )
    return state, ()


def _now(state: State) -> str:
    if state.phase is Phase.DEAD and state.due is not None:
        return f"a {state.due.kind} by {state.due.team or 'either team'} is due now"
    if state.phase is Phase.CONVERSION:
        return f"{state.scorer}'s conversion is due now"
    if state.phase is Phase.BEFORE:
        return f"half {state.period + 1} has not kicked off"
    return "the ball is in play now"


def _dead(
    state: State, t: float, team: str, restart: RestartDue, call: TeamCall, law: str, **kw: Any
) -> Step:
    """The ball is dead and ``restart`` is how play goes on (the clock runs on: World Rugby Law 5)."""
    state = replace(state, phase=Phase.DEAD, due=restart, kick=None)
    return emit(state, t, team, call, law, **kw)


def _ball_out(state: State, line: BallOut) -> Step:
    if state.phase is not Phase.PLAY:
        return state, ()
    other = state.other(line.last)
    if line.line == "touch":
        return _dead(
            state,
            line.t,
            line.last,
            RestartDue("lineout", other, _touch(state, line.xy_m)),
            TeamCall.RESTART,
            L_TOUCH,
        )
    if line.line == "ceiling":
        raise RuleError(f"{state.game}: ball_out.line ceiling is futsal's; rugby's lines are touch and goal")
    defender = _defender(state, line.xy_m)
    if line.last == defender:
        scrum = RestartDue("scrum", state.other(defender))
        return _dead(
            state,
            line.t,
            line.last,
            scrum,
            TeamCall.RESTART,
            L_IN_GOAL,
            notes=("a 5-metre scrum to the attackers",),
        )
    drop = RestartDue("drop_out", defender)
    return _dead(
        state, line.t, line.last, drop, TeamCall.RESTART, L_IN_GOAL, notes=("a drop-out by the defenders",)
    )


def _touch(state: State, xy: XY) -> XY:
    width, length = state.settings.pitch_m
    return (0.0 if xy[0] <= width / 2 else width, min(max(xy[1], 0.0), length))


def _defender(state: State, xy: XY) -> str:
    """The team defending the in-goal at ``xy``'s end: the first-named defends y = 0 in the first half."""
    low = state.teams[0] if state.period % 2 == 1 else state.teams[1]
    return low if xy[1] <= state.settings.pitch_m[1] / 2 else state.other(low)


def _kickers_fault(state: State, t: float, kickers: str, why: str) -> Step:
    """The text: a team that breaks the rules of its kick-off or restart kick concedes a scrum."""
    scrum = RestartDue(
        "scrum",
        state.other(kickers),
        _centre(state) if state.kick and state.kick.kind == "kick_off" else None,
    )
    return _dead(state, t, kickers, scrum, TeamCall.FOUL, L_SCRUM, reason="restart_rules", notes=(why,))


# --- scoring ----------------------------------------------------------------------------------------------


def _try(state: State, line: Try) -> Step:
    if state.phase is not Phase.PLAY:
        raise RuleError(f"{state.game}: a try is scored with the ball in play; {_now(state)}")
    points = POINTS["try"]
    state = replace(
        state,
        score=common.bump(state.score, line.team, points),
        phase=Phase.CONVERSION,
        scorer=line.team,
        due=None,
        kick=None,
    )
    notes = (f"try by {line.by}" if line.by else "try", f"{line.team}'s conversion kick is due")
    return emit(state, line.t, line.team, TeamCall.TRY, L_SCORING, points={line.team: points}, notes=notes)


def _kick_at_goal(state: State, line: KickAtGoal) -> Step:
    team, kind = line.team, line.kind
    if kind == "conversion":
        if state.phase is not Phase.CONVERSION or state.scorer != team:
            raise RuleError(f"{state.game}: a conversion follows the team's own try; {_now(state)}")
        call = TeamCall.CONVERSION
    elif kind == "penalty":
        due = state.due
        if state.phase is not Phase.DEAD or due is None or due.kind != "penalty" or due.team != team:
            raise RuleError(
                f"{state.game}: a penalty kick at goal needs a penalty awarded to {team}; {_now(state)}"
            )
        call = TeamCall.PENALTY_GOAL
    else:
        if state.phase is not Phase.PLAY:
            raise RuleError(f"{state.game}: a drop goal is kicked in open play; {_now(state)}")
        call = TeamCall.DROP_GOAL
    if not line.good:
        if kind == "conversion":
            return _after_score(state, line.t, team, TeamCall.KICK_MISSED, "the conversion missed")
        state = replace(state, phase=Phase.PLAY, due=None, clock=state.clock.start(line.t))
        return emit(
            state, line.t, team, TeamCall.KICK_MISSED, L_SCORING, notes=(f"the {kind} kick missed: play on",)
        )
    points = POINTS[kind]
    state = replace(state, score=common.bump(state.score, team, points))
    return _after_score(state, line.t, team, call, f"{kind} goal: {points} points", {team: points})


def _after_score(
    state: State, t: float, team: str, call: TeamCall, note: str, points: Mapping[str, int] | None = None
) -> Step:
    """The restart kick after a score: by the scorers (the text, and sevens) or the conceders (option)."""
    kicker = team if state.settings.restart_by == "scorers" else state.other(team)
    restart = RestartDue("restart_kick", kicker)
    state = replace(state, phase=Phase.DEAD, due=restart, scorer=None, kick=None)
    where = f"{kicker} restarts with a kick {state.settings.variant.restart_place}"
    return emit(state, t, team, call, L_SCORING, points=points, notes=(note, where, f"see {L_RESTART}"))


# --- fouls, substitutions, whistles -----------------------------------------------------------------------


def _foul(state: State, line: FoulLine) -> Step:
    state.discipline.check_player(state.game, line.player)
    state, notes = _card(state, line)
    if line.kind == "distance":
        return _distance(state, line, notes)
    if line.kind == "four_seconds":
        raise RuleError(f"{state.game}: rugby has no four-second rule (foul.kind four_seconds is futsal's)")
    if state.phase is not Phase.PLAY or line.advantage:
        if line.card is None and not line.advantage:
            raise RuleError(f"{state.game}: a {line.kind} foul needs the ball in play; {_now(state)}")
        call = (
            TeamCall.CAUTION if line.card == "yellow" else TeamCall.SEND_OFF if line.card else TeamCall.FOUL
        )
        return emit(state, line.t, line.team, call, L_CARDS, reason=line.kind, notes=notes)
    other = state.other(line.team)
    if line.kind == "handling":
        restart, law = RestartDue("scrum", other, line.xy_m), L_KNOCK_ON
    elif line.kind == "indirect":
        restart, law = RestartDue("free_kick", other, line.xy_m), L_FOUL
    else:
        restart, law = RestartDue("penalty", other, line.xy_m), L_FOUL
    return _dead(state, line.t, line.team, restart, TeamCall.FOUL, law, reason=line.kind, notes=notes)


def _card(state: State, line: FoulLine) -> tuple[State, list[str]]:
    if line.card is None or line.player is None:
        return state, []
    d, outcome = card(
        state.discipline,
        CARDS,
        line.team,
        line.player,
        line.card,
        bench=line.bench,
        match_us=state.match_us(line.t),
    )
    state = replace(state, discipline=d)
    if outcome is Card.CAUTION:
        return state, [f"{line.player} to the sin bin for two minutes of playing time ({L_CARDS})"]
    return state, [
        f"{line.player} sent off: {line.team} plays one short for the rest of the match ({L_CARDS})"
    ]


def _distance(state: State, line: FoulLine, notes: list[str]) -> Step:
    """The text: the receivers too near a kick-off or restart kick: kicked again; the kickers not behind the
    ball: a scrum to the receivers."""
    kick = state.kick if state.phase is Phase.PLAY else state.due if state.phase is Phase.DEAD else None
    if kick is None or kick.kind not in KICKS:
        raise RuleError(f"{state.game}: a distance foul belongs to a kick-off or restart kick; {_now(state)}")
    if line.team == kick.team:
        return _kickers_fault(
            replace(state, kick=kick), line.t, line.team, "the kickers broke the rules of the kick"
        )
    distance = state.settings.variant.distance_m
    why = f"{line.team} was nearer than {distance:g} m: the {kick.kind} is taken again"
    return _dead(
        state, line.t, line.team, kick, TeamCall.RETAKE, L_REKICK, reason="distance", notes=(why, *notes)
    )


def _substitution(state: State, line: Substitution) -> Step:
    """The text: players may be replaced after each break, that is at half-time, and not during a half."""
    team = line.team
    refused = None
    if state.phase is not Phase.BEFORE or state.period == 0:
        refused = "players are replaced only at the break (the rules text: после каждого перерыва)"
    elif line.in_ in state.discipline.sent_off:
        refused = f"{line.in_} was sent off"
    else:
        newcomers = state.came_on[team] | ({line.in_} - state.went_off[team])
        if len(newcomers) > state.settings.variant.bench:
            refused = f"{team} has used its {state.settings.variant.bench} substitutes"
    if refused is not None:
        return emit(state, line.t, team, TeamCall.SUBSTITUTION_REFUSED, L_TEAMS, notes=(refused,))
    came_on = FrozenMap({**state.came_on, team: state.came_on[team] | ({line.in_} - state.went_off[team])})
    went_off = FrozenMap({**state.went_off, team: state.went_off[team] | ({line.out} if line.out else set())})
    return replace(state, came_on=came_on, went_off=went_off), ()


def _whistle(state: State, line: Whistle) -> Step:
    if line.reason != "period_end":
        if state.phase in (Phase.PLAY, Phase.DEAD):
            due = state.due if state.phase is Phase.DEAD else RestartDue("scrum", None)
            state = replace(state, phase=Phase.DEAD, due=due, clock=state.clock.stop(line.t), kick=None)
            return emit(
                state,
                line.t,
                state.teams[0],
                TeamCall.STOPPAGE,
                L_DURATION,
                notes=(f"time off ({line.reason})",),
            )
        return state, ()
    if state.phase is Phase.BEFORE:
        raise RuleError(f"{state.game}: whistle for the end of a half, but no half is being played")
    if state.phase is Phase.CONVERSION:
        raise RuleError(
            f"{state.game}: {state.scorer}'s conversion is taken before the half ends (World Rugby Law 8)"
        )
    left = state.clock.remaining_us(line.t)
    if left > state.settings.tolerance_us:
        raise RuleError(
            f"{state.game}: whistle period_end with {show(left)} of the half still to play "
            f"({show(state.clock.at_us(line.t))} of {show(state.clock.length_us)})"
        )
    return _end_half(state, line.t)


def _end_half(state: State, t: float) -> Step:
    clock = state.clock.stop(t)
    shown = min(clock.elapsed_us, clock.length_us)
    state = replace(state, clock=clock, played_us=state.played_us + clock.elapsed_us, kick=None)
    if state.period == 1:
        nxt = state.other(state.kickers[0])
        state = replace(state, phase=Phase.BEFORE, due=RestartDue("kick_off", nxt, _centre(state)))
        notes = (
            f"half-time ({show(shown)}): a {state.settings.break_min:g}-minute break",
            "substitutions may be made now",
        )
        return emit(state, t, nxt, TeamCall.PERIOD_END, L_DURATION, notes=notes)
    a, b = state.teams
    winner = None if state.score[a] == state.score[b] else a if state.score[a] > state.score[b] else b
    state = replace(state, phase=Phase.OVER, winner=winner, due=None)
    return emit(
        state,
        t,
        winner or a,
        TeamCall.MATCH_END,
        L_DURATION,
        notes=(f"{winner} wins" if winner else "a draw",),
    )


HANDLERS: Mapping[type[Any], Callable[[State, Any], Step]] = MappingProxyType(
    {
        Kickoff: _kickoff,
        Restart: _restart,
        BallOut: _ball_out,
        Try: _try,
        KickAtGoal: _kick_at_goal,
        FoulLine: _foul,
        Substitution: _substitution,
        Whistle: _whistle,
    }
)

__all__ = ["POINTS", "Phase", "State", "Variant", "engine", "start", "step"]
