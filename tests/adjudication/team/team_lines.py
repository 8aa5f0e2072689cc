"""Short builders for team-sport lines and a runner, shared by the futsal and rugby rule tables.

Futsal pitch 20 x 40 m: in period 1 Home defends the goal at y = 0, Away the goal at y = 40.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from adjudication.engines import ENGINES
from arbiter.contract import (
    BallOut,
    Decision,
    FoulLine,
    Goal,
    JsonLine,
    KickAtGoal,
    Kickoff,
    Match,
    Restart,
    Substitution,
    Timeout,
    Try,
    Whistle,
)

H, A = "Home", "Away"
XY = tuple[float, float]


def ko(t: float = 0.0, team: str = H, **kw: Any) -> Kickoff:
    return Kickoff(t=t, team=team, **kw)


def out(t: float, line: str, xy: XY, last: str) -> BallOut:
    return BallOut(t=t, line=line, xy_m=xy, last=last)


def rs(t: float, team: str, kind: str, xy: XY | None = None, ready: float | None = None) -> Restart:
    return Restart(t=t, team=team, kind=kind, xy_m=xy, ready_t=ready)


def goal(t: float, team: str, direct: bool = False, by: str | None = None) -> Goal:
    return Goal(t=t, team=team, direct=direct, by=by)


def foul(
    t: float,
    team: str,
    kind: str = "direct",
    xy: XY | None = (10.0, 20.0),
    card: str | None = None,
    player: str | None = None,
    **kw: Any,
) -> FoulLine:
    if card is not None and player is None:
        player = f"{team}:4"
    return FoulLine(t=t, team=team, kind=kind, xy_m=xy, card=card, player=player, **kw)


def wh(t: float, reason: str = "period_end", xy: XY | None = None) -> Whistle:
    return Whistle(t=t, reason=reason, xy_m=xy)


def tout(t: float, team: str) -> Timeout:
    return Timeout(t=t, team=team)


def sub(t: float, team: str, off: str | None, on: str) -> Substitution:
    return Substitution(t=t, team=team, out=off, in_=on)


def kick(t: float, team: str, kind: str = "penalty", good: bool = True) -> KickAtGoal:
    return KickAtGoal(t=t, team=team, kind=kind, good=good)


def try_(t: float, team: str) -> Try:
    return Try(t=t, team=team, xy_m=(10.0, 45.0))


def fouls_by(team: str, n: int, t0: float, xy: XY = (10.0, 20.0), gap: float = 10.0) -> list[JsonLine]:
    """``n`` accumulated fouls by ``team`` at ``xy``, each followed by the free kick taken: a foul at
    ``t0 + k*gap`` and the kick 2 s later. The place must give a direct free kick (not a penalty or a
    sixth-foul kick) for all but the last."""
    kicker = A if team == H else H
    lines: list[JsonLine] = []
    for k in range(n):
        t = t0 + k * gap
        lines.append(foul(t, team, xy=xy))
        if k < n - 1:
            lines.append(rs(t + 2, kicker, "free_kick_direct"))
    return lines


def first_half(end_t: float = 1200.0) -> list[JsonLine]:
    """A first half of nothing but the kick-off and the end whistle (the clock runs throughout)."""
    return [ko(0.0, H), wh(end_t)]


def match(game: str = "futsal", **options: Any) -> Match:
    return Match(game=game, players=(H, A), options=options)


def play(lines: Iterable[JsonLine], game: str = "futsal", **options: Any) -> tuple[Any, list[Decision]]:
    """The game's engine (from the registry, as the runner finds it) over ``lines``: the state after them
    and every decision, each of which must say what it ruled and by which law."""
    engine = ENGINES[game]
    state = engine.start(match(game, **options))
    decisions: list[Decision] = []
    for line in lines:
        state, ds = engine.step(state, line)
        decisions.extend(ds)
    assert all(d.call and d.law for d in decisions), [d for d in decisions if not (d.call and d.law)]
    return state, decisions


def check(decision: Decision, want: dict[str, Any]) -> None:
    """Compare the fields named in ``want``; ``restart`` as (kind, team) or (kind, team, xy);
    ``foul`` as the reason; ``note`` a substring of some note."""
    for key, value in want.items():
        if key == "restart":
            r = decision.restart
            got: Sequence[Any] | None = None if r is None else (r.kind, r.team, r.xy_m)[: len(value)]
            assert got == value, f"restart: {got} != {value}"
        elif key == "foul":
            assert (decision.foul.reason if decision.foul else None) == value, f"foul: {decision.foul}"
        elif key == "note":
            assert any(value in n for n in decision.notes), f"no note with {value!r} in {decision.notes}"
        else:
            got_value = getattr(decision, key)
            assert got_value == value, f"{key}: {got_value!r} != {value!r}"
