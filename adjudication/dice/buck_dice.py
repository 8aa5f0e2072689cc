"""Buck dice: a draw for the order and the point number, then throws of three dice to exactly fifteen.

The rules this engine applies, its inputs, options and fouls, and where it departs from the rules text are on
the game's page, docs/games/buck-dice.md; decisions cite its rules as "Buck dice rule N". ``score`` is the
running totals (15: out); ``State.loser`` names the last player left, ``State.double`` the big-buck winners.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from adjudication import options
from adjudication.dice import common
from adjudication.dice.common import FoulRule, Rule
from adjudication.engine import Engine, RuleError
from arbiter.contract import Decision, FrozenMap, JsonLine, Match, Roll
from arbiter.games import dice

SPEC = dice("buck-dice")
GAME = SPEC.id
NAME = "Buck dice"
DICE = 3
BUCK = 15  # the score that takes a player out
SMALL_BUCK = 5

# The rules as docs/games/buck-dice.md numbers them.
HOYLE = "Hoyle's Buck dice"
THREE_DICE = Rule(NAME, 1, "three dice thrown together; the point is thrown with one")
DRAW = Rule(NAME, 2, "the highest in the draw throws first, the lowest throws the point number")
DRAW_TIES = Rule(NAME, 3, "players tied in the draw throw again", HOYLE)
IN_TURN = Rule(NAME, 4, "players throw in turn")
POINT_NUMBERS = Rule(NAME, 5, "one point for each die showing the point number")
SMALL = Rule(NAME, 6, "three alike, not the point number: a small buck, 5 points")
BIG = Rule(NAME, 7, "three point numbers: a big buck, straight to 15")
TURN_ENDS = Rule(NAME, 8, "a throw with no point number ends the turn")
EXACTLY = Rule(NAME, 9, "15 is made exactly; a throw past it does not count", HOYLE)
OUT = Rule(NAME, 10, "15 is a buck and the player is out; the last player left loses")


class Phase(StrEnum):
    DRAW = "draw"  # players throw three dice for the order
    POINT = "point"  # the lowest throws one die for the point number
    PLAY = "play"


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, IN_TURN),
        Reason.WRONG_DICE: FoulRule(0, THREE_DICE),
        Reason.DIE_NOT_THROWN: FoulRule(0, THREE_DICE),
    }
)


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    phase: Phase
    totals: tuple[int, ...]
    point: int | None = None
    first: str | None = None  # who throws first in play (the draw's highest)
    low: str | None = None  # who throws the point (the draw's lowest)
    group: tuple[str, ...] = ()  # draw: who throws in this pass, in order
    pass_totals: tuple[int, ...] = ()  # draw: this pass's totals so far, in group order
    initial: Mapping[str, int] = FrozenMap()  # draw: the first pass's totals
    draw_notes: tuple[str, ...] = ()
    turn: str | None = None  # play: who throws
    out: tuple[str, ...] = ()  # players out, in the order they went
    double: tuple[str, ...] = ()  # players out on a big buck
    loser: str | None = None
    shot: int = 0
    over: bool = False
    winner: str | None = None

    @property
    def score(self) -> Mapping[str, int]:
        return FrozenMap(zip(self.players, self.totals, strict=True))

    @property
    def on_turn(self) -> str | None:
        if self.over:
            return None
        if self.phase is Phase.DRAW:
            return self.group[len(self.pass_totals)]
        if self.phase is Phase.POINT:
            return self.low
        return self.turn

    @property
    def on(self) -> str | None:
        return None if self.point is None or self.over else str(self.point)


def start(match: Match) -> State:
    chosen = options.read_all(SPEC, match)
    options.check_players(SPEC, match)
    totals = (0,) * len(match.players)
    point, first = chosen["point"], chosen["first"]
    if point is None:
        if "first" in match.options:
            raise RuleError(f"{GAME} option first needs point: without a point number the draw decides both")
        return State(players=match.players, phase=Phase.DRAW, totals=totals, group=match.players)
    return State(players=match.players, phase=Phase.PLAY, totals=totals, point=point, first=first, turn=first)


def _foul(state: State, roll: Roll, reason: Reason, why: str) -> tuple[State, tuple[Decision, ...]]:
    return common.void_throw(state, roll, reason, FOULS[reason], why, next_player=state.on_turn, on=state.on)


def _draw(state: State, roll: Roll) -> tuple[State, tuple[Decision, ...]]:
    """A throw of the draw: when its pass is complete, settle ties by a new pass or name first and low."""
    totals = (*state.pass_totals, sum(d.value for d in roll.dice))
    state = replace(state, pass_totals=totals, shot=state.shot + 1)
    if len(totals) < len(state.group):
        return state, ()
    thrown = dict(zip(state.group, totals, strict=True))
    if state.first is None:
        initial = state.initial or FrozenMap(thrown)
        top = max(totals)
        leaders = tuple(p for p, t in thrown.items() if t == top)
        if len(leaders) > 1:
            note = f"tie for the highest at {top}: {', '.join(leaders)} throw again ({DRAW_TIES.ref})"
            notes = (*state.draw_notes, note)
            return replace(state, group=leaders, pass_totals=(), initial=initial, draw_notes=notes), ()
        first = leaders[0]
        note = f"{first} threw the highest, {top}, and throws first ({DRAW.ref})"
        state = replace(state, first=first, initial=initial, draw_notes=(*state.draw_notes, note))
        pool = {p: t for p, t in initial.items() if p != first}
    else:
        pool = thrown
    bottom = min(pool.values())
    lows = tuple(p for p in state.players if pool.get(p) == bottom)
    if len(lows) > 1:
        note = f"tie for the lowest at {bottom}: {', '.join(lows)} throw again ({DRAW_TIES.ref})"
        return replace(state, group=lows, pass_totals=(), draw_notes=(*state.draw_notes, note)), ()
    note = f"{lows[0]} threw the lowest, {bottom}, and throws the point ({DRAW.ref})"
    notes = (*state.draw_notes, note)
    return replace(state, phase=Phase.POINT, low=lows[0], group=(), pass_totals=(), draw_notes=notes), ()


def _point(state: State, roll: Roll) -> tuple[State, tuple[Decision, ...]]:
    die = next(d for d in roll.dice if d.id in roll.thrown)
    new = replace(state, phase=Phase.PLAY, point=die.value, turn=state.first, shot=state.shot + 1)
    decision = Decision(
        shot=new.shot,
        player=roll.player,
        score=new.score,
        next=new.on_turn,
        on=new.on,
        notes=(*state.draw_notes, f"the point number is {die.value} ({DRAW.ref})"),
    )
    return new, (decision,)


def _play(state: State, roll: Roll) -> tuple[State, tuple[Decision, ...]]:
    point = state.point
    if point is None:  # Phase.PLAY always has its point number
        raise RuleError(f"{GAME}: there is no point number yet")
    player = roll.player
    seat = state.players.index(player)
    faces = [d.value for d in roll.dice]
    had = state.totals[seat]
    hits = faces.count(point)
    big = hits == DICE
    if big:
        gained, goes_on, note = (
            BUCK - had,
            False,
            f"big buck: three {point}s, straight to {BUCK} ({BIG.ref})",
        )
    elif len(set(faces)) == 1:
        gained, goes_on, note = (
            SMALL_BUCK,
            False,
            f"small buck: three {faces[0]}s, {SMALL_BUCK} points ({SMALL.ref})",
        )
    elif hits:
        gained, goes_on, note = (
            hits,
            True,
            f"{hits} point number{'s' if hits > 1 else ''} ({POINT_NUMBERS.ref})",
        )
    else:
        gained, goes_on, note = 0, False, f"no point number: the turn ends ({TURN_ENDS.ref})"
    notes = [note]
    if not big and had + gained > BUCK:
        notes.append(f"{had} + {gained} passes {BUCK}: the throw does not count, throw again ({EXACTLY.ref})")
        gained, goes_on = 0, True
    total = had + gained
    totals = tuple(total if i == seat else t for i, t in enumerate(state.totals))
    new = replace(state, totals=totals, shot=state.shot + 1)
    if total == BUCK:
        out = (*state.out, player)
        double = (*state.double, player) if big else state.double
        new = replace(new, out=out, double=double)
        notes.append(
            f"{player} has a buck and is out" + (", owed a double win" if big else "") + f" ({OUT.ref})"
        )
        left = [p for p in state.players if p not in out]
        if len(left) == 1:
            winner = player if len(state.players) == 2 else None
            new = replace(new, loser=left[0], over=True, winner=winner, turn=None)
            notes.append(f"{left[0]} is the last one left and loses ({OUT.ref})")
        else:
            new = replace(new, turn=common.left_of(state.players, player, out=out))
    elif not goes_on:
        new = replace(new, turn=common.left_of(state.players, player, out=state.out))
    decision = common.turn_decision(new, player, notes, {player: gained}, on=new.on)
    return new, (decision,)


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    if state.over:
        raise common.game_over(GAME, event, state.winner)
    thrower = state.on_turn
    if not isinstance(event, Roll):
        raise common.not_now(GAME, event, f"a roll by {thrower}")
    common.check_player(GAME, state.players, event)
    checks = [(Reason.OUT_OF_TURN, common.wrong_thrower(event, thrower or ""))]
    if state.phase is Phase.POINT:
        one = (
            None
            if len(event.thrown) == 1
            else f"the point is thrown with one die ({len(event.thrown)} moved)"
        )
        checks.append((Reason.WRONG_DICE, one))
    else:
        checks.append((Reason.WRONG_DICE, common.wrong_count(event, DICE)))
        checks.append((Reason.DIE_NOT_THROWN, common.not_all_thrown(event)))
    problem = common.first_problem(checks)
    if problem is not None:
        return _foul(state, event, *problem)
    if state.phase is Phase.DRAW:
        return _draw(state, event)
    if state.phase is Phase.POINT:
        return _point(state, event)
    return _play(state, event)


ENGINE = Engine(game=GAME, start=start, step=step)
