"""Snooker (game id ``snooker``): the rule engine.

Sources: the rules text, seed 004 "Раздел 5. Правила снукера" (cited "seed 004 sec N" by its numbered
sections, "sec 9.6" for item 6 of section 9, "sec 23.2(1)" for a penalty item), first; the WPBSA Official
Rules, November 2019 (cited "WPBSA S.R", Section S rule R; docs/rules-notes.md section 1) where the text is
silent. Table figures (spots, D, ball size) come from ``arbiter.games.billiards("snooker").table``, the
geometry from ``adjudication.billiards.geometry``.

Inputs, in stream order:
- the camera lines of each shot, ``shot_start`` (ball ``white``) to ``shot_end``; the shot is decided at its
  ``shot_end`` and gives exactly one decision. Ball ids: ``white``, ``red:1``..``red:15``, ``yellow``,
  ``green``, ``brown``, ``blue``, ``pink``, ``black``; any other id, or an object ball that is no longer on
  the table, is refused. ``shot_end.positions`` must list only balls on the table; it drives every
  geometric call (touching ball, free ball, miss, re-spotting, snookered by the free ball).
- ``declare`` by the striker before a shot: ``{"ball": "blue"}`` nominates the colour on after a red (taken
  only then); ``{"ball": "pink", "free_ball": true}`` nominates a free ball (taken only when one was called
  and the player took the table with ``play``; any ball other than the ball on, WPBSA 2.13). A later
  declaration before the same shot replaces an earlier one; a nomination lasts one shot.
- ``choice``: after a foul, by the non-offender (``awaiting: ["choice"]``, ``next`` is the chooser):
  ``play`` (table as it lies; a free ball if one was called), ``pass`` (the offender plays again, any free
  ball void; seed 004 sec 22.1, WPBSA 3.13), ``replace`` (only after a foul and a miss: balls back where they
  were, the offender plays again with the same ball on; seed 004 sec 20, WPBSA 3.14), ``rebreak`` (only after
  a foul on a frame's opening stroke: the balls are racked again and the offender breaks again; the penalty
  stands; seed 004 sec 8). After a frame tied on the last black, by the winner of the lot for the re-spotted
  black, either player (that decision has ``next`` null): ``play`` (the chooser plays first, from the D) or
  ``pass`` (the other one does). A choice gives no decision of its own.
- ``concede`` by either player between shots: the frame goes to the opponent whatever the score. It gives one
  decision, numbered with the last shot played (0 before any), the same as a frame-ending shot's.

Options (match header ``options``):
- ``frames``: best of N frames, an odd integer >= 1. Default 1: the text speaks of the frames of a match
  (seed 004 sec 8) without a number; the number is set by each competition (WPBSA 3.4).
- ``first``: who breaks in the first frame; afterwards the break alternates (seed 004 sec 8). Default the
  first player of the header (the text has a lot decide it; the stream says who won it).

Rules applied:
- Reds and colours (seed 004 sec 7, 9): while reds remain the first ball on of each visit is a red; any reds
  potted after a red is hit first score 1 each (sec 9.4); then a colour is on, nominated with ``declare``
  (sec 9.6); after it, a red again. With no reds left the colours are on in order yellow to black (sec 9.11).
  ``on`` is ``"red"``, ``"colour"`` (any colour, to be nominated) or the colour on.
- Re-spotting (seed 004 sec 9.10, 10, 11, 12): colours potted or forced off the table while reds remain (the
  colour after the last red included), every colour potted or off the table on a foul, and a potted free ball
  are re-spotted (``respot``) by ``geometry.respot_positions`` from the ``shot_end`` positions; reds never.
- Fouls and their values (seed 004 sec 23, at least 4, the highest of the stroke's fouls when there are
  several, sec 22.2): see ``Reason`` and ``FOULS``. The value of the ball on, of the ball on or the ball(s)
  concerned, or 7. A free ball counts at the value of the ball on (WPBSA 3.12). The points go to the opponent
  (sec 22.1), and any score of the stroke is lost.
- Free ball (seed 004 sec 21; WPBSA 3.12): after a foul, if the incoming player is snookered (WPBSA 2.17, by
  the ``shot_end`` geometry; from the D when the white is in hand) on every ball on, the decision notes it. If
  he plays and declares one, the free ball is the ball on at the value of the ball on: it must be hit first
  (or at the same time as the ball on); potted it scores that value and is re-spotted; with reds on, it and
  every red potted score 1 each; with a colour on, if both go in only the ball on scores. After a stroke that
  scores nothing it is a foul if the white is left snookered on every ball on by the free ball (the free ball
  is needed for the snooker), except when only pink and black remain.
- Touching ball (seed 004 sec 18; WPBSA 3.8): when the white rests touching a ball at ``shot_end``, the
  decision notes it. Next stroke, a touching ball on (a nominated or free ball included) counts as hit: the
  striker may play away and hit nothing, or another ball, without a foul. Moving the touching ball is a push
  stroke: the white's first contact is that ball, or it moves more than ``PUSH_TOLERANCE_MM`` or leaves the
  table without any ball running into it. Touching means centres within a diameter plus
  ``geometry.TOUCH_TOLERANCE_MM``.
- Foul and a miss (seed 004 sec 20; WPBSA 3.14), the objective reading an automatic referee can apply: a
  foul in which the white fails to hit a ball on first (hits nothing, hits a ball not on, plays at reds when
  a colour is on) is also a miss when, from where the white lay before the stroke (from anywhere in the D
  when in hand), there was a straight path to some part of a ball that was or could be on (all colours when a
  colour is on), and neither player needed snookers before the stroke nor after it (the trailing player's
  deficit at least what is left on the table, WPBSA 3.14(a)). With the balls fully hidden no miss is called:
  the rules assume a fair attempt (sec 20 note), and the strength of a stroke is not seen. Three-miss rule
  (WPBSA 3.14(c)): a failure after the balls were ``replace``d, when a full-ball contact was open, is a miss
  whatever the score; the second such miss carries a warning, the third awards the frame to the opponent;
  ``play`` or ``pass`` starts the count again. No miss is called on the opening stroke (the text gives
  ``rebreak`` instead), with only the black left, or where the balls' places before the stroke are unknown.
- Opening stroke (seed 004 sec 3, 8): from the D; the white must first hit a red. After a foul on it the
  incoming player may ``play``, ``pass`` or ``rebreak``.
- Cue ball potted or off the table (seed 004 sec 13): the opponent plays from the D (``notes``); an object
  ball off the table is a foul (sec 11), a colour is re-spotted, a red stays off.
- End of frame (seed 004 sec 7; WPBSA 3.4): with only the black left, the first score or foul ends the frame.
  If the scores are then level the black is re-spotted, the white is in hand, ``awaiting: ["choice"]`` for the
  lot, and the next score or foul ends the frame. The frame's decision gives the frame score; a new frame
  starts at 0-0 and is broken by the other player. The match ends when a player has won more than half of
  ``frames``; ``over`` and ``winner`` are the match's, and ``score`` is always the current frame's.

Starting mid-frame: ``from_position(match, positions, on=, striker=, score=, in_hand=, opening=)`` builds the
state of a frame under way, the table holding exactly the balls of ``positions``; the ball on follows from the
table (a red while reds remain, else the lowest colour), or ``on="colour"`` for the colour after a red. It
takes no stream line: it is for callers that join a frame (synthetic shots, tests).

Compared with pooltool's snooker ruleset (``pooltool_compare``; pooltool-billiards 0.6.0): synthetic shots of
``arbiter synth`` are judged by this engine, started with ``from_position`` and fed their truth lines, and by
pooltool on the same simulation. On the fixed set of the test (run 8 shots 0-24, run 3 shots 5 and 19: 27
shots, 10 fouls and 3 scoring pots by both) 20 shots agree on every compared field (foul, its reason and
points, points scored, who plays next, frame over, ball on next, colours re-spotted, miss, free ball), and
every difference is one pooltool's ruleset explains by omission (``pooltool_compare.EXPLAINED``): no foul and
a miss (4 shots), no free ball (1), no 7-point foul for a red played with a colour on (1: 7 against 5), one
reason for any ball not on potted where ours names a colour other than the nominated one (1), several fouls
reported in pooltool's fixed order where ours reports the highest (1: no ball hit and in-off on the last
black), and pooltool's re-spotting failing when the frame ends on the last black (1). Also omitted by
pooltool, not met by those shots: touching ball and push stroke, balls off the table (the simulation has
none), two balls hit at once, the other 7-point fouls, the three-miss rule, the re-spotted black on a tie,
re-spotting on an occupied spot, the re-break.

Departures and limits:
- Not refereed, because no line of the stream shows them: striking while balls move, double hit, feet off the
  floor, playing out of turn, the placement of the white in the D, jump shots, striking with a ball not
  correctly spotted, touching a ball other than with the tip, using a ball off the table (seed 004 sec
  23.1(1)-(5), (9), 23.2(4)-(5), 23.4(2)). The decisions place re-spotted balls; the next ``shot_end`` shows
  where they really were.
- Angled ball (seed 004 sec 16: play from the D after a foul when the pocket's jaw blocks every ball on) is
  not applied: WPBSA 2.17(e) has dropped it (a cushion never snookers) and pocket jaws are not modelled.
- A ``free_ball`` nomination must name a ball other than the ball on (WPBSA 2.13; the text says "any ball").
- A colour on after a red with no ``declare``: on a fair stroke the colour the white hits first (or the one it
  rests against, if it hits nothing) is taken as nominated, as a referee deems an obvious nomination; on a
  foul the stroke is "a foul before nominating a colour", 7 points (seed 004 sec 23.4(1)), and the
  stroke's other fouls are noted.
- Snookered by the free ball is judged only on strokes that score nothing (otherwise the striker plays on and
  no one is snookered); "by the free ball" means the snooker disappears without it.
- The re-spotted black: the ``choice`` line's player is taken as the lot's winner.
- Concession is taken from either player between shots (the text is silent; WPBSA 3.4 lets a player concede).
- Frames are scored one by one (no aggregate-score matches); a match needs exactly two players.
- A touching ball that the white runs into as its first contact is taken as pushed, even if the white left it
  and came back to it; the camera lines do not tell the two apart.
- The D and the baulk line are the table model's (WPBSA: 737 mm from the bottom cushion); seed 004 sec 4
  prints 700 mm.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum, StrEnum
from types import MappingProxyType

from adjudication.billiards import geometry
from adjudication.billiards.shot import Collecting, Shot, collect
from adjudication.engine import Engine, RuleError
from arbiter.contract import (
    BallBall,
    Choice,
    Concede,
    Cushion,
    Decision,
    Declare,
    Foul,
    FrozenMap,
    JsonLine,
    Match,
    OffTable,
    PinDown,
    Pot,
    Respot,
    ShotEnd,
    ShotStart,
)
from arbiter.games import billiards
from arbiter.tables import XY

SPEC = billiards("snooker")
GAME = SPEC.id
TABLE = SPEC.table
RADIUS = TABLE.ball_radius_mm

WHITE = "white"
RED = "red"
COLOUR = "colour"  # the ball on after a red: any colour, nominated
COLOURS: tuple[str, ...] = ("yellow", "green", "brown", "blue", "pink", "black")  # in the order they are on
REDS: tuple[str, ...] = tuple(f"red:{n}" for n in range(1, 16))
OBJECT_BALLS: frozenset[str] = frozenset((*REDS, *COLOURS))
BALL_IDS: frozenset[str] = frozenset((WHITE, *OBJECT_BALLS))
# Ball values (seed 004 sec 2).
VALUES: Mapping[str, int] = MappingProxyType(
    {"red": 1, "yellow": 2, "green": 3, "brown": 4, "blue": 5, "pink": 6, "black": 7}
)
MIN_PENALTY = 4  # seed 004 sec 23: "не менее четырех очков"
COLOURS_TOTAL = sum(VALUES[c] for c in COLOURS)  # 27
PUSH_TOLERANCE_MM = 5.0  # a touching ball that moves more than this with nothing running into it was pushed
_ORDER: Mapping[str, int] = MappingProxyType({b: i for i, b in enumerate((WHITE, *REDS, *COLOURS))})
CHOICE_AFTER_FOUL = ("play", "pass")


def kind(ball: str) -> str:
    """``red:4`` -> ``red``; rules look at the kind only (architecture.md)."""
    return ball.split(":", 1)[0]


def value(ball: str) -> int:
    return VALUES.get(kind(ball), 0)


class Reason(StrEnum):
    """Every foul the engine calls (``Foul.reason``); penalties and rules in ``FOULS``."""

    MISSED_ALL = "missed_all"  # the white hits no ball
    IN_OFF = "in_off"  # the white is potted
    SNOOKERED_BY_FREE_BALL = "snookered_by_free_ball"
    WRONG_BALL_FIRST = "wrong_ball_first"  # the white first hits a ball not on
    POT_NOT_ON = "pot_not_on"  # a ball not on is potted
    POT_NOT_NOMINATED = "pot_not_nominated"  # a colour other than the nominated one is potted
    PUSH_STROKE = "push_stroke"  # the touching ball is moved
    OFF_TABLE = "off_table"  # a ball is forced off the table
    TWO_BALLS_AT_ONCE = "two_balls_at_once"  # first contact with two balls at once (not two reds / free+on)
    PLAYED_AT_RED = "played_at_red"  # a red hit first when a colour is on (reds in successive strokes)
    NO_NOMINATION = "foul_before_nomination"  # a foul after a red, with no colour nominated
    WRONG_CUE_BALL = "wrong_cue_ball"  # a ball other than the white struck


class Penalty(Enum):
    BALL_ON = "the value of the ball on"
    BALL_ON_OR_CONCERNED = "the value of the ball on or of the ball(s) concerned"
    SEVEN = "7 points"


@dataclass(frozen=True)
class FoulRule:
    penalty: Penalty
    rule: str
    says: str


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.MISSED_ALL: FoulRule(Penalty.BALL_ON, "seed 004 sec 23.1(6)", "the white hit no ball"),
        Reason.IN_OFF: FoulRule(Penalty.BALL_ON, "seed 004 sec 23.1(7)", "the white was potted"),
        Reason.SNOOKERED_BY_FREE_BALL: FoulRule(
            Penalty.BALL_ON,
            "seed 004 sec 21, 23.1(8); WPBSA 3.12",
            "the white was left snookered by the free ball",
        ),
        Reason.WRONG_BALL_FIRST: FoulRule(
            Penalty.BALL_ON_OR_CONCERNED, "seed 004 sec 9.2, 23.2(2)", "the white first hit a ball not on"
        ),
        Reason.POT_NOT_ON: FoulRule(
            Penalty.BALL_ON_OR_CONCERNED, "seed 004 sec 9.7, 9.8, 23.2(1)", "a ball not on was potted"
        ),
        Reason.POT_NOT_NOMINATED: FoulRule(
            Penalty.BALL_ON_OR_CONCERNED,
            "seed 004 sec 9.6, 9.8, 23.2(1)",
            "a colour other than the nominated one was potted",
        ),
        Reason.PUSH_STROKE: FoulRule(
            Penalty.BALL_ON_OR_CONCERNED,
            "seed 004 sec 18, 19, 23.2(3); WPBSA 3.8",
            "the touching ball was moved",
        ),
        Reason.OFF_TABLE: FoulRule(
            Penalty.BALL_ON_OR_CONCERNED, "seed 004 sec 11, 13, 23.2(6)", "a ball was forced off the table"
        ),
        Reason.TWO_BALLS_AT_ONCE: FoulRule(
            Penalty.BALL_ON_OR_CONCERNED, "seed 004 sec 23.3; WPBSA 3.6", "the white hit two balls at once"
        ),
        Reason.PLAYED_AT_RED: FoulRule(
            Penalty.SEVEN, "seed 004 sec 23.4(3)", "a red was played when a colour was on"
        ),
        Reason.NO_NOMINATION: FoulRule(
            Penalty.SEVEN, "seed 004 sec 9.6, 23.4(1)", "a foul after a red before a colour was nominated"
        ),
        Reason.WRONG_CUE_BALL: FoulRule(
            Penalty.SEVEN, "seed 004 sec 23.4(4)", "a ball other than the white was used as the cue ball"
        ),
    }
)
# The fouls in which the white fails to hit a ball on first: the ones a miss is judged on (WPBSA 3.14).
FAILED_TO_HIT: frozenset[Reason] = frozenset(
    {Reason.MISSED_ALL, Reason.WRONG_BALL_FIRST, Reason.PLAYED_AT_RED}
)

RULE_POT = "seed 004 sec 7"
RULE_FREE_BALL = "seed 004 sec 21; WPBSA 3.12"
RULE_MISS = "seed 004 sec 20; WPBSA 3.14"
RULE_RESPOT = "seed 004 sec 12; WPBSA 3.7"
RULE_TOUCHING = "seed 004 sec 18; WPBSA 3.8"
RULE_CHOICE = "seed 004 sec 22.1; WPBSA 3.13"
RULE_END = "seed 004 sec 7; WPBSA 3.4"


# --- state -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """The balls as they stand before the next stroke, and what that stroke must do."""

    balls: frozenset[str]  # object balls on the table
    positions: Mapping[str, XY]  # known centres (last shot_end and re-spots); empty for a fresh rack
    on: str  # "red", "colour" or the colour on
    in_hand: bool  # the white is played from the D
    opening: bool = False  # the frame's opening stroke
    free_ball: bool = False  # the striker may nominate a free ball
    touching: tuple[str, ...] = ()  # balls the white rests against
    respotted_black: bool = False


def fresh_rack() -> Table:
    """The start of a frame or a re-break: every ball on, reds on, the white in hand (seed 004 sec 3)."""
    return Table(balls=OBJECT_BALLS, positions=FrozenMap(), on=RED, in_hand=True, opening=True)


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


def _other(state: State, player: str) -> str:
    return state.players[1] if player == state.players[0] else state.players[0]


# --- start -----------------------------------------------------------------------------------------------

OPTIONS = ("frames", "first")


def start(match: Match) -> State:
    if len(match.players) != 2:
        raise ValueError(
            f"snooker is played by two players (got {len(match.players)}: {', '.join(match.players)})"
        )
    unknown = sorted(set(match.options) - set(OPTIONS))
    if unknown:
        raise ValueError(f"unknown option(s) {', '.join(unknown)}; snooker takes: frames (best of N), first")
    best_of = match.options.get("frames", 1)
    if not isinstance(best_of, int) or isinstance(best_of, bool) or best_of < 1 or best_of % 2 == 0:
        raise ValueError(
            f"options.frames must be an odd integer >= 1, the best of N frames (got {best_of!r})"
        )
    first = match.options.get("first", match.players[0])
    if first not in match.players:
        raise ValueError(
            f"options.first must be one of the players {', '.join(match.players)} (got {first!r})"
        )
    players = (match.players[0], match.players[1])
    zero = FrozenMap(dict.fromkeys(players, 0))
    return State(
        players=players,
        best_of=best_of,
        score=zero,
        frames=zero,
        frame_no=1,
        breaker=first,
        striker=first,
        table=fresh_rack(),
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

    The ball on follows from the table (seed 004 sec 9.1, 9.11): a red while reds remain, else the lowest
    colour left. ``on="colour"`` starts instead on the colour after a red (the striker has just potted one;
    with no red left, the last one), to be nominated with ``declare``. ``in_hand``: the white is played from
    the D (its place in ``positions``, if any, is not used for the rules). ``opening``: the frame's opening
    stroke, which needs the full rack and the white in hand. Balls the white rests against are touching
    balls, as after a ``shot_end``. Raises ``ValueError`` for a position the rules cannot reach."""
    state = start(match)
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
    reds = any(kind(b) == RED for b in balls)
    derived = RED if reds else _lowest_colour(balls)
    if on is None:
        on = derived
    if on != derived and not (on == COLOUR and _lowest_colour(balls) is not None):
        raise ValueError(
            f"on {on!r} cannot follow from this table: the ball on is {derived!r} (sec 9.1, 9.11), or "
            "'colour' after a red when a colour is on the table"
        )
    if opening and (balls != OBJECT_BALLS or not in_hand or on != RED):
        raise ValueError("an opening stroke needs every ball on the table, the white in hand and a red on")
    if striker is None:
        striker = state.striker
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
    table = Table(
        balls=balls,
        positions=FrozenMap(xy),
        on=on,
        in_hand=in_hand,
        opening=opening,
        touching=tuple(
            b for b in _ordered(balls) if white is not None and geometry.touching(white, xy[b], RADIUS)
        ),
    )
    return replace(state, score=FrozenMap(points), striker=striker, table=table)


