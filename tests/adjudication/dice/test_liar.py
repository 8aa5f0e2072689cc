"""Liar: claims, calls and their payments, rising claims, elimination, void throws; whole games."""

from __future__ import annotations

import json

import pytest

from adjudication.dice import liar
from adjudication.engine import RuleError
from adjudication.referee import RefereeError, referee
from arbiter.contract import Challenge, Claim, Decision, Die, JsonLine, Match, Roll, Stop


def roll(player: str, *faces: int, thrown: tuple[str, ...] | None = None) -> Roll:
    dice = tuple(Die(f"d{i}", v) for i, v in enumerate(faces, 1))
    return Roll(t=0.0, player=player, dice=dice, thrown=thrown or tuple(d.id for d in dice))


def claim(player: str, *faces: int) -> Claim:
    return Claim(player=player, hand=faces)


def call(player: str) -> Challenge:
    return Challenge(player=player)


def play(lines: list[JsonLine], players=("A", "B", "C"), **options) -> tuple[liar.State, list[Decision]]:
    state = liar.start(Match(game="liar", players=players, options=options))
    decisions: list[Decision] = []
    for line in lines:
        state, ds = liar.step(state, line)
        decisions.extend(ds)
    return state, decisions


FULL_33322 = [roll("A", 3, 3, 3, 2, 2), claim("A", 3, 3, 3, 2, 2)]  # A throws and claims the truth

CASES = [
    # id, lines, options, expected fields of the last decision, pot after
    (
        "the opening throw awaits a claim",
        [roll("A", 1, 2, 3, 4, 6)],
        {},
        {"points": {}, "next": "A", "awaiting": ("claim",)},
        0,
    ),
    (
        "a true claim called: the caller pays the centre",
        [*FULL_33322, call("B")],
        {},
        {"player": "B", "points": {"B": -1}, "score": {"A": 3, "B": 2, "C": 3}, "next": "B", "awaiting": ()},
        1,
    ),
    (
        "a claim holds on better dice",
        [roll("A", 3, 3, 3, 3, 2), claim("A", 3, 3, 3, 2, 2), call("B")],
        {},
        {"points": {"B": -1}, "next": "B"},
        1,
    ),
    (
        "a lie called: the claimant pays the centre and the caller",
        [roll("A", 3, 3, 1, 2, 2), claim("A", 3, 3, 3, 2, 2), call("B")],
        {},
        {"points": {"A": -2, "B": 1}, "score": {"A": 1, "B": 4, "C": 3}, "next": "B"},
        1,
    ),
    (
        "odd dice do not count",
        [roll("A", 4, 4, 4, 1, 2), claim("A", 4, 4, 4, 6, 5), call("B")],
        {},
        {"points": {"B": -1}},
        1,
    ),
    (
        "a straight counts, as in General",
        [roll("A", 2, 3, 4, 5, 6), claim("A", 1, 2, 3, 4, 5), call("B")],
        {},
        {"points": {"B": -1}},
        1,
    ),
    (
        "a straight beats three of a kind",
        [roll("A", 6, 6, 6, 1, 2), claim("A", 1, 2, 3, 4, 5), call("B")],
        {},
        {"points": {"A": -2, "B": 1}},
        1,
    ),
    (
        "nothing against nothing goes by the sum",
        [roll("A", 1, 2, 4, 5, 6), claim("A", 1, 3, 4, 5, 6), call("B")],
        {},
        {"points": {"A": -2, "B": 1}},
        1,
    ),
    (
        "acceptance is the neighbour's throw",
        [*FULL_33322, roll("B", 3, 3, 3, 5, 6, thrown=("d4", "d5"))],
        {},
        {"player": "B", "points": {}, "next": "B", "awaiting": ("claim",)},
        0,
    ),
    (
        "the accepted claimant's throw is judged",
        [*FULL_33322, roll("B", 3, 3, 3, 5, 5, thrown=("d4", "d5")), claim("B", 3, 3, 3, 5, 5), call("C")],
        {},
        {"player": "C", "points": {"C": -1}, "score": {"A": 3, "B": 3, "C": 2}, "next": "C"},
        1,
    ),
    (
        "a lie after acceptance",
        [*FULL_33322, roll("B", 3, 3, 3, 1, 6, thrown=("d4", "d5")), claim("B", 3, 3, 3, 3, 1), call("C")],
        {},
        {"points": {"B": -2, "C": 1}, "score": {"A": 3, "B": 1, "C": 4}, "next": "C"},
        1,
    ),
    (
        "the caller starts a fresh round",
        [*FULL_33322, call("B"), roll("B", 1, 1, 2, 3, 5), claim("B", 1, 1, 2, 3, 5), call("C")],
        {},
        {"points": {"C": -1}, "score": {"A": 3, "B": 2, "C": 2}, "next": "C"},
        2,
    ),
    (
        "a caught claimant with one stake pays the centre only",
        [roll("A", 1, 2, 3, 4, 6), claim("A", 6, 6, 6, 6, 6), call("B")],
        {"stakes": 1},
        {"points": {"A": -1}, "score": {"A": 0, "B": 1, "C": 1}, "next": "B", "over": False},
        1,
    ),
    (
        "an eliminated caller hands the round on",
        [*FULL_33322, call("B")],
        {"stakes": 1},
        {"points": {"B": -1}, "score": {"A": 1, "B": 0, "C": 1}, "next": "C"},
        1,
    ),
    (
        "the last with stakes wins and takes the centre",
        [*FULL_33322, call("B")],
        {"stakes": 1},
        {"points": {"B": -1, "A": 1}, "score": {"A": 2, "B": 0}, "next": None, "over": True, "winner": "A"},
        0,
    ),
    (
        "a throw by the wrong player is void",
        [roll("B", 1, 2, 3, 4, 5)],
        {},
        {"foul": ("out_of_turn", 0), "next": "A", "awaiting": ()},
        0,
    ),
    ("four dice are void", [roll("A", 1, 2, 3, 4)], {}, {"foul": ("wrong_dice", 0), "next": "A"}, 0),
    (
        "an opening throw must move all five",
        [roll("A", 1, 2, 3, 4, 5, thrown=("d1", "d2"))],
        {},
        {"foul": ("die_not_thrown", 0), "next": "A"},
        0,
    ),
    (
        "a second throw before the claim is void",
        [roll("A", 1, 2, 3, 4, 6), roll("A", 6, 6, 6, 6, 6)],
        {},
        {"foul": ("extra_throw", 0), "next": "A", "awaiting": ("claim",)},
        0,
    ),
    (
        "the claim is judged on the legal throw",
        [roll("A", 1, 2, 3, 4, 6), roll("A", 6, 6, 6, 6, 6), claim("A", 6, 6, 6, 6, 6), call("B")],
        {},
        {"points": {"A": -2, "B": 1}},
        1,
    ),
    (
        "only the neighbour may answer with a throw",
        [*FULL_33322, roll("C", 1, 2, 3, 4, 5)],
        {},
        {"foul": ("out_of_turn", 0), "next": "B"},
        0,
    ),
    (
        "an accepting throw of four dice is void",
        [*FULL_33322, roll("B", 1, 2, 3, 4)],
        {},
        {"foul": ("wrong_dice", 0), "next": "B"},
        0,
    ),
    (
        "first option",
        [roll("C", 5, 5, 1, 2, 3), claim("C", 5, 5, 1, 2, 3), call("A")],
        {"first": "C"},
        {"player": "A", "points": {"A": -1}, "next": "A"},
        1,
    ),
]


