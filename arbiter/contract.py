"""The event and decision contract (docs/architecture.md, schema v1): value types and their JSON Lines form.

Every stage boundary after tracking speaks this contract, so it is the one place where untrusted text becomes
typed values. Three layers, each stricter than the last:

- a value type checks its own fields when it is built (``Cushion(side="up")`` raises ``ValueError``), so
  whatever an engine or tracker builds can be written and read back; ``to_json`` never writes a line that
  ``parse_line`` rejects;
- ``parse_line`` turns one line of text into one value and reports anything wrong as ``ContractError`` with
  the line number, what was wrong and what was expected; unknown extra fields are ignored so that older
  readers keep working on newer writers' output;
- ``iter_stream`` / ``read_stream`` add the rules of a whole stream: a match header first (and only there),
  times that never go backwards, player names from the header.

Writing: one compact line per value, keys in the order of architecture.md, optional fields omitted when
empty. Floats are rounded so files are stable and diffable: times to 1e-6 s (``TIME_PLACES``), which is far
below a frame (about 1e-2 s at 100 fps); millimetres to 0.01 mm (``MM_PLACES``), far below calibration error.
So ``from_json(to_json(v)) == v`` holds for every value given at that precision, and
``to_json(from_json(to_json(v))) == to_json(v)`` for every value.

New line types (game-specific inputs such as dice claims or bets) subclass ``JsonLine`` as a frozen
dataclass, set ``TYPE`` and pass through ``register_event``; the parser then reads them without changes here.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import MISSING, dataclass, field, fields
from types import MappingProxyType
from typing import IO, Any, ClassVar, Generic, Self, TypeAlias, TypeVar

from arbiter.tables import CUSHION_SIDES, POCKET_IDS
from arbiter.tables import GAMES as BILLIARDS_GAMES

SCHEMA_VERSION = 1
TIME_PLACES = 6  # decimals of seconds written: 1 microsecond
MM_PLACES = 2  # decimals of millimetres written: 0.01 mm

DICE_GAMES: tuple[str, ...] = (
    "liar",
    "thirteen",
    "craps",
    "indian-dice",
    "martinetti",
    "pig",
    "aces",
    "four-dice",
    "stuck-in-the-mud",
    "chicago",
    "yacht",
    "buck-dice",
    "high-dice",
    "bank",
    "bluff",
    "poker-dice",
)
PITCH_GAMES: tuple[str, ...] = ("futsal", "mini-rugby")
GAME_IDS: tuple[str, ...] = (*BILLIARDS_GAMES, *DICE_GAMES, *PITCH_GAMES)
CHOICE_OPTIONS: tuple[str, ...] = ("play", "pass", "replace", "rebreak")
DIE_FACES = range(1, 7)


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


def _thaw(value: Any) -> Any:
    if isinstance(value, Record):
        return value.to_obj()
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_thaw(v) for v in value]
    return value


# --- field checks (shared by every value type, so a constructor and the parser say the same thing) -------


def _show(value: Any) -> str:
    text = repr(_thaw(value))
    return text if len(text) <= 80 else text[:77] + "..."


def _fail(where: str, expected: str, got: Any) -> ValueError:
    return ValueError(f"{where} must be {expected} (got {_show(got)})")


def _is_number(v: Any) -> bool:
    if isinstance(v, bool) or not isinstance(v, int | float):
        return False
    return isinstance(v, int) or math.isfinite(v)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _time(where: str, v: Any, *, optional: bool = False) -> float | None:
    if v is None and optional:
        return None
    if not _is_number(v) or v < 0:
        raise _fail(where, "a number of seconds >= 0", v)
    return float(v)


def _frame(where: str, v: Any) -> int | None:
    if v is not None and (not _is_int(v) or v < 0):
        raise _fail(where, "a frame number, an integer >= 0", v)
    return v


def _int(where: str, v: Any, minimum: int | None = None) -> int:
    if not _is_int(v) or (minimum is not None and v < minimum):
        raise _fail(where, "an integer" if minimum is None else f"an integer >= {minimum}", v)
    return v


def _text(where: str, v: Any) -> str:
    if not isinstance(v, str) or not v:
        raise _fail(where, "a non-empty string", v)
    return v


def _opt_text(where: str, v: Any) -> str | None:
    if v is not None and (not isinstance(v, str) or not v):
        raise _fail(where, "a non-empty string or null", v)
    return v


def _one_of(where: str, v: Any, choices: Iterable[str]) -> str:
    choices = tuple(choices)
    if not isinstance(v, str) or v not in choices:
        raise _fail(where, f"one of {', '.join(choices)}", v)
    return v


def _flag(where: str, v: Any) -> bool:
    if not isinstance(v, bool):
        raise _fail(where, "true or false", v)
    return v


def _texts(where: str, v: Any, *, what: str, distinct: bool, nonempty: bool) -> tuple[str, ...]:
    """A list of non-empty strings; ``what`` names the items in the message (``player names``)."""
    expected = f"a{' non-empty' if nonempty else ''} list of {'distinct ' if distinct else ''}{what}"
    if not isinstance(v, list | tuple) or (nonempty and not v):
        raise _fail(where, expected, v)
    seen: set[str] = set()
    for i, item in enumerate(v):
        _text(f"{where}[{i}]", item)
        if distinct and item in seen:
            raise ValueError(f"{where} must be {expected} (got {item!r} twice)")
        seen.add(item)
    return tuple(v)


def _notes(where: str, v: Any) -> tuple[str, ...]:
    if not isinstance(v, list | tuple) or not all(isinstance(n, str) for n in v):
        raise _fail(where, "a list of strings", v)
    return tuple(v)


def _xy(where: str, v: Any) -> tuple[float, float]:
    if not isinstance(v, list | tuple) or len(v) != 2 or not all(_is_number(c) for c in v):
        raise _fail(where, "[x_mm, y_mm], two numbers", v)
    return (float(v[0]), float(v[1]))


def _int_map(where: str, v: Any) -> FrozenMap[str, int]:
    if not isinstance(v, Mapping):
        raise _fail(where, "an object {player: integer}", v)
    for key, n in v.items():
        _text(f"{where} key", key)
        _int(f"{where}[{key!r}]", n)
    return v if isinstance(v, FrozenMap) else FrozenMap(v)


def _set(obj: object, name: str, value: Any) -> None:
    object.__setattr__(obj, name, value)  # normalising a frozen dataclass in its own __post_init__


# Field metadata: ``omit_empty`` leaves a field out of the JSON when it is None, False or empty;
# ``places`` rounds its floats when written.
_OMIT: Mapping[str, Any] = MappingProxyType({"omit_empty": True})
_SECONDS: Mapping[str, Any] = MappingProxyType({"places": TIME_PLACES})
_OPT_SECONDS: Mapping[str, Any] = MappingProxyType({"omit_empty": True, "places": TIME_PLACES})
_MM: Mapping[str, Any] = MappingProxyType({"places": MM_PLACES})
# Field metadata for line types defined outside this module (game inputs): how a field is written.
OMIT_EMPTY = _OMIT
OPTIONAL_SECONDS = _OPT_SECONDS


def _encode(value: Any, places: int | None) -> Any:
    if isinstance(value, Record):
        return value.to_obj()
    if isinstance(value, float) and places is not None:
        return round(value, places) + 0.0  # + 0.0 turns -0.0 into 0.0
    if isinstance(value, Mapping):
        return {k: _encode(v, places) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_encode(v, places) for v in value]
    return value


def _is_empty(value: Any) -> bool:
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
            raise ContractError(None, f"{self.where}.{key} must be an object (got {_show(value)})")
        return Fields(value, f"{self.where}.{key}")

    def children(self, key: str) -> tuple[Fields, ...]:
        """A list of nested objects; absent or null reads as an empty list."""
        value = self._obj.get(key)
        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(v, Mapping) for v in value):
            raise ContractError(None, f"{self.where}.{key} must be a list of objects (got {_show(value)})")
        return tuple(Fields(v, f"{self.where}.{key}[{i}]") for i, v in enumerate(value))


# --- base types ------------------------------------------------------------------------------------------


class Record:
    """A frozen dataclass written as a JSON object, keys in field order (``Foul``, ``Die``, every line)."""

    __slots__ = ()

    def to_obj(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if f.metadata.get("omit_empty") and _is_empty(value):
                continue
            out[f.name] = _encode(value, f.metadata.get("places"))
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
        _set(self, "t", _time(self._at("t"), self.t, optional=not t_required))  # type: ignore[attr-defined]
        if hasattr(self, "frame"):
            _frame(self._at("frame"), self.frame)


# The one piece of module state: line type -> class. Filled with the built-in types below at import and
# extended only through register_event, so reading a stream never depends on import order of engines
# beyond the engine that defines its own inputs.
_REGISTRY: dict[str, type[JsonLine]] = {}

L = TypeVar("L", bound=type[JsonLine])


def register_event(cls: L) -> L:
    """Make ``cls.TYPE`` readable by ``parse_line``. Usable as a class decorator (above ``@dataclass``).

    Registering the same class twice is harmless; a second class for a taken type is an error, because
    two readers for one line type would make a stream's meaning depend on import order.
    """
    type_name = getattr(cls, "TYPE", None)
    if not isinstance(type_name, str) or not type_name:
        raise ValueError(f"{cls.__name__} needs a non-empty string TYPE to be registered")
    taken = _REGISTRY.get(type_name)
    if taken is not None and taken is not cls:
        raise ValueError(f"line type {type_name!r} is already registered to {taken.__qualname__}")
    _REGISTRY[type_name] = cls
    return cls


def line_types() -> Mapping[str, type[JsonLine]]:
    """The registered line types, read-only."""
    return MappingProxyType(_REGISTRY)


# --- the header ------------------------------------------------------------------------------------------


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Match(JsonLine):
    """The header, first line of every stream: which game, who plays (in turn order), its settings.

    ``options`` holds JSON values frozen (objects as ``FrozenMap``, lists as tuples), documented per engine.
    """

    TYPE: ClassVar[str] = "match"
    v: int = SCHEMA_VERSION
    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=FrozenMap, metadata=_OMIT)

    def __post_init__(self) -> None:
        if not _is_int(self.v):
            raise _fail("match.v", f"the schema version, the integer {SCHEMA_VERSION}", self.v)
        if self.v != SCHEMA_VERSION:
            raise ValueError(
                f"match.v {self.v} is not supported: this reader reads schema version {SCHEMA_VERSION} only"
            )
        _one_of("match.game", self.game, GAME_IDS)
        _set(
            self,
            "players",
            _texts("match.players", self.players, what="player names", distinct=True, nonempty=True),
        )
        if not isinstance(self.options, Mapping) or not all(isinstance(k, str) for k in self.options):
            raise _fail("match.options", "an object of game settings", self.options)
        _set(self, "options", freeze(self.options))

    @classmethod
    def from_fields(cls, f: Fields) -> Self:
        # ``v`` defaults in code (writers always mean the current version) but is required on a line.
        return cls(
            v=f.require("v"),
            game=f.require("game"),
            players=f.require("players"),
            options=f.optional("options", FrozenMap()),
        )


# --- camera events ---------------------------------------------------------------------------------------


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class ShotStart(JsonLine):
    """A ball was struck with the cue: the shot begins (billiards; ``ball`` is the cue ball or striker's)."""

    TYPE: ClassVar[str] = "shot_start"
    t: float = field(metadata=_SECONDS)
    frame: int | None = field(default=None, metadata=_OMIT)
    ball: str

    def __post_init__(self) -> None:
        self._check_when()
        _text(self._at("ball"), self.ball)


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class BallBall(JsonLine):
    """Two balls touched. ``balls[0]`` was moving into ``balls[1]``: first-contact rules depend on it."""

    TYPE: ClassVar[str] = "ball_ball"
    t: float = field(metadata=_SECONDS)
    frame: int | None = field(default=None, metadata=_OMIT)
    balls: tuple[str, str]

    def __post_init__(self) -> None:
        self._check_when()
        b = self.balls
        if (
            not isinstance(b, list | tuple)
            or len(b) != 2
            or not all(isinstance(x, str) and x for x in b)
            or b[0] == b[1]
        ):
            raise _fail(self._at("balls"), "a pair of two different ball ids [moving, hit]", b)
        _set(self, "balls", tuple(b))


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Cushion(JsonLine):
    """A ball hit a cushion (``side`` of the table frame in architecture.md)."""

    TYPE: ClassVar[str] = "cushion"
    t: float = field(metadata=_SECONDS)
    frame: int | None = field(default=None, metadata=_OMIT)
    ball: str
    side: str

    def __post_init__(self) -> None:
        self._check_when()
        _text(self._at("ball"), self.ball)
        _one_of(self._at("side"), self.side, CUSHION_SIDES)


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Pot(JsonLine):
    """A ball dropped into a pocket (line type ``pocket``; not ``tables.Pocket``, which is geometry)."""

    TYPE: ClassVar[str] = "pocket"
    t: float = field(metadata=_SECONDS)
    frame: int | None = field(default=None, metadata=_OMIT)
    ball: str
    pocket: str

    def __post_init__(self) -> None:
        self._check_when()
        _text(self._at("ball"), self.ball)
        _one_of(self._at("pocket"), self.pocket, POCKET_IDS)


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class OffTable(JsonLine):
    """A ball left the table other than into a pocket (jumped off): a foul in every game here."""

    TYPE: ClassVar[str] = "off_table"
    t: float = field(metadata=_SECONDS)
    frame: int | None = field(default=None, metadata=_OMIT)
    ball: str

    def __post_init__(self) -> None:
        self._check_when()
        _text(self._at("ball"), self.ball)


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class PinDown(JsonLine):
    """A five-pins pin fell; ``by`` is the ball that knocked it (scoring depends on which ball did)."""

    TYPE: ClassVar[str] = "pin_down"
    t: float = field(metadata=_SECONDS)
    frame: int | None = field(default=None, metadata=_OMIT)
    pin: str
    by: str

    def __post_init__(self) -> None:
        self._check_when()
        _text(self._at("pin"), self.pin)
        _text(self._at("by"), self.by)


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class ShotEnd(JsonLine):
    """All balls at rest: ``positions`` maps every ball still on the table to its centre ``(x_mm, y_mm)``."""

    TYPE: ClassVar[str] = "shot_end"
    t: float = field(metadata=_SECONDS)
    frame: int | None = field(default=None, metadata=_OMIT)
    positions: Mapping[str, tuple[float, float]] = field(metadata=_MM)

    def __post_init__(self) -> None:
        self._check_when()
        where = self._at("positions")
        if not isinstance(self.positions, Mapping):
            raise _fail(where, "an object {ball: [x_mm, y_mm]}", self.positions)
        out: dict[str, tuple[float, float]] = {}
        for ball, xy in self.positions.items():
            out[_text(f"{where} key", ball)] = _xy(f"{where}[{ball!r}]", xy)
        _set(self, "positions", FrozenMap(out))


# --- player input (no camera sees it; it arrives before the shot it belongs to) ---------------------------


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Declare(JsonLine):
    """The striker names the ball on (snooker colours; ``free_ball`` when nominating after a snooker)."""

    TYPE: ClassVar[str] = "declare"
    t: float | None = field(default=None, metadata=_OPT_SECONDS)
    player: str
    ball: str
    free_ball: bool = field(default=False, metadata=_OMIT)

    def __post_init__(self) -> None:
        self._check_when(t_required=False)
        _text(self._at("player"), self.player)
        _text(self._at("ball"), self.ball)
        _flag(self._at("free_ball"), self.free_ball)


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Call(JsonLine):
    """A called shot (14.1, pyramid): a ball, with its pocket where the game asks for one, or a safety."""

    TYPE: ClassVar[str] = "call"
    t: float | None = field(default=None, metadata=_OPT_SECONDS)
    player: str
    ball: str | None = field(default=None, metadata=_OMIT)
    pocket: str | None = field(default=None, metadata=_OMIT)
    safety: bool = field(default=False, metadata=_OMIT)

    def __post_init__(self) -> None:
        self._check_when(t_required=False)
        _text(self._at("player"), self.player)
        _opt_text(self._at("ball"), self.ball)
        if self.pocket is not None:
            _one_of(self._at("pocket"), self.pocket, POCKET_IDS)
        _flag(self._at("safety"), self.safety)
        if self.safety and (self.ball is not None or self.pocket is not None):
            raise ValueError("call: a safety call names no ball or pocket (got safety with a ball or pocket)")
        if not self.safety and self.ball is None:
            raise ValueError("call must name a ball (and pocket) or be a safety (got neither)")


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Choice(JsonLine):
    """The entitled player's choice after a foul or a lot (architecture.md spells out each option)."""

    TYPE: ClassVar[str] = "choice"
    t: float | None = field(default=None, metadata=_OPT_SECONDS)
    player: str
    option: str

    def __post_init__(self) -> None:
        self._check_when(t_required=False)
        _text(self._at("player"), self.player)
        _one_of(self._at("option"), self.option, CHOICE_OPTIONS)


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Concede(JsonLine):
    """A player concedes the frame or game."""

    TYPE: ClassVar[str] = "concede"
    t: float | None = field(default=None, metadata=_OPT_SECONDS)
    player: str

    def __post_init__(self) -> None:
        self._check_when(t_required=False)
        _text(self._at("player"), self.player)


# --- dice ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Die(Record):
    """One die of a roll: its tracked id and the face up. Checked by the ``Roll`` that holds it."""

    id: str
    value: int


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Roll(JsonLine):
    """A settled throw: every die on the table with its face, and which of them this throw moved."""

    TYPE: ClassVar[str] = "roll"
    t: float = field(metadata=_SECONDS)
    frame: int | None = field(default=None, metadata=_OMIT)
    player: str
    dice: tuple[Die, ...]
    thrown: tuple[str, ...]

    def __post_init__(self) -> None:
        self._check_when()
        _text(self._at("player"), self.player)
        where = self._at("dice")
        if not isinstance(self.dice, list | tuple) or not self.dice:
            raise _fail(where, "a non-empty list of dice {id, value}", self.dice)
        ids: list[str] = []
        for i, die in enumerate(self.dice):
            if not isinstance(die, Die):
                raise _fail(f"{where}[{i}]", "a die {id, value}", die)
            _text(f"{where}[{i}].id", die.id)
            if not _is_int(die.value) or die.value not in DIE_FACES:
                raise _fail(f"{where}[{i}].value", "an integer 1..6", die.value)
            if die.id in ids:
                raise ValueError(f"{where} must hold each die once (got {die.id!r} twice)")
            ids.append(die.id)
        _set(self, "dice", tuple(self.dice))
        thrown = _texts(self._at("thrown"), self.thrown, what="die ids", distinct=True, nonempty=True)
        for die_id in thrown:
            if die_id not in ids:
                raise ValueError(
                    f"{self._at('thrown')} must name dice of this roll ({', '.join(ids)}) (got {die_id!r})"
                )
        _set(self, "thrown", thrown)

    @classmethod
    def from_fields(cls, f: Fields) -> Self:
        f.require("dice")
        dice = tuple(Die(id=d.require("id"), value=d.require("value")) for d in f.children("dice"))
        return cls(
            t=f.require("t"),
            frame=f.optional("frame"),
            player=f.require("player"),
            dice=dice,
            thrown=f.require("thrown"),
        )


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Choose(JsonLine):
    """A player scores a throw in a category (yacht, chicago...); categories are listed per engine."""

    TYPE: ClassVar[str] = "choose"
    t: float | None = field(default=None, metadata=_OPT_SECONDS)
    player: str
    category: str

    def __post_init__(self) -> None:
        self._check_when(t_required=False)
        _text(self._at("player"), self.player)
        _text(self._at("category"), self.category)


# --- decisions -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Foul(Record):
    """What was wrong, the penalty it carries and the rule (``"snooker 3.12"``) that says so."""

    reason: str
    penalty: int
    rule: str


@dataclass(frozen=True, slots=True)
class Respot(Record):
    """A ball put back on the table, and where."""

    ball: str
    xy_mm: tuple[float, float] = field(metadata=_MM)


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Decision(JsonLine):
    """An engine's ruling on one shot (billiards) or one scored action (dice).

    ``foul``, ``points``, ``over`` and ``winner`` default to a legal, scoreless, unfinished step in code,
    but every required field is written, and required when read. ``on``, ``awaiting``, ``respot`` and
    ``notes`` are written only when given.
    """

    TYPE: ClassVar[str] = "decision"
    shot: int
    player: str
    foul: Foul | None = None
    points: Mapping[str, int] = field(default_factory=FrozenMap)
    score: Mapping[str, int]
    next: str | None
    on: str | None = field(default=None, metadata=_OMIT)
    over: bool = False
    winner: str | None = None
    awaiting: tuple[str, ...] = field(default=(), metadata=_OMIT)
    respot: tuple[Respot, ...] = field(default=(), metadata=_OMIT)
    notes: tuple[str, ...] = field(default=(), metadata=_OMIT)

    def __post_init__(self) -> None:
        _int("decision.shot", self.shot, minimum=0)
        _text("decision.player", self.player)
        if self.foul is not None:
            if not isinstance(self.foul, Foul):
                raise _fail("decision.foul", "null or a foul {reason, penalty, rule}", self.foul)
            _text("decision.foul.reason", self.foul.reason)
            _int("decision.foul.penalty", self.foul.penalty)
            _text("decision.foul.rule", self.foul.rule)
        _set(self, "points", _int_map("decision.points", self.points))
        _set(self, "score", _int_map("decision.score", self.score))
        _opt_text("decision.next", self.next)
        _opt_text("decision.on", self.on)
        _flag("decision.over", self.over)
        _opt_text("decision.winner", self.winner)
        if self.winner is not None and not self.over:
            raise _fail("decision.winner", "null while the match is not over", self.winner)
        _set(
            self,
            "awaiting",
            _texts("decision.awaiting", self.awaiting, what="input types", distinct=False, nonempty=False),
        )
        if not isinstance(self.respot, list | tuple):
            raise _fail("decision.respot", "a list of {ball, xy_mm}", self.respot)
        respot: list[Respot] = []
        for i, r in enumerate(self.respot):
            if not isinstance(r, Respot):
                raise _fail(f"decision.respot[{i}]", "a respot {ball, xy_mm}", r)
            respot.append(
                Respot(
                    _text(f"decision.respot[{i}].ball", r.ball), _xy(f"decision.respot[{i}].xy_mm", r.xy_mm)
                )
            )
        _set(self, "respot", tuple(respot))
        _set(self, "notes", _notes("decision.notes", self.notes))

    @classmethod
    def from_fields(cls, f: Fields) -> Self:
        for key in ("shot", "player", "foul", "points", "score", "next", "over", "winner"):
            f.require(key)
        foul_f = f.child("foul")
        foul = None
        if foul_f is not None:
            foul = Foul(
                reason=foul_f.require("reason"),
                penalty=foul_f.require("penalty"),
                rule=foul_f.require("rule"),
            )
        respot = tuple(Respot(ball=r.require("ball"), xy_mm=r.require("xy_mm")) for r in f.children("respot"))
        return cls(
            shot=f.require("shot"),
            player=f.require("player"),
            foul=foul,
            points=f.require("points"),
            score=f.require("score"),
            next=f.require("next"),
            on=f.optional("on"),
            over=f.require("over"),
            winner=f.require("winner"),
            awaiting=f.optional("awaiting", ()),
            respot=respot,
            notes=f.optional("notes", ()),
        )

    def player_refs(self) -> Iterator[tuple[str, str]]:
        yield "decision.player", self.player
        for name in ("next", "winner"):
            value = getattr(self, name)
            if value is not None:
                yield f"decision.{name}", value
        for name in ("points", "score"):
            for key in getattr(self, name):
                yield f"decision.{name} key", key


Event: TypeAlias = (
    ShotStart | BallBall | Cushion | Pot | OffTable | PinDown | ShotEnd
    | Declare | Call | Choice | Concede | Roll | Choose
)  # fmt: skip
"""The built-in events of a stream (not the header, not decisions); games may register more."""


# --- reading ---------------------------------------------------------------------------------------------


def _json_kind(value: Any) -> str:
    for py, name in ((bool, "a boolean"), (list, "a list"), (str, "a string"), (int | float, "a number")):
        if isinstance(value, py):
            return name
    return "null"


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise ContractError(None, f"duplicate key {key!r}; each field may appear once")
        obj[key] = value
    return obj


def _constant(name: str) -> Any:
    raise ContractError(None, f"{name} is not a number in JSON; every number must be finite")


def parse_line(text: str, line_no: int | None = None) -> JsonLine:
    """One line of the stream as its value type; anything unusable raises ``ContractError(line_no, ...)``.

    Checks the line alone; the rules of a whole stream (header first, time order) are ``iter_stream``'s.
    """
    try:
        obj = json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant)
    except json.JSONDecodeError as e:
        raise ContractError(line_no, f"not valid JSON ({e.msg} at column {e.colno})") from None
    except ContractError as e:
        raise e.at(line_no) from None
    if not isinstance(obj, dict):
        raise ContractError(line_no, f'expected a JSON object {{"type": ...}} (got {_json_kind(obj)})')
    if "type" not in obj:
        raise ContractError(line_no, 'missing "type"; every line is an object such as {"type":"cushion",...}')
    type_name = obj["type"]
    if not isinstance(type_name, str):
        raise ContractError(line_no, f'"type" must be a string naming the line type (got {_show(type_name)})')
    cls = _REGISTRY.get(type_name)
    if cls is None:
        known = ", ".join(sorted(_REGISTRY))
        raise ContractError(line_no, f"unknown line type {type_name!r}; known types: {known}")
    try:
        return cls.from_fields(Fields(obj, type_name))
    except ContractError as e:
        raise e.at(line_no) from None
    except ValueError as e:
        raise ContractError(line_no, str(e)) from None


