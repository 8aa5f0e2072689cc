"""A match's settings read against the options its game declares (``arbiter.games.OptionSpec``).

One reader for every engine: an option the game does not have, a value of the wrong kind or out of range,
or a count of players the game is not played by, is refused with ``RuleError`` saying which option, what is
allowed and what was given. What an option means is the engine's business; which options exist, their
kinds, ranges and defaults are the registry's, so the dashboard's forms and the engines agree.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from adjudication.engine import RuleError
from arbiter.contract import Match
from arbiter.games import GameSpec, OptionKind, OptionSpec


def check_known(spec: GameSpec, match: Match, ignored: frozenset[str] = frozenset()) -> None:
    """``RuleError`` naming the first option the game does not have, and those it has."""
    names = {o.name for o in spec.options}
    unknown = sorted(set(match.options) - names - ignored)
    if unknown:
        have = "; ".join(f"{o.name} ({o.help})" for o in spec.options) or "none"
        raise RuleError(f"{spec.id} has no option {unknown[0]!r}; its options: {have}")


def check_players(spec: GameSpec, match: Match) -> None:
    """``RuleError`` when the header names more or fewer players than the game is played by."""
    n, low, high = len(match.players), spec.min_players, spec.max_players
    if n < low or (high is not None and n > high):
        want = f"{low} or more" if high is None else f"exactly {low}" if low == high else f"{low} to {high}"
        raise RuleError(f"{spec.id} is played by {want} players (got {n}: {', '.join(match.players)})")


def read(spec: GameSpec, match: Match, name: str) -> Any:
    """The value of option ``name`` for this match: given, or the declared default (a ``player`` option's
    default is the first player), checked against its kind and range. None for an absent open option."""
    option = spec.option(name)
    value = match.options.get(name)
    if value is None:
        if option.kind is OptionKind.PLAYER:
            return match.players[0]
        return option.default
    return _check(spec, option, value, match.players)


def read_all(spec: GameSpec, match: Match) -> Mapping[str, Any]:
    """Every option of the game for this match (``check_known`` first)."""
    check_known(spec, match)
    return {o.name: read(spec, match, o.name) for o in spec.options}


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _in_range(option: OptionSpec, v: float) -> bool:
    low, high = option.minimum, option.maximum
    return (low is None or v >= low) and (high is None or v <= high)


def _span(option: OptionSpec) -> str:
    low, high = option.minimum, option.maximum
    if low is not None and high is not None:
        return f" {low:g}..{high:g}"
    if low is not None:
        return f" >= {low:g}"
    return f" <= {high:g}" if high is not None else ""


def _check(spec: GameSpec, option: OptionSpec, value: Any, players: tuple[str, ...]) -> Any:
    kind, ok = option.kind, True
    if kind is OptionKind.INT:
        ok, expected = _is_int(value) and _in_range(option, value), f"an integer{_span(option)}"
    elif kind is OptionKind.NUMBER:
        number = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        ok, expected = number and _in_range(option, value), f"a number{_span(option)}"
    elif kind is OptionKind.BOOL:
        ok, expected = isinstance(value, bool), "true or false"
    elif kind is OptionKind.CHOICE:
        ok, expected = value in option.choices, f"one of {', '.join(map(str, option.choices))}"
    elif kind is OptionKind.PLAYER:
        ok, expected = value in players, f"one of the players {', '.join(players)}"
    elif kind is OptionKind.TEXT:
        ok, expected = isinstance(value, str) and bool(value), "a non-empty string"
    else:
        expected = "a list or an object"
    if not ok:
        raise RuleError(f"{spec.id} option {option.name} must be {expected} (got {value!r})")
    return value