@pytest.mark.parametrize(
    ("lines", "options", "want", "pot"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_rule_cases(lines, options, want, pot):
    players = ("A", "B") if want.get("winner") else ("A", "B", "C")
    state, decisions = play(lines, players, **options)
    last = decisions[-1]
    foul = want.pop("foul", None)
    assert (last.foul.reason, last.foul.penalty) == foul if foul else last.foul is None
    for key, value in want.items():
        assert getattr(last, key) == value, key
    assert state.pot == pot


def test_claims_must_rise():
    state, _ = play([*FULL_33322, roll("B", 3, 3, 3, 2, 2, thrown=("d1",))])
    for low in [(3, 3, 3, 2, 2), (3, 3, 3, 1, 1), (6, 6, 6, 5, 4), (1, 2, 3, 4, 5)]:
        with pytest.raises(
            RuleError, match="each claim must beat the one accepted: A claimed full_house 3-2"
        ):
            liar.step(state, claim("B", *low))
    for high in [(3, 3, 3, 4, 4), (4, 4, 4, 2, 2), (2, 2, 2, 2, 1), (1, 1, 1, 1, 1)]:
        after, ds = liar.step(state, claim("B", *high))
        assert ds == () and after.claim == high and after.turn == "C"


ERRORS = [
    ("a claim before the throw", [claim("A", 1, 1, 1, 1, 1)], "accepted now: a roll of all five dice by A"),
    ("a challenge before any claim", [roll("A", 1, 2, 3, 4, 6), call("B")], "accepted now: a claim by A"),
    (
        "a challenge by a player not left of the claimant",
        [*FULL_33322, call("C")],
        "accepted now: a challenge or a roll by B, left of the claimant A",
    ),
    ("a challenge by the claimant", [*FULL_33322, call("A")], "a 'challenge' line by A cannot be used now"),
    (
        "the neighbour claims without throwing",
        [*FULL_33322, claim("B", 6, 6, 6, 6, 6)],
        "a challenge or a roll by B",
    ),
    ("a claim by another player", [roll("A", 1, 2, 3, 4, 6), claim("B", 1, 2, 3, 4, 6)], "a claim by A"),
    (
        "a number claim",
        [roll("A", 1, 2, 3, 4, 6), Claim(player="A", number=3)],
        "names the five faces claimed",
    ),
    ("a stop", [Stop(player="A")], "a 'stop' line by A cannot be used now"),
]


@pytest.mark.parametrize(("lines", "message"), [c[1:] for c in ERRORS], ids=[c[0] for c in ERRORS])
def test_unusable_lines(lines, message):
    with pytest.raises(RuleError, match=message):
        play(lines)


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (("A",), {}, "liar is played by 2 or more players"),
        (("A", "B"), {"stakes": 0}, "stakes must be an integer >= 1"),
        (("A", "B"), {"first": "C"}, "first must be one of the players"),
        (("A", "B"), {"straights": False}, "liar has no option 'straights'"),
    ],
)
def test_bad_options(players, options, message):
    with pytest.raises(ValueError, match=message):
        liar.start(Match(game="liar", players=players, options=options))


