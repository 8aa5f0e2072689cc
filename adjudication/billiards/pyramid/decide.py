"""One pyramid shot, decided at its ``shot_end``: its fouls and penalty, or the balls it scores (with the
older rules' debt), then where the cue ball is played from, who plays next and whether the game is won."""

from __future__ import annotations

from dataclasses import dataclass, replace

from adjudication.billiards.pyramid.fouls import break_ok, fouls_of
from adjudication.billiards.pyramid.rules import (
    BREAK_RULES,
    CUE,
    FOULS,
    OBJECT_BALLS,
    PENALTY_RULES,
    RULE_DYNAMIC_BREAK,
    RULE_OBJECT,
    RULE_OLDER,
    RULE_SPOTTING,
    VARIANT_FOULS,
    XY,
    BreakTest,
    FoulRule,
    InHand,
    Penalty,
    Reason,
)
from adjudication.billiards.pyramid.spotting import in_hand_note, put_back
from adjudication.billiards.pyramid.state import State
from adjudication.billiards.shot import Shot
from arbiter.contract import Decision, Foul, FrozenMap, Respot


@dataclass(frozen=True)
class _Ledger:
    """Each player's score, the balls on his shelf and the balls he owes, as the shot leaves them."""

    score: dict[str, int]
    shelf: dict[str, int]
    debt: dict[str, int]


def decide(state: State, shot: Shot) -> tuple[State, tuple[Decision, ...]]:
    """The shot's one decision, and the state after it."""
    player, opponent = state.turn, state.opponent(state.turn)
    gone = set(shot.potted()) | set(shot.off_table())
    positions = {b: xy for b, xy in shot.positions.items() if b not in gone}
    respots: list[Respot] = []
    ledger = _Ledger(dict(state.score), dict(state.shelf), dict(state.debt))
    reasons = fouls_of(state, shot)
    break_failed = state.breaking and not break_ok(state, shot)
    if break_failed and not reasons:
        reasons.append(Reason.ILLEGAL_BREAK)
    foul: Foul | None = None
    if reasons:
        foul, points, notes = _foul(state, shot, reasons, ledger, positions, respots)
        next_player = opponent
    else:
        points, notes = _legal(state, shot, ledger, positions, respots)
        next_player = player if points else opponent
    new = replace(
        state,
        score=FrozenMap(ledger.score),
        shelf=FrozenMap(ledger.shelf),
        debt=FrozenMap(ledger.debt),
        turn=next_player,
        shots=state.shots + 1,
        breaking=False,
        in_hand=_cue_in_hand(state, positions, gone),
        on_table=frozenset(positions),
        positions=FrozenMap(positions),
    )
    new, awaiting, notes = _after(state, new, break_failed, notes)
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


def _foul(
    state: State,
    shot: Shot,
    reasons: list[Reason],
    ledger: _Ledger,
    positions: dict[str, XY],
    respots: list[Respot],
) -> tuple[Foul, dict[str, int], list[str]]:
    """One penalty per shot, for the first foul; balls potted on it or off the table go back on the table,
    but a cue ball that is played from hand in this discipline."""
    primary = reasons[0]
    spec = VARIANT_FOULS.get((state.variant, primary), FOULS[primary])
    notes = []
    if len(reasons) > 1:
        notes.append("also " + ", ".join(r.value for r in reasons[1:]) + " (one penalty per shot)")
    for ball in dict.fromkeys((*shot.potted(), *shot.off_table())):
        if ball == CUE and state.rules.in_hand is not None:
            continue
        put_back(state.layout, ball, positions, respots)
    if respots:
        notes.append(f"balls potted on a foul or off the table go back on the back spot ({RULE_SPOTTING})")
    points: dict[str, int] = {}
    if spec.penalty:
        points, penalty_notes = _penalise(state, spec, ledger, positions, respots)
        notes += penalty_notes
    return Foul(reason=primary.value, penalty=spec.penalty, rule=spec.rule), points, notes


