"""Futsal: FIFA's Futsal Laws of the Game as the rules text gives them (the 2008 Laws 1 to 18, the
procedures to find a winner, and the 2006 clarifications), the 2021/22 laws where the text is silent. Each
decision names its law as ``FIFA Futsal Law n (2008; 2021/22 Law m)`` (``laws.futsal``);
docs/games/futsal.md has the full table.

Inputs (architecture.md, "Team sports"; the line types of ``arbiter.contract.team``): ``kickoff``,
``ball_out``, ``restart``, ``goal`` (camera); ``foul``, ``timeout``, ``substitution``, ``whistle``, and
``kick_at_goal`` (``kind`` ``penalty``) for the kicks from the penalty mark (timekeeper). Options, declared
with their defaults in the registry (``SPEC.options``): ``half_min`` (20, Law 8), ``extra_time`` (false),
``extra_min`` (5), ``penalties`` (false), ``pitch_m`` ([20, 40], Law 1), ``clock_tolerance_s`` (1.0).

Decisions (``Decision`` with the team fields: ``call``, ``law``, ``restart``, ``clock``, ``period``,
``fouls``, ``on_court``, ``shootout``), one for each line that settles something: a period's start and
end, the restart the ball going out gives, a goal (or why it does not count), a foul with the kick it
gives, its accumulated count and cards, a four-second offence, a time-out granted or refused, a refused
substitution, a stoppage, each kick from the penalty mark. A restart taken as due, a substitution, a line
while the ball is already out of play settle nothing and give no decision. A line that contradicts the
state (a restart other than the one due, a kick-off by the wrong team, a period-end whistle minutes early)
is ``RuleError``.

The clock runs from the kick-off or restart until the ball is out, a foul, a goal or a whistle (Law 7, 8).
The period ends when it reaches the period's length (a goal after that does not count), or at the
timekeeper's ``whistle`` ``period_end`` within ``clock_tolerance_s`` of it.

Where the text is silent or departs from FIFA (docs/games/futsal.md, "Departures", says why):

- goals straight from a dropped ball do not count (FIFA 2021/22 Law 8); an own goal straight from any
  restart gives a corner (FIFA); either team may play a dropped ball (the text's referee drops it);
- four seconds: counted from ``restart.ready_t``; without it from the ball going out for kick-ins, corners
  and goal clearances (architecture.md), not judged for free kicks; from a time-out's end after one; no
  limit at a kick-off or a penalty (the text gives none). A late corner gives the defenders a free kick from
  the corner arc, as the text says (FIFA 2021/22: a goal clearance); a late free kick gives the other team an
  indirect free kick where it was to be taken (the text names no place; FIFA Law 13);
- time-outs: asked for at any time, granted at the first moment the ball is out of play with the asking
  team to restart (its "possession"); the minute itself is not checked beyond the four seconds;
- a sixth-or-later foul inside the offender's penalty area is a penalty (Law 12 over Law 14); exactly 10 m
  from the goal line counts as beyond the 10 m line; the count of the second half runs through both
  periods of extra time (FIFA);
- advantage (``foul.advantage``): the foul and its card count at once, no restart is given;
- time added for a penalty or 10 m kick (Law 14, 15): when the whistle comes while the kick is due, or the
  kick is taken with less than ``clock_tolerance_s`` left; the period ends at the first stop after the
  kick, as does the outcome of an offence at such a kick (the stream has no "kick complete" line);
- a sent-off team plays short for two minutes of *playing* time (FIFA; the text's timekeeper runs it on
  the clock); a goal by the team with more players lifts the short team's suspension that would end first;
  a goal by the short team changes nothing (FIFA; the text's cases are all goals by the larger team);
- fewer than three players on the ground ends the match with no winner: the text says it is stopped and
  leaves the result to the competition;
- ends in extra time: the ends of periods 1 and 2 again unless ``kickoff.defends_y0`` says otherwise
  (FIFA tosses a coin);
- not judged (no line shows them): the kick-off, kick-in and goal-clearance procedures beyond the
  distance, the back-pass and second-touch offences unless entered as fouls, the goalkeeper's exception to
  handling in his own area, substitution-zone offences unless entered as misconduct, the number of
  substitutes, the length of the half-time interval and of a time-out, equal numbers and the order of
  kickers at the kicks from the penalty mark.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from adjudication import options
from adjudication.engine import Engine, RuleError
from adjudication.team import common, fouls, laws, restarts
from adjudication.team.clock import Clock
from adjudication.team.discipline import Card, after_goal, card
from adjudication.team.futsal_periods import (
    abandon,
    end_period,
    grant_timeout,
    shootout_kick,
    start_period,
    timeout,
    whistle_end,
)
from adjudication.team.futsal_state import (
    CARDS,
    GAME,
    MIN_PLAYERS,
    PLAYERS,
    SPEC,
    Phase,
    Settings,
    State,
    emit,
)
from adjudication.team.pitch import XY, Pitch
from adjudication.team.restarts import COUNTED_FROM_OUT, FOUR_SECOND_LAW, FOUR_SECONDS_S, Ruling
from arbiter.contract import (
    FUTSAL_RESTARTS,
    BallOut,
    Decision,
    FoulLine,
    FrozenMap,
    Goal,
    JsonLine,
    KickAtGoal,
    Kickoff,
    Match,
    Restart,
    RestartDue,
    Substitution,
    TeamCall,
    Timeout,
    Whistle,
    player_team,
)

Step = tuple[State, tuple[Decision, ...]]

OPTIONS: Mapping[str, str] = MappingProxyType({o.name: o.help for o in SPEC.options})
"""The header options this engine reads: the registry's (``arbiter.games``), each with what it sets."""
PITCH_BOUNDS = (15.0, 25.0, 25.0, 42.0)  # Law 1: goal line 15-25 m, touch line 25-42 m
TAKES = "kickoff, ball_out, restart, goal, foul, timeout, substitution, whistle and kick_at_goal"


