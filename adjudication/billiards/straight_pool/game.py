"""The 14.1 engine: ``step`` takes each line of the stream; a shot is decided at its ``shot_end``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from adjudication.billiards.rack import CUE, OBJECT_BALLS, ball_number, behind_head_string
from adjudication.billiards.shot import CAMERA_EVENTS, Shot, collect, noting_unsure_pots
from adjudication.billiards.straight_pool.fouls import legal_break, standard_fouls
from adjudication.billiards.straight_pool.inputs import (
    check_ids,
    check_shot_start,
    on_call,
    on_choice,
    on_concede,
)
from adjudication.billiards.straight_pool.outcomes import (
    Outcome,
    breaking_foul,
    no_score,
    scoring,
    standard_foul,
)
from adjudication.billiards.straight_pool.state import GAME, Phase, State, start
from adjudication.engine import Engine, RuleError
from arbiter.contract import Call, Choice, Concede, Decision, FrozenMap, JsonLine, ShotEnd, ShotStart
from arbiter.tables import XY, TableModel

SHOT_LINES = (ShotStart, ShotEnd, *CAMERA_EVENTS)
# The nearest ball spotted on request when every object ball is behind the head string: a BCA 14.1 rule
# (the Russian rules text follows BCA); the WPA text has none.
RULE_SPOT_ON_REQUEST = "BCA 14.1; not in the WPA rules"


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    """Take one line of the stream; a ``shot_end`` gives the shot's decision, a concession the final one."""
    if state.over:
        raise RuleError(f"the game is over ({state.winner} won); no more lines are accepted")
    if isinstance(event, Concede):
        return on_concede(state, event)
    if isinstance(event, Call):
        return on_call(state, event), ()
    if isinstance(event, Choice):
        return on_choice(state, event), ()
    if isinstance(event, SHOT_LINES):
        check_ids(event)
        if isinstance(event, ShotStart):
            check_shot_start(state)
        pending, shot = collect(state.pending, event)
        state = replace(state, pending=pending)
        if shot is None:
            return state, ()
        return noting_unsure_pots(shot, decide(state, shot))
    raise RuleError(
        f"a {event.TYPE!r} line: 14.1 reads call, choice (after a breaking foul), concede and the camera "
        "lines of shots"
    )


def decide(state: State, shot: Shot) -> tuple[State, tuple[Decision, ...]]:
    """The shot's one decision: a breaking foul, a standard foul, a scoring shot or a shot scoring nothing."""
    shooter, call = state.turn, state.call
    off = set(shot.off_table())
    pots = shot.pots()
    potted = [b for b in OBJECT_BALLS if any(p.ball == b for p in pots)]
    gone = {*off, *(p.ball for p in pots)}
    at_rest = {b: xy for b, xy in shot.positions.items() if b not in gone}
    scored = (
        call is not None
        and not call.safety
        and any(p.ball == call.ball and p.pocket == call.pocket for p in pots)
    )
    fouls = standard_fouls(state, shot)
    to_spot = [b for b in OBJECT_BALLS if b in potted or b in off]
    if state.phase is Phase.BREAK and not legal_break(shot, scored):
        outcome = breaking_foul(state, at_rest, to_spot, fouls, CUE in gone)
    elif fouls:
        outcome = standard_foul(state, at_rest, to_spot, fouls, CUE in gone, scored)
    elif scored and call is not None:
        outcome = scoring(state, at_rest, call, potted)
    else:
        outcome = no_score(state, at_rest, to_spot)
    score = {**state.score, shooter: state.score[shooter] + outcome.points}
    over = outcome.phase is Phase.OVER
    new = replace(
        state,
        score=FrozenMap(score),
        turn=outcome.turn,
        phase=outcome.phase,
        table=FrozenMap(outcome.table),
        fouls=FrozenMap({**state.fouls, shooter: outcome.fouls}),
        cue_in_hand=outcome.cue_in_hand,
        shots=state.shots + 1,
        call=None,
        winner=shooter if over else None,
    )
    return new, (_decision(state, new, outcome),)


def _decision(before: State, new: State, outcome: Outcome) -> Decision:
    shooter = before.turn
    notes = list(outcome.notes)
    if not new.over and outcome.cue_in_hand:
        notes.extend(_spot_on_request(outcome.table, new.layout))
    return Decision(
        shot=new.shots,
        player=shooter,
        foul=outcome.foul,
        points=FrozenMap({shooter: outcome.points} if outcome.points else {}),
        score=new.score,
        next=None if new.over else (before.opponent(shooter) if outcome.phase is Phase.CHOICE else new.turn),
        over=new.over,
        winner=new.winner,
        awaiting=outcome.awaiting,
        respot=outcome.respot,
        notes=tuple(notes),
    )


def _spot_on_request(table: Mapping[str, XY], layout: TableModel) -> list[str]:
    """With the cue ball in hand and every object ball behind the head string, the nearest one may be spotted
    on request; the request is no input, so the decision only says so."""
    objects = {b: xy for b, xy in table.items() if b != CUE}
    if not objects or not all(behind_head_string(layout, xy) for xy in objects.values()):
        return []
    nearest = max(objects, key=lambda b: (objects[b][1], -ball_number(b)))
    return [
        f"every object ball is behind the head string: {nearest} may be spotted on the foot spot at the "
        f"striker's request ({RULE_SPOT_ON_REQUEST})"
    ]


ENGINE = Engine(game=GAME, start=start, step=step)
