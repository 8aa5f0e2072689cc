"""Stuck in the mud: one row per rule case (a short stream, the last decision it gives), then a whole game."""

from __future__ import annotations

import json
from typing import Any

import pytest

from adjudication.dice import stuck_in_the_mud as mud
from adjudication.engine import RuleError
from adjudication.referee import referee
from arbiter.contract import Decision, Die, JsonLine, Match, Roll, Stop


def roll(player: str, *faces: int) -> Roll:
    """A turn's first throw: five dice d1..d5, all thrown."""
    dice = tuple(Die(f"d{i}", v) for i, v in enumerate(faces, 1))
    return Roll(t=0.0, player=player, dice=dice, thrown=tuple(d.id for d in dice))


def again(player: str, faces: dict[str, int], thrown: list[str] | None = None) -> Roll:
    """A later throw: the dice listed (dead ones may lie there unthrown), those thrown (default: all)."""
    dice = tuple(Die(i, v) for i, v in faces.items())
    return Roll(t=0.0, player=player, dice=dice, thrown=tuple(thrown if thrown is not None else faces))


def play(lines: list[JsonLine], players=("A", "B"), **options: Any) -> tuple[mud.State, list[Decision]]:
    state = mud.start(Match(game="stuck-in-the-mud", players=players, options=options))
    decisions: list[Decision] = []
    for line in lines:
        state, ds = mud.step(state, line)
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


ALL_DEAD = roll("A", 2, 2, 5, 5, 2)
CASES = [
    # id, lines, options, expected fields of the last decision
    (
        "no two or five: the sum scores and the player throws on",
        [roll("A", 1, 3, 4, 6, 6)],
        {},
        {"foul": None, "points": {"A": 20}, "score": {"A": 20, "B": 0}, "next": "A", "over": False},
    ),
    (
        "a two: the throw scores nothing and the two is dead",
        [roll("A", 2, 3, 4, 6, 6)],
        {},
        {"points": {"A": 0}, "score": {"A": 0, "B": 0}, "next": "A", "note": "4 live"},
    ),
    (
        "a five: the throw scores nothing",
        [roll("A", 6, 6, 6, 6, 5)],
        {},
        {"points": {"A": 0}, "score": {"A": 0, "B": 0}, "next": "A", "note": "dead: 1 (5)"},
    ),
    (
        "several dead dice are all set aside; the live ones are thrown again",
        [roll("A", 2, 5, 2, 6, 6), again("A", {"d4": 3, "d5": 4})],
        {},
        {"points": {"A": 7}, "score": {"A": 7, "B": 0}, "next": "A", "note": "2 live"},
    ),
    (
        "dead dice may lie in the roll unthrown, their faces ignored",
        [roll("A", 2, 5, 2, 6, 6), again("A", {"d1": 6, "d2": 6, "d3": 6, "d4": 3, "d5": 4}, ["d4", "d5"])],
        {},
        {"points": {"A": 7}, "score": {"A": 7, "B": 0}},
    ),
    (
        "points add up over the turn",
        [roll("A", 1, 3, 4, 6, 6), roll("A", 1, 1, 1, 1, 1)],
        {},
        {"points": {"A": 5}, "score": {"A": 25, "B": 0}, "next": "A"},
    ),
    (
        "all five dead: the dice pass on",
        [ALL_DEAD],
        {},
        {"points": {"A": 0}, "next": "B", "over": False, "note": "all five dead"},
    ),
    (
        "the last live die dies: the dice pass on",
        [roll("A", 2, 2, 2, 2, 6), again("A", {"d5": 4}), again("A", {"d5": 5})],
        {},
        {"points": {"A": 0}, "score": {"A": 4, "B": 0}, "next": "B"},
    ),
    (
        "after every player's turn the most points wins",
        [ALL_DEAD, roll("B", 1, 1, 1, 1, 1), roll("B", 2, 5, 2, 5, 2)],
        {},
        {"score": {"A": 0, "B": 5}, "over": True, "winner": "B", "next": None},
    ),
    (
        "a tie for the most points names no winner",
        [ALL_DEAD, roll("B", 5, 5, 5, 5, 5)],
        {},
        {"over": True, "winner": None, "note": "tie at 0"},
    ),
    (
        "rounds: each player has more turns",
        [ALL_DEAD, roll("B", 5, 5, 5, 5, 5)],
        {"rounds": 2},
        {"over": False, "next": "A"},
    ),
    (
        "first",
        [roll("B", 1, 1, 1, 1, 1)],
        {"first": "B"},
        {"points": {"B": 5}, "next": "B"},
    ),
    (
        "a roll out of turn is void",
        [roll("B", 1, 1, 1, 1, 1)],
        {},
        {"foul": ("out_of_turn", 0), "points": {}, "score": {"A": 0, "B": 0}, "next": "A"},
    ),
    (
        "a dead die thrown again is a void throw",
        [roll("A", 2, 3, 4, 6, 6), again("A", {"d1": 1, "d2": 1, "d3": 1, "d4": 1, "d5": 1})],
        {},
        {"foul": ("dead_die_thrown", 0), "points": {}, "score": {"A": 0, "B": 0}, "next": "A"},
    ),
    (
        "a live die left lying is a void throw",
        [roll("A", 2, 3, 4, 6, 6), again("A", {"d2": 1, "d3": 1, "d4": 1})],
        {},
        {"foul": ("die_not_thrown", 0), "next": "A"},
    ),
    (
        "a turn starts with five dice",
        [roll("A", 1, 3, 4, 6)],
        {},
        {"foul": ("wrong_dice", 0), "next": "A"},
    ),
    (
        "a die that is not one of the turn's is a void throw",
        [roll("A", 2, 3, 4, 6, 6), again("A", {"d2": 1, "d3": 1, "d4": 1, "d5": 1, "d9": 1})],
        {},
        {"foul": ("wrong_dice", 0), "next": "A"},
    ),
    (
        "a void throw changes nothing: the live dice are still to throw",
        [
            roll("A", 2, 3, 4, 6, 6),
            roll("B", 1, 1, 1, 1, 1),
            again("A", {"d2": 1, "d3": 1, "d4": 1, "d5": 1}),
        ],
        {},
        {"foul": None, "points": {"A": 4}, "score": {"A": 4, "B": 0}, "next": "A", "shot": 3},
    ),
]