def test_claim_line_checks_the_hand():
    with pytest.raises(ValueError, match=r"claim\.hand must be a list of 5 faces, each 1\.\.6"):
        Claim(player="A", hand=(3, 3, 3))
    with pytest.raises(ValueError, match=r"claim\.hand must be a list of 5 faces"):
        Claim(player="A", hand=(3, 3, 3, 2, 7))


def test_whole_game_through_the_referee():
    """Three players with two stakes each, played out to the last; stakes are conserved with the centre."""
    t = iter(range(1000))

    def r(player: str, *faces: int, thrown: str = "12345") -> str:
        dice = [{"id": f"d{i}", "value": v} for i, v in enumerate(faces, 1)]
        return json.dumps({"type": "roll", "t": next(t), "player": player, "dice": dice,
                           "thrown": [f"d{i}" for i in thrown]})  # fmt: skip

    def c(player: str, *faces: int) -> str:
        return json.dumps({"type": "claim", "player": player, "hand": list(faces)})

    def x(player: str) -> str:
        return json.dumps({"type": "challenge", "player": player})

    header = {"type": "match", "v": 1, "game": "liar", "players": ["A", "B", "C"], "options": {"stakes": 2}}
    stream = [
        json.dumps(header),
        r("A", 2, 2, 5, 1, 6), c("A", 2, 2, 5, 5, 6),  # A lies: two pairs
        r("B", 2, 2, 5, 5, 5, thrown="45"), c("B", 2, 2, 5, 5, 5),  # B accepts, keeps 2 2 5: a full house
        x("C"),  # true: C pays the centre (C 1, pot 1); C starts
        r("C", 6, 6, 1, 2, 3), c("C", 6, 6, 6, 2, 3),  # C lies: three sixes
        x("A"),  # a lie: C's last stake goes to the centre (C 0, out; pot 2); A starts
        r("A", 4, 4, 4, 4, 1), c("A", 4, 4, 4, 4, 1),  # true: four fours
        r("B", 4, 4, 4, 4, 4, thrown="5"), c("B", 4, 4, 4, 4, 4),  # five fours; C is out: A answers
        x("A"),  # true: A pays the centre (A 1, pot 3); A starts
        r("A", 1, 1, 2, 3, 4), c("A", 1, 1, 2, 3, 4),  # true pair of ones
        x("B"),  # true: B pays (B 1, pot 4)
        r("B", 5, 6, 1, 2, 3), c("B", 6, 6, 1, 2, 3),  # B lies
        x("A"),  # B pays the centre (B 0, out): A wins and takes 5
    ]  # fmt: skip
    out = list(referee(stream))
    decisions = [d for s in out for d in s.decisions]
    assert all(d.foul is None for d in decisions)
    settled = [d for d in decisions if not d.awaiting]
    assert [d.points for d in settled] == [
        {"C": -1},
        {"C": -1},
        {"A": -1},
        {"B": -1},
        {"B": -1, "A": 5},
    ]
    assert [d.next for d in settled] == ["C", "A", "A", "B", None]
    final = settled[-1]
    assert (final.over, final.winner, final.score) == (True, "A", {"A": 6, "B": 0, "C": 0})
    assert out[-1].state.pot == 0
    with pytest.raises(RefereeError, match=f"line {len(stream) + 1}: liar: the game is over"):
        list(referee([*stream, r("A", 1, 1, 1, 1, 1)]))