def start(match: Match) -> State:
    teams = common.teams(SPEC, match)
    settings = Settings(
        half_us=common.minutes_us(SPEC, match, "half_min"),
        extra_us=common.minutes_us(SPEC, match, "extra_min"),
        extra_time=options.read(SPEC, match, "extra_time"),
        penalties=options.read(SPEC, match, "penalties"),
        pitch=Pitch(*common.pitch_option(SPEC, match, PITCH_BOUNDS)),
        tolerance_us=common.seconds_us(SPEC, match, "clock_tolerance_s"),
    )
    return State(
        teams=teams,
        settings=settings,
        score=common.zero(teams),
        fouls=common.zero(teams),
        clock=Clock(settings.half_us),
        due=RestartDue("kick_off", None, settings.pitch.centre),
    )


def step(state: State, line: JsonLine) -> Step:
    handler = HANDLERS.get(type(line))
    if handler is None:
        raise common.not_taken(GAME, line, TAKES)
    common.check_names(GAME, state.teams, line)
    t: float = line.t  # type: ignore[attr-defined]  # every team line has one
    if state.phase is Phase.OVER:
        return _after_end(state, line)
    discipline = state.discipline.expire(state.match_us(t)) if state.discipline.short else state.discipline
    if discipline is not state.discipline:
        state = replace(state, discipline=discipline)
    early: tuple[Decision, ...] = ()
    if state.phase is Phase.PLAY and not state.taken_added and state.clock.expired(t):
        end_t = state.clock.expiry_t() or t
        state, early = end_period(state, end_t, by_clock=True)
        if state.phase is Phase.OVER:
            state, more = _after_end(state, line)
            return state, (*early, *more)
    state, decisions = handler(state, line)
    if state.just_taken and not isinstance(line, Restart | Kickoff):
        # a distance foul belongs to the line right after the restart, no later one
        state = replace(state, just_taken=False)
    return state, (*early, *decisions)