def from_json(text: str) -> JsonLine:
    """``parse_line`` without a line number: for one value on its own (a message, a test)."""
    return parse_line(text)


def _numbered(source: str | os.PathLike[str] | Iterable[str]) -> Iterator[tuple[int, str]]:
    """Non-blank lines with their 1-based numbers in the file. A ``str`` is a path, never JSON text."""
    if isinstance(source, str) and source.lstrip().startswith("{"):
        raise TypeError("a str is read as a path; pass JSON text as lines (text.splitlines())")
    if isinstance(source, str | os.PathLike):
        with open(source, encoding="utf-8-sig") as fh:
            yield from _numbered(fh)
        return
    for line_no, line in enumerate(source, start=1):
        if line.strip():
            yield line_no, line


def read_events(source: str | os.PathLike[str] | Iterable[str]) -> Iterator[JsonLine]:
    """Every line of a file (path) or of an iterable of lines, parsed one at a time. Blank lines are skipped.

    Checks each line alone; use ``iter_stream`` for a match stream.
    """
    for line_no, line in _numbered(source):
        yield parse_line(line, line_no)


def iter_stream(source: str | os.PathLike[str] | Iterable[str]) -> Iterator[JsonLine]:
    """A match stream, lazily: the ``Match`` header first, then each event or decision (``iter_numbered``)."""
    for _, item in iter_numbered(source):
        yield item


