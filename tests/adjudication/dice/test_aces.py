"""Aces: one row per rule case (a short stream and the last decision it must give), then a whole game."""

from __future__ import annotations

import json
from typing import Any

import pytest

from adjudication.dice import aces
from adjudication.engine import RuleError
from adjudication.referee import RefereeError, referee
from arbiter.contract import Choose, Decision, Die, JsonLine, Match, Roll, Stop


def roll(player: str, *faces: int, thrown: int | None = None) -> Roll:
    dice = tuple(Die(f"d{i}", v) for i, v in enumerate(faces, 1))
    moved = dice if thrown is None else dice[:thrown]
    return Roll(t=0.0, player=player, dice=dice, thrown=tuple(d.id for d in moved))


def play(lines: list[JsonLine], players=("A", "B", "C"), **options: Any) -> tuple[aces.State, list[Decision]]:
    state = aces.start(Match(game="aces", players=players, options=options))
    decisions: list[Decision] = []
    for line in lines:
        state, ds = aces.step(state, line)
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


AB = ("A", "B")
CASES = [
    # id, lines, players, options, expected fields of the last decision
    (
        "aces go to the centre",
        [roll("A", 1, 1, 3, 4, 6)],
        ("A", "B", "C"),
        {},
        {"foul": None, "points": {"A": -2}, "score": {"A": 3, "B": 5, "C": 5}, "next": "B", "over": False},
    ),
    (
        "twos go to the left neighbour",
        [roll("A", 2, 2, 3, 4, 6)],
        ("A", "B", "C"),
        {},
        {"points": {"A": -2, "B": 2}, "score": {"A": 3, "B": 7, "C": 5}, "next": "B"},
    ),
    (
        "fives go to the right neighbour (the previous player)",
        [roll("A", 5, 3, 3, 4, 6)],
        ("A", "B", "C"),
        {},
        {"points": {"A": -1, "C": 1}, "score": {"A": 4, "B": 5, "C": 6}, "next": "B"},
    ),
    (
        "one throw: ace, two and five each go their way; other faces stay",
        [roll("A", 1, 2, 5, 3, 4)],
        ("A", "B", "C"),
        {},
        {"points": {"A": -3, "B": 1, "C": 1}, "score": {"A": 2, "B": 6, "C": 6}, "next": "B"},
    ),
    (
        "the left neighbour of the last player is the first",
        [roll("C", 2, 3, 3, 3, 3)],
        ("A", "B", "C"),
        {"first": "C"},
        {"points": {"C": -1, "A": 1}, "score": {"A": 6, "B": 5, "C": 4}, "next": "A"},
    ),
    (
        "two players: twos and fives both go to the other",
        [roll("A", 2, 5, 1, 3, 3)],
        AB,
        {},
        {"points": {"A": -3, "B": 2}, "score": {"A": 2, "B": 7}, "next": "B"},
    ),
    (
        "no scoring face: nothing moves, the turn passes",
        [roll("A", 3, 3, 4, 6, 6)],
        ("A", "B", "C"),
        {},
        {"points": {}, "score": {"A": 5, "B": 5, "C": 5}, "next": "B"},
    ),
    (
        "the thrower throws only the dice they hold",
        [roll("A", 1, 1, 3, 4, 6), roll("B", 3, 3, 3, 3, 3), roll("C", 4, 4, 4, 4, 4), roll("A", 1, 3, 3)],
        ("A", "B", "C"),
        {},
        {"points": {"A": -1}, "score": {"A": 2, "B": 5, "C": 5}, "next": "B"},
    ),
    (
        "a player with no dice is skipped",
        [roll("A", 1), roll("B", 3), roll("C", 4)],
        ("A", "B", "C"),
        {"dice": 1},
        {"points": {}, "score": {"A": 0, "B": 1, "C": 1}, "next": "B"},
    ),
    (
        "a player with no dice is not out: a five brings one back",
        [roll("A", 1), roll("B", 5), roll("C", 3)],
        ("A", "B", "C"),
        {"dice": 1},
        {"points": {}, "score": {"A": 1, "B": 0, "C": 1}, "next": "A"},
    ),
    (
        "the only player with dice throws again",
        [roll("A", 1), roll("B", 3)],
        AB,
        {"dice": 1},
        {"points": {}, "score": {"A": 0, "B": 1}, "next": "B"},
    ),
    (
        "the last ace loses; of two players the other wins",
        [roll("A", 1), roll("B", 1)],
        AB,
        {"dice": 1},
        {"points": {"B": -1}, "score": {"A": 0, "B": 0}, "next": None, "over": True, "winner": "A"},
    ),
    (
        "the last ace loses; of three nobody is named winner",
        [roll("A", 1), roll("B", 1), roll("C", 1)],
        ("A", "B", "C"),
        {"dice": 1},
        {"over": True, "winner": None, "next": None, "note": "C threw the last ace and loses"},
    ),
    (
        "a roll out of turn is void",
        [roll("B", 1, 1, 1, 1, 1)],
        ("A", "B", "C"),
        {},
        {"foul": ("out_of_turn", 0), "points": {}, "score": {"A": 5, "B": 5, "C": 5}, "next": "A"},
    ),
    (
        "a roll of more dice than the thrower holds is void",
        [
            roll("A", 1, 1, 3, 4, 6),
            roll("B", 3, 3, 3, 3, 3),
            roll("C", 3, 3, 3, 3, 3),
            roll("A", 1, 1, 1, 1, 1),
        ],
        ("A", "B", "C"),
        {},
        {"foul": ("wrong_dice", 0), "points": {}, "score": {"A": 3, "B": 5, "C": 5}, "next": "A"},
    ),
    (
        "a die left lying is a void throw",
        [roll("A", 1, 1, 3, 4, 6, thrown=4)],
        ("A", "B", "C"),
        {},
        {"foul": ("die_not_thrown", 0), "points": {}, "score": {"A": 5, "B": 5, "C": 5}, "next": "A"},
    ),
    (
        "after a void throw the player on turn throws",
        [roll("B", 1, 1, 1, 1, 1), roll("A", 1, 3, 3, 3, 3)],
        ("A", "B", "C"),
        {},
        {"foul": None, "points": {"A": -1}, "score": {"A": 4, "B": 5, "C": 5}, "next": "B", "shot": 2},
    ),
]


