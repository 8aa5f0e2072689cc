"""Snooker: Arbiter's engine and pooltool's own snooker ruleset, called on the same synthetic shots.

A synthetic snooker shot (``datasets.billiards.synth.simulate_shot``: a layout, mostly mid-frame, and a strike
simulated by pooltool) is refereed twice:

- by ``snooker``, started from the shot's layout with ``snooker.from_position`` and fed the shot's truth lines
  (``synth.truth_events``: shot_start, ball_ball, cushion, pocket, shot_end);
- by pooltool's snooker ruleset (``pooltool.ruleset.snooker``, pooltool-billiards 0.6.0) on the same shot
  simulated again by pooltool with pooltool's ball ids (``red_01``.. for ``red:1``..; its rules know reds by
  those ids only). The two simulations are the same computation; ``compare_shot`` checks that their contacts
  are identical before it compares anything.

The situation of each shot (``Scenario``): the striker is the header's first player, the score 0-0, the white
in hand when the synthetic shot was played from the D (a break is the frame's opening stroke). The ball on
follows from the table (a red while reds remain, else the lowest colour), except that when reds remain and
the shot aims at a colour, the striker is taken to be on the colour after a red with that colour nominated
(``declare`` for Arbiter, ``ball_call`` for pooltool): the shot is then judged as the one it was meant to be.

Both calls are put in one form (``Verdict``): foul or fair, the foul's reason (pooltool's ``Reason`` mapped to
``snooker.Reason`` by ``REASONS``), the foul's points, the points scored, whether the striker plays on,
whether the frame ends, the ball on next, the colours re-spotted (which ones, not where: pooltool puts a
colour on its own spot even when another ball covers it), and the two calls pooltool does not make (foul and
a miss, free ball). Every field that differs is a ``Difference`` of a kind; every kind is
explained, with the rule, in ``EXPLAINED``; a difference no entry explains is of kind ``UNEXPLAINED``, which
the tests refuse.

What pooltool's snooker ruleset (core.py, utils.py) implements, read from its code: four fouls checked in a
fixed order, one reported (cue ball potted, no ball hit, a ball not on hit first, a ball not on potted);
foul points ``max(4, value of each potted ball, the white (4), the first ball hit, the called ball)``; reds
and colours alternate while reds remain (a colour called by ``ball_call``), then colours in order; colours
re-spotted on their own spots. What it omits: foul and a miss, free ball, touching ball and push stroke,
balls off the table, the 7-point fouls (playing at a red with a colour on, fouls before nominating, another
cue ball), two balls hit at once, the re-spotted black on a tie (pooltool calls the frame a tie), the
three-miss rule, the re-break after a foul on the opening stroke. Its colours-phase re-spotting also expects
every colour above the lowest in its System (pocketed or not), which a mid-frame layout of ``layouts.midgame``
satisfies (the colours left run from the lowest to the black).

``compare(seed, indices)`` simulates (physics only, no rendering) and compares the shots ``indices`` of the
synthetic run ``seed``; ``summarise`` counts the agreements and the differences by kind. The figures of the
tested set are in ``snooker``'s module docstring.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any

from adjudication.billiards import geometry, snooker
from adjudication.billiards.snooker import COLOUR, COLOURS, RADIUS, RED, WHITE, Reason
from arbiter.contract import Decision, Declare, Match
from datasets.billiards.physics import simulate
from datasets.billiards.synth import MAX_SHOT_S, SimulatedShot, SynthConfig, simulate_shot, truth_events

XY = tuple[float, float]
GAME = "snooker"

# pooltool's snooker ``Reason`` (by member name: pooltool is imported only to run its rules) -> ours.
REASONS: Mapping[str, Reason | None] = MappingProxyType(
    {
        "NONE": None,
        "CUE_POCKETED": Reason.IN_OFF,
        "NO_BALL_HIT": Reason.MISSED_ALL,
        "OFF_BALL_HIT_FIRST": Reason.WRONG_BALL_FIRST,
        "OFF_BALL_POCKETED": Reason.POT_NOT_ON,
    }
)


def _value(reason: Reason | None) -> str | None:
    return None if reason is None else reason.value


UNEXPLAINED = "unexplained"
NO_MISS = "no_miss_rule"
NO_FREE_BALL = "no_free_ball"
PLAYED_AT_RED = "played_at_red"
FOUL_ORDER = "foul_order"
NOT_NOMINATED = "pot_not_nominated"
FINAL_BLACK_RESPOT = "final_black_respot"
TOUCHING = "no_touching_ball"
# Every kind of difference between the two calls, and why the two rulesets differ there.
EXPLAINED: Mapping[str, str] = MappingProxyType(
    {
        NO_MISS: (
            "pooltool has no foul and a miss (snooker/core.py is_turn_over: 'Hit and a miss ... not "
            "implemented'); ours calls one when the white fails to hit a ball on it could see and neither "
            "player needs snookers (WPBSA 2.21, 3.14)"
        ),
        NO_FREE_BALL: (
            "pooltool does not give a free ball after a foul that leaves the incoming player snookered on "
            "every ball on (WPBSA 2.13, 3.12)"
        ),
        PLAYED_AT_RED: (
            "a red hit first with a colour on: ours calls the 7-point foul of playing at reds in successive "
            "strokes (WPBSA 3.11); pooltool, which has no 7-point foul, a ball not on hit first "
            "worth max(4, the called colour, the balls concerned)"
        ),
        FOUL_ORDER: (
            "several fouls in one stroke: pooltool reports the first of its fixed checks (cue ball "
            "potted, no ball hit, ball not on hit first, ball not on potted; snooker/core.py is_legal), "
            "ours the foul of highest value, the first found on a tie (the white's contact comes before "
            "the pots; WPBSA 3.10); pooltool's foul is among ours"
        ),
        NOT_NOMINATED: (
            "a colour other than the nominated one potted: ours names that foul apart (WPBSA "
            "2.12, 3.11); pooltool has one reason for any ball not on potted"
        ),
        FINAL_BLACK_RESPOT: (
            "the frame ends on the last ball: pooltool's re-spotting then looks for the lowest colour left "
            "and fails (snooker/utils.py get_lowest_pottable: min() of no colours, ValueError); ours "
            "re-spots nothing at the end of the frame (WPBSA 3.4)"
        ),
        TOUCHING: (
            "the white starts against a ball: ours applies the touching ball (a touching ball on counts as "
            "hit, moving it is a push stroke; WPBSA 3.8, 2.19); pooltool has neither rule "
            "(core.py is_legal: push shot not implemented)"
        ),
    }
)


# --- ids -------------------------------------------------------------------------------------------------


def pooltool_id(ball: str) -> str:
    """``red:4`` -> ``red_04`` (pooltool's snooker rules know the reds by these ids); colours are the same."""
    return f"red_{int(ball.split(':', 1)[1]):02d}" if ball.startswith("red:") else ball


def arbiter_id(ball: str) -> str:
    """``red_04`` -> ``red:4``."""
    return f"red:{int(ball[4:])}" if ball.startswith("red_") else ball


# --- the shot's situation --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    """Where a synthetic shot stands in a frame, for both engines."""

    index: int  # the shot's index in the synthetic run
    intent: str  # what the synthetic player meant (synth: break, pot, safety, ...)
    layout: Mapping[str, XY]  # every ball's centre before the stroke, mm
    on: str  # "red", "colour" (nominated below) or the colour on
    nominated: str | None  # the colour nominated when a colour is on after a red
    in_hand: bool  # the white was played from the D
    opening: bool  # the frame's opening stroke
    touching: tuple[str, ...] = ()  # balls the white starts against (not in hand)


def scenario_for(shot: SimulatedShot) -> Scenario:
    layout = dict(shot.trace.start)
    reds = any(snooker.kind(b) == RED for b in layout)
    target = shot.planned.target
    opening = shot.planned.intent == "break"
    if reds and target in COLOURS and not opening:
        on, nominated = COLOUR, target
    elif reds:
        on, nominated = RED, None
    else:
        on, nominated = next(c for c in COLOURS if c in layout), None
    white = layout[WHITE]
    touching = tuple(
        b for b in layout if b != WHITE and not shot.in_hand and geometry.touching(white, layout[b], RADIUS)
    )
    return Scenario(shot.index, shot.planned.intent, layout, on, nominated, shot.in_hand, opening, touching)


# --- the common form -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """One engine's call on one shot, in the terms both engines can give."""

    foul: str | None  # our ``Reason`` value (pooltool's mapped through ``REASONS``); None: a fair stroke
    foul_points: int  # awarded to the opponent (0 on a fair stroke)
    points: int  # scored by the striker
    continues: bool  # the striker plays the next stroke
    frame_over: bool
    next_on: str | None  # "red", "colour" or a colour; None when the frame is over
    respotted: frozenset[str] | None  # colours put back; None where the engine failed to say
    miss: bool  # foul and a miss called (pooltool: never)
    free_ball: bool  # the incoming player may nominate a free ball (pooltool: never)
    also: tuple[str, ...] = ()  # the stroke's other fouls (ours; pooltool reports one)


COMPARED: tuple[str, ...] = tuple(f.name for f in fields(Verdict) if f.name != "also")


@dataclass(frozen=True)
class Difference:
    field: str
    ours: Any
    theirs: Any
    kind: str  # a key of ``EXPLAINED``, or ``UNEXPLAINED``


@dataclass(frozen=True)
class Row:
    scenario: Scenario
    ours: Verdict
    theirs: Verdict
    differences: tuple[Difference, ...]

    @property
    def agrees(self) -> bool:
        return not self.differences

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset(d.kind for d in self.differences)


# --- Arbiter's call --------------------------------------------------------------------------------------

_ALSO = "also: "


def arbiter_verdict(cfg: SynthConfig, shot: SimulatedShot, scenario: Scenario) -> Verdict:
    """Our engine, started from the layout, fed the shot's truth lines."""

    header, *lines = truth_events(cfg, shot)
    if not isinstance(header, Match):
        raise TypeError(f"the truth of shot {shot.index} does not start with its match header")
    state = snooker.from_position(
        header,
        scenario.layout,
        on=scenario.on,
        in_hand=scenario.in_hand,
        opening=scenario.opening,
    )
    striker = state.striker
    if striker is None:
        raise RuntimeError(f"shot {shot.index}: the engine started from the layout has no striker")
    if scenario.nominated is not None:
        state, _ = snooker.step(state, Declare(player=striker, ball=scenario.nominated))
    decisions: list[Decision] = []
    for line in lines:
        state, out = snooker.step(state, line)
        decisions.extend(out)
    (decision,) = decisions
    foul = decision.foul
    also = tuple(n[len(_ALSO) :].split(" ", 1)[0] for n in decision.notes if n.startswith(_ALSO))
    return Verdict(
        foul=None if foul is None else foul.reason,
        foul_points=0 if foul is None else foul.penalty,
        points=0 if foul is not None else decision.points.get(striker, 0),
        continues=decision.next == striker,
        frame_over=decision.over,
        next_on=None if decision.over else decision.on,
        respotted=frozenset(r.ball for r in decision.respot),
        miss=state.misses > 0,
        free_ball=state.awaiting is not None and state.awaiting.free_ball,
        also=also,
    )


# --- pooltool's call -------------------------------------------------------------------------------------


def _constraints(scenario: Scenario) -> tuple[Any, Any]:
    """pooltool's shot constraints and game phase for the scenario's situation."""
    from pooltool.ruleset.datatypes import BallInHandOptions, ShotConstraints
    from pooltool.ruleset.snooker.balls import BallGroup
    from pooltool.ruleset.snooker.utils import GamePhase

    in_hand = BallInHandOptions.SEMICIRCLE if scenario.in_hand else BallInHandOptions.NONE
    movable = [WHITE] if scenario.in_hand else []
    if scenario.on == RED:
        hittable, call, phase = BallGroup.REDS.balls, None, GamePhase.ALTERNATING
    elif scenario.on == COLOUR:
        hittable, call, phase = BallGroup.COLORS.balls, scenario.nominated, GamePhase.ALTERNATING
    else:
        hittable, call, phase = (scenario.on,), scenario.on, GamePhase.SEQUENTIAL
    constraints = ShotConstraints(
        ball_in_hand=in_hand,
        movable=movable,
        cueable=[WHITE],
        hittable=hittable,
        call_shot=call is not None,
        ball_call=call,
        pocket_call=None if call is None else "lb",  # pooltool wants a pocket with a called ball; unused
    )
    return constraints, phase


def _pooltool_on(constraints: Any) -> str:
    from pooltool.ruleset.snooker.balls import BallGroup

    hittable = tuple(constraints.hittable)
    if hittable == BallGroup.REDS.balls:
        return RED
    return COLOUR if len(hittable) > 1 else hittable[0]


def pooltool_system(shot: SimulatedShot) -> Any:
    """The shot simulated again by pooltool, reds under pooltool's ids; its contacts must be the shot's."""

    trace = shot.trace
    again = simulate(
        trace.table, {pooltool_id(b): xy for b, xy in trace.start.items()}, trace.strike, MAX_SHOT_S
    )
    ours = [(c.kind, c.t, c.ids, c.where) for c in trace.contacts]
    theirs = [(c.kind, c.t, tuple(map(arbiter_id, c.ids)), c.where) for c in again.contacts]
    if ours != theirs:
        raise RuntimeError(f"shot {shot.index}: pooltool simulated the shot differently under its own ids")
    return again.system


def pooltool_verdict(shot: SimulatedShot, scenario: Scenario, players: tuple[str, str]) -> Verdict:
    """pooltool's snooker ruleset on the re-simulated shot, set to the same situation."""
    import pooltool.constants as const
    from pooltool.game.datatypes import GameType
    from pooltool.ruleset import Player, get_ruleset
    from pooltool.ruleset.snooker.utils import Reason as PooltoolReason

    system = pooltool_system(shot)
    striker, opponent = players
    game: Any = get_ruleset(GameType.SNOOKER)(players=[Player(striker), Player(opponent)])
    game.shot_constraints, game.phase = _constraints(scenario)
    down = {b for b, ball in system.balls.items() if ball.state.s == const.pocketed and b != WHITE}
    respotted: frozenset[str] | None
    try:
        game.process_shot(system)  # the call, the score, then pooltool's re-spotting
        respotted = frozenset(arbiter_id(b) for b in down if system.balls[b].state.s != const.pocketed)
    except ValueError:
        # At the end of the frame its re-spotting looks for the lowest colour left, and there is none.
        if not (hasattr(game, "shot_info") and game.shot_info.game_over):
            raise
        respotted = None
    info = game.shot_info
    over = info.game_over
    if not over:
        game.advance(system)
    score = info.score
    return Verdict(
        foul=None if info.legal else _value(REASONS[PooltoolReason(info.reason).name]),
        foul_points=0 if info.legal else score[opponent],
        points=score[striker] if info.legal else 0,
        continues=not (info.turn_over or over),
        frame_over=over,
        next_on=None if over else _pooltool_on(game.shot_constraints),
        respotted=respotted,
        miss=False,
        free_ball=False,
    )


# --- comparing -------------------------------------------------------------------------------------------


def _foul_kind(scenario: Scenario, ours: Verdict, theirs: Verdict) -> str:
    """Why the two engines name different fouls (or one a foul, the other none)."""
    if scenario.touching and ours.foul in (None, Reason.PUSH_STROKE):
        return TOUCHING
    if ours.foul == Reason.PLAYED_AT_RED and theirs.foul == Reason.WRONG_BALL_FIRST:
        return PLAYED_AT_RED
    if ours.foul == Reason.POT_NOT_NOMINATED and theirs.foul == Reason.POT_NOT_ON:
        return NOT_NOMINATED
    if ours.foul is not None and theirs.foul in ours.also:
        return FOUL_ORDER
    return UNEXPLAINED


def _kind(field: str, scenario: Scenario, ours: Verdict, theirs: Verdict) -> str:
    """The kind of one field's difference (``EXPLAINED``), or ``UNEXPLAINED``."""
    if field == "miss":
        return NO_MISS if ours.miss and not theirs.miss else UNEXPLAINED
    if field == "free_ball":
        return NO_FREE_BALL if ours.free_ball and not theirs.free_ball else UNEXPLAINED
    if field == "respotted" and theirs.respotted is None and ours.frame_over and not ours.respotted:
        return FINAL_BLACK_RESPOT
    if ours.foul == theirs.foul:
        return UNEXPLAINED
    root = _foul_kind(scenario, ours, theirs)
    if field == "foul" or (field == "foul_points" and root == PLAYED_AT_RED):
        return root
    if root == TOUCHING and (ours.foul is None) != (theirs.foul is None):
        return root  # a fair stroke to one is a foul to the other: the score, turn and ball on follow
    return UNEXPLAINED


def compare_verdicts(scenario: Scenario, ours: Verdict, theirs: Verdict) -> tuple[Difference, ...]:
    out = []
    for name in COMPARED:
        a, b = getattr(ours, name), getattr(theirs, name)
        if a != b:
            out.append(Difference(name, a, b, _kind(name, scenario, ours, theirs)))
    return tuple(out)


def compare_shot(cfg: SynthConfig, shot: SimulatedShot) -> Row:
    scenario = scenario_for(shot)
    ours = arbiter_verdict(cfg, shot, scenario)
    players = (cfg.players[0], cfg.players[1])
    theirs = pooltool_verdict(shot, scenario, players)
    return Row(scenario, ours, theirs, compare_verdicts(scenario, ours, theirs))


@dataclass(frozen=True)
class Summary:
    shots: int
    fouls: tuple[int, int]  # shots called fouls by ours, by pooltool
    scoring: tuple[int, int]  # fair shots that scored, by ours, by pooltool
    agreements: int  # shots on which every compared field agrees
    fields_agreeing: Mapping[str, int]  # per compared field, the shots on which it agrees
    kinds: Mapping[str, int]  # per kind of difference, the shots that show it


def summarise(rows: Iterable[Row]) -> Summary:
    rows = list(rows)
    fields_agreeing = {
        name: sum(1 for r in rows if all(d.field != name for d in r.differences)) for name in COMPARED
    }
    kinds = Counter(k for r in rows for k in r.kinds)
    return Summary(
        shots=len(rows),
        fouls=(sum(r.ours.foul is not None for r in rows), sum(r.theirs.foul is not None for r in rows)),
        scoring=(sum(r.ours.points > 0 for r in rows), sum(r.theirs.points > 0 for r in rows)),
        agreements=sum(r.agrees for r in rows),
        fields_agreeing=MappingProxyType(fields_agreeing),
        kinds=MappingProxyType(dict(sorted(kinds.items()))),
    )


def compare(seed: int, indices: Iterable[int]) -> tuple[list[Row], Summary]:
    """Simulate the snooker shots ``indices`` of the synthetic run ``seed`` (physics only) and compare."""

    cfg = SynthConfig(game=GAME, seed=seed, video=False)
    rows = [compare_shot(cfg, simulate_shot(cfg, i)) for i in indices]
    return rows, summarise(rows)
