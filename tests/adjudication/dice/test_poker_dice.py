"""Poker dice: one row per rule case (a short stream and the last decision it gives), then a whole game."""

from __future__ import annotations

import json
from typing import Any

import pytest

from adjudication.dice import poker_dice as poker
from adjudication.engine import RuleError
from adjudication.referee import referee
from arbiter.contract import Choose, Decision, Die, JsonLine, Match, Roll, Stop

IDS = ("d1", "d2", "d3", "d4", "d5")


def roll(player: str, *faces: int, thrown: tuple[str, ...] = IDS) -> Roll:
    """Five dice d1..d5 with these faces; ``thrown`` the ones this throw moved (default all)."""
    dice = tuple(Die(i, v) for i, v in zip(IDS, faces, strict=True))
    return Roll(t=0.0, player=player, dice=dice, thrown=thrown)


def stop(player: str) -> Stop:
    return Stop(player=player)


def hand(player: str, *faces: int) -> list[JsonLine]:
    """A turn of one throw, stood on."""
    return [roll(player, *faces), stop(player)]


def play(lines: list[JsonLine], players=("A", "B"), **options: Any) -> tuple[poker.State, list[Decision]]:
    state = poker.start(Match(game="poker-dice", players=players, options=options))
    decisions: list[Decision] = []
    for line in lines:
        state, ds = poker.step(state, line)
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


THREE_THROWS = [
    roll("A", 1, 2, 3, 4, 5),
    roll("A", 1, 2, 3, 6, 6, thrown=("d4", "d5")),
    roll("A", 1, 2, 3, 6, 1, thrown=("d5",)),
]
CASES = [
    # id, lines, options, expected fields of the last decision
    (
        "stop after one throw stands on the hand",
        hand("A", 6, 6, 6, 1, 2),
        {},
        {
            "foul": None,
            "player": "A",
            "points": {},
            "next": "B",
            "over": False,
            "note": "three_of_a_kind 6 after 1 throw",
        },
    ),
    (
        "the third throw ends the turn by itself",
        THREE_THROWS,
        {},
        {"foul": None, "player": "A", "next": "B", "note": "after 3 throws"},
    ),
    (
        "the second throw may move any dice, the third only those the second moved",
        [
            roll("A", 1, 2, 3, 4, 5),
            roll("A", 1, 2, 3, 6, 6, thrown=("d4", "d5")),
            roll("A", 6, 2, 3, 6, 6, thrown=("d1",)),
        ],
        {},
        {"foul": ("kept_die_thrown", 0), "next": "A", "note": "d1 moved"},
    ),
    (
        "a die left alone at the second throw stays out even with others",
        [
            roll("A", 1, 2, 3, 4, 5),
            roll("A", 1, 2, 3, 6, 6, thrown=("d4", "d5")),
            roll("A", 1, 6, 3, 6, 6, thrown=("d2", "d5")),
        ],
        {},
        {"foul": ("kept_die_thrown", 0)},
    ),
    (
        "after a refused third throw the player may still throw the allowed dice",
        [
            roll("A", 1, 2, 3, 4, 5),
            roll("A", 1, 2, 3, 6, 6, thrown=("d4", "d5")),
            roll("A", 6, 2, 3, 6, 6, thrown=("d1",)),
            roll("A", 1, 2, 3, 6, 6, thrown=("d4",)),
        ],
        {},
        {"foul": None, "next": "B", "note": "pair 6 after 3 throws"},
    ),
    (
        "the best hand wins",
        [*hand("A", 2, 2, 2, 1, 1), *hand("B", 6, 6, 5, 5, 4)],
        {},
        {
            "player": "B",
            "points": {"A": 1},
            "score": {"A": 1, "B": 0},
            "over": True,
            "winner": "A",
            "next": None,
        },
    ),
    (
        "three of a kind beats two pairs",
        [*hand("A", 6, 6, 5, 5, 4), *hand("B", 2, 2, 2, 1, 4)],
        {},
        {"winner": "B", "points": {"B": 1}},
    ),
    (
        "equal hands: the higher combination wins (four queens over four tens)",
        [*hand("A", 4, 4, 4, 4, 6), *hand("B", 5, 5, 5, 5, 1)],
        {},
        {"winner": "B"},
    ),
    (
        "no combination: the higher sum wins",
        [*hand("A", 1, 2, 3, 4, 6), *hand("B", 1, 3, 4, 5, 6)],
        {},
        {"winner": "B"},
    ),
    (
        "without straights a run is nothing and loses to a pair",
        [*hand("A", 2, 3, 4, 5, 6), *hand("B", 1, 1, 2, 3, 4)],
        {},
        {"winner": "B"},
    ),
    (
        "with straights a run beats three of a kind",
        [*hand("A", 2, 3, 4, 5, 6), *hand("B", 6, 6, 6, 3, 4)],
        {"straights": True},
        {"winner": "A"},
    ),
    (
        "equal combinations on points play again among themselves",
        [*hand("A", 5, 5, 1, 2, 3), *hand("B", 5, 5, 6, 4, 3)],
        {},
        {"points": {}, "score": {"A": 0, "B": 0}, "over": False, "next": "A", "note": "tie: A, B play again"},
    ),
    (
        "the play-off decides",
        [
            *hand("A", 5, 5, 1, 2, 3),
            *hand("B", 5, 5, 6, 4, 3),
            *hand("A", 1, 1, 2, 3, 4),
            *hand("B", 6, 6, 6, 1, 2),
        ],
        {},
        {"over": True, "winner": "B", "points": {"B": 1}},
    ),
    (
        "only the tied players play off",
        [*hand("A", 1, 1, 2, 3, 4), *hand("B", 6, 6, 2, 3, 4), *hand("C", 6, 6, 1, 3, 4)],
        {"players": ("A", "B", "C")},
        {"next": "B", "over": False, "note": "tie: B, C"},
    ),
    (
        "first",
        hand("B", 6, 6, 6, 1, 2),
        {"first": "B"},
        {"player": "B", "next": "A"},
    ),
    (
        "a roll out of turn is void",
        [roll("B", 6, 6, 6, 6, 6)],
        {},
        {"foul": ("out_of_turn", 0), "next": "A", "points": {}},
    ),
    (
        "a fourth throw is void",
        [*THREE_THROWS, roll("A", 1, 2, 3, 6, 6, thrown=("d5",))],
        {},
        {"foul": ("extra_throw", 0), "next": "B"},
    ),
    (
        "a first throw of four dice is void",
        [Roll(t=0.0, player="A", dice=tuple(Die(i, 6) for i in IDS[:4]), thrown=IDS[:4])],
        {},
        {"foul": ("wrong_dice", 0), "next": "A"},
    ),
    (
        "a first throw must throw all five",
        [roll("A", 6, 6, 6, 6, 6, thrown=("d1", "d2"))],
        {},
        {"foul": ("die_not_thrown", 0)},
    ),
    (
        "a kept die turned by hand is a void throw",
        [roll("A", 1, 2, 3, 4, 5), roll("A", 6, 6, 3, 4, 5, thrown=("d1",))],
        {},
        {"foul": ("kept_die_turned", 0), "next": "A"},
    ),
    (
        "a void throw leaves the hand as it was",
        [roll("A", 1, 1, 3, 4, 5), roll("B", 6, 6, 6, 6, 6), stop("A")],
        {},
        {"foul": None, "note": "pair 1 after 1 throw"},
    ),
]