def _after_end(state: State, line: JsonLine) -> Step:
    """After the final whistle: the clock's end may still be followed by its whistle line, a ball rolling
    out, or the ball crossing the goal line too late; nothing else is taken."""
    if isinstance(line, Whistle) and line.reason == "period_end" and state.ended_by_clock:
        return replace(state, ended_by_clock=False), ()
    if isinstance(line, BallOut):
        return state, ()
    if isinstance(line, Goal):
        note = "the ball crossed the goal line after the end of the match"
        state, d = emit(state, line.t, line.team, TeamCall.GOAL_DISALLOWED, laws.futsal(8), notes=[note])
        return state, (d,)
    raise RuleError(
        f"{GAME}: the match is over ({state.winner or 'no winner'}); no {line.TYPE} line is taken"
    )


# --- restarts ---------------------------------------------------------------------------------------------


def _kickoff(state: State, line: Kickoff) -> Step:
    if state.phase is Phase.BEFORE:
        return start_period(state, line)
    if state.phase is Phase.DEAD and state.due is not None and state.due.kind == "kick_off":
        return _take(state, line.t, line.team, "kick_off", None, None)
    raise RuleError(f"{GAME}: a kickoff starts a period or follows a goal; {_now(state)}")


def _restart(state: State, line: Restart) -> Step:
    if line.kind not in FUTSAL_RESTARTS:
        raise RuleError(
            f"{GAME}: restart.kind {line.kind!r} is a rugby restart; futsal's: {', '.join(FUTSAL_RESTARTS)}"
        )
    if state.phase is Phase.BEFORE and line.kind == "kick_off":
        return start_period(state, Kickoff(t=line.t, team=line.team))
    if state.phase is not Phase.DEAD:
        raise RuleError(f"{GAME}: a {line.kind} restarts play after a stoppage; {_now(state)}")
    return _take(state, line.t, line.team, line.kind, line.xy_m, line.ready_t)


def _now(state: State) -> str:
    if state.phase is Phase.PLAY:
        return "the ball is in play now"
    if state.phase is Phase.DEAD and state.due is not None:
        return f"a {state.due.kind} by {state.due.team or 'either team'} is due now"
    if state.phase is Phase.BEFORE:
        return f"period {state.period + 1} has not kicked off"
    return f"the match is in its {state.phase} phase"


def _take(state: State, t: float, team: str, kind: str, xy: XY | None, ready_t: float | None) -> Step:
    """The ball played at a restart: the one due (or an alternative), within four seconds where counted."""
    due = state.due or RestartDue("kick_off", None)  # DEAD always has a restart due
    chosen = next((r for r in (due, *state.also) if r.kind == kind and r.team in (None, team)), None)
    if chosen is None:
        allowed = " or ".join(f"{r.kind} by {r.team or 'either team'}" for r in (due, *state.also))
        raise RuleError(f"{GAME}: the restart due is {allowed}; got a {kind} by {team}")
    start_t = ready_t if ready_t is not None else (state.count_from if kind in COUNTED_FROM_OUT else None)
    if kind in FOUR_SECOND_LAW and start_t is not None and t - start_t > FOUR_SECONDS_S:
        placed = chosen if chosen.xy_m is not None or xy is None else replace(chosen, xy_m=xy)
        ruling = restarts.four_seconds(state.settings.pitch, state.ends, placed, team)
        note = f"{t - start_t:.1f} s from the ball ready to the ball played"
        ruling = replace(ruling, notes=(*ruling.notes, note))
        return _rule(state, t, team, ruling)
    taken = chosen if chosen.xy_m is not None or xy is None else replace(chosen, xy_m=xy)
    state = replace(
        state,
        phase=Phase.PLAY,
        clock=state.clock.start(t),
        due=None,
        also=(),
        taken=replace(taken, team=team),
        taken_added=state.due_added
        and (state.added_time or state.clock.remaining_us(t) <= state.settings.tolerance_us),
        due_added=False,
        just_taken=True,
    )
    return state, ()


