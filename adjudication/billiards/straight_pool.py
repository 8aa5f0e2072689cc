"""14.1 continuous (straight pool): the rule engine.

Sources: the rules text, seed 000 section "14.1 с продолжением" (cited "seed 14.1 sec N"), first; the WPA
"Rules of Play" section 4 (cited "WPA 4.N", docs/rules-notes.md section 2) where the text is silent.

Inputs, in stream order:
- ``call`` before every shot but the opening break: ``{"type":"call","player":..,"ball":"7","pocket":"tl"}``
  or ``{"type":"call","player":..,"safety":true}``, by the player at the table. A later call before the shot
  replaces an earlier one. The called ball must be on the table and the call must name a pocket. A break may
  be called (a ball and pocket) but need not be; an uncalled or safety-called break must meet the rail
  requirement.
- the camera lines of each shot, ``shot_start`` (ball ``cue``) to ``shot_end``; the shot is decided at its
  ``shot_end`` and gives exactly one decision. Ball ids: ``cue`` and ``1``..``15``.
- ``choice`` after a breaking foul, by the breaker's opponent: ``play`` (accept the table and shoot) or
  ``rebreak`` (all fifteen re-racked, the breaker breaks again). It gives no decision of its own.
- ``concede`` by either player between shots: the opponent wins. It gives one decision, numbered with the last
  shot played (0 before any).

Options (match header ``options``):
- ``target``: points to win, an integer >= 1. Default 150: "на соревнованиях, как правило, 150 очков"
  (seed 14.1 sec 1); WPA 4 leaves it to the match ("the required score").
- ``first``: the player who breaks first. Default the first player of the header (WPA 4.1 has them lag).

Decisions: ``points`` holds the shooter's change (empty when nothing changed), ``next`` the player to act
(after a breaking foul, the chooser), ``awaiting`` ``["call"]`` before a called shot, ``["choice"]`` after a
breaking foul and nothing before a break; ``respot`` lists spotted and racked balls at 0.01 mm; ``on`` is not
given (any ball may be called). Each decision names its rule in ``foul.rule`` or in a note.

Rules applied:
- A called ball pocketed in the called pocket on a shot without a foul scores 1, and every other object ball
  pocketed on that shot 1 more (seed 7.1; WPA 4.7); the inning goes on. Otherwise the inning ends; balls
  pocketed without the called ball, on a safety or on a foul, and object balls driven off the table are
  spotted (seed 7.4, 8, 9, 13; WPA 4.5, 4.6) on the long string (WPA 1.4, see ``rack.spot_balls``).
- Opening break (seed 14.1 sec 6; WPA 4.3): cue ball in hand behind the head string; a called ball pocketed,
  or, after the cue ball hits the rack, the cue ball and two object balls driven to a rail (a ball pocketed
  or driven off the table counts as driven to a rail, WPA 8.4). Otherwise a breaking foul, -2, taking
  precedence over any standard foul on the same shot (WPA 4.10); it does not count toward three fouls; the
  opponent then chooses ``play`` or ``rebreak`` (decision ``awaiting: ["choice"]``), as often as it happens.
  A legal break with the cue ball pocketed or off the table is a standard foul, -1 (seed 14.1 sec 6).
- Standard fouls, -1 each and one per shot (seed 11; WPA 4.9), in the order they are reported: cue ball off
  the table, cue ball pocketed (both: cue ball in hand behind the head string for the opponent, seed 10;
  WPA 6.1), no object ball hit, bad play from behind the head string (WPA 6.11), no ball pocketed and no
  ball driven to a rail after the first contact (seed 7.2; WPA 6.3), object ball driven off the table (seed 9;
  WPA 6.5). Otherwise the cue ball stays where it lies.
- Three consecutive fouls (seed 12; WPA 4.11): fouls on successive shots of the same player with no legal
  shot of his between them. The third costs 1 as usual and 15 more, 16 on that shot (18 over the three
  fouls, as the seed's note to 7.2 counts: "the penalty plus one point for each previous foul"); the count
  goes back to 0, all fifteen balls are re-racked and the offender breaks under the opening-break rules. A
  legal shot of the offender's own resets his count (WPA 6.14 "an intervening legal shot"); the seed names
  only a pocketed called ball or a legal safety, and a legal miss is read as the legal shot WPA means. The
  decision after a second foul carries a warning note, as a referee gives one.
- Re-rack (seed 7.3, 7.6; WPA 4.4, 4.8): when a legal scoring shot leaves one object ball or none, the
  fourteen (or fifteen) are racked and the shooter goes on; the fifteenth ball and the cue ball go where
  ``rack.SPECIAL_RACKING`` says. The decision lists every racked ball and every moved ball in ``respot``; a
  cue ball in hand is named in the notes. The first shot of the new rack may be at any ball.
- Scores may go below zero (seed 13; WPA 4.7). The first to reach ``target`` on a scoring shot wins at once.
- After a decision that leaves the cue ball in hand behind the head string with every object ball behind it,
  a note says the nearest may be spotted on request (seed 7.7); the request itself is not an input, and the
  next ``shot_end`` shows where the balls are.

Departures and limits:
- Not refereed, because no line of the stream shows them: the fouls of WPA 4.9 that need the referee's eye
  (no foot on floor, touched ball, double hit, push shot, balls still moving, bad cue-ball placement, cue on
  the table, playing out of turn, slow play), the deliberate foul of seed 7.5 (-16 with the opponent's
  choice; it is BCA's rule, not WPA's), and the near-rail rule of seed 7.2 (two safeties by a ball within a
  ball's width of a rail, then the frozen-ball rule of the general pool rules, which the text does not
  include).
- Bad play from behind the head string is called when the cue ball was in hand, its first object ball lay
  behind the head string at the last rest, and the cue ball touched no cushion before that contact. The
  camera lines do not say whether a cushion hit before the contact was in front of the head string, so any
  such cushion is taken as crossing it: the rule may be missed, never called wrongly.
- Seed 7.6 table, one cell (fifteenth ball behind the head string, cue ball in the rack): the text puts the
  fifteenth ball on the foot spot; WPA 4.8(d) and the BCA chart leave it where it is and put the cue ball on
  the head spot, which is followed (see ``rack``).
- Racked balls stand at exact rack positions, 1 and 5 in the back corners as the breaker sees them (seed
  sec 4), the rest in numerical order; a real rack is set by hand, and the next ``shot_end`` is what counts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType

from adjudication.billiards.rack import (
    CUE,
    OBJECT_BALLS,
    Place,
    ball_number,
    behind_head_string,
    plan_rerack,
    rack_layout,
    spot_balls,
)
from adjudication.billiards.shot import CAMERA_EVENTS, Collecting, Shot, collect
from adjudication.engine import Engine, RuleError
from arbiter.contract import (
    MM_PLACES,
    BallBall,
    Call,
    Choice,
    Concede,
    Cushion,
    Decision,
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

SPEC = billiards("straight-pool")
GAME = SPEC.id
TABLE = SPEC.table
BALLS: frozenset[str] = frozenset((CUE, *OBJECT_BALLS))
DEFAULT_TARGET = 150  # seed 14.1 sec 1
SERIOUS_FOUL_COUNT = 3  # seed 12; WPA 4.11
SERIOUS_FOUL_EXTRA = 15  # seed 12; WPA 4.11
BREAK_RAIL_BALLS = 2  # object balls driven to a rail on a legal break (seed 6; WPA 4.3)
OPTIONS = ("target", "first")


class Reason(StrEnum):
    """Fouls of 14.1; the order of the standard ones is the order in which one shot's fouls are reported."""

    BREAKING_FOUL = "breaking_foul"
    CUE_BALL_OFF_TABLE = "cue_ball_off_table"
    CUE_BALL_SCRATCH = "cue_ball_scratch"
    NO_CONTACT = "no_contact"
    BAD_PLAY_FROM_BEHIND_HEAD_STRING = "bad_play_from_behind_head_string"
    NO_RAIL_AFTER_CONTACT = "no_rail_after_contact"
    OBJECT_BALL_OFF_TABLE = "object_ball_off_table"
    THREE_CONSECUTIVE_FOULS = "three_consecutive_fouls"


