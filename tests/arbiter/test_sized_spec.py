"""A game on another table of its catalogue: the spec a run carries, and what crosses to another process."""

from __future__ import annotations

import pickle

import pytest

from arbiter.games import billiards


def test_a_resized_spec_carries_its_table_and_pickles_with_it() -> None:
    spec = billiards("snooker").resized("6ft")
    assert spec.table.size == "6ft" and spec.table.length_mm == 1785.0 and spec.id == "snooker"
    back = pickle.loads(pickle.dumps(spec))
    assert back.table == spec.table
    assert pickle.loads(pickle.dumps(billiards("snooker"))) is billiards("snooker")
    assert billiards("snooker").resized(billiards("snooker").table.size) is billiards("snooker")


def test_a_size_the_game_is_not_played_on_is_refused() -> None:
    with pytest.raises(ValueError, match="sizes: 9ft, 8ft, 7ft"):
        billiards("straight-pool").resized("12ft")
