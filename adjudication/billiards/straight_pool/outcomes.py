"""What a 14.1 shot did to the game, one function per kind of shot: a breaking foul, a standard foul (the
third in a row included), a scoring shot (with the re-rack after fourteen) and a shot that scores nothing."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from adjudication.billiards.rack import CUE, Place, ball_number, plan_rerack, spot_balls
from adjudication.billiards.straight_pool.fouls import (
    FOULS,
    SERIOUS_FOUL_COUNT,
    SERIOUS_FOUL_EXTRA,
    Reason,
    foul,
)
from adjudication.billiards.straight_pool.state import IN_HAND, Phase, State, full_rack, placed
from arbiter.contract import Call, Foul, Respot
from arbiter.tables import XY


@dataclass(frozen=True)
class Outcome:
    """What a shot did to the game, before it becomes a state and a decision."""

    foul: Foul | None
    points: int
    turn: str
    phase: Phase
    table: Mapping[str, XY]
    cue_in_hand: bool
    fouls: int  # the shooter's consecutive fouls after the shot
    respot: tuple[Respot, ...]
    notes: tuple[str, ...]
    awaiting: tuple[str, ...] = ()


def _names(balls: list[str] | set[str] | tuple[str, ...]) -> str:
    return ", ".join(sorted(balls, key=ball_number))


def _respots(balls: Mapping[str, XY]) -> tuple[Respot, ...]:
    return tuple(Respot(b, xy) for b, xy in balls.items())


def _spotted(
    state: State, at_rest: Mapping[str, XY], balls: list[str]
) -> tuple[dict[str, XY], tuple[Respot, ...]]:
    """The table with ``balls`` spotted on the long string (WPA 1.4, 4.6), and the spotted balls."""
    spots = placed(spot_balls(state.layout, balls, at_rest))
    return {**at_rest, **spots}, _respots(spots)


def breaking_foul(
    state: State, at_rest: dict[str, XY], to_spot: list[str], fouls: tuple[Reason, ...], cue_gone: bool
) -> Outcome:
    """A break that is neither a called pot nor the cue ball and two balls to a rail: -2, and the opponent
    accepts the table or has the breaker break again (WPA 4.3); it takes precedence (WPA 4.10)."""
    shooter, other = state.turn, state.opponent(state.turn)
    table, respot = _spotted(state, at_rest, to_spot)
    notes = [
        "breaking foul: neither a called ball pocketed nor the cue ball and two object balls driven to a "
        f"rail: -{FOULS[Reason.BREAKING_FOUL].penalty} (WPA 4.3, 4.10)",
        f"{other} chooses: play (accept the table) or rebreak ({shooter} breaks again)",
    ]
    if fouls:
        notes.append(f"also {', '.join(fouls)}: the breaking foul takes precedence (WPA 4.10)")
    if to_spot:
        notes.append(f"spotted: {_names(to_spot)} (WPA 4.6)")
    if cue_gone:
        notes.append(f"{IN_HAND} if the table is accepted")
    return Outcome(
        foul=foul(Reason.BREAKING_FOUL),
        points=-FOULS[Reason.BREAKING_FOUL].penalty,
        turn=shooter,
        phase=Phase.CHOICE,
        table=table,
        cue_in_hand=cue_gone,
        fouls=state.fouls[shooter],  # a breaking foul is not one of three consecutive fouls (WPA 4.11)
        respot=respot,
        notes=tuple(notes),
        awaiting=("choice",),
    )


def standard_foul(
    state: State,
    at_rest: dict[str, XY],
    to_spot: list[str],
    fouls: tuple[Reason, ...],
    cue_gone: bool,
    scored: bool,
) -> Outcome:
    """-1, one per shot, and the turn passes (WPA 4.9); the third in a row costs 15 more and the offender
    breaks a new rack of fifteen (WPA 4.11, 6.14)."""
    shooter, other = state.turn, state.opponent(state.turn)
    reason = fouls[0]
    count = state.fouls[shooter] + 1
    notes: list[str] = []
    if len(fouls) > 1:
        notes.append(f"also {', '.join(fouls[1:])}: one penalty per shot")
    if count >= SERIOUS_FOUL_COUNT:
        return _third_foul(state, reason, notes)
    table, respot = _spotted(state, at_rest, to_spot)
    if scored:
        notes.append("the called ball was pocketed on a foul: it is spotted and does not score (WPA 4.6)")
    if to_spot:
        notes.append(f"spotted: {_names(to_spot)} (WPA 4.6)")
    if cue_gone:
        notes.append(f"{other} has the {IN_HAND} (WPA 6.1, 1.5)")
    if count == SERIOUS_FOUL_COUNT - 1:
        notes.append(
            f"{shooter} is on {count} consecutive fouls: a third costs {SERIOUS_FOUL_EXTRA} more (WPA 4.11)"
        )
    return Outcome(
        foul=foul(reason),
        points=-FOULS[reason].penalty,
        turn=other,
        phase=Phase.PLAY,
        table=table,
        cue_in_hand=cue_gone,
        fouls=count,
        respot=respot,
        notes=tuple(notes),
        awaiting=("call",),
    )


def _third_foul(state: State, reason: Reason, notes: list[str]) -> Outcome:
    shooter = state.turn
    table = full_rack(state.layout)
    notes[:0] = [
        f"third consecutive foul ({reason}): -1 and {SERIOUS_FOUL_EXTRA} more (WPA 4.11, 6.14)",
        f"all fifteen balls re-racked; {shooter} breaks under the opening-break rules, {IN_HAND}",
    ]
    return Outcome(
        foul=foul(Reason.THREE_CONSECUTIVE_FOULS),
        points=-FOULS[Reason.THREE_CONSECUTIVE_FOULS].penalty,
        turn=shooter,
        phase=Phase.BREAK,
        table=table,
        cue_in_hand=True,
        fouls=0,
        respot=_respots(table),
        notes=tuple(notes),
    )


def scoring(state: State, at_rest: dict[str, XY], call: Call, potted: list[str]) -> Outcome:
    """The called ball in the called pocket: 1 point and 1 for every other ball pocketed (WPA 4.7); the
    shooter goes on, and wins on reaching the target (WPA 4.4)."""
    shooter = state.turn
    points = len(potted)
    notes = [f"pot: {call.ball} in {call.pocket} as called, 1 point (WPA 4.7)"]
    extra = [b for b in potted if b != call.ball]
    if extra:
        notes.append(f"also pocketed {_names(extra)}: 1 point each (WPA 4.7)")
    if state.score[shooter] + points >= state.target:
        notes.append(f"{shooter} reaches {state.target}: wins (WPA 4.4)")
        return Outcome(
            foul=None, points=points, turn=shooter, phase=Phase.OVER, table=at_rest, cue_in_hand=False,
            fouls=0, respot=(), notes=tuple(notes),
        )  # fmt: skip
    left = [b for b in at_rest if b != CUE]
    if len(left) > 1:
        return Outcome(
            foul=None, points=points, turn=shooter, phase=Phase.PLAY, table=at_rest, cue_in_hand=False,
            fouls=0, respot=(), notes=tuple(notes), awaiting=("call",),
        )  # fmt: skip
    return _rerack(state, at_rest, points, notes)


def _rerack(state: State, at_rest: dict[str, XY], points: int, notes: list[str]) -> Outcome:
    """Fourteen balls of a rack pocketed: they are racked again and the shooter goes on; the fifteenth ball
    and the cue ball go where special racking says (WPA 4.4, 4.8)."""
    shooter = state.turn
    plan = plan_rerack(state.layout, at_rest)
    racked, moved = placed(plan.racked), placed(plan.moved)
    table = {b: xy for b, xy in at_rest.items() if not (b == CUE and plan.cue_in_hand)}
    table.update(racked)
    table.update(moved)
    where15, where_cue = plan.where
    notes.append(
        f"re-rack: {len(plan.racked)} balls racked"
        + (", apex empty" if not plan.full_rack else "")
        + f"; fifteenth ball {where15} -> {plan.fifteenth_place}, cue ball {where_cue} -> {plan.cue_place}"
        + " (WPA 4.4, 4.8)"
    )
    if plan.cue_place is Place.IN_HAND:
        notes.append(f"{shooter} has the {IN_HAND}")
    notes.append("the first shot of the new rack may be at any ball (WPA 4.8)")
    return Outcome(
        foul=None, points=points, turn=shooter, phase=Phase.PLAY, table=table, cue_in_hand=plan.cue_in_hand,
        fouls=0, respot=_respots(racked) + _respots(moved), notes=tuple(notes), awaiting=("call",),
    )  # fmt: skip


def no_score(state: State, at_rest: dict[str, XY], to_spot: list[str]) -> Outcome:
    """A legal shot that scores nothing: the turn passes and what was pocketed is spotted (WPA 4.4-4.6)."""
    other = state.opponent(state.turn)
    call = state.call
    notes: list[str] = []
    if state.phase is Phase.BREAK:
        notes.append("legal break: the cue ball and two object balls driven to a rail (WPA 4.3)")
    if call is not None and call.safety:
        notes.append(f"safety: play passes to {other} (WPA 4.5)")
    elif call is not None:
        notes.append(f"called {call.ball} in {call.pocket} not made: play passes to {other} (WPA 4.4)")
    else:
        notes.append(f"no called ball pocketed: play passes to {other} (WPA 4.4)")
    table, respot = _spotted(state, at_rest, to_spot)
    if to_spot:
        notes.append(f"pocketed without scoring, spotted without penalty: {_names(to_spot)} (WPA 4.6)")
    return Outcome(
        foul=None, points=0, turn=other, phase=Phase.PLAY, table=table, cue_in_hand=False,
        fouls=0, respot=respot, notes=tuple(notes), awaiting=("call",),
    )  # fmt: skip