def _rule(state: State, t: float, team: str, ruling: Ruling, notes: tuple[str, ...] = ()) -> Step:
    """Play stops at ``t`` and ``ruling`` gives the restart: its decision, then a time-out it lets be
    granted, then the end of a period extended for a kick that is now complete."""
    finishing = state.phase is Phase.PLAY and state.taken_added and ruling.call is not TeamCall.RETAKE
    state = replace(
        state,
        clock=state.clock.stop(t),
        just_taken=False,
        phase=Phase.DEAD,
        kick_offence=None,
        due=ruling.restart,
        also=ruling.also,
        due_added=ruling.added_time,
        taken=None,
        taken_added=False,
        count_from=t,
    )
    state, d = emit(
        state, t, team, ruling.call, ruling.law, reason=ruling.reason or None, notes=(*ruling.notes, *notes)
    )
    out: tuple[Decision, ...] = (d,)
    if finishing:
        state, more = end_period(state, t, by_clock=False)
        return state, (*out, *more)
    state, granted = grant_timeout(state, t)
    return state, (*out, *granted)


def _ball_out(state: State, line: BallOut) -> Step:
    if state.phase is not Phase.PLAY:
        return state, ()  # the ball was already out of play (a ball rolling out after the whistle)
    ruling = _kick_outcome(state) or restarts.ball_out(state.settings.pitch, state.ends, line)
    return _rule(state, line.t, line.last, ruling)


# --- goals ------------------------------------------------------------------------------------------------


def _goal(state: State, line: Goal) -> Step:
    if state.phase is Phase.BEFORE and state.period == 0:
        raise RuleError(f"{GAME}: a goal before the kick-off of the match")
    if state.phase is not Phase.PLAY:
        why = (
            "after the end of the period" if state.phase is Phase.BEFORE else "while the ball was out of play"
        )
        state, d = emit(
            state,
            line.t,
            line.team,
            TeamCall.GOAL_DISALLOWED,
            laws.futsal(10),
            notes=[f"the ball crossed {why}"],
        )
        return state, (d,)
    if state.kick_offence is not None and state.taken is not None and state.kick_offence == line.team:
        why = "a goal after the kicking team's offence: the kick is retaken"
        retake = Ruling(TeamCall.RETAKE, RETAKE_LAW[state.taken.kind], state.taken, "distance", notes=(why,))
        return _rule(state, line.t, line.team, replace(retake, added_time=state.taken_added))
    if line.direct and state.taken is not None:
        ruling = restarts.direct_goal(state.ends, state.taken, line.team)
        if ruling is not None:
            return _rule(state, line.t, line.team, ruling)
    conceder = state.other(line.team)
    discipline, note = after_goal(state.discipline, state.teams, line.team, PLAYERS)
    state = replace(state, score=common.bump(state.score, line.team), discipline=discipline)
    ruling = Ruling(
        TeamCall.GOAL, laws.futsal(11), RestartDue("kick_off", conceder, state.settings.pitch.centre)
    )
    notes: tuple[str, ...] = (f"goal by {line.by}",) if line.by else ()
    if state.kick_offence is not None:
        notes += ("the defending team's offence at the kick does not matter: the goal stands",)
    state, ds = _rule(state, line.t, line.team, ruling, notes + ((note,) if note else ()))
    first = replace(ds[0], points=FrozenMap({line.team: 1}))
    return state, (first, *ds[1:])


# --- fouls ------------------------------------------------------------------------------------------------


def _foul(state: State, line: FoulLine) -> Step:
    state.discipline.check_player(GAME, line.player)
    if line.kind == "distance":
        return _distance(state, line)
    if line.kind == "four_seconds" and state.phase is Phase.DEAD:
        return _late_restart(state, line)
    if state.phase is not Phase.PLAY:
        if line.kind == "misconduct":
            return _card_only(state, line)
        raise RuleError(
            f"{GAME}: a {line.kind} foul needs the ball in play ({_now(state)}); "
            "an offence while it is out of play is misconduct (foul.kind misconduct, with its card)"
        )
    xy = _place(line)
    pitch, ends = state.settings.pitch, state.ends
    notes: list[str] = []
    if fouls.counts(line.kind):
        count = state.fouls[line.team] + 1
        state = replace(state, fouls=common.bump(state.fouls, line.team))
        ruling = fouls.direct_free_kick(pitch, ends, line, xy, count)
    else:
        ruling = fouls.indirect_free_kick(pitch, ends, line, xy)
    state, card_notes = _card(state, line)
    notes.extend(card_notes)
    if line.advantage:
        notes.append("advantage: play goes on; the foul is recorded (clarification 2006 to Law 14)")
        state, d = emit(
            state, line.t, line.team, ruling.call, ruling.law, reason=line.kind, notes=[*ruling.notes, *notes]
        )
        return _maybe_abandon(state, line.t, (replace(d, restart=None, next=None),))
    state, ds = _rule(state, line.t, line.team, ruling, tuple(notes))
    return _maybe_abandon(state, line.t, ds)


