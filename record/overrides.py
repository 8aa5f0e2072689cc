"""Referee overrides: corrections to a recorded event stream, and the decisions recomputed after them.

A camera misses a contact, calls a kiss that never happened or a pocket that was the other one; a player
forgot to nominate. The referee corrects the stream and every decision after the correction follows from
the corrected stream, through the same engines as ``arbiter referee`` (``adjudication.referee``).

The original lines are never changed: an override is a separate value, kept beside them (the record stores
both), and ``apply`` replays the overrides over the original lines in the order they were made. Each override
addresses a line by its 1-based number in the stream as it stood when the override was made, after every
earlier override; the header is line 1, as in ``RefereeError`` messages. Lines that arrive later (a live run
still appending) go after every line an earlier override could address, so numbers made earlier stay right.

```python
Override("delete", 7)                                   # line 7 was no contact
Override("replace", 9, '{"type":"pocket","t":2.3,"ball":"red:4","pocket":"tl"}')
Override("insert", 5, '{"type":"declare","player":"A","ball":"blue"}')   # before line 5
```
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from adjudication.engine import Engine
from adjudication.referee import Refereed, RefereeError, referee
from arbiter.contract import ContractError, Decision, JsonLine, Match, parse_line, to_json

OPS: tuple[str, ...] = ("delete", "replace", "insert")
HEADER_LINE = 1


class OverrideError(ValueError):
    """An override that cannot apply to the stream it is given (a line number past its end, the header)."""


@dataclass(frozen=True)
class Override:
    """One correction: ``op`` (``delete``, ``replace``, ``insert``) at line ``at`` (1-based, header = 1).

    ``insert`` puts ``line`` before line ``at`` (``at`` = number of lines + 1 appends); ``replace`` puts it
    in place of line ``at``. ``line`` is one line of the contract, checked when the override is built.
    ``reason`` is the referee's own words, kept in the record.
    """

    op: str
    at: int
    line: str | None = None
    reason: str = ""
    parsed: JsonLine | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise ValueError(f"override op must be one of {', '.join(OPS)} (got {self.op!r})")
        if not isinstance(self.at, int) or isinstance(self.at, bool) or self.at < HEADER_LINE:
            raise ValueError(f"override line number must be an integer >= 1 (got {self.at!r})")
        if self.op == "delete":
            if self.line is not None:
                raise ValueError("a delete override takes no new line")
            if self.at == HEADER_LINE:
                raise ValueError("the match header (line 1) cannot be deleted; replace it instead")
            return
        if not isinstance(self.line, str) or not self.line.strip():
            raise ValueError(f"a {self.op} override needs the new line (one JSON object of the contract)")
        try:
            parsed = parse_line(self.line.strip())
        except ContractError as exc:
            raise ValueError(f"the new line is not a line of the contract: {exc.message}") from None
        if isinstance(parsed, Decision):
            raise ValueError("decisions are not corrected by hand: correct the events and they follow")
        if self.op == "insert" and self.at == HEADER_LINE:
            raise ValueError("nothing goes before the match header (line 1)")
        if self.at == HEADER_LINE and not isinstance(parsed, Match):
            raise ValueError("line 1 is the match header: it can only be replaced by another match header")
        if self.at != HEADER_LINE and isinstance(parsed, Match):
            raise ValueError("a match header can only be line 1")
        # One compact form, so that a stored override reads back equal to the one made.
        object.__setattr__(self, "line", to_json(parsed))
        object.__setattr__(self, "parsed", parsed)

    def to_obj(self) -> dict[str, Any]:
        obj: dict[str, Any] = {"op": self.op, "at": self.at}
        if self.line is not None:
            obj["line"] = json.loads(self.line)
        if self.reason:
            obj["reason"] = self.reason
        return obj

    def to_json(self) -> str:
        return json.dumps(self.to_obj(), separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_obj(cls, obj: Mapping[str, Any]) -> Override:
        line = obj.get("line")
        if isinstance(line, Mapping):
            line = json.dumps(line, separators=(",", ":"), ensure_ascii=False)
        return cls(op=obj.get("op", ""), at=obj.get("at", 0), line=line, reason=obj.get("reason", "") or "")

    @classmethod
    def from_json(cls, text: str) -> Override:
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"an override must be a JSON object ({exc.msg})") from None
        if not isinstance(obj, Mapping):
            raise ValueError('an override must be a JSON object {"op": ..., "at": ...}')
        return cls.from_obj(obj)

    def describe(self) -> str:
        """One line in words, for the record's history of corrections."""
        why = f" ({self.reason})" if self.reason else ""
        if self.op == "delete":
            return f"delete line {self.at}{why}"
        where = "before" if self.op == "insert" else "at"
        return f"{self.op} {where} line {self.at}: {self.line}{why}"