# --- step ------------------------------------------------------------------------------------------------


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    if state.over:
        raise RuleError(f"the match is over ({state.winner} won); no {event.TYPE} line is taken after it")
    if isinstance(event, Declare):
        return _on_declare(state, event), ()
    if isinstance(event, Choice):
        return _on_choice(state, event), ()
    if isinstance(event, Concede):
        return _on_concede(state, event)
    if isinstance(event, PinDown):
        raise RuleError("snooker has no pins; a pin_down line belongs to five-pins")
    if isinstance(event, ShotStart | ShotEnd | BallBall | Cushion | Pot | OffTable):
        _check_ids(state, event)
        if isinstance(event, ShotStart) and state.awaiting is not None:
            raise RuleError(_awaiting_message(state))
        pending, shot = collect(state.pending, event)
        state = replace(state, pending=pending)
        if shot is None:
            return state, ()
        return _on_shot(state, shot)
    raise RuleError(
        "snooker takes shot_start, ball_ball, cushion, pocket, off_table and shot_end lines, and declare, "
        f"choice and concede; not a {event.TYPE!r} line"
    )


def _awaiting_message(state: State) -> str:
    aw = state.awaiting
    assert aw is not None  # only called while a choice is awaited
    who = aw.chooser if aw.chooser is not None else "the winner of the lot (either player)"
    return f"a choice is awaited first: {who} chooses {' or '.join(aw.options)}"