def _place(line: FoulLine) -> XY:
    if line.xy_m is None:
        raise RuleError(
            f"{GAME}: foul.xy_m is needed for a {line.kind} foul in play (where the free kick is taken)"
        )
    return line.xy_m


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
        return state, [f"{line.player} cautioned (yellow card, Law 12)"]
    why = "a second caution" if outcome is Card.SECOND_CAUTION else "a red card"
    if line.bench:
        return state, [
            f"substitute {line.player} sent off for {why}; his team stays whole (clarification 2006)"
        ]
    short = f"{line.team} plays one short for two minutes or until it concedes (Law 12, decision)"
    return state, [f"{line.player} sent off for {why}: {short}"]


def _card_only(state: State, line: FoulLine) -> Step:
    """A card while the ball is out of play (or for misconduct alone): the restart due stays as it was."""
    if line.card is None:
        raise RuleError(f"{GAME}: foul.kind misconduct while the ball is out of play needs a card")
    state, notes = _card(state, line)
    call = TeamCall.CAUTION if line.card == "yellow" and "cautioned" in notes[0] else TeamCall.SEND_OFF
    state, d = emit(state, line.t, line.team, call, laws.futsal(12), notes=notes)
    return _maybe_abandon(state, line.t, (d,))


def _maybe_abandon(state: State, t: float, decisions: tuple[Decision, ...]) -> Step:
    on_court = state.on_court()
    short = next((team for team in state.teams if on_court[team] < MIN_PLAYERS), None)
    if short is None:
        return state, decisions
    state, more = abandon(state, t, short)
    return state, (*decisions, *more)


def _distance(state: State, line: FoulLine) -> Step:
    """A player too near the ball at a restart (Law 9, 13-18): the restart is taken again."""
    if state.phase is Phase.DEAD and state.due is not None:
        again = state.due
    elif state.phase is Phase.PLAY and state.just_taken and state.taken is not None:
        again = state.taken
    else:
        raise RuleError(
            f"{GAME}: a distance foul belongs to a restart, and none is being taken ({_now(state)})"
        )
    if state.phase is Phase.PLAY and again.kind in MARK_KICKS:
        return _kick_offence(state, line, again)
    if again.team == line.team:
        raise RuleError(
            f"{GAME}: the distance at a {again.kind} binds {state.other(line.team)}, not the kicking team"
        )
    state, notes = _card(state, line)
    law = RETAKE_LAW.get(again.kind, laws.futsal(13))
    ruling = Ruling(
        TeamCall.RETAKE, law, again, "distance", notes=(f"{line.team} did not keep the distance: retaken",)
    )
    added = state.due_added if state.phase is Phase.DEAD else state.taken_added
    state, ds = _rule(state, line.t, line.team, replace(ruling, added_time=added), tuple(notes))
    return _maybe_abandon(state, line.t, ds)


RETAKE_LAW: Mapping[str, str] = MappingProxyType(
    {
        "kick_off": laws.FUTSAL_KICK_OFF,
        "kick_in": laws.futsal(16),
        "corner": laws.futsal(18),
        "goal_clearance": laws.futsal(17),
        "penalty": laws.futsal(15),
        "second_penalty_mark": laws.futsal(14),
    }
)


MARK_KICKS = frozenset({"penalty", "second_penalty_mark"})


