"""One five-pins shot, decided at its ``shot_end``: what it is worth and to whom (UMB 5-pin 5-8, 15), the
target cap (2), and the table for the next shot (10-13)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from adjudication.billiards.five_pins.rules import (
    CAROM_NAMES,
    CAROM_POINTS,
    FOULS,
    PINS,
    PLAYER_BALLS,
    RED,
    RULES,
    Reason,
)
from adjudication.billiards.five_pins.scoring import carom, fouls_of, knockers, pin_points
from adjudication.billiards.five_pins.state import State
from adjudication.billiards.five_pins.table import after_shot, covered, touching
from adjudication.billiards.shot import Shot
from arbiter.contract import Decision, Foul, FrozenMap


def decide(state: State, shot: Shot) -> tuple[State, tuple[Decision, ...]]:
    """The shot's one decision, and the state after it; ``next`` is always the other player."""
    striker = state.turn
    opponent = state.other(striker)
    own, their = state.ball_of(striker), state.ball_of(opponent)
    fouls = fouls_of(state, shot, own, their)
    worth, foul, notes = _worth(shot, fouls, striker, opponent)
    to = opponent if fouls else striker
    score = dict(state.score)
    credited = min(worth, state.target - score[to])
    if credited < worth:
        notes.append(
            f"the shot is worth {worth}; {to}'s score stops at the target {state.target} ({RULES} 2)"
        )
    score[to] += credited
    over = score[to] >= state.target
    if over:
        notes.append(f"{to} reaches {state.target}: wins the game ({RULES} 2)")
    in_hand = any(FOULS[r].ball_in_hand for r in fouls)
    positions, respots, placed = after_shot(state.layout, shot, own, their, in_hand, state.contact_mm)
    standing = frozenset(p for p in PINS if not covered(state.layout, p, positions))
    rests = (
        ()
        if in_hand or their not in positions
        else touching(state.layout, their, positions, state.contact_mm)
    )
    if over:  # no next shot: nothing to put back, place or warn about
        respots = ()
    else:
        notes += _next_shot_notes(placed, standing, rests, their)
    new = replace(
        state,
        score=FrozenMap(score),
        turn=opponent,
        shots=state.shots + 1,
        standing=standing,
        touching=rests,
        over=over,
        winner=to if over else None,
    )
    decision = Decision(
        shot=new.shots,
        player=striker,
        foul=foul,
        points=FrozenMap({to: credited} if worth else {}),
        score=new.score,
        next=None if over else opponent,
        on=None if over else own,
        over=over,
        winner=new.winner,
        respot=respots,
        notes=tuple(notes),
    )
    return new, (decision,)


def _worth(
    shot: Shot, fouls: list[Reason], striker: str, opponent: str
) -> tuple[int, Foul | None, list[str]]:
    """What the shot is worth (pins and the first carom, plus every foul's own points when it is a foul, which
    all go to the opponent: UMB 5-pin 7, 15.1), the foul a decision names, and the notes itemising it."""
    knocked = knockers(shot)
    pins = pin_points(set(knocked))
    struck = shot.striker_ball
    kind = None
    if Reason.RED_FIRST not in fouls and Reason.MISS not in fouls and struck != RED:
        kind = carom(shot, struck, PLAYER_BALLS[1 - PLAYER_BALLS.index(struck)])
    caroms = CAROM_POINTS[kind] if kind else 0
    notes: list[str] = []
    foul: Foul | None = None
    worth = pins + caroms
    if fouls:
        worth += sum(FOULS[r].points for r in fouls)
        notes += [f"foul {r.value}: {FOULS[r].points} points ({RULES} {FOULS[r].section})" for r in fouls]
        sections = [FOULS[r].section for r in fouls] + (["15.1"] if len(fouls) > 1 else [])
        foul = Foul(fouls[0].value, worth, f"{RULES} {', '.join(sections)}")
    if knocked:
        notes.append(f"pins {', '.join(knocked)}: {pins} ({RULES} 8.1)")
    if kind:
        notes.append(f"{CAROM_NAMES[kind]}: {caroms} ({RULES} 8.2)")
    if fouls:
        notes.append(f"{worth} points to {opponent} ({RULES} 7, 15)")
    elif worth == 0:
        notes.append(f"legal, no points: only the opponent's ball was hit ({RULES} 6)")
    else:
        notes.append(f"legal: {worth} points to {striker} ({RULES} 5, 8)")
    return worth, foul, notes


def _next_shot_notes(
    placed: list[str], standing: frozenset[str], rests: Iterable[str], their: str
) -> list[str]:
    """What the next striker is told: the ball in hand (13), pins taken off (12.7), contacts (10)."""
    notes = list(placed)
    notes += [
        f"{p} taken off for the next shot: a ball stands on its spot ({RULES} 12.7)"
        for p in PINS
        if p not in standing
    ]
    for t in rests:
        what = f"the {t.split(':')[1]} cushion" if t.startswith("cushion:") else t
        notes.append(f"{their} touches {what}: play away from it, not straight into it ({RULES} 10)")
    return notes