@dataclass(frozen=True)
class FoulRule:
    penalty: int
    rule: str


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.BREAKING_FOUL: FoulRule(2, "WPA 4.3, 4.10; seed 14.1 sec 6"),
        Reason.CUE_BALL_OFF_TABLE: FoulRule(1, "WPA 4.9, 6.1; seed 14.1 sec 10, 11"),
        Reason.CUE_BALL_SCRATCH: FoulRule(1, "WPA 4.9, 6.1; seed 14.1 sec 10, 11"),
        Reason.NO_CONTACT: FoulRule(1, "WPA 4.9, 6.3; seed 14.1 sec 7.2, 11"),
        Reason.BAD_PLAY_FROM_BEHIND_HEAD_STRING: FoulRule(1, "WPA 4.9, 6.11"),
        Reason.NO_RAIL_AFTER_CONTACT: FoulRule(1, "WPA 4.9, 6.3; seed 14.1 sec 7.2, 11"),
        Reason.OBJECT_BALL_OFF_TABLE: FoulRule(1, "WPA 4.9, 6.5; seed 14.1 sec 9, 11"),
        Reason.THREE_CONSECUTIVE_FOULS: FoulRule(1 + SERIOUS_FOUL_EXTRA, "WPA 4.11, 6.14; seed 14.1 sec 12"),
    }
)
STANDARD_FOULS: tuple[Reason, ...] = tuple(
    r for r in Reason if r not in (Reason.BREAKING_FOUL, Reason.THREE_CONSECUTIVE_FOULS)
)

