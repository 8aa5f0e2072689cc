"""Indian dice: one row per rule case (a short stream and the last decision it gives), then a whole game."""

from __future__ import annotations

import json
from typing import Any

import pytest

from adjudication.dice import indian_dice as indian
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


def one_throw_round(*hands: tuple[str, list[int]]) -> list[JsonLine]:
    """A round where the first player stands on the first throw, so everyone else has one throw."""
    (first, faces), *rest = hands
    return [roll(first, *faces), stop(first), *(roll(p, *f) for p, f in rest)]


FIVE_SIXES = [6, 6, 6, 6, 6]
FOUR_SIXES = [6, 6, 6, 6, 1]
PAIR = [1, 1, 2, 3, 4]
NOTHING = [1, 2, 3, 4, 6]


def play(lines: list[JsonLine], players=("A", "B"), **options: Any) -> tuple[indian.State, list[Decision]]:
    state = indian.start(Match(game="indian-dice", players=players, options=options))
    decisions: list[Decision] = []
    for line in lines:
        state, ds = indian.step(state, line)
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
A_WINS_2 = one_throw_round(("A", FOUR_SIXES), ("B", PAIR))
A_WINS_3 = one_throw_round(("A", FOUR_SIXES), ("B", PAIR), ("C", NOTHING))
B_WINS_3 = one_throw_round(("A", PAIR), ("B", FOUR_SIXES), ("C", NOTHING))
TWO_THROWS_A = [roll("A", 1, 2, 3, 4, 6), roll("A", 1, 2, 3, 6, 6, thrown=("d4",)), stop("A")]

