"""Five-pins' state between shots, and the start of a game from the match header."""

from __future__ import annotations

from dataclasses import dataclass

from adjudication import options
from adjudication.billiards.five_pins.rules import GAME, IGNORED_OPTIONS, PINS, PLAYER_BALLS, SPEC, TABLE
from adjudication.billiards.shot import Collecting
from arbiter.contract import FrozenMap, Match
from arbiter.tables import TableModel

NOT_IN_SHOT = Collecting()  # the pending shot between shots


@dataclass(frozen=True)
class State:
    """The game between shots (and the shot in progress in ``pending``)."""

    players: tuple[str, str]
    target: int
    contact_mm: float
    score: FrozenMap[str, int]
    turn: str  # who strikes next
    shots: int = 0  # shots decided so far
    pending: Collecting = NOT_IN_SHOT
    standing: frozenset[str] = frozenset(PINS)  # pins up for the next shot (12.7 may take some off)
    touching: tuple[str, ...] = ()  # balls and "cushion:<side>" the next striker's ball touches (10)
    over: bool = False
    winner: str | None = None
    layout: TableModel = TABLE  # the table played (the header's ``table``): its spots, pins and middle line

    def ball_of(self, player: str) -> str:
        return PLAYER_BALLS[self.players.index(player)]

    def other(self, player: str) -> str:
        return self.players[1 - self.players.index(player)]


def start(match: Match) -> State:
    """A new game to ``target`` points, ``first`` breaking; ``contact_mm`` says when balls at rest touch."""
    if match.game != GAME:
        raise ValueError(f"this engine referees {GAME!r}, not {match.game!r}")
    options.check_players(SPEC, match)
    options.check_known(SPEC, match, IGNORED_OPTIONS)
    target, first, contact_mm = (options.read(SPEC, match, o) for o in ("target", "first", "contact_mm"))
    players = (match.players[0], match.players[1])
    return State(
        players=players,
        target=target,
        contact_mm=float(contact_mm),
        score=FrozenMap(dict.fromkeys(players, 0)),
        turn=first,
        layout=SPEC.resized(match.table).table,
    )
