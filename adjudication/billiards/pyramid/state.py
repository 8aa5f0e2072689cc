"""Russian pyramid's state between shots, and the start of a game from the match header."""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudication import options
from adjudication.billiards.pyramid.rules import (
    OBJECT_BALLS,
    SPEC,
    TABLE,
    VARIANTS,
    XY,
    InHand,
    Penalty,
    Variant,
    VariantRules,
)
from adjudication.billiards.shot import Collecting
from arbiter.contract import FrozenMap, Match
from arbiter.tables import TableModel


@dataclass(frozen=True)
class State:
    players: tuple[str, str]
    variant: Variant
    target: int
    penalty: Penalty
    score: FrozenMap[str, int]
    shelf: FrozenMap[str, int]  # balls each player holds (``ball`` mode gives them back)
    debt: FrozenMap[str, int]  # balls owed (``ball`` mode, fouls on an empty shelf)
    turn: str  # who strikes next (or chooses, while ``chooser`` is set)
    shots: int = 0
    breaking: bool = True
    in_hand: InHand | None = InHand.HOME  # the cue ball is in hand, to be played from here
    on_table: frozenset[str] = frozenset(OBJECT_BALLS)  # balls in play on the bed (not the cue ball in hand)
    positions: FrozenMap[str, XY] = field(default_factory=FrozenMap)  # where they rest (empty: racked)
    chooser: str | None = None  # a choice is awaited from this player (failed dynamic break)
    pending: Collecting = field(default_factory=Collecting)
    over: bool = False
    winner: str | None = None
    layout: TableModel = TABLE  # the table played (the header's ``table``): its home line, back spot, centre

    @property
    def rules(self) -> VariantRules:
        return VARIANTS[self.variant]

    def opponent(self, player: str) -> str:
        return self.players[1] if player == self.players[0] else self.players[0]


def start(match: Match) -> State:
    """A new game of ``variant`` to ``target`` points, ``first`` breaking from hand from home."""
    options.check_players(SPEC, match)
    settings = options.read_all(SPEC, match)
    zero = FrozenMap(dict.fromkeys(match.players, 0))
    return State(
        players=(match.players[0], match.players[1]),
        variant=Variant(settings["variant"]),
        target=settings["target"],
        penalty=Penalty(settings["foul_penalty"]),
        score=zero,
        shelf=zero,
        debt=zero,
        turn=settings["first"],
        layout=SPEC.resized(match.table).table,
    )
