"""Balls that seem to leave rest because the camera moved, not because anything struck them.

A camera that moves a little is followed (``vision.camera_follow``), but only now and then: between two
looks, a knock shifts every ball on the picture at once, and a slow re-framing makes every ball creep. A
struck ball does neither: it leaves its spot at once at the speed of a stroke or a contact (a gentle one is
still 100 mm/s and more), and alone, or with the balls it was touching, each its own way. So:

- ``creeping``: a ball that got away from its spot mostly before its last few samples has crept there
  with the picture (its spot, a running mean of its places, lags it), not been struck: it has not left
  rest, and its spot follows it. A ball struck, or nudged a few millimetres in a pack, gets away within
  them.
- ``picture_jump``: balls at rest that all leave their spots in one frame by one displacement of the
  picture, no moving ball touching them, are one jump of the picture (the camera knocked, or the
  calibration moved back onto a knocked camera): none of them left rest. Seen from straight above, one
  displacement moves every ball alike; seen at a tilt (a broadcast camera), a shift of the picture moves
  the far balls farther on the table than the near ones, a field that changes little and smoothly across
  it (``JUMP_GRADIENT``), where a pack struck apart spreads tens of times faster.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .cushion_sides import Sample

CREEP_SHARE = 0.5  # a ball that covered less of its distance from its spot in its last few samples crept
JUMP_AGREE_MM = 4.0  # displacements this close to their median are one jump of the picture
JUMP_SHARE = 2 / 3  # ... and it must move this share of the balls at rest (at least two)
# A jump of a tilted picture: the displacement may change across the table by this much per mm (a 1 % knock
# of a broadcast camera: about 0.01; a pack struck apart: 0.1 and more). Fitted where at least
# JUMP_FIELD_BALLS balls moved.
JUMP_GRADIENT = 0.03
JUMP_FIELD_BALLS = 4


def creeping(samples: Sequence[Sample], k: int, after: int, rest: tuple[float, float]) -> bool:
    """Whether a ball seen away from its spot ``rest`` at sample ``k`` got there mostly before it: its
    samples ``k - 1 .. k + after`` cover under ``CREEP_SHARE`` of its distance from the spot. A spot lags a
    ball that creeps with a drifting picture (it is the running mean of its places); a ball struck, or
    nudged a few millimetres in a pack, gets there within those samples."""
    before, last = samples[max(k - 1, 0)], samples[min(k + after, len(samples) - 1)]
    away = math.dist(last[1:], rest)
    return math.dist(last[1:], before[1:]) < CREEP_SHARE * away


def picture_jump(moves: Sequence[tuple[str, np.ndarray, np.ndarray]], resting: int) -> set[str]:
    """Of the balls that left rest in one frame with no moving ball touching them (``moves``: each ball,
    its spot and its displacement from it, mm), those that are one jump of the picture: at least two, and
    at least ``JUMP_SHARE`` of the ``resting`` balls (those at rest just before, these included), each
    displaced within ``JUMP_AGREE_MM`` of one displacement (their median) or, with ``JUMP_FIELD_BALLS`` or
    more, of a field that changes across the table by at most ``JUMP_GRADIENT`` (``_jump_field``). Empty
    when there is no such jump."""
    if len(moves) < 2:
        return set()
    spots = np.array([p for _, p, _ in moves], np.float64)
    shifts = np.array([d for _, _, d in moves], np.float64)
    agree = np.hypot(*(shifts - np.median(shifts, axis=0)).T) <= JUMP_AGREE_MM
    field = _jump_field(spots, shifts)
    if field is not None and field.sum() > agree.sum():
        agree = field
    if agree.sum() < 2 or agree.sum() < JUMP_SHARE * resting:
        return set()
    return {ball for (ball, _, _), ok in zip(moves, agree, strict=True) if ok}


def _jump_field(spots: np.ndarray, shifts: np.ndarray) -> np.ndarray | None:
    """Which balls' ``shifts`` (N, 2) lie within ``JUMP_AGREE_MM`` of one affine field over their ``spots``
    (N, 2) whose gradient is at most ``JUMP_GRADIENT``: fitted to all, then again to those within reach of
    the first fit. None with fewer than ``JUMP_FIELD_BALLS`` balls or a gradient too steep for a picture."""
    if len(spots) < JUMP_FIELD_BALLS:
        return None
    design = np.column_stack([spots - spots.mean(axis=0), np.ones(len(spots))])
    near = np.ones(len(spots), bool)
    for _ in range(2):
        if near.sum() < JUMP_FIELD_BALLS:
            return None
        coef = np.linalg.lstsq(design[near], shifts[near], rcond=None)[0]
        near = np.hypot(*(shifts - design @ coef).T) <= JUMP_AGREE_MM
    if float(np.linalg.norm(coef[:2])) > JUMP_GRADIENT:
        return None
    return near
