"""Bank: bets on a face paid by matches, case by case, then a whole match."""

from __future__ import annotations

import json

import pytest

from adjudication.dice import bank
from adjudication.engine import RuleError
from adjudication.referee import RefereeError, referee
from arbiter.contract import Bet, Decision, Die, JsonLine, Match, Roll, Stop


def roll(player: str, *faces: int, thrown: tuple[str, ...] | None = None) -> Roll:
    dice = tuple(Die(f"d{i}", v) for i, v in enumerate(faces, 1))
    return Roll(t=0.0, player=player, dice=dice, thrown=thrown or tuple(d.id for d in dice))


def bet(player: str, face: int, stake: int = 1) -> Bet:
    return Bet(player=player, face=face, stake=stake)


def play(lines: list[JsonLine], players=("A", "B"), **options) -> tuple[bank.State, list[Decision]]:
    state = bank.start(Match(game="bank", players=players, options=options))
    decisions: list[Decision] = []
    for line in lines:
        state, ds = bank.step(state, line)
        decisions.extend(ds)
    return state, decisions


CASES = [
    # id, lines, players, options, expected fields of the last decision
    (
        "no match loses the stake",
        [bet("B", 4), roll("A", 1, 2, 3)],
        ("A", "B"),
        {},
        {"points": {"B": -1, "A": 1}, "score": {"A": 1, "B": -1}, "next": "A", "awaiting": ("bet",)},
    ),
    (
        "one match pays the stake",
        [bet("B", 4, 2), roll("A", 4, 2, 3)],
        ("A", "B"),
        {},
        {"points": {"B": 2, "A": -2}, "score": {"A": -2, "B": 2}},
    ),
    (
        "two matches pay double",
        [bet("B", 5, 3), roll("A", 5, 2, 5)],
        ("A", "B"),
        {},
        {"points": {"B": 6, "A": -6}, "score": {"A": -6, "B": 6}},
    ),
    (
        "three matches pay triple",
        [bet("B", 6), roll("A", 6, 6, 6)],
        ("A", "B"),
        {},
        {"points": {"B": 3, "A": -3}},
    ),
    (
        "several punters settle on one throw",
        [bet("B", 2), bet("C", 3, 2), roll("A", 2, 2, 5)],
        ("A", "B", "C"),
        {},
        {"points": {"B": 2, "C": -2}, "score": {"A": 0, "B": 2, "C": -2}},
    ),
    (
        "balances run over throws",
        [bet("B", 1), roll("A", 1, 2, 3), bet("B", 1), roll("A", 4, 5, 6)],
        ("A", "B"),
        {},
        {"points": {"B": -1, "A": 1}, "score": {"A": 0, "B": 0}},
    ),
    (
        "banker option",
        [bet("A", 3), roll("B", 3, 1, 1)],
        ("A", "B"),
        {"banker": "B"},
        {"points": {"A": 1, "B": -1}, "next": "B"},
    ),
    (
        "rounds end the match",
        [bet("B", 3), roll("A", 3, 1, 1)],
        ("A", "B"),
        {"rounds": 1},
        {"points": {"B": 1, "A": -1}, "over": True, "winner": "B", "next": None, "awaiting": ()},
    ),
    (
        "a tied match has no winner",
        [bet("B", 3), bet("C", 3), roll("A", 3, 1, 1)],
        ("A", "B", "C"),
        {"rounds": 1},
        {"points": {"B": 1, "C": 1, "A": -2}, "over": True, "winner": None},
    ),
    (
        "a punter's throw is void",
        [bet("B", 3), roll("B", 3, 3, 3)],
        ("A", "B"),
        {},
        {"foul": ("out_of_turn", 0), "points": {}, "score": {"A": 0, "B": 0}, "next": "A"},
    ),
    (
        "two dice are void",
        [bet("B", 3), roll("A", 3, 3)],
        ("A", "B"),
        {},
        {"foul": ("wrong_dice", 0), "points": {}, "next": "A"},
    ),
    (
        "a die not thrown is void",
        [bet("B", 3), roll("A", 3, 3, 3, thrown=("d1", "d2"))],
        ("A", "B"),
        {},
        {"foul": ("die_not_thrown", 0), "points": {}, "next": "A"},
    ),
    (
        "bets stand after a void throw",
        [bet("B", 3), roll("A", 3, 3), roll("A", 3, 2, 2)],
        ("A", "B"),
        {},
        {"points": {"B": 1, "A": -1}, "score": {"A": -1, "B": 1}},
    ),
]


