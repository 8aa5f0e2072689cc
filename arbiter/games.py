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
from dataclasses import dataclass, replace
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


class OptionKind(StrEnum):
    """What an option's value is: how it is checked, and how a form asks for it."""

    INT = "int"  # an integer within minimum..maximum
    NUMBER = "number"  # a finite number within minimum..maximum
    BOOL = "bool"
    CHOICE = "choice"  # one of ``choices``
    PLAYER = "player"  # a name from the header's players; default: the first of them
    TEXT = "text"  # a non-empty string
    JSON = "json"  # a list or object the engine reads itself (a score sheet, a pitch size)


@dataclass(frozen=True)
class OptionSpec:
    """One setting of a game (the header's ``options``): its kind, its default and what it changes.

    A default of None means the option is absent unless given (an open-ended limit, a point drawn by lot);
    a ``player`` option's default is the first player of the header.
    """

    name: str
    kind: OptionKind
    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    minimum: float | None = None
    maximum: float | None = None


def _int(
    name: str, default: int | None, help: str, minimum: int = 1, maximum: int | None = None
) -> OptionSpec:
    return OptionSpec(name, OptionKind.INT, default, help, minimum=minimum, maximum=maximum)


def _bool(name: str, default: bool, help: str) -> OptionSpec:
    return OptionSpec(name, OptionKind.BOOL, default, help)


def _choice(name: str, default: str, choices: tuple[str, ...], help: str) -> OptionSpec:
    return OptionSpec(name, OptionKind.CHOICE, default, help, choices=choices)


def _player(name: str, help: str) -> OptionSpec:
    return OptionSpec(name, OptionKind.PLAYER, None, help)


FIRST = _player("first", "the player who starts (breaks, throws first); default the first in the header")


@dataclass(frozen=True, kw_only=True)
class GameSpec:
    """Everything about one game that is not its rules' logic (the subclasses add what each family needs)."""

    family: ClassVar[Family]
    camera: ClassVar[Camera]
    id: str
    title: str
    inputs: tuple[str, ...] = ()  # line types a player or timekeeper enters (no camera sees them)
    options: tuple[OptionSpec, ...] = ()
    min_players: int = 2
    max_players: int | None = 2  # None: no upper limit

    @property
    def rules_page(self) -> str:
        """The page of the docs that says which rules the engine applies, and where it departs from them."""
        return f"docs/games/{self.id}.md"

    def __reduce__(self) -> tuple[Any, tuple[str, ...]]:
        """A spec crosses to another process as its id and comes back as the registry's own spec."""
        return (game, (self.id,))

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

    def resized(self, size: str | None) -> BilliardsSpec:
        """This game on another table of its catalogue (``TableModel.resized``; ValueError listing the
        sizes for a size it is not played on): a run refereeing a table of the size found or given carries
        this spec, so every geometry after it (pockets, spots, cushions) is the table's own. None (a match
        header without a ``table``) is this spec as it is: the game's standard table for a registry spec."""
        return (
            self if size is None or size == self.table.size else replace(self, table=self.table.resized(size))
        )

    def __reduce__(self) -> tuple[Any, tuple[str, ...]]:
        """A billiards spec crosses to another process as its id and its table's size."""
        return (_billiards_of_size, (self.id, self.table.size))


@dataclass(frozen=True, kw_only=True)
class DiceSpec(GameSpec):
    """A dice game: a camera over a game table reads the dice and follows throws."""

    family: ClassVar[Family] = Family.DICE
    camera: ClassVar[Camera] = Camera.DICE_TABLE


@dataclass(frozen=True, kw_only=True)
class TeamSpec(GameSpec):
    """A team sport on a court or pitch: a fixed camera and the timekeeper's desk. What the desk offers is
    the game's own: the line a score is (``goal``, ``try``), the restarts, the kinds of kick at goal, whether
    the teams have time-outs."""

    family: ClassVar[Family] = Family.TEAM
    camera: ClassVar[Camera] = Camera.COURT
    score_line: str = "goal"
    restarts: tuple[str, ...] = ()
    kicks: tuple[str, ...] = ()
    timeouts: bool = False


BILLIARDS_INPUTS_SNOOKER = ("declare", "choice", "concede")
BILLIARDS_INPUTS_CALLED = ("call", "choice", "concede")
TEAM_INPUTS = ("foul", "timeout", "substitution", "whistle", "kick_at_goal")


def _billiards(
    id: str,
    title: str,
    table: TableModel,
    looks: Mapping[str, BallLook],
    inputs: tuple[str, ...],
    options: tuple[OptionSpec, ...],
    cue_balls: tuple[str, ...] | None = None,
) -> BilliardsSpec:
    """A billiards game for two; its cue ball is the first of its set unless each player has their own."""
    return BilliardsSpec(
        id=id,
        title=title,
        table=table,
        looks=looks,
        cue_balls=cue_balls or (next(iter(looks)),),
        inputs=inputs,
        options=options,
    )


