"""Four dice: one row per rule case (a short stream and the last decision it gives), then a whole match."""

from __future__ import annotations

import json
from typing import Any

import pytest

from adjudication.dice import four_dice
from adjudication.engine import RuleError
from adjudication.referee import referee
from arbiter.contract import Decision, Die, JsonLine, Match, Roll, Stop


def roll(player: str, *faces: int, thrown: int | None = None) -> Roll:
    dice = tuple(Die(f"d{i}", v) for i, v in enumerate(faces, 1))
    moved = dice if thrown is None else dice[:thrown]
    return Roll(t=0.0, player=player, dice=dice, thrown=tuple(d.id for d in moved))


def play(lines: list[JsonLine], players=("A", "B"), **options: Any) -> tuple[four_dice.State, list[Decision]]:
    state = four_dice.start(Match(game="four-dice", players=players, options=options))
    decisions: list[Decision] = []
    for line in lines:
        state, ds = four_dice.step(state, line)
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


CASES = [
    # id, lines, options, expected fields of the last decision
    (
        "a six: the throw goes to the first player",
        [roll("A", 6, 1, 2, 3)],
        {},
        {
            "foul": None,
            "points": {"A": 1},
            "score": {"A": 1, "B": 0},
            "over": True,
            "winner": "A",
            "next": None,
        },
    ),
    (
        "no six: the throw goes to the other player",
        [roll("A", 5, 1, 2, 3)],
        {},
        {"points": {"B": 1}, "score": {"A": 0, "B": 1}, "over": True, "winner": "B"},
    ),
    (
        "four sixes are still one throw won",
        [roll("A", 6, 6, 6, 6)],
        {},
        {"points": {"A": 1}, "score": {"A": 1, "B": 0}, "note": "4 sixes"},
    ),
    (
        "the second player's throw with a six still goes to the first",
        [roll("A", 1, 1, 1, 1), roll("B", 2, 6, 2, 2)],
        {"throws": 3},
        {"points": {"A": 1}, "score": {"A": 1, "B": 1}, "next": "A", "over": False},
    ),
    (
        "first names who backs the six and throws first",
        [roll("B", 6, 1, 1, 1)],
        {"first": "B"},
        {"points": {"B": 1}, "score": {"A": 0, "B": 1}, "winner": "B"},
    ),
    (
        "throws alternate",
        [roll("A", 1, 1, 1, 1)],
        {"throws": 3},
        {"next": "B", "over": False},
    ),
    (
        "an even match can be drawn",
        [roll("A", 6, 1, 1, 1), roll("B", 1, 1, 1, 1)],
        {"throws": 2},
        {"score": {"A": 1, "B": 1}, "over": True, "winner": None, "note": "drawn"},
    ),
    (
        "a roll out of turn is void",
        [roll("B", 6, 6, 6, 6)],
        {},
        {"foul": ("out_of_turn", 0), "points": {}, "score": {"A": 0, "B": 0}, "next": "A", "over": False},
    ),
    (
        "three dice is void",
        [roll("A", 6, 1, 1)],
        {},
        {"foul": ("wrong_dice", 0), "points": {}, "score": {"A": 0, "B": 0}, "next": "A"},
    ),
    (
        "five dice is void",
        [roll("A", 6, 1, 1, 2, 2)],
        {},
        {"foul": ("wrong_dice", 0), "next": "A"},
    ),
    (
        "a die left lying is a void throw",
        [roll("A", 6, 1, 1, 2, thrown=3)],
        {},
        {"foul": ("die_not_thrown", 0), "next": "A"},
    ),
    (
        "after a void throw the same player throws",
        [roll("B", 6, 6, 6, 6), roll("A", 2, 2, 2, 2)],
        {},
        {"foul": None, "points": {"B": 1}, "winner": "B", "shot": 2},
    ),
]


@pytest.mark.parametrize(("lines", "options", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rule_case(lines: list[JsonLine], options: dict, expected: dict) -> None:
    _, decisions = play(lines, **options)
    assert len(decisions) == len(lines)
    check(decisions[-1], expected)


REJECTED = [
    ("stop is not an input of four-dice", [Stop(player="A")], "cannot be used now"),
    ("nothing after the end", [roll("A", 6, 1, 1, 1), roll("B", 6, 1, 1, 1)], "game is over"),
]


@pytest.mark.parametrize(("lines", "message"), [c[1:] for c in REJECTED], ids=[c[0] for c in REJECTED])
def test_rejected(lines: list[JsonLine], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        play(lines)


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (("A",), {}, "exactly 2"),
        (("A", "B", "C"), {}, "exactly 2"),
        (("A", "B"), {"throws": 0}, "throws"),
        (("A", "B"), {"first": "C"}, "first"),
        (("A", "B"), {"rounds": 3}, "no option 'rounds'"),
    ],
)
def test_bad_options(players: tuple[str, ...], options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        four_dice.start(Match(game="four-dice", players=players, options=options))


def test_whole_match() -> None:
    def line(player: str, faces: list[int], t: float) -> str:
        dice = [{"id": f"d{i}", "value": v} for i, v in enumerate(faces, 1)]
        return json.dumps(
            {"type": "roll", "t": t, "player": player, "dice": dice, "thrown": [d["id"] for d in dice]}
        )

    lines = [
        json.dumps(
            {"type": "match", "v": 1, "game": "four-dice", "players": ["A", "B"], "options": {"throws": 5}}
        ),
        line("A", [1, 2, 3, 4], 1.0),
        line("B", [6, 2, 3, 4], 2.0),
        line("A", [5, 5, 5, 5], 3.0),
        line("B", [1, 1, 1, 1], 4.0),
        line("A", [3, 6, 6, 2], 5.0),
    ]
    decisions = [d for r in referee(lines) for d in r.decisions]
    assert [dict(d.points) for d in decisions] == [{"B": 1}, {"A": 1}, {"B": 1}, {"B": 1}, {"A": 1}]
    assert dict(decisions[-1].score) == {"A": 2, "B": 3}
    assert (decisions[-1].over, decisions[-1].winner, decisions[-1].next) == (True, "B", None)