IN_HAND = "cue ball in hand behind the head string"
SHOT_LINES = (ShotStart, ShotEnd, *CAMERA_EVENTS)


class Phase(StrEnum):
    BREAK = "break"  # the next shot is an opening break (start, re-break, after three fouls)
    PLAY = "play"
    CHOICE = "choice"  # a breaking foul: the breaker's opponent chooses play or rebreak
    OVER = "over"


@dataclass(frozen=True)
class State:
    """A 14.1 game between two shots (or inside one: ``pending``).

    ``turn`` is the player at the table (after a breaking foul, the breaker, until the choice). ``table``
    holds every ball known to be on the table and where; the cue ball is absent while it is in hand behind
    the head string (``cue_in_hand``). ``fouls`` counts each player's consecutive standard fouls.
    """

    players: tuple[str, str]
    target: int
    score: FrozenMap[str, int]
    turn: str
    phase: Phase
    table: FrozenMap[str, XY]
    fouls: FrozenMap[str, int]
    cue_in_hand: bool = True
    shots: int = 0
    call: Call | None = None
    pending: Collecting = field(default_factory=Collecting)
    winner: str | None = None

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def opponent(self, player: str) -> str:
        a, b = self.players
        return b if player == a else a


def _full_rack() -> FrozenMap[str, XY]:
    return FrozenMap(_placed(rack_layout(TABLE, OBJECT_BALLS)))


def start(match: Match) -> State:
    """A new game: ``first`` (default the first player) breaks from in hand; options checked."""
    players = tuple(match.players)
    if len(players) != 2:
        raise ValueError(f"14.1 is played by two players or teams (seed 14.1 sec 2); got {len(players)}")
    unknown = sorted(set(match.options) - set(OPTIONS))
    if unknown:
        raise ValueError(f"unknown option(s) {', '.join(unknown)}; 14.1 takes: {', '.join(OPTIONS)}")
    target = match.options.get("target", DEFAULT_TARGET)
    if isinstance(target, bool) or not isinstance(target, int) or target < 1:
        raise ValueError(f"option target must be an integer >= 1, the points to win (got {target!r})")
    first = match.options.get("first", players[0])
    if first not in players:
        raise ValueError(f"option first must be one of the players {', '.join(players)} (got {first!r})")
    return State(
        players=(players[0], players[1]),
        target=target,
        score=FrozenMap(dict.fromkeys(players, 0)),
        turn=first,
        phase=Phase.BREAK,
        table=_full_rack(),
        fouls=FrozenMap(dict.fromkeys(players, 0)),
    )


# --- lines other than shots ---------------------------------------------------------------------------------


def _check_player_turn(state: State, player: str, what: str) -> None:
    if player != state.turn:
        raise RuleError(f"{what} by {player}, but {state.turn} is at the table; only {state.turn} may {what}")


