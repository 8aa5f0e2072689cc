"""Plain-words lines for events of the contract: what the demo and ``arbiter show`` print."""

from __future__ import annotations

from collections.abc import Mapping

from arbiter import contract as c

POCKET_NAMES = {
    "bl": "bottom-left",
    "br": "bottom-right",
    "ml": "middle-left",
    "mr": "middle-right",
    "tl": "top-left",
    "tr": "top-right",
}


def describe(event: object) -> str:
    """One line for one event, with its time."""
    t = getattr(event, "t", None)
    stamp = f"{t:7.3f} s  " if t is not None else " " * 11
    match event:
        case c.Match():
            return f"match: {event.game}, players {', '.join(event.players)}"
        case c.ShotStart():
            return f"{stamp}shot: the cue strikes {event.ball}"
        case c.BallBall():
            return f"{stamp}{event.balls[0]} hits {event.balls[1]}"
        case c.Cushion():
            return f"{stamp}{event.ball} hits the {event.side} cushion"
        case c.Pot():
            return f"{stamp}{event.ball} is potted in the {POCKET_NAMES[event.pocket]} pocket"
        case c.OffTable():
            return f"{stamp}{event.ball} leaves the table"
        case c.PinDown():
            return f"{stamp}{event.pin} knocked down by {event.by}"
        case c.ShotEnd():
            return f"{stamp}all balls at rest; {len(event.positions)} on the table"
        case c.Declare():
            extra = " (free ball)" if event.free_ball else ""
            return f"{stamp}{event.player} nominates {event.ball}{extra}"
        case c.Call() if event.safety:
            return f"{stamp}{event.player} calls a safety"
        case c.Call():
            where = f" in the {POCKET_NAMES[event.pocket]} pocket" if event.pocket else ""
            return f"{stamp}{event.player} calls {event.ball}{where}"
        case c.Choice():
            return f"{stamp}{event.player} chooses: {event.option}"
        case c.Concede():
            return f"{stamp}{event.player} concedes"
        case c.Roll():
            values = " ".join(str(d.value) for d in event.dice)
            return f"{stamp}{event.player} throws {len(event.thrown)} of {len(event.dice)}: {values}"
        case c.Choose():
            return f"{stamp}{event.player} scores it as {event.category}"
        case c.Decision():
            return describe_decision(event)
    return f"{stamp}{event}"


def scores(score: Mapping[str, int]) -> str:
    """``A 31, B 17``: a player -> points map in words."""
    return ", ".join(f"{p} {v}" for p, v in score.items())


def describe_decision(d: c.Decision) -> str:
    """One line for one call: the foul and its rule, points, the score, and what comes next."""
    parts = [f"#{d.shot} {d.player}:"]
    if d.foul is not None:
        parts.append(f"FOUL {d.foul.reason.replace('_', ' ')} ({d.foul.penalty}; {d.foul.rule});")
    else:
        parts.append("legal;")
    gained = {p: v for p, v in d.points.items() if v}
    if gained:
        parts.append(", ".join(f"{p} {v:+d}" for p, v in gained.items()) + ";")
    parts.append(f"score {scores(d.score)}")
    if d.over:
        parts.append(f"- over, {d.winner} wins" if d.winner else "- over, a draw")
    else:
        if d.next:
            parts.append(f"- next {d.next}")
        if d.on:
            parts.append(f"on {d.on}")
        if d.awaiting:
            parts.append(f"(awaiting {', '.join(d.awaiting)})")
    if d.respot:
        parts.append("respot " + ", ".join(r.ball for r in d.respot))
    text = " ".join(parts)
    return text + "".join(f"\n      {note}" for note in d.notes)


def summarise(events: list[object]) -> list[str]:
    """A few lines on the whole shot: first contact, pots, cushions, pins."""
    start = next((e for e in events if isinstance(e, c.ShotStart)), None)
    cue = start.ball if start else None
    first = next((e.balls[1] for e in events if isinstance(e, c.BallBall) and e.balls[0] == cue), None)
    pots = [e for e in events if isinstance(e, c.Pot)]
    cushions = sum(isinstance(e, c.Cushion) for e in events)
    pins = [e for e in events if isinstance(e, c.PinDown)]
    lines = [f"first contact: {first or 'none (the cue ball hit no ball)'}"]
    lines.append("potted: " + (", ".join(f"{e.ball} ({POCKET_NAMES[e.pocket]})" for e in pots) or "nothing"))
    lines.append(f"cushion contacts: {cushions}")
    if pins:
        lines.append("pins down: " + ", ".join(e.pin for e in pins))
    return lines