def _dice(
    id: str,
    title: str,
    options: tuple[OptionSpec, ...],
    inputs: tuple[str, ...] = (),
    players: tuple[int, int | None] = (2, None),
) -> DiceSpec:
    return DiceSpec(
        id=id, title=title, inputs=inputs, options=options, min_players=players[0], max_players=players[1]
    )


FUTSAL_RESTARTS: tuple[str, ...] = (
    "kick_off", "kick_in", "corner", "goal_clearance", "free_kick_direct", "free_kick_indirect", "penalty",
    "second_penalty_mark", "dropped_ball",
)  # fmt: skip
RUGBY_RESTARTS: tuple[str, ...] = (
    "kick_off", "restart_kick", "scrum", "penalty", "free_kick", "lineout", "drop_out",
)  # fmt: skip


def _futsal(title: str, options: tuple[OptionSpec, ...]) -> TeamSpec:
    """Futsal: goals, its restarts, kicks from the penalty mark, a time-out per team and half (Law 8)."""
    return TeamSpec(
        id="futsal", title=title, inputs=TEAM_INPUTS, options=options, score_line="goal",
        restarts=FUTSAL_RESTARTS, kicks=("penalty",), timeouts=True,
    )  # fmt: skip


def _rugby(id: str, title: str, options: tuple[OptionSpec, ...]) -> TeamSpec:
    """Mini-rugby: tries, then kicks at goal; no time-outs."""
    return TeamSpec(
        id=id, title=title, inputs=TEAM_INPUTS, options=options, score_line="try",
        restarts=RUGBY_RESTARTS, kicks=("conversion", "penalty", "drop"),
    )  # fmt: skip


_CLOCK_TOLERANCE = OptionSpec(
    "clock_tolerance_s", OptionKind.NUMBER, 1.0,
    "seconds a period-end whistle may come before the computed clock's end (futsal: a kick due with less "
    "than this left is played in added time)", minimum=0.0,
)  # fmt: skip
_RESTART_BY = _choice(
    "restart_by", "scorers", ("scorers", "conceders"),
    "who kicks the restart after a score: scorers (the text, and sevens) or conceders (fifteens)",
)  # fmt: skip
_STAKES = _int("stakes", 3, "stakes each player starts with")

