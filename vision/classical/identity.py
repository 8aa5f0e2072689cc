"""Identity: which of the game's balls each circle is, from what its pixels say (``colour.Colour``).

Each frame's balls are assigned to the game's classes respecting how many balls share each look
(fifteen reds, one of each pool ball), which settles look-alikes such as pool 3 and 7 by comparison rather
than by absolute colour. The frame's light (how it moves every ball's brightness, colour strength and hue)
is estimated together with the names, from a typical light and from lights turned a little either way, and
the names and light that fit each other best are kept; a camera that turns some hues one way and others the
other is read from the balls of near hues in the same frame, so a pool stripe is named by its solid's
colour beside it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import linear_sum_assignment

from arbiter.balls import APPEARANCE_CLASSES, BallLook
from arbiter.games import BilliardsSpec

from .colour import Colour, opponent
from .kernels import EPS, LUMA
from .lighting import Lighting, hue_nearness, wrapped

# Identity. Ball colours are compared with the cloth brightness next to them; a club cloth's luma is
# 55-110, so prototypes assume a typical one. A ball's well-lit pixels keep ~0.8 of its colour strength
# (shading, and chroma blurred by video compression), and its median pixel ~0.9 of its brightness.
_CLOTH_LUMA = 85.0
_COLOUR_KEPT, _LIGHT_KEPT = 0.8, 0.9
# Expected shares of (dark, white, coloured) pixels on a ball's face. A stripe shows 20-55 % colour from
# above depending on how it lies, but compression bleeds colour into the white: measured ~0.3 white.
_SHARES_SOLID = (0.02, 0.03, 0.95)
_SHARES_STRIPE = (0.0, 0.3, 0.7)
_SHARES_WHITE = (0.0, 1.0, 0.0)
_SHARES_BLACK = (0.9, 0.1, 0.0)
_SHARES_EIGHT = (0.8, 0.15, 0.05)  # the pool 8: black with a white number disc
_SHARES_IVORY = (0.0, 0.6, 0.4)  # pyramid balls: ivory is pale enough to read partly as white
# Weights of the colour distance: pixel shares (L1, 0..2), hue (half-turns, 0..1), colour strength and
# brightness (absolute log ratios).
_W_SHARES, _W_HUE, _W_STRENGTH, _W_LIGHT = 1.0, 2.0, 0.5, 0.5
# Brightness also tells coloured balls apart (pink from brown and red, brown from black), once the frame's
# lighting is allowed for (``Lighting``).
_W_LIGHT_HUED = 0.5
# A ball with a spot of its own (snooker's colours, five-pins' red) is respotted once the balls stop: in a
# picture of balls at rest it is on the table (after the reds only such balls are left: no choice changes).
# Of two looks a ball at rest is nearly as near, its class is filled first, by this much of a colour
# distance (under a magenta light a real brown reads 0.01 nearer red, no other ball named brown). Not while
# balls move: a colour just potted is off the table, and a far red named it would bring it back.
_RESPOTTED = 0.1
_LIGHTING_ROUNDS = 2
# The frame's light is estimated from the balls as first named, and names and light settle together: from a
# typical light an orange read 15 degrees yellower names the yellow 1, the blue 2 takes the purple 4's name,
# and the light that fits those names turns no hue (the grey overhead table's game photo: 4.85 of colour
# distance in all; named from a light that turns every hue 15 degrees, 4.71 and every ball right).
_HUE_STARTS = (0.0, math.radians(-15.0), math.radians(15.0))
# The colour distance a light that turns every hue by a radian costs: of two near ties, the lesser turn is
# kept (the game photo under a warm ramp: names 4.86 at a 22 degree turn, 4.91 at 11, the second right).
_TURN_PRICE = 0.3
# A prototype colour greyer than this (saturation) has no hue; a grey one darker than this (relative to a
# typical cloth, after shading) is a black ball.
_GREY, _BLACK = 0.3, 0.45
# The cue ball (or snooker's white) is plain: print on a face (``markings``) from _PLAIN up to _MARKED costs
# the white class up to _W_PLAIN. Plain whites measure <= 0.01 on the real photos (<= 0.04 on renders'
# balls 5 px across), stripes turned white side up and every numbered ball >= 0.05: the cue ball is told
# from them when neither shows colour. Read inside _MARKS_REACH of the colour radius: a small ball's edge
# is blurred with the cloth.
_W_PLAIN, _PLAIN, _MARKED = 1.0, 0.02, 0.06


# One class as it should measure: class index, shares, hue, strength, log light, whether it has a hue,
# whether it is a numbered solid.
_Prototype = tuple[int, tuple[float, float, float], float, float, float, bool, bool]


def _prototype(look: BallLook) -> _Prototype:
    """What a ball of ``look`` should measure as, next to a typical cloth."""
    bgr = np.array(look.rgb[::-1], np.float32)
    top = float(bgr.max())
    chroma = top - float(bgr.min())
    luma = float(LUMA @ bgr)
    grey = chroma / max(top, EPS) < _GREY
    if look.cls == "pyramid_ball":
        shares = _SHARES_IVORY
    elif grey:
        shares = _SHARES_BLACK if luma * _LIGHT_KEPT / _CLOTH_LUMA < _BLACK else _SHARES_WHITE
    elif look.number == 8:
        shares = _SHARES_EIGHT
    else:
        shares = _SHARES_STRIPE if look.striped else _SHARES_SOLID
    a, b = opponent(bgr)
    return (
        APPEARANCE_CLASSES.index(look.cls),
        shares,
        math.atan2(float(b), float(a)),
        chroma * _COLOUR_KEPT / _CLOTH_LUMA,
        math.log(luma * _LIGHT_KEPT / _CLOTH_LUMA),
        shares[2] > 0.2,
        shares is _SHARES_SOLID and look.number is not None,
    )


@dataclass(frozen=True)
class BallSet:
    """A game's appearance classes: what each should measure as, and how many of the game's balls share
    it (the capacities of the per-frame assignment)."""

    cls: np.ndarray  # (P,) indices into APPEARANCE_CLASSES
    shares: np.ndarray  # (P, 3) expected dark, white, coloured shares
    hue: np.ndarray  # (P,) radians, opponent-colour angle
    strength: np.ndarray  # (P,) expected colour strength relative to the cloth
    light: np.ndarray  # (P,) log expected median brightness relative to the cloth
    coloured: np.ndarray  # (P,) bool: the class has a hue to compare
    count: np.ndarray  # (P,) balls of the game with this look
    numbered: np.ndarray  # (P,) bool: a solid with a number disc (its white disc facing up is its colour's)
    respotted: np.ndarray  # (P,) bool: the one ball of this look has a spot of its own (``_RESPOTTED``)

    @classmethod
    def for_game(cls, spec: BilliardsSpec, at_rest: bool = False) -> BallSet:
        """The game's looks; ``at_rest``: named in pictures of balls at rest (photos), where every ball with
        a spot of its own is on the table (``_RESPOTTED``)."""
        rows: dict[str, _Prototype] = {}
        counts: dict[str, int] = {}
        spotted: set[str] = set()
        for ball, look in spec.looks.items():
            counts[look.cls] = counts.get(look.cls, 0) + 1
            if look.cls not in rows:
                rows[look.cls] = _prototype(look)
            if ball in spec.table.spots:
                spotted.add(look.cls)
        values = list(rows.values())
        return cls(
            np.array([v[0] for v in values], np.int64),
            np.array([v[1] for v in values], np.float64),
            np.array([v[2] for v in values]),
            np.array([v[3] for v in values]),
            np.array([v[4] for v in values]),
            np.array([v[5] for v in values], bool),
            np.array([counts[k] for k in rows], np.int64),
            np.array([v[6] for v in values], bool),
            np.array([at_rest and k in spotted and counts[k] == 1 for k in rows], bool),
        )

    @property
    def white(self) -> int | None:
        """The white ball's class (index into this set), the reference of ``balanced``; None for a set
        without one (pyramid's ivory balls)."""
        rows = np.nonzero(~self.coloured & (self.shares[:, 1] > 0.9))[0]
        return int(rows[0]) if len(rows) else None

    def costs(
        self, colour: Colour, lighting: Lighting | None = None, looks: np.ndarray | None = None
    ) -> np.ndarray:
        """Colour distance (N, P) of every ball to every class, under ``lighting`` (how this frame's light
        shifts every ball's brightness, colour strength and hue from a typical cloth's); ``looks``: the
        part no light changes (``look_costs``), where already reckoned."""
        lighting = lighting or Lighting()
        turn = np.abs(wrapped(colour.hue[:, None] - lighting.turns - self.hue[None, :])) / np.pi
        expected = np.maximum(self.strength[None, :] * math.exp(lighting.strength), EPS)
        strength = np.abs(np.log(np.maximum(colour.strength[:, None], EPS) / expected))
        hued = np.where(colour.has_hue[:, None], _W_HUE * turn + _W_STRENGTH * strength, _W_HUE)
        light = np.abs(colour.light[:, None] - lighting.light - self.light[None, :])
        # A ball read from its rim shows its white face: its brightness says nothing of its colour's.
        coloured = hued + _W_LIGHT_HUED * np.where(colour.rim[:, None], 0.0, light)
        lit = np.where(self.coloured[None, :], coloured, _W_LIGHT * light)
        return np.asarray((self.look_costs(colour) if looks is None else looks) + lit)

    def look_costs(self, colour: Colour) -> np.ndarray:
        """The part of the colour distance (N, P) no light changes: the shares of dark, white and coloured
        pixels, and the print on a face that tells the cue ball from a white-faced stripe."""
        # A numbered solid's disc facing up is read as its colour, not as white.
        as_solid = colour.shares + colour.disc[:, None] * np.array([0.0, -1.0, 1.0])
        seen = np.where(self.numbered[None, :, None], as_solid[:, None, :], colour.shares[:, None, :])
        cost = _W_SHARES * np.abs(seen - self.shares[None, :, :]).sum(axis=2)
        if self.white is not None:
            cost[:, self.white] += _W_PLAIN * np.clip((colour.marks - _PLAIN) / (_MARKED - _PLAIN), 0.0, 1.0)
        return np.asarray(cost)

    def assign(self, cost: np.ndarray) -> np.ndarray:
        """Class index (into this set) per ball: the assignment of least total cost (Hungarian) in which no
        class holds more balls than the game has (fifteen reds, one of each colour; one of each pool
        number), a respotted ball's class filled first at a near tie (``_RESPOTTED``). When more balls are
        found than exist, the rest keep their nearest class."""
        slots = np.repeat(np.arange(len(self.cls)), self.count)
        rows, cols = linear_sum_assignment(cost[:, slots] - _RESPOTTED * self.respotted[slots])
        choice: np.ndarray = cost.argmin(axis=1)
        choice[rows] = slots[cols]
        return choice

    def name(self, colour: Colour) -> tuple[np.ndarray, np.ndarray]:
        """Class index per ball and its colour distance, named relative to this frame's lighting: assign
        under a light, estimate how the frame's light differs from the balls so named (their median
        brightness, colour-strength and hue offsets from their classes), and assign again under it. The
        names and the light that go together are found from a typical light and from lights that turn
        every hue a little either way (``_HUE_STARTS``), and the pair of least total distance is kept."""
        looks = self.look_costs(colour)
        best: tuple[float, np.ndarray, np.ndarray] | None = None
        tried: list[np.ndarray] = []
        for start in _HUE_STARTS:
            first = self.assign(self.costs(colour, Lighting(hue=start), looks))
            if any(np.array_equal(first, t) for t in tried):
                continue  # the same names lead to the same light
            tried.append(first)
            choice, distance, lighting = self._named_from(colour, first, looks)
            score = float(distance.sum()) + _TURN_PRICE * abs(lighting.hue)
            if best is None or score < best[0] - EPS:
                best = score, choice, distance
        assert best is not None
        return best[1], best[2]

    def _named_from(
        self, colour: Colour, choice: np.ndarray, looks: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, Lighting]:
        """Class index per ball, its colour distance and the frame's light, estimated from the names
        ``choice`` on (``looks``: ``look_costs``)."""
        for _ in range(_LIGHTING_ROUNDS - 1):
            choice = self.assign(self.costs(colour, self.lighting(colour, choice), looks))
        lighting = self.lighting(colour, choice)
        cost = self.costs(colour, lighting, looks)
        choice = self.assign(cost)
        return choice, cost[np.arange(len(choice)), choice], lighting

    def lighting(self, colour: Colour, choice: np.ndarray) -> Lighting:
        """The frame's light as the balls named ``choice`` show it (``Lighting.fitted``): how far each is
        from its class, and of those whose hue says something of the light (a rim's colour is not the
        light's), how their colour strength and hue are moved."""
        hued = np.nonzero(colour.has_hue & ~colour.rim & self.coloured[choice])[0]
        named = choice[hued]
        return Lighting.fitted(
            colour.light - self.light[choice],
            hued,
            np.log(np.maximum(colour.strength[hued], EPS) / self.strength[named]),
            wrapped(colour.hue[hued] - self.hue[named]),
            hue_nearness(self.hue, self.hue[named], self.coloured),
        )