def _on_call(state: State, call: Call) -> State:
    if state.phase is Phase.CHOICE:
        raise RuleError(
            f"a call while a choice is awaited from {state.opponent(state.turn)} (play or rebreak)"
        )
    if state.pending.start is not None:
        raise RuleError("a call during a shot; the call comes before the shot's shot_start")
    _check_player_turn(state, call.player, "call")
    if not call.safety:
        if call.ball not in OBJECT_BALLS:
            raise RuleError(f"call names ball {call.ball!r}; 14.1 calls an object ball 1..15 (or a safety)")
        if call.ball not in state.table:
            on = ", ".join(sorted((b for b in state.table if b != CUE), key=ball_number))
            raise RuleError(f"call names ball {call.ball}, which is not on the table; on the table: {on}")
        if call.pocket is None:
            raise RuleError(f"call names ball {call.ball} but no pocket; 14.1 calls a ball and a pocket")
    return replace(state, call=call)


def _on_choice(state: State, choice: Choice) -> State:
    if state.phase is not Phase.CHOICE:
        raise RuleError(f"a choice ({choice.option}) but none is awaited; a choice follows a breaking foul")
    chooser = state.opponent(state.turn)
    if choice.player != chooser:
        raise RuleError(f"choice by {choice.player}, but the choice after the breaking foul is {chooser}'s")
    if choice.option == "play":
        return replace(state, turn=chooser, phase=Phase.PLAY, call=None)
    if choice.option == "rebreak":
        return replace(state, phase=Phase.BREAK, table=_full_rack(), cue_in_hand=True, call=None)
    raise RuleError(
        f"choice {choice.option!r}: after a breaking foul the options are play (accept the table) or "
        "rebreak (the breaker breaks again) (WPA 4.3; seed 14.1 sec 6)"
    )


def _on_concede(state: State, concede: Concede) -> tuple[State, tuple[Decision, ...]]:
    if state.pending.start is not None:
        raise RuleError("a concession during a shot; concede between shots")
    winner = state.opponent(concede.player)
    new = replace(state, phase=Phase.OVER, winner=winner, call=None)
    decision = Decision(
        shot=state.shots,
        player=concede.player,
        score=state.score,
        next=None,
        over=True,
        winner=winner,
        notes=(f"{concede.player} concedes: {winner} wins (a concession loses the game, WPA general rules)",),
    )
    return new, (decision,)


def _check_ids(event: JsonLine) -> None:
    if isinstance(event, ShotStart) and event.ball != CUE:
        raise RuleError(f"shot_start ball {event.ball!r}: in 14.1 every shot strikes the cue ball ('cue')")
    if isinstance(event, PinDown):
        raise RuleError("pin_down: 14.1 has no pins")
    if isinstance(event, BallBall):
        balls: tuple[str, ...] = event.balls
    elif isinstance(event, Cushion | Pot | OffTable):
        balls = (event.ball,)
    elif isinstance(event, ShotEnd):
        balls = tuple(event.positions)
    else:
        balls = ()
    for ball in balls:
        if ball not in BALLS:
            raise RuleError(f"{event.TYPE}: ball {ball!r} is not in 14.1; its balls are cue and 1..15")


def _on_shot_start(state: State, event: ShotStart) -> None:
    if state.phase is Phase.CHOICE:
        raise RuleError(
            f"a shot while a choice is awaited from {state.opponent(state.turn)}: play or rebreak first"
        )
    if state.phase is Phase.PLAY and state.call is None and state.pending.start is None:
        raise RuleError(
            f"shot without a call: {state.turn} must call a ball and pocket, or a safety, before the shot "
            f'(e.g. {{"type":"call","player":"{state.turn}","ball":"7","pocket":"tl"}})'
        )


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    """Take one line of the stream; a ``shot_end`` gives the shot's decision, a concession the final one."""
    if state.over:
        raise RuleError(f"the game is over ({state.winner} won); no more lines are accepted")
    if isinstance(event, Concede):
        return _on_concede(state, event)
    if isinstance(event, Call):
        return _on_call(state, event), ()
    if isinstance(event, Choice):
        return _on_choice(state, event), ()
    if isinstance(event, SHOT_LINES):
        _check_ids(event)
        if isinstance(event, ShotStart):
            _on_shot_start(state, event)
        pending, shot = collect(state.pending, event)
        state = replace(state, pending=pending)
        if shot is None:
            return state, ()
        return _decide(state, shot)
    raise RuleError(
        f"a {event.TYPE!r} line: 14.1 reads call, choice (after a breaking foul), concede and the camera "
        "lines of shots"
    )