_SPECS: tuple[BilliardsSpec | DiceSpec | TeamSpec, ...] = (
    _billiards("snooker", "Snooker", snooker_table(), SNOOKER_SET, BILLIARDS_INPUTS_SNOOKER, (
        _int("frames", 1, "frames of the match, best of N (odd)"), FIRST,
    )),
    _billiards("straight-pool", "14.1 continuous (straight pool)", straight_pool_table(), POOL_SET,
               BILLIARDS_INPUTS_CALLED, (_int("target", 150, "points to win"), FIRST)),
    _billiards("pyramid", "Russian pyramid", pyramid_table(), PYRAMID_SET, ("choice", "concede"), (
        _choice("variant", "free", ("free", "combined", "dynamic"),
                "free (American), combined (Moscow) or dynamic (Neva)"),
        _int("target", 8, "points to win", maximum=8),
        _choice("foul_penalty", "point", ("point", "ball"),
                "point (one point to the opponent, current rules) or ball (older: the offender returns a "
                "ball from his shelf to the table)"),
        FIRST,
    )),
    _billiards("five-pins", "Five-pins", five_pins_table(), FIVE_PINS_SET, ("concede",), (
        _int("target", 60, "points that win"), FIRST,
        OptionSpec("contact_mm", OptionKind.NUMBER, 3.0,
                   "how close (mm) balls at rest lie to count as touching", minimum=0.0),
    ), cue_balls=("white", "yellow")),
    _dice("liar", "Liar dice", (_STAKES, FIRST), ("claim", "challenge")),
    _dice("thirteen", "Thirteen", (
        _int("target", 10, "points that win"),
        _int("base", 13, "the number whose multiples score (also 11, 17)", minimum=2),
        OptionSpec("shifted_die", OptionKind.TEXT, "d2", "id of the die with faces 2..7"),
        FIRST,
    ), ("operation",), players=(1, None)),
    _dice("craps", "Craps", (
        _int("stake", 1, "units a pass-line decision wins or loses"),
        _int("turns", 1, "times each player is the shooter"),
        _player("first", "the first shooter"),
    ), players=(1, None)),
    _dice("indian-dice", "Indian dice", (
        FIRST, _choice("final", "strongest", ("strongest", "weakest"), "who plays round three"),
    ), ("stop",)),
    _dice("martinetti", "Martinetti (Ohio)", (
        _bool("auto_advance", False, "move every thrower as far as the throw allows, no claims"), FIRST,
    ), ("claim", "stop"), players=(1, None)),
    _dice("pig", "Pig", (_int("target", 100, "score that ends the game"), FIRST), ("stop",),
          players=(1, None)),
    _dice("aces", "Aces", (_int("dice", 5, "dice each player starts with"), FIRST)),
    _dice("four-dice", "Four dice", (
        _player("first", "the player who backs the six and throws first"),
        _int("throws", 1, "throws in the match"),
    ), players=(2, 2)),
    _dice("stuck-in-the-mud", "Stuck in the mud", (FIRST, _int("rounds", 1, "turns each player has")),
          players=(1, None)),
    _dice("chicago", "Chicago", (_choice("variant", "race", ("race", "hoyle"), "race or hoyle"), FIRST),
          players=(1, None)),
    _dice("yacht", "Sea dice (Yacht)", (
        FIRST,
        OptionSpec("categories", OptionKind.JSON, None,
                   "the score sheet, a list of categories (default the classic twelve)"),
        _int("rounds", None, "turns each player has (default: one per category, at most 12)"),
        OptionSpec("scores", OptionKind.JSON, None,
                   '{category: points | "sum" | "matched"} for the pattern categories'),
    ), ("choose",), players=(1, None)),
    _dice("buck-dice", "Buck dice", (
        _int("point", None, "the point number 1..6 (skips the draw)", maximum=6),
        _player("first", "who throws first (only with point)"),
    )),
    _dice("high-dice", "High dice", (
        _player("banker", "the banker; the other is the punter"),
        _int("extra_throws", 0, "extra throws the punter may take", minimum=0, maximum=2),
        _int("stake", 1, "units of one stake"),
        _int("rounds", None, "rounds in the match (default: no limit)"),
    ), ("stop",), players=(2, 2)),
    _dice("bank", "Bank", (
        _player("banker", "the banker; the others are punters"),
        _int("rounds", None, "throws in the match (default: no limit)"),
    ), ("bet",)),
    _dice("bluff", "Bluff", (
        _STAKES, _int("throws", 1, "throws a player may make in a turn", maximum=3),
        _bool("straights", False, "whether straights count"), _player("first", "the first leader"),
    ), ("claim", "challenge", "stop")),
    _dice("poker-dice", "Poker dice", (
        FIRST, _bool("straights", False, "whether 1-5 and 2-6 count as straights"),
    ), ("stop",)),
    _futsal("Futsal", (
        _int("half_min", 20, "minutes of playing time in each half (Law 8)"),
        _bool("extra_time", False, "two periods of extra time when the match is level after the second half"),
        _int("extra_min", 5, "minutes of playing time in each period of extra time"),
        _bool("penalties", False, "kicks from the penalty mark when still level (after extra time, if any)"),
        OptionSpec("pitch_m", OptionKind.JSON, (20, 40),
                   "the pitch, [width_m, length_m]: 15..25 by 25..42 (Law 1); a 15-16 m wide pitch has 4 m "
                   "penalty areas"),
        _CLOCK_TOLERANCE,
    )),
    _rugby("rugby-5", "Mini-rugby, five a side", (
        _int("half_min", 10, "minutes of each half"),
        _int("break_min", 5, "minutes of the half-time break (reported, not enforced)", minimum=0),
        _RESTART_BY,
        OptionSpec("pitch_m", OptionKind.JSON, (20, 40),
                   "the court, [width_m, length_m] (a handball court); tells which in-goal a dead ball "
                   "is in"),
        _CLOCK_TOLERANCE,
    )),
    _rugby("rugby-7", "Mini-rugby, seven a side", (
        _int("half_min", 15, "minutes of each half"),
        _int("break_min", 10, "minutes of the half-time break (reported, not enforced)", minimum=0),
        _RESTART_BY,
        OptionSpec("pitch_m", OptionKind.JSON, (47, 56),
                   "the ground, [width_m, length_m] (half a normal pitch); tells which in-goal a dead ball "
                   "is in"),
        _CLOCK_TOLERANCE,
    )),
)  # fmt: skip

GAMES: Mapping[str, GameSpec] = MappingProxyType({s.id: s for s in _SPECS})
"""Every game by id, in the order the docs list them."""
GAME_IDS: tuple[str, ...] = tuple(GAMES)


def game(game_id: str, table: str | None = None) -> GameSpec:
    """The spec of ``game_id``; ``UnknownGameError`` naming every game when there is none. ``table``: the
    size a match header names (``Match.table``), so a billiards spec is on the table played (None: the
    game's standard table); ValueError for a size the game is not played on."""
    try:
        spec = GAMES[game_id]
    except KeyError:
        raise UnknownGameError(f"unknown game {game_id!r}; choose one of {', '.join(GAME_IDS)}") from None
    if table is None:
        return spec
    if not isinstance(spec, BilliardsSpec):
        raise ValueError(f"{game_id} is not played on a billiard table, so has no table size (got {table!r})")
    return spec.resized(table)


def billiards(game_id: str) -> BilliardsSpec:
    """The spec of a billiards game; ``UnknownGameError`` naming the billiards games for any other id."""
    spec = GAMES.get(game_id)
    if not isinstance(spec, BilliardsSpec):
        names = ", ".join(s.id for s in BILLIARDS_GAMES)
        raise UnknownGameError(f"unknown billiards game {game_id!r}; choose one of {names}")
    return spec


def _billiards_of_size(game_id: str, size: str) -> BilliardsSpec:
    """The registry's spec of a billiards game, on its table of ``size`` (a pickled spec's way back)."""
    spec = billiards(game_id)
    return spec.resized(size) if size else spec


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
