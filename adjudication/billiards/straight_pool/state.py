"""14.1's state between shots, and the start of a game from the match header."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from adjudication import options
from adjudication.billiards.rack import CUE, OBJECT_BALLS, rack_layout
from adjudication.billiards.shot import Collecting
from arbiter.contract import MM_PLACES, Call, FrozenMap, Match
from arbiter.games import billiards
from arbiter.tables import XY, TableModel

SPEC = billiards("straight-pool")
GAME = SPEC.id
TABLE = SPEC.table  # the standard table; a match header's ``table`` gives the one played (State.layout)
BALLS: frozenset[str] = frozenset((CUE, *OBJECT_BALLS))
IN_HAND = "cue ball in hand behind the head string"


class Phase(StrEnum):
    BREAK = "break"  # the next shot is an opening break (start, re-break, after three fouls)
    PLAY = "play"
    CHOICE = "choice"  # a breaking foul: the breaker's opponent chooses play or rebreak
    OVER = "over"


@dataclass(frozen=True)
class State:
    """A 14.1 game between two shots (or inside one: ``pending``).

    ``turn`` is the player at the table (after a breaking foul, the breaker, until the choice). ``table``
    holds every ball known to be on the table and where; the cue ball is absent while it is in hand behind
    the head string (``cue_in_hand``). ``fouls`` counts each player's consecutive standard fouls.
    ``layout`` is the table played (the header's ``table``): its head string, foot spot and rack area.
    """

    players: tuple[str, str]
    target: int
    score: FrozenMap[str, int]
    turn: str
    phase: Phase
    table: FrozenMap[str, XY]
    fouls: FrozenMap[str, int]
    cue_in_hand: bool = True
    shots: int = 0
    call: Call | None = None
    pending: Collecting = field(default_factory=Collecting)
    winner: str | None = None
    layout: TableModel = TABLE

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def opponent(self, player: str) -> str:
        a, b = self.players
        return b if player == a else a


def mm(xy: XY) -> XY:
    """A placed ball's position at the precision decisions are written with (``MM_PLACES``)."""
    return (round(xy[0], MM_PLACES), round(xy[1], MM_PLACES))


def placed(balls: Mapping[str, XY]) -> dict[str, XY]:
    return {b: mm(xy) for b, xy in balls.items()}


def full_rack(layout: TableModel) -> FrozenMap[str, XY]:
    """All fifteen racked, apex on the foot spot of the table ``layout`` (WPA 4.2)."""
    return FrozenMap(placed(rack_layout(layout, OBJECT_BALLS)))


def start(match: Match) -> State:
    """A new game: ``first`` (default the first player) breaks from in hand; ``target`` points win."""
    options.check_players(SPEC, match)
    settings = options.read_all(SPEC, match)
    players = (match.players[0], match.players[1])
    layout = SPEC.resized(match.table).table
    return State(
        players=players,
        target=settings["target"],
        score=FrozenMap(dict.fromkeys(players, 0)),
        turn=settings["first"],
        phase=Phase.BREAK,
        table=full_rack(layout),
        fouls=FrozenMap(dict.fromkeys(players, 0)),
        layout=layout,
    )
