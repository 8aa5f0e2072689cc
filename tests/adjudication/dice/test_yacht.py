"""Yacht: the category scores (the exercism cases, in our words), one row per rule case, then a whole game."""

from __future__ import annotations

import json
from typing import Any

import pytest

from adjudication.dice import yacht
from adjudication.engine import RuleError
from adjudication.referee import referee
from arbiter.contract import Choose, Decision, Die, JsonLine, Match, Roll, Stop

IDS = ("d1", "d2", "d3", "d4", "d5")


def roll(player: str, *faces: int, thrown: tuple[str, ...] = IDS) -> Roll:
    """Five dice d1..d5 with these faces; ``thrown`` the ones this throw moved (default all)."""
    dice = tuple(Die(i, v) for i, v in zip(IDS, faces, strict=True))
    return Roll(t=0.0, player=player, dice=dice, thrown=thrown)


def choose(player: str, category: str) -> Choose:
    return Choose(player=player, category=category)


def play(lines: list[JsonLine], players=("A", "B"), **options: Any) -> tuple[yacht.State, list[Decision]]:
    state = yacht.start(Match(game="yacht", players=players, options=options))
    decisions: list[Decision] = []
    for line in lines:
        state, ds = yacht.step(state, line)
        decisions.extend(ds)
    return state, decisions


def check(decision: Decision, expected: dict[str, Any]) -> None:
    for key, value in expected.items():
        if key == "foul":
            got = None if decision.foul is None else (decision.foul.reason, decision.foul.penalty)
            assert got == value
        elif key == "note":
            assert any(value in n for n in decision.notes), decision.notes
        else:
            assert getattr(decision, key) == value, key


# The exercism "yacht" canonical cases, written in our own words: dice, category, score.
EXERCISM = [
    ("five fives are a yacht", [5, 5, 5, 5, 5], "yacht", 50),
    ("mixed dice are no yacht", [1, 3, 3, 2, 5], "yacht", 0),
    ("three ones in ones", [1, 1, 1, 3, 5], "ones", 3),
    ("ones in any order", [3, 1, 1, 5, 1], "ones", 3),
    ("no ones score nothing in ones", [4, 3, 6, 5, 5], "ones", 0),
    ("a single two in twos", [2, 3, 4, 5, 6], "twos", 2),
    ("two fours in fours", [1, 4, 1, 4, 1], "fours", 8),
    ("a yacht of threes in threes", [3, 3, 3, 3, 3], "threes", 15),
    ("a yacht of threes in fives", [3, 3, 3, 3, 3], "fives", 0),
    ("two fives in fives", [1, 5, 3, 5, 3], "fives", 10),
    ("a single six in sixes", [2, 3, 4, 5, 6], "sixes", 6),
    ("full house, pair low and three high", [2, 2, 4, 4, 4], "full_house", 16),
    ("full house, shuffled", [5, 3, 3, 5, 3], "full_house", 19),
    ("two pairs are no full house", [2, 2, 4, 4, 5], "full_house", 0),
    ("four alike are no full house", [1, 4, 4, 4, 4], "full_house", 0),
    ("a yacht is no full house", [2, 2, 2, 2, 2], "full_house", 0),
    ("four of a kind counts the four", [1, 2, 2, 2, 2], "four_of_a_kind", 8),
    ("four sixes, shuffled", [6, 6, 4, 6, 6], "four_of_a_kind", 24),
    ("a yacht is also four of a kind", [3, 3, 3, 3, 3], "four_of_a_kind", 12),
    ("a full house is not four of a kind", [3, 3, 3, 5, 5], "four_of_a_kind", 0),
    ("little straight in order", [1, 2, 3, 4, 5], "little_straight", 30),
    ("little straight shuffled", [3, 5, 4, 1, 2], "little_straight", 30),
    ("a little straight is no big one", [1, 2, 3, 4, 5], "big_straight", 0),
    ("four in a row and a pair are no little straight", [1, 1, 2, 3, 4], "little_straight", 0),
    ("no pair yet no little straight", [1, 2, 3, 4, 6], "little_straight", 0),
    ("ends at one and five yet no little straight", [1, 1, 3, 4, 5], "little_straight", 0),
    ("big straight in order", [2, 3, 4, 5, 6], "big_straight", 30),
    ("big straight shuffled", [4, 6, 2, 5, 3], "big_straight", 30),
    ("a big straight is no little one", [6, 5, 4, 3, 2], "little_straight", 0),
    ("no pair yet no big straight", [6, 5, 4, 3, 1], "big_straight", 0),
    ("choice is the sum", [3, 3, 5, 6, 6], "choice", 23),
    ("a yacht as choice", [2, 2, 2, 2, 2], "choice", 10),
    ("a big straight as choice", [2, 3, 4, 5, 6], "choice", 20),
    ("a full house as choice", [1, 1, 1, 6, 6], "choice", 15),
]
# The text's extra combinations (Тройка, Пара), scored by their matching dice.
TEXT_EXTRAS = [
    ("the highest pair", [3, 3, 5, 5, 1], "pair", 10),
    ("no pair", [1, 2, 3, 4, 6], "pair", 0),
    ("a yacht holds a pair", [6, 6, 6, 6, 6], "pair", 12),
    ("three of a kind counts the three", [4, 4, 4, 1, 2], "three_of_a_kind", 12),
    ("four alike hold three of a kind", [2, 2, 2, 2, 5], "three_of_a_kind", 6),
    ("a full house holds three of a kind", [5, 5, 1, 1, 1], "three_of_a_kind", 3),
    ("two pairs are no three of a kind", [5, 5, 1, 1, 2], "three_of_a_kind", 0),
]
SCORE_CASES = EXERCISM + TEXT_EXTRAS