def iter_numbered(source: str | os.PathLike[str] | Iterable[str]) -> Iterator[tuple[int, JsonLine]]:
    """A match stream, lazily, each line with its 1-based number in the file: the ``Match`` header first.

    Lazy so that a referee can act on every line before a bad one and then stop with its line number.
    Beyond ``parse_line``: the first line must be the header and no other may be; every timed line's ``t``
    must not be before the previous one's; every player named must be one of the header's.
    """
    header: Match | None = None
    header_line = 0
    last_t: float | None = None
    last_t_line = 0
    for line_no, line in _numbered(source):
        item = parse_line(line, line_no)
        if header is None:
            if not isinstance(item, Match):
                raise ContractError(
                    line_no,
                    f'the first line must be the match header {{"type":"match","v":1,...}} '
                    f"(got a {item.TYPE!r} line)",
                )
            header, header_line = item, line_no
        elif isinstance(item, Match):
            raise ContractError(
                line_no, f"a second match header; a stream holds one match, its header is line {header_line}"
            )
        else:
            for where, name in item.player_refs():
                if name not in header.players:
                    players = ", ".join(header.players)
                    raise ContractError(
                        line_no, f"{where} {name!r} is not a player of this match ({players})"
                    )
            t = getattr(item, "t", None)
            if t is not None:
                if last_t is not None and t < last_t:
                    raise ContractError(
                        line_no,
                        f"time goes backwards: t={t} is before t={last_t} of line {last_t_line}; "
                        "lines must be in time order",
                    )
                last_t, last_t_line = t, line_no
        yield line_no, item
    if header is None:
        raise ContractError(None, "the stream is empty; its first line must be a match header")


