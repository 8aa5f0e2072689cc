"""Buck dice: one row per rule case (a short stream and the last decision it must give), then whole games."""

from __future__ import annotations

import json
from typing import Any

import pytest

from adjudication.dice import buck_dice as buck
from adjudication.engine import RuleError
from adjudication.referee import referee
from arbiter.contract import Decision, Die, JsonLine, Match, Roll, Stop


def roll(player: str, *faces: int, thrown: int | None = None) -> Roll:
    dice = tuple(Die(f"d{i}", v) for i, v in enumerate(faces, 1))
    moved = dice if thrown is None else dice[:thrown]
    return Roll(t=0.0, player=player, dice=dice, thrown=tuple(d.id for d in moved))


def play(lines: list[JsonLine], players=("A", "B"), **options: Any) -> tuple[buck.State, list[Decision]]:
    state = buck.start(Match(game="buck-dice", players=players, options=options))
    decisions: list[Decision] = []
    for line in lines:
        state, ds = buck.step(state, line)
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


ABC = ("A", "B", "C")
AB = ("A", "B")
P3 = {"point": 3}
SMALL = roll("A", 4, 4, 4)  # a small buck for A (point 3)
MISS_B = roll("B", 1, 2, 4)
TEN = [SMALL, MISS_B, SMALL, MISS_B]  # A on 10, A to throw

CASES = [
    # id, lines, players, options, expected fields of the last decision
    (
        "draw: the highest throws first, the lowest throws the point",
        [roll("A", 6, 6, 5), roll("B", 1, 1, 2), roll("C", 3, 3, 3), roll("B", 4, thrown=1)],
        ABC,
        {},
        {"foul": None, "player": "B", "points": {}, "on": "4", "next": "A", "note": "the point number is 4"},
    ),
    (
        "draw: a tie for the highest is thrown again",
        [
            roll("A", 5, 5, 1),
            roll("B", 4, 4, 3),
            roll("C", 2, 2, 1),
            roll("A", 2, 3, 3),
            roll("B", 6, 4, 2),
            roll("C", 2, thrown=1),
        ],
        ABC,
        {},
        {"player": "C", "on": "2", "next": "B", "note": "tie for the highest at 11: A, B throw again"},
    ),
    (
        "draw: a tie for the lowest is thrown again",
        [
            roll("A", 5, 5, 5),
            roll("B", 1, 2, 2),
            roll("C", 3, 1, 1),
            roll("B", 3, 3, 1),
            roll("C", 1, 2, 3),
            roll("C", 6, thrown=1),
        ],
        ABC,
        {},
        {"player": "C", "on": "6", "next": "A", "note": "C threw the lowest, 6"},
    ),
    (
        "draw: with two players tied, the one who loses the re-throw throws the point",
        [
            roll("A", 2, 2, 2),
            roll("B", 1, 1, 4),
            roll("A", 1, 1, 1),
            roll("B", 1, 1, 2),
            roll("A", 5, thrown=1),
        ],
        AB,
        {},
        {"player": "A", "on": "5", "next": "B"},
    ),
    (
        "option point skips the draw; one point number scores 1 and the player throws on",
        [roll("A", 3, 1, 2)],
        AB,
        P3,
        {"points": {"A": 1}, "score": {"A": 1, "B": 0}, "on": "3", "next": "A"},
    ),
    (
        "two point numbers score 2",
        [roll("A", 3, 3, 2)],
        AB,
        P3,
        {"points": {"A": 2}, "next": "A"},
    ),
    (
        "no point number ends the turn",
        [roll("A", 3, 1, 2), roll("A", 1, 2, 4)],
        AB,
        P3,
        {"points": {"A": 0}, "score": {"A": 1, "B": 0}, "next": "B"},
    ),
    (
        "a small buck scores 5 and, showing no point number, ends the turn",
        [SMALL],
        AB,
        P3,
        {"points": {"A": 5}, "score": {"A": 5, "B": 0}, "next": "B", "note": "small buck"},
    ),
    (
        "a big buck is 15 at once, whatever the score: out, and the game of two is over",
        [roll("A", 3, 1, 2), roll("A", 3, 3, 3)],
        AB,
        P3,
        {
            "points": {"A": 14},
            "score": {"A": 15, "B": 0},
            "over": True,
            "winner": "A",
            "next": None,
            "note": "double win",
        },
    ),
    (
        "exactly 15 is a buck: the player is out",
        [*TEN, SMALL],
        AB,
        P3,
        {"points": {"A": 5}, "score": {"A": 15, "B": 0}, "over": True, "winner": "A"},
    ),
    (
        "a throw past 15 does not count and the player throws again",
        [*TEN, roll("A", 3, 3, 1), roll("A", 3, 3, 1), roll("A", 3, 3, 1)],
        AB,
        P3,
        {"foul": None, "points": {"A": 0}, "score": {"A": 14, "B": 0}, "next": "A", "note": "does not count"},
    ),
    (
        "a small buck past 15 does not count either",
        [*TEN, roll("A", 3, 1, 1), roll("A", 4, 4, 4)],
        AB,
        P3,
        {"points": {"A": 0}, "score": {"A": 11, "B": 0}, "next": "A"},
    ),
    (
        "out players are skipped",
        [roll("A", 3, 3, 3), roll("B", 1, 1, 2), roll("C", 1, 1, 2)],
        ABC,
        P3,
        {"score": {"A": 15, "B": 0, "C": 0}, "next": "B", "over": False},
    ),
    (
        "the last one left loses; of three nobody is named winner",
        [roll("A", 3, 3, 3), roll("B", 3, 3, 3)],
        ABC,
        P3,
        {"over": True, "winner": None, "next": None, "note": "C is the last one left and loses"},
    ),
    (
        "first, with point",
        [roll("B", 3, 3, 1)],
        AB,
        {"point": 3, "first": "B"},
        {"points": {"B": 2}, "next": "B"},
    ),
    (
        "a roll out of turn is void",
        [roll("B", 3, 3, 3)],
        AB,
        P3,
        {"foul": ("out_of_turn", 0), "points": {}, "score": {"A": 0, "B": 0}, "next": "A", "on": "3"},
    ),
    (
        "a draw throw out of turn is void",
        [roll("B", 6, 6, 6)],
        AB,
        {},
        {"foul": ("out_of_turn", 0), "next": "A", "on": None},
    ),
    (
        "two dice is a void throw",
        [roll("A", 3, 3)],
        AB,
        P3,
        {"foul": ("wrong_dice", 0), "next": "A"},
    ),
    (
        "a die left lying is a void throw",
        [roll("A", 3, 3, 3, thrown=2)],
        AB,
        P3,
        {"foul": ("die_not_thrown", 0), "next": "A"},
    ),
    (
        "the point is thrown with one die",
        [roll("A", 6, 6, 6), roll("B", 1, 1, 1), roll("B", 4, 4, 4)],
        AB,
        {},
        {"foul": ("wrong_dice", 0), "next": "B"},
    ),
    (
        "after a void throw the same player throws",
        [roll("B", 3, 3, 3), roll("A", 3, 1, 1)],
        AB,
        P3,
        {"foul": None, "points": {"A": 1}, "next": "A", "shot": 2},
    ),
]


