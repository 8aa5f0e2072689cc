"""Thirteen: each operation, scoring multiples, series hand-over, void throws; the text's example; a game."""

from __future__ import annotations

import json

import pytest

from adjudication.dice import thirteen
from adjudication.engine import RuleError
from adjudication.referee import RefereeError, referee
from arbiter.contract import Decision, Die, JsonLine, Match, Operation, Roll, Stop


def throw(player: str, plain: int, shifted: int, *, ids=("d1", "d2"), thrown=None) -> Roll:
    """``plain`` is the 1..6 die's face, ``shifted`` the 2..7 die's face (its contract value is one less)."""
    dice = (Die(ids[0], plain), Die(ids[1], shifted - 1))
    return Roll(t=0.0, player=player, dice=dice, thrown=thrown or ids)


def op(player: str, name: str) -> Operation:
    return Operation(player=player, op=name)


def play(lines: list[JsonLine], players=("A", "B"), **options) -> tuple[thirteen.State, list[Decision]]:
    state = thirteen.start(Match(game="thirteen", players=players, options=options))
    decisions: list[Decision] = []
    for line in lines:
        state, ds = thirteen.step(state, line)
        decisions.extend(ds)
    return state, decisions


START_12 = [throw("A", 6, 6)]  # a first throw of 12

CASES = [
    # id, lines, options, expected fields of the last decision, expected running total
    ("the shifted die reads one more", [throw("A", 3, 2)], {}, {"points": {}, "next": "A"}, 5),
    (
        "13 on the first throw scores",
        [throw("A", 6, 7)],
        {},
        {"points": {"A": 1}, "score": {"A": 1, "B": 0}},
        13,
    ),
    (
        "a later throw awaits an operation",
        [*START_12, throw("A", 1, 2)],
        {},
        {"points": {}, "awaiting": ("operation",), "next": "A"},
        12,
    ),
    ("plus", [*START_12, throw("A", 1, 2), op("A", "plus")], {}, {"points": {}, "awaiting": ()}, 15),
    ("minus", [*START_12, throw("A", 1, 2), op("A", "minus")], {}, {"points": {}}, 9),
    ("half", [*START_12, throw("A", 2, 2), op("A", "half")], {}, {"points": {}}, 14),
    ("third", [throw("A", 4, 5), throw("A", 5, 7), op("A", "third")], {}, {"points": {"A": 1}}, 13),
    ("quarter", [*START_12, throw("A", 2, 6), op("A", "quarter")], {}, {"points": {}}, 14),
    ("double", [throw("A", 1, 2), throw("A", 3, 2), op("A", "double")], {}, {"points": {"A": 1}}, 13),
    ("triple", [throw("A", 1, 2), throw("A", 1, 2), op("A", "triple")], {}, {"points": {}}, 12),
    (
        "quadruple to 26 scores two",
        [throw("A", 4, 2), throw("A", 2, 3), op("A", "quadruple")],
        {},
        {"points": {"A": 2}},
        26,
    ),
    (
        "the total may go below zero",
        [throw("A", 1, 2), throw("A", 6, 7), op("A", "minus")],
        {},
        {"points": {}},
        -10,
    ),
    (
        "a negative multiple does not score",
        [throw("A", 1, 2), throw("A", 6, 7), op("A", "minus"), throw("A", 1, 2), op("A", "minus")],
        {},
        {"points": {}},
        -13,
    ),
    ("base 11", [throw("A", 5, 6)], {"base": 11}, {"points": {"A": 1}}, 11),
    (
        "base 17",
        [throw("A", 6, 7), throw("A", 2, 2), op("A", "plus")],
        {"base": 17},
        {"points": {"A": 1}},
        17,
    ),
    (
        "shifted_die option",
        [throw("A", 6, 7, ids=("x", "y"))],
        {"shifted_die": "y"},
        {"points": {"A": 1}},
        13,
    ),
    (
        "a throw by the wrong player is void",
        [throw("B", 6, 7)],
        {},
        {"foul": ("out_of_turn", 0), "next": "A"},
        0,
    ),
    (
        "three dice are void",
        [Roll(t=0, player="A", dice=(Die("d1", 1), Die("d2", 1), Die("d3", 1)), thrown=("d1", "d2", "d3"))],
        {},
        {"foul": ("wrong_dice", 0), "next": "A"},
        0,
    ),
    (
        "a die left lying is void",
        [*START_12, throw("A", 6, 7, thrown=("d1",))],
        {},
        {"foul": ("die_not_thrown", 0), "next": "A", "awaiting": ()},
        12,
    ),
]


