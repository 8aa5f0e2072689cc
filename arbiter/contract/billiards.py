"""Billiards lines: what a camera sees during a shot, and the player input no camera sees.

```json
{"type":"shot_start","t":1.20,"frame":72,"ball":"white"}
{"type":"ball_ball","t":1.55,"balls":["white","red:4"]}
{"type":"cushion","t":1.90,"ball":"red:4","side":"top"}
{"type":"pocket","t":2.31,"ball":"red:4","pocket":"tr"}
{"type":"declare","player":"A","ball":"blue"}
{"type":"call","player":"A","ball":"7","pocket":"tl"}
```
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from arbiter.contract.fields import (
    MILLIMETRES,
    OMIT_EMPTY,
    OPTIONAL_SECONDS,
    SECONDS,
    FrozenMap,
    JsonLine,
    check_flag,
    check_one_of,
    check_opt_text,
    check_text,
    check_xy,
    fail,
    set_field,
)
from arbiter.tables import CUSHION_SIDES, POCKET_IDS

CHOICE_OPTIONS: tuple[str, ...] = ("play", "pass", "replace", "rebreak")


@dataclass(frozen=True, slots=True, kw_only=True)
class ShotStart(JsonLine):
    """A ball was struck with the cue: the shot begins (billiards; ``ball`` is the cue ball or striker's)."""

    TYPE: ClassVar[str] = "shot_start"
    t: float = field(metadata=SECONDS)
    frame: int | None = field(default=None, metadata=OMIT_EMPTY)
    ball: str

    def __post_init__(self) -> None:
        self._check_when()
        check_text(self._at("ball"), self.ball)


@dataclass(frozen=True, slots=True, kw_only=True)
class BallBall(JsonLine):
    """Two balls touched. ``balls[0]`` was moving into ``balls[1]``: first-contact rules depend on it."""

    TYPE: ClassVar[str] = "ball_ball"
    t: float = field(metadata=SECONDS)
    frame: int | None = field(default=None, metadata=OMIT_EMPTY)
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
            raise fail(self._at("balls"), "a pair of two different ball ids [moving, hit]", b)
        set_field(self, "balls", tuple(b))


@dataclass(frozen=True, slots=True, kw_only=True)
class Cushion(JsonLine):
    """A ball hit a cushion (``side`` of the table frame in architecture.md). ``inferred``: the camera did
    not see the ball within a frame of the contact; its path before and after met at the cushion, reflected,
    and the time is where they met."""

    TYPE: ClassVar[str] = "cushion"
    t: float = field(metadata=SECONDS)
    frame: int | None = field(default=None, metadata=OMIT_EMPTY)
    ball: str
    side: str
    inferred: bool = field(default=False, metadata=OMIT_EMPTY)

    def __post_init__(self) -> None:
        self._check_when()
        check_text(self._at("ball"), self.ball)
        check_one_of(self._at("side"), self.side, CUSHION_SIDES)
        check_flag(self._at("inferred"), self.inferred)


@dataclass(frozen=True, slots=True, kw_only=True)
class Pot(JsonLine):
    """A ball dropped into a pocket (line type ``pocket``; not ``tables.Pocket``, which is geometry).
    ``unsure``: the camera saw the ball near the pocket and then no more, but not clearly into it (it was
    last seen short of the jaws, at rest, or beside another ball it may have merged with); the rules count
    it and say so in the decision's notes, for a person to confirm."""

    TYPE: ClassVar[str] = "pocket"
    t: float = field(metadata=SECONDS)
    frame: int | None = field(default=None, metadata=OMIT_EMPTY)
    ball: str
    pocket: str
    unsure: bool = field(default=False, metadata=OMIT_EMPTY)

    def __post_init__(self) -> None:
        self._check_when()
        check_text(self._at("ball"), self.ball)
        check_one_of(self._at("pocket"), self.pocket, POCKET_IDS)
        check_flag(self._at("unsure"), self.unsure)


@dataclass(frozen=True, slots=True, kw_only=True)
class OffTable(JsonLine):
    """A ball left the table other than into a pocket (jumped off): a foul in every game here."""

    TYPE: ClassVar[str] = "off_table"
    t: float = field(metadata=SECONDS)
    frame: int | None = field(default=None, metadata=OMIT_EMPTY)
    ball: str

    def __post_init__(self) -> None:
        self._check_when()
        check_text(self._at("ball"), self.ball)


@dataclass(frozen=True, slots=True, kw_only=True)
class PinDown(JsonLine):
    """A five-pins pin fell; ``by`` is the ball that knocked it (scoring depends on which ball did)."""

    TYPE: ClassVar[str] = "pin_down"
    t: float = field(metadata=SECONDS)
    frame: int | None = field(default=None, metadata=OMIT_EMPTY)
    pin: str
    by: str

    def __post_init__(self) -> None:
        self._check_when()
        check_text(self._at("pin"), self.pin)
        check_text(self._at("by"), self.by)


@dataclass(frozen=True, slots=True, kw_only=True)
class ShotEnd(JsonLine):
    """All balls at rest: ``positions`` maps every ball still on the table to its centre ``(x_mm, y_mm)``."""

    TYPE: ClassVar[str] = "shot_end"
    t: float = field(metadata=SECONDS)
    frame: int | None = field(default=None, metadata=OMIT_EMPTY)
    positions: Mapping[str, tuple[float, float]] = field(metadata=MILLIMETRES)

    def __post_init__(self) -> None:
        self._check_when()
        where = self._at("positions")
        if not isinstance(self.positions, Mapping):
            raise fail(where, "an object {ball: [x_mm, y_mm]}", self.positions)
        out: dict[str, tuple[float, float]] = {}
        for ball, xy in self.positions.items():
            out[check_text(f"{where} key", ball)] = check_xy(f"{where}[{ball!r}]", xy)
        set_field(self, "positions", FrozenMap(out))


# --- player input (no camera sees it; it arrives before the shot it belongs to) ---------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Declare(JsonLine):
    """The striker names the ball on (snooker colours; ``free_ball`` when nominating after a snooker)."""

    TYPE: ClassVar[str] = "declare"
    t: float | None = field(default=None, metadata=OPTIONAL_SECONDS)
    player: str
    ball: str
    free_ball: bool = field(default=False, metadata=OMIT_EMPTY)

    def __post_init__(self) -> None:
        self._check_when(t_required=False)
        check_text(self._at("player"), self.player)
        check_text(self._at("ball"), self.ball)
        check_flag(self._at("free_ball"), self.free_ball)


@dataclass(frozen=True, slots=True, kw_only=True)
class Call(JsonLine):
    """A called shot (14.1, pyramid): a ball, with its pocket where the game asks for one, or a safety."""

    TYPE: ClassVar[str] = "call"
    t: float | None = field(default=None, metadata=OPTIONAL_SECONDS)
    player: str
    ball: str | None = field(default=None, metadata=OMIT_EMPTY)
    pocket: str | None = field(default=None, metadata=OMIT_EMPTY)
    safety: bool = field(default=False, metadata=OMIT_EMPTY)

    def __post_init__(self) -> None:
        self._check_when(t_required=False)
        check_text(self._at("player"), self.player)
        check_opt_text(self._at("ball"), self.ball)
        if self.pocket is not None:
            check_one_of(self._at("pocket"), self.pocket, POCKET_IDS)
        check_flag(self._at("safety"), self.safety)
        if self.safety and (self.ball is not None or self.pocket is not None):
            raise ValueError("call: a safety call names no ball or pocket (got safety with a ball or pocket)")
        if not self.safety and self.ball is None:
            raise ValueError("call must name a ball (and pocket) or be a safety (got neither)")


@dataclass(frozen=True, slots=True, kw_only=True)
class Choice(JsonLine):
    """The entitled player's choice after a foul or a lot (architecture.md spells out each option)."""

    TYPE: ClassVar[str] = "choice"
    t: float | None = field(default=None, metadata=OPTIONAL_SECONDS)
    player: str
    option: str

    def __post_init__(self) -> None:
        self._check_when(t_required=False)
        check_text(self._at("player"), self.player)
        check_one_of(self._at("option"), self.option, CHOICE_OPTIONS)


@dataclass(frozen=True, slots=True, kw_only=True)
class Concede(JsonLine):
    """A player concedes the frame or game."""

    TYPE: ClassVar[str] = "concede"
    t: float | None = field(default=None, metadata=OPTIONAL_SECONDS)
    player: str

    def __post_init__(self) -> None:
        self._check_when(t_required=False)
        check_text(self._at("player"), self.player)