def _check_ball(state: State, ball: str, where: str) -> None:
    if ball not in BALL_IDS:
        raise RuleError(
            f"{where} {ball!r} is not a snooker ball; ids are white, red:1..red:15, {', '.join(COLOURS)}"
        )
    if ball != WHITE and ball not in state.table.balls:
        raise RuleError(f"{where} {ball!r} is not on the table (potted or off the table before)")


def _check_ids(state: State, event: JsonLine) -> None:
    if isinstance(event, ShotStart):
        _check_ball(state, event.ball, "shot_start.ball")
    elif isinstance(event, BallBall):
        for b in event.balls:
            _check_ball(state, b, "ball_ball.balls")
    elif isinstance(event, Cushion | Pot | OffTable):
        _check_ball(state, event.ball, f"{event.TYPE}.ball")


def _between_shots(state: State, what: str) -> None:
    if state.pending.start is not None:
        raise RuleError(
            f"{what} comes between shots, not during one (the shot from t={state.pending.start.t} goes on)"
        )


# --- declare, choice, concede ----------------------------------------------------------------------------


def _on_declare(state: State, d: Declare) -> State:
    _between_shots(state, "a declare")
    if state.awaiting is not None:
        raise RuleError(_awaiting_message(state))
    if d.player != state.striker:
        raise RuleError(
            f"{d.player} declared, but {state.striker} is the striker; only the striker nominates"
        )
    table = state.table
    if d.ball not in BALL_IDS or d.ball == WHITE:
        raise RuleError(
            f"declare.ball {d.ball!r} is not an object ball; nominate a colour ({', '.join(COLOURS)})"
        )
    if d.free_ball:
        if not table.free_ball:
            raise RuleError(
                "no free ball: one is nominated only after a foul that leaves the incoming player "
                "snookered, when that player chose to play"
            )
        if d.ball not in table.balls:
            raise RuleError(f"the free ball {d.ball} is not on the table")
        if d.ball == table.on or kind(d.ball) == table.on:
            raise RuleError(f"the free ball must be a ball other than the ball on ({table.on}) (WPBSA 2.13)")
        return replace(state, nomination=d)
    if table.on != COLOUR:
        raise RuleError(
            f"a colour is nominated only when a colour is on after a red (the ball on is {table.on}); "
            "after a foul that calls a free ball, declare with free_ball true"
        )
    if d.ball not in COLOURS:
        raise RuleError(f"a colour is on: nominate one of {', '.join(COLOURS)} (got {d.ball!r})")
    return replace(state, nomination=d)


