"""The settings of event detection (``tracking.events``), each with what it trades off."""

from __future__ import annotations

from dataclasses import dataclass, field

from .unfolding import UnfoldConfig


@dataclass(frozen=True)
class EventConfig:
    """Settings of event detection. Each trades something off:

    - ``window``: frames fitted on each side of a kink: more is steadier against detector noise, but needs
      that many frames between two contacts and delays each event by that many frames.
    - ``kink_mm_s``: smallest velocity change that is a contact; above the velocity noise of a
      ``window``-frame fit, below a soft kiss.
    - ``cushion_tol_mm`` / ``ball_tol_mm``: how far from the exact touching distance a kink may happen
      and still be explained by that cushion or ball (detector noise plus a frame's travel of the fit).
    - ``moving_mm_s``: a kink needs the ball to move at least this fast on one side of it; below, the
      change is detector noise on a ball at rest.
    - ``min_move_mm``: a ball leaving rest must get this far from its spot within the window;
      ``departure_mm``: the first sample that far from the rest position is its first in motion (a few
      times the detector's noise).
    - ``rest_mm_s``: a ball slower than this is at rest; ``settle_s``: how long everything must rest before
      the shot ends.
    - ``lost_wait_s``: how long a ball lost while moving holds the end of the shot back.
    - ``hold_s``: the reorder buffer; the pot of a ball is known only once the tracker gives it up.
    - ``unfold``: reading the cushions a ball met while unseen (``tracking.unfolding``).
    """

    window: int = 3
    kink_mm_s: float = 120.0
    moving_mm_s: float = 150.0
    min_move_mm: float = 6.0
    departure_mm: float = 3.0
    cushion_tol_mm: float = 25.0
    ball_tol_mm: float = 30.0
    rest_mm_s: float = 25.0
    settle_s: float = 0.4
    lost_wait_s: float = 3.0
    hold_s: float = 0.03
    unfold: UnfoldConfig = field(default_factory=UnfoldConfig)

    def __post_init__(self) -> None:
        if self.window < 2:
            raise ValueError(f"window must be at least 2 frames (got {self.window})")
        for name in (
            "kink_mm_s",
            "moving_mm_s",
            "min_move_mm",
            "cushion_tol_mm",
            "ball_tol_mm",
            "rest_mm_s",
            "settle_s",
        ):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive (got {getattr(self, name)})")
        if self.hold_s < 0:
            raise ValueError(f"hold_s must not be negative (got {self.hold_s})")
