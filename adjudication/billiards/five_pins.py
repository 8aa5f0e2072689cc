"""Five-pins (cinque birilli): the international rules of seed 000 (the Russian text of the UMB World Rules of
5-pin billiard), sections 1-16; rules-notes section 4 (UMB / FIBiS) where the text is silent.

Two players, one ball each: the first player of the header plays ``white`` and the second ``yellow`` for the
whole game (sec 4.4), plus the ``red``. The five pins ``pin:c`` (centre), ``pin:n``, ``pin:s``, ``pin:e`` and
``pin:w`` stand on the cross in the middle of the table (``arbiter.games.billiards("five-pins").table``).
Players strike in turn, one shot each (sec 2): ``next`` is always the other player, and ``on`` is the ball
that player must hit first (their opponent's ball).

Inputs, one decision per shot at its ``shot_end``:

- ``shot_start`` (``ball``: the ball struck), ``ball_ball`` (``balls[0]`` the mover), ``cushion``,
  ``pin_down`` (``by``: the ball that knocked it, or a pin already down in this shot that knocked it:
  sec 12.3 counts it, and it is charged to the ball that knocked that pin), ``off_table``, ``shot_end``
  (every ball on the table; pins are not in it). A ball that left the table may be in the positions (it came
  back after touching the frame, sec 11.1); any other ball must be.
- ``concede`` between shots: the other player wins at once (sec 9). The decision has no points and
  ``shot`` is the number of shots played so far.

Options (``match.options``):

- ``target`` (int >= 1, default 60): points that win the game. Sec 2 leaves the number to the competition's
  regulations; 60 is the UMB/FIBiS professional game (rules-notes 4: "usually 50 or 60 (pro)"). Points
  beyond it on the last shot are cut: the winner's score is the target (sec 2), and ``points`` holds what
  was credited, with a note giving what the shot was worth.
- ``first`` (a player name, default the first player): who breaks (the lag of sec 3 is not refereed).
- ``contact_mm`` (number >= 0, default 3.0): how far apart two balls, or a ball and a cushion, may lie at
  ``shot_end`` and still count as in contact (sec 10). Larger catches more real contacts through tracking
  error and flags more near-misses; 3 mm is about the position error of the tracker at rest.
- ``source`` is read and ignored: the synthetic world writes it into its headers as metadata.

Scoring (sec 5, 6, 8). A shot is legal when the striker's ball hits the opponent's ball before any other
ball (directly or off cushions) and none of the fouls below happens. It then scores:

- pins, whoever knocked them (the opponent's ball or the red; a pin knocked by another pin counts, sec 12.3):
  each side pin 2; the centre pin 4 when it falls with a side pin, 8 when it falls alone, whether the
  cross is whole or not (sec 8.1). The whole cross is 12.
- the first carom only (sec 8.2): the striker's ball hitting the red after the opponent's ball, 4 ("carom");
  or the opponent's ball hitting the red, 3 ("ricochet"). When both happen at the same instant (sec 5.7)
  the carom (4) is counted.

Fouls (sec 7, 13, 15). Every foul gives all the shot's points (pins and carom, as above, whoever knocked
the pins) to the opponent, plus the foul's own points; several fouls in one shot add up (sec 15.1). Each
foul but ``own_ball_pins`` also gives the opponent ball in hand (sec 13.1). The decision's ``foul`` names
the first foul of the table below that happened; its ``penalty`` is everything the opponent gets for the
shot (before the target cap), its ``rule`` lists the section of every foul; ``notes`` itemise them.

====================  ======  =================  =============================================================
reason                points  seed 000           what the events show
====================  ======  =================  =============================================================
wrong_ball            2       15.3(a), 7.4       ``shot_start.ball`` is not the striker's ball
red_first             4       15.3(b), 7.2       the striker's ball hits the red first (2 miss + 2 "carom")
missed_opponent_ball  2       15.3(g), 7.1       the striker's ball hits no ball
pins_first            2       15.3(v)            the striker's ball knocks pins, then hits the opponent's ball
played_into_contact   2       15.3(l), 10        it was touching the opponent's ball (or a cushion) and its
                                                 first contact is that ball (that cushion): no cushion first
ball_off_table        2       15.3(d), 11.2      any ball leaves the table; 2 however many do
own_ball_pins         0       15.2, 7.3          after a legal contact the striker's ball knocks pins:
                                                 the pins and carom go to the opponent, no ball in hand
====================  ======  =================  =============================================================

(The Cyrillic item letters of sec 15.3 are written in Latin: а a, б b, в v, г g, д d, е e, ж zh, з z, и i,
к k, л l, м m, н n, о o, п p, р r.) A shot whose first ball contact is the red is only ``red_first``, and one
that hits no ball only ``missed_opponent_ball``, whatever pins the striker's ball knocks (they still count
for the opponent). A wrong-ball shot is judged for pins and off-table balls only; its carom is counted with
the struck ball in the striker's place when it is a player's ball.

After a shot that does not end the game (sec 10-13), the decision says what the camera cannot infer:

- ball in hand (``notes``): the next striker places their ball in the half opposite the offender's ball
  (on the middle line: the bottom half, sec 13.4), or may ask for the offender's ball on the top spot
  (sec 13.5).
- balls that left the table (``respot``, sec 11.3): the striker's ball goes to the spot by the short
  cushion at the end opposite the opponent's ball (the top spot when that ball is off the table too), the
  red to its spot; a spot that a ball occupies passes to the red's spot (striker's ball) or to the top and
  then the bottom spot (red). The opponent's ball is in hand.
- balls in contact (``notes``, sec 10): the next striker's ball touching a ball or a cushion; the next shot
  is checked for ``played_into_contact``.
- pins: every pin stands again for the next shot (sec 12), except one whose spot a ball occupies (a ball
  within a ball radius plus a pin-head radius of it): the referee takes it off (sec 12.7), the note says
  so, and a ``pin_down`` for it in the next shot is refused.

Departures and limits:

- Fouls no camera event shows are not judged: (e) striking before all balls stopped (a ``shot_start`` inside
  a shot is refused), (zh) not with the tip, (z) double hit, (i)/(k)/(p) touching or moving a ball or pin by
  hand, cue, chalk or clothing, (m) feet off the floor or over the line, (n) placing the ball in hand other
  than with the cue (and sec 13.6), (o) a ball jumping over the pins, (r) push shot. Nor are the lag (sec 3),
  the break position (sec 4), the referee's reset of a contact with no legal shot (sec 10.4), player
  position (sec 14), walking out (sec 9: a ``concede`` line stands for it) or force majeure (sec 16).
- ``played_into_contact``: the rule allows a massé that leaves the touching ball still (sec 10.3); from
  events a massé that curls back onto it without a cushion cannot be told from a direct shot, so the
  engine asks for a cushion before the touching ball.
- Sec 7 says a foul gives "miss points" to the offender as well as the same points to the opponent; the
  offender's score is not reduced (sec 15.1 credits the opponent only).
- Sec 15.2 also says "all fouls carry a 2-point penalty plus pins and carom"; read with the sentence before
  it, which exempts own-ball pins from any further penalty, that applies to the other fouls. The pin values
  are the text's (centre alone 8); FIBiS professional play counts 10 (rules-notes 4).
- One game per stream: matches of several games and the alternating break (sec 2, 4.5) are the caller's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from adjudication.billiards.shot import Collecting, Shot, collect
from adjudication.engine import Engine, RuleError
from arbiter.contract import (
    BallBall,
    Concede,
    Cushion,
    Decision,
    Foul,
    FrozenMap,
    JsonLine,
    Match,
    OffTable,
    PinDown,
    ShotEnd,
    ShotStart,
)
from arbiter.contract import Respot as RespotLine
from arbiter.games import billiards

SPEC = billiards("five-pins")
GAME = SPEC.id
RULES = "seed 000 five-pins"
TABLE = SPEC.table

PLAYER_BALLS: tuple[str, str] = ("white", "yellow")  # first player's, second player's (sec 4.4)
RED = "red"
BALLS: tuple[str, ...] = (*PLAYER_BALLS, RED)
CENTRE_PIN = "pin:c"
PINS: tuple[str, ...] = tuple(p.id for p in TABLE.pins)
SIDE_PINS: frozenset[str] = frozenset(PINS) - {CENTRE_PIN}

# Sec 8.1: what the pins are worth.
PIN_POINTS: Mapping[str, int] = MappingProxyType({"side": 2, "centre_with_side": 4, "centre_alone": 8})

DEFAULT_TARGET = 60
DEFAULT_CONTACT_MM = 3.0
IGNORED_OPTIONS: frozenset[str] = frozenset({"source"})
OPTIONS = ("target", "first", "contact_mm")

SPOTS: Mapping[str, tuple[float, float]] = TABLE.spots
MIDDLE_Y = TABLE.length_mm / 2
BALL_R = TABLE.ball_radius_mm
# A ball this close to a pin's spot stands on it (sec 12.6-12.7): ball radius plus pin-head radius.
PIN_COVER_MM: Mapping[str, float] = MappingProxyType(
    {p.id: BALL_R + p.head_diameter_mm / 2 for p in TABLE.pins}
)
PIN_XY: Mapping[str, tuple[float, float]] = MappingProxyType({p.id: p.xy_mm for p in TABLE.pins})

# Sec 11.3: where a ball that left the table goes, first free spot of the list.
RED_SPOTS: tuple[str, ...] = ("red", "top", "bottom")


NOT_IN_SHOT = Collecting()  # the pending shot between shots


class Carom(StrEnum):
    """Sec 8.2: the first carom of a legal contact."""

    CAROM = "carom"  # striker's ball hits the red after the opponent's ball
    RICOCHET = "ricochet"  # the opponent's ball hits the red


CAROM_POINTS: Mapping[Carom, int] = MappingProxyType({Carom.CAROM: 4, Carom.RICOCHET: 3})
CAROM_NAMES: Mapping[Carom, str] = MappingProxyType(
    {Carom.CAROM: "carom on the red", Carom.RICOCHET: "ricochet (opponent's ball on the red)"}
)


class Reason(StrEnum):
    """Fouls the events show, in the order that picks the one a decision names."""

    WRONG_BALL = "wrong_ball"
    RED_FIRST = "red_first"
    MISS = "missed_opponent_ball"
    PINS_FIRST = "pins_first"
    INTO_CONTACT = "played_into_contact"
    OFF_TABLE = "ball_off_table"
    OWN_BALL_PINS = "own_ball_pins"


@dataclass(frozen=True)
class FoulRule:
    points: int  # the foul's own points, on top of the shot's pins and carom
    section: str  # where seed 000 says so
    ball_in_hand: bool  # the opponent plays from hand (sec 13.1)


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.WRONG_BALL: FoulRule(2, "15.3(a)", True),
        Reason.RED_FIRST: FoulRule(4, "15.3(b)", True),
        Reason.MISS: FoulRule(2, "15.3(g)", True),
        Reason.PINS_FIRST: FoulRule(2, "15.3(v)", True),
        Reason.INTO_CONTACT: FoulRule(2, "15.3(l)", True),
        Reason.OFF_TABLE: FoulRule(2, "15.3(d)", True),
        Reason.OWN_BALL_PINS: FoulRule(0, "15.2", False),
    }
)


@dataclass(frozen=True)
class State:
    """The game between shots (and the shot in progress in ``pending``)."""

    players: tuple[str, str]
    target: int
    contact_mm: float
    score: FrozenMap[str, int]
    turn: str  # who strikes next
    shots: int = 0  # shots decided so far
    pending: Collecting = NOT_IN_SHOT
    standing: frozenset[str] = frozenset(PINS)  # pins up for the next shot (sec 12.7 may take some off)
    touching: tuple[str, ...] = ()  # balls and "cushion:<side>" the next striker's ball touches (sec 10)
    over: bool = False
    winner: str | None = None

    def ball_of(self, player: str) -> str:
        return PLAYER_BALLS[self.players.index(player)]

    def other(self, player: str) -> str:
        return self.players[1 - self.players.index(player)]


# --- start ------------------------------------------------------------------------------------------------


def start(match: Match) -> State:
    if match.game != GAME:
        raise ValueError(f"this engine referees {GAME!r}, not {match.game!r}")
    if len(match.players) != 2:
        raise ValueError(f"five-pins is played by 2 players, one ball each (got {len(match.players)})")
    options = dict(match.options)
    unknown = sorted(set(options) - set(OPTIONS) - IGNORED_OPTIONS)
    if unknown:
        raise ValueError(f"unknown option(s) {', '.join(unknown)}; five-pins takes {', '.join(OPTIONS)}")
    target = options.get("target", DEFAULT_TARGET)
    if not _is_int(target) or target < 1:
        raise ValueError(f"option target must be an integer >= 1, the points that win (got {target!r})")
    first = options.get("first", match.players[0])
    if first not in match.players:
        raise ValueError(
            f"option first must be one of the players {', '.join(match.players)} (got {first!r})"
        )
    contact_mm = options.get("contact_mm", DEFAULT_CONTACT_MM)
    if not _is_number(contact_mm) or contact_mm < 0:
        raise ValueError(f"option contact_mm must be a number of millimetres >= 0 (got {contact_mm!r})")
    players = (match.players[0], match.players[1])
    return State(
        players=players,
        target=target,
        contact_mm=float(contact_mm),
        score=FrozenMap(dict.fromkeys(players, 0)),
        turn=first,
    )


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


# --- step -------------------------------------------------------------------------------------------------

CAMERA_LINES = (ShotStart, BallBall, Cushion, OffTable, PinDown, ShotEnd)
TAKES = "shot_start, ball_ball, cushion, pin_down, off_table, shot_end and concede"


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    if state.over:
        raise RuleError(f"the game is over ({state.winner} won); no {event.TYPE} line is taken after the end")
    if isinstance(event, Concede):
        return _concede(state, event)
    if not isinstance(event, CAMERA_LINES):
        extra = " (a five-pins table has no pockets)" if event.TYPE == "pocket" else ""
        raise RuleError(f"five-pins takes no {event.TYPE} lines{extra}; it reads {TAKES}")
    pending, shot = collect(state.pending, event)  # refuses lines outside a shot and shots inside shots
    _check_line(state, event)
    state = replace(state, pending=pending)
    if shot is None:
        return state, ()
    return _decide(state, shot)


def _concede(state: State, event: Concede) -> tuple[State, tuple[Decision, ...]]:
    if event.player not in state.players:
        raise RuleError(f"concede by {event.player!r}, who is not a player ({', '.join(state.players)})")
    if state.pending.start is not None:
        raise RuleError(f"concede by {event.player} during a shot; a player concedes between shots")
    winner = state.other(event.player)
    state = replace(state, over=True, winner=winner)
    decision = Decision(
        shot=state.shots,
        player=event.player,
        score=state.score,
        next=None,
        over=True,
        winner=winner,
        notes=(f"{event.player} concedes: {winner} wins the game ({RULES} 9.1)",),
    )
    return state, (decision,)


def _ball(what: str, ball: str) -> None:
    if ball not in BALLS:
        raise RuleError(f"{what} {ball!r} is not a five-pins ball; the balls are {', '.join(BALLS)}")


def _check_line(state: State, event: JsonLine) -> None:
    """Ids and pins of one camera line, against the shot so far (``state.pending``, before this line)."""
    if isinstance(event, ShotStart | Cushion | OffTable):
        _ball(f"{event.TYPE}.ball", event.ball)
    elif isinstance(event, BallBall):
        for b in event.balls:
            _ball("ball_ball.balls", b)
    elif isinstance(event, PinDown):
        down = {e.pin for e in state.pending.events if isinstance(e, PinDown)}
        if event.pin not in PINS:
            raise RuleError(f"pin_down.pin {event.pin!r} is not a pin; the pins are {', '.join(PINS)}")
        if event.pin not in state.standing:
            raise RuleError(
                f"pin_down for {event.pin}, which the referee took off before this shot: a ball stands on "
                f"its spot ({RULES} 12.7); standing: {', '.join(sorted(state.standing)) or 'none'}"
            )
        if event.pin in down:
            raise RuleError(f"pin_down for {event.pin} twice in one shot; a pin falls once per shot")
        if event.by in PINS:
            if event.by not in down:
                raise RuleError(
                    f"pin_down.by {event.by} knocked {event.pin} but is not down in this shot; "
                    "by is a ball, or a pin already down in this shot"
                )
        elif event.by not in BALLS:
            raise RuleError(
                f"pin_down.by {event.by!r} is neither a ball ({', '.join(BALLS)}) "
                f"nor a pin ({', '.join(PINS)})"
            )
    elif isinstance(event, ShotEnd):
        for b in event.positions:
            _ball("shot_end.positions key", b)
        gone = {e.ball for e in state.pending.events if isinstance(e, OffTable)}
        missing = [b for b in BALLS if b not in event.positions and b not in gone]
        if missing:
            raise RuleError(
                f"shot_end.positions lacks {', '.join(missing)}, which did not leave the table (no off_table "
                "line); every ball on the table must have a position"
            )


# --- deciding a shot ----------------------------------------------------------------------------------------


def _knockers(shot: Shot) -> dict[str, str]:
    """Each pin down in the shot -> the ball charged with it (through pins knocked by pins, sec 12.3)."""
    by: dict[str, str] = {}
    for e in shot.pins_down():
        by[e.pin] = by[e.by] if e.by in PINS else e.by
    return by


def pin_points(pins: frozenset[str] | set[str]) -> int:
    """Sec 8.1: side pins 2 each, the centre 4 with a side pin or 8 alone."""
    sides = len(pins & SIDE_PINS)
    points = sides * PIN_POINTS["side"]
    if CENTRE_PIN in pins:
        points += PIN_POINTS["centre_with_side"] if sides else PIN_POINTS["centre_alone"]
    return points


def carom(shot: Shot, mover: str, target: str) -> Carom | None:
    """Sec 8.2: the first carom after ``mover`` hits ``target``; at one instant the carom beats the
    ricochet."""
    hit = next((e for e in shot.contacts() if e.balls == (mover, target)), None)
    if hit is None:
        return None
    found: list[tuple[float, Carom]] = []
    for e in shot.contacts():
        if e is hit or e.t < hit.t:
            continue
        pair = set(e.balls)
        if pair == {mover, RED}:
            found.append((e.t, Carom.CAROM))
        elif pair == {target, RED}:
            found.append((e.t, Carom.RICOCHET))
    if not found:
        return None
    t0 = min(t for t, _ in found)
    return Carom.CAROM if (t0, Carom.CAROM) in found else Carom.RICOCHET


def _first_move(shot: Shot, ball: str) -> BallBall | Cushion | None:
    """The first thing ``ball`` ran into: a ball or a cushion."""
    for e in shot.events:
        if (isinstance(e, BallBall) and e.balls[0] == ball) or (isinstance(e, Cushion) and e.ball == ball):
            return e
    return None


def fouls_of(state: State, shot: Shot, striker_ball: str, opponent_ball: str) -> list[Reason]:
    """Every foul of the shot (sec 15), in ``Reason`` order."""
    found: set[Reason] = set()
    if shot.off_table():
        found.add(Reason.OFF_TABLE)
    if shot.striker_ball != striker_ball:
        found.add(Reason.WRONG_BALL)
        return sorted(found, key=list(Reason).index)
    firsts = shot.first_contacts()
    if opponent_ball in firsts:
        events = list(shot.events)
        first_hit = next(
            i for i, e in enumerate(events) if isinstance(e, BallBall) and e.balls[0] == striker_ball
        )
        by = _knockers(shot)
        own = [i for i, e in enumerate(events) if isinstance(e, PinDown) and by[e.pin] == striker_ball]
        if any(i < first_hit for i in own):
            found.add(Reason.PINS_FIRST)
        elif own:
            found.add(Reason.OWN_BALL_PINS)
    elif RED in firsts:
        found.add(Reason.RED_FIRST)
    else:
        found.add(Reason.MISS)
    first = _first_move(shot, striker_ball)
    if (
        isinstance(first, BallBall) and first.balls[1] == opponent_ball and opponent_ball in state.touching
    ) or (isinstance(first, Cushion) and f"cushion:{first.side}" in state.touching):
        found.add(Reason.INTO_CONTACT)
    return sorted(found, key=list(Reason).index)


def _decide(state: State, shot: Shot) -> tuple[State, tuple[Decision, ...]]:
    striker = state.turn
    opponent = state.other(striker)
    own, their = state.ball_of(striker), state.ball_of(opponent)
    number = state.shots + 1

    fouls = fouls_of(state, shot, own, their)
    knocked = _knockers(shot)
    pins = pin_points(set(knocked))
    struck = shot.striker_ball
    if Reason.RED_FIRST in fouls or Reason.MISS in fouls or struck == RED:
        kind = None
    else:
        kind = carom(shot, struck, PLAYER_BALLS[1 - PLAYER_BALLS.index(struck)])
    caroms = CAROM_POINTS[kind] if kind else 0

    notes: list[str] = []
    if fouls:
        worth = sum(FOULS[r].points for r in fouls) + pins + caroms
        to = opponent
        for r in fouls:
            notes.append(f"foul {r.value}: {FOULS[r].points} points ({RULES} {FOULS[r].section})")
        sections = [FOULS[r].section for r in fouls] + (["15.1"] if len(fouls) > 1 else [])
        foul: Foul | None = Foul(fouls[0].value, worth, f"{RULES} {', '.join(sections)}")
    else:
        worth, to, foul = pins + caroms, striker, None
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

    score = dict(state.score)
    credited = min(worth, state.target - score[to])
    if credited < worth:
        notes.append(
            f"the shot is worth {worth}; {to}'s score stops at the target {state.target} ({RULES} 2)"
        )
    score[to] += credited
    over = score[to] >= state.target
    winner = to if over else None
    if over:
        notes.append(f"{to} reaches {state.target}: wins the game ({RULES} 2)")

    in_hand = any(FOULS[r].ball_in_hand for r in fouls)
    positions, respots, after = _after_shot(state, shot, own, their, in_hand)
    standing = frozenset(p for p in PINS if not _covered(p, positions))
    touching = () if in_hand or their not in positions else _touching(their, positions, state.contact_mm)
    if over:  # no next shot: nothing to put back, place or warn about
        respots = ()
    else:
        notes.extend(after)
        notes.extend(
            f"{p} taken off for the next shot: a ball stands on its spot ({RULES} 12.7)"
            for p in PINS
            if p not in standing
        )
        for t in touching:
            what = f"the {t.split(':')[1]} cushion" if t.startswith("cushion:") else t
            notes.append(f"{their} touches {what}: play away from it, not straight into it ({RULES} 10)")

    new = replace(
        state,
        score=FrozenMap(score),
        turn=opponent,
        shots=number,
        standing=standing,
        touching=touching,
        over=over,
        winner=winner,
    )
    decision = Decision(
        shot=number,
        player=striker,
        foul=foul,
        points=FrozenMap({to: credited} if worth else {}),
        score=new.score,
        next=None if over else opponent,
        on=None if over else own,
        over=over,
        winner=winner,
        respot=respots,
        notes=tuple(notes),
    )
    return new, (decision,)


# --- the table after the shot ------------------------------------------------------------------------------

XY = tuple[float, float]


def _dist(a: XY, b: XY) -> float:
    return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5


def _free(spot: str, positions: Mapping[str, XY]) -> bool:
    """Sec 11.3: a spot is occupied or covered when a ball would touch one placed on it."""
    return all(_dist(SPOTS[spot], xy) >= 2 * BALL_R for xy in positions.values())


def _covered(pin: str, positions: Mapping[str, XY]) -> bool:
    return any(_dist(PIN_XY[pin], xy) < PIN_COVER_MM[pin] for xy in positions.values())


def _half(y: float) -> str:
    return "top" if y > MIDDLE_Y else "bottom"


def _after_shot(
    state: State, shot: Shot, own: str, their: str, in_hand: bool
) -> tuple[dict[str, XY], tuple[RespotLine, ...], list[str]]:
    """Where the balls are for the next shot, the balls put back (sec 11.3) and the notes on ball in hand."""
    gone = set(shot.off_table())
    positions = {b: xy for b, xy in shot.positions.items() if b not in gone}
    if not in_hand:
        return positions, (), []
    their_xy = positions.pop(their, None)  # picked up by the referee (sec 13.2)
    respots: list[RespotLine] = []
    if RED in gone:
        spot = next((s for s in RED_SPOTS if _free(s, positions)), RED_SPOTS[0])
        positions[RED] = SPOTS[spot]
        respots.append(RespotLine(RED, SPOTS[spot]))
    if own in gone:
        end = "top" if their_xy is None or _half(their_xy[1]) == "bottom" else "bottom"
        chain = (end, "red", "bottom" if end == "top" else "top")
        spot = next((s for s in chain if _free(s, positions)), end)
        positions[own] = SPOTS[spot]
        respots.append(RespotLine(own, SPOTS[spot]))
    own_y = positions[own][1]
    if abs(own_y - MIDDLE_Y) <= state.contact_mm:
        half, why = "bottom", "13.4"
    else:
        half, why = ("bottom" if _half(own_y) == "top" else "top"), "13.2-13.3"
    notes = [
        f"{their} in hand: placed in the {half} half, no part over the middle line ({RULES} {why}); "
        f"or {own} on the top spot on request ({RULES} 13.5)"
    ]
    return positions, tuple(respots), notes


def _touching(ball: str, positions: Mapping[str, XY], contact_mm: float) -> tuple[str, ...]:
    """Balls and cushions that ``ball`` rests against (sec 10), within ``contact_mm``."""
    x, y = positions[ball]
    out = [
        b
        for b in BALLS
        if b != ball and b in positions and _dist((x, y), positions[b]) <= 2 * BALL_R + contact_mm
    ]
    gaps = {
        "bottom": y - BALL_R,
        "top": TABLE.length_mm - y - BALL_R,
        "left": x - BALL_R,
        "right": TABLE.width_mm - x - BALL_R,
    }
    out += [f"cushion:{side}" for side, gap in gaps.items() if gap <= contact_mm]
    return tuple(out)


ENGINE = Engine(game=GAME, start=start, step=step)
