"""Plain-words lines for events of the contract: what the demo and ``arbiter show`` print."""

from __future__ import annotations

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
    return f"{stamp}{event}"


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
