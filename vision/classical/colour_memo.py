"""The colours of the circles a frame's balls are found in, kept from the frame before where a circle did not
move: a ball at rest keeps its measurement, and only the circles that changed are read again
(``colour.measured``)."""

from __future__ import annotations

import numpy as np

from .coherence import ring_coherence
from .colour import Colour, measured
from .config import ClassicalConfig
from .levels import Scene


class ColourMemo:
    """Colour measurements of the last frame's circles: a circle kept from the last frame (same centre, to
    the bit: its blob did not change) keeps its measurement too."""

    def __init__(self, config: ClassicalConfig) -> None:
        self.config = config
        self.reset()

    def reset(self) -> None:
        self._rows: dict[tuple[float, float], int] = {}
        self._last: Colour | None = None

    def measure(self, scene: Scene, xy: np.ndarray, radius: np.ndarray) -> Colour:
        """The colour of the circles at fine-level points ``xy`` (N, 2) of ``scene`` with fine-level
        ``radius`` (N,)."""
        keys = [(x, y) for x, y in xy.tolist()]
        rows = np.array([self._rows.get(k, -1) for k in keys], np.int64)
        known = rows >= 0
        if known.all() and self._last is not None:
            colour = self._last.subset(rows)
        else:
            new = ~known
            fresh = measured(scene, xy[new], ring_coherence(scene, xy[new], radius[new]), self.config)
            if known.any() and self._last is not None:
                both = Colour.concat([self._last.subset(rows[known]), fresh])
                order = np.concatenate([np.nonzero(known)[0], np.nonzero(~known)[0]])
                colour = both.subset(np.argsort(order, kind="stable"))
            else:
                colour = fresh
        self._rows = {k: i for i, k in enumerate(keys)}
        self._last = colour
        return colour
