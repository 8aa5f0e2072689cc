"""Plain-words lines for events of the contract: what the demo and ``arbiter show`` print."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from arbiter import contract as c

POCKET_NAMES = {
    "bl": "bottom-left",
    "br": "bottom-right",
    "ml": "middle-left",
    "mr": "middle-right",
    "tl": "top-left",
    "tr": "top-right",
}


def _call(e: c.Call) -> str:
    if e.safety:
        return f"{e.player} calls a safety"
    where = f" in the {POCKET_NAMES[e.pocket]} pocket" if e.pocket else ""
    return f"{e.player} calls {e.ball}{where}"


def _xy_m(xy: tuple[float, float] | None) -> str:
    return f" at ({xy[0]:.1f}, {xy[1]:.1f}) m" if xy is not None else ""


def _foul(e: c.FoulLine) -> str:
    who = e.player or e.team
    card = f", {e.card} card" if e.card else ""
    return f"{e.kind.replace('_', ' ')} foul by {who}{_xy_m(e.xy_m)}{card}"


def _substitution(e: c.Substitution) -> str:
    return f"{e.team} substitution: {e.in_} on" + (f" for {e.out}" if e.out else "")


_WORDS: dict[type[Any], Callable[[Any], str]] = {
    c.ShotStart: lambda e: f"shot: the cue strikes {e.ball}",
    c.BallBall: lambda e: f"{e.balls[0]} hits {e.balls[1]}",
    c.Cushion: lambda e: f"{e.ball} hits the {e.side} cushion",
    c.Pot: lambda e: f"{e.ball} is potted in the {POCKET_NAMES[e.pocket]} pocket",
    c.OffTable: lambda e: f"{e.ball} leaves the table",
    c.PinDown: lambda e: f"{e.pin} knocked down by {e.by}",
    c.ShotEnd: lambda e: f"all balls at rest; {len(e.positions)} on the table",
    c.Declare: lambda e: f"{e.player} nominates {e.ball}" + (" (free ball)" if e.free_ball else ""),
    c.Call: _call,
    c.Choice: lambda e: f"{e.player} chooses: {e.option}",
    c.Concede: lambda e: f"{e.player} concedes",
    c.Roll: lambda e: (
        f"{e.player} throws {len(e.thrown)} of {len(e.dice)}: {' '.join(str(d.value) for d in e.dice)}"
    ),
    c.Choose: lambda e: f"{e.player} scores it as {e.category}",
    c.Stop: lambda e: f"{e.player} stops",
    c.Claim: lambda e: f"{e.player} claims " + (
        " ".join(map(str, e.hand)) if e.hand is not None else f"field {e.number}"
    ),
    c.Challenge: lambda e: f"{e.player} challenges",
    c.Bet: lambda e: f"{e.player} bets {e.stake} on {e.face}",
    c.Operation: lambda e: f"{e.player} takes the {e.op}",
    c.Kickoff: lambda e: f"kick-off by {e.team}",
    c.BallOut: lambda e: f"ball out over the {e.line} line{_xy_m(e.xy_m)}, last touched by {e.last}",
    c.Restart: lambda e: f"{e.kind.replace('_', ' ')} taken by {e.team}{_xy_m(e.xy_m)}",
    c.Goal: lambda e: f"goal for {e.team}" + (f" by {e.by}" if e.by else ""),
    c.Try: lambda e: f"try for {e.team}" + (f" by {e.by}" if e.by else ""),
    c.FoulLine: _foul,
    c.Timeout: lambda e: f"{e.team} asks for a time-out",
    c.Substitution: _substitution,
    c.Whistle: lambda e: f"whistle: {e.reason.replace('_', ' ')}",
    c.KickAtGoal: lambda e: f"{e.team} {e.kind} kick at goal: {'good' if e.good else 'missed'}",
}  # fmt: skip


def describe(event: object) -> str:
    """One line for one line of the stream, with its time."""
    if isinstance(event, c.Match):
        return f"match: {event.game}, players {', '.join(event.players)}"
    if isinstance(event, c.Decision):
        return describe_decision(event)
    t = getattr(event, "t", None)
    stamp = f"{t:7.3f} s  " if t is not None else " " * 11
    words = _WORDS.get(type(event))
    return stamp + (words(event) if words is not None else str(event))


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
    parts.extend(_team_parts(d))
    text = " ".join(parts)
    return text + "".join(f"\n      {note}" for note in d.notes)


def _team_parts(d: c.Decision) -> list[str]:
    """What a team sport's decision adds: the call and its law, the restart, the clock and the fouls."""
    parts = []
    if d.call is not None:
        parts.append(f"[{d.call.replace('_', ' ')}" + (f"; {d.law}]" if d.law else "]"))
    if d.restart is not None:
        by = f" by {d.restart.team}" if d.restart.team else ""
        parts.append(f"restart: {d.restart.kind.replace('_', ' ')}{by}{_xy_m(d.restart.xy_m)}")
    if d.clock is not None:
        minutes, seconds = divmod(d.clock, 60)
        parts.append(f"clock {int(minutes)}:{seconds:04.1f}" + (f" of period {d.period}" if d.period else ""))
    if d.fouls:
        parts.append(f"fouls {scores(d.fouls)}")
    return parts


def summarise(events: Sequence[object]) -> list[str]:
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
