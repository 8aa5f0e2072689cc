"""Reading and writing a stream: one JSON object per line, checked line by line and as a whole.

``parse_line`` turns one line of text into its value type (``LINE_TYPES`` says which) and reports anything
wrong as ``ContractError`` with the line number; ``iter_numbered`` / ``read_stream`` add the rules of a whole
stream (a header first and only there, times that never go backwards, players from the header). Writing is
one compact line per value (``to_json``), flushed as it goes (``append_event``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import IO, Any, TypeAlias

from arbiter.contract.billiards import (
    BallBall,
    Call,
    Choice,
    Concede,
    Cushion,
    Declare,
    OffTable,
    PinDown,
    Pot,
    ShotEnd,
    ShotStart,
)
from arbiter.contract.decision import Decision
from arbiter.contract.dice import Bet, Challenge, Choose, Claim, Operation, Roll, Stop
from arbiter.contract.fields import ContractError, Fields, JsonLine, show
from arbiter.contract.match import Match
from arbiter.contract.team import (
    BallOut,
    FoulLine,
    Goal,
    KickAtGoal,
    Kickoff,
    Restart,
    Substitution,
    Timeout,
    Try,
    Whistle,
)

Event: TypeAlias = (
    ShotStart | BallBall | Cushion | Pot | OffTable | PinDown | ShotEnd
    | Declare | Call | Choice | Concede | Roll | Choose | Stop | Claim | Challenge | Bet | Operation
    | Kickoff | BallOut | Restart | Goal | Try | FoulLine | Timeout | Substitution | Whistle | KickAtGoal
)  # fmt: skip
"""Every event of a stream (not the header, not decisions)."""

_ALL_LINES: tuple[type[JsonLine], ...] = (
    Match, ShotStart, BallBall, Cushion, Pot, OffTable, PinDown, ShotEnd, Declare, Call, Choice, Concede,
    Roll, Choose, Stop, Claim, Challenge, Bet, Operation, Kickoff, BallOut, Restart, Goal, Try, FoulLine,
    Timeout, Substitution, Whistle, KickAtGoal, Decision,
)  # fmt: skip
LINE_TYPES: Mapping[str, type[JsonLine]] = MappingProxyType({cls.TYPE: cls for cls in _ALL_LINES})
"""Line type name -> its value type: every line a stream may hold."""


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
        raise ContractError(line_no, f'"type" must be a string naming the line type (got {show(type_name)})')
    cls = LINE_TYPES.get(type_name)
    if cls is None:
        known = ", ".join(sorted(LINE_TYPES))
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
