"""Russian pyramid: the free, combined and dynamic 8-ball disciplines of the International Pyramid Committee.

Sources. The rules text (seed 000, line 779) holds only the title page of the IPC rules ("ПИРАМИДА.
Официальные международные правила", IPC conference, Almaty 26.11.2005, in force from 01.01.2006) and then
goes on with snooker; neither seed says more about pyramid. The rules below therefore come from
``shared/docs/rules-notes.md`` section 3, which quotes the IPC "Pyramid general rules" and the discipline
rules ([F] free, [C]/[S] combined, [W]/[D] dynamic, [O] older texts). Rule references in decisions name them.

Common to the three variants (rules-notes 3): 15 object balls ``1``..``15`` racked with the apex on the back
spot, one yellow ``cue`` ball; the break is struck with the cue ball from hand from home (behind the home
line through the front spot); every ball potted on a legal shot scores one point for the striker, no call is
needed; the first player to ``target`` points (8) wins. A legal shot other than the break (IPC general rules
20): the struck ball must hit another ball, and after that contact some ball must be potted or reach a
cushion. A player who pots on a legal shot plays again; otherwise the turn passes.

Variants (option ``variant``):

- ``free`` (free pyramid, "American") [F]: after the break any ball on the table may be struck and acts as
  the cue ball for that shot (``shot_start.ball`` names it); potting it off an object ball ("svoyak") scores
  like any other pot. There is no ball in hand after the break: balls potted on a foul or knocked off the
  table go back on the table.
- ``combined`` (combined, "Moscow") [C][S]: only ``cue`` may be struck. A svoyak scores; the striker then
  takes an object ball of his choice off the table to his shelf (that ball is the point; the next
  ``shot_end`` no longer shows it) and plays on with the cue ball from hand from home. From hand from home
  the first ball hit may not lie in home (its centre on or behind the home line) unless the cue ball has
  left home first, which the engine can only see as a ``top`` cushion before the first contact; when every
  object ball lies in home the far end becomes a temporary home and nothing in the near home is barred.
- ``dynamic`` (dynamic, "Neva") [W][D]: only ``cue`` may be struck. A svoyak scores, one object ball is taken
  to the shelf, and the cue ball is played from hand from anywhere on the table; on a stroke from hand the
  cue ball may not be potted (Wikipedia mirror in [W]). The break has its own test [D]: legal when an object
  ball is potted, or three object balls reach a side cushion, or two do and a third ends beyond the centre
  line (in the front half: only final positions are seen). After a failed break the opponent chooses:
  ``play`` (the table as it lies) or ``rebreak`` (the balls are racked again and *he* breaks).

Breaks in ``free`` and ``combined`` (IPC general rules 11-12, wording from the older text [O] playgamp): an
object ball must be potted or at least two object balls must reach a cushion; otherwise it is a foul and the
opponent plays the table as it lies.

Fouls (``Reason``), one penalty per shot however many are committed (IPC general rules: "штраф взимается в
одинарном размере"); the decision names the first, notes name the others:
``wrong_cue_ball`` (a ball other than ``cue`` struck on the break, or at any time in combined and dynamic),
``no_contact``, ``ball_in_home_hit`` (combined, from hand from home), ``cue_ball_potted_from_hand`` (dynamic),
``ball_off_table``, ``no_cushion`` (not on the break), ``illegal_break``. Balls potted on a foul score
nothing and, like balls knocked off the table, are put back on the back spot, or if that is taken, as near it
as possible along the long axis towards the top cushion (then towards the centre), from the ``shot_end``
positions. In combined and dynamic a cue ball potted or knocked off goes in hand to the next player instead
(from home in combined, anywhere in dynamic). After a foul the opponent plays.

Option ``foul_penalty`` (rules-notes 3, "Penalty model conflict"):

- ``point`` (default, the current IPC texts [F] 6, [C] 6-7): one point is added to the opponent's score; in
  combined the opponent takes a penalty ball of his choice off the table to his shelf. A foul can win the
  game for the opponent.
- ``ball`` (the older pre-IPC rule [O]): the offender puts one ball from his shelf back on the table (it is
  respotted like a foul-potted ball); with an empty shelf he owes one, his score goes below zero, and the next
  balls he pots pay the debt: they go back on the table instead of to his shelf (a svoyak in combined or
  dynamic pays by taking no ball off the table). The seed names neither rule: its pyramid part is a title
  only, so the brief's "older rule of the rules text" is taken from the notes' older texts.

Other options: ``target`` (integer 1..8, default 8: "first to eight points", IPC; more than 8 of 16 balls
could leave both players short), ``first`` (the player who breaks, default the first in the header; the lag
happens before the stream).

Inputs: camera lines between ``shot_start`` and ``shot_end`` (``ball_ball``, ``cushion``, ``pocket``,
``off_table``); ``choice`` from the player entitled to it after a failed dynamic break; ``concede`` from
either player at any moment outside a shot (one decision: the other player wins). No variant here takes
called shots, so ``call`` lines are refused, as are ``declare``, dice and five-pins lines.

Departures and limits: the engine cannot see where the cue ball is placed in hand (placing it on the home line
or touching a ball while placing, IPC combined 6.1-6.3, are not judged), nor push shots, double hits, or which
ball a player takes off the table (that follows from the next ``shot_end``). A ball on the home line counts
as in home. The dynamic break counts side (left/right) cushions only, as [D] says ("бічних бортів"). The
``rebreak`` choice here means the chooser re-racks and breaks, as [D] says, not the offender as the general
contract words it. In dynamic a cue ball potted or knocked off on a foul goes in hand anywhere, as after a
svoyak, and the no-svoyak rule holds for any stroke from hand: the notes say nothing of fouls there. In free,
a break struck with another ball leaves the cue ball in hand from home for the next stroke. In ``ball`` mode
the ball returned to the table is named as the lowest-numbered object ball off the table (every object ball
looks alike).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType

from adjudication.billiards.shot import Collecting, Shot, collect
from adjudication.engine import Engine, RuleError
from arbiter.contract import (
    BallBall,
    Call,
    Choice,
    Concede,
    Cushion,
    Decision,
    Foul,
    FrozenMap,
    JsonLine,
    OffTable,
    PinDown,
    Pot,
    Respot,
    ShotEnd,
    ShotStart,
)
from arbiter.contract import Match as MatchLine
from arbiter.games import billiards

SPEC = billiards("pyramid")
GAME = SPEC.id
CUE = "cue"
OBJECT_BALLS: tuple[str, ...] = tuple(str(n) for n in range(1, 16))
BALLS: frozenset[str] = frozenset((CUE, *OBJECT_BALLS))

TABLE = SPEC.table
BACK_SPOT = TABLE.spots["back"]
HOME_Y = TABLE.line("home").y_mm  # the home line through the front spot
CENTRE_Y = TABLE.length_mm / 2  # the centre line
SIDE_CUSHIONS = frozenset(("left", "right"))

DEFAULT_TARGET = 8  # IPC: first to eight points (rules-notes 3)
MAX_TARGET = 8  # 16 balls: a higher target could leave both players short of it
FREE_BREAK_CUSHION_BALLS = 2  # free/combined break: two object balls to a cushion ([O] playgamp)
DYNAMIC_BREAK_CUSHION_BALLS = 3  # dynamic break: three to side cushions, or two and one over the centre line

XY = tuple[float, float]

OPTIONS: Mapping[str, str] = MappingProxyType(
    {
        "variant": "free (American), combined (Moscow) or dynamic (Neva); default free",
        "target": f"points to win, an integer 1..{MAX_TARGET}; default {DEFAULT_TARGET}",
        "foul_penalty": "point (one point to the opponent, current IPC; default) or ball (older: the "
        "offender returns a ball from his shelf to the table)",
        "first": "the player who breaks; default the first in the header",
    }
)


class Variant(StrEnum):
    FREE = "free"
    COMBINED = "combined"
    DYNAMIC = "dynamic"


class Penalty(StrEnum):
    POINT = "point"
    BALL = "ball"


class InHand(StrEnum):
    HOME = "home"
    ANYWHERE = "anywhere"


class BreakTest(StrEnum):
    POT_OR_TWO_CUSHIONS = "pot_or_two_cushions"
    DYNAMIC = "dynamic"


class Reason(StrEnum):
    """Fouls, in the order they are reported when a shot commits several."""

    WRONG_CUE_BALL = "wrong_cue_ball"
    NO_CONTACT = "no_contact"
    BALL_IN_HOME_HIT = "ball_in_home_hit"
    CUE_BALL_POTTED_FROM_HAND = "cue_ball_potted_from_hand"
    BALL_OFF_TABLE = "ball_off_table"
    NO_CUSHION = "no_cushion"
    ILLEGAL_BREAK = "illegal_break"


@dataclass(frozen=True)
class FoulRule:
    penalty: int  # points (or balls, in ``ball`` mode) the foul costs
    rule: str


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.WRONG_CUE_BALL: FoulRule(1, "IPC free 4: the break is struck with the cue ball from home"),
        Reason.NO_CONTACT: FoulRule(1, "IPC general 20: the struck ball must hit another ball"),
        Reason.BALL_IN_HOME_HIT: FoulRule(
            1, "IPC general rules, combined 6: from hand from home, no ball in home first"
        ),
        Reason.CUE_BALL_POTTED_FROM_HAND: FoulRule(
            1, "dynamic [W]: the cue ball may not be potted on the stroke from hand"
        ),
        Reason.BALL_OFF_TABLE: FoulRule(1, "IPC standard fouls ([F] 7): a ball off the table"),
        Reason.NO_CUSHION: FoulRule(
            1, "IPC general 20: after contact a ball must be potted or reach a cushion"
        ),
        Reason.ILLEGAL_BREAK: FoulRule(
            1, "IPC general 12 ([O]): on the break a ball potted or two object balls to a cushion"
        ),
    }
)
# Where a variant rules otherwise than the table above.
VARIANT_FOULS: Mapping[tuple[Variant, Reason], FoulRule] = MappingProxyType(
    {
        (Variant.COMBINED, Reason.WRONG_CUE_BALL): FoulRule(
            1, "IPC combined [C][S]: the yellow cue ball only"
        ),
        (Variant.DYNAMIC, Reason.WRONG_CUE_BALL): FoulRule(1, "dynamic [W][D]: the yellow cue ball only"),
        (Variant.DYNAMIC, Reason.ILLEGAL_BREAK): FoulRule(
            0,
            "dynamic [D]: a ball potted, three balls to side cushions, or two and one over the centre line",
        ),
    }
)


@dataclass(frozen=True)
class VariantRules:
    """What sets a discipline apart; everything else is the IPC general rules."""

    title: str
    any_ball_is_cue: bool  # free: after the break any ball may be struck
    in_hand: InHand | None  # where a cue ball that left the table is played from (None: it is respotted)
    no_cue_pot_from_hand: bool  # dynamic: no svoyak on a stroke from hand
    break_test: BreakTest
    penalty_ball_taken: bool  # combined, ``point`` mode: the opponent takes a penalty ball off the table
    scoring_rule: str
    svoyak_rule: str


VARIANTS: Mapping[Variant, VariantRules] = MappingProxyType(
    {
        Variant.FREE: VariantRules(
            title="free pyramid",
            any_ball_is_cue=True,
            in_hand=None,
            no_cue_pot_from_hand=False,
            break_test=BreakTest.POT_OR_TWO_CUSHIONS,
            penalty_ball_taken=False,
            scoring_rule="IPC free 5.4-5.5, 6",
            svoyak_rule="IPC free 5.4",
        ),
        Variant.COMBINED: VariantRules(
            title="combined pyramid",
            any_ball_is_cue=False,
            in_hand=InHand.HOME,
            no_cue_pot_from_hand=False,
            break_test=BreakTest.POT_OR_TWO_CUSHIONS,
            penalty_ball_taken=True,
            scoring_rule="IPC combined 1, 3",
            svoyak_rule="IPC combined 2",
        ),
        Variant.DYNAMIC: VariantRules(
            title="dynamic pyramid",
            any_ball_is_cue=False,
            in_hand=InHand.ANYWHERE,
            no_cue_pot_from_hand=True,
            break_test=BreakTest.DYNAMIC,
            penalty_ball_taken=False,
            scoring_rule="dynamic [W][D]",
            svoyak_rule="dynamic [W]",
        ),
    }
)
PENALTY_RULES: Mapping[Penalty, str] = MappingProxyType(
    {Penalty.POINT: "IPC [F] 6, [C] 6-7: one point to the opponent", Penalty.BALL: "older rules [O]"}
)
BREAK_RULES: Mapping[BreakTest, str] = MappingProxyType(
    {BreakTest.POT_OR_TWO_CUSHIONS: "IPC general 11-12", BreakTest.DYNAMIC: "dynamic [D]"}
)
CHOICES: frozenset[str] = frozenset(("play", "rebreak"))


@dataclass(frozen=True)
class State:
    players: tuple[str, str]
    variant: Variant
    target: int
    penalty: Penalty
    score: FrozenMap[str, int]
    shelf: FrozenMap[str, int]  # balls each player holds (``ball`` mode gives them back)
    debt: FrozenMap[str, int]  # balls owed (``ball`` mode, fouls on an empty shelf)
    turn: str  # who strikes next (or chooses, while ``chooser`` is set)
    shots: int = 0
    breaking: bool = True
    in_hand: InHand | None = InHand.HOME  # the cue ball is in hand, to be played from here
    on_table: frozenset[str] = frozenset(OBJECT_BALLS)  # balls in play on the bed (not the cue ball in hand)
    positions: FrozenMap[str, XY] = field(default_factory=FrozenMap)  # where they rest (empty: racked)
    chooser: str | None = None  # a choice is awaited from this player (failed dynamic break)
    pending: Collecting = field(default_factory=Collecting)
    over: bool = False
    winner: str | None = None

    @property
    def rules(self) -> VariantRules:
        return VARIANTS[self.variant]

    def opponent(self, player: str) -> str:
        return self.players[1] if player == self.players[0] else self.players[0]


# --- options ---------------------------------------------------------------------------------------------


def start(match: MatchLine) -> State:
    unknown = sorted(set(match.options) - set(OPTIONS))
    if unknown:
        allowed = "; ".join(f"{k}: {v}" for k, v in OPTIONS.items())
        raise ValueError(f"pyramid has no option {unknown[0]!r}; options are {allowed}")
    if len(match.players) != 2:
        raise ValueError(f"pyramid is played by two players (got {len(match.players)})")
    variant = match.options.get("variant", Variant.FREE.value)
    if variant not in tuple(Variant):
        raise ValueError(f"option variant must be one of free, combined, dynamic (got {variant!r})")
    target = match.options.get("target", DEFAULT_TARGET)
    if not isinstance(target, int) or isinstance(target, bool) or not 1 <= target <= MAX_TARGET:
        raise ValueError(
            f"option target must be an integer 1..{MAX_TARGET}, the points to win (got {target!r})"
        )
    penalty = match.options.get("foul_penalty", Penalty.POINT.value)
    if penalty not in tuple(Penalty):
        raise ValueError(
            f"option foul_penalty must be point (one point to the opponent) or ball (the offender returns a "
            f"ball to the table) (got {penalty!r})"
        )
    first = match.options.get("first", match.players[0])
    if first not in match.players:
        raise ValueError(
            f"option first must be one of the players {', '.join(match.players)} (got {first!r})"
        )
    zero = FrozenMap(dict.fromkeys(match.players, 0))
    return State(
        players=(match.players[0], match.players[1]),
        variant=Variant(variant),
        target=target,
        penalty=Penalty(penalty),
        score=zero,
        shelf=zero,
        debt=zero,
        turn=first,
    )


# --- the stream ------------------------------------------------------------------------------------------


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    if state.over:
        raise RuleError(f"the game is over ({state.winner} won); no line is taken after it")
    if isinstance(event, Concede):
        return _concede(state, event)
    if isinstance(event, Choice):
        return _choice(state, event), ()
    if isinstance(event, ShotStart | ShotEnd | BallBall | Cushion | Pot | OffTable):
        return _camera(state, event)
    if isinstance(event, PinDown):
        raise RuleError(
            "pin_down: pyramid has no pins; it takes ball_ball, cushion, pocket and off_table lines"
        )
    if isinstance(event, Call):
        raise RuleError(
            f"{state.rules.title} takes no called shots: every ball potted on a legal shot counts "
            f"({state.rules.scoring_rule})"
        )
    raise RuleError(
        f"pyramid does not take {event.TYPE!r} lines; it takes shot_start, ball_ball, cushion, pocket, "
        "off_table, shot_end, choice (after a failed dynamic break) and concede"
    )


def _concede(state: State, event: Concede) -> tuple[State, tuple[Decision, ...]]:
    if event.player not in state.players:
        raise RuleError(f"concede.player {event.player!r} is not a player ({', '.join(state.players)})")
    if state.pending.start is not None:
        raise RuleError(f"concede by {event.player} during a shot; concede between shots")
    winner = state.opponent(event.player)
    new = replace(state, over=True, winner=winner, chooser=None)
    decision = Decision(
        shot=state.shots,
        player=event.player,
        score=new.score,
        next=None,
        over=True,
        winner=winner,
        notes=(f"{event.player} concedes: {winner} wins (IPC general rules)",),
    )
    return new, (decision,)


def _choice(state: State, event: Choice) -> State:
    if state.chooser is None:
        raise RuleError(
            f"choice by {event.player}: no choice is awaited; pyramid asks for one only after a failed "
            "dynamic break"
        )
    if event.player != state.chooser:
        raise RuleError(f"choice by {event.player}: the choice is {state.chooser}'s")
    if event.option not in CHOICES:
        raise RuleError(
            f"choice {event.option!r}: after a failed break {state.chooser} may only play (the table as it "
            "lies) or rebreak (re-rack and break himself) (dynamic [D])"
        )
    if event.option == "play":
        return replace(state, chooser=None, turn=event.player)
    return replace(
        state,
        chooser=None,
        turn=event.player,
        breaking=True,
        in_hand=InHand.HOME,
        on_table=frozenset(OBJECT_BALLS),
        positions=FrozenMap(),
    )


def _check_ball(ball: str, where: str) -> None:
    if ball not in BALLS:
        raise RuleError(f"{where}: {ball!r} is not a pyramid ball; balls are cue and 1..15")


def _camera(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    if isinstance(event, ShotStart):
        if state.chooser is not None:
            raise RuleError(
                f"shot_start while {state.chooser}'s choice is awaited (choice play or rebreak first)"
            )
        _check_ball(event.ball, "shot_start.ball")
        in_hand = event.ball == CUE and state.in_hand is not None
        if event.ball not in state.on_table and not in_hand:
            raise RuleError(f"shot_start.ball {event.ball!r} is not on the table")
    pending, shot = collect(state.pending, event)
    if isinstance(event, BallBall):
        for ball in event.balls:
            _check_ball(ball, "ball_ball.balls")
    elif isinstance(event, Cushion):
        _check_ball(event.ball, "cushion.ball")
    elif isinstance(event, Pot | OffTable):
        _check_ball(event.ball, f"{event.TYPE}.ball")
        struck = pending.start.ball if pending.start is not None else None
        if event.ball not in state.on_table and event.ball != struck:
            raise RuleError(f"{event.TYPE}: ball {event.ball!r} is not on the table")
        gone = [e.ball for e in state.pending.events if isinstance(e, Pot | OffTable)]
        if event.ball in gone:
            raise RuleError(f"{event.TYPE}: ball {event.ball!r} already left the table in this shot")
    elif isinstance(event, ShotEnd):
        for ball in event.positions:
            _check_ball(ball, "shot_end.positions")
    state = replace(state, pending=pending)
    if shot is None:
        return state, ()
    return _decide(state, shot)


# --- one shot --------------------------------------------------------------------------------------------


def _in_home(xy: XY | None) -> bool:
    return xy is not None and xy[1] <= HOME_Y


def _home_ball_hit(state: State, shot: Shot, first: str) -> bool:
    """From hand from home: was the first ball hit one lying in home, before the cue ball left home?"""
    if not _in_home(state.positions.get(first)):
        return False
    if all(_in_home(state.positions.get(b)) for b in state.on_table if b != CUE):
        return False  # every object ball in home: the far end is a temporary home (rules-notes 3 [G][S])
    for e in shot.events:
        if isinstance(e, BallBall) and e.balls[0] == shot.striker_ball:
            return True
        if isinstance(e, Cushion) and e.ball == shot.striker_ball and e.side == "top":
            return False  # the cue ball reached the top cushion, so it left home first
    return True


def _break_ok(state: State, shot: Shot) -> bool:
    if any(b != CUE for b in shot.potted()):
        return True
    cushioned = {e.ball for e in shot.cushions() if e.ball != CUE}
    if state.rules.break_test is BreakTest.POT_OR_TWO_CUSHIONS:
        return len(cushioned) >= FREE_BREAK_CUSHION_BALLS
    sides = {e.ball for e in shot.cushions() if e.ball != CUE and e.side in SIDE_CUSHIONS}
    if len(sides) >= DYNAMIC_BREAK_CUSHION_BALLS:
        return True
    crossed = {b for b, (_, y) in shot.positions.items() if b != CUE and b not in sides and y < CENTRE_Y}
    return len(sides) == DYNAMIC_BREAK_CUSHION_BALLS - 1 and bool(crossed)


def _fouls(state: State, shot: Shot) -> list[Reason]:
    rules = state.rules
    struck = shot.striker_ball
    reasons: list[Reason] = []
    if struck != CUE and (state.breaking or not rules.any_ball_is_cue):
        reasons.append(Reason.WRONG_CUE_BALL)
    first = shot.first_contact()
    if first is None:
        reasons.append(Reason.NO_CONTACT)
    elif state.in_hand is InHand.HOME and struck == CUE and _home_ball_hit(state, shot, first):
        reasons.append(Reason.BALL_IN_HOME_HIT)
    if rules.no_cue_pot_from_hand and state.in_hand is InHand.ANYWHERE and CUE in shot.potted():
        reasons.append(Reason.CUE_BALL_POTTED_FROM_HAND)
    if shot.off_table():
        reasons.append(Reason.BALL_OFF_TABLE)
    if not state.breaking and first is not None and not shot.cushion_after_first_contact():
        reasons.append(Reason.NO_CUSHION)
    return reasons


def _spot(taken: Iterable[XY]) -> XY:
    """Where a ball goes back on the table: the back spot, or the nearest free point on the long axis behind
    it (towards the top cushion), else in front of it (towards the centre)."""
    x = BACK_SPOT[0]
    d = TABLE.ball_diameter_mm
    taken = list(taken)

    def clashes(y: float) -> list[XY]:
        return [(bx, by) for bx, by in taken if (bx - x) ** 2 + (by - y) ** 2 < d * d - 1e-6]

    for direction in (1.0, -1.0):
        y = BACK_SPOT[1]
        while TABLE.ball_radius_mm <= y <= TABLE.length_mm - TABLE.ball_radius_mm:
            hits = clashes(y)
            if not hits:
                return (x, y)
            reach = [by + direction * math.sqrt(max(d * d - (bx - x) ** 2, 0.0)) for bx, by in hits]
            y = max(reach) if direction > 0 else min(reach)
    raise RuleError("no room on the long axis to respot a ball; the shot_end positions cannot be right")


def _credit_order(shot: Shot) -> list[str]:
    """Balls potted, object balls in pocket order first, then the struck ball (svoyak)."""
    potted = list(dict.fromkeys(shot.potted()))
    return [b for b in potted if b != shot.striker_ball] + [b for b in potted if b == shot.striker_ball]


def _decide(state: State, shot: Shot) -> tuple[State, tuple[Decision, ...]]:
    rules = state.rules
    player = state.turn
    opponent = state.opponent(player)
    struck = shot.striker_ball
    gone = set(shot.potted()) | set(shot.off_table())
    positions = {b: xy for b, xy in shot.positions.items() if b not in gone}
    respots: list[Respot] = []
    notes: list[str] = []

    def respot(ball: str) -> None:
        xy = _spot(positions.values())
        positions[ball] = xy
        respots.append(Respot(ball, xy))

    reasons = _fouls(state, shot)
    break_failed = state.breaking and not _break_ok(state, shot)
    if break_failed and not reasons:
        reasons.append(Reason.ILLEGAL_BREAK)
    choice_due = break_failed and rules.break_test is BreakTest.DYNAMIC
    score = dict(state.score)
    shelf = dict(state.shelf)
    debt = dict(state.debt)
    points: dict[str, int] = {}
    foul: Foul | None = None

    if reasons:
        primary = reasons[0]
        spec = VARIANT_FOULS.get((state.variant, primary), FOULS[primary])
        foul = Foul(reason=primary.value, penalty=spec.penalty, rule=spec.rule)
        if len(reasons) > 1:
            notes.append("also " + ", ".join(r.value for r in reasons[1:]) + " (one penalty per shot)")
        for ball in dict.fromkeys((*shot.potted(), *shot.off_table())):
            if ball == CUE and rules.in_hand is not None:
                continue
            respot(ball)
        if respots:
            notes.append(
                "balls potted on a foul or off the table go back on the back spot (IPC general rules)"
            )
        if spec.penalty:
            if state.penalty is Penalty.POINT:
                points[opponent] = spec.penalty
                score[opponent] += spec.penalty
                notes.append(f"foul: {spec.penalty} point to {opponent} ({PENALTY_RULES[Penalty.POINT]})")
                if rules.penalty_ball_taken:
                    notes.append(
                        f"{opponent} takes a penalty ball of his choice off the table (IPC combined 6-7)"
                    )
            else:
                points[player] = -spec.penalty
                score[player] -= spec.penalty
                shelved = (*OBJECT_BALLS, CUE) if rules.any_ball_is_cue else OBJECT_BALLS
                spare = [b for b in shelved if b not in positions]
                if shelf[player] > 0:
                    shelf[player] -= 1
                    notes.append(
                        f"foul: {player} puts a ball from his shelf back on the table (older rules [O])"
                    )
                    if spare:
                        respot(spare[0])
                    else:  # the stream still shows every ball on the table: nothing to name
                        notes.append("no ball is missing from the table to respot")
                else:
                    debt[player] += 1
                    notes.append(f"foul: {player} has no ball on his shelf and owes one (older rules [O])")
        next_player = opponent
    else:
        credited = _credit_order(shot)
        if credited:
            points[player] = len(credited)
            score[player] += len(credited)
            paying = min(debt[player], len(credited))
            debt[player] -= paying
            shelf[player] += len(credited) - paying
            for ball in credited[:paying]:
                if ball == CUE and rules.in_hand is not None:
                    notes.append(f"the svoyak pays {player}'s debt: no ball is taken off the table ([O])")
                else:
                    respot(ball)
            if paying:
                notes.append(
                    f"{paying} ball(s) pay {player}'s debt and go back on the table (older rules [O])"
                )
            names = ", ".join(f"{b} (svoyak)" if b == struck else b for b in credited)
            notes.append(f"pot: {names}, one point each ({rules.scoring_rule})")
            if struck in credited and rules.in_hand is not None and struck not in credited[:paying]:
                notes.append(
                    f"svoyak: {player} takes an object ball of his choice off the table ({rules.svoyak_rule})"
                )
            next_player = player
        else:
            notes.append(f"no ball potted: the turn passes ({rules.scoring_rule})")
            next_player = opponent
        if state.breaking:
            notes.append(f"legal break ({BREAK_RULES[rules.break_test]})")

    in_hand: InHand | None = None
    if CUE in positions:
        in_hand = None
    elif rules.in_hand is not None:
        in_hand = rules.in_hand  # the cue ball left the table (or never came on it): in hand
    elif CUE not in gone:
        in_hand = state.in_hand  # free: a cue ball never placed for the break stays in hand
    new = replace(
        state,
        score=FrozenMap(score),
        shelf=FrozenMap(shelf),
        debt=FrozenMap(debt),
        turn=next_player,
        shots=state.shots + 1,
        breaking=False,
        in_hand=in_hand,
        on_table=frozenset(positions),
        positions=FrozenMap(positions),
    )
    winner = next((p for p in (player, opponent) if score[p] >= state.target), None)
    awaiting: tuple[str, ...] = ()
    if winner is not None:
        new = replace(new, over=True, winner=winner)
        notes.append(f"{winner} reaches {state.target} points and wins (IPC: first to {state.target})")
    elif choice_due:
        new = replace(new, chooser=opponent)
        awaiting = ("choice",)
        notes.append(
            f"failed break: {opponent} plays the table as it lies or re-racks and breaks (dynamic [D])"
        )
    if not new.over and in_hand is not None:
        notes.append(_in_hand_note(new, next_player))
    decision = Decision(
        shot=new.shots,
        player=player,
        foul=foul,
        points=points,
        score=new.score,
        next=None if new.over else next_player,
        over=new.over,
        winner=new.winner,
        awaiting=awaiting,
        respot=tuple(respots),
        notes=tuple(notes),
    )
    return new, (decision,)


def _in_hand_note(state: State, player: str) -> str:
    if state.in_hand is InHand.ANYWHERE:
        return f"cue ball in hand for {player}, anywhere on the table; it may not be potted this stroke ([W])"
    if all(_in_home(state.positions.get(b)) for b in state.on_table if b != CUE):
        return f"cue ball in hand for {player} from the temporary home at the top end: all balls are in home"
    return (
        f"cue ball in hand for {player} from home; no ball in home may be hit first (IPC general, combined 6)"
    )


ENGINE = Engine(game=GAME, start=start, step=step)