def _clean(lines: Iterable[str]) -> list[str]:
    return [line.strip() for line in lines if line.strip()]


def apply(lines: Iterable[str], overrides: Iterable[Override]) -> list[str]:
    """The corrected stream: ``overrides`` replayed in order over the original ``lines`` (blank lines
    dropped, so line numbers are list positions + 1). ``OverrideError`` names the first that cannot apply."""
    return [line for line, _ in trace(lines, overrides)]


def trace(lines: Iterable[str], overrides: Iterable[Override]) -> list[tuple[str, bool]]:
    """``apply``, each line paired with whether an override put it there (inserted or replaced)."""
    out = [(line, False) for line in _clean(lines)]
    for k, o in enumerate(overrides, start=1):
        n = len(out)
        last = n + 1 if o.op == "insert" else n
        if o.at > last:
            raise OverrideError(
                f"override {k} ({o.op} at line {o.at}) is past the end of the stream ({n} lines)"
            )
        if o.op == "delete":
            del out[o.at - 1]
        elif o.op == "replace":
            out[o.at - 1] = (o.line or "", True)
        else:
            out.insert(o.at - 1, (o.line or "", True))
    return out


@dataclass(frozen=True)
class Recomputed:
    """A stream refereed from its header: every step, and where it stopped if a line could not be used."""

    lines: tuple[str, ...]
    steps: tuple[Refereed, ...]
    error: RefereeError | None = None

    @property
    def state(self) -> Any:
        """The engine's state after the last line it used (None before any)."""
        return self.steps[-1].state if self.steps else None

    @property
    def decisions(self) -> list[Decision]:
        return [d for step in self.steps for d in step.decisions]

    def decisions_by_line(self) -> dict[int, tuple[Decision, ...]]:
        return {s.line_no: s.decisions for s in self.steps if s.decisions}


def referee_lines(lines: Sequence[str], engine: Engine | None = None) -> Recomputed:
    """Referee ``lines`` (header first) as far as they go; a line the rules cannot use ends it with
    ``error`` set, keeping every step before it. A stream with no header at all raises ``RefereeError``."""
    lines = tuple(_clean(lines))
    steps: list[Refereed] = []
    try:
        for step in referee(lines, engine):
            steps.append(step)
    except RefereeError as exc:
        if exc.line_no in (None, HEADER_LINE) and not steps:
            raise
        return Recomputed(lines, tuple(steps), exc)
    return Recomputed(lines, tuple(steps))


def recompute(
    lines: Iterable[str], overrides: Iterable[Override] = (), engine: Engine | None = None
) -> Recomputed:
    """Apply ``overrides`` to the original ``lines`` and referee the corrected stream from its header."""
    return referee_lines(apply(lines, overrides), engine)


def check(lines: Iterable[str], overrides: Sequence[Override], engine: Engine | None = None) -> Recomputed:
    """``recompute`` with the last of ``overrides`` just made, refusing it (``OverrideError``) when it makes
    the rules stop on a stream they refereed to the end before: the referee is told at once that the corrected
    line, or a later one, cannot be used. A stream that already stopped may be corrected step by step."""
    lines = _clean(lines)
    after = recompute(lines, overrides, engine)
    if after.error is not None and overrides and recompute(lines, overrides[:-1], engine).error is None:
        raise OverrideError(f"after this correction the rules stop at {after.error}")
    return after


def changes(before: Recomputed, after: Recomputed) -> Iterator[tuple[int, Decision | None, Decision | None]]:
    """Decisions that differ between two refereed streams, by their order: ``(index, before, after)``;
    None where one stream has fewer decisions."""
    old, new = before.decisions, after.decisions
    for i in range(max(len(old), len(new))):
        a = old[i] if i < len(old) else None
        b = new[i] if i < len(new) else None
        if a != b:
            yield i, a, b


__all__ = [
    "OPS",
    "Override",
    "OverrideError",
    "Recomputed",
    "apply",
    "changes",
    "check",
    "recompute",
    "referee_lines",
    "trace",
]