def read_stream(source: str | os.PathLike[str] | Iterable[str]) -> tuple[Match, list[JsonLine]]:
    """A whole match stream: its header and every line after it, with ``iter_stream``'s checks."""
    header, *rest = iter_stream(source)  # a Match first, or iter_stream raises
    return header, rest  # type: ignore[return-value]


# --- writing ---------------------------------------------------------------------------------------------


def to_json(obj: JsonLine) -> str:
    """One compact line, keys in architecture.md order, floats rounded (``TIME_PLACES``, ``MM_PLACES``).

    Non-ASCII names stay readable; U+2028/U+2029 are escaped so that no line splitter breaks a line.
    """
    text = json.dumps(obj.to_obj(), separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def append_event(fileobj: IO[str], obj: JsonLine) -> None:
    """Write one line and flush, so a crash loses nothing already seen (architecture.md, Record)."""
    fileobj.write(to_json(obj) + "\n")
    fileobj.flush()


def write_events(path: str | os.PathLike[str], objs: Iterable[JsonLine]) -> int:
    """Write ``objs`` to ``path`` (replacing it) as JSON Lines in UTF-8; returns how many lines."""
    n = 0
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for obj in objs:
            fh.write(to_json(obj) + "\n")
            n += 1
    return n


__all__ = [
    "CHOICE_OPTIONS",
    "DICE_GAMES",
    "GAME_IDS",
    "MM_PLACES",
    "OMIT_EMPTY",
    "OPTIONAL_SECONDS",
    "PITCH_GAMES",
    "SCHEMA_VERSION",
    "TIME_PLACES",
    "BallBall",
    "Call",
    "Choice",
    "Choose",
    "Concede",
    "ContractError",
    "Cushion",
    "Decision",
    "Declare",
    "Die",
    "Event",
    "Fields",
    "Foul",
    "FrozenMap",
    "JsonLine",
    "Match",
    "OffTable",
    "PinDown",
    "Pot",
    "Record",
    "Respot",
    "Roll",
    "ShotEnd",
    "ShotStart",
    "append_event",
    "freeze",
    "from_json",
    "iter_numbered",
    "iter_stream",
    "line_types",
    "parse_line",
    "read_events",
    "read_stream",
    "register_event",
    "to_json",
    "write_events",
]