@pytest.mark.parametrize(("lines", "options", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rule_case(lines: list[JsonLine], options: dict, expected: dict) -> None:
    _, decisions = play(lines, **options)
    assert len(decisions) == len(lines)
    check(decisions[-1], expected)


REJECTED = [
    ("stop is not an input", [Stop(player="A")], "cannot be used now"),
    ("nothing after the end", [ALL_DEAD, roll("B", 2, 2, 2, 2, 2), roll("A", 1, 1, 1, 1, 1)], "game is over"),
]


@pytest.mark.parametrize(("lines", "message"), [c[1:] for c in REJECTED], ids=[c[0] for c in REJECTED])
def test_rejected(lines: list[JsonLine], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        play(lines)


@pytest.mark.parametrize(
    ("options", "message"),
    [({"rounds": 0}, "rounds"), ({"first": "Z"}, "first"), ({"target": 100}, "no option")],
)
def test_bad_options(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        mud.start(Match(game="stuck-in-the-mud", players=("A", "B"), options=options))


def test_whole_game() -> None:
    def line(player: str, faces: dict[str, int], thrown: list[str], t: float) -> str:
        dice = [{"id": k, "value": v} for k, v in faces.items()]
        return json.dumps({"type": "roll", "t": t, "player": player, "dice": dice, "thrown": thrown})

    five = ["d1", "d2", "d3", "d4", "d5"]
    lines = [
        json.dumps({"type": "match", "v": 1, "game": "stuck-in-the-mud", "players": ["A", "B", "C"]}),
        line("A", {"d1": 6, "d2": 6, "d3": 4, "d4": 3, "d5": 1}, five, 1.0),  # 20
        line("A", {"d1": 6, "d2": 6, "d3": 6, "d4": 2, "d5": 1}, five, 2.0),  # d4 dead
        line("A", {"d1": 6, "d2": 6, "d3": 6, "d5": 6}, ["d1", "d2", "d3", "d5"], 3.0),  # 24
        line("A", {"d1": 5, "d2": 5, "d3": 2, "d5": 2}, ["d1", "d2", "d3", "d5"], 4.0),  # all dead
        line("B", {"d1": 2, "d2": 5, "d3": 2, "d4": 5, "d5": 2}, five, 5.0),  # all dead at once
        line("C", {"d1": 6, "d2": 6, "d3": 6, "d4": 6, "d5": 6}, five, 6.0),  # 30
        line("C", {"d1": 4, "d2": 4, "d3": 4, "d4": 4, "d5": 5}, five, 7.0),  # d5 dead
        line("C", {"d1": 6, "d2": 6, "d3": 6, "d4": 6}, ["d1", "d2", "d3", "d4"], 8.0),  # 24
        line("C", {"d1": 2, "d2": 5, "d3": 5, "d4": 2}, ["d1", "d2", "d3", "d4"], 9.0),  # all dead
    ]
    decisions = [d for r in referee(lines) for d in r.decisions]
    assert [d.points.get(d.player, 0) for d in decisions] == [20, 0, 24, 0, 0, 30, 0, 24, 0]
    assert [d.next for d in decisions] == ["A", "A", "A", "B", "C", "C", "C", "C", None]
    assert dict(decisions[-1].score) == {"A": 44, "B": 0, "C": 54}
    assert (decisions[-1].over, decisions[-1].winner) == (True, "C")