CASES = [
    # id, lines, players, options, expected fields of the last decision
    (
        "the first player stands after one throw: the others have one throw",
        [roll("A", 6, 6, 6, 1, 2), stop("A")],
        ABC,
        {},
        {"foul": None, "points": {}, "next": "B", "note": "the others may make at most 1 throw"},
    ),
    (
        "a later player's turn ends by itself at the first player's number of throws",
        [roll("A", 6, 6, 6, 1, 2), stop("A"), roll("B", 1, 1, 2, 3, 4)],
        ABC,
        {},
        {"player": "B", "next": "C", "note": "pair 1 after 1 throw"},
    ),
    (
        "two throws for the first player, two for the others",
        [*TWO_THROWS_A, roll("B", 1, 1, 2, 3, 4), roll("B", 1, 1, 1, 3, 4, thrown=("d3",))],
        ABC,
        {},
        {"player": "B", "next": "C", "note": "three_of_a_kind 1 after 2 throws"},
    ),
    (
        "a later player may stand before the limit",
        [*TWO_THROWS_A, roll("B", 1, 1, 1, 1, 4), stop("B")],
        ABC,
        {},
        {"player": "B", "next": "C", "note": "after 1 throw"},
    ),
    (
        "no more throws than the first player made",
        [
            *TWO_THROWS_A,
            roll("B", 1, 1, 2, 3, 4),
            roll("B", 1, 1, 1, 3, 4, thrown=("d3",)),
            roll("B", 1, 1, 1, 1, 4, thrown=("d4",)),
        ],
        ABC,
        {},
        {"foul": ("extra_throw", 0), "next": "C"},
    ),
    (
        "the first player has three throws",
        [
            roll("A", 1, 2, 3, 4, 6),
            roll("A", 1, 2, 3, 6, 6, thrown=("d4",)),
            roll("A", 6, 2, 3, 6, 6, thrown=("d1",)),
        ],
        ABC,
        {},
        {"player": "A", "next": "B", "note": "the others may make at most 3 throws"},
    ),
    (
        "any die may be thrown again (no left-alone rule)",
        [
            roll("A", 1, 2, 3, 4, 6),
            roll("A", 1, 2, 3, 6, 6, thrown=("d4",)),
            roll("A", 6, 2, 3, 6, 6, thrown=("d1",)),
        ],
        ABC,
        {},
        {"foul": None, "note": "three_of_a_kind 6"},
    ),
    (
        "the best hand takes the round",
        A_WINS_2,
        ("A", "B"),
        {},
        {
            "points": {"A": 1},
            "score": {"A": 1, "B": 0},
            "next": "A",
            "over": False,
            "note": "round 1: A has the best hand",
        },
    ),
    (
        "straights do not count: a run loses to a pair",
        one_throw_round(("A", [2, 3, 4, 5, 6]), ("B", PAIR)),
        ("A", "B"),
        {},
        {"points": {"B": 1}},
    ),
    (
        "a tie for the best hand is played off, three throws again for its first player",
        [
            *one_throw_round(("A", [5, 5, 1, 2, 3]), ("B", [5, 5, 6, 4, 3]), ("C", NOTHING)),
            roll("A", *PAIR),
            roll("A", *PAIR, thrown=("d5",)),
            roll("A", *PAIR, thrown=("d5",)),
        ],
        ABC,
        {},
        {"player": "A", "next": "B", "points": {}, "note": "the others may make at most 3 throws"},
    ),
    (
        "the play-off settles the round",
        [
            *one_throw_round(("A", [5, 5, 1, 2, 3]), ("B", [5, 5, 6, 4, 3]), ("C", NOTHING)),
            *one_throw_round(("A", PAIR), ("B", FOUR_SIXES)),
        ],
        ABC,
        {},
        {"points": {"B": 1}, "score": {"A": 0, "B": 1, "C": 0}, "next": "A", "note": "round 1: B"},
    ),
    (
        "two rounds won win the game",
        [*A_WINS_2, *A_WINS_2],
        ("A", "B"),
        {},
        {"points": {"A": 1}, "score": {"A": 2, "B": 0}, "over": True, "winner": "A", "next": None},
    ),
    (
        "round three is for the winners of rounds one and two",
        [*A_WINS_3, *B_WINS_3],
        ABC,
        {},
        {"next": "A", "over": False, "note": "round 3 is played by A and B, the strongest"},
    ),
    (
        "round three decides the game",
        [*A_WINS_3, *B_WINS_3, *one_throw_round(("A", PAIR), ("B", FIVE_SIXES))],
        ABC,
        {},
        {"points": {"B": 1}, "score": {"A": 1, "B": 2, "C": 0}, "over": True, "winner": "B"},
    ),
    (
        "a player not in round three throws out of turn",
        [*A_WINS_3, *B_WINS_3, roll("A", *PAIR), stop("A"), roll("C", *FIVE_SIXES)],
        ABC,
        {},
        {"foul": ("out_of_turn", 0), "next": "B"},
    ),
    (
        "weakest: the worst hand loses the round",
        A_WINS_3,
        ABC,
        {"final": "weakest"},
        {"points": {"C": -1}, "score": {"A": 0, "B": 0, "C": -1}, "note": "round 1: C has the worst hand"},
    ),
    (
        "weakest: two rounds lost lose the game; of three nobody is named winner",
        [*A_WINS_3, *B_WINS_3],
        ABC,
        {"final": "weakest"},
        {"over": True, "winner": None, "note": "C loses two rounds and the game"},
    ),
    (
        "weakest, two players: the other player wins",
        [*A_WINS_2, *A_WINS_2],
        ("A", "B"),
        {"final": "weakest"},
        {"over": True, "winner": "A", "score": {"A": 0, "B": -2}},
    ),
    (
        "weakest: round three is for the losers of rounds one and two",
        [*A_WINS_3, *one_throw_round(("A", NOTHING), ("B", FOUR_SIXES), ("C", PAIR))],
        ABC,
        {"final": "weakest"},
        {"next": "A", "note": "round 3 is played by A and C, the weakest"},
    ),
    (
        "a roll out of turn is void",
        [roll("B", *FIVE_SIXES)],
        ("A", "B"),
        {},
        {"foul": ("out_of_turn", 0), "next": "A"},
    ),
    (
        "a first throw of four dice is void",
        [Roll(t=0.0, player="A", dice=tuple(Die(i, 6) for i in IDS[:4]), thrown=IDS[:4])],
        ("A", "B"),
        {},
        {"foul": ("wrong_dice", 0), "next": "A"},
    ),
    (
        "a first throw must throw all five",
        [roll("A", *FIVE_SIXES, thrown=("d1",))],
        ("A", "B"),
        {},
        {"foul": ("die_not_thrown", 0)},
    ),
    (
        "a kept die turned by hand is a void throw",
        [roll("A", *PAIR), roll("A", 6, 6, 2, 3, 4, thrown=("d1",))],
        ("A", "B"),
        {},
        {"foul": ("kept_die_turned", 0), "next": "A"},
    ),
    (
        "first",
        [roll("B", *PAIR), stop("B")],
        ("A", "B"),
        {"first": "B"},
        {"player": "B", "next": "A"},
    ),
]


