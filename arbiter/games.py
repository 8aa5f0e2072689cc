"""The game registry: every game Arbiter referees, one ``GameSpec`` each, resolved once at the boundary.

A game id (the ``game`` of a match header, ``--game`` on the command line) becomes its spec in one place,
``game(id)``, and the spec travels on: the table and ball set a detector and tracker need, the cue balls the
event detector watches, the inputs a player or timekeeper may enter, the options its engine reads, how its
camera side works and where its rules are written down. Nothing else switches on the id string.

The rule engines live above this package (``adjudication``) and find their spec here; they are matched to it
by ``adjudication.engines.engine_for(spec)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any, ClassVar

from arbiter.balls import FIVE_PINS_SET, POOL_SET, PYRAMID_SET, SNOOKER_SET, BallLook
from arbiter.tables import (
    TableModel,
    five_pins_table,
    pyramid_table,
    snooker_table,
    straight_pool_table,
)


class Family(StrEnum):
    """What is played: on a billiard table, with dice at a game table, or by teams on a court or pitch."""

    BILLIARDS = "billiards"
    DICE = "dice"
    TEAM = "team"


class Camera(StrEnum):
    """How the camera side of a game works (what ``arbiter run`` does with a video of it)."""

    OVERHEAD_TABLE = "overhead-table"  # calibrate the table, detect and track balls, contacts and pots
    DICE_TABLE = "dice-table"  # read every die's face, follow throws, one roll per settled throw
    COURT = "court"  # a fixed camera on the court: ball out of play, goals, restarts


class UnknownGameError(ValueError):
    """A game id that is not in the registry (or not of the family asked for); the message names the ones
    that are."""


@dataclass(frozen=True)
class OptionSpec:
    """One setting of a game (the header's ``options``): its type, default and what it changes.

    ``kind`` is ``int``, ``bool``, ``choice`` (one of ``choices``), ``player`` (a name from the header) or
    ``text``. A default of None means "decided by the engine" (for ``player``: the first in the header).
    """

    name: str
    kind: str
    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None


@dataclass(frozen=True, kw_only=True)
class GameSpec:
    """Everything about one game that is not its rules' logic (the subclasses add what each family needs)."""

    family: ClassVar[Family]
    camera: ClassVar[Camera]
    id: str
    title: str
    inputs: tuple[str, ...] = ()  # line types a player or timekeeper enters (no camera sees them)
    options: tuple[OptionSpec, ...] = ()

    @property
    def rules_page(self) -> str:
        """The page of the docs that says which rules the engine applies, and where it departs from them."""
        return f"docs/games/{self.id}.md"

    def option(self, name: str) -> OptionSpec:
        for o in self.options:
            if o.name == name:
                return o
        names = ", ".join(o.name for o in self.options)
        raise KeyError(f"{self.id} has no option {name!r}; options: {names}")


@dataclass(frozen=True, kw_only=True)
class BilliardsSpec(GameSpec):
    """A billiards game: its table, its ball set with each ball's look, and the balls a player strikes."""

    family: ClassVar[Family] = Family.BILLIARDS
    camera: ClassVar[Camera] = Camera.OVERHEAD_TABLE
    table: TableModel
    looks: Mapping[str, BallLook]
    cue_balls: tuple[str, ...]

    @property
    def balls(self) -> tuple[str, ...]:
        """Every ball id of the game's set, cue ball first (architecture.md, Identifiers)."""
        return tuple(self.looks)

    @property
    def cue_ball(self) -> str:
        """The ball a player strikes (five-pins: the first player's)."""
        return self.cue_balls[0]

    def look(self, ball_id: str) -> BallLook:
        """How ``ball_id`` looks; ``ValueError`` naming the game for an id it does not have."""
        try:
            return self.looks[ball_id]
        except KeyError:
            raise ValueError(f"{self.id} has no ball {ball_id!r}") from None


@dataclass(frozen=True, kw_only=True)
class DiceSpec(GameSpec):
    """A dice game: a camera over a game table reads the dice and follows throws."""

    family: ClassVar[Family] = Family.DICE
    camera: ClassVar[Camera] = Camera.DICE_TABLE


@dataclass(frozen=True, kw_only=True)
class TeamSpec(GameSpec):
    """A team sport on a court or pitch: a fixed camera and the timekeeper's desk."""

    family: ClassVar[Family] = Family.TEAM
    camera: ClassVar[Camera] = Camera.COURT


BILLIARDS_INPUTS_SNOOKER = ("declare", "choice", "concede")
BILLIARDS_INPUTS_CALLED = ("call", "choice", "concede")


def _billiards(
    id: str,
    title: str,
    table: TableModel,
    looks: Mapping[str, BallLook],
    inputs: tuple[str, ...],
    cue_balls: tuple[str, ...] | None = None,
) -> BilliardsSpec:
    """A billiards game; its cue ball is the first of its set unless each player has their own."""
    return BilliardsSpec(
        id=id,
        title=title,
        table=table,
        looks=looks,
        cue_balls=cue_balls or (next(iter(looks)),),
        inputs=inputs,
    )


def _dice(id: str, title: str, inputs: tuple[str, ...] = ()) -> DiceSpec:
    return DiceSpec(id=id, title=title, inputs=inputs)


def _team(id: str, title: str) -> TeamSpec:
    inputs = ("foul", "timeout", "substitution", "whistle", "kick_at_goal")
    return TeamSpec(id=id, title=title, inputs=inputs)


_SPECS: tuple[BilliardsSpec | DiceSpec | TeamSpec, ...] = (
    _billiards("snooker", "Snooker", snooker_table(), SNOOKER_SET, BILLIARDS_INPUTS_SNOOKER),
    _billiards(
        "straight-pool", "14.1 continuous (straight pool)", straight_pool_table(), POOL_SET,
        BILLIARDS_INPUTS_CALLED,
    ),
    _billiards("pyramid", "Russian pyramid", pyramid_table(), PYRAMID_SET, BILLIARDS_INPUTS_CALLED),
    _billiards(
        "five-pins", "Five-pins", five_pins_table(), FIVE_PINS_SET, ("concede",),
        cue_balls=("white", "yellow"),
    ),
    _dice("liar", "Liar dice", ("claim", "challenge")),
    _dice("thirteen", "Thirteen", ("operation",)),
    _dice("craps", "Craps"),
    _dice("indian-dice", "Indian dice", ("stop",)),
    _dice("martinetti", "Martinetti (Ohio)", ("claim", "stop")),
    _dice("pig", "Pig", ("stop",)),
    _dice("aces", "Aces"),
    _dice("four-dice", "Four dice"),
    _dice("stuck-in-the-mud", "Stuck in the mud"),
    _dice("chicago", "Chicago"),
    _dice("yacht", "Sea dice (Yacht)", ("choose",)),
    _dice("buck-dice", "Buck dice"),
    _dice("high-dice", "High dice", ("stop",)),
    _dice("bank", "Bank", ("bet",)),
    _dice("bluff", "Bluff", ("claim", "challenge", "stop")),
    _dice("poker-dice", "Poker dice", ("stop",)),
    _team("futsal", "Futsal"),
    _team("rugby-5", "Mini-rugby, five a side"),
    _team("rugby-7", "Mini-rugby, seven a side"),
)  # fmt: skip

GAMES: Mapping[str, GameSpec] = MappingProxyType({s.id: s for s in _SPECS})
"""Every game by id, in the order the docs list them."""
GAME_IDS: tuple[str, ...] = tuple(GAMES)


def game(game_id: str) -> GameSpec:
    """The spec of ``game_id``; ``UnknownGameError`` naming every game when there is none."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise UnknownGameError(f"unknown game {game_id!r}; choose one of {', '.join(GAME_IDS)}") from None


def billiards(game_id: str) -> BilliardsSpec:
    """The spec of a billiards game; ``UnknownGameError`` naming the billiards games for any other id."""
    spec = GAMES.get(game_id)
    if not isinstance(spec, BilliardsSpec):
        names = ", ".join(s.id for s in BILLIARDS_GAMES)
        raise UnknownGameError(f"unknown billiards game {game_id!r}; choose one of {names}")
    return spec


def dice(game_id: str) -> DiceSpec:
    """The spec of a dice game; ``UnknownGameError`` naming the dice games for any other id."""
    spec = GAMES.get(game_id)
    if not isinstance(spec, DiceSpec):
        names = ", ".join(s.id for s in DICE_GAMES)
        raise UnknownGameError(f"unknown dice game {game_id!r}; choose one of {names}")
    return spec


BILLIARDS_GAMES: tuple[BilliardsSpec, ...] = tuple(s for s in _SPECS if isinstance(s, BilliardsSpec))
DICE_GAMES: tuple[DiceSpec, ...] = tuple(s for s in _SPECS if isinstance(s, DiceSpec))
TEAM_GAMES: tuple[TeamSpec, ...] = tuple(s for s in _SPECS if isinstance(s, TeamSpec))
