"""The synthetic world's record of each game: one per billiards game, every name it uses on the table."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from arbiter.balls import kind
from arbiter.games import BILLIARDS_GAMES, billiards
from datasets.billiards import layouts
from datasets.billiards.world import world_of

TRIANGLE_PLACES = 15


@pytest.mark.parametrize("spec", BILLIARDS_GAMES, ids=lambda s: s.id)
def test_every_game_has_a_world_whose_names_are_on_its_table(spec) -> None:
    world = world_of(spec)
    table = spec.table
    opening = world.opening
    if opening.triangle is not None:
        assert opening.triangle.apex_spot in table.spots
        assert set(opening.triangle.fixed) <= set(spec.balls)
        assert all(0 <= i < TRIANGLE_PLACES for i in opening.triangle.fixed.values())
    assert set(opening.on_spots) <= set(spec.balls) - {spec.cue_ball}
    assert set(opening.on_spots.values()) <= set(table.spots)
    if opening.cue_beside is not None:
        assert opening.cue_beside in table.spots and world.in_hand.arc is not None
    if world.in_hand.arc is not None:
        assert world.in_hand.arc in {a.name for a in table.arcs}
    if world.in_hand.line is not None:
        table.line(world.in_hand.line)  # KeyError naming the lines when it is not there
    assert 0 < world.aim_error_deg < 1


def test_a_game_without_a_world_says_where_to_add_one() -> None:
    with pytest.raises(ValueError, match="WORLDS"):
        world_of(replace(billiards("snooker"), id="bar-billiards"))


@pytest.mark.parametrize("spec", BILLIARDS_GAMES, ids=lambda s: s.id)
def test_the_opening_holds_every_ball_and_the_cue_ball_in_hand(spec) -> None:
    lay = layouts.opening(spec, np.random.default_rng(7))
    assert list(lay)[-1] == spec.cue_ball
    world = world_of(spec)
    racked = world.opening.triangle
    expected = {spec.cue_ball, *world.opening.on_spots}
    if racked is not None:
        expected |= {b for b in spec.balls if b != spec.cue_ball and racked.kind in (None, kind(b))}
    assert set(lay) == expected
    r = spec.table.ball_radius_mm
    ids = list(lay)
    assert all(math.dist(lay[a], lay[b]) >= 2 * r for i, a in enumerate(ids) for b in ids[i + 1 :])
    area = world.in_hand
    cue = lay[spec.cue_ball]
    if area.line is not None:
        assert cue[1] <= spec.table.line(area.line).y_mm
    assert layouts.in_hand_region(spec) == area.region