def _penalise(
    state: State, spec: FoulRule, ledger: _Ledger, positions: dict[str, XY], respots: list[Respot]
) -> tuple[dict[str, int], list[str]]:
    """``point``: a point to the opponent (combined: he also takes a penalty ball); ``ball``: the offender
    returns a ball from his shelf, or owes one."""
    rules = state.rules
    player, opponent = state.turn, state.opponent(state.turn)
    if state.penalty is Penalty.POINT:
        ledger.score[opponent] += spec.penalty
        notes = [f"foul: {spec.penalty} point to {opponent} ({PENALTY_RULES[Penalty.POINT]})"]
        if rules.penalty_ball_taken:
            notes.append(
                f"{opponent} takes a penalty ball of his choice off the table (IPC Combined Pyramid 6-7)"
            )
        return {opponent: spec.penalty}, notes
    ledger.score[player] -= spec.penalty
    if ledger.shelf[player] <= 0:
        ledger.debt[player] += 1
        return {player: -spec.penalty}, [
            f"foul: {player} has no ball on his shelf and owes one ({RULE_OLDER})"
        ]
    ledger.shelf[player] -= 1
    notes = [f"foul: {player} puts a ball from his shelf back on the table ({RULE_OLDER})"]
    shelved = (*OBJECT_BALLS, CUE) if rules.any_ball_is_cue else OBJECT_BALLS
    spare = [b for b in shelved if b not in positions]
    if spare:
        put_back(state.layout, spare[0], positions, respots)
    else:  # the stream still shows every ball on the table: nothing to name
        notes.append("no ball is missing from the table to respot")
    return {player: -spec.penalty}, notes


def _credit_order(shot: Shot) -> list[str]:
    """Balls potted, object balls in pocket order first, then the struck ball (svoyak)."""
    potted = list(dict.fromkeys(shot.potted()))
    return [b for b in potted if b != shot.striker_ball] + [b for b in potted if b == shot.striker_ball]


def _legal(
    state: State, shot: Shot, ledger: _Ledger, positions: dict[str, XY], respots: list[Respot]
) -> tuple[dict[str, int], list[str]]:
    """A legal shot: every ball potted scores a point; the first of them pay any debt (older rules)."""
    rules, player, struck = state.rules, state.turn, shot.striker_ball
    credited = _credit_order(shot)
    notes = []
    if not credited:
        notes.append(f"no ball potted: the turn passes ({rules.scoring_rule})")
    else:
        ledger.score[player] += len(credited)
        paying = min(ledger.debt[player], len(credited))
        ledger.debt[player] -= paying
        ledger.shelf[player] += len(credited) - paying
        for ball in credited[:paying]:
            if ball == CUE and rules.in_hand is not None:
                notes.append(
                    f"the svoyak pays {player}'s debt: no ball is taken off the table ({RULE_OLDER})"
                )
            else:
                put_back(state.layout, ball, positions, respots)
        if paying:
            notes.append(f"{paying} ball(s) pay {player}'s debt and go back on the table ({RULE_OLDER})")
        names = ", ".join(f"{b} (svoyak)" if b == struck else b for b in credited)
        notes.append(f"pot: {names}, one point each ({rules.scoring_rule})")
        if struck in credited and rules.in_hand is not None and struck not in credited[:paying]:
            notes.append(
                f"svoyak: {player} takes an object ball of his choice off the table ({rules.svoyak_rule})"
            )
    if state.breaking:
        notes.append(f"legal break ({BREAK_RULES[rules.break_test]})")
    return ({player: len(credited)} if credited else {}), notes


def _cue_in_hand(state: State, positions: dict[str, XY], gone: set[str]) -> InHand | None:
    """Where the cue ball is played from next, if it is in hand."""
    if CUE in positions:
        return None
    if state.rules.in_hand is not None:
        return state.rules.in_hand  # the cue ball left the table (or never came on it): in hand
    if CUE not in gone:
        return state.in_hand  # free: a cue ball never placed for the break stays in hand
    return None


def _after(
    state: State, new: State, break_failed: bool, notes: list[str]
) -> tuple[State, tuple[str, ...], list[str]]:
    """The end of the game on reaching the target, the choice after a failed dynamic break, and where the cue
    ball in hand is played from."""
    player, opponent = state.turn, state.opponent(state.turn)
    winner = next((p for p in (player, opponent) if new.score[p] >= state.target), None)
    awaiting: tuple[str, ...] = ()
    if winner is not None:
        new = replace(new, over=True, winner=winner)
        notes.append(
            f"{winner} reaches {state.target} points and wins ({RULE_OBJECT}: first to {state.target})"
        )
    elif break_failed and state.rules.break_test is BreakTest.DYNAMIC:
        new = replace(new, chooser=opponent)
        awaiting = ("choice",)
        notes.append(
            f"failed break: {opponent} plays the table as it lies or re-racks and breaks "
            f"({RULE_DYNAMIC_BREAK})"
        )
    if not new.over and new.in_hand is not None:
        notes.append(in_hand_note(new, new.turn))
    return new, awaiting, notes