@pytest.mark.parametrize(("lines", "options", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rule_case(lines: list[JsonLine], options: dict, expected: dict) -> None:
    options = dict(options)
    players = options.pop("players", ("A", "B"))
    _, decisions = play(lines, players, **options)
    check(decisions[-1], expected)


REJECTED = [
    ("stop before throwing", [stop("A")], "after throwing"),
    ("stop by the player not on turn", [roll("A", 1, 1, 1, 1, 1), stop("B")], "cannot be used now"),
    (
        "choose is not an input",
        [roll("A", 1, 1, 1, 1, 1), Choose(player="A", category="pair")],
        "cannot be used now",
    ),
    (
        "nothing after the end",
        [*hand("A", 1, 1, 1, 1, 1), *hand("B", 2, 2, 2, 2, 2), stop("A")],
        "game is over",
    ),
]


@pytest.mark.parametrize(("lines", "message"), [c[1:] for c in REJECTED], ids=[c[0] for c in REJECTED])
def test_rejected(lines: list[JsonLine], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        play(lines)


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (("A",), {}, "players"),
        (("A", "B"), {"straights": "yes"}, "straights"),
        (("A", "B"), {"first": "Z"}, "first"),
        (("A", "B"), {"kickers": True}, "no option"),
    ],
)
def test_bad_options(players: tuple[str, ...], options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        poker.start(Match(game="poker-dice", players=players, options=options))


def test_whole_game() -> None:
    t = 0.0

    def line(obj: dict) -> str:
        nonlocal t
        t += 1.0
        return json.dumps({**obj, "t": t} if obj["type"] == "roll" else obj)

    def throw(player: str, faces: list[int], thrown: list[str]) -> str:
        dice = [{"id": i, "value": v} for i, v in zip(IDS, faces, strict=True)]
        return line({"type": "roll", "player": player, "dice": dice, "thrown": thrown})

    def stand(player: str) -> str:
        return line({"type": "stop", "player": player})

    lines = [
        json.dumps(
            {
                "type": "match",
                "v": 1,
                "game": "poker-dice",
                "players": ["A", "B", "C"],
                "options": {"first": "B"},
            }
        ),
        throw("B", [4, 4, 1, 2, 6], list(IDS)),
        throw("B", [4, 4, 4, 3, 6], ["d3", "d4", "d5"]),
        throw("B", [4, 4, 4, 3, 3], ["d5"]),  # full house 4-3, third throw ends the turn
        throw("C", [6, 6, 6, 2, 1], list(IDS)),
        stand("C"),  # three sixes
        throw("A", [5, 5, 1, 1, 2], list(IDS)),
        throw("A", [5, 5, 5, 5, 2], ["d3", "d4", "d5"]),
        throw("A", [5, 5, 5, 5, 3], ["d5"]),  # d5 moved at the second throw too: four fives, the best hand
    ]
    decisions = [d for r in referee(lines) for d in r.decisions]
    assert [d.player for d in decisions] == ["B", "C", "A"]
    assert [d.next for d in decisions] == ["C", "A", None]
    last = decisions[-1]
    assert (last.over, last.winner, dict(last.points), dict(last.score)) == (
        True,
        "A",
        {"A": 1},
        {"A": 1, "B": 0, "C": 0},
    )
    assert "four_of_a_kind 5" in " ".join(last.notes)
