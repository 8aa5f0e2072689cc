"""Player inputs of the dice games that no camera can see: lines added to the contract (architecture.md).

Each is a frozen ``JsonLine`` registered with ``register_event``, so ``parse_line`` reads it once this module
is imported (``adjudication.engine.referee`` imports it through the dice engines; the CLI imports it before
reading any stream). Which games read which lines, and when, is documented beside each engine.

```json
{"type":"stop","player":"A"}
{"type":"claim","player":"A","hand":[3,3,3,2,2]}
{"type":"claim","player":"B","number":5}
{"type":"challenge","player":"B"}
{"type":"bet","player":"B","face":4,"stake":2}
{"type":"operation","player":"A","op":"third"}
```
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from arbiter.contract import OMIT_EMPTY, OPTIONAL_SECONDS, JsonLine, register_event

FACES = range(1, 7)
HAND_DICE = 5  # a claimed hand names five faces
FIELDS = range(1, 13)  # Martinetti's numbered fields


def _check_player(line: JsonLine) -> None:
    player = line.player
    if not isinstance(player, str) or not player:
        raise ValueError(f"{line.TYPE}.player must be a player name (got {player!r})")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Stop(JsonLine):
    """The player ends their turn by choice (Pig: bank the turn's points; Poker dice: stand on a hand)."""

    TYPE: ClassVar[str] = "stop"
    t: float | None = field(default=None, metadata=OPTIONAL_SECONDS)
    player: str

    def __post_init__(self) -> None:
        self._check_when(t_required=False)
        _check_player(self)


@register_event
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
                or not all(_is_int(v) and v in FACES for v in hand)
            ):
                raise ValueError(f"claim.hand must be a list of {HAND_DICE} faces, each 1..6 (got {hand!r})")
            object.__setattr__(self, "hand", tuple(hand))
        if self.number is not None and not (_is_int(self.number) and self.number in FIELDS):
            raise ValueError(f"claim.number must be a field number 1..12 (got {self.number!r})")


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Challenge(JsonLine):
    """The player calls the standing claim false ("Лжец!" in Liar, "Блеф!" in Bluff)."""

    TYPE: ClassVar[str] = "challenge"
    t: float | None = field(default=None, metadata=OPTIONAL_SECONDS)
    player: str

    def __post_init__(self) -> None:
        self._check_when(t_required=False)
        _check_player(self)


@register_event
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
        if not (_is_int(self.face) and self.face in FACES):
            raise ValueError(f"bet.face must be the face bet on, an integer 1..6 (got {self.face!r})")
        if not (_is_int(self.stake) and self.stake >= 1):
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


@register_event
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


def input_types() -> Iterator[type[JsonLine]]:
    """The line types defined here."""
    yield from (Stop, Claim, Challenge, Bet, Operation)


__all__ = ["FIELDS", "HAND_DICE", "Bet", "Challenge", "Claim", "Op", "Operation", "Stop", "input_types"]
