"""One snooker stroke, decided at its ``shot_end``: judge it (fouls and their values, or the points), set the
table after it (pots, re-spots, the ball on, a miss), say who plays next, and write the decision."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from adjudication.billiards import geometry
from adjudication.billiards.shot import Shot
from adjudication.billiards.snooker.fouls import FOULS, Found
from adjudication.billiards.snooker.inputs import awaiting_message
from adjudication.billiards.snooker.judge import Stroke, judge
from adjudication.billiards.snooker.miss import miss_count
from adjudication.billiards.snooker.rules import (
    COLOUR,
    RULE_CHOICE,
    RULE_END,
    RULE_FREE_BALL,
    RULE_IN_HAND,
    RULE_MISS,
    RULE_NOMINATE,
    RULE_REBREAK,
    RULE_RESPOT,
    RULE_TURN,
    WHITE,
)
from adjudication.billiards.snooker.state import (
    CHOICE_AFTER_FOUL,
    Awaiting,
    State,
    Table,
    end_frame,
    other,
)
from adjudication.billiards.snooker.table import (
    balls_on,
    check_positions,
    next_on,
    respot_place,
    snookered,
    snookered_by_free_ball,
    to_respot,
    touching,
    touching_notes,
)
from adjudication.engine import RuleError
from arbiter.contract import Decision, Foul, FrozenMap, Respot
from arbiter.tables import XY


@dataclass(frozen=True)
class _Turn:
    """Who acts after the stroke, and what the decision says about it."""

    state: State
    next: str | None
    on: str | None
    awaiting: tuple[str, ...]
    respot: tuple[Respot, ...]
    notes: list[str]


def decide(state: State, shot: Shot) -> tuple[State, tuple[Decision, ...]]:
    """The stroke's one decision, and the state after it."""
    table, striker = state.table, state.striker
    if striker is None:
        raise RuleError(awaiting_message(state))
    opponent = other(state, striker)
    potted = tuple(dict.fromkeys(shot.potted()))
    off = tuple(dict.fromkeys(shot.off_table()))
    gone = set(potted) | set(off)
    check_positions(table, shot, gone)
    stroke = judge(state, shot, potted, off)
    balls = frozenset(table.balls - gone)
    at_rest = {b: xy for b, xy in shot.positions.items() if b == WHITE or b in balls}
    found = [*stroke.fouls, *_free_ball_snooker(table, stroke, balls, at_rest, WHITE in gone)]
    chosen = max(found, key=lambda f: f.penalty) if found else None  # the first of the highest on a tie
    score, points, notes = _score(state, striker, stroke, found, chosen)
    frame_over = (table.respotted_black or table.on == "black") and (chosen is not None or stroke.points > 0)
    left, respots = _table_after(table, stroke, gone, chosen is not None, frame_over, balls, at_rest)
    notes += [
        f"{b} re-spotted {respot_place(b, xy, table.layout)} ({RULE_RESPOT})" for b, xy in respots.items()
    ]
    misses = miss_count(state, stroke, found, score, left) if chosen is not None else 0
    notes += _miss_notes(misses, opponent)
    after = replace(
        state,
        score=FrozenMap(score),
        table=left,
        shot=state.shot + 1,
        nomination=None,
        replay=table,
        replayed=False,
        misses=misses,
    )
    turn = _Turn(after, None, left.on, (), tuple(Respot(b, xy) for b, xy in respots.items()), notes)
    if misses >= 3:
        turn = _frame_awarded(turn, opponent, score)
    elif frame_over and score[striker] == score[opponent] and not table.respotted_black:
        turn = _respotted_black(turn, score[striker])
    elif frame_over:
        turn = _frame_won(turn, score)
    elif chosen is not None:
        turn = _after_foul(turn, table, striker, misses)
    else:
        turn = _after_fair(turn, striker, stroke.points)
    foul = None if chosen is None else Foul(chosen.reason.value, chosen.penalty, FOULS[chosen.reason].rule)
    return turn.state, (_decision(turn, striker, foul, points, score),)


def _free_ball_snooker(
    table: Table, stroke: Stroke, balls: frozenset[str], at_rest: Mapping[str, XY], in_hand: bool
) -> list[Found]:
    """Snookered by the free ball (WPBSA 3.12), judged only on a fair stroke that scored nothing."""
    if stroke.free is None or stroke.fouls or stroke.points:
        return []
    found = snookered_by_free_ball(
        table, stroke.free, Table(balls, FrozenMap(at_rest), table.on, in_hand, layout=table.layout)
    )
    return [] if found is None else [found]


def _score(
    state: State, striker: str, stroke: Stroke, found: list[Found], chosen: Found | None
) -> tuple[dict[str, int], dict[str, int], list[str]]:
    """The frame score after the stroke, the points it moved and the notes on them: the highest foul goes to
    the opponent and the stroke scores nothing (WPBSA 3.10), else the pots go to the striker."""
    score = dict(state.score)
    notes: list[str] = []
    if chosen is not None:
        opponent = other(state, striker)
        score[opponent] += chosen.penalty
        points = {opponent: chosen.penalty}
        notes.append(f"foul: {chosen.detail}")
        notes.extend(f"also: {f.reason.value} ({f.detail})" for f in found if f is not chosen)
    else:
        score[striker] += stroke.points
        points = {striker: stroke.points} if stroke.points else {}
    return score, points, [*notes, *stroke.notes]


