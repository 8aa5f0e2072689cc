"""What the simulated camera sees at one instant: the values passed from the physics to the renderer."""

from __future__ import annotations

from dataclasses import dataclass

XY = tuple[float, float]


@dataclass(frozen=True)
class BallState:
    """A ball at one instant, in table millimetres. ``on_table`` is False once it has been pocketed or has
    left the table (it is then not drawn); ``pocket`` names the pocket it went into."""

    id: str
    xy_mm: XY
    moving: bool
    on_table: bool = True
    pocket: str | None = None


@dataclass(frozen=True)
class PinState:
    """A five-pins pin at one instant: standing on ``xy_mm`` or lying down with its head toward
    ``fall_angle_rad`` (measured from +x, counter-clockwise in table coordinates)."""

    id: str
    xy_mm: XY
    down: bool = False
    fall_angle_rad: float = 0.0


@dataclass(frozen=True)
class SceneSample:
    """Every ball and pin at time ``t`` (seconds from the start of the clip)."""

    t: float
    balls: tuple[BallState, ...]
    pins: tuple[PinState, ...] = ()
