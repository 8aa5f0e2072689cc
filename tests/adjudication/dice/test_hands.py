"""Poker hands of five dice: one row per hand, one per comparison, and the checks of a hand's throws."""

from __future__ import annotations

import pytest

from adjudication.dice import hands
from adjudication.dice.hands import Hand, best_of, rank_hand, throw_problem, worst_of
from arbiter.contract import Die, Roll

RANKS = [
    # dice, straights, hand, points compared between equal hands
    ([4, 4, 4, 4, 4], False, Hand.FIVE_OF_A_KIND, (4,)),
    ([2, 6, 6, 6, 6], False, Hand.FOUR_OF_A_KIND, (6,)),
    ([5, 2, 5, 2, 5], False, Hand.FULL_HOUSE, (5, 2)),
    ([2, 2, 2, 6, 6], False, Hand.FULL_HOUSE, (2, 6)),
    ([3, 3, 3, 1, 6], False, Hand.THREE_OF_A_KIND, (3,)),
    ([1, 1, 6, 6, 4], False, Hand.TWO_PAIRS, (6, 1)),
    ([5, 5, 1, 2, 3], False, Hand.PAIR, (5,)),
    ([1, 2, 3, 4, 6], False, Hand.NOTHING, (16,)),
    ([1, 2, 3, 4, 5], False, Hand.NOTHING, (15,)),
    ([6, 5, 4, 3, 2], False, Hand.NOTHING, (20,)),
    ([1, 2, 3, 4, 5], True, Hand.STRAIGHT, (5,)),
    ([6, 5, 4, 3, 2], True, Hand.STRAIGHT, (6,)),
    ([1, 2, 3, 4, 6], True, Hand.NOTHING, (16,)),
    ([3, 3, 3, 3, 3], True, Hand.FIVE_OF_A_KIND, (3,)),
]


@pytest.mark.parametrize(("dice", "straights", "hand", "points"), RANKS)
def test_rank_hand(dice: list[int], straights: bool, hand: Hand, points: tuple[int, ...]) -> None:
    ranked = rank_hand(dice, straights=straights)
    assert (ranked.hand, ranked.points) == (hand, points)


BEATS = [
    # better, worse, straights: the first hand must beat the second
    ([1, 1, 1, 1, 1], [6, 6, 6, 6, 5], False),  # five of a kind over four
    ([2, 2, 2, 2, 1], [6, 6, 6, 5, 5], False),  # four over a full house
    ([2, 2, 2, 1, 1], [6, 6, 6, 5, 4], False),  # full house over three
    ([2, 2, 2, 1, 4], [6, 6, 5, 5, 4], False),  # three over two pairs (departure from the text's list)
    ([2, 2, 1, 1, 4], [6, 6, 5, 3, 4], False),  # two pairs over a pair
    ([2, 2, 1, 3, 4], [6, 5, 4, 3, 1], False),  # a pair over nothing, whatever the sum
    ([5, 5, 5, 5, 1], [4, 4, 4, 4, 6], False),  # "four queens beat four tens"
    ([3, 3, 3, 1, 1], [2, 2, 2, 6, 6], False),  # a full house by its three first
    ([4, 4, 4, 2, 2], [4, 4, 4, 1, 1], False),  # then by its pair
    ([6, 6, 1, 1, 2], [5, 5, 4, 4, 6], False),  # two pairs by the higher pair
    ([6, 6, 2, 2, 1], [6, 6, 1, 1, 5], False),  # then by the lower pair
    ([6, 5, 4, 3, 1], [6, 5, 4, 2, 1], False),  # nothing by the sum of the dice
    ([2, 3, 4, 5, 6], [1, 2, 3, 4, 5], True),  # big straight over little
    ([2, 3, 4, 5, 6], [6, 6, 6, 5, 4], True),  # a straight over three of a kind
    ([1, 1, 1, 2, 2], [2, 3, 4, 5, 6], True),  # a full house over a straight
    ([1, 1, 2, 3, 4], [2, 3, 4, 5, 6], False),  # without straights a run is nothing
]


@pytest.mark.parametrize(("better", "worse", "straights"), BEATS)
def test_comparison(better: list[int], worse: list[int], straights: bool) -> None:
    a, b = rank_hand(better, straights=straights), rank_hand(worse, straights=straights)
    assert a > b
    assert best_of({"A": a, "B": b}) == ("A",)
    assert worst_of({"A": a, "B": b}) == ("B",)


TIES = [
    ([5, 5, 1, 2, 3], [5, 5, 6, 4, 3]),  # the same pair: odd dice are not compared, the text has a play-off
    ([6, 6, 6, 6, 1], [6, 6, 6, 6, 5]),
    ([6, 5, 4, 3, 1], [1, 3, 4, 5, 6]),  # nothing with the same sum (five different faces: the same dice)
    ([3, 3, 1, 1, 2], [1, 3, 1, 3, 6]),
]


@pytest.mark.parametrize(("one", "other"), TIES)
def test_ties(one: list[int], other: list[int]) -> None:
    a, b = rank_hand(one), rank_hand(other)
    assert a == b
    assert best_of({"A": a, "B": b}) == ("A", "B")


@pytest.mark.parametrize("dice", [[1, 2, 3, 4], [1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4], [7, 1, 1, 1, 1]])
def test_not_a_hand(dice: list[int]) -> None:
    with pytest.raises(ValueError, match="five dice"):
        rank_hand(dice)


def test_describe() -> None:
    assert rank_hand([5, 2, 5, 2, 5]).describe() == "full_house 5-2"
    assert rank_hand([1, 2, 3, 4, 6]).describe() == "nothing (sum 16)"


def _roll(faces: dict[str, int], thrown: list[str]) -> Roll:
    return Roll(t=0.0, player="A", dice=tuple(Die(i, v) for i, v in faces.items()), thrown=tuple(thrown))


FIVE = {"d1": 1, "d2": 2, "d3": 3, "d4": 4, "d5": 5}
HELD = tuple(FIVE.items())

THROWS = [
    # roll faces, thrown, held before, expected reason (None: a legal throw)
    (FIVE, list(FIVE), (), None),
    ({"d1": 1, "d2": 2, "d3": 3, "d4": 4}, ["d1", "d2", "d3", "d4"], (), "wrong_dice"),
    (FIVE, ["d1", "d2"], (), "die_not_thrown"),
    ({**FIVE, "d1": 6}, ["d1"], HELD, None),
    ({**FIVE, "d1": 6, "d5": 6}, ["d1", "d5"], HELD, None),
    ({**FIVE, "d2": 6}, ["d1"], HELD, hands.KEPT_DIE_TURNED),
    ({"d1": 1, "d2": 2, "d3": 3, "d4": 4, "d9": 5}, ["d9"], HELD, "wrong_dice"),
    ({"d1": 1, "d2": 2, "d3": 3, "d4": 4}, ["d1"], HELD, "wrong_dice"),
]


@pytest.mark.parametrize(("faces", "thrown", "held", "reason"), THROWS)
def test_throw_problem(faces: dict[str, int], thrown: list[str], held: tuple, reason: str | None) -> None:
    problem = throw_problem(_roll(faces, thrown), held)
    assert (problem[0] if problem else None) == reason