def _table_after(
    table: Table,
    stroke: Stroke,
    gone: set[str],
    foul: bool,
    frame_over: bool,
    balls: frozenset[str],
    at_rest: Mapping[str, XY],
) -> tuple[Table, dict[str, XY]]:
    """The table for the next stroke, with the colours that go back and where (WPBSA 3.7)."""
    respots = (
        {}
        if frame_over
        else geometry.respot_positions(to_respot(table, gone, foul, stroke.free), at_rest, table.layout)
    )
    positions = {**at_rest, **respots}
    balls = balls | frozenset(respots)
    left = Table(
        balls=balls,
        positions=FrozenMap(positions),
        on=next_on(table, gone, foul, stroke.points, balls),
        in_hand=WHITE in gone,
        touching=touching(positions),
        respotted_black=table.respotted_black,
        layout=table.layout,
    )
    return left, respots


def _miss_notes(misses: int, opponent: str) -> list[str]:
    notes = [f"foul and a miss ({RULE_MISS})"] if misses else []
    if misses == 2:
        notes.append(
            f"warning: a third failure from this position awards the frame to {opponent} ({RULE_MISS})"
        )
    return notes


def _frame_awarded(turn: _Turn, opponent: str, score: Mapping[str, int]) -> _Turn:
    """The third miss from the same position: the frame goes to the opponent (WPBSA 3.14)."""
    notes = [*turn.notes, f"third miss from the same position: frame awarded to {opponent} ({RULE_MISS})"]
    after, next_player, on, notes = end_frame(turn.state, opponent, score, notes)
    return _Turn(after, next_player, on, (), (), notes)


def _respotted_black(turn: _Turn, level: int) -> _Turn:
    """Scores level on the last black: it is re-spotted and a lot decides who plays it (WPBSA 3.4)."""
    layout = turn.state.table.layout
    black = layout.spots["black"]
    table = Table(
        frozenset({"black"}), FrozenMap({"black": black}), "black", True, respotted_black=True, layout=layout
    )
    after = replace(turn.state, striker=None, table=table, awaiting=Awaiting("lot", CHOICE_AFTER_FOUL))
    note = (
        f"scores level at {level}: the black is re-spotted; lots are drawn and the winner's choice (play or "
        f"pass) says who plays it from the D ({RULE_END})"
    )
    return _Turn(after, None, "black", ("choice",), (Respot("black", black),), [*turn.notes, note])


def _frame_won(turn: _Turn, score: Mapping[str, int]) -> _Turn:
    """The first score or foul on the last black ends the frame (WPBSA 3.4)."""
    winner = max(turn.state.players, key=lambda p: score[p])
    after, next_player, on, notes = end_frame(turn.state, winner, score, turn.notes)
    return _Turn(after, next_player, on, (), turn.respot, notes)


def _after_foul(turn: _Turn, table: Table, striker: str, misses: int) -> _Turn:
    """The non-offender chooses (WPBSA 3.13): play, pass, replace after a miss (WPBSA 3.14), a re-break after
    a foul on the opening stroke; a free ball when he is snookered (WPBSA 3.12)."""
    opponent = other(turn.state, striker)
    left = turn.state.table
    options = [*CHOICE_AFTER_FOUL, *(["replace"] if misses else []), *(["rebreak"] if table.opening else [])]
    notes = list(turn.notes)
    if left.in_hand:
        notes.append(f"white in hand: the next stroke is played from the D ({RULE_IN_HAND})")
    notes.extend(touching_notes(left))
    if table.opening:
        notes.append(
            f"foul on the opening stroke: {opponent} may have {striker} break again ({RULE_REBREAK})"
        )
    free_ball = snookered(left, balls_on(left, left.on))
    if free_ball:
        notes.append(
            f"free ball: {opponent} is snookered; if {opponent} plays, any other ball may be nominated "
            f"({RULE_FREE_BALL})"
        )
    notes.append(f"{opponent} chooses: {', '.join(options)} ({RULE_CHOICE})")
    aw = Awaiting("foul", tuple(options), chooser=opponent, offender=striker, free_ball=free_ball)
    after = replace(turn.state, striker=opponent, awaiting=aw)
    return _Turn(after, opponent, turn.on, ("choice",), turn.respot, notes)


def _after_fair(turn: _Turn, striker: str, points: int) -> _Turn:
    """A fair stroke: the striker plays on after a score, else the turn passes (WPBSA 2.5)."""
    next_player = striker if points else other(turn.state, striker)
    left = turn.state.table
    notes = [*turn.notes, *touching_notes(left)]
    if not points:
        notes.append(f"no score: {next_player} to play ({RULE_TURN})")
    if left.on == COLOUR:
        notes.append(f"a colour is on: nominate it with declare ({RULE_NOMINATE})")
    after = replace(turn.state, striker=next_player)
    return _Turn(after, next_player, turn.on, (), turn.respot, notes)


def _decision(
    turn: _Turn, striker: str, foul: Foul | None, points: Mapping[str, int], score: Mapping[str, int]
) -> Decision:
    return Decision(
        shot=turn.state.shot,
        player=striker,
        foul=foul,
        points=FrozenMap(points),
        score=FrozenMap(score),
        next=turn.next,
        on=turn.on,
        over=turn.state.over,
        winner=turn.state.winner,
        awaiting=turn.awaiting,
        respot=turn.respot,
        notes=tuple(turn.notes),
    )
