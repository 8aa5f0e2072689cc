"""Arbiter's snooker engine against pooltool's snooker ruleset on synthetic shots (``pooltool_compare``).

The fast rows check the mapping of pooltool's reasons and the kind each difference is given. The slow tests
simulate a fixed set of synthetic shots (run 8, shots 0-24: the first 25 of the run; run 3, shots 5 and 19:
the two kinds of difference run 8 does not show) and assert the exact figures: every shot compared, every
difference explained, and how many agree, so that a change on either side is noticed.
"""

from __future__ import annotations

from typing import Any

import pytest

from adjudication.billiards.snooker import Reason
from evaluation import pooltool_compare as pc
from evaluation.pooltool_compare import EXPLAINED, UNEXPLAINED, Scenario, Verdict

# --- pooltool's reasons ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "ours"),
    [
        ("NONE", None),
        ("CUE_POCKETED", Reason.IN_OFF),
        ("NO_BALL_HIT", Reason.MISSED_ALL),
        ("OFF_BALL_HIT_FIRST", Reason.WRONG_BALL_FIRST),
        ("OFF_BALL_POCKETED", Reason.POT_NOT_ON),
    ],
)
def test_pooltool_reason_maps_to_ours(name: str, ours: Reason | None) -> None:
    assert pc.REASONS[name] == ours


def test_every_pooltool_reason_is_mapped() -> None:
    from pooltool.ruleset.snooker.utils import Reason as PooltoolReason

    assert set(pc.REASONS) == {r.name for r in PooltoolReason}


@pytest.mark.parametrize(("ours", "theirs"), [("red:4", "red_04"), ("red:15", "red_15"), ("pink", "pink")])
def test_ball_ids_both_ways(ours: str, theirs: str) -> None:
    assert pc.pooltool_id(ours) == theirs
    assert pc.arbiter_id(theirs) == ours


# --- the kind of each difference -------------------------------------------------------------------------


def V(**kw: Any) -> Verdict:  # noqa: N802 - a row's verdict, read as a word
    """A verdict: a fair stroke that scored nothing, red on next, unless ``kw`` says otherwise."""
    base: dict[str, Any] = {
        "foul": None,
        "foul_points": 0,
        "points": 0,
        "continues": False,
        "frame_over": False,
        "next_on": "red",
        "respotted": frozenset(),
        "miss": False,
        "free_ball": False,
    }
    return Verdict(**{**base, **kw})


def S(touching: tuple[str, ...] = ()) -> Scenario:  # noqa: N802
    return Scenario(0, "pot", {}, "red", None, False, False, touching)


FOUL4 = {"foul": "wrong_ball_first", "foul_points": 4}

# fmt: off
KINDS = [
    ("miss_called_by_ours", S(), V(**FOUL4, miss=True), V(**FOUL4), {"miss": pc.NO_MISS}),
    ("free_ball_given_by_ours", S(), V(**FOUL4, free_ball=True), V(**FOUL4), {"free_ball": pc.NO_FREE_BALL}),
    ("red_first_with_a_colour_on", S(), V(foul="played_at_red", foul_points=7),
     V(foul="wrong_ball_first", foul_points=5), {"foul": pc.PLAYED_AT_RED, "foul_points": pc.PLAYED_AT_RED}),
    ("colour_not_nominated_potted", S(), V(foul="pot_not_nominated", foul_points=6),
     V(foul="pot_not_on", foul_points=6), {"foul": pc.NOT_NOMINATED}),
    ("two_fouls_reported_in_another_order", S(), V(foul="missed_all", foul_points=7, also=("in_off",)),
     V(foul="in_off", foul_points=7), {"foul": pc.FOUL_ORDER}),
    ("pooltool_fails_to_respot_at_the_end", S(), V(points=7, frame_over=True, next_on=None),
     V(points=7, frame_over=True, next_on=None, respotted=None), {"respotted": pc.FINAL_BLACK_RESPOT}),
    ("touching_ball_on_counts_as_hit", S(("red:1",)), V(),
     V(**FOUL4), {"foul": pc.TOUCHING, "foul_points": pc.TOUCHING}),
    ("push_stroke", S(("red:1",)), V(foul="push_stroke", foul_points=4),
     V(points=1, continues=True, next_on="colour"),
     {"foul": pc.TOUCHING, "foul_points": pc.TOUCHING, "points": pc.TOUCHING, "continues": pc.TOUCHING,
      "next_on": pc.TOUCHING}),
    ("another_foul_not_among_ours", S(), V(foul="in_off", foul_points=4), V(foul="missed_all", foul_points=4),
     {"foul": UNEXPLAINED}),
    ("same_foul_other_value", S(), V(**FOUL4), V(foul="wrong_ball_first", foul_points=5),
     {"foul_points": UNEXPLAINED}),
    ("pooltool_calls_a_miss", S(), V(**FOUL4), V(**FOUL4, miss=True), {"miss": UNEXPLAINED}),
    ("fair_to_one_foul_to_the_other_untouched", S(), V(), V(**FOUL4),
     {"foul": UNEXPLAINED, "foul_points": UNEXPLAINED}),
    ("the_same_call", S(), V(**FOUL4, also=("pot_not_on",)), V(**FOUL4), {}),
]
# fmt: on


