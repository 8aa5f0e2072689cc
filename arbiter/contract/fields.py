"""The contract's building blocks: errors, frozen containers, field checks and the base line types.

Every value type of the contract (``arbiter.contract``) is a frozen dataclass built on ``Record`` (an object
inside a line) or ``JsonLine`` (a whole line). Its ``__post_init__`` checks its own fields with the checks
below, so a constructor and the parser say the same thing about a bad field.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import MISSING, fields
from types import MappingProxyType
from typing import Any, ClassVar, Generic, Self, TypeVar

SCHEMA_VERSION = 1
TIME_PLACES = 6  # decimals of seconds written: 1 microsecond
MM_PLACES = 2  # decimals of millimetres written: 0.01 mm
M_PLACES = 2  # decimals of metres written (pitches): 1 cm, far below what a camera measures on a pitch


class ContractError(ValueError):
    """A line that breaks the contract. ``line_no`` is None where no line is known (``from_json``)."""

    def __init__(self, line_no: int | None, message: str) -> None:
        super().__init__(line_no, message)
        self.line_no = line_no
        self.message = message

    def __str__(self) -> str:
        return self.message if self.line_no is None else f"line {self.line_no}: {self.message}"

    def at(self, line_no: int | None) -> ContractError:
        """The same error placed on a line (errors raised while reading fields do not know their line)."""
        return ContractError(line_no, self.message)


# --- frozen containers ---------------------------------------------------------------------------------

K = TypeVar("K")
V = TypeVar("V")


class FrozenMap(Mapping[K, V], Generic[K, V]):
    """A read-only, hashable mapping, so that value types holding mappings stay frozen and hashable.

    Equal to any mapping with the same items (a plain ``dict`` included); hashable when its values are.
    """

    __slots__ = ("_data", "_hash")

    def __init__(self, data: Mapping[K, V] | Iterable[tuple[K, V]] = (), /) -> None:
        self._data: dict[K, V] = dict(data)
        self._hash: int | None = None

    def __getitem__(self, key: K) -> V:
        return self._data[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._data.items()))
        return self._hash

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenMap, (self._data,))


def freeze(value: Any) -> Any:
    """JSON-shaped data made immutable: objects become ``FrozenMap`` and lists tuples, all the way down."""
    if isinstance(value, Mapping):
        return FrozenMap({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    if isinstance(value, Record):
        return value.to_obj()
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [thaw(v) for v in value]
    return value


# --- field checks (shared by every value type, so a constructor and the parser say the same thing) -------


def show(value: Any) -> str:
    text = repr(thaw(value))
    return text if len(text) <= 80 else text[:77] + "..."


def fail(where: str, expected: str, got: Any) -> ValueError:
    return ValueError(f"{where} must be {expected} (got {show(got)})")


def is_number(v: Any) -> bool:
    if isinstance(v, bool) or not isinstance(v, int | float):
        return False
    return isinstance(v, int) or math.isfinite(v)


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_time(where: str, v: Any, *, optional: bool = False) -> float | None:
    if v is None and optional:
        return None
    if not is_number(v) or v < 0:
        raise fail(where, "a number of seconds >= 0", v)
    return float(v)


def check_frame(where: str, v: Any) -> int | None:
    if v is not None and (not is_int(v) or v < 0):
        raise fail(where, "a frame number, an integer >= 0", v)
    return None if v is None else int(v)


def check_int(where: str, v: Any, minimum: int | None = None) -> int:
    if not is_int(v) or (minimum is not None and v < minimum):
        raise fail(where, "an integer" if minimum is None else f"an integer >= {minimum}", v)
    return int(v)


def check_text(where: str, v: Any) -> str:
    if not isinstance(v, str) or not v:
        raise fail(where, "a non-empty string", v)
    return v


def check_opt_text(where: str, v: Any) -> str | None:
    if v is not None and (not isinstance(v, str) or not v):
        raise fail(where, "a non-empty string or null", v)
    return v


def check_one_of(where: str, v: Any, choices: Iterable[str]) -> str:
    choices = tuple(choices)
    if not isinstance(v, str) or v not in choices:
        raise fail(where, f"one of {', '.join(choices)}", v)
    return v


def check_flag(where: str, v: Any) -> bool:
    if not isinstance(v, bool):
        raise fail(where, "true or false", v)
    return v


def check_texts(where: str, v: Any, *, what: str, distinct: bool, nonempty: bool) -> tuple[str, ...]:
    """A list of non-empty strings; ``what`` names the items in the message (``player names``)."""
    expected = f"a{' non-empty' if nonempty else ''} list of {'distinct ' if distinct else ''}{what}"
    if not isinstance(v, list | tuple) or (nonempty and not v):
        raise fail(where, expected, v)
    seen: set[str] = set()
    for i, item in enumerate(v):
        check_text(f"{where}[{i}]", item)
        if distinct and item in seen:
            raise ValueError(f"{where} must be {expected} (got {item!r} twice)")
        seen.add(item)
    return tuple(v)


def check_notes(where: str, v: Any) -> tuple[str, ...]:
    if not isinstance(v, list | tuple) or not all(isinstance(n, str) for n in v):
        raise fail(where, "a list of strings", v)
    return tuple(v)


def check_xy(where: str, v: Any, unit: str = "mm") -> tuple[float, float]:
    """A point ``[x, y]`` of two finite numbers; ``unit`` (``mm``, ``m``) names its frame in the message."""
    if not isinstance(v, list | tuple) or len(v) != 2 or not all(is_number(c) for c in v):
        raise fail(where, f"[x_{unit}, y_{unit}], two numbers", v)
    return (float(v[0]), float(v[1]))


def check_opt_xy(where: str, v: Any, unit: str = "mm") -> tuple[float, float] | None:
    return None if v is None else check_xy(where, v, unit)


def check_int_map(where: str, v: Any) -> FrozenMap[str, int]:
    if not isinstance(v, Mapping):
        raise fail(where, "an object {player: integer}", v)
    for key, n in v.items():
        check_text(f"{where} key", key)
        check_int(f"{where}[{key!r}]", n)
    return v if isinstance(v, FrozenMap) else FrozenMap(v)


def set_field(obj: object, name: str, value: Any) -> None:
    object.__setattr__(obj, name, value)  # normalising a frozen dataclass in its own __post_init__


# Field metadata: ``omit_empty`` leaves a field out of the JSON when it is None, False or empty;
# ``places`` rounds its floats when written.
OMIT_EMPTY: Mapping[str, Any] = MappingProxyType({"omit_empty": True})
SECONDS: Mapping[str, Any] = MappingProxyType({"places": TIME_PLACES})
OPTIONAL_SECONDS: Mapping[str, Any] = MappingProxyType({"omit_empty": True, "places": TIME_PLACES})
MILLIMETRES: Mapping[str, Any] = MappingProxyType({"places": MM_PLACES})
METRES: Mapping[str, Any] = MappingProxyType({"places": M_PLACES})
OPTIONAL_METRES: Mapping[str, Any] = MappingProxyType({"omit_empty": True, "places": M_PLACES})
OMIT_EMPTY = OMIT_EMPTY


def encode(value: Any, places: int | None) -> Any:
    if isinstance(value, Record):
        return value.to_obj()
    if isinstance(value, float) and places is not None:
        return round(value, places) + 0.0  # + 0.0 turns -0.0 into 0.0
    if isinstance(value, Mapping):
        return {k: encode(v, places) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [encode(v, places) for v in value]
    return value


def is_empty(value: Any) -> bool:
    return value is None or value is False or (isinstance(value, Mapping | tuple | list) and not value)


# --- reading raw JSON objects ----------------------------------------------------------------------------


class Fields:
    """The raw JSON object of one line (or an object nested in it), read field by field.

    Getters check only presence and shape (an object where an object is needed) and freeze containers;
    the value types check everything else when built, so the parser and the constructors agree.
    ``where`` names the object in messages: ``cushion``, ``roll.dice[2]``.
    """

    __slots__ = ("_obj", "where")

    def __init__(self, obj: Mapping[str, Any], where: str) -> None:
        self._obj = obj
        self.where = where

    def has(self, key: str) -> bool:
        """Present and not null: JSON null counts as absent for optional fields."""
        return self._obj.get(key) is not None

    def require(self, key: str) -> Any:
        """A field that must be present (it may still be null where the type allows)."""
        if key not in self._obj:
            raise ContractError(None, f"{self.where}.{key} is required but missing")
        return freeze(self._obj[key])

    def optional(self, key: str, default: Any = None) -> Any:
        value = self._obj.get(key)
        return default if value is None else freeze(value)

    def child(self, key: str) -> Fields | None:
        """A nested object, or None where the field is absent or null."""
        value = self._obj.get(key)
        if value is None:
            return None
        if not isinstance(value, Mapping):
            raise ContractError(None, f"{self.where}.{key} must be an object (got {show(value)})")
        return Fields(value, f"{self.where}.{key}")

    def children(self, key: str) -> tuple[Fields, ...]:
        """A list of nested objects; absent or null reads as an empty list."""
        value = self._obj.get(key)
        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(v, Mapping) for v in value):
            raise ContractError(None, f"{self.where}.{key} must be a list of objects (got {show(value)})")
        return tuple(Fields(v, f"{self.where}.{key}[{i}]") for i, v in enumerate(value))


# --- base types ------------------------------------------------------------------------------------------


class Record:
    """A frozen dataclass written as a JSON object, keys in field order (``Foul``, ``Die``, every line)."""

    __slots__ = ()

    def to_obj(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if f.metadata.get("omit_empty") and is_empty(value):
                continue
            out[f.name] = encode(value, f.metadata.get("places"))
        return out


class JsonLine(Record):
    """One line of the stream: a frozen dataclass with a ``TYPE`` string.

    Subclasses get a field-by-field reader for free: fields without a default are required, the others
    optional. Override ``from_fields`` where the JSON nests records or requires a field the constructor
    defaults. ``player_refs`` lists the player names a line mentions, for the stream's header check.
    """

    __slots__ = ()
    TYPE: ClassVar[str]

    def to_obj(self) -> dict[str, Any]:
        return {"type": self.TYPE, **Record.to_obj(self)}

    @classmethod
    def from_fields(cls, f: Fields) -> Self:
        kwargs: dict[str, Any] = {}
        for fd in fields(cls):  # type: ignore[arg-type]
            if fd.default is MISSING and fd.default_factory is MISSING:
                kwargs[fd.name] = f.require(fd.name)
            elif f.has(fd.name):
                kwargs[fd.name] = f.optional(fd.name)
        return cls(**kwargs)

    def player_refs(self) -> Iterator[tuple[str, str]]:
        """``(where, name)`` for every player name this line mentions; by default its ``player`` field."""
        player = getattr(self, "player", None)
        if isinstance(player, str):
            yield f"{self.TYPE}.player", player

    def _at(self, name: str) -> str:
        return f"{self.TYPE}.{name}"

    def _check_when(self, *, t_required: bool = True) -> None:
        set_field(self, "t", check_time(self._at("t"), self.t, optional=not t_required))  # type: ignore[attr-defined]
        if hasattr(self, "frame"):
            check_frame(self._at("frame"), self.frame)