def _on_choice(state: State, c: Choice) -> State:
    _between_shots(state, "a choice")
    aw = state.awaiting
    if aw is None:
        raise RuleError("no choice is awaited: a choice follows a foul, or the lot for a re-spotted black")
    if aw.chooser is not None and c.player != aw.chooser:
        raise RuleError(f"{c.player} cannot choose: the choice is {aw.chooser}'s ({' or '.join(aw.options)})")
    if c.option not in aw.options:
        raise RuleError(
            f"choice {c.option!r} is not open here; {c.player} may choose {' or '.join(aw.options)}"
        )
    base = replace(state, awaiting=None, nomination=None)
    if aw.kind == "lot":
        return replace(base, striker=c.player if c.option == "play" else _other(state, c.player))
    assert aw.chooser is not None and aw.offender is not None  # a foul's choice names both
    if c.option == "play":
        return replace(base, striker=aw.chooser, table=replace(state.table, free_ball=aw.free_ball), misses=0)
    if c.option == "pass":
        return replace(base, striker=aw.offender, table=replace(state.table, free_ball=False), misses=0)
    if c.option == "replace":
        assert state.replay is not None  # a miss is only called on a stroke with a table before it
        return replace(base, striker=aw.offender, table=state.replay, replayed=True)
    return replace(base, striker=aw.offender, table=fresh_rack(), misses=0, replay=None)  # rebreak


