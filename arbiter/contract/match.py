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
from arbiter.games import GAME_IDS


@dataclass(frozen=True, slots=True, kw_only=True)
class Match(JsonLine):
    """The header, first line of every stream: which game, who plays (in turn order), its settings.

    ``options`` holds JSON values frozen (objects as ``FrozenMap``, lists as tuples), documented per engine.
    """

    TYPE: ClassVar[str] = "match"
    v: int = SCHEMA_VERSION
    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=FrozenMap, metadata=OMIT_EMPTY)

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

    @classmethod
    def from_fields(cls, f: Fields) -> Self:
        # ``v`` defaults in code (writers always mean the current version) but is required on a line.
        return cls(
            v=f.require("v"),
            game=f.require("game"),
            players=f.require("players"),
            options=f.optional("options", FrozenMap()),
        )
