"""The ball sets of the billiard games: ids (architecture.md), values' colours and the look of each ball.

The look is what a camera can tell apart, so it is also the detector's class vocabulary: one class per
distinct appearance (``appearance_class``), shared across games, and each game's ids map onto it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

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


def _snooker_set() -> dict[str, BallLook]:
    reds = {f"red:{i}": BallLook("red", _SNOOKER_RGB["red"]) for i in range(1, 16)}
    colours = {k: BallLook(k, _SNOOKER_RGB[k]) for k in ("yellow", "green", "brown", "blue", "pink", "black")}
    return {"white": BallLook("white", _SNOOKER_RGB["white"]), **reds, **colours}


def _numbered(cue: BallLook, look: Callable[[int], BallLook]) -> dict[str, BallLook]:
    return {"cue": cue, **{str(n): look(n) for n in range(1, 16)}}


def _pool_ball(n: int) -> BallLook:
    return BallLook(f"pool_{n}", _POOL_RGB[n if n <= 8 else n - 8], number=n, striped=n > 8)


SNOOKER_SET: Mapping[str, BallLook] = MappingProxyType(_snooker_set())
"""Snooker: the white, fifteen reds and the six colours (architecture.md, Identifiers), cue ball first."""
POOL_SET: Mapping[str, BallLook] = MappingProxyType(
    _numbered(BallLook("white", _SNOOKER_RGB["white"]), _pool_ball)
)
"""14.1 continuous: a white cue ball and the WPA-coloured balls 1-15, 9-15 striped."""
PYRAMID_SET: Mapping[str, BallLook] = MappingProxyType(
    _numbered(
        BallLook("yellow", _SNOOKER_RGB["yellow"]),  # the set's cue ball is the coloured unnumbered one
        lambda n: BallLook("pyramid_ball", _IVORY, number=n),
    )
)
"""Russian pyramid: fifteen numbered ivory balls and a coloured cue ball (still called ``cue``)."""
FIVE_PINS_SET: Mapping[str, BallLook] = MappingProxyType(
    {k: BallLook(k, _SNOOKER_RGB[k]) for k in ("white", "yellow", "red")}
)
"""Five-pins: the two players' balls, white and yellow, and the red."""


def kind(ball_id: str) -> str:
    """The kind of an id: ``red:4`` -> ``red``; rules look at the kind only."""
    return ball_id.split(":", 1)[0]


PIN_RGB: dict[str, RGB] = {"pin:c": (200, 30, 30)}  # the centre pin is red, the others white
PIN_WHITE: RGB = (240, 238, 230)
