"""Team-sport lines (futsal, rugby-5, rugby-7): what a court camera sees and what a timekeeper enters.

```json
{"type":"kickoff","t":0.0,"team":"Home"}
{"type":"ball_out","t":12.4,"line":"touch","xy_m":[0.0,13.2],"last":"Away"}
{"type":"restart","t":15.0,"team":"Home","kind":"kick_in","xy_m":[0.0,13.2]}
{"type":"foul","t":40.2,"team":"Away","player":"Away:4","kind":"direct","xy_m":[10.5,31.0],"card":"yellow"}
{"type":"goal","t":61.0,"team":"Home","by":"Home:9"}
{"type":"timeout","t":70.2,"team":"Away"}
{"type":"substitution","t":80.0,"team":"Home","out":"Home:3","in":"Home:12"}
{"type":"whistle","t":1330.0,"reason":"period_end"}
{"type":"try","t":200.1,"team":"Home","xy_m":[20.0,55.0]}
{"type":"kick_at_goal","t":230.0,"team":"Home","kind":"conversion","good":true}
```

Teams are the header's two ``players``; a player is ``TEAM:number`` (``Home:7``), and ``player_refs`` names
a player by its team, so the stream reader checks every team a line mentions against the header. ``t`` is
required on every line here: the playing clock is computed from it. Ground positions ``xy_m`` are metres in
the frame of docs/architecture.md ("Team sports"), written to the centimetre (``M_PLACES``).

Beyond the lines architecture.md first listed, all optional, so every line it shows reads unchanged:
``kickoff.defends_y0`` (who defends the goal at y = 0 from this kick-off on: only extra time needs it);
``ball_out.line`` ``ceiling`` (futsal Law 10); ``restart.kind`` ``lineout`` and ``drop_out`` (rugby);
``restart.ready_t`` (when the taker had the ball ready: futsal's four seconds count from there);
``goal.direct`` (straight in from the last restart, touching no other player); ``foul.kind``
``misconduct`` (a card with no foul on the ball), ``foul.advantage`` (play went on; the foul still counts),
``foul.bench`` (the offender is a substitute); ``whistle.xy_m`` (where the ball was: a dropped ball's place);
``substitution.out`` null (a player joins a team that was playing short).

``RestartDue`` and ``TeamCall`` are what a team-sport ``Decision`` carries in its ``restart`` and ``call``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Self

from arbiter.contract.fields import (
    METRES,
    OMIT_EMPTY,
    OPTIONAL_METRES,
    OPTIONAL_SECONDS,
    SECONDS,
    Fields,
    JsonLine,
    Record,
    check_flag,
    check_one_of,
    check_opt_xy,
    check_time,
    check_xy,
    fail,
    set_field,
)
from arbiter.games import FUTSAL_RESTARTS as FUTSAL_RESTARTS  # the registry's: the desk offers the same
from arbiter.games import RUGBY_RESTARTS as RUGBY_RESTARTS

OUT_LINES: tuple[str, ...] = ("touch", "goal", "ceiling")
RESTART_KINDS: tuple[str, ...] = tuple(dict.fromkeys(FUTSAL_RESTARTS + RUGBY_RESTARTS))
FOUL_KINDS: tuple[str, ...] = ("direct", "indirect", "handling", "four_seconds", "distance", "misconduct")
CARDS: tuple[str, ...] = ("yellow", "red")
KICK_KINDS: tuple[str, ...] = ("conversion", "penalty", "drop")
WHISTLE_REASONS: tuple[str, ...] = ("period_end", "stoppage", "injury")

_PLAYER = re.compile(r"^(?P<team>.+):(?P<number>[1-9][0-9]*)$")


class TeamCall(StrEnum):
    """What a team-sport decision rules (``decision.call``): the desk shows and sorts by it."""

    PERIOD_START = "period_start"
    PERIOD_END = "period_end"
    TIME_ADDED = "time_added"  # the period goes on for a penalty or sixth-foul kick
    MATCH_END = "match_end"
    ABANDONED = "abandoned"
    RESTART = "restart"  # the ball went out of play: the restart it gives
    STOPPAGE = "stoppage"
    RETAKE = "retake"
    GOAL = "goal"
    GOAL_DISALLOWED = "goal_disallowed"
    FOUL = "foul"
    SIXTH_FOUL = "sixth_foul"  # futsal: the sixth and later accumulated foul of a period, no wall
    PENALTY = "penalty"
    CAUTION = "caution"
    SEND_OFF = "send_off"
    MISCONDUCT = "misconduct"
    FOUR_SECONDS = "four_seconds"
    TIMEOUT = "timeout"
    TIMEOUT_REFUSED = "timeout_refused"
    SUBSTITUTION_REFUSED = "substitution_refused"
    SHOOTOUT_KICK = "shootout_kick"
    TRY = "try"
    CONVERSION = "conversion"
    PENALTY_GOAL = "penalty_goal"
    DROP_GOAL = "drop_goal"
    KICK_MISSED = "kick_missed"


TEAM_CALLS: tuple[str, ...] = tuple(TeamCall)


@dataclass(frozen=True, slots=True)
class RestartDue(Record):
    """The restart a decision gives: its kind, the team that takes it (None: a dropped ball, which either
    team may play) and its place where the law fixes one."""

    kind: str
    team: str | None
    xy_m: tuple[float, float] | None = field(default=None, metadata=OPTIONAL_METRES)


def player_team(player: str) -> str:
    """The team part of a player id ``TEAM:number``."""
    return player.rsplit(":", 1)[0]


def check_team(where: str, v: Any) -> str:
    if not isinstance(v, str) or not v:
        raise fail(where, "a team name from the header", v)
    return v


def check_player(where: str, v: Any, team: str | None = None) -> str:
    """A player id ``TEAM:number``; of ``team`` where the line names the team."""
    m = _PLAYER.match(v) if isinstance(v, str) else None
    if m is None:
        raise fail(where, "a player TEAM:number, such as Home:7", v)
    if team is not None and m["team"] != team:
        raise ValueError(f"{where} must be a player of {team} (got {v!r})")
    return str(v)


def check_restart_due(where: str, v: Any) -> RestartDue:
    if not isinstance(v, RestartDue):
        raise fail(where, "a restart {kind, team, xy_m}", v)
    kind = check_one_of(f"{where}.kind", v.kind, RESTART_KINDS)
    team = None if v.team is None else check_team(f"{where}.team", v.team)
    return RestartDue(kind, team, check_opt_xy(f"{where}.xy_m", v.xy_m, "m"))


class _TeamLine(JsonLine):
    """Shared checks: ``t`` (required), ``frame`` where the line has one, the team fields it names; and
    ``player_refs`` naming every team the line mentions (player ids by their team part)."""

    __slots__ = ()
    TEAM_FIELDS: ClassVar[tuple[str, ...]] = ("team",)
    PLAYER_FIELDS: ClassVar[tuple[str, ...]] = ()

    def _check_team_line(self) -> None:
        self._check_when()
        for name in self.TEAM_FIELDS:
            check_team(self._at(name), getattr(self, name))

    def player_refs(self) -> Iterator[tuple[str, str]]:
        for name in self.TEAM_FIELDS:
            yield self._at(name), getattr(self, name)
        for name in self.PLAYER_FIELDS:
            value = getattr(self, name)
            if isinstance(value, str):
                yield f"{self._at(name.rstrip('_'))} team", player_team(value)


# --- camera lines ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Kickoff(_TeamLine):
    """The kick-off that starts a period (or restarts after a futsal goal): ``team`` kicks it."""

    TYPE: ClassVar[str] = "kickoff"
    t: float = field(metadata=SECONDS)
    frame: int | None = field(default=None, metadata=OMIT_EMPTY)
    team: str
    defends_y0: str | None = field(default=None, metadata=OMIT_EMPTY)

    def __post_init__(self) -> None:
        self._check_team_line()
        if self.defends_y0 is not None:
            check_team(self._at("defends_y0"), self.defends_y0)

    def player_refs(self) -> Iterator[tuple[str, str]]:
        yield from _TeamLine.player_refs(self)
        if self.defends_y0 is not None:
            yield self._at("defends_y0"), self.defends_y0


@dataclass(frozen=True, slots=True, kw_only=True)
class BallOut(_TeamLine):
    """The ball wholly over a ``touch`` or ``goal`` line (or against the ceiling); ``last`` touched it."""

    TYPE: ClassVar[str] = "ball_out"
    TEAM_FIELDS: ClassVar[tuple[str, ...]] = ("last",)
    t: float = field(metadata=SECONDS)
    frame: int | None = field(default=None, metadata=OMIT_EMPTY)
    line: str
    xy_m: tuple[float, float] = field(metadata=METRES)
    last: str

    def __post_init__(self) -> None:
        self._check_team_line()
        check_one_of(self._at("line"), self.line, OUT_LINES)
        set_field(self, "xy_m", check_xy(self._at("xy_m"), self.xy_m, "m"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Restart(_TeamLine):
    """The ball played at a restart: ``t`` is when; ``ready_t`` (optional) when the taker had it ready."""

    TYPE: ClassVar[str] = "restart"
    t: float = field(metadata=SECONDS)
    frame: int | None = field(default=None, metadata=OMIT_EMPTY)
    team: str
    kind: str
    xy_m: tuple[float, float] | None = field(default=None, metadata=OPTIONAL_METRES)
    ready_t: float | None = field(default=None, metadata=OPTIONAL_SECONDS)

    def __post_init__(self) -> None:
        self._check_team_line()
        check_one_of(self._at("kind"), self.kind, RESTART_KINDS)
        set_field(self, "xy_m", check_opt_xy(self._at("xy_m"), self.xy_m, "m"))
        ready = check_time(self._at("ready_t"), self.ready_t, optional=True)
        if ready is not None and ready > self.t:
            raise ValueError(
                f"restart.ready_t must not be after restart.t, the ball is ready before it is played "
                f"(got ready_t={ready}, t={self.t})"
            )
        set_field(self, "ready_t", ready)


@dataclass(frozen=True, slots=True, kw_only=True)
class Goal(_TeamLine):
    """The ball wholly over the goal line between the posts; ``team`` is credited (an own goal: the other)."""

    TYPE: ClassVar[str] = "goal"
    PLAYER_FIELDS: ClassVar[tuple[str, ...]] = ("by",)
    t: float = field(metadata=SECONDS)
    frame: int | None = field(default=None, metadata=OMIT_EMPTY)
    team: str
    by: str | None = field(default=None, metadata=OMIT_EMPTY)
    direct: bool = field(default=False, metadata=OMIT_EMPTY)

    def __post_init__(self) -> None:
        self._check_team_line()
        if self.by is not None:
            check_player(self._at("by"), self.by)
        check_flag(self._at("direct"), self.direct)


@dataclass(frozen=True, slots=True, kw_only=True)
class Try(_TeamLine):
    """Rugby: ``team`` grounded the ball in the opponents' in-goal, at ``xy_m``."""

    TYPE: ClassVar[str] = "try"
    PLAYER_FIELDS: ClassVar[tuple[str, ...]] = ("by",)
    t: float = field(metadata=SECONDS)
    frame: int | None = field(default=None, metadata=OMIT_EMPTY)
    team: str
    xy_m: tuple[float, float] | None = field(default=None, metadata=OPTIONAL_METRES)
    by: str | None = field(default=None, metadata=OMIT_EMPTY)

    def __post_init__(self) -> None:
        self._check_team_line()
        set_field(self, "xy_m", check_opt_xy(self._at("xy_m"), self.xy_m, "m"))
        if self.by is not None:
            check_player(self._at("by"), self.by, self.team)


