"""Decisions: an engine's ruling on a shot (billiards), a scored action (dice) or a passage of play."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Self

from arbiter.contract.fields import (
    MILLIMETRES,
    OMIT_EMPTY,
    Fields,
    FrozenMap,
    JsonLine,
    Record,
    check_flag,
    check_int,
    check_int_map,
    check_notes,
    check_opt_text,
    check_text,
    check_texts,
    check_xy,
    fail,
    set_field,
)


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
    xy_mm: tuple[float, float] = field(metadata=MILLIMETRES)


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
    on: str | None = field(default=None, metadata=OMIT_EMPTY)
    over: bool = False
    winner: str | None = None
    awaiting: tuple[str, ...] = field(default=(), metadata=OMIT_EMPTY)
    respot: tuple[Respot, ...] = field(default=(), metadata=OMIT_EMPTY)
    notes: tuple[str, ...] = field(default=(), metadata=OMIT_EMPTY)

    def __post_init__(self) -> None:
        check_int("decision.shot", self.shot, minimum=0)
        check_text("decision.player", self.player)
        if self.foul is not None:
            if not isinstance(self.foul, Foul):
                raise fail("decision.foul", "null or a foul {reason, penalty, rule}", self.foul)
            check_text("decision.foul.reason", self.foul.reason)
            check_int("decision.foul.penalty", self.foul.penalty)
            check_text("decision.foul.rule", self.foul.rule)
        set_field(self, "points", check_int_map("decision.points", self.points))
        set_field(self, "score", check_int_map("decision.score", self.score))
        check_opt_text("decision.next", self.next)
        check_opt_text("decision.on", self.on)
        check_flag("decision.over", self.over)
        check_opt_text("decision.winner", self.winner)
        if self.winner is not None and not self.over:
            raise fail("decision.winner", "null while the match is not over", self.winner)
        set_field(
            self,
            "awaiting",
            check_texts(
                "decision.awaiting", self.awaiting, what="input types", distinct=False, nonempty=False
            ),
        )
        if not isinstance(self.respot, list | tuple):
            raise fail("decision.respot", "a list of {ball, xy_mm}", self.respot)
        respot: list[Respot] = []
        for i, r in enumerate(self.respot):
            if not isinstance(r, Respot):
                raise fail(f"decision.respot[{i}]", "a respot {ball, xy_mm}", r)
            respot.append(
                Respot(
                    check_text(f"decision.respot[{i}].ball", r.ball),
                    check_xy(f"decision.respot[{i}].xy_mm", r.xy_mm),
                )
            )
        set_field(self, "respot", tuple(respot))
        set_field(self, "notes", check_notes("decision.notes", self.notes))

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