def _on_concede(state: State, c: Concede) -> tuple[State, tuple[Decision, ...]]:
    _between_shots(state, "a concession")
    winner = _other(state, c.player)
    note = f"{c.player} concedes frame {state.frame_no} ({RULE_END})"
    after, next_player, on, notes = _end_frame(state, winner, state.score, [note])
    decision = Decision(
        shot=state.shot,
        player=c.player,
        score=state.score,
        next=next_player,
        on=on,
        over=after.over,
        winner=after.winner,
        notes=tuple(notes),
    )
    return after, (decision,)


def _end_frame(
    state: State, frame_winner: str, score: Mapping[str, int], notes: list[str]
) -> tuple[State, str | None, str | None, list[str]]:
    """The frame goes to ``frame_winner``: the match state after it, who plays next, the ball on, notes."""
    loser = _other(state, frame_winner)
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
    breaker = _other(state, state.breaker)
    notes.append(f"frame {state.frame_no + 1}: {breaker} breaks from the D (seed 004 sec 8)")
    after = replace(
        base,
        score=FrozenMap(dict.fromkeys(state.players, 0)),
        frame_no=state.frame_no + 1,
        breaker=breaker,
        striker=breaker,
        table=fresh_rack(),
    )
    return after, breaker, RED, notes


# --- the shot --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Found:
    reason: Reason
    penalty: int
    detail: str


@dataclass(frozen=True)
class _Stroke:
    """What a stroke did, before the table and turn are worked out."""

    fouls: tuple[_Found, ...]
    points: int
    notes: tuple[str, ...]
    on_balls: frozenset[str]  # the ball(s) that were on (for the snooker and miss checks)
    free: str | None


def _penalty(reason: Reason, on_value: int, concerned: Iterable[int]) -> int:
    rule = FOULS[reason].penalty
    if rule is Penalty.SEVEN:
        return 7
    base = max(MIN_PENALTY, on_value)
    if rule is Penalty.BALL_ON_OR_CONCERNED:
        base = max(base, *concerned, 0)
    return base


def _moved(ball: str, table: Table, shot: Shot, gone: set[str]) -> bool:
    """Whether the ball the white rested against was moved by the stroke itself (a push, WPBSA 3.8)."""
    if ball in shot.first_contacts(WHITE):
        return True
    if any(ball in e.balls for e in shot.contacts()):
        return False  # something ran into it during the shot
    if ball in gone:
        return True
    before, after = table.positions.get(ball), shot.positions.get(ball)
    return before is not None and after is not None and geometry.distance(before, after) > PUSH_TOLERANCE_MM