@pytest.mark.parametrize(
    ("scenario", "ours", "theirs", "kinds"), [k[1:] for k in KINDS], ids=[k[0] for k in KINDS]
)
def test_kind_of_difference(
    scenario: Scenario, ours: Verdict, theirs: Verdict, kinds: dict[str, str]
) -> None:
    got = {d.field: d.kind for d in pc.compare_verdicts(scenario, ours, theirs)}
    assert got == kinds


def test_every_explanation_is_reachable() -> None:
    reached = {k for *_, kinds in KINDS for k in kinds.values()}
    assert reached - {UNEXPLAINED} == set(EXPLAINED)


# --- the comparison on synthetic shots -------------------------------------------------------------------

SHOTS = ((8, tuple(range(25))), (3, (5, 19)))


@pytest.fixture(scope="module")
def rows() -> dict[tuple[int, int], pc.Row]:
    out = {}
    for seed, indices in SHOTS:
        found, _ = pc.compare(seed, indices)
        out.update({(seed, r.scenario.index): r for r in found})
    return out


@pytest.mark.slow
def test_every_shot_is_compared(rows: dict[tuple[int, int], pc.Row]) -> None:
    assert sorted(rows) == sorted((seed, i) for seed, indices in SHOTS for i in indices)


@pytest.mark.slow
def test_every_difference_is_explained(rows: dict[tuple[int, int], pc.Row]) -> None:
    unexplained = [(key, d) for key, r in rows.items() for d in r.differences if d.kind not in EXPLAINED]
    assert unexplained == []


@pytest.mark.slow
def test_the_figures(rows: dict[tuple[int, int], pc.Row]) -> None:
    s = pc.summarise(rows.values())
    assert (s.shots, s.agreements, s.fouls, s.scoring) == (27, 20, (10, 10), (3, 3))
    assert dict(s.fields_agreeing) == {
        "foul": 24,
        "foul_points": 26,
        "points": 27,
        "continues": 27,
        "frame_over": 27,
        "next_on": 27,
        "respotted": 26,
        "miss": 23,
        "free_ball": 26,
    }
    assert dict(s.kinds) == {
        pc.FINAL_BLACK_RESPOT: 1,
        pc.FOUL_ORDER: 1,
        pc.NO_FREE_BALL: 1,
        pc.NO_MISS: 4,
        pc.PLAYED_AT_RED: 1,
        pc.NOT_NOMINATED: 1,
    }


@pytest.mark.slow
def test_the_shots_that_differ(rows: dict[tuple[int, int], pc.Row]) -> None:
    differ = {
        key: sorted({(d.field, d.kind) for d in r.differences}) for key, r in rows.items() if not r.agrees
    }
    assert differ == {
        (8, 11): [("foul", pc.PLAYED_AT_RED), ("foul_points", pc.PLAYED_AT_RED), ("miss", pc.NO_MISS)],
        (8, 14): [("foul", pc.NOT_NOMINATED)],
        (8, 15): [("miss", pc.NO_MISS)],
        (8, 20): [("miss", pc.NO_MISS)],
        (8, 23): [("free_ball", pc.NO_FREE_BALL), ("miss", pc.NO_MISS)],
        (3, 5): [("foul", pc.FOUL_ORDER)],
        (3, 19): [("respotted", pc.FINAL_BLACK_RESPOT)],
    }
    # The calls behind them, as each engine made them.
    assert (rows[8, 11].ours.foul_points, rows[8, 11].theirs.foul_points) == (7, 5)
    assert (rows[8, 14].ours.foul, rows[8, 14].theirs.foul) == ("pot_not_nominated", "pot_not_on")
    assert (rows[3, 5].ours.foul, rows[3, 5].ours.also, rows[3, 5].theirs.foul) == (
        "missed_all",
        ("in_off",),
        "in_off",
    )