@pytest.mark.parametrize(
    ("lines", "players", "options", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_rule_case(lines: list[JsonLine], players: tuple[str, ...], options: dict, expected: dict) -> None:
    _, decisions = play(lines, players, **options)
    check(decisions[-1], expected)


def test_draw_throws_make_no_decisions() -> None:
    state, decisions = play([roll("A", 6, 6, 5), roll("B", 1, 1, 2)], AB)
    assert decisions == []
    assert (state.phase, state.first, state.low, state.on_turn) == (buck.Phase.POINT, "A", "B", "B")


def test_big_buck_owes_a_double_win() -> None:
    b, c = roll("B", 4, 4, 4), roll("C", 1, 1, 2)
    state, _ = play([roll("A", 3, 3, 3), b, c, b, c, b], ABC, **P3)
    assert (state.out, state.double, state.over) == (("A", "B"), ("A",), True)
    assert state.loser == "C"


REJECTED = [
    ("stop is not an input", [Stop(player="A")], P3, "cannot be used now"),
    ("nothing after the end", [roll("A", 3, 3, 3), roll("B", 1, 1, 1)], P3, "game is over"),
]


@pytest.mark.parametrize(
    ("lines", "options", "message"), [c[1:] for c in REJECTED], ids=[c[0] for c in REJECTED]
)
def test_rejected(lines: list[JsonLine], options: dict, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        play(lines, AB, **options)


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (("A",), {}, "players"),
        (AB, {"first": "B"}, "needs point"),
        (AB, {"point": 7}, "point"),
        (AB, {"point": 0}, "point"),
        (AB, {"point": 3, "first": "Z"}, "first"),
        (AB, {"target": 21}, "no option"),
    ],
)
def test_bad_options(players: tuple[str, ...], options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        buck.start(Match(game="buck-dice", players=players, options=options))


def test_whole_game() -> None:
    t = 0.0

    def line(player: str, *faces: int) -> str:
        nonlocal t
        t += 1.0
        dice = [{"id": f"d{i}", "value": v} for i, v in enumerate(faces, 1)]
        return json.dumps(
            {"type": "roll", "t": t, "player": player, "dice": dice, "thrown": [d["id"] for d in dice]}
        )

    lines = [
        json.dumps({"type": "match", "v": 1, "game": "buck-dice", "players": ["A", "B", "C"]}),
        line("A", 4, 4, 2), line("B", 6, 5, 1), line("C", 2, 1, 3),  # B first (12), C low (6)
        line("C", 2),  # the point is 2
        line("B", 2, 2, 5), line("B", 2, 1, 1), line("B", 6, 6, 6),  # B: 2, 3, small buck 8; turn ends
        line("C", 1, 3, 4),  # C nothing
        line("A", 2, 2, 2),  # A big buck: out, double
        line("B", 5, 5, 5), line("C", 2, 4, 4), line("C", 3, 3, 3),  # B 13; C 1, then a small buck: 6
        line("B", 2, 1, 1),  # B 14 and throws on
        line("B", 2, 2, 4),  # 16 would pass 15: void, B throws again
        line("B", 2, 4, 4),  # 15 exactly: B out, C is left and loses
    ]  # fmt: skip
    decisions = [d for r in referee(lines) for d in r.decisions]
    assert decisions[0].on == "2" and decisions[0].next == "B"
    assert [d.points.get(d.player, 0) for d in decisions[1:]] == [2, 1, 5, 0, 15, 5, 1, 5, 1, 0, 1]
    assert [d.next for d in decisions[1:]] == ["B", "B", "C", "A", "B", "C", "C", "B", "B", "B", None]
    last = decisions[-1]
    assert dict(last.score) == {"A": 15, "B": 15, "C": 6}
    assert (last.over, last.winner) == (True, None)
    assert "C is the last one left and loses" in " ".join(last.notes)
