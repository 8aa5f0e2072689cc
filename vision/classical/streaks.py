"""Balls in their own blur: a ball struck hard is a streak, not a disk.

At 4-7 m/s a ball moves two or three diameters while a 60 fps frame is exposed: the camera records a faint
band of its colour over the cloth, a ball wide and a few balls long, that no round-ball test finds (no
outline, no glint, a third of its colour). It is found here in the coarse foreground's score (how far each
pixel is from the cloth, ``vision.cloth.Foreground``) at a lower level than a ball needs: a connected patch
of a ball's width or less, longer than wide, no longer than a few balls, with a core that is foreground,
away from the balls found, and *new*: where the patch lies, the last frame was cloth (a marking, a
diamond's reflection or a cue's shadow at rest is there in both). Its centre is where the ball was half
way through the exposure. A streak's colour is the ball's diluted by the cloth, so it is not named: the
tracker gives it to the ball that is moving there or that has just left its place (``Detections.blurred``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class StreakConfig:
    """What a streak looks like, in ball diameters and the foreground score (1: the cloth's threshold).

    - ``low``: the score a streak's pixels reach (a maroon ball at 6 m/s on a red cloth: 0.35-2.2).
    - ``peak``: the score its core must reach somewhere (a red at 7 m/s on a red cloth: 0.67-0.98, no pixel of
      it foreground).
    - ``area``: its size in ball areas (smaller: noise; bigger: an arm; a white at 7.8 m/s covers 4.2).
    - ``width``, ``length``: its extent across and along (a uniform band's, from its second moments).
    - ``elongation``: length over width at least this (a round patch is a ball the round tests judged).
    - ``clear``: its centre at least this many radii from every ball found.
    - ``new``: the share of its score the last frame showed at the same pixels, at most.
    - ``confidence``: what a streak's detection is worth (a ball surely moved, its place roughly).
    """

    enabled: bool = True
    low: float = 0.35
    peak: float = 0.6
    area: tuple[float, float] = (0.6, 8.0)
    width: tuple[float, float] = (0.4, 1.15)
    length: tuple[float, float] = (1.1, 6.0)
    elongation: float = 1.15
    clear: float = 1.8
    new: float = 0.5
    confidence: float = 0.35

    def __post_init__(self) -> None:
        if not 0.0 < self.low < self.peak:
            raise ValueError(f"StreakConfig needs 0 < low < peak (got {self.low}, {self.peak})")
        for name in ("area", "width", "length"):
            lo, hi = getattr(self, name)
            if not 0.0 < lo < hi:
                raise ValueError(f"StreakConfig.{name} must be a range 0 < low < high (got {lo}, {hi})")
        if not 0.0 < self.confidence < 1.0 or not 0.0 < self.new <= 1.0:
            raise ValueError(
                f"StreakConfig.confidence and new must lie in (0, 1] (got {self.confidence}, {self.new})"
            )


def find_streaks(
    score: np.ndarray,
    previous: np.ndarray | None,
    table: np.ndarray,
    balls_xy: np.ndarray,
    radius: float,
    cfg: StreakConfig,
) -> np.ndarray:
    """Centres (N, 2, coarse px) of the streaks in the coarse foreground ``score`` (H x W) inside ``table``
    (H x W, nonzero = table), clear of the balls found at ``balls_xy`` (M, 2, coarse px), new since the last
    frame's score ``previous`` (None: nothing to compare with, so none is taken as new). ``radius``: a
    ball's radius at the coarse level."""
    if previous is None or previous.shape != score.shape:
        return np.zeros((0, 2))
    patch = ((score >= cfg.low) & (table > 0)).view(np.uint8)
    for x, y in np.round(balls_xy).astype(np.int64):
        cv2.circle(patch, (int(x), int(y)), math.ceil(cfg.clear * radius), 0, -1)
    # Each patch's outline, then its own pixels inside its box: ten times cheaper than labelling the map.
    outlines, _ = cv2.findContours(patch, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    least, most = (a * math.pi * radius * radius for a in cfg.area)
    reach = (cfg.length[1] + cfg.width[1]) * 2.0 * radius  # the longest side of a streak's box
    centres = []
    for outline in outlines:
        x, y, w, h = cv2.boundingRect(outline)
        if w * h < least or max(w, h) > reach:
            continue
        inside = np.zeros((h, w), np.uint8)
        cv2.drawContours(inside, [outline - np.array([x, y], np.int32)], -1, 1, -1)
        ys, xs = np.nonzero(inside & patch[y : y + h, x : x + w])
        if least <= len(xs) <= most:
            centres.append(_streak_centre(score, previous, xs + x, ys + y, radius, cfg))
    return np.array([c for c in centres if c is not None], np.float64).reshape(-1, 2)


def _streak_centre(
    score: np.ndarray, previous: np.ndarray, xs: np.ndarray, ys: np.ndarray, radius: float, cfg: StreakConfig
) -> tuple[float, float] | None:
    """The score-weighted centre of the patch of pixels (``xs``, ``ys``) when it is a streak."""
    s = score[ys, xs]
    if s.max() < cfg.peak or previous[ys, xs].sum() > cfg.new * s.sum():
        return None
    weight = np.minimum(s, 2.0)  # a glint of a ball passing does not pull the centre
    cx, cy = np.average(xs, weights=weight), np.average(ys, weights=weight)
    cov = np.cov(np.stack([xs, ys]).astype(np.float64), aweights=weight)
    small, big = np.linalg.eigvalsh(cov)
    diameter = 2.0 * radius
    length, width = math.sqrt(12.0 * max(big, 0.0)) / diameter, math.sqrt(12.0 * max(small, 0.0)) / diameter
    if not (
        cfg.width[0] <= width <= cfg.width[1]
        and cfg.length[0] <= length <= cfg.length[1]
        and length >= cfg.elongation * width
    ):
        return None
    return float(cx), float(cy)