def _kick_offence(state: State, line: FoulLine, kick: RestartDue) -> Step:
    """Law 14, 15: a player out of position at a penalty or 10 m kick; the kick's outcome decides."""
    state, notes = _card(state, line)
    side = "the kicking team" if line.team == kick.team else "the defending team"
    why = f"{side} broke the positions at the {kick.kind}: the kick's outcome decides"
    state = replace(state, kick_offence=line.team)
    state, d = emit(
        state, line.t, line.team, TeamCall.FOUL, RETAKE_LAW[kick.kind], reason="distance", notes=[why, *notes]
    )
    return state, (d,)


def _kick_outcome(state: State) -> Ruling | None:
    """No goal from a kick with an offence at it: the defenders' offence has it retaken; the kicking
    team's gives the defenders an indirect free kick where the ball was (clarification 2006 to Law 15)."""
    offence, kick = state.kick_offence, state.taken
    if offence is None or kick is None or kick.team is None:
        return None
    law = RETAKE_LAW[kick.kind]
    if offence != kick.team:
        why = "no goal after the defending team's offence: the kick is retaken"
        return Ruling(TeamCall.RETAKE, law, kick, "distance", notes=(why,), added_time=state.taken_added)
    defenders = state.other(kick.team)
    why = "no goal after the kicking team's offence: an indirect free kick to the defending team"
    restart = RestartDue("free_kick_indirect", defenders, kick.xy_m)
    return Ruling(TeamCall.FOUL, laws.futsal(15, clarified=True), restart, "distance", notes=(why,))


def _late_restart(state: State, line: FoulLine) -> Step:
    due = state.due
    if due is None or due.kind not in FOUR_SECOND_LAW or due.team != line.team:
        raise RuleError(f"{GAME}: a four_seconds foul by {line.team} fits no restart due ({_now(state)})")
    ruling = restarts.four_seconds(state.settings.pitch, state.ends, due, line.team)
    state, notes = _card(state, line)
    return _rule(state, line.t, line.team, ruling, tuple(notes))


# --- the rest ---------------------------------------------------------------------------------------------


def _whistle(state: State, line: Whistle) -> Step:
    if line.reason == "period_end":
        return whistle_end(state, line)
    if state.phase is not Phase.PLAY:
        return state, ()  # play is already stopped: the restart due stands
    outcome = _kick_outcome(state)
    if outcome is not None:
        return _rule(state, line.t, state.teams[0], outcome)
    restart = restarts.dropped_ball(state.settings.pitch, line.xy_m)
    ruling = Ruling(
        TeamCall.STOPPAGE, laws.futsal(9), restart, notes=(f"play stopped ({line.reason}): a dropped ball",)
    )
    return _rule(state, line.t, state.teams[0], ruling)


def _substitution(state: State, line: Substitution) -> Step:
    if line.out is not None and line.out in state.discipline.sent_off:
        raise RuleError(f"{GAME}: substitution.out {line.out} was sent off and is not on the ground")
    if line.in_ in state.discipline.sent_off:
        note = f"{line.in_} was sent off and may not return to the match (Law 12, decision)"
        state, d = emit(
            state, line.t, line.team, TeamCall.SUBSTITUTION_REFUSED, laws.futsal(12), notes=[note]
        )
        return state, (d,)
    if player_team(line.in_) != line.team:
        raise RuleError(f"{GAME}: substitution.in {line.in_} is not a player of {line.team}")
    return state, ()


def _kick_at_goal(state: State, line: KickAtGoal) -> Step:
    return shootout_kick(state, line)


def _timeout(state: State, line: Timeout) -> Step:
    return timeout(state, line)


HANDLERS: Mapping[type[Any], Callable[[State, Any], Step]] = MappingProxyType(
    {
        Kickoff: _kickoff,
        Restart: _restart,
        BallOut: _ball_out,
        Goal: _goal,
        FoulLine: _foul,
        Whistle: _whistle,
        Timeout: _timeout,
        Substitution: _substitution,
        KickAtGoal: _kick_at_goal,
    }
)

ENGINE = Engine(game=SPEC.id, start=start, step=step)

__all__ = ["ENGINE", "GAME", "OPTIONS", "SPEC", "Phase", "State", "start", "step"]
