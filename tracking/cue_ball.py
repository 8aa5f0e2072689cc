"""The cue ball named as a stripe, and a stripe as the cue ball, told by which of them the cue strikes.

On a cloth of a stripe's colour the cue ball's rim takes the cloth's tint and reads as that stripe (a green
cloth's 14, a blue cloth's 10), while a stripe lying white side up shows no band and reads as the cue ball:
at rest the two are named the wrong way round, each frame alike, so votes over frames do not help. The cue
alone strikes a ball: a stripe that leaves rest before any shot, fast, with nothing touching it, is the cue
ball (``EventDetector._struck_as_cue_ball`` swaps the two names, in the events and in the tracker).
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping

from arbiter.balls import BallLook

from .ball_path import BallPath

# A ball the cue strikes leaves rest at least this fast (a soft safety's 0.4 m/s and up); a hand or a sleeve
# that moves a ball moves it slower.
STRUCK_MM_S = 300.0
# ... and alone: no other ball leaves rest within this time of it (a rack pushed by hand moves several).
ALONE_S = 0.1


def swap_struck_cue_ball(
    paths: MutableMapping[str, BallPath],
    looks: Mapping[str, BallLook],
    cue_balls: tuple[str, ...],
    ball: str,
    speed: float,
    alone: bool,
) -> str | None:
    """The cue ball's id where ``ball``, struck from rest before any shot with nothing touching it, at
    ``speed`` mm/s (``STRUCK_MM_S`` at least) and ``alone`` (no other ball leaving rest within ``ALONE_S``),
    is a stripe the game's one cue ball was named as, and the ball named the cue ball is at rest or was never
    seen: the two balls' paths swapped in ``paths``. Else None (a game with two cue balls, a solid, a ball
    moved slower than a stroke or with others)."""
    if len(cue_balls) != 1 or ball in cue_balls or not looks[ball].striped:
        return None
    cue, path = cue_balls[0], paths.get(cue_balls[0])
    if speed < STRUCK_MM_S or not alone or (path is not None and path.rest is None):
        return None
    paths[cue] = paths.pop(ball)
    if path is not None:
        paths[ball] = path
    return cue
