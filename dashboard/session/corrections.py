"""The correction form: a recorded line's fields, each offered from the game's own vocabulary.

A referee corrects a call by picking the line that was wrong and changing what it says: the ball of the
game's set, the pocket of its table, the cushion side, the player, a die's value. ``line_fields`` lists the
fields of a line type with the choices the game gives for each (from its ``GameSpec`` and the header's
players) and the values of the line being corrected; ``line_from_fields`` turns what the form holds back
into a line of the contract, checked by the contract itself. Nothing here knows a game by its id: the
vocabulary is the spec's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, Field, dataclass, fields, is_dataclass
from enum import StrEnum
from typing import Any

from arbiter import contract as c
from arbiter.games import GAMES, BilliardsSpec, GameSpec, TeamSpec
from arbiter.tables import CUSHION_SIDES
from dashboard.session.setup import DeskError


class FieldKind(StrEnum):
    """How the form asks for a field."""

    CHOICE = "choice"  # one of ``choices``
    PAIR = "pair"  # two of ``choices``, in order (the balls of a contact)
    SUBSET = "subset"  # some of ``choices`` (the dice thrown)
    DICE = "dice"  # each die's face, 1..6 (a roll)
    FACES = "faces"  # faces typed as numbers, '3 3 3 2 2' (a claimed hand)
    BOOL = "bool"
    NUMBER = "number"
    INT = "int"
    TEXT = "text"
    JSON = "json"  # anything else, as its JSON (a shot's resting positions)


@dataclass(frozen=True)
class LineField:
    """One field of the line being corrected: how to ask for it, its value now, and the game's choices."""

    name: str
    kind: FieldKind
    value: Any
    choices: tuple[Any, ...] = ()
    optional: bool = False  # may be left empty (the field is then left out of the line)


_ALL_INPUTS = frozenset(i for spec in GAMES.values() for i in spec.inputs)
_SKIP = frozenset({"type", "frame"})  # the type is chosen apart; a frame number is kept as it was


def _family(cls: type[c.JsonLine]) -> str:
    """The family a line type belongs to: the contract module it lives in (``billiards``, ``dice`` ...)."""
    return cls.__module__.rpartition(".")[2]


def line_types(spec: GameSpec) -> tuple[str, ...]:
    """The lines a correction may put in a match of this game: what its camera sees, and its own inputs."""
    out: list[str] = []
    for name, cls in c.LINE_TYPES.items():
        if _family(cls) != spec.family.value:
            continue
        if name in _ALL_INPUTS and name not in spec.inputs:
            continue  # another game's input (a call in snooker)
        if name == c.PinDown.TYPE and not (isinstance(spec, BilliardsSpec) and spec.table.pins):
            continue
        if isinstance(spec, TeamSpec) and not _team_takes(spec, name):
            continue
        out.append(name)
    return tuple(out)


def _team_takes(spec: TeamSpec, name: str) -> bool:
    """A team sport's lines, less another sport's score and the time-outs of a game without them."""
    scores = {c.Goal.TYPE, c.Try.TYPE} - {spec.score_line}
    return name not in scores and (spec.timeouts or name != c.Timeout.TYPE)


def _team_words(spec: TeamSpec, teams: tuple[str, ...], type_name: str) -> dict[str, tuple[Any, ...]]:
    """A team sport's vocabulary: its teams, lines, whistles, cards, and the kinds of the line's type (a
    restart's, a foul's, a kick's). A player is ``TEAM:number``, typed, so ``player`` is not offered."""
    kinds = {c.Restart.TYPE: spec.restarts, c.FoulLine.TYPE: c.FOUL_KINDS, c.KickAtGoal.TYPE: spec.kicks}
    words: dict[str, tuple[Any, ...]] = {
        "team": teams,
        "last": teams,
        "defends_y0": teams,
        "line": c.OUT_LINES,
        "reason": c.WHISTLE_REASONS,
        "card": c.CARDS,
    }
    if type_name in kinds:
        words["kind"] = kinds[type_name]
    return words


def vocabulary(spec: GameSpec, players: Sequence[str], type_name: str = "") -> dict[str, tuple[Any, ...]]:
    """The choices the game gives for each field name: its players, balls, pockets, pins, sides, options;
    a team sport's by the line's type (``type_name``)."""
    if isinstance(spec, TeamSpec):
        return _team_words(spec, tuple(players), type_name)
    words: dict[str, tuple[Any, ...]] = {
        "player": tuple(players),
        "team": tuple(players),
        "option": c.CHOICE_OPTIONS,
        "op": tuple(o.value for o in c.Op),
        "side": CUSHION_SIDES,
    }
    if isinstance(spec, BilliardsSpec):
        words |= {
            "ball": spec.balls,
            "by": spec.balls,
            "balls": spec.balls,
            "pocket": tuple(p.id for p in spec.table.pockets),
            "pin": tuple(p.id for p in spec.table.pins),
        }
    return words


def _default(f: Field[Any]) -> Any:
    if f.default is not MISSING:
        return f.default
    if f.default_factory is not MISSING:
        return f.default_factory()
    return None


def _optional(f: Field[Any]) -> bool:
    return f.default is not MISSING or f.default_factory is not MISSING


def _with(choices: tuple[Any, ...], value: Any) -> tuple[Any, ...]:
    """The choices, with a recorded value the game does not know kept (a mis-identified ball)."""
    return choices if value in (None, "") or value in choices else (*choices, value)


