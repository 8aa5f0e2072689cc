"""What a five-pins shot's camera lines show: the pins down and who is charged with them, the carom, and the
fouls (UMB 5-pin 5-8, 15)."""

from __future__ import annotations

from adjudication.billiards.five_pins.rules import CENTRE_PIN, PIN_POINTS, PINS, RED, SIDE_PINS, Carom, Reason
from adjudication.billiards.five_pins.state import State
from adjudication.billiards.shot import Shot
from arbiter.contract import BallBall, Cushion, PinDown


def knockers(shot: Shot) -> dict[str, str]:
    """Each pin down in the shot -> the ball charged with it (through pins knocked by pins, 12.3)."""
    by: dict[str, str] = {}
    for e in shot.pins_down():
        by[e.pin] = by[e.by] if e.by in PINS else e.by
    return by


def pin_points(pins: frozenset[str] | set[str]) -> int:
    """UMB 5-pin 8.1: side pins 2 each, the centre 4 with a side pin or 8 alone."""
    sides = len(pins & SIDE_PINS)
    points = sides * PIN_POINTS["side"]
    if CENTRE_PIN in pins:
        points += PIN_POINTS["centre_with_side"] if sides else PIN_POINTS["centre_alone"]
    return points


def carom(shot: Shot, mover: str, target: str) -> Carom | None:
    """UMB 5-pin 8.2: the first carom after ``mover`` hits ``target``; at one instant the carom beats the
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
    """Every foul of the shot (UMB 5-pin 15), in ``Reason`` order."""
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
        by = knockers(shot)
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