# --- timekeeper lines --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class FoulLine(_TeamLine):
    """A foul or misconduct the referees whistled (line type ``foul``): ``team`` offended."""

    TYPE: ClassVar[str] = "foul"
    PLAYER_FIELDS: ClassVar[tuple[str, ...]] = ("player",)
    t: float = field(metadata=SECONDS)
    team: str
    player: str | None = field(default=None, metadata=OMIT_EMPTY)
    kind: str
    xy_m: tuple[float, float] | None = field(default=None, metadata=OPTIONAL_METRES)
    card: str | None = field(default=None, metadata=OMIT_EMPTY)
    advantage: bool = field(default=False, metadata=OMIT_EMPTY)
    bench: bool = field(default=False, metadata=OMIT_EMPTY)

    def __post_init__(self) -> None:
        self._check_team_line()
        if self.player is not None:
            check_player(self._at("player"), self.player, self.team)
        check_one_of(self._at("kind"), self.kind, FOUL_KINDS)
        set_field(self, "xy_m", check_opt_xy(self._at("xy_m"), self.xy_m, "m"))
        if self.card is not None:
            check_one_of(self._at("card"), self.card, CARDS)
            if self.player is None:
                raise ValueError("foul.player must name the player shown the card (got a card and no player)")
        check_flag(self._at("advantage"), self.advantage)
        check_flag(self._at("bench"), self.bench)
        if self.bench and self.player is None:
            raise ValueError("foul.bench needs foul.player, the substitute concerned (got no player)")