@pytest.mark.parametrize(
    ("lines", "players", "options", "want"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_rule_cases(lines, players, options, want):
    _, decisions = play(lines, players, **options)
    last = decisions[-1]
    foul = want.pop("foul", None)
    assert (last.foul.reason, last.foul.penalty) == foul if foul else last.foul is None
    for key, value in want.items():
        assert getattr(last, key) == value, key


ERRORS = [
    ("a throw before the bet", [roll("A", 1, 2, 3)], "waiting for B"),
    ("a throw before every bet", [bet("B", 2), roll("A", 1, 2, 3)], "waiting for C"),
    ("a second bet", [bet("B", 2), bet("B", 3)], "B has already bet 1 on 2"),
    ("a bet by the banker", [bet("A", 2)], "A is the banker; only punters \\(B, C\\) bet"),
    ("a stop", [Stop(player="B")], "accepted now: bets by B, C"),
    ("a line after the match", [bet("B", 1), bet("C", 1), roll("A", 1, 1, 1), bet("B", 1)], "game is over"),
]


@pytest.mark.parametrize(("lines", "message"), [c[1:] for c in ERRORS], ids=[c[0] for c in ERRORS])
def test_unusable_lines(lines, message):
    with pytest.raises(RuleError, match=message):
        play(lines, ("A", "B", "C"), rounds=1)


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (("A",), {}, "bank is played by 2 or more players"),
        (("A", "B"), {"banker": "Z"}, "banker must be one of the players"),
        (("A", "B"), {"rounds": 0}, "rounds must be an integer >= 1"),
        (("A", "B"), {"stake": 2}, "bank has no option 'stake'"),
    ],
)
def test_bad_options(players, options, message):
    with pytest.raises(ValueError, match=message):
        bank.start(Match(game="bank", players=players, options=options))


def test_bet_line_checks_its_fields():
    with pytest.raises(ValueError, match=r"bet\.face must be the face bet on, an integer 1\.\.6"):
        Bet(player="B", face=7)
    with pytest.raises(ValueError, match=r"bet\.stake must be the units staked"):
        Bet(player="B", face=2, stake=0)


def test_whole_match_through_the_referee():
    t = iter(range(100))

    def r(*faces: int) -> str:
        dice = [{"id": f"d{i}", "value": v} for i, v in enumerate(faces, 1)]
        return json.dumps(
            {"type": "roll", "t": next(t), "player": "Bank", "dice": dice, "thrown": [d["id"] for d in dice]}
        )

    def b(player: str, face: int, stake: int) -> str:
        return json.dumps({"type": "bet", "player": player, "face": face, "stake": stake})

    header = {
        "type": "match",
        "v": 1,
        "game": "bank",
        "players": ["Bank", "P", "Q"],
        "options": {"rounds": 3},
    }
    stream = [
        json.dumps(header),
        b("P", 6, 2),
        b("Q", 1, 1),
        r(6, 1, 1),  # P +2, Q +2
        b("Q", 3, 2),
        b("P", 2, 1),
        r(4, 5, 6),  # P -1, Q -2
        b("P", 5, 3),
        b("Q", 5, 1),
        r(5, 5, 5),  # P +9, Q +3
    ]
    decisions = [d for s in referee(stream) for d in s.decisions]
    assert [d.points for d in decisions] == [
        {"P": 2, "Q": 2, "Bank": -4},
        {"P": -1, "Q": -2, "Bank": 3},
        {"P": 9, "Q": 3, "Bank": -12},
    ]
    assert decisions[-1].score == {"Bank": -13, "P": 10, "Q": 3}
    assert (decisions[-1].over, decisions[-1].winner) == (True, "P")
    with pytest.raises(RefereeError, match="line 11: bank: the game is over"):
        list(referee([*stream, b("P", 1, 1)]))
