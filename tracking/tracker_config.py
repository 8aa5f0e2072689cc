"""The tracker's settings (``BallTracker``), each with what it trades off."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TrackerConfig:
    """Settings of the tracker. Each trades something off:

    - ``n_init``: hits before a track is a ball; higher ignores flickering false detections, but a ball
      appearing (a respot) is reported later.
    - ``max_misses_moving``: frames a *moving* ball may go unseen before it is gone; too low turns a ball
      briefly hidden by the cue into a pot, too high delays pots.
    - ``gate_mm``: largest distance between a prediction and a detection of look-alike balls (reds) that may
      be associated; it must exceed what a struck ball travels in a frame from rest (a break sends a ball
      at 8 m/s: 133 mm a frame at 60 fps). Balls of a unique look are associated at any distance.
    - ``accel_mm_s2``: process noise, the acceleration the filter expects; collisions and cushions are
      large, sudden accelerations, so it is generous.
    - ``measurement_mm``: the detector's position noise.
    - ``rest_speed_mm_s``: below this the ball counts as at rest.
    - ``pocket_reach_mm``: a ball lost within this distance of a pocket mouth, heading into it, is potted
      (``BallTracker._exit``); larger calls pots of balls lost short of the pocket, smaller misses pots of
      fast balls the detector loses a frame or two before the mouth.
    - ``pot_confirm_s``: how long a ball seen going into a pocket must then stay unseen to be potted; a
      ball rattling in the jaws, or lost for a few frames there, that is seen again is no pot. Longer
      holds the events after it back for as long (the stream stays in time order). A slow ball must stay
      unseen for as long as it takes to roll a ball's width past the mouth, up to ``POT_CONFIRM_MAX_S``.
    """

    n_init: int = 2
    max_misses_moving: int = 4
    gate_mm: float = 250.0
    accel_mm_s2: float = 20000.0
    measurement_mm: float = 2.0
    rest_speed_mm_s: float = 15.0
    pocket_reach_mm: float = 120.0
    pot_confirm_s: float = 0.1

    def __post_init__(self) -> None:
        if self.n_init < 1:
            raise ValueError(f"n_init must be at least 1 (got {self.n_init})")
        if self.max_misses_moving < 1:
            raise ValueError(f"max_misses_moving must be at least 1 (got {self.max_misses_moving})")
        for name in (
            "gate_mm",
            "accel_mm_s2",
            "measurement_mm",
            "rest_speed_mm_s",
            "pocket_reach_mm",
            "pot_confirm_s",
        ):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive (got {getattr(self, name)})")
