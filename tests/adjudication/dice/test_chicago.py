"""Chicago: one row per rule case (a short stream and the last decision it must give), then whole games."""

from __future__ import annotations

import json
from typing import Any

import pytest

from adjudication.dice import chicago
from adjudication.engine import RuleError
from adjudication.referee import referee
from arbiter.contract import Choose, Decision, Die, JsonLine, Match, Roll, Stop


def roll(player: str, *faces: int, thrown: int | None = None) -> Roll:
    dice = tuple(Die(f"d{i}", v) for i, v in enumerate(faces, 1))
    moved = dice if thrown is None else dice[:thrown]
    return Roll(t=0.0, player=player, dice=dice, thrown=tuple(d.id for d in moved))


def play(lines: list[JsonLine], players=("A", "B"), **options: Any) -> tuple[chicago.State, list[Decision]]:
    state = chicago.start(Match(game="chicago", players=players, options=options))
    decisions: list[Decision] = []
    for line in lines:
        state, ds = chicago.step(state, line)
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


# one hit of every target 2..12, players A and B taking turns (A hits 2, 4, ..., 12; B hits 3, 5, ..., 11)
ALL_HITS = [roll("AB"[k % 2], 1 + k // 2, 1 + (k + 1) // 2) for k in range(11)]
# Hoyle: both players hit every target
BOTH_HIT = [roll(p, 1 + k // 2, 1 + (k + 1) // 2) for k in range(11) for p in "AB"]

CASES = [
    # id, lines, options, expected fields of the last decision
    (
        "round one: a total of 2 scores 2",
        [roll("A", 1, 1)],
        {},
        {"foul": None, "points": {"A": 2}, "score": {"A": 2, "B": 0}, "on": "3", "next": "B"},
    ),
    (
        "another total scores nothing; the target stays",
        [roll("A", 1, 2)],
        {},
        {"points": {"A": 0}, "score": {"A": 0, "B": 0}, "on": "2", "next": "B"},
    ),
    (
        "race: the first to hit the target takes the round",
        [roll("A", 1, 2), roll("B", 1, 1)],
        {},
        {"points": {"B": 2}, "score": {"A": 0, "B": 2}, "on": "3", "next": "A"},
    ),
    (
        "round two: a total of 3 scores 3",
        [roll("A", 1, 1), roll("B", 2, 1)],
        {},
        {"points": {"B": 3}, "score": {"A": 2, "B": 3}, "on": "4", "next": "A"},
    ),
    (
        "last round's target no longer scores",
        [roll("A", 1, 1), roll("B", 1, 1)],
        {},
        {"points": {"B": 0}, "score": {"A": 2, "B": 0}, "on": "3"},
    ),
    (
        "round eleven: 12 scores 12 and ends the game",
        ALL_HITS,
        {},
        {
            "points": {"A": 12},
            "score": {"A": 42, "B": 35},
            "on": None,
            "next": None,
            "over": True,
            "winner": "A",
        },
    ),
    (
        "hoyle: everyone throws once a round and every hit scores",
        [roll("A", 1, 1), roll("B", 1, 1)],
        {"variant": "hoyle"},
        {"points": {"B": 2}, "score": {"A": 2, "B": 2}, "on": "3", "next": "A"},
    ),
    (
        "hoyle: the round goes on after a hit until everyone has thrown",
        [roll("A", 1, 1)],
        {"variant": "hoyle"},
        {"points": {"A": 2}, "on": "2", "next": "B"},
    ),
    (
        "hoyle: a round of misses still ends",
        [roll("A", 1, 2), roll("B", 3, 4)],
        {"variant": "hoyle"},
        {"points": {"B": 0}, "score": {"A": 0, "B": 0}, "on": "3", "next": "A"},
    ),
    (
        "hoyle: equal totals after eleven rounds name no winner",
        BOTH_HIT,
        {"variant": "hoyle"},
        {"score": {"A": 77, "B": 77}, "over": True, "winner": None, "note": "tie at 77"},
    ),
    (
        "first",
        [roll("B", 1, 1)],
        {"first": "B"},
        {"points": {"B": 2}, "next": "A"},
    ),
    (
        "a roll out of turn is void",
        [roll("B", 1, 1)],
        {},
        {"foul": ("out_of_turn", 0), "points": {}, "score": {"A": 0, "B": 0}, "on": "2", "next": "A"},
    ),
    (
        "three dice is a void throw",
        [roll("A", 1, 1, 1)],
        {},
        {"foul": ("wrong_dice", 0), "next": "A", "on": "2"},
    ),
    (
        "one die is a void throw",
        [roll("A", 2)],
        {},
        {"foul": ("wrong_dice", 0), "next": "A"},
    ),
    (
        "a die left lying is a void throw",
        [roll("A", 1, 1, thrown=1)],
        {},
        {"foul": ("die_not_thrown", 0), "next": "A"},
    ),
    (
        "after a void throw the same player throws for the same target",
        [roll("B", 1, 1), roll("A", 1, 1)],
        {},
        {"foul": None, "points": {"A": 2}, "on": "3", "next": "B", "shot": 2},
    ),
]


@pytest.mark.parametrize(("lines", "options", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rule_case(lines: list[JsonLine], options: dict, expected: dict) -> None:
    _, decisions = play(lines, **options)
    assert len(decisions) == len(lines)
    check(decisions[-1], expected)


REJECTED = [
    ("stop is not an input", [Stop(player="A")], "cannot be used now"),
    ("choose is not an input", [Choose(player="A", category="ones")], "cannot be used now"),
    ("nothing after the end", [*ALL_HITS, roll("B", 1, 1)], "game is over"),
]


@pytest.mark.parametrize(("lines", "message"), [c[1:] for c in REJECTED], ids=[c[0] for c in REJECTED])
def test_rejected(lines: list[JsonLine], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        play(lines)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"variant": "vegas"}, "variant"),
        ({"variant": ["race"]}, "variant"),
        ({"first": "Z"}, "first"),
        ({"x": 1}, "no option"),
    ],
)
def test_bad_options(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        chicago.start(Match(game="chicago", players=("A", "B"), options=options))


def test_whole_race() -> None:
    def line(player: str, a: int, b: int, t: float) -> str:
        dice = [{"id": "d1", "value": a}, {"id": "d2", "value": b}]
        return json.dumps({"type": "roll", "t": t, "player": player, "dice": dice, "thrown": ["d1", "d2"]})

    throws = [
        ("A", 3, 4), ("B", 2, 5), ("C", 1, 1),  # C takes round 1 (2)
        ("A", 1, 2),  # A takes round 2 (3)
        ("B", 2, 2),  # 4
        ("C", 6, 6), ("A", 1, 4),  # 5
        ("B", 3, 3),  # 6
        ("C", 3, 4),  # 7
        ("A", 4, 4),  # 8
        ("B", 6, 1), ("C", 4, 5),  # 9
        ("A", 5, 5),  # 10
        ("B", 5, 6),  # 11
        ("C", 1, 1), ("A", 6, 6),  # 12
    ]  # fmt: skip
    lines = [json.dumps({"type": "match", "v": 1, "game": "chicago", "players": ["A", "B", "C"]})]
    lines += [line(p, a, b, float(i)) for i, (p, a, b) in enumerate(throws)]
    decisions = [d for r in referee(lines) for d in r.decisions]
    assert [d.on for d in decisions] == [
        "2", "2", "3", "4", "5", "5", "6", "7", "8", "9", "9", "10", "11", "12", "12", None
    ]  # fmt: skip
    assert dict(decisions[-1].score) == {"A": 3 + 5 + 8 + 10 + 12, "B": 4 + 6 + 11, "C": 2 + 7 + 9}
    assert (decisions[-1].over, decisions[-1].winner) == (True, "A")