# --- one shot ---------------------------------------------------------------------------------------------


def _after_first_contact(shot: Shot) -> tuple[JsonLine, ...]:
    for i, e in enumerate(shot.events):
        if isinstance(e, BallBall) and e.balls[0] == CUE:
            return shot.events[i + 1 :]
    return ()


def _driven_to_rail(events: tuple[JsonLine, ...]) -> set[str]:
    """Balls driven to a rail: a cushion, a pocket or off the table (WPA 8.4)."""
    return {e.ball for e in events if isinstance(e, Cushion | Pot | OffTable)}


def _legal_break(shot: Shot, scored: bool) -> bool:
    if scored:
        return True
    if shot.first_contact(CUE) is None:
        return False
    driven = _driven_to_rail(_after_first_contact(shot))
    return CUE in driven and len(driven - {CUE}) >= BREAK_RAIL_BALLS


def _cushion_before_contact(shot: Shot) -> bool:
    for e in shot.events:
        if isinstance(e, BallBall) and e.balls[0] == CUE:
            return False
        if isinstance(e, Cushion) and e.ball == CUE:
            return True
    return False


def _standard_fouls(state: State, shot: Shot) -> tuple[Reason, ...]:
    off, potted = set(shot.off_table()), set(shot.potted())
    first = shot.first_contact(CUE)
    first_xy = state.table.get(first) if first is not None else None
    found = {
        Reason.CUE_BALL_OFF_TABLE: CUE in off,
        Reason.CUE_BALL_SCRATCH: CUE in potted and CUE not in off,
        Reason.NO_CONTACT: first is None,
        Reason.BAD_PLAY_FROM_BEHIND_HEAD_STRING: state.cue_in_hand
        and first_xy is not None
        and behind_head_string(TABLE, first_xy)
        and not _cushion_before_contact(shot),
        Reason.NO_RAIL_AFTER_CONTACT: first is not None and not _driven_to_rail(_after_first_contact(shot)),
        Reason.OBJECT_BALL_OFF_TABLE: bool(off - {CUE}),
    }
    return tuple(r for r in STANDARD_FOULS if found[r])


@dataclass(frozen=True)
class _Outcome:
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


def _mm(xy: XY) -> XY:
    """A placed ball's position at the precision decisions are written with (``MM_PLACES``)."""
    return (round(xy[0], MM_PLACES), round(xy[1], MM_PLACES))


def _placed(balls: Mapping[str, XY]) -> dict[str, XY]:
    return {b: _mm(xy) for b, xy in balls.items()}


def _respots(balls: Mapping[str, XY]) -> tuple[Respot, ...]:
    return tuple(Respot(b, xy) for b, xy in balls.items())


def _spotted(at_rest: Mapping[str, XY], balls: list[str]) -> tuple[dict[str, XY], tuple[Respot, ...]]:
    spots = _placed(spot_balls(TABLE, balls, at_rest))
    return {**at_rest, **spots}, _respots(spots)