@pytest.mark.parametrize(
    ("lines", "players", "options", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_rule_case(lines: list[JsonLine], players: tuple[str, ...], options: dict, expected: dict) -> None:
    _, decisions = play(lines, players, **options)
    assert len(decisions) == len(lines)
    check(decisions[-1], expected)


REJECTED = [
    # id, lines, options, message fragment
    ("stop is not an input of aces", [Stop(player="A")], {}, "cannot be used now"),
    ("choose is not an input of aces", [Choose(player="A", category="ones")], {}, "cannot be used now"),
    ("nothing after the end", [roll("A", 1), roll("B", 1), roll("A", 1)], {"dice": 1}, "game is over"),
    ("a player not in the match", [roll("Z", 1, 1, 1, 1, 1)], {}, "not a player"),
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
        (AB, {"dice": 0}, "dice"),
        (AB, {"dice": True}, "dice"),
        (AB, {"first": "Z"}, "first"),
        (AB, {"target": 3}, "no option 'target'"),
    ],
)
def test_bad_options(players: tuple[str, ...], options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        aces.start(Match(game="aces", players=players, options=options))


def _line(player: str, *faces: int, t: float) -> str:
    dice = [{"id": f"d{i}", "value": v} for i, v in enumerate(faces, 1)]
    return json.dumps(
        {"type": "roll", "t": t, "player": player, "dice": dice, "thrown": [d["id"] for d in dice]}
    )


def test_whole_game() -> None:
    lines = [
        json.dumps(
            {"type": "match", "v": 1, "game": "aces", "players": ["A", "B", "C"], "options": {"dice": 2}}
        ),
        _line("A", 1, 2, t=1.0),  # ace to the centre, two to B
        _line("B", 5, 1, 3, t=2.0),  # five to A, ace to the centre
        _line("C", 2, 2, t=3.0),  # both twos to A; C holds none
        _line("A", 1, 1, 4, t=4.0),
        _line("B", 1, t=5.0),  # B empty; C empty: A throws on
        _line("A", 3, t=6.0),
        _line("A", 1, t=7.0),  # the sixth and last ace
    ]
    out = list(referee(lines))
    decisions = [d for r in out for d in r.decisions]
    assert [d.next for d in decisions] == ["B", "C", "A", "B", "A", "A", None]
    assert [dict(d.score) for d in decisions] == [
        {"A": 0, "B": 3, "C": 2},
        {"A": 1, "B": 1, "C": 2},
        {"A": 3, "B": 1, "C": 0},
        {"A": 1, "B": 1, "C": 0},
        {"A": 1, "B": 0, "C": 0},
        {"A": 1, "B": 0, "C": 0},
        {"A": 0, "B": 0, "C": 0},
    ]
    last = out[-1].state
    assert (last.over, last.loser, last.winner, last.centre) == (True, "A", None, 6)
    assert [d.shot for d in decisions] == [1, 2, 3, 4, 5, 6, 7]


def test_referee_names_the_line() -> None:
    lines = [
        json.dumps({"type": "match", "v": 1, "game": "aces", "players": ["A", "B"]}),
        json.dumps({"type": "stop", "player": "A"}),
    ]
    with pytest.raises(RefereeError, match="line 2"):
        list(referee(lines))