def _judge(state: State, shot: Shot, potted: tuple[str, ...], off: tuple[str, ...]) -> _Stroke:
    table = state.table
    on = table.on
    nom = state.nomination
    free = nom.ball if nom is not None and nom.free_ball else None
    named = nom.ball if nom is not None and not nom.free_ball else None
    reds = frozenset(b for b in table.balls if kind(b) == RED)
    gone = set(potted) | set(off)
    cue = shot.striker_ball
    first = shot.first_contacts(WHITE) if cue == WHITE else ()
    pushed = tuple(b for b in table.touching if cue == WHITE and _moved(b, table, shot, gone))
    notes: list[str] = []

    # A colour on after a red with no declaration: deem the obvious one on a fair stroke.
    deemed = None
    if on == COLOUR and named is None:
        resting = [b for b in table.touching if b in COLOURS and b not in pushed]
        if len(first) == 1 and first[0] in COLOURS:
            deemed = first[0]
        elif not first and resting:
            deemed = resting[0]

    partners: frozenset[str] = frozenset()
    if free is not None:
        targets = frozenset({free})
        partners = reds if on == RED else frozenset({on})
        on_value = 1 if on == RED else VALUES[on]
    elif on == RED:
        targets, on_value = reds, 1
    elif on == COLOUR:
        choice = named or deemed
        targets = frozenset({choice}) if choice else frozenset(c for c in COLOURS if c in table.balls)
        on_value = VALUES[named] if named else 7  # undeclared: any foul is the 7-point one
    else:
        targets, on_value = frozenset({on}), VALUES[on]

    def worth(ball: str) -> int:
        return on_value if ball == free else value(ball)

    found: list[_Found] = []

    def foul(reason: Reason, concerned: Iterable[str] = (), detail: str = "") -> None:
        balls = tuple(concerned)
        found.append(_Found(reason, _penalty(reason, on_value, (worth(b) for b in balls)), detail))

    if cue != WHITE:
        foul(Reason.WRONG_CUE_BALL, (), f"{cue} was struck")
    else:
        for b in pushed:
            foul(Reason.PUSH_STROKE, (b,), f"the touching {b} was moved")
        resting_on = [b for b in table.touching if b in targets and b not in pushed]
        if resting_on:
            notes.append(f"touching {resting_on[0]} counts as hit ({RULE_TOUCHING})")
        elif not first:
            foul(Reason.MISSED_ALL, (), "the white hit no ball")
        elif on == COLOUR and free is None and any(kind(b) == RED for b in first):
            foul(Reason.PLAYED_AT_RED, first, f"first hit {', '.join(first)} with a colour on")
        elif len(first) > 1:
            fair = (free is None and on == RED and all(kind(b) == RED for b in first)) or (
                free is not None and free in first and all(b == free or b in partners for b in first)
            )
            if not fair:
                foul(Reason.TWO_BALLS_AT_ONCE, first, f"first hit {' and '.join(first)} at once")
        elif first[0] not in targets:
            want = ", ".join(sorted(targets, key=_ORDER.__getitem__)) if len(targets) <= 2 else on
            foul(Reason.WRONG_BALL_FIRST, first, f"first hit {first[0]}, the ball on was {want}")

    objects = [b for b in potted if b != WHITE]
    if WHITE in potted:
        foul(Reason.IN_OFF, (), "the white was potted")
    allowed = targets | partners
    bad = [b for b in objects if b not in allowed]
    if bad:
        nominated_colour = on == COLOUR and any(b in COLOURS for b in bad)
        reason = Reason.POT_NOT_NOMINATED if nominated_colour else Reason.POT_NOT_ON
        foul(reason, bad, f"potted {', '.join(bad)}")
    for b in off:
        foul(Reason.OFF_TABLE, () if b == WHITE else (b,), f"{b} left the table")
    if found and on == COLOUR and nom is None:
        found.insert(0, _Found(Reason.NO_NOMINATION, 7, "no colour was nominated"))

    points = 0
    if not found:
        if on == COLOUR and deemed is not None:
            notes.append(f"nomination deemed: {deemed} (no declare)")
        if on == RED:
            points = len(objects)
            for b in objects:
                what = f"free ball {b} as a red" if b == free else b
                notes.append(f"pot: {what}, 1 point ({RULE_POT})")
        elif on == COLOUR:
            if objects:
                points = VALUES[objects[0]]
                notes.append(f"pot: {objects[0]}, {points} points ({RULE_POT}, sec 9.6)")
        elif on in objects:
            points = VALUES[on]
            notes.append(f"pot: {on}, {points} points ({RULE_POT}, sec 9.11)")
            if free in objects:
                notes.append(f"free ball {free} potted too: only the ball on scores ({RULE_FREE_BALL})")
        elif free is not None and free in objects:
            points = VALUES[on]
            notes.append(f"pot: free ball {free} as the {on}, {points} points ({RULE_FREE_BALL})")
    on_balls = targets if free is None else frozenset({free})
    return _Stroke(tuple(found), points, tuple(notes), on_balls, free)


def _lowest_colour(balls: Iterable[str]) -> str | None:
    present = set(balls)
    return next((c for c in COLOURS if c in present), None)


def _remaining(on: str, balls: frozenset[str], respotted_black: bool) -> int:
    """The most points still to be scored on the table (for "needs snookers", WPBSA 3.14(a))."""
    if respotted_black:
        return 7
    reds = sum(1 for b in balls if kind(b) == RED)
    extra = 7 if on == COLOUR else 0  # the colour after the red just potted
    if reds:
        return extra + 8 * reds + COLOURS_TOTAL
    if on == COLOUR:
        return extra + COLOURS_TOTAL
    return sum(VALUES[c] for c in COLOURS if c in balls)


def _needs_snookers(score: Mapping[str, int], remaining: int) -> bool:
    lo, hi = sorted(score.values())
    return hi - lo >= remaining and hi != lo


def _balls_on(table: Table, on: str) -> list[str]:
    if on == RED:
        return sorted((b for b in table.balls if kind(b) == RED), key=_ORDER.__getitem__)
    if on == COLOUR:
        return [c for c in COLOURS if c in table.balls]
    return [on] if on in table.balls else []