@pytest.mark.parametrize(
    ("dice", "category", "points"), [c[1:] for c in SCORE_CASES], ids=[c[0] for c in SCORE_CASES]
)
def test_category_score(dice: list[int], category: str, points: int) -> None:
    assert yacht.score(dice, category) == points


@pytest.mark.parametrize(
    ("dice", "category", "points"), [c[1:] for c in SCORE_CASES], ids=[c[0] for c in SCORE_CASES]
)
def test_category_scored_by_the_engine(dice: list[int], category: str, points: int) -> None:
    sheet = [c.value for c in yacht.Category]
    _, decisions = play([roll("A", *dice), choose("A", category)], categories=sheet)
    check(decisions[-1], {"foul": None, "points": {"A": points}, "score": {"A": points, "B": 0}, "next": "B"})


SCORE_TABLES = [
    # scores option, dice, category, points
    ({"little_straight": 15}, [1, 2, 3, 4, 5], "little_straight", 15),
    ({"big_straight": 20}, [2, 3, 4, 5, 6], "big_straight", 20),
    ({"full_house": 25}, [2, 2, 4, 4, 4], "full_house", 25),
    ({"full_house": 25}, [2, 2, 4, 4, 5], "full_house", 0),
    ({"four_of_a_kind": "sum"}, [6, 6, 4, 6, 6], "four_of_a_kind", 28),
    ({"little_straight": "sum"}, [1, 2, 3, 4, 5], "little_straight", 15),
    ({"little_straight": 15}, [5, 5, 5, 5, 5], "yacht", 50),
]


@pytest.mark.parametrize(("scores", "dice", "category", "points"), SCORE_TABLES)
def test_score_table_option(scores: dict, dice: list[int], category: str, points: int) -> None:
    _, decisions = play([roll("A", *dice), choose("A", category)], scores=scores)
    check(decisions[-1], {"points": {"A": points}})


