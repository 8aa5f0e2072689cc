"""The ball sets of the billiard games: ids (architecture.md), values' colours and the look of each ball.

The look is what a camera can tell apart, so it is also the detector's class vocabulary: one class per
distinct appearance (``appearance_class``), shared across games, and each game's ids map onto it.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class BallLook:
    """How a ball looks from above: body colour, an optional white-band stripe and a printed number."""

    cls: str  # appearance class (detector vocabulary)
    rgb: RGB
    number: int | None = None
    striped: bool = False


_SNOOKER_RGB: dict[str, RGB] = {
    "white": (236, 234, 222),
    "red": (178, 18, 22),
    "yellow": (238, 196, 20),
    "green": (18, 120, 52),
    "brown": (112, 58, 24),
    "blue": (18, 58, 170),
    "pink": (240, 130, 160),
    "black": (18, 18, 20),
}
# The WPA/BCA colour code of numbered pool balls; 9-15 are the striped twins of 1-7.
_POOL_RGB: dict[int, RGB] = {
    1: (242, 190, 20),
    2: (20, 60, 170),
    3: (200, 30, 30),
    4: (90, 40, 140),
    5: (240, 110, 20),
    6: (20, 120, 60),
    7: (120, 30, 30),
    8: (18, 18, 20),
}
_IVORY: RGB = (238, 228, 200)

APPEARANCE_CLASSES: tuple[str, ...] = (
    *_SNOOKER_RGB,
    *(f"pool_{n}" for n in range(1, 16)),
    "pyramid_ball",
    "pin_standing",
    "pin_down",
)


def ball_ids(game: str) -> tuple[str, ...]:
    """Every ball id of a game's set, cue ball first (architecture.md, Identifiers)."""
    if game == "snooker":
        return (
            "white",
            *(f"red:{i}" for i in range(1, 16)),
            "yellow",
            "green",
            "brown",
            "blue",
            "pink",
            "black",
        )
    if game in ("straight-pool", "pyramid"):
        return ("cue", *(str(i) for i in range(1, 16)))
    if game == "five-pins":
        return ("white", "yellow", "red")
    raise ValueError(f"unknown billiards game {game!r}")


def cue_ball_id(game: str) -> str:
    return ball_ids(game)[0]


def kind(ball_id: str) -> str:
    """The kind of an id: ``red:4`` -> ``red``; rules look at the kind only."""
    return ball_id.split(":", 1)[0]


def ball_look(game: str, ball_id: str) -> BallLook:
    """How ``ball_id`` of ``game`` looks. Raises ``ValueError`` for an id the game does not have."""
    if ball_id not in ball_ids(game):
        raise ValueError(f"{game} has no ball {ball_id!r}")
    if game in ("snooker", "five-pins"):
        k = kind(ball_id)
        return BallLook(k, _SNOOKER_RGB[k])
    if ball_id == "cue":
        # A pool cue ball is white; the pyramid set's cue ball is the coloured unnumbered one (yellow).
        return (
            BallLook("white", _SNOOKER_RGB["white"])
            if game == "straight-pool"
            else BallLook("yellow", _SNOOKER_RGB["yellow"])
        )
    n = int(ball_id)
    if game == "pyramid":
        return BallLook("pyramid_ball", _IVORY, number=n)
    return BallLook(f"pool_{n}", _POOL_RGB[n if n <= 8 else n - 8], number=n, striped=n > 8)


PIN_RGB: dict[str, RGB] = {"pin:c": (200, 30, 30)}  # the centre pin is red, the others white
PIN_WHITE: RGB = (240, 238, 230)