def _dice_field(value: Any, dice: Sequence[tuple[str, int]]) -> LineField:
    shown = tuple((d["id"], d["value"]) for d in value) if value else tuple(dice) or (("d1", 1),)
    return LineField("dice", FieldKind.DICE, shown, tuple(c.DIE_FACES))


def _chosen(f: Field[Any], value: Any, words: Mapping[str, tuple[Any, ...]]) -> LineField:
    choices = words[f.name]
    if f.name == "balls":
        pair = tuple(value) if value else tuple(choices[:2])
        return LineField(f.name, FieldKind.PAIR, pair, _with(_with(choices, pair[0]), pair[-1]))
    optional = _optional(f)
    if value in (None, "") and not optional:
        value = choices[0] if choices else ""
    shown = tuple(choices) if not optional else ("", *choices)
    value = value if value is not None else ""
    return LineField(f.name, FieldKind.CHOICE, value, _with(shown, value), optional)


_BY_TYPE = {
    "bool": FieldKind.BOOL,
    "float": FieldKind.NUMBER,
    "float | None": FieldKind.NUMBER,
    "int": FieldKind.INT,
    "int | None": FieldKind.INT,
    "str": FieldKind.TEXT,
    "str | None": FieldKind.TEXT,
}


def _field(
    f: Field[Any], value: Any, words: Mapping[str, tuple[Any, ...]], dice: Sequence[tuple[str, int]]
) -> LineField:
    """How the form asks for one field: from the game's vocabulary where it has one, else by its type."""
    if f.name in words:
        return _chosen(f, value, words)
    if f.name == "dice":
        return _dice_field(value, dice)
    if f.name == "thrown":
        ids = tuple(d for d, _ in dice) or ("d1",)
        return LineField(f.name, FieldKind.SUBSET, tuple(value) if value else ids, _with(ids, None))
    if f.name == "hand":
        text = " ".join(str(v) for v in value) if value else ""
        return LineField(f.name, FieldKind.FACES, text, optional=True)
    kind = _BY_TYPE.get(str(f.type), FieldKind.JSON)
    if value is None:
        value = _default(f)
    if kind is FieldKind.JSON:
        value = "" if value is None else json.dumps(value)
    return LineField(f.name, kind, value, optional=_optional(f))


def _json_name(name: str) -> str:
    """A field's name in the line's JSON: a Python keyword loses its trailing underscore (``in_``: ``in``)."""
    return name.rstrip("_")


def line_fields(
    type_name: str,
    spec: GameSpec,
    players: Sequence[str],
    line: c.JsonLine | None = None,
    t: float | None = None,
) -> tuple[LineField, ...]:
    """The fields of a ``type_name`` line for the form, filled from ``line`` (the line being corrected, or
    one to start from; a field of the same name carries over when the type differs) or else from defaults;
    ``t``, when given, is the time."""
    cls = c.LINE_TYPES.get(type_name)
    if cls is None or cls in (c.Match, c.Decision) or not is_dataclass(cls):
        raise DeskError(f"a correction puts an event or an input, not a {type_name!r} line")
    obj = line.to_obj() if line is not None else {}
    if t is not None:
        obj["t"] = t
    dice = tuple((d["id"], d["value"]) for d in obj.get("dice") or ())
    words = vocabulary(spec, players, type_name)
    return tuple(
        _field(f, obj.get(_json_name(f.name)), words, dice) for f in fields(cls) if f.name not in _SKIP
    )


def _faces(text: Any) -> list[int]:
    try:
        return [int(v) for v in str(text).replace(",", " ").split()]
    except ValueError:
        raise DeskError(f"faces are numbers 1..6 apart, such as '3 3 3 2 2' (got {text!r})") from None


def _json_value(field_: LineField, raw: Any) -> Any:
    """What the form holds for one field, as the contract's JSON has it."""
    match field_.kind:
        case FieldKind.DICE:
            return [{"id": die, "value": int(face)} for die, face in raw]
        case FieldKind.PAIR | FieldKind.SUBSET:
            return list(raw)
        case FieldKind.FACES:
            return _faces(raw)
        case FieldKind.NUMBER:
            return float(raw)
        case FieldKind.INT:
            return int(raw)
        case FieldKind.BOOL:
            return bool(raw)
        case FieldKind.JSON:
            try:
                return json.loads(raw)
            except json.JSONDecodeError as exc:
                raise DeskError(f"{field_.name} must be JSON ({exc.msg})") from None
    return raw


def _empty(raw: Any) -> bool:
    return raw is None or (isinstance(raw, str | list | tuple) and not raw)


def line_from_fields(
    type_name: str, form: Sequence[LineField], values: Mapping[str, Any], frame: int | None = None
) -> c.JsonLine:
    """The line the form holds (``values``: each field's widget value by name; ``form``: ``line_fields``),
    checked by the contract; ``DeskError`` with its reason when a field is wrong. ``frame`` is kept from the
    line corrected."""
    obj: dict[str, Any] = {"type": type_name}
    if frame is not None:
        obj["frame"] = frame
    for f in form:
        raw = values.get(f.name, f.value)
        if _empty(raw) and (f.optional or f.kind is not FieldKind.TEXT):
            continue
        obj[_json_name(f.name)] = _json_value(f, raw)
    try:
        line = c.parse_line(json.dumps(obj))
    except c.ContractError as exc:
        raise DeskError(f"the corrected line is not a line of the contract: {exc.message}") from None
    return line


__all__ = ["FieldKind", "LineField", "line_fields", "line_from_fields", "line_types", "vocabulary"]
