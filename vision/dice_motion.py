"""Reading only the frames that changed: between throws nothing on the table moves, so the last reading
still holds and the dice need not be read again.

``ChangeGate.changed(image, t)`` compares a small grey copy of the frame, block by block, with the copy
of the frame where it last saw a change. A die that moves, a hand that reaches in, changes some block by
more than ``level`` grey levels on average; camera noise and video compression do not. A die slowing to a stop
changes little from one frame to the next, so every frame is read for ``hold_s`` after the last change:
the die is read where it came to rest. The watcher (``tracking.throws``) sees the same readings for
unchanged frames, which is what they would have been.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class GateConfig:
    """``width``: side of the grey copy compared (its height follows the frame's shape). ``block``: pixels
    of that copy per block: a block should be about a die's size, so one die moving shows. ``level``: mean
    absolute change of a block, grey levels 0..255, that counts as change. ``hold_s``: every frame is read
    for this long after the last change (shorter than the watcher's ``settle_s``, so a settled die is read
    at rest before its throw is called). ``max_skip``: frames let pass unread in a row at most, so a slow
    drift is read too."""

    width: int = 160
    block: int = 8
    level: float = 4.0
    hold_s: float = 0.5
    max_skip: int = 30

    def __post_init__(self) -> None:
        if self.width < 16 or self.block < 1 or self.level <= 0 or self.max_skip < 0 or self.hold_s < 0:
            raise ValueError(
                f"GateConfig needs width >= 16, block >= 1, level > 0, hold_s >= 0, max_skip >= 0 ({self})"
            )


class ChangeGate:
    """Whether a frame differs from the last one read (``changed``), per frame, in order."""

    def __init__(self, config: GateConfig | None = None) -> None:
        self.config = config or GateConfig()
        self._last: np.ndarray | None = None
        self._skipped = 0
        self._changed_t = -np.inf

    def _thumb(self, image: np.ndarray) -> np.ndarray:
        h, w = image.shape[:2]
        cfg = self.config
        size = (cfg.width, max(cfg.block, round(cfg.width * h / w)))
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        return cv2.resize(grey, size, interpolation=cv2.INTER_AREA).astype(np.float32)

    def changed(self, image: np.ndarray, t: float) -> bool:
        """True when ``image`` (at ``t`` seconds) must be read; False when the last reading still holds.

        The reference is the frame of the last change, not the last frame read: a die slowing down
        changes too little from one frame to the next, but its changes add up against the reference."""
        thumb = self._thumb(image)
        cfg = self.config
        if self._last is None or self._last.shape != thumb.shape or self._moved(thumb):
            self._last, self._changed_t, self._skipped = thumb, t, 0
            return True
        if t - self._changed_t < cfg.hold_s or self._skipped >= cfg.max_skip:
            self._skipped = 0
            return True
        self._skipped += 1
        return False

    def _moved(self, thumb: np.ndarray) -> bool:
        cfg = self.config
        last = self._last if self._last is not None else thumb
        blocks = cv2.resize(
            np.abs(thumb - last),
            (max(1, thumb.shape[1] // cfg.block), max(1, thumb.shape[0] // cfg.block)),
            interpolation=cv2.INTER_AREA,
        )
        return float(blocks.max()) > cfg.level
