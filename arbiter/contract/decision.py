"""Decisions: an engine's ruling on a shot (billiards), a scored action (dice) or a passage of play.

One line type for every game. The team sports add optional fields (``call``, ``law``, ``restart``,
``clock``, ``period``, ``fouls``, ``on_court``, ``shootout``), written only when set, so a billiards or dice
decision is written exactly as before and every reader of those keeps working.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Self

from arbiter.contract.fields import (
    MILLIMETRES,
    OMIT_EMPTY,
    OPTIONAL_SECONDS,
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
    check_time,
    check_xy,
    fail,
    set_field,
)
from arbiter.contract.team import TEAM_CALLS, RestartDue, check_restart_due


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
    """An engine's ruling on one shot (billiards), one scored action (dice) or one passage of play (team).

    ``foul``, ``points``, ``over`` and ``winner`` default to a legal, scoreless, unfinished step in code,
    but every required field is written, and required when read. ``on``, ``awaiting``, ``respot`` and
    ``notes`` are written only when given, and so are the team sports' fields after them: ``call`` (what was
    ruled, one of ``TeamCall``), ``law`` (the law applied, by its number), ``restart`` (the restart due),
    ``clock`` (seconds of playing time elapsed in the period), ``period`` (1, 2, then extra periods),
    ``fouls`` (accumulated fouls this period, per team), ``on_court`` (players each team may have on the
    ground now) and ``shootout`` (goals in the kicks from the penalty mark).
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
    call: str | None = field(default=None, metadata=OMIT_EMPTY)
    law: str | None = field(default=None, metadata=OMIT_EMPTY)
    restart: RestartDue | None = field(default=None, metadata=OMIT_EMPTY)
    clock: float | None = field(default=None, metadata=OPTIONAL_SECONDS)
    period: int | None = field(default=None, metadata=OMIT_EMPTY)
    fouls: Mapping[str, int] = field(default_factory=FrozenMap, metadata=OMIT_EMPTY)
    on_court: Mapping[str, int] = field(default_factory=FrozenMap, metadata=OMIT_EMPTY)
    shootout: Mapping[str, int] = field(default_factory=FrozenMap, metadata=OMIT_EMPTY)

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
        set_field(self, "respot", _checked_respot(self.respot))
        set_field(self, "notes", check_notes("decision.notes", self.notes))
        self._check_team_fields()

    def _check_team_fields(self) -> None:
        if self.call is not None and self.call not in TEAM_CALLS:
            raise fail("decision.call", f"one of {', '.join(TEAM_CALLS)}", self.call)
        check_opt_text("decision.law", self.law)
        if self.restart is not None:
            set_field(self, "restart", check_restart_due("decision.restart", self.restart))
        set_field(self, "clock", check_time("decision.clock", self.clock, optional=True))
        if self.period is not None:
            check_int("decision.period", self.period, minimum=0)
        for name in ("fouls", "on_court", "shootout"):
            set_field(self, name, check_int_map(f"decision.{name}", getattr(self, name)))

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
        restart_f = f.child("restart")
        restart = None
        if restart_f is not None:
            kind, team = restart_f.require("kind"), restart_f.require("team")
            restart = RestartDue(kind=kind, team=team, xy_m=restart_f.optional("xy_m"))
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
            call=f.optional("call"),
            law=f.optional("law"),
            restart=restart,
            clock=f.optional("clock"),
            period=f.optional("period"),
            fouls=f.optional("fouls", FrozenMap()),
            on_court=f.optional("on_court", FrozenMap()),
            shootout=f.optional("shootout", FrozenMap()),
        )

    def player_refs(self) -> Iterator[tuple[str, str]]:
        yield "decision.player", self.player
        for name in ("next", "winner"):
            value = getattr(self, name)
            if value is not None:
                yield f"decision.{name}", value
        if self.restart is not None and self.restart.team is not None:
            yield "decision.restart.team", self.restart.team
        for name in ("points", "score", "fouls", "on_court", "shootout"):
            for key in getattr(self, name):
                yield f"decision.{name} key", key


def _checked_respot(value: object) -> tuple[Respot, ...]:
    if not isinstance(value, list | tuple):
        raise fail("decision.respot", "a list of {ball, xy_mm}", value)
    respot: list[Respot] = []
    for i, r in enumerate(value):
        if not isinstance(r, Respot):
            raise fail(f"decision.respot[{i}]", "a respot {ball, xy_mm}", r)
        respot.append(
            Respot(
                check_text(f"decision.respot[{i}].ball", r.ball),
                check_xy(f"decision.respot[{i}].xy_mm", r.xy_mm),
            )
        )
    return tuple(respot)