@pytest.mark.parametrize(
    ("lines", "players", "options", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_rule_case(lines: list[JsonLine], players: tuple[str, ...], options: dict, expected: dict) -> None:
    _, decisions = play(lines, players, **options)
    check(decisions[-1], expected)


REJECTED = [
    ("stop before throwing", [stop("A")], "after throwing"),
    ("stop by the player not on turn", [roll("A", *PAIR), stop("B")], "cannot be used now"),
    ("choose is not an input", [roll("A", *PAIR), Choose(player="A", category="pair")], "cannot be used now"),
    ("nothing after the end", [*A_WINS_2, *A_WINS_2, roll("A", *PAIR)], "game is over"),
]


@pytest.mark.parametrize(("lines", "message"), [c[1:] for c in REJECTED], ids=[c[0] for c in REJECTED])
def test_rejected(lines: list[JsonLine], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        play(lines)


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (("A",), {}, "players"),
        (("A", "B"), {"final": "middle"}, "final"),
        (("A", "B"), {"first": "Z"}, "first"),
        (("A", "B"), {"rounds": 5}, "no option"),
    ],
)
def test_bad_options(players: tuple[str, ...], options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        indian.start(Match(game="indian-dice", players=players, options=options))


def test_whole_game() -> None:
    t = 0.0

    def throw(player: str, faces: list[int], thrown: tuple[str, ...] = IDS) -> str:
        nonlocal t
        t += 1.0
        dice = [{"id": i, "value": v} for i, v in zip(IDS, faces, strict=True)]
        return json.dumps({"type": "roll", "t": t, "player": player, "dice": dice, "thrown": list(thrown)})

    def stand(player: str) -> str:
        return json.dumps({"type": "stop", "player": player})

    lines = [
        json.dumps({"type": "match", "v": 1, "game": "indian-dice", "players": ["A", "B", "C"]}),
        # round 1: A takes two throws, so B and C have two; B and C tie on three fives and play off
        throw("A", [2, 2, 1, 3, 4]), throw("A", [2, 2, 2, 3, 4], ("d3",)), stand("A"),
        throw("B", [5, 5, 5, 1, 3]), stand("B"),
        throw("C", [5, 1, 2, 3, 4]), throw("C", [5, 5, 5, 3, 4], ("d2", "d3")),
        throw("B", [4, 4, 1, 2, 3]), stand("B"), throw("C", [1, 2, 3, 4, 6]),  # play-off: B
        # round 2: A stands on the first throw and wins it
        throw("A", [3, 3, 3, 3, 1]), stand("A"), throw("B", [6, 6, 1, 1, 2]), throw("C", [2, 2, 2, 1, 1]),
        # round 3, B against A: three throws for B, the first in turn order from A is A
        throw("A", [1, 1, 2, 3, 5]), throw("A", [1, 1, 1, 3, 5], ("d3",)),
        throw("A", [1, 1, 1, 1, 5], ("d4",)),
        throw("B", [6, 6, 6, 2, 3]), stand("B"),
    ]  # fmt: skip
    decisions = [d for r in referee(lines) for d in r.decisions]
    assert [d.player for d in decisions] == ["A", "B", "C", "B", "C", "A", "B", "C", "A", "B"]
    assert [dict(d.points) for d in decisions if d.points] == [{"B": 1}, {"A": 1}, {"A": 1}]
    last = decisions[-1]
    assert dict(last.score) == {"A": 2, "B": 1, "C": 0}
    assert (last.over, last.winner, last.next) == (True, "A", None)
