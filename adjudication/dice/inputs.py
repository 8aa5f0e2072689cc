"""Player inputs of the dice games that no camera can see: lines added to the contract (architecture.md).

Each is a frozen ``JsonLine`` registered with ``register_event``, so ``parse_line`` reads it once this module
is imported (``adjudication.engine.referee`` imports it through the dice engines; the CLI imports it before
reading any stream). Which games read which lines is documented beside each engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from arbiter.contract import OPTIONAL_SECONDS, JsonLine, register_event


def _check_player(line: JsonLine) -> None:
    player = line.player
    if not isinstance(player, str) or not player:
        raise ValueError(f"{line.TYPE}.player must be a player name (got {player!r})")


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
