"""The match header: the first line of every stream (which game, who plays, its settings)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from arbiter.contract.fields import (
    OMIT_EMPTY,
    SCHEMA_VERSION,
    Fields,
    FrozenMap,
    JsonLine,
    check_one_of,
    check_texts,
    fail,
    freeze,
    is_int,
    set_field,
)
from arbiter.games import GAME_IDS, GAMES, BilliardsSpec


@dataclass(frozen=True, slots=True, kw_only=True)
class Match(JsonLine):
    """The header, first line of every stream: which game, who plays (in turn order), its settings.

    ``options`` holds JSON values frozen (objects as ``FrozenMap``, lists as tuples), documented per engine.
    ``table`` is the size of billiard table played on, a name of the game's catalogue (``"6ft"``,
    ``arbiter.tables``): every geometry the rules use (spots, the D, lines, the rack, pockets) is that
    table's. Absent (None), the game's standard table, so a header written before sizes were known
    referees exactly as it did.
    """

    TYPE: ClassVar[str] = "match"
    v: int = SCHEMA_VERSION
    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=FrozenMap, metadata=OMIT_EMPTY)
    table: str | None = field(default=None, metadata=OMIT_EMPTY)

    def __post_init__(self) -> None:
        if not is_int(self.v):
            raise fail("match.v", f"the schema version, the integer {SCHEMA_VERSION}", self.v)
        if self.v != SCHEMA_VERSION:
            raise ValueError(
                f"match.v {self.v} is not supported: this reader reads schema version {SCHEMA_VERSION} only"
            )
        check_one_of("match.game", self.game, GAME_IDS)
        set_field(
            self,
            "players",
            check_texts("match.players", self.players, what="player names", distinct=True, nonempty=True),
        )
        if not isinstance(self.options, Mapping) or not all(isinstance(k, str) for k in self.options):
            raise fail("match.options", "an object of game settings", self.options)
        set_field(self, "options", freeze(self.options))
        self._check_table()

    def _check_table(self) -> None:
        """A size the game is played on: a catalogue name of a billiards game's table, or a table of its own
        size named by its playing area ("1785x822": ``arbiter.tables.own_size``, what ``--table`` takes and
        what the calibration names a table no catalogue size fits), or nothing."""
        if self.table is None:
            return
        spec = GAMES[self.game]
        if not isinstance(spec, BilliardsSpec):
            raise fail("match.table", f"absent: {self.game} is not played on a billiard table", self.table)
        if not isinstance(self.table, str):
            check_one_of("match.table", self.table, (s.name for s in spec.table.sizes))
        try:
            spec.table.table_size(self.table)
        except ValueError as exc:
            raise fail("match.table", f"a size the game is played on ({exc})", self.table) from None

    @classmethod
    def from_fields(cls, f: Fields) -> Self:
        # ``v`` defaults in code (writers always mean the current version) but is required on a line.
        return cls(
            v=f.require("v"),
            game=f.require("game"),
            players=f.require("players"),
            options=f.optional("options", FrozenMap()),
            table=f.optional("table"),
        )