def _decide(state: State, shot: Shot) -> tuple[State, tuple[Decision, ...]]:
    shooter, other = state.turn, state.opponent(state.turn)
    call = state.call
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
    fouls = _standard_fouls(state, shot)
    cue_gone = CUE in gone
    to_spot = [b for b in OBJECT_BALLS if b in potted or b in off]

    if state.phase is Phase.BREAK and not _legal_break(shot, scored):
        outcome = _breaking_foul(state, at_rest, to_spot, fouls, cue_gone)
    elif fouls:
        outcome = _standard_foul(state, at_rest, to_spot, fouls, cue_gone, scored)
    elif scored and call is not None:
        outcome = _scoring(state, at_rest, call, potted)
    else:
        outcome = _no_score(state, at_rest, to_spot)

    score = dict(state.score)
    score[shooter] += outcome.points
    over = outcome.phase is Phase.OVER
    notes = list(outcome.notes)
    if not over and outcome.cue_in_hand:
        objects = {b: xy for b, xy in outcome.table.items() if b != CUE}
        if objects and all(behind_head_string(TABLE, xy) for xy in objects.values()):
            nearest = max(objects, key=lambda b: (objects[b][1], -ball_number(b)))
            notes.append(
                f"every object ball is behind the head string: {nearest} may be spotted on the foot spot "
                "at the striker's request (seed 14.1 sec 7.7)"
            )
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
    decision = Decision(
        shot=new.shots,
        player=shooter,
        foul=outcome.foul,
        points=FrozenMap({shooter: outcome.points} if outcome.points else {}),
        score=new.score,
        next=None if over else (other if outcome.phase is Phase.CHOICE else outcome.turn),
        over=over,
        winner=new.winner,
        awaiting=outcome.awaiting,
        respot=outcome.respot,
        notes=tuple(notes),
    )
    return new, (decision,)


def _foul(reason: Reason) -> Foul:
    rule = FOULS[reason]
    return Foul(reason=reason.value, penalty=rule.penalty, rule=rule.rule)


def _breaking_foul(
    state: State, at_rest: dict[str, XY], to_spot: list[str], fouls: tuple[Reason, ...], cue_gone: bool
) -> _Outcome:
    shooter, other = state.turn, state.opponent(state.turn)
    table, respot = _spotted(at_rest, to_spot)
    notes = [
        "breaking foul: neither a called ball pocketed nor the cue ball and two object balls driven to a "
        f"rail: -{FOULS[Reason.BREAKING_FOUL].penalty} (WPA 4.3; seed 14.1 sec 6)",
        f"{other} chooses: play (accept the table) or rebreak ({shooter} breaks again)",
    ]
    if fouls:
        notes.append(f"also {', '.join(fouls)}: the breaking foul takes precedence (WPA 4.10)")
    if to_spot:
        notes.append(f"spotted: {_names(to_spot)} (WPA 4.6)")
    if cue_gone:
        notes.append(f"{IN_HAND} if the table is accepted")
    return _Outcome(
        foul=_foul(Reason.BREAKING_FOUL),
        points=-FOULS[Reason.BREAKING_FOUL].penalty,
        turn=shooter,
        phase=Phase.CHOICE,
        table=table,
        cue_in_hand=cue_gone,
        fouls=state.fouls[shooter],  # a breaking foul is not one of three consecutive fouls
        respot=respot,
        notes=tuple(notes),
        awaiting=("choice",),
    )


