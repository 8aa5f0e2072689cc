"""The timekeeper's desk of a team match (futsal, rugby-5, rugby-7): the lines its buttons record, and what
its board shows at a moment.

Each button is one line of the contract (``arbiter.contract.team``), stamped with the desk's time: seconds
since the match was started, never before the last recorded line. ``team_line`` builds it from what the
page holds and the contract checks it; the desk then tries it on the engine before it is recorded
(``Desk.add_input``), so a line the rules cannot use is refused with their reason and nothing is lost. A
line the rules take and refuse in a decision (a time-out not granted, a substitution out of time) is
recorded, since it happened; ``refusals`` finds the engine's reasons among the decisions it settled.

The clock, the fouls, the time-outs and the send-off timers are the engine's own, read between lines by
``adjudication.team.timekeeper``; nothing here knows a law.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adjudication.team.clock import show
from adjudication.team.timekeeper import Board, foul_level
from arbiter import contract as c
from arbiter.games import GameSpec, TeamSpec
from dashboard.session.setup import DeskError

T_PLACES = 3  # the desk stamps lines to the millisecond
REFUSED = frozenset({c.TeamCall.TIMEOUT_REFUSED, c.TeamCall.SUBSTITUTION_REFUSED, c.TeamCall.GOAL_DISALLOWED})
OUT_PLACES: Mapping[str, str] = {
    "touch_left": "touch line at x = 0 (left)",
    "touch_right": "touch line at x = width (right)",
    "goal_near": "goal line at y = 0",
    "goal_far": "goal line at y = length",
}
OVER_LINE_M = 0.2  # a ball wholly over a line is this far beyond it


def is_team(spec: GameSpec | None) -> bool:
    return isinstance(spec, TeamSpec)


def pitch_m(header: c.Match, spec: GameSpec) -> tuple[float, float]:
    """The pitch (width, length) in metres: the header's ``pitch_m`` or the game's default."""
    value = header.options.get("pitch_m")
    if value is None:
        value = next((o.default for o in spec.options if o.name == "pitch_m"), (20, 40))
    width, length = value
    return float(width), float(length)


def out_xy(place: str, along_m: float, pitch: tuple[float, float]) -> tuple[float, float]:
    """Where a ball went out, from the line the desk picked and how far along it: just beyond the line."""
    width, length = pitch
    match place:
        case "touch_left":
            return (-OVER_LINE_M, min(max(along_m, 0.0), length))
        case "touch_right":
            return (width + OVER_LINE_M, min(max(along_m, 0.0), length))
        case "goal_near":
            return (min(max(along_m, 0.0), width), -OVER_LINE_M)
        case "goal_far":
            return (min(max(along_m, 0.0), width), length + OVER_LINE_M)
    raise DeskError(f"unknown place {place!r}; one of {', '.join(OUT_PLACES)}")


def stamp(now: float, board: Board | None) -> float:
    """The time a button's line carries: ``now``, never before the last line recorded."""
    last = board.last_t if board is not None else 0.0
    return round(max(now, last), T_PLACES)


def _player(team: str, number: Any) -> str | None:
    """``TEAM:number`` from a shirt number typed on the desk (empty: no player)."""
    if number in (None, "", 0):
        return None
    try:
        n = int(number)
    except (TypeError, ValueError):
        raise DeskError(f"a player is given by his shirt number, such as 7 (got {number!r})") from None
    return f"{team}:{n}"


def _blank(value: Any) -> Any:
    return None if value in ("", None) else value


def team_line(line_type: str, t: float, fields: Mapping[str, Any]) -> c.JsonLine:
    """The line a desk button records (``line_type``; ``fields``: what the page holds for it, by the line's
    field names); ``DeskError`` with the contract's reason when a field is wrong."""
    try:
        return _build(line_type, t, fields)
    except ValueError as exc:
        raise DeskError(str(exc)) from None


