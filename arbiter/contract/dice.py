"""Dice lines: a settled throw (``roll``), a scoring choice, and the players' inputs no camera sees.

```json
{"type":"roll","t":3.20,"player":"A","dice":[{"id":"d1","value":3},{"id":"d2","value":5}],"thrown":["d1","d2"]}
{"type":"choose","player":"A","category":"full_house"}
{"type":"stop","player":"A"}
{"type":"claim","player":"A","hand":[3,3,3,2,2]}
{"type":"claim","player":"B","number":5}
{"type":"challenge","player":"B"}
{"type":"bet","player":"B","face":4,"stake":2}
{"type":"operation","player":"A","op":"third"}
```
Which games read which lines, and when, is written beside each engine and in docs/games/.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar, Self

from arbiter.contract.fields import (
    OMIT_EMPTY,
    OPTIONAL_SECONDS,
    SECONDS,
    Fields,
    JsonLine,
    Record,
    check_text,
    check_texts,
    fail,
    is_int,
    set_field,
)

DIE_FACES = range(1, 7)


@dataclass(frozen=True, slots=True)
class Die(Record):
    """One die of a roll: its tracked id and the face up. Checked by the ``Roll`` that holds it."""

    id: str
    value: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Roll(JsonLine):
    """A settled throw: every die on the table with its face, and which of them this throw moved."""

    TYPE: ClassVar[str] = "roll"
    t: float = field(metadata=SECONDS)
    frame: int | None = field(default=None, metadata=OMIT_EMPTY)
    player: str
    dice: tuple[Die, ...]
    thrown: tuple[str, ...]

    def __post_init__(self) -> None:
        self._check_when()
        check_text(self._at("player"), self.player)
        where = self._at("dice")
        if not isinstance(self.dice, list | tuple) or not self.dice:
            raise fail(where, "a non-empty list of dice {id, value}", self.dice)
        ids: list[str] = []
        for i, die in enumerate(self.dice):
            if not isinstance(die, Die):
                raise fail(f"{where}[{i}]", "a die {id, value}", die)
            check_text(f"{where}[{i}].id", die.id)
            if not is_int(die.value) or die.value not in DIE_FACES:
                raise fail(f"{where}[{i}].value", "an integer 1..6", die.value)
            if die.id in ids:
                raise ValueError(f"{where} must hold each die once (got {die.id!r} twice)")
            ids.append(die.id)
        set_field(self, "dice", tuple(self.dice))
        thrown = check_texts(self._at("thrown"), self.thrown, what="die ids", distinct=True, nonempty=True)
        for die_id in thrown:
            if die_id not in ids:
                raise ValueError(
                    f"{self._at('thrown')} must name dice of this roll ({', '.join(ids)}) (got {die_id!r})"
                )
        set_field(self, "thrown", thrown)

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


@dataclass(frozen=True, slots=True, kw_only=True)
class Choose(JsonLine):
    """A player scores a throw in a category (yacht, chicago...); categories are listed per engine."""

    TYPE: ClassVar[str] = "choose"
    t: float | None = field(default=None, metadata=OPTIONAL_SECONDS)
    player: str
    category: str

    def __post_init__(self) -> None:
        self._check_when(t_required=False)
        check_text(self._at("player"), self.player)
        check_text(self._at("category"), self.category)


HAND_DICE = 5  # a claimed hand names five faces
FIELDS = range(1, 13)  # Martinetti's numbered fields


def _check_player(line: JsonLine) -> None:
    player = getattr(line, "player", None)
    if not isinstance(player, str) or not player:
        raise ValueError(f"{line.TYPE}.player must be a player name (got {player!r})")


@dataclass(frozen=True, slots=True, kw_only=True)
class Stop(JsonLine):
    """The player ends their turn by choice (Pig: bank the turn's points; Poker dice: stand on a hand)."""

    TYPE: ClassVar[str] = "stop"
    t: float | None = field(default=None, metadata=OPTIONAL_SECONDS)
    player: str

    def __post_init__(self) -> None:
        self._check_when(t_required=False)
        _check_player(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class Claim(JsonLine):
    """A player's announcement, with exactly one of two fields.

    ``hand``: the five faces a player says lie under the cup (Liar, Bluff); their order does not matter.
    ``number``: a field of the Martinetti board the player takes (the roller: the field moved to; a partner:
    the number the roller overlooked).
    """

    TYPE: ClassVar[str] = "claim"
    t: float | None = field(default=None, metadata=OPTIONAL_SECONDS)
    player: str
    hand: tuple[int, ...] | None = field(default=None, metadata=OMIT_EMPTY)
    number: int | None = field(default=None, metadata=OMIT_EMPTY)

    def __post_init__(self) -> None:
        self._check_when(t_required=False)
        _check_player(self)
        if (self.hand is None) == (self.number is None):
            raise ValueError(
                'claim needs exactly one of "hand" (five faces 1..6, Liar and Bluff) or "number" '
                f"(a field 1..12, Martinetti) (got hand={self.hand!r}, number={self.number!r})"
            )
        if self.hand is not None:
            hand = self.hand
            if (
                not isinstance(hand, list | tuple)
                or len(hand) != HAND_DICE
                or not all(is_int(v) and v in DIE_FACES for v in hand)
            ):
                raise ValueError(f"claim.hand must be a list of {HAND_DICE} faces, each 1..6 (got {hand!r})")
            object.__setattr__(self, "hand", tuple(hand))
        if self.number is not None and not (is_int(self.number) and self.number in FIELDS):
            raise ValueError(f"claim.number must be a field number 1..12 (got {self.number!r})")


@dataclass(frozen=True, slots=True, kw_only=True)
class Challenge(JsonLine):
    """The player calls the standing claim false ("Лжец!" in Liar, "Блеф!" in Bluff)."""

    TYPE: ClassVar[str] = "challenge"
    t: float | None = field(default=None, metadata=OPTIONAL_SECONDS)
    player: str

    def __post_init__(self) -> None:
        self._check_when(t_required=False)
        _check_player(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class Bet(JsonLine):
    """A punter's bet on a face before the throw (Bank): ``stake`` units, 1 by default."""

    TYPE: ClassVar[str] = "bet"
    t: float | None = field(default=None, metadata=OPTIONAL_SECONDS)
    player: str
    face: int
    stake: int = 1

    def __post_init__(self) -> None:
        self._check_when(t_required=False)
        _check_player(self)
        if not (is_int(self.face) and self.face in DIE_FACES):
            raise ValueError(f"bet.face must be the face bet on, an integer 1..6 (got {self.face!r})")
        if not (is_int(self.stake) and self.stake >= 1):
            raise ValueError(f"bet.stake must be the units staked, an integer >= 1 (got {self.stake!r})")


class Op(StrEnum):
    """Thirteen's announcements: what the throw's sum does to the running total."""

    PLUS = "plus"  # "плюс": add the sum
    MINUS = "minus"  # "минус": subtract it
    HALF = "half"  # "беру половину": add a half of it
    THIRD = "third"  # "беру треть": add a third
    QUARTER = "quarter"  # "беру четверть": add a quarter
    DOUBLE = "double"  # "множу на 2": add twice the sum
    TRIPLE = "triple"  # "множу на 3"
    QUADRUPLE = "quadruple"  # "множу на 4"


@dataclass(frozen=True, slots=True, kw_only=True)
class Operation(JsonLine):
    """The arithmetic a Thirteen player announces for the throw just made (``op``: one of ``Op``)."""

    TYPE: ClassVar[str] = "operation"
    t: float | None = field(default=None, metadata=OPTIONAL_SECONDS)
    player: str
    op: str

    def __post_init__(self) -> None:
        self._check_when(t_required=False)
        _check_player(self)
        if self.op not in tuple(Op):
            raise ValueError(f"operation.op must be one of {', '.join(Op)} (got {self.op!r})")