def _views(table: Table, on_balls: Iterable[str]) -> tuple[list[XY], list[XY], XY | None] | None:
    """The known centres of the balls on, of the other object balls, and of the white (None: in hand);
    None when the white's place is unknown or no ball on has a known place."""
    on_set = set(on_balls)
    pos = table.positions
    targets = [pos[b] for b in on_set if b in pos]
    others = [xy for b, xy in pos.items() if b != WHITE and b not in on_set and b in table.balls]
    if not targets:
        return None
    if table.in_hand:
        return targets, others, None
    if WHITE not in pos:
        return None
    return targets, others, pos[WHITE]


def _snookered(table: Table, on_balls: Iterable[str]) -> bool:
    view = _views(table, on_balls)
    if view is None:
        return False
    targets, others, white = view
    if white is None:
        return geometry.snookered_in_hand(targets, others, TABLE)
    return geometry.snookered(white, targets, others, RADIUS)


def _clear_paths(table: Table, on_balls: Iterable[str]) -> tuple[bool, bool] | None:
    """(a straight path to some part of some ball on, a full-ball path to one), or None when not known."""
    view = _views(table, on_balls)
    if view is None:
        return None
    targets, others, white = view
    if white is None:
        return (
            geometry.any_part_clear_in_hand(targets, others, TABLE),
            geometry.full_ball_clear_in_hand(targets, others, TABLE),
        )
    return (
        any(geometry.any_part_clear(white, t, others, RADIUS) for t in targets),
        any(geometry.full_ball_clear(white, t, others, RADIUS) for t in targets),
    )


def _check_positions(table: Table, shot: Shot, gone: set[str]) -> None:
    for ball in shot.positions:
        if ball not in BALL_IDS:
            raise RuleError(f"shot_end.positions names {ball!r}, not a snooker ball")
        if ball in gone:
            raise RuleError(f"shot_end.positions lists {ball}, which left the table during this shot")
        if ball != WHITE and ball not in table.balls:
            raise RuleError(f"shot_end.positions lists {ball}, which is not on the table")


def _respot_place(ball: str, xy: XY) -> str:
    if xy == TABLE.spots[ball]:
        return "on its own spot"
    spot = next((s for s in geometry.SPOT_PRECEDENCE if TABLE.spots[s] == xy), None)
    if spot is not None:
        return f"on the {spot} spot (its own is occupied)"
    side = "above" if xy[1] > TABLE.spots[ball][1] else "below"
    return f"as near its spot as possible, {side} it (every spot is occupied)"


def _ordered(balls: Iterable[str]) -> list[str]:
    return sorted(set(balls), key=_ORDER.__getitem__)


def _snookered_by_free_ball(table: Table, free: str, left: Table) -> _Found | None:
    """WPBSA 3.12: after a fair stroke that scored nothing, the white must not be left snookered on every ball
    on by the free ball (the snooker must not vanish without it), unless only pink and black remain."""
    if left.balls == {"pink", "black"} or free not in left.balls:
        return None
    on_balls = _balls_on(left, table.on)
    without = replace(
        left,
        balls=left.balls - {free},
        positions=FrozenMap({b: xy for b, xy in left.positions.items() if b != free}),
    )
    if not _snookered(left, on_balls) or _snookered(without, on_balls):
        return None
    reason = Reason.SNOOKERED_BY_FREE_BALL
    on_value = 1 if table.on == RED else VALUES[table.on]
    return _Found(reason, _penalty(reason, on_value, ()), f"the free ball {free} snookers every ball on")


def _to_respot(table: Table, gone: set[str], foul: bool, free: str | None) -> list[str]:
    """Colours that go back (seed 004 sec 9.10, 10, 11): all of them while reds are (or were just) on, on a
    foul, and a potted free ball; in the colours phase the ball on potted fairly stays down."""
    return [b for b in _ordered(gone) if b in COLOURS and (table.on in (RED, COLOUR) or foul or b == free)]


def _next_on(table: Table, gone: set[str], foul: bool, points: int, balls: frozenset[str]) -> str:
    """The ball on for the next stroke (seed 004 sec 9.3, 9.6, 9.11)."""
    reds = any(kind(b) == RED for b in balls)
    lowest = _lowest_colour(balls) or "black"
    if foul:
        return RED if reds else lowest
    if table.on == RED:
        return COLOUR if points else (RED if reds else lowest)
    if table.on == COLOUR:
        return RED if reds else lowest
    return lowest if table.on in gone and points else table.on


def _touching_notes(table: Table) -> list[str]:
    on_now = set(_balls_on(table, table.on))
    notes = []
    for b in table.touching:
        if b in on_now:
            notes.append(f"touching ball: {b}; play away from it, it counts as hit ({RULE_TOUCHING})")
        else:
            notes.append(f"the white touches {b}, not on: play away and hit a ball on ({RULE_TOUCHING})")
    return notes


def _miss_count(
    state: State, stroke: _Stroke, found: Iterable[_Found], score: Mapping[str, int], left: Table
) -> int:
    """0 when the foul is not a miss, else how many misses in a row from the same position (WPBSA 3.14)."""
    table = state.table
    if table.opening or table.respotted_black or table.on == "black":
        return 0
    if not any(f.reason in FAILED_TO_HIT for f in found):
        return 0
    could_be_on = _balls_on(table, COLOUR) if table.on == COLOUR and stroke.free is None else stroke.on_balls
    paths = _clear_paths(table, could_be_on)
    if paths is None:
        return 0
    any_part, full = paths
    if state.replayed and state.misses >= 1 and full:
        return state.misses + 1  # from the replaced position with a full ball in view: whatever the score
    needs = _needs_snookers(state.score, _remaining(table.on, table.balls, False)) or _needs_snookers(
        score, _remaining(left.on, left.balls, False)
    )
    return 1 if any_part and not needs else 0