def _build(line_type: str, t: float, f: Mapping[str, Any]) -> c.JsonLine:
    team = f.get("team", "")
    match line_type:
        case "kickoff":
            return c.Kickoff(t=t, team=team)
        case "ball_out":
            return c.BallOut(t=t, line=f["line"], xy_m=f["xy_m"], last=f["last"])
        case "restart":
            return c.Restart(
                t=t, team=team, kind=f["kind"], xy_m=_blank(f.get("xy_m")), ready_t=_blank(f.get("ready_t"))
            )
        case "goal":
            return c.Goal(t=t, team=team, by=_player(team, f.get("by")), direct=bool(f.get("direct")))
        case "try":
            return c.Try(t=t, team=team, xy_m=_blank(f.get("xy_m")), by=_player(team, f.get("by")))
        case "foul":
            return c.FoulLine(
                t=t,
                team=team,
                kind=f["kind"],
                player=_player(team, f.get("player")),
                xy_m=_blank(f.get("xy_m")),
                card=_blank(f.get("card")),
                advantage=bool(f.get("advantage")),
            )
        case "timeout":
            return c.Timeout(t=t, team=team)
        case "substitution":
            coming = _player(team, f.get("in"))
            if coming is None:
                raise DeskError("a substitution needs the number of the player coming on")
            return c.Substitution(t=t, team=team, out=_player(team, f.get("out")), in_=coming)
        case "whistle":
            return c.Whistle(t=t, reason=f["reason"])
        case "kick_at_goal":
            return c.KickAtGoal(t=t, team=team, kind=f["kind"], good=bool(f.get("good")))
    raise DeskError(f"unknown desk input {line_type!r}")


def refusals(before: Sequence[c.Decision], after: Sequence[c.Decision]) -> list[str]:
    """What the engine refused among the decisions a new line settled, with its reasons."""
    new = after[len(before) :]
    return [
        f"{d.call.replace('_', ' ') if d.call else 'refused'}: {'; '.join(d.notes) or d.law}"
        for d in new
        if d.call in REFUSED
    ]


@dataclass(frozen=True)
class TeamRow:
    """One team on the desk at a moment."""

    team: str
    score: int
    fouls: int | None  # accumulated this half (None: the game does not count them)
    foul_level: str  # normal, fifth, sixth
    fouls_by_period: tuple[tuple[int, int], ...]
    timeouts_left: int | None
    timeout_asked: bool
    on_court: int | None
    send_offs: tuple[tuple[str, str], ...]  # (player, time left or "to the end")


@dataclass(frozen=True)
class DeskState:
    """What the desk shows at ``now``: the clock with its stops, the period, each team, the restart due and
    its four seconds, a time-out running."""

    clock: str
    remaining: str
    running: bool
    period: int
    phase: str
    teams: tuple[TeamRow, ...]
    due: str | None
    four_seconds: float | None
    timeout_left_s: float | None
    stops: tuple[str, ...]
    over: bool
    winner: str | None


def _team_row(board: Board, team: str, now: float) -> TeamRow:
    fouls = board.period_fouls().get(team, 0) if board.counts_fouls else None
    send_offs = tuple(
        (
            s.player,
            "to the end"
            if (left := board.send_off_left_us(s, now)) is None
            else "may come on"
            if left == 0
            else show(left),
        )
        for s in board.send_offs
        if s.team == team
    )
    timeouts = board.timeouts_left.get(team) if board.timeouts_left is not None else None
    return TeamRow(
        team=team,
        score=board.score.get(team, 0),
        fouls=fouls,
        foul_level=foul_level(fouls) if fouls is not None else "normal",
        fouls_by_period=tuple((p, counts.get(team, 0)) for p, counts in sorted(board.fouls.items())),
        timeouts_left=timeouts,
        timeout_asked=team in board.timeouts_asked,
        on_court=board.on_court.get(team),
        send_offs=send_offs,
    )


def desk_state(board: Board, now: float, ready_t: float | None = None) -> DeskState:
    """The desk at ``now`` (seconds since the match started); ``ready_t``: the desk pressed 'ball ready'."""
    due = board.due
    said = f"{due.kind.replace('_', ' ')} to {due.team or 'either team'}" if due is not None else None
    return DeskState(
        clock=show(board.clock_us(now)),
        remaining=show(board.remaining_us(now)),
        running=board.running,
        period=board.period,
        phase=board.phase,
        teams=tuple(_team_row(board, t, now) for t in board.teams),
        due=said,
        four_seconds=board.four_seconds(now, ready_t),
        timeout_left_s=board.timeout_left_s(now),
        stops=tuple(f"P{s.period} {show(s.clock_us)} {s.why}" for s in reversed(board.stops)),
        over=board.over,
        winner=board.winner,
    )
