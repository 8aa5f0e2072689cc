"""A ball at rest that a passing ball's image pulled about, not one it struck.

A ball that runs past another at rest a hair wide of it (broadcast 9305, shot 4: the white 0.9 mm wide of
the pink, their images merged from the far camera) bends its own detected line a little, and pulls the
resting ball's detected centre a few millimetres towards it and back: a kink beside a ball that "changed".
A contact does more. Balls of equal mass share the change of velocity, so a ball struck at rest leaves at
the striker's change of speed (about ``ROLL_SHARE`` of it once it rolls) and does not come back.

So the contact a kink reads with a ball is refused (``changed_by``) where that ball did not change: seen at
its spot well after (``unseen_contacts.still_after``), or, at rest, seen ``SEEN_AFTER_S`` or more after the
kink back within ``back_mm`` of its spot while the kick would have carried it at least ``MARGIN`` times as
far, never farther than ``WIGGLE_MM`` from it about then (``pulled_not_struck``). A ball with a third ball
(``address_steps.touched``) or a cushion (``CUSHION_SLACK_MM``) at its back is left alone: it passes the kick
on and may stay where it was (a Newton's cradle; a ball frozen to a cushion).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from arbiter.tables import TableModel

from .address_steps import touched
from .ball_path import BallPath
from .cushion_sides import AXIS, SIDES, Sample, ball_line, velocity_change
from .event_config import EventConfig
from .paths import position_at
from .unseen_contacts import still_after

# A ball at rest may seem to leave this long before it is struck: its detection pulled by the striker's image.
EARLY_DEPARTURE_S = 0.05

ROLL_SHARE = 5 / 7  # a ball struck from rest slides, then rolls at 5/7 of the speed it was given
MARGIN = 2.0  # how many times farther than ``back_mm`` the kick would have carried it
SEEN_AFTER_S = 0.05  # it must be seen this long after the kink (three frames at 60 fps, two at 30)
LOOK_BACK_S = 0.1  # and seen at its spot in this time before the kink
WIGGLE_MM = 15.0  # what a passing ball's image pulls a resting ball's centre by: under a radius
CUSHION_SLACK_MM = 10.0  # a cushion this much beyond touching distance could take the kick on


def changed_by(
    paths: Mapping[str, BallPath],
    ball: str,
    by: str,
    t: float,
    kick_mm_s: float,
    table: TableModel,
    cfg: EventConfig,
) -> bool:
    """Whether ``ball``'s velocity changed around ``t``, where the velocity of ``by`` beside it changed by
    ``kick_mm_s`` then (a kink): it was struck, or it struck. Not where it was seen at its spot well after
    (struck later, if at all), nor where the kick would have moved it away and it is back at its spot
    (``pulled_not_struck``); a ball too little seen to refuse it did."""
    path, back = paths[ball], cfg.departure_mm
    others = (p.samples for b, p in paths.items() if b not in (ball, by))
    if still_after(path.samples, t, EARLY_DEPARTURE_S, back):
        return False
    if pulled_not_struck(path.samples, path.rest, t, kick_mm_s, back, others, table):
        return False
    dv = velocity_change(path.samples, t, cfg.window)
    return dv is None or dv >= cfg.kink_mm_s / 2


def pulled_not_struck(
    samples: Sequence[Sample],
    rest: tuple[float, float] | None,
    t: float,
    kick_mm_s: float,
    back_mm: float,
    others: Iterable[Sequence[Sample]],
    table: TableModel,
) -> bool:
    """Whether a kink at ``t`` whose change of speed is ``kick_mm_s`` struck nothing at ``rest``, the spot of
    the ball of ``samples``: it was there before the kink and is back within ``back_mm`` of it well after,
    never farther than ``WIGGLE_MM`` between, where such a kick would have carried it ``MARGIN`` times as
    far, with no ball of ``others`` (their samples, the striker's left out) or cushion at its back."""
    if rest is None or not samples or samples[-1][0] < t + SEEN_AFTER_S:
        return False
    around = [s for s in samples if s[0] >= t - LOOK_BACK_S]
    if len(around) == len(samples) or around[0][0] >= t:
        return False  # not seen at its spot before the kink
    if any(math.dist(s[1:], rest) > WIGGLE_MM for s in around):
        return False
    last = samples[-1]
    if math.dist(last[1:], rest) > back_mm or ROLL_SHARE * kick_mm_s * (last[0] - t) < MARGIN * back_mm:
        return False
    return not _backed(rest, t, others, table)


def _backed(
    rest: tuple[float, float], t: float, others: Iterable[Sequence[Sample]], table: TableModel
) -> bool:
    """Whether a ball (of ``others``) or a cushion lay against ``rest`` at ``t``, within its slack."""
    for side in SIDES:
        line, inward = ball_line(table, side)
        if inward * (rest[AXIS[side]] - line) <= CUSHION_SLACK_MM:
            return True
    return touched(rest, (position_at(samples, t) for samples in others), table.ball_radius_mm)
