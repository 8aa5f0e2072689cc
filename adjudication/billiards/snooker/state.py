"""Snooker's state: the table before the next stroke, the match around it, and the frame's start and end."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from adjudication import options
from adjudication.billiards import geometry
from adjudication.billiards.shot import Collecting
from adjudication.billiards.snooker.rules import (
    BALL_IDS,
    COLOUR,
    COLOURS,
    OBJECT_BALLS,
    RADIUS,
    RED,
    RULE_ALTERNATE,
    RULE_END,
    RULE_POT,
    SPEC,
    TABLE,
    WHITE,
    kind,
    lowest_colour,
    ordered,
)
from adjudication.engine import RuleError
from arbiter.contract import Declare, FrozenMap, Match
from arbiter.tables import XY, TableModel

CHOICE_AFTER_FOUL = ("play", "pass")


@dataclass(frozen=True)
class Table:
    """The balls as they stand before the next stroke, and what that stroke must do, on the table played
    (``layout``: its spots, the D, the baulk line; the match header's ``table`` size, standard without)."""

    balls: frozenset[str]  # object balls on the table
    positions: Mapping[str, XY]  # known centres (last shot_end and re-spots); empty for a fresh rack
    on: str  # "red", "colour" or the colour on
    in_hand: bool  # the white is played from the D
    opening: bool = False  # the frame's opening stroke
    free_ball: bool = False  # the striker may nominate a free ball
    touching: tuple[str, ...] = ()  # balls the white rests against
    respotted_black: bool = False
    layout: TableModel = TABLE


def fresh_rack(layout: TableModel) -> Table:
    """The start of a frame or a re-break: every ball on, reds on, the white in hand (WPBSA 3.2)."""
    return Table(balls=OBJECT_BALLS, positions=FrozenMap(), on=RED, in_hand=True, opening=True, layout=layout)


@dataclass(frozen=True)
class Awaiting:
    """A choice awaited: after a foul (the non-offender's) or for the re-spotted black (the lot's winner)."""

    kind: str  # "foul" or "lot"
    options: tuple[str, ...]
    chooser: str | None = None  # None for the lot: whoever won it
    offender: str | None = None
    free_ball: bool = False  # a free ball goes with "play"


@dataclass(frozen=True)
class State:
    players: tuple[str, str]
    best_of: int
    score: Mapping[str, int]  # the current frame's points
    frames: Mapping[str, int]  # frames won
    frame_no: int
    breaker: str  # who broke the current frame
    striker: str | None  # who plays next (None while a lot is awaited)
    table: Table
    shot: int = 0
    pending: Collecting = field(default_factory=Collecting)
    nomination: Declare | None = None
    awaiting: Awaiting | None = None
    replay: Table | None = None  # the table before the last stroke, for "replace"
    replayed: bool = False  # the stroke to come is a replay after "replace"
    misses: int = 0  # consecutive fouls and misses from the same replaced position
    over: bool = False
    winner: str | None = None


def other(state: State, player: str) -> str:
    return state.players[1] if player == state.players[0] else state.players[0]


def start(match: Match) -> State:
    """A match of ``frames`` frames (best of N, odd), ``first`` breaking the first frame."""
    options.check_players(SPEC, match)
    settings = options.read_all(SPEC, match)
    best_of = settings["frames"]
    if best_of % 2 == 0:
        raise RuleError(
            f"snooker option frames must be an odd integer >= 1, the best of N frames (got {best_of!r})"
        )
    players = (match.players[0], match.players[1])
    zero = FrozenMap(dict.fromkeys(players, 0))
    first = settings["first"]
    return State(
        players=players,
        best_of=best_of,
        score=zero,
        frames=zero,
        frame_no=1,
        breaker=first,
        striker=first,
        table=fresh_rack(SPEC.resized(match.table).table),
    )


def from_position(
    match: Match,
    positions: Mapping[str, XY],
    *,
    on: str | None = None,
    striker: str | None = None,
    score: Mapping[str, int] | None = None,
    in_hand: bool = False,
    opening: bool = False,
) -> State:
    """A frame already under way: the table holds exactly the balls of ``positions`` (id -> centre in mm),
    ``striker`` (default: the header's ``first``) is to play, the frame stands at ``score`` (default 0-0).

    The ball on follows from the table (WPBSA 3.3): a red while reds remain, else the lowest colour left.
    ``on="colour"`` starts instead on the colour after a red (the striker has just potted one; with no red
    left, the last one), to be nominated with ``declare``. ``in_hand``: the white is played from the D (its
    place in ``positions``, if any, is not used for the rules). ``opening``: the frame's opening stroke,
    which needs the full rack and the white in hand. Balls the white rests against are touching balls, as
    after a ``shot_end``. Raises ``ValueError`` for a position the rules cannot reach."""
    state = start(match)
    balls = _object_balls(positions, in_hand)
    on = _ball_on(balls, on)
    if opening and (balls != OBJECT_BALLS or not in_hand or on != RED):
        raise ValueError("an opening stroke needs every ball on the table, the white in hand and a red on")
    striker = state.striker if striker is None else striker
    if striker not in state.players:
        raise ValueError(f"striker must be one of the players {', '.join(state.players)} (got {striker!r})")
    points = dict(state.score) if score is None else dict(score)
    if set(points) != set(state.players) or not all(
        isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in points.values()
    ):
        raise ValueError(
            f"score must give each player ({', '.join(state.players)}) an integer >= 0 (got {points!r})"
        )
    xy = {b: (float(p[0]), float(p[1])) for b, p in positions.items()}
    white = None if in_hand else xy.get(WHITE)
    touching = tuple(
        b for b in ordered(balls) if white is not None and geometry.touching(white, xy[b], RADIUS)
    )
    layout = state.table.layout
    table = Table(balls, FrozenMap(xy), on, in_hand, opening=opening, touching=touching, layout=layout)
    return replace(state, score=FrozenMap(points), striker=striker, table=table)


def _object_balls(positions: Mapping[str, XY], in_hand: bool) -> frozenset[str]:
    """The object balls of a position given to ``from_position``; ``ValueError`` for one it cannot use."""
    unknown = sorted(b for b in positions if b not in BALL_IDS)
    if unknown:
        raise ValueError(
            f"positions name {', '.join(map(repr, unknown))}: not snooker balls; ids are white, "
            f"red:1..red:15, {', '.join(COLOURS)}"
        )
    balls = frozenset(b for b in positions if b != WHITE)
    if not balls:
        raise ValueError("positions hold no object ball: a frame under way has at least the black left")
    if WHITE not in positions and not in_hand:
        raise ValueError("positions hold no white: give its place, or in_hand=True to play it from the D")
    return balls


def _ball_on(balls: frozenset[str], on: str | None) -> str:
    """The ball on that a table of ``balls`` allows: the one it implies, or ``colour`` after a red."""
    reds = any(kind(b) == RED for b in balls)
    lowest = lowest_colour(balls)
    derived = RED if reds or lowest is None else lowest
    if on is None:
        return derived
    if on != derived and not (on == COLOUR and lowest is not None):
        raise ValueError(
            f"on {on!r} cannot follow from this table: the ball on is {derived!r} ({RULE_POT}), or "
            "'colour' after a red when a colour is on the table"
        )
    return on


def end_frame(
    state: State, frame_winner: str, score: Mapping[str, int], notes: list[str]
) -> tuple[State, str | None, str | None, list[str]]:
    """The frame goes to ``frame_winner``: the match state after it, who plays next, the ball on, notes."""
    loser = other(state, frame_winner)
    frames = dict(state.frames)
    frames[frame_winner] += 1
    tally = ", ".join(f"{p} {frames[p]}" for p in state.players)
    notes = [
        *notes,
        f"frame {state.frame_no} to {frame_winner}, {score[frame_winner]}-{score[loser]} ({RULE_END})",
        f"frames: {tally} (best of {state.best_of})",
    ]
    base = replace(
        state,
        score=FrozenMap(score),
        frames=FrozenMap(frames),
        nomination=None,
        awaiting=None,
        replay=None,
        replayed=False,
        misses=0,
    )
    if frames[frame_winner] * 2 > state.best_of:
        notes.append(f"match to {frame_winner}")
        return replace(base, striker=None, over=True, winner=frame_winner), None, None, notes
    breaker = other(state, state.breaker)
    notes.append(f"frame {state.frame_no + 1}: {breaker} breaks from the D ({RULE_ALTERNATE})")
    after = replace(
        base,
        score=FrozenMap(dict.fromkeys(state.players, 0)),
        frame_no=state.frame_no + 1,
        breaker=breaker,
        striker=breaker,
        table=fresh_rack(state.table.layout),
    )
    return after, breaker, RED, notes