def _standard_foul(
    state: State,
    at_rest: dict[str, XY],
    to_spot: list[str],
    fouls: tuple[Reason, ...],
    cue_gone: bool,
    scored: bool,
) -> _Outcome:
    shooter, other = state.turn, state.opponent(state.turn)
    reason = fouls[0]
    count = state.fouls[shooter] + 1
    notes: list[str] = []
    if len(fouls) > 1:
        notes.append(f"also {', '.join(fouls[1:])}: one penalty per shot")
    if count >= SERIOUS_FOUL_COUNT:
        table = _full_rack()
        notes[:0] = [
            f"third consecutive foul ({reason}): -1 and {SERIOUS_FOUL_EXTRA} more "
            "(WPA 4.11; seed 14.1 sec 12)",
            f"all fifteen balls re-racked; {shooter} breaks under the opening-break rules, {IN_HAND}",
        ]
        return _Outcome(
            foul=_foul(Reason.THREE_CONSECUTIVE_FOULS),
            points=-FOULS[Reason.THREE_CONSECUTIVE_FOULS].penalty,
            turn=shooter,
            phase=Phase.BREAK,
            table=table,
            cue_in_hand=True,
            fouls=0,
            respot=_respots(table),
            notes=tuple(notes),
        )
    table, respot = _spotted(at_rest, to_spot)
    if scored:
        notes.append(
            "the called ball was pocketed on a foul: it is spotted and does not score (seed 14.1 sec 13)"
        )
    if to_spot:
        notes.append(f"spotted: {_names(to_spot)} (WPA 4.6; seed 14.1 sec 8, 9)")
    if cue_gone:
        notes.append(f"{other} has the {IN_HAND} (seed 14.1 sec 10)")
    if count == SERIOUS_FOUL_COUNT - 1:
        notes.append(
            f"{shooter} is on {count} consecutive fouls: a third costs {SERIOUS_FOUL_EXTRA} more (WPA 4.11)"
        )
    return _Outcome(
        foul=_foul(reason),
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


def _scoring(state: State, at_rest: dict[str, XY], call: Call, potted: list[str]) -> _Outcome:
    shooter = state.turn
    points = len(potted)
    notes = [f"pot: {call.ball} in {call.pocket} as called, 1 point (WPA 4.7; seed 14.1 sec 5, 7.1)"]
    extra = [b for b in potted if b != call.ball]
    if extra:
        notes.append(f"also pocketed {_names(extra)}: 1 point each (WPA 4.7; seed 14.1 sec 7.1)")
    if state.score[shooter] + points >= state.target:
        notes.append(f"{shooter} reaches {state.target}: wins (seed 14.1 sec 1)")
        return _Outcome(
            foul=None, points=points, turn=shooter, phase=Phase.OVER, table=at_rest, cue_in_hand=False,
            fouls=0, respot=(), notes=tuple(notes),
        )  # fmt: skip
    left = [b for b in at_rest if b != CUE]
    if len(left) > 1:
        return _Outcome(
            foul=None, points=points, turn=shooter, phase=Phase.PLAY, table=at_rest, cue_in_hand=False,
            fouls=0, respot=(), notes=tuple(notes), awaiting=("call",),
        )  # fmt: skip
    plan = plan_rerack(TABLE, at_rest)
    racked, moved = _placed(plan.racked), _placed(plan.moved)
    table = {b: xy for b, xy in at_rest.items() if not (b == CUE and plan.cue_in_hand)}
    table.update(racked)
    table.update(moved)
    respot = _respots(racked) + _respots(moved)
    where15, where_cue = plan.where
    notes.append(
        f"re-rack: {len(plan.racked)} balls racked"
        + (", apex empty" if not plan.full_rack else "")
        + f"; fifteenth ball {where15} -> {plan.fifteenth_place}, cue ball {where_cue} -> {plan.cue_place}"
        + " (seed 14.1 sec 7.3, 7.6; WPA 4.4, 4.8)"
    )
    if plan.cue_place is Place.IN_HAND:
        notes.append(f"{shooter} has the {IN_HAND}")
    notes.append("the first shot of the new rack may be at any ball (WPA 4.8)")
    return _Outcome(
        foul=None, points=points, turn=shooter, phase=Phase.PLAY, table=table, cue_in_hand=plan.cue_in_hand,
        fouls=0, respot=respot, notes=tuple(notes), awaiting=("call",),
    )  # fmt: skip


def _no_score(state: State, at_rest: dict[str, XY], to_spot: list[str]) -> _Outcome:
    other = state.opponent(state.turn)
    call = state.call
    notes: list[str] = []
    if state.phase is Phase.BREAK:
        notes.append(
            "legal break: the cue ball and two object balls driven to a rail (WPA 4.3; seed 14.1 sec 6)"
        )
    if call is not None and call.safety:
        notes.append(f"safety: play passes to {other} (WPA 4.5; seed 14.1 sec 7.4)")
    elif call is not None:
        notes.append(
            f"called {call.ball} in {call.pocket} not made: play passes to {other} (seed 14.1 sec 7.1)"
        )
    else:
        notes.append(f"no called ball pocketed: play passes to {other} (WPA 4.4)")
    table, respot = _spotted(at_rest, to_spot)
    if to_spot:
        notes.append(
            f"pocketed without scoring, spotted without penalty: {_names(to_spot)} (WPA 4.6; seed 14.1 sec 8)"
        )
    return _Outcome(
        foul=None, points=0, turn=other, phase=Phase.PLAY, table=table, cue_in_hand=False,
        fouls=0, respot=respot, notes=tuple(notes), awaiting=("call",),
    )  # fmt: skip


ENGINE = Engine(game=GAME, start=start, step=step)