CASES = [
    # id, lines, options, expected fields of the last decision
    (
        "a category chosen after one throw",
        [roll("A", 2, 2, 4, 4, 4), choose("A", "full_house")],
        {},
        {"foul": None, "points": {"A": 16}, "score": {"A": 16, "B": 0}, "next": "B", "over": False},
    ),
    (
        "kept dice stay, thrown ones change",
        [roll("A", 1, 2, 3, 4, 6), roll("A", 1, 2, 3, 4, 5, thrown=("d5",)), choose("A", "little_straight")],
        {},
        {"points": {"A": 30}, "next": "B"},
    ),
    (
        "three throws, then the choice",
        [
            roll("A", 4, 4, 1, 2, 3),
            roll("A", 4, 4, 4, 6, 6, thrown=("d3", "d4", "d5")),
            roll("A", 4, 4, 4, 4, 4, thrown=("d4", "d5")),
            choose("A", "yacht"),
        ],
        {},
        {"points": {"A": 50}, "score": {"A": 50, "B": 0}, "note": "(Yacht rule 5)"},
    ),
    (
        "a die kept at the second throw may be thrown at the third (Hoyle)",
        [
            roll("A", 1, 2, 3, 4, 6),
            roll("A", 1, 2, 3, 4, 6, thrown=("d5",)),
            roll("A", 5, 2, 3, 4, 6, thrown=("d1",)),
            choose("A", "big_straight"),
        ],
        {},
        {"foul": None, "points": {"A": 30}},
    ),
    (
        "a category the dice do not make scores 0",
        [roll("A", 1, 2, 3, 4, 6), choose("A", "yacht")],
        {},
        {"points": {"A": 0}, "score": {"A": 0, "B": 0}, "next": "B"},
    ),
    (
        "totals add up over the rounds",
        [
            roll("A", 6, 6, 6, 1, 1),
            choose("A", "sixes"),
            roll("B", 1, 1, 1, 1, 1),
            choose("B", "ones"),
            roll("A", 6, 6, 6, 1, 1),
            choose("A", "full_house"),
        ],
        {},
        {"points": {"A": 20}, "score": {"A": 38, "B": 5}, "next": "B"},
    ),
    (
        "the game ends when every player has had every round",
        [roll("A", 6, 6, 6, 1, 1), choose("A", "sixes"), roll("B", 1, 1, 1, 1, 1), choose("B", "yacht")],
        {"rounds": 1},
        {"score": {"A": 18, "B": 50}, "over": True, "winner": "B", "next": None},
    ),
    (
        "equal totals name no winner",
        [roll("A", 6, 6, 6, 1, 1), choose("A", "sixes"), roll("B", 6, 6, 6, 2, 2), choose("B", "sixes")],
        {"rounds": 1},
        {"over": True, "winner": None, "note": "tie at 18"},
    ),
    (
        "the text's sheet: seven combinations, seven rounds",
        [roll("A", 3, 3, 5, 5, 1), choose("A", "pair")],
        {
            "categories": [
                "yacht",
                "four_of_a_kind",
                "full_house",
                "big_straight",
                "little_straight",
                "three_of_a_kind",
                "pair",
            ]
        },
        {"points": {"A": 10}},
    ),
    (
        "first",
        [roll("B", 1, 1, 1, 1, 1), choose("B", "ones")],
        {"first": "B"},
        {"points": {"B": 5}, "next": "A"},
    ),
    (
        "a roll out of turn is void",
        [roll("B", 5, 5, 5, 5, 5)],
        {},
        {"foul": ("out_of_turn", 0), "points": {}, "score": {"A": 0, "B": 0}, "next": "A"},
    ),
    (
        "a fourth throw is void",
        [
            roll("A", 1, 1, 1, 1, 2),
            roll("A", 1, 1, 1, 1, 3, thrown=("d5",)),
            roll("A", 1, 1, 1, 1, 4, thrown=("d5",)),
            roll("A", 1, 1, 1, 1, 1, thrown=("d5",)),
        ],
        {},
        {"foul": ("extra_throw", 0), "next": "A"},
    ),
    (
        "after a fourth throw the third throw's dice are scored",
        [
            roll("A", 1, 1, 1, 1, 2),
            roll("A", 1, 1, 1, 1, 3, thrown=("d5",)),
            roll("A", 1, 1, 1, 1, 4, thrown=("d5",)),
            roll("A", 1, 1, 1, 1, 1, thrown=("d5",)),
            choose("A", "yacht"),
        ],
        {},
        {"foul": None, "points": {"A": 0}},
    ),
    (
        "a first throw of four dice is void",
        [
            Roll(
                t=0.0,
                player="A",
                dice=(Die("d1", 1), Die("d2", 1), Die("d3", 1), Die("d4", 1)),
                thrown=("d1", "d2", "d3", "d4"),
            )
        ],
        {},
        {"foul": ("wrong_dice", 0), "next": "A"},
    ),
    (
        "a first throw must throw all five",
        [roll("A", 1, 2, 3, 4, 5, thrown=("d1", "d2"))],
        {},
        {"foul": ("die_not_thrown", 0)},
    ),
    (
        "a later throw with another die than the turn's is void",
        [
            roll("A", 1, 2, 3, 4, 6),
            Roll(t=0.0, player="A", dice=(*roll("A", 1, 2, 3, 4, 6).dice[:4], Die("d9", 5)), thrown=("d9",)),
        ],
        {},
        {"foul": ("wrong_dice", 0)},
    ),
    (
        "a kept die turned to another face is void",
        [roll("A", 1, 2, 3, 4, 6), roll("A", 5, 2, 3, 4, 6, thrown=("d5",))],
        {},
        {"foul": ("kept_die_turned", 0), "next": "A"},
    ),
    (
        "a void throw keeps the dice as they were",
        [roll("A", 1, 2, 3, 4, 6), roll("A", 5, 2, 3, 4, 6, thrown=("d5",)), choose("A", "ones")],
        {},
        {"foul": None, "points": {"A": 1}, "shot": 3},
    ),
]