@dataclass(frozen=True, slots=True, kw_only=True)
class Timeout(_TeamLine):
    """Futsal: ``team``'s coach asks for its one-minute time-out."""

    TYPE: ClassVar[str] = "timeout"
    t: float = field(metadata=SECONDS)
    team: str

    def __post_init__(self) -> None:
        self._check_team_line()


@dataclass(frozen=True, slots=True, kw_only=True)
class Substitution(_TeamLine):
    """``in`` replaces ``out`` (``in_`` in Python); ``out`` null: a player joins a team playing short."""

    TYPE: ClassVar[str] = "substitution"
    PLAYER_FIELDS: ClassVar[tuple[str, ...]] = ("out", "in_")
    t: float = field(metadata=SECONDS)
    team: str
    out: str | None = field(default=None, metadata=OMIT_EMPTY)
    in_: str

    def __post_init__(self) -> None:
        self._check_team_line()
        if self.out is not None:
            check_player(self._at("out"), self.out, self.team)
        check_player(self._at("in"), self.in_, self.team)
        if self.out == self.in_:
            raise ValueError(f"substitution.in must differ from substitution.out (got {self.in_!r} twice)")

    def to_obj(self) -> dict[str, Any]:
        obj = JsonLine.to_obj(self)
        obj["in"] = obj.pop("in_")
        return obj

    @classmethod
    def from_fields(cls, f: Fields) -> Self:
        return cls(t=f.require("t"), team=f.require("team"), out=f.optional("out"), in_=f.require("in"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Whistle(_TeamLine):
    """The referee or timekeeper stops play: ``period_end``, ``stoppage`` or ``injury``."""

    TYPE: ClassVar[str] = "whistle"
    TEAM_FIELDS: ClassVar[tuple[str, ...]] = ()
    t: float = field(metadata=SECONDS)
    reason: str
    xy_m: tuple[float, float] | None = field(default=None, metadata=OPTIONAL_METRES)

    def __post_init__(self) -> None:
        self._check_team_line()
        check_one_of(self._at("reason"), self.reason, WHISTLE_REASONS)
        set_field(self, "xy_m", check_opt_xy(self._at("xy_m"), self.xy_m, "m"))


@dataclass(frozen=True, slots=True, kw_only=True)
class KickAtGoal(_TeamLine):
    """A kick at goal and whether it was ``good`` (rugby; futsal: ``penalty``, a kick from the mark)."""

    TYPE: ClassVar[str] = "kick_at_goal"
    t: float = field(metadata=SECONDS)
    team: str
    kind: str
    good: bool

    def __post_init__(self) -> None:
        self._check_team_line()
        check_one_of(self._at("kind"), self.kind, KICK_KINDS)
        check_flag(self._at("good"), self.good)


TEAM_LINES: tuple[type[JsonLine], ...] = (
    Kickoff, BallOut, Restart, Goal, Try, FoulLine, Timeout, Substitution, Whistle, KickAtGoal,
)  # fmt: skip
"""Every team-sport line type, camera lines first."""
