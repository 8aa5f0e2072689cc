"""Craps (seed 000 "Крэпс", line 56; rules-notes 5): the pass line of two dice, shooter by shooter.

The shooter's first throw (the come-out) wins on 7 or 11 and loses on craps, 2, 3 or 12; any other total
(4, 5, 6, 8, 9, 10) becomes the point. The shooter then throws until the point comes again (a win) or a 7
(a loss, "seven out"). Every win or loss is one decision, worth ``stake`` to the shooter.

Inputs: ``roll`` lines only, two dice, both thrown, by the shooter.

Options:
- ``stake`` (int >= 1, default 1): units a pass-line decision wins or loses.
- ``turns`` (int >= 1, default 1): how many times each player is the shooter. A shooter keeps the dice until
  a seven-out; the match ends at the seven-out that completes the last player's last turn.
- ``first`` (a player, default the first in the header): the first shooter.

Decisions: one per legal roll. ``score`` is each player's net pass-line result, ``points`` what the roll
won or lost, ``on`` the point while one stands (the total that wins, as text, e.g. ``"6"``). A roll that
neither wins nor loses is a decision with no points. At the end the best net result wins; a tie has no
winner (``winner`` null).

Departures from the text:
- The text says a come-out of "2, 8, 12" loses: a misprint. The pass-line rule of every casino and of the
  governing texts (rules-notes 5) is 2, 3 or 12; 8 is a point number. The engine follows that.
- The text is silent on when the dice pass and on how long a match is: the dice pass on a seven-out only
  (casino rule, rules-notes 5), and the match length is the ``turns`` option.

Fouls: a roll by a player who is not the shooter (``out_of_turn``), a roll that shows other than two dice
(``wrong_dice``), or one in which a die lay still (``die_not_thrown``: casino craps calls it "no roll") is
void: nothing changes, penalty 0. Lines of any other type raise ``RuleError``.
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

GAME = "craps"
RULE = "seed 000 Крэпс (l.56)"
PASS_LINE = "rules-notes 5 (pass line)"
DICE = 2
SEVEN = 7
OPTIONS: Mapping[str, str] = MappingProxyType(
    {
        "stake": "units a pass-line decision wins or loses, integer >= 1 (default 1)",
        "turns": "times each player is the shooter, integer >= 1 (default 1)",
        "first": "the first shooter",
    }
)


class ComeOut(StrEnum):
    NATURAL = "natural"
    CRAPS = "craps"
    POINT = "point"


# come-out total -> what it does (rules-notes 5; the text's "2, 8, 12" is a misprint for 2, 3, 12)
COME_OUT: Mapping[int, ComeOut] = MappingProxyType(
    {
        2: ComeOut.CRAPS,
        3: ComeOut.CRAPS,
        12: ComeOut.CRAPS,
        7: ComeOut.NATURAL,
        11: ComeOut.NATURAL,
        **dict.fromkeys((4, 5, 6, 8, 9, 10), ComeOut.POINT),
    }
)


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, RULE + ": the shooter throws"),
        Reason.WRONG_DICE: FoulRule(0, RULE + ": two dice are thrown"),
        Reason.DIE_NOT_THROWN: FoulRule(0, PASS_LINE + ": both dice must be thrown (no roll)"),
    }
)


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    net: tuple[int, ...]  # by seat, header order
    stake: int
    turns_left: int  # seven-outs still to come before the match ends
    shooter: str
    point: int | None = None
    shot: int = 0
    over: bool = False
    winner: str | None = None

    @property
    def score(self) -> Mapping[str, int]:
        return FrozenMap(zip(self.players, self.net, strict=True))


def start(match: Match) -> State:
    common.check_options(GAME, match, OPTIONS)
    common.check_players(GAME, match, minimum=1)
    stake = common.int_option(GAME, match, "stake", 1, minimum=1)
    turns = common.int_option(GAME, match, "turns", 1, minimum=1)
    first = common.player_option(GAME, match, "first")
    return State(
        players=match.players,
        net=(0,) * len(match.players),
        stake=stake,
        turns_left=turns * len(match.players),
        shooter=first,
    )


def _foul(state: State, roll: Roll, reason: Reason, why: str) -> tuple[State, tuple[Decision, ...]]:
    return common.void_throw(
        state,
        roll,
        reason,
        FOULS[reason],
        why,
        next_player=state.shooter,
        on=None if state.point is None else str(state.point),
    )


def _settle(state: State, won: bool) -> tuple[State, dict[str, int]]:
    seat = state.players.index(state.shooter)
    delta = state.stake if won else -state.stake
    net = list(state.net)
    net[seat] += delta
    return replace(state, net=tuple(net), point=None), {state.shooter: delta}


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    if state.over:
        raise common.game_over(GAME, event, state.winner)
    common.check_player(GAME, state.players, event)
    if not isinstance(event, Roll):
        raise common.not_now(
            GAME, event, f"a roll by the shooter {state.shooter} (craps takes roll lines only)"
        )
    problem = common.whole_throw_problem(event, DICE, state.shooter)
    if problem is not None:
        return _foul(state, event, Reason(problem[0]), problem[1])
    shooter = state.shooter
    total = sum(common.faces(event))
    state = replace(state, shot=state.shot + 1)
    points: dict[str, int] = {}
    if state.point is None:
        outcome = COME_OUT[total]
        if outcome is ComeOut.POINT:
            state = replace(state, point=total)
            notes = [f"come-out {total}: the point is {total} ({PASS_LINE})"]
        else:
            state, points = _settle(state, outcome is ComeOut.NATURAL)
            word = "wins" if outcome is ComeOut.NATURAL else "loses"
            notes = [f"come-out {total}: {outcome} - {shooter} {word} ({PASS_LINE}; {RULE})"]
    elif total == state.point:
        state, points = _settle(state, True)
        notes = [f"{total}: the point is made - {shooter} wins ({RULE})"]
    elif total == SEVEN:
        state, points = _settle(state, False)
        notes = [f"7 before the point: seven out - {shooter} loses and the dice pass ({RULE}; {PASS_LINE})"]
        state = replace(state, turns_left=state.turns_left - 1)
        if state.turns_left == 0:
            best = max(state.net)
            leaders = [p for p, n in zip(state.players, state.net, strict=True) if n == best]
            winner = leaders[0] if len(leaders) == 1 else None
            state = replace(state, over=True, winner=winner)
            notes.append(f"every shooter has had their turns: {winner or 'a tie, no winner'}")
        else:
            state = replace(state, shooter=common.left_of(state.players, shooter))
    else:
        notes = [f"{total}: neither the point {state.point} nor 7, throw again"]
    decision = Decision(
        shot=state.shot,
        player=shooter,
        points=points,
        score=state.score,
        next=None if state.over else state.shooter,
        on=None if state.point is None else str(state.point),
        over=state.over,
        winner=state.winner,
        notes=tuple(notes),
    )
    return state, (decision,)


ENGINE = Engine(game=GAME, start=start, step=step)
