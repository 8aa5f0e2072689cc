"""Circles found at the fine level, before they are judged and named: what every fit returns."""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np


@dataclass(frozen=True)
class Candidates:
    """One row per circle, one array per measure."""

    xy: np.ndarray  # (N, 2) fine-level pixel coordinates
    coverage: np.ndarray  # (N,) share of the disk that is foreground (seeded: or darker than the cloth)
    edge: np.ndarray  # (N,) radial edge vote
    outline: np.ndarray  # (N,) the second weakest eighth of the edge vote: is the outline all round?
    cluster: np.ndarray  # (N,) bool, found in a blob of several balls
    seeded: np.ndarray  # (N,) bool, judged as a ball of the cloth's colour: a glint, or a lone blob of it
    radius: np.ndarray  # (N,) fitted radius, fine-level pixels
    looked_for: np.ndarray  # (N,) bool, fitted on a spot where no blob gave a circle (``_with_spot_seeds``)

    @classmethod
    def empty(cls) -> Candidates:
        return cls(
            np.zeros((0, 2)),
            np.zeros(0),
            np.zeros(0),
            np.zeros(0),
            np.zeros(0, bool),
            np.zeros(0, bool),
            np.zeros(0),
            np.zeros(0, bool),
        )

    def __len__(self) -> int:
        return len(self.xy)

    def subset(self, index: np.ndarray) -> Candidates:
        return Candidates(*(getattr(self, f.name)[index] for f in fields(self)))

    @classmethod
    def concat(cls, parts: list[Candidates]) -> Candidates:
        return cls(*(np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(cls)))
