"""How the synthetic world sets up and plays each billiards game: what its spec does not say.

A ``BilliardsSpec`` (``arbiter.games``) gives a game's table, balls and cue balls. To film plausible shots the
synthetic world also needs to know how the rack is set, where a cue ball in hand may go, how the opening shot
is played, which balls are gone later in a frame, how precisely its players aim and how its table is marked.
That is one ``GameWorld`` per game, built here and nowhere else: layouts, shots and the renderer read the
record of the spec they are given (``world_of``) and never look at a game's id.

Spot, line and arc names are the table's own (``arbiter.tables``); tests check that every one resolves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from arbiter.games import BilliardsSpec

# Aiming error of a good amateur, in degrees: shots are tried, not guaranteed. At 0.15 degrees about half of
# the aimed pots drop on a snooker table's tight pockets, a club player's rate.
AIM_ERROR_DEG = 0.15
# Pyramid pockets leave 4-5 mm over the ball: the game is played, and filmed, by players about three times
# as precise (pooltool's jaws are rigid, real ones give a little), or hardly an aimed ball would drop.
PYRAMID_AIM_ERROR_DEG = 0.03


class BreakShot(StrEnum):
    """How the opening shot of a game is played."""

    THIN_ON_PACK = "thin_on_pack"  # snooker's break-off: a thin contact on an end red of the pack's back row
    OPPONENT_BALL = "opponent_ball"  # five-pins: at the other player's ball
    POWER = "power"  # 14.1 and pyramid: a power break into the nearest ball, the rack's apex


class Thinning(StrEnum):
    """Which object balls are still on the table later in a frame."""

    REDS_THEN_COLOURS = "reds_then_colours"  # any number of reds; once they are gone, colours leave in order
    NONE = "none"  # nothing leaves the table (carom games)
    ANY = "any"  # any 1..all of the object balls, chosen at random


@dataclass(frozen=True)
class Triangle:
    """Object balls racked in a tight triangle of five rows, its apex toward the bottom cushion."""

    apex_spot: str  # the spot the apex ball stands on
    # True: the apex stands a ball's width and a millimetre above the spot instead, as close to the ball on
    # it as it can without touching (snooker's reds behind the pink).
    behind_spot: bool = False
    kind: str | None = None  # the kind of ball racked (snooker: "red"); None: every object ball
    # Balls with a fixed place: its index in the triangle, row by row from the apex, each row left to right.
    fixed: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    shuffled: bool = True  # the others take the remaining places at random; False: in the set's order


@dataclass(frozen=True)
class Opening:
    """The break position of the game's rules and how it is broken."""

    triangle: Triangle | None
    on_spots: Mapping[str, str]  # ball -> the spot it stands on, placed after the triangle
    # The cue ball breaks from the in-hand arc beside this spot (snooker: between the brown and the yellow or
    # green, as players do); None: anywhere in hand.
    cue_beside: str | None
    shot: BreakShot


@dataclass(frozen=True)
class InHand:
    """Where a cue ball in hand is placed: inside the half-disc of a marked arc, else behind a marked line."""

    region: str  # what players call the area (for docs, metadata and messages)
    arc: str | None = None
    line: str | None = None


@dataclass(frozen=True)
class GameWorld:
    """Everything the synthetic world knows of one game beyond its spec."""

    opening: Opening
    in_hand: InHand
    thinning: Thinning
    aim_error_deg: float  # the error left on an aimed shot after the player has corrected for throw
    chalk_lines: bool  # the table's lines are marked on the cloth (pool's strings and pyramid's are not)
    diamonds: bool  # sights on the rails (pool and carom tables; snooker tables have none)


_SNOOKER_COLOURS = ("yellow", "green", "brown", "blue", "pink", "black")

WORLDS: Mapping[str, GameWorld] = MappingProxyType(
    {
        "snooker": GameWorld(
            opening=Opening(
                # Apex as close to the pink as possible without touching it (rules text section 5 p.3).
                Triangle("pink", behind_spot=True, kind="red", shuffled=False),
                MappingProxyType({c: c for c in _SNOOKER_COLOURS}),
                cue_beside="brown",
                shot=BreakShot.THIN_ON_PACK,
            ),
            in_hand=InHand("D", arc="D"),
            thinning=Thinning.REDS_THEN_COLOURS,
            aim_error_deg=AIM_ERROR_DEG,
            chalk_lines=True,
            diamonds=False,
        ),
        "straight-pool": GameWorld(
            # 14.1 (rules text): the 1 on the right corner of the back row, the 5 on the left, others random.
            opening=Opening(
                Triangle("foot", fixed=MappingProxyType({"1": 14, "5": 10})),
                MappingProxyType({}),
                cue_beside=None,
                shot=BreakShot.POWER,
            ),
            in_hand=InHand("kitchen", line="head_string"),
            thinning=Thinning.ANY,
            aim_error_deg=AIM_ERROR_DEG,
            chalk_lines=False,
            diamonds=True,
        ),
        "pyramid": GameWorld(
            opening=Opening(Triangle("back"), MappingProxyType({}), cue_beside=None, shot=BreakShot.POWER),
            in_hand=InHand("home", line="home"),
            thinning=Thinning.ANY,
            aim_error_deg=PYRAMID_AIM_ERROR_DEG,
            chalk_lines=False,
            diamonds=True,
        ),
        "five-pins": GameWorld(
            opening=Opening(
                None,
                MappingProxyType({"yellow": "top", "red": "red"}),
                cue_beside=None,
                shot=BreakShot.OPPONENT_BALL,
            ),
            in_hand=InHand("bottom half", line="middle"),
            thinning=Thinning.NONE,
            aim_error_deg=AIM_ERROR_DEG,
            chalk_lines=True,
            diamonds=True,
        ),
    }
)


def world_of(spec: BilliardsSpec) -> GameWorld:
    """The synthetic world's record of ``spec``; ``ValueError`` for a game it cannot film yet."""
    try:
        return WORLDS[spec.id]
    except KeyError:
        raise ValueError(
            f"the synthetic world has no setup for {spec.id!r}; add one to datasets.billiards.world.WORLDS"
        ) from None
