"""Helpers shared by the team-sport engines: the two teams, options, counts per team, building decisions.

Options are the registry's (``arbiter.games``), read once in ``start`` with ``adjudication.options``, which
refuses with ``RuleError`` an option the game does not have or a value of the wrong kind or range (the runner
reports it as "match options: ..."). Nothing here knows a law; the engines pass theirs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from adjudication import options
from adjudication.engine import RuleError
from adjudication.team.clock import to_us
from arbiter.contract import Decision, Foul, FrozenMap, JsonLine, Match, RestartDue, TeamCall
from arbiter.games import GameSpec


def teams(spec: GameSpec, match: Match) -> tuple[str, str]:
    """The two teams of a match of ``spec``'s game; ``RuleError`` for another game, a team count other than
    two, or an option the game does not have (``adjudication.options``)."""
    if match.game != spec.id:
        raise RuleError(f"this engine referees {spec.id!r}, not {match.game!r}")
    options.check_players(spec, match)
    options.check_known(spec, match)
    return match.players[0], match.players[1]


def minutes_us(spec: GameSpec, match: Match, name: str) -> int:
    """An option of whole minutes (``half_min``) as microseconds of playing time."""
    return to_us(60 * options.read(spec, match, name))


def seconds_us(spec: GameSpec, match: Match, name: str) -> int:
    return to_us(options.read(spec, match, name))


def pitch_option(
    spec: GameSpec, match: Match, bounds: tuple[float, float, float, float]
) -> tuple[float, float]:
    """``pitch_m``: [width_m, length_m] within ``bounds``, the width the shorter. The registry declares it as
    JSON, which ``adjudication.options`` leaves to the engine."""
    value = options.read(spec, match, "pitch_m")
    lo0, hi0, lo1, hi1 = bounds
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in value)
        and lo0 <= value[0] <= hi0
        and lo1 <= value[1] <= hi1
        and value[0] < value[1]
    ):
        return (float(value[0]), float(value[1]))
    raise RuleError(
        f"{spec.id} option pitch_m must be [width_m, length_m] with width {lo0:g}..{hi0:g} and length "
        f"{lo1:g}..{hi1:g}, the width the shorter (got {value!r})"
    )


def other(teams: tuple[str, str], team: str) -> str:
    return teams[1] if team == teams[0] else teams[0]


def zero(teams: tuple[str, str]) -> FrozenMap[str, int]:
    return FrozenMap(dict.fromkeys(teams, 0))


def bump(counts: Mapping[str, int], team: str, by: int = 1) -> FrozenMap[str, int]:
    return FrozenMap({**counts, team: counts[team] + by})


def decision(
    *,
    shot: int,
    team: str,
    call: TeamCall,
    law: str,
    score: Mapping[str, int],
    restart: RestartDue | None,
    clock: float,
    period: int,
    on_court: Mapping[str, int],
    fouls: Mapping[str, int] | None = None,
    foul: Foul | None = None,
    points: Mapping[str, int] | None = None,
    over: bool = False,
    winner: str | None = None,
    notes: Iterable[str] = (),
    shootout: Mapping[str, int] | None = None,
) -> Decision:
    """One decision; ``next`` is the team that takes the restart due (None for a dropped ball or the end)."""
    return Decision(
        shot=shot,
        player=team,
        foul=foul,
        points=FrozenMap(points or {}),
        score=FrozenMap(score),
        next=None if over or restart is None else restart.team,
        over=over,
        winner=winner,
        notes=tuple(notes),
        call=call.value,
        law=law,
        restart=None if over else restart,
        clock=round(clock, 6),
        period=period,
        fouls=FrozenMap(fouls or {}),
        on_court=FrozenMap(on_court),
        shootout=FrozenMap(shootout or {}),
    )


def not_taken(game: str, line: JsonLine, takes: str) -> RuleError:
    return RuleError(f"{game} takes no {line.TYPE} lines; it reads {takes}")


def check_names(game: str, teams: tuple[str, str], line: JsonLine) -> None:
    """Every team a line names (player ids by their team part) must be one of the match's two."""
    for where, name in line.player_refs():
        if name not in teams:
            raise RuleError(f"{game}: {where} {name!r} is not a team of this match ({', '.join(teams)})")
