"""Buck dice (seed 000 "Бак Дайс", line 117): throw the point number to fifteen; the last one left loses.

Three dice. The draw: every player throws the three dice; the highest total throws first, and the lowest
throws one die again, whose face is the point number for the game. Play then goes round from the first
thrower. A throw scores one point for each die showing the point number; three alike that are not the point
are a small buck, 5 points; three point numbers are a big buck, which takes the thrower straight to 15
whatever they had. The thrower goes on throwing until a throw with no point number (a small buck included,
since it shows none: the text's "a combination without a single point number" ends the turn), or until 15.
Fifteen points is a buck: the player leaves the game; the last player left loses. A player who went out on a
big buck is owed a double win.

Where the text is silent, Hoyle (and gamerules.com, dicecold.com, dice-play.com, which agree) is followed:
- 15 must be made exactly: a throw that would take the score past 15 does not count and the player throws
  again (a void throw, not a foul).
- A tie for the highest or the lowest total in the draw is settled by the tied players throwing again, in turn
  order, as often as needed. The lowest thrower is sought among the others, so it is never the first thrower.
- After the first thrower, play goes to the left (header order) as in the text's other games.

Inputs: ``roll`` lines only: the draw (three dice each, then one die for the point), then the game (three dice
a throw).

Options:
- ``point`` (1..6, default none: the draw is refereed in the stream): a point number agreed before the stream;
  the draw is then skipped.
- ``first`` (a player; only with ``point``, default the first in the header): who throws first when the draw
  is skipped. Without ``point`` the draw decides it, and giving ``first`` is an error.

Decisions: one per throw of the game, and one for the point throw that ends the draw (``on`` is the point
number from then on). ``points`` what the throw scored, ``score`` the running totals (15 = out). The game is
over when one player is left: that player is ``State.loser``; with two players the other is the ``winner``,
with more every other player has won and ``winner`` stays null. ``State.double`` lists the big-buck winners.

Fouls: a void throw, penalty 0 (the text names none), the same player still to throw: a roll by a player not
on turn, a roll that is not three dice all thrown, a point throw of more than one die. Lines of any other type
raise ``RuleError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from adjudication.dice import common
from adjudication.dice.common import FoulRule
from adjudication.engine import Engine
from arbiter.contract import Decision, FrozenMap, JsonLine, Match, Roll

GAME = "buck-dice"
RULE = "seed 000 Бак Дайс (l.117)"
HOYLE = "Hoyle Buck Dice"
DICE = 3
BUCK = 15  # the score that takes a player out
SMALL_BUCK = 5
OPTIONS: Mapping[str, str] = MappingProxyType(
    {"point": "the point number 1..6 (skips the draw)", "first": "who throws first (only with point)"}
)


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
        Reason.OUT_OF_TURN: FoulRule(0, RULE + ": players throw in turn"),
        Reason.WRONG_DICE: FoulRule(0, RULE + ": three dice are thrown, one for the point"),
        Reason.DIE_NOT_THROWN: FoulRule(0, RULE + ": the three dice are thrown together"),
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
    common.check_options(GAME, match, OPTIONS)
    common.check_players(GAME, match, minimum=2)
    totals = (0,) * len(match.players)
    if match.options.get("point") is None:
        if "first" in match.options:
            raise ValueError(
                "buck-dice option first needs point: without a point number the draw decides both"
            )
        return State(players=match.players, phase=Phase.DRAW, totals=totals, group=match.players)
    point = common.int_option(GAME, match, "point", 1, minimum=1, maximum=6)
    first = common.player_option(GAME, match, "first")
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
            note = f"tie for the highest at {top}: {', '.join(leaders)} throw again ({HOYLE})"
            notes = (*state.draw_notes, note)
            return replace(state, group=leaders, pass_totals=(), initial=initial, draw_notes=notes), ()
        first = leaders[0]
        note = f"{first} threw the highest, {top}, and throws first"
        state = replace(state, first=first, initial=initial, draw_notes=(*state.draw_notes, note))
        pool = {p: t for p, t in initial.items() if p != first}
    else:
        pool = thrown
    bottom = min(pool.values())
    lows = tuple(p for p in state.players if pool.get(p) == bottom)
    if len(lows) > 1:
        note = f"tie for the lowest at {bottom}: {', '.join(lows)} throw again ({HOYLE})"
        return replace(state, group=lows, pass_totals=(), draw_notes=(*state.draw_notes, note)), ()
    note = f"{lows[0]} threw the lowest, {bottom}, and throws the point"
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
        notes=(*state.draw_notes, f"the point number is {die.value} ({RULE})"),
    )
    return new, (decision,)


def _play(state: State, roll: Roll) -> tuple[State, tuple[Decision, ...]]:
    player = roll.player
    seat = state.players.index(player)
    faces = [d.value for d in roll.dice]
    had = state.totals[seat]
    hits = faces.count(state.point)
    big = hits == DICE
    if big:
        gained, goes_on, note = (
            BUCK - had,
            False,
            f"big buck: three {state.point}s, straight to {BUCK} ({RULE})",
        )
    elif len(set(faces)) == 1:
        gained, goes_on, note = (
            SMALL_BUCK,
            False,
            f"small buck: three {faces[0]}s, {SMALL_BUCK} points ({RULE})",
        )
    elif hits:
        gained, goes_on, note = hits, True, f"{hits} point number{'s' if hits > 1 else ''} ({RULE})"
    else:
        gained, goes_on, note = 0, False, f"no point number: the turn ends ({RULE})"
    notes = [note]
    if not big and had + gained > BUCK:
        notes.append(f"{had} + {gained} passes {BUCK}: the throw does not count, throw again ({HOYLE})")
        gained, goes_on = 0, True
    total = had + gained
    totals = tuple(total if i == seat else t for i, t in enumerate(state.totals))
    new = replace(state, totals=totals, shot=state.shot + 1)
    if total == BUCK:
        out = (*state.out, player)
        double = (*state.double, player) if big else state.double
        new = replace(new, out=out, double=double)
        notes.append(f"{player} has a buck and is out" + (", owed a double win" if big else ""))
        left = [p for p in state.players if p not in out]
        if len(left) == 1:
            winner = player if len(state.players) == 2 else None
            new = replace(new, loser=left[0], over=True, winner=winner, turn=None)
            notes.append(f"{left[0]} is the last one left and loses ({RULE})")
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
