"""A frame's light as its balls show it: how far it moves every ball's brightness, colour strength and hue
from what the ball's class measures next to a typical cloth (a dim or bright lamp over a pale or dark cloth,
a projector's washed-out colour, a tinted light that turns every hue), fitted to the balls as named
(``identity.BallSet.lighting``).

Every offset is the median over the balls, bounded, so one misnamed ball cannot move it. A camera does not
turn every hue alike, though: the grey overhead table's phone turns reds and blues 9-15 degrees one way and
oranges and yellows 9-15 the other, so each ball's hue under each class is expected where the frame's other
balls of hues near that class's put it (``_local_turns``), and a pool stripe is named by its solid's colour
beside it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

_MIN_BALLS = 3  # fewer balls (or balls with a hue) say nothing of the light
_BOUND = 1.0  # log units: at most e times brighter or dimmer, or stronger or fainter, than the prototypes
_HUE_BOUND = math.radians(30.0)  # the most a tint may turn every ball's hue
_HUE_REACH = math.radians(12.0)  # how near two classes' hues are for one's turn to say the other's
_HUE_PRIOR = 0.5  # the weight of the frame's own turn beside the balls of near hues


@dataclass(frozen=True)
class Lighting:
    """How a frame's light moves the balls' measures from what they are next to a typical cloth: log
    offsets of brightness and of colour strength, and the turn of their hues. Zero: the prototypes as they
    are."""

    light: float = 0.0
    strength: float = 0.0
    hue: float = 0.0  # radians: the turn a tinted light gives every colour
    # (N, P) radians: the turn each ball's colour is expected to show under each class, where the frame's
    # other balls of hues near that class's say how this camera turns them (``_local_turns``); None: ``hue``
    local: np.ndarray | None = field(default=None, compare=False)

    @property
    def turns(self) -> np.ndarray:
        """The hue turn expected of each ball under each class: (N, P), or one for all where no ball's
        neighbours say otherwise (a light to start from)."""
        return np.asarray(self.hue) if self.local is None else self.local

    @classmethod
    def fitted(
        cls, light: np.ndarray, hued: np.ndarray, strength: np.ndarray, turn: np.ndarray, near: np.ndarray
    ) -> Lighting:
        """The light that moves N balls from their classes: ``light`` (N,) their brightness offsets (log);
        of the balls ``hued`` (H, indices) whose hue says something of the light, the log ratios of their
        colour strength to their classes' (``strength``, H) and the turns of their hues (``turn``, H
        radians); ``near`` (P, H): how near each class's hue lies to each of those balls' classes'
        (``hue_nearness``)."""
        if len(light) < _MIN_BALLS:
            return cls()
        offset, strength_offset, hue, local = median(light), 0.0, 0.0, None
        if len(hued) >= _MIN_BALLS:
            strength_offset = median(strength)
            hue = float(np.clip(median(turn), -_HUE_BOUND, _HUE_BOUND))
            local = _local_turns(near, hued, turn, hue, len(light))
        b = _BOUND
        return cls(float(np.clip(offset, -b, b)), float(np.clip(strength_offset, -b, b)), hue, local)


def hue_nearness(class_hue: np.ndarray, named_hue: np.ndarray, coloured: np.ndarray) -> np.ndarray:
    """How near (P, H: 1 at the same hue, a Gaussian of ``_HUE_REACH``) each of P classes' hues
    (``class_hue``; 0 for a class with none, ``coloured`` False) lies to each of H balls' classes' hues
    (``named_hue``)."""
    apart = wrapped(class_hue[:, None] - named_hue[None, :]) / _HUE_REACH
    return np.asarray(np.exp(-0.5 * apart**2) * coloured[:, None])


def _local_turns(near: np.ndarray, hued: np.ndarray, turn: np.ndarray, hue: float, n: int) -> np.ndarray:
    """The hue turn (n, P) expected of each of n balls under each class: the frame's ``hue`` moved by how
    the balls ``hued`` (H,) turn (``turn``: H radians) beyond it, each weighing by how near its class's hue
    is to that class's (``near``: P, H) against ``_HUE_PRIOR`` for the frame's own turn. A ball's own
    reading is left out of its row (it would vouch for whatever it is named)."""
    beyond = np.clip(wrapped(turn - hue), -_HUE_BOUND, _HUE_BOUND)  # (H,)
    weight = np.broadcast_to(near, (n, *near.shape)).copy()  # (n, P, H)
    weight[hued, :, np.arange(len(hued))] = 0.0
    return np.asarray(hue + (weight @ beyond) / (weight.sum(axis=2) + _HUE_PRIOR))


def wrapped(angle: np.ndarray) -> np.ndarray:
    """Angles (radians) brought into (-pi, pi]: the turn from one hue to another, the short way round."""
    return np.asarray(np.angle(np.exp(1j * angle)))


def median(values: np.ndarray) -> float:
    """The median of a few values (``np.median``'s, without its overhead: this runs several times a
    frame)."""
    ordered = np.sort(values)
    half = len(ordered) // 2
    return float(ordered[half] if len(ordered) % 2 else 0.5 * (ordered[half - 1] + ordered[half]))
