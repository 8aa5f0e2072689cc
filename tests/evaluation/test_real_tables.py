"""Automatic calibration on the real test set and the second-look renders, beside the first finder: every
image is right within 1 % of the table's length or says it is unsure, and the figures do not slip back."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from datasets.billiards.real import photos, with_corners
from datasets.billiards.second_look import renders
from evaluation.real_tables import RealTablesReport, corner_error, evaluate_real_tables, format_report

IMAGES = with_corners(photos()) + renders()


@functools.cache
def report() -> RealTablesReport:
    return evaluate_real_tables(IMAGES)


@pytest.mark.parametrize("name", [i.name for i in IMAGES])
def test_never_sure_and_wrong(name: str) -> None:
    row = next(r for r in report().rows if r.name == name)
    assert not row.new.sure_but_wrong(report().tolerance), f"sure but {row.new.error:.2%} off"
    assert row.new.error is not None, f"no table found: {row.new.failure}"


def test_the_figures_hold() -> None:
    """Floors under the measured figures (README of the real set): a change that loses a table fails."""
    real, rendered = report().summary(True), report().summary(False)
    assert (real.images, rendered.images) == (6, 12)
    assert real.new_right >= 2 and rendered.new_right >= 8 and rendered.new_sure_right >= 5
    assert real.new_sure_but_wrong == 0 and rendered.new_sure_but_wrong == 0
    assert real.new_right > real.old_right and rendered.new_right > rendered.old_right


@pytest.mark.parametrize(
    ("name", "sure"),
    [("arb-broadcast-green-40", True), ("arb-broadcast-red-35", True), ("pt-snooker-broadcast-b", False)],
)
def test_broadcast_views_with_the_near_cushion_hidden_or_the_far_face_seen_are_right(
    name: str, sure: bool
) -> None:
    """The score bar over the near cushion (its end placed from the baulk line, the middle pockets
    confirming it: sure) and pooltool's far cushion face (stepped over to the nose: still unsure), each
    right within 1 %."""
    row = next(r for r in report().rows if r.name == name)
    assert row.new.right(report().tolerance) and row.new.sure == sure, row


def test_the_report_prints_every_image_and_both_finders() -> None:
    text = format_report(report())
    assert all(i.name in text for i in IMAGES)
    assert "Real photos (6)" in text and "first finder" in text
    assert report().to_dict()["real"]["images"] == 6


def test_the_corner_error_forgives_the_ends_only_when_asked() -> None:
    truth = {"bl": (0.0, 0.0), "br": (100.0, 0.0), "tr": (100.0, 200.0), "tl": (0.0, 200.0)}
    turned = {"bl": truth["tr"], "br": truth["tl"], "tr": truth["bl"], "tl": truth["br"]}
    assert corner_error(truth, truth, 2.0, either_end=False) == 0.0
    assert corner_error(turned, truth, 2.0, either_end=True) == 0.0
    assert corner_error(turned, truth, 2.0, either_end=False) == pytest.approx(np.hypot(0.5, 1.0))
    moved = dict(truth, tr=(100.0, 202.0))  # 2 px of a 200 px long table
    assert corner_error(moved, truth, 2.0, either_end=False) == pytest.approx(0.01)