@pytest.mark.parametrize(("lines", "options", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rule_case(lines: list[JsonLine], options: dict, expected: dict) -> None:
    _, decisions = play(lines, **options)
    check(decisions[-1], expected)


REJECTED = [
    # id, lines, options, message fragment
    ("choose before throwing", [choose("A", "ones")], {}, "after throwing"),
    (
        "choose by the player not on turn",
        [roll("A", 1, 1, 1, 1, 1), choose("B", "ones")],
        {},
        "cannot be used now",
    ),
    (
        "a category already used",
        [
            roll("A", 1, 1, 1, 1, 1),
            choose("A", "ones"),
            roll("B", 1, 1, 1, 1, 1),
            choose("B", "ones"),
            roll("A", 1, 1, 1, 1, 1),
            choose("A", "ones"),
        ],
        {},
        "already used",
    ),
    (
        "a category not on the sheet",
        [roll("A", 1, 1, 3, 3, 3), choose("A", "pair")],
        {},
        "not on the score sheet",
    ),
    ("stop is not an input", [roll("A", 1, 1, 1, 1, 1), Stop(player="A")], {}, "cannot be used now"),
    (
        "nothing after the end",
        [
            roll("A", 1, 1, 1, 1, 1),
            choose("A", "ones"),
            roll("B", 1, 1, 1, 1, 1),
            choose("B", "ones"),
            roll("A", 1, 1, 1, 1, 1),
        ],
        {"rounds": 1},
        "game is over",
    ),
]


@pytest.mark.parametrize(
    ("lines", "options", "message"), [c[1:] for c in REJECTED], ids=[c[0] for c in REJECTED]
)
def test_rejected(lines: list[JsonLine], options: dict, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        play(lines, **options)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"scores": {"yacht": 100}}, "never changes"),
        ({"scores": {"choice": 10}}, "no other reading"),
        ({"scores": {"little_straight": -5}}, "integer >= 0"),
        ({"scores": {"little_straight": "double"}}, "integer >= 0"),
        ({"scores": [30]}, "object"),
        ({"categories": ["ones", "ones"]}, "once"),
        ({"categories": ["ones", "chance"]}, "categories"),
        ({"categories": []}, "categories"),
        ({"categories": ["ones", "twos"], "rounds": 3}, "rounds"),
        ({"rounds": 0}, "rounds"),
        ({"bonus": 35}, "no option 'bonus'"),
    ],
)
def test_bad_options(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        yacht.start(Match(game="yacht", players=("A", "B"), options=options))


def test_default_sheet() -> None:
    state = yacht.start(Match(game="yacht", players=("A", "B")))
    assert (len(state.categories), state.rounds) == (12, 12)
    assert (
        yacht.start(Match(game="yacht", players=("A",), options={"categories": ["yacht", "pair"]})).rounds
        == 2
    )


A_TURNS = [
    ("ones", [1, 1, 1, 2, 3], 3),
    ("twos", [2, 2, 2, 2, 6], 8),
    ("threes", [3, 3, 1, 1, 1], 6),
    ("fours", [4, 4, 4, 5, 6], 12),
    ("fives", [5, 5, 5, 5, 5], 25),
    ("sixes", [6, 6, 6, 1, 1], 18),
    ("full_house", [6, 6, 6, 5, 5], 28),
    ("four_of_a_kind", [2, 2, 2, 2, 1], 8),
    ("little_straight", [1, 2, 3, 4, 5], 30),
    ("big_straight", [2, 3, 4, 5, 6], 30),
    ("choice", [6, 6, 6, 6, 5], 29),
    ("yacht", [4, 4, 4, 4, 4], 50),
]
B_POINTS = [1, 2, 3, 4, 0, 6, 0, 0, 0, 0, 16, 0]  # B throws 1-2-3-4-6 every turn


def test_whole_game() -> None:
    t = 0.0

    def line(player: str, faces: list[int], thrown: list[str]) -> str:
        nonlocal t
        t += 1.0
        dice = [{"id": i, "value": v} for i, v in zip(IDS, faces, strict=True)]
        return json.dumps({"type": "roll", "t": t, "player": player, "dice": dice, "thrown": thrown})

    lines = [json.dumps({"type": "match", "v": 1, "game": "yacht", "players": ["A", "B"]})]
    for category, faces, _ in A_TURNS:
        if category == "yacht":  # three throws, keeping the fours
            lines.append(line("A", [4, 4, 1, 2, 3], list(IDS)))
            lines.append(line("A", [4, 4, 4, 6, 6], ["d3", "d4", "d5"]))
            lines.append(line("A", faces, ["d4", "d5"]))
        else:
            lines.append(line("A", faces, list(IDS)))
        lines.append(json.dumps({"type": "choose", "player": "A", "category": category}))
        lines.append(line("B", [1, 2, 3, 4, 6], list(IDS)))
        lines.append(json.dumps({"type": "choose", "player": "B", "category": category}))
    decisions = [d for r in referee(lines) for d in r.decisions]
    assert [d.points[d.player] for d in decisions[0::2]] == [p for _, _, p in A_TURNS]
    assert [d.points[d.player] for d in decisions[1::2]] == B_POINTS
    assert len(decisions) == 24
    assert dict(decisions[-1].score) == {"A": 247, "B": 32}
    assert (decisions[-1].over, decisions[-1].winner, decisions[-1].next) == (True, "A", None)
