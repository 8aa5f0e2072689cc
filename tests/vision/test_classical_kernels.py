"""A ball against the frame's edge: the eighths of its outline beyond the edge are not held against it,
as long as no more than two are cut."""

from __future__ import annotations

import numpy as np
import pytest

from vision.classical.kernels import SECTORS, Kernels, outline, seen_sectors

KERNELS = Kernels.build(8.0, 0.5)
SHAPE = (100, 200)


@pytest.mark.parametrize(("centre", "cut"), [((100.0, 50.0), 0), ((194.0, 50.0), 2), ((100.0, 1.0), 4)])
def test_the_sectors_beyond_the_frame_are_not_seen(centre: tuple[float, float], cut: int) -> None:
    seen = seen_sectors(np.array([centre]), KERNELS, SHAPE)
    assert int((~seen).sum()) == cut


def test_the_outline_is_judged_on_the_sectors_in_the_frame() -> None:
    votes = np.array([[1.0, 0.9, 0.95, 0.0, 0.0, 1.0, 0.9, 1.0]])
    assert outline(votes)[0] == 0.0
    seen = np.ones((1, SECTORS), bool)
    seen[0, 3:5] = False
    assert outline(votes, seen)[0] == pytest.approx(0.9)
    seen[0, 2] = False  # three eighths cut: too little of the ball is in view to judge
    assert outline(votes, seen)[0] == 0.0