@pytest.mark.parametrize(
    ("lines", "options", "want", "total"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_rule_cases(lines, options, want, total):
    state, decisions = play(lines, **options)
    last = decisions[-1]
    foul = want.pop("foul", None)
    assert (last.foul.reason, last.foul.penalty) == foul if foul else last.foul is None
    for key, value in want.items():
        assert getattr(last, key) == value, key
    assert state.total == total
    assert len(decisions) == len(lines)


def test_the_texts_example():
    """9; 12 "third" -> 13 (1 point); 3 "plus" -> 16; 5 "double" -> 26 (2 points); the fifth only with 13."""
    lines = [
        throw("A", 4, 5),
        throw("A", 5, 7), op("A", "third"),
        throw("A", 1, 2), op("A", "plus"),
        throw("A", 3, 2), op("A", "double"),
    ]  # fmt: skip
    state, decisions = play(lines)
    assert [d.points for d in decisions] == [{}, {}, {"A": 1}, {}, {}, {}, {"A": 2}]
    assert (state.total, state.score) == (26, {"A": 3, "B": 0})
    # the fifth throw: only a 13 can score (26 + 13 = 39, or 26 - 13 = 13)
    state, (d,) = thirteen.step(state, throw("A", 6, 7))
    state, (d,) = thirteen.step(state, op("A", "plus"))
    assert (d.points, d.score, d.next) == ({"A": 3}, {"A": 6, "B": 0}, "B")
    assert (state.total, state.throws) == (0, 0)


def test_five_throws_then_the_dice_pass():
    lines = [throw("A", 1, 2)] + [x for _ in range(4) for x in (throw("A", 1, 2), op("A", "plus"))]
    state, decisions = play(lines, players=("A", "B", "C"))
    assert [d.next for d in decisions] == ["A"] * 8 + ["B"]
    assert state.turn == "B" and state.total == 0
    state, (d,) = thirteen.step(state, throw("A", 6, 7))
    assert d.foul.reason == "out_of_turn" and d.next == "B"


def test_reaching_the_target_ends_the_game_mid_series():
    lines = [throw("A", 6, 7), throw("A", 6, 7), op("A", "plus")]  # 13 (1), 26 (2): 3 points
    state, decisions = play(lines, target=3)
    assert (decisions[-1].over, decisions[-1].winner, decisions[-1].next) == (True, "A", None)
    with pytest.raises(RuleError, match="the game is over \\(A won\\)"):
        thirteen.step(state, throw("A", 1, 2))


ERRORS = [
    (
        "a roll while an operation is awaited",
        [*START_12, throw("A", 1, 2), throw("A", 1, 2)],
        "A must announce an operation for the throw of 3",
    ),
    ("an operation on the first throw", [*START_12[:0], op("A", "plus")], "accepted now: a roll by A"),
    ("an operation after the first throw", [*START_12, op("A", "plus")], "accepted now: a roll by A"),
    ("an operation by the other player", [*START_12, throw("A", 1, 2), op("B", "plus")], "an operation by A"),
    (
        "a half of an odd sum",
        [*START_12, throw("A", 1, 2), op("A", "half")],
        "half of 3 is not a whole number",
    ),
    (
        "a third that does not divide",
        [*START_12, throw("A", 2, 2), op("A", "third")],
        "third of 4 is not a whole",
    ),
    ("a roll without the shifted die", [throw("A", 1, 2, ids=("d1", "d3"))], "die with faces 2..7, 'd2'"),
    ("a stop", [Stop(player="A")], "accepted now: a roll by A"),
]


@pytest.mark.parametrize(("lines", "message"), [c[1:] for c in ERRORS], ids=[c[0] for c in ERRORS])
def test_unusable_lines(lines, message):
    with pytest.raises(RuleError, match=message):
        play(lines)


def test_an_unusable_operation_can_be_replaced():
    state, _ = play([*START_12, throw("A", 1, 2)])
    with pytest.raises(RuleError):
        thirteen.step(state, op("A", "quarter"))
    state, (d,) = thirteen.step(state, op("A", "third"))
    assert state.total == 13 and d.points == {"A": 1}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"target": 0}, "target must be an integer >= 1"),
        ({"base": 1}, "base must be an integer >= 2"),
        ({"shifted_die": 2}, "shifted_die must be a non-empty string"),
        ({"first": "Q"}, "first must be one of the players"),
        ({"throws": 4}, "thirteen has no option 'throws'"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(ValueError, match=message):
        thirteen.start(Match(game="thirteen", players=("A", "B"), options=options))


def test_operation_line_checks_its_op():
    with pytest.raises(ValueError, match=r"operation\.op must be one of plus, minus, half"):
        Operation(player="A", op="divide")


def test_whole_game_through_the_referee():
    """Two players to 3 points in base 11; each series of five throws checked."""
    t = iter(range(1000))

    def r(player: str, plain: int, shifted: int) -> str:
        dice = [{"id": "d1", "value": plain}, {"id": "d2", "value": shifted - 1}]
        return json.dumps(
            {"type": "roll", "t": next(t), "player": player, "dice": dice, "thrown": ["d1", "d2"]}
        )

    def o(player: str, name: str) -> str:
        return json.dumps({"type": "operation", "player": player, "op": name})

    header = {"type": "match", "v": 1, "game": "thirteen", "players": ["Ann", "Bob"],
              "options": {"base": 11, "target": 3}}  # fmt: skip
    stream = [
        json.dumps(header),
        # Ann: 5; 6 plus = 11 (1); 4 minus = 7; 4 plus = 11 (1); 12 minus = -1 -> Ann 2
        r("Ann", 3, 2), r("Ann", 4, 2), o("Ann", "plus"), r("Ann", 2, 2), o("Ann", "minus"),
        r("Ann", 1, 3), o("Ann", "plus"), r("Ann", 5, 7), o("Ann", "minus"),
        # Bob: 3; 8 plus = 11 (1); 10 half = 16; 3 double = 22 (2) -> Bob 3, wins
        r("Bob", 1, 2), r("Bob", 2, 6), o("Bob", "plus"), r("Bob", 4, 6), o("Bob", "half"),
        r("Bob", 1, 2), o("Bob", "double"),
    ]  # fmt: skip
    decisions = [d for s in referee(stream) for d in s.decisions]
    assert len(decisions) == len(stream) - 1
    assert [d.points for d in decisions if d.points] == [{"Ann": 1}, {"Ann": 1}, {"Bob": 1}, {"Bob": 2}]
    final = decisions[-1]
    assert (final.score, final.over, final.winner, final.next) == ({"Ann": 2, "Bob": 3}, True, "Bob", None)
    with pytest.raises(RefereeError, match=f"line {len(stream) + 1}: thirteen: the game is over"):
        list(referee([*stream, r("Bob", 1, 2)]))