def _on_shot(state: State, shot: Shot) -> tuple[State, tuple[Decision, ...]]:
    table = state.table
    striker = state.striker
    assert striker is not None  # no shot starts while a lot is awaited
    opponent = _other(state, striker)
    potted = tuple(dict.fromkeys(shot.potted()))
    off = tuple(dict.fromkeys(shot.off_table()))
    gone = set(potted) | set(off)
    _check_positions(table, shot, gone)
    stroke = _judge(state, shot, potted, off)
    found = list(stroke.fouls)
    balls = frozenset(table.balls - gone)
    positions: dict[str, XY] = {b: xy for b, xy in shot.positions.items() if b == WHITE or b in balls}
    in_hand = WHITE in gone
    if stroke.free is not None and not found and stroke.points == 0:
        snooker = _snookered_by_free_ball(
            table, stroke.free, Table(balls, FrozenMap(positions), table.on, in_hand)
        )
        if snooker is not None:
            found.append(snooker)

    # The score: the highest foul of the stroke (the first of them on a tie, seed 004 sec 22.2) or the pots.
    chosen = max(found, key=lambda f: f.penalty) if found else None
    score = dict(state.score)
    notes: list[str] = []
    if chosen is not None:
        score[opponent] += chosen.penalty
        points = {opponent: chosen.penalty}
        notes.append(f"foul: {chosen.detail}")
        notes.extend(f"also: {f.reason.value} ({f.detail})" for f in found if f is not chosen)
    else:
        score[striker] += stroke.points
        points = {striker: stroke.points} if stroke.points else {}
    notes.extend(stroke.notes)

    # The table after it: re-spots, the ball on, what the white rests against.
    last_black = table.respotted_black or table.on == "black"
    frame_over = last_black and (chosen is not None or stroke.points > 0)
    respots = (
        {}
        if frame_over
        else geometry.respot_positions(
            _to_respot(table, gone, chosen is not None, stroke.free), positions, TABLE
        )
    )
    positions.update(respots)
    balls = balls | frozenset(respots)
    notes.extend(f"{b} re-spotted {_respot_place(b, xy)} ({RULE_RESPOT})" for b, xy in respots.items())
    white = positions.get(WHITE)
    left = Table(
        balls=balls,
        positions=FrozenMap(positions),
        on=_next_on(table, gone, chosen is not None, stroke.points, balls),
        in_hand=in_hand,
        touching=tuple(
            b
            for b in _ordered(positions)
            if b != WHITE and white and geometry.touching(white, positions[b], RADIUS)
        ),
        respotted_black=table.respotted_black,
    )
    misses = _miss_count(state, stroke, found, score, left) if chosen is not None else 0
    if misses:
        notes.append(f"foul and a miss ({RULE_MISS})")
    if misses == 2:
        notes.append(
            f"warning: a third failure from this position awards the frame to {opponent} ({RULE_MISS})"
        )

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
    respot_out = tuple(Respot(b, xy) for b, xy in respots.items())
    awaiting: tuple[str, ...] = ()
    on_out: str | None = left.on
    if misses >= 3:
        notes.append(f"third miss from the same position: frame awarded to {opponent} ({RULE_MISS})")
        after, next_out, on_out, notes = _end_frame(after, opponent, score, notes)
        respot_out = ()
    elif frame_over and score[striker] == score[opponent] and not table.respotted_black:
        black = TABLE.spots["black"]
        respotted = Table(
            frozenset({"black"}), FrozenMap({"black": black}), "black", True, respotted_black=True
        )
        after = replace(after, striker=None, table=respotted, awaiting=Awaiting("lot", CHOICE_AFTER_FOUL))
        respot_out, on_out, awaiting, next_out = (Respot("black", black),), "black", ("choice",), None
        notes.append(
            f"scores level at {score[striker]}: the black is re-spotted; lots are drawn and the winner's "
            f"choice (play or pass) says who plays it from the D ({RULE_END})"
        )
    elif frame_over:
        winner = max(state.players, key=lambda p: score[p])
        after, next_out, on_out, notes = _end_frame(after, winner, score, notes)
    elif chosen is not None:
        options = [
            *CHOICE_AFTER_FOUL,
            *(["replace"] if misses else []),
            *(["rebreak"] if table.opening else []),
        ]
        if in_hand:
            notes.append("white in hand: the next stroke is played from the D (seed 004 sec 13)")
        notes.extend(_touching_notes(left))
        if table.opening:
            notes.append(
                f"foul on the opening stroke: {opponent} may have {striker} break again (seed 004 sec 8)"
            )
        free_ball = _snookered(left, _balls_on(left, left.on))
        if free_ball:
            notes.append(
                f"free ball: {opponent} is snookered; if {opponent} plays, any other ball may be nominated "
                f"({RULE_FREE_BALL})"
            )
        notes.append(f"{opponent} chooses: {', '.join(options)} ({RULE_CHOICE})")
        aw = Awaiting("foul", tuple(options), chooser=opponent, offender=striker, free_ball=free_ball)
        after = replace(after, striker=opponent, awaiting=aw)
        awaiting, next_out = ("choice",), opponent
    else:
        next_out = striker if stroke.points else opponent
        after = replace(after, striker=next_out)
        notes.extend(_touching_notes(left))
        if not stroke.points:
            notes.append(f"no score: {next_out} to play (seed 004 sec 9.1)")
        if left.on == COLOUR:
            notes.append("a colour is on: nominate it with declare (seed 004 sec 9.6)")

    foul_out = (
        None if chosen is None else Foul(chosen.reason.value, chosen.penalty, FOULS[chosen.reason].rule)
    )
    decision = Decision(
        shot=after.shot,
        player=striker,
        foul=foul_out,
        points=FrozenMap(points),
        score=FrozenMap(score),
        next=next_out,
        on=on_out,
        over=after.over,
        winner=after.winner,
        awaiting=awaiting,
        respot=respot_out,
        notes=tuple(notes),
    )
    return after, (decision,)


ENGINE = Engine(game=GAME, start=start, step=step)
