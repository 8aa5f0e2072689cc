"""Bluff: calls, answers, extra throws, stakes and elimination, void throws; whole games."""

from __future__ import annotations

import json

import pytest

from adjudication.dice import bluff
from adjudication.engine import RuleError
from adjudication.referee import RefereeError, referee
from arbiter.contract import Bet, Challenge, Claim, Decision, Die, JsonLine, Match, Roll, Stop


def roll(player: str, *faces: int, thrown: tuple[str, ...] | None = None) -> Roll:
    prefix = player.lower()  # each player has five dice of their own
    dice = tuple(Die(f"{prefix}{i}", v) for i, v in enumerate(faces, 1))
    return Roll(t=0.0, player=player, dice=dice, thrown=thrown or tuple(d.id for d in dice))


def claim(player: str, *faces: int) -> Claim:
    return Claim(player=player, hand=faces)


def call(player: str) -> Challenge:
    return Challenge(player=player)


def stop(player: str) -> Stop:
    return Stop(player=player)


def play(lines: list[JsonLine], players=("A", "B"), **options) -> tuple[bluff.State, list[Decision]]:
    state = bluff.start(Match(game="bluff", players=players, options=options))
    decisions: list[Decision] = []
    for line in lines:
        state, ds = bluff.step(state, line)
        decisions.extend(ds)
    return state, decisions


TRUE_FULL = [roll("A", 6, 6, 6, 2, 2), claim("A", 6, 6, 6, 2, 2)]  # A claims the truth
BLUFF_FULL = [roll("A", 6, 6, 1, 2, 3), claim("A", 6, 6, 6, 2, 2)]  # A bluffs

CASES = [
    # id, lines, options, expected fields of the last decision
    (
        "the leader's throw awaits a claim",
        [roll("A", 1, 2, 3, 4, 6)],
        {},
        {"points": {}, "next": "A", "awaiting": ("claim",)},
    ),
    (
        "a call on a true claim loses for the caller",
        [*TRUE_FULL, call("B")],
        {},
        {"player": "B", "points": {"B": -1, "A": 1}, "score": {"A": 4, "B": 2}, "next": "B", "awaiting": ()},
    ),
    (
        "a call on a bluff loses for the leader",
        [*BLUFF_FULL, call("B")],
        {},
        {"player": "B", "points": {"A": -1, "B": 1}, "score": {"A": 2, "B": 4}, "next": "B"},
    ),
    (
        "a claim holds on better dice",
        [roll("A", 6, 6, 6, 6, 2), claim("A", 6, 6, 6, 2, 2), call("B")],
        {},
        {"points": {"B": -1, "A": 1}},
    ),
    (
        "an answer that beats the claim wins",
        [*BLUFF_FULL, roll("B", 3, 3, 3, 3, 1)],
        {},
        {"player": "B", "points": {"A": -1, "B": 1}, "next": "B"},
    ),
    (
        "an answer is held to the claim, not to the leader's dice",
        [*BLUFF_FULL, roll("B", 5, 5, 5, 1, 1)],
        {},
        {"points": {"B": -1, "A": 1}},
    ),
    ("an equal answer loses", [*TRUE_FULL, roll("B", 6, 6, 6, 2, 2)], {}, {"points": {"B": -1, "A": 1}}),
    (
        "odd dice are not counted",
        [roll("A", 4, 4, 4, 1, 2), claim("A", 4, 4, 4, 1, 2), roll("B", 4, 4, 4, 6, 5)],
        {},
        {"points": {"B": -1, "A": 1}},
    ),
    (
        "a straight is nothing by default",
        [roll("A", 1, 1, 2, 3, 4), claim("A", 1, 1, 2, 3, 4), roll("B", 2, 3, 4, 5, 6)],
        {},
        {"points": {"B": -1, "A": 1}},
    ),
    (
        "straights option",
        [roll("A", 1, 1, 2, 3, 4), claim("A", 1, 1, 2, 3, 4), roll("B", 2, 3, 4, 5, 6)],
        {"straights": True},
        {"points": {"A": -1, "B": 1}},
    ),
    (
        "with throws left a failed answer waits",
        [*TRUE_FULL, roll("B", 1, 2, 3, 4, 6)],
        {"throws": 2},
        {"points": {}, "next": "B", "awaiting": ()},
    ),
    (
        "a second answer throw may beat the claim",
        [*TRUE_FULL, roll("B", 6, 6, 1, 2, 3), roll("B", 6, 6, 6, 6, 3, thrown=("b3", "b4"))],
        {"throws": 2},
        {"points": {"A": -1, "B": 1}},
    ),
    (
        "the last answer throw failing loses",
        [*TRUE_FULL, roll("B", 6, 6, 1, 2, 3), roll("B", 6, 6, 1, 1, 3, thrown=("b4",))],
        {"throws": 2},
        {"points": {"B": -1, "A": 1}, "next": "B"},
    ),
    (
        "a stop gives the round up",
        [*TRUE_FULL, roll("B", 6, 6, 1, 2, 3), stop("B")],
        {"throws": 3},
        {"player": "B", "points": {"B": -1, "A": 1}, "next": "B"},
    ),
    (
        "the leader may throw again before claiming",
        [
            roll("A", 1, 2, 3, 4, 6),
            roll("A", 1, 1, 3, 4, 6, thrown=("a2",)),
            claim("A", 1, 1, 3, 4, 6),
            call("B"),
        ],
        {"throws": 2},
        {"points": {"B": -1, "A": 1}},
    ),
    (
        "the answering player leads the next round",
        [*TRUE_FULL, call("B"), roll("B", 1, 1, 1, 2, 3)],
        {},
        {"player": "B", "points": {}, "next": "B", "awaiting": ("claim",)},
    ),
    (
        "losing the last stake ends the game",
        [*TRUE_FULL, call("B")],
        {"stakes": 1},
        {"points": {"B": -1, "A": 1}, "score": {"A": 2, "B": 0}, "over": True, "winner": "A", "next": None},
    ),
    ("stakes option", [*BLUFF_FULL, call("B")], {"stakes": 5}, {"score": {"A": 4, "B": 6}}),
    (
        "first option",
        [roll("B", 2, 2, 3, 4, 5), claim("B", 2, 2, 3, 4, 5), call("A")],
        {"first": "B"},
        {"player": "A", "points": {"A": -1, "B": 1}, "next": "A"},
    ),
    (
        "a throw by the opponent first is void",
        [roll("B", 1, 2, 3, 4, 5)],
        {},
        {"foul": ("out_of_turn", 0), "next": "A", "awaiting": ()},
    ),
    (
        "the leader answering himself is void",
        [*TRUE_FULL, roll("A", 1, 2, 3, 4, 5)],
        {},
        {"foul": ("out_of_turn", 0), "next": "B"},
    ),
    ("six dice are void", [roll("A", 1, 2, 3, 4, 5, 6)], {}, {"foul": ("wrong_dice", 0), "next": "A"}),
    (
        "a first throw that leaves a die lying is void",
        [roll("A", 1, 2, 3, 4, 5, thrown=("a1",))],
        {},
        {"foul": ("die_not_thrown", 0), "next": "A"},
    ),
    (
        "an answer that leaves a die lying is void",
        [*TRUE_FULL, roll("B", 6, 6, 6, 6, 6, thrown=("b1",))],
        {},
        {"foul": ("die_not_thrown", 0), "next": "B"},
    ),
    (
        "a throw beyond the agreed number is void",
        [roll("A", 1, 2, 3, 4, 6), roll("A", 6, 6, 6, 6, 6)],
        {},
        {"foul": ("extra_throw", 0), "next": "A", "awaiting": ("claim",)},
    ),
    (
        "a call is judged on the legal throw",
        [roll("A", 1, 2, 3, 4, 6), roll("A", 6, 6, 6, 6, 6), claim("A", 6, 6, 6, 6, 6), call("B")],
        {},
        {"points": {"A": -1, "B": 1}},
    ),
]


@pytest.mark.parametrize(("lines", "options", "want"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rule_cases(lines, options, want):
    _, decisions = play(lines, **options)
    last = decisions[-1]
    foul = want.pop("foul", None)
    assert (last.foul.reason, last.foul.penalty) == foul if foul else last.foul is None
    for key, value in want.items():
        assert getattr(last, key) == value, key


def test_three_players_the_left_neighbour_answers_and_the_out_are_skipped():
    lines = [
        *TRUE_FULL, call("B"),  # B loses the last stake: out; C (left of B) leads
        roll("B", 1, 2, 3, 4, 6),  # B is out: void
        roll("C", 1, 2, 3, 4, 6), claim("C", 6, 6, 6, 6, 6),  # C bluffs; A, left of C past B, answers
        call("A"),
    ]  # fmt: skip
    state, decisions = play(lines, players=("A", "B", "C"), stakes=1)
    assert [(d.player, d.next) for d in decisions] == [
        ("A", "A"),
        ("B", "C"),
        ("B", "C"),
        ("C", "C"),
        ("A", None),
    ]
    assert decisions[2].foul.reason == "out_of_turn"
    assert decisions[1].points == {"B": -1, "A": 1} and decisions[-1].points == {"C": -1, "A": 1}
    assert (state.over, state.winner, state.score) == (True, "A", {"A": 3, "B": 0, "C": 0})


ERRORS = [
    ("a claim before any throw", [claim("A", 1, 1, 1, 1, 1)], "accepted now: a roll by A"),
    (
        "a claim by the opponent",
        [roll("A", 1, 2, 3, 4, 6), claim("B", 1, 2, 3, 4, 6)],
        "a roll by A or A's claim",
    ),
    ("a challenge before the claim", [roll("A", 1, 2, 3, 4, 6), call("B")], "a roll by A or A's claim"),
    ("a challenge by the leader", [*TRUE_FULL, call("A")], "a challenge or a roll by B"),
    ("a stop before answering", [*TRUE_FULL, stop("B")], "a challenge or a roll by B"),
    (
        "a challenge after answering",
        [*TRUE_FULL, roll("B", 1, 2, 3, 4, 6), call("B")],
        "a roll or a stop by B",
    ),
    ("a number claim", [roll("A", 1, 2, 3, 4, 6), Claim(player="A", number=4)], "names the five faces"),
    ("a bet", [Bet(player="A", face=2)], "a 'bet' line by A cannot be used now"),
    (
        "a line after the game",
        [*TRUE_FULL, call("B"), roll("B", 1, 2, 3, 4, 5)],
        "the game is over \\(A won\\)",
    ),
]


@pytest.mark.parametrize(("lines", "message"), [c[1:] for c in ERRORS], ids=[c[0] for c in ERRORS])
def test_unusable_lines(lines, message):
    with pytest.raises(RuleError, match=message):
        play(lines, stakes=1, throws=2)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"throws": 4}, "throws must be an integer 1..3"),
        ({"stakes": -1}, "stakes must be an integer >= 1"),
        ({"straights": "yes"}, "straights must be true or false"),
        ({"first": "Z"}, "first must be one of the players"),
        ({"rounds": 3}, "bluff has no option 'rounds'"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(ValueError, match=message):
        bluff.start(Match(game="bluff", players=("A", "B"), options=options))


def test_whole_game_through_the_referee():
    """Two players, two stakes each, two throws a turn; played out to the end from JSON Lines."""
    t = iter(range(1000))

    def r(player: str, *faces: int, thrown: str = "12345") -> str:
        p = player.lower()
        dice = [{"id": f"{p}{i}", "value": v} for i, v in enumerate(faces, 1)]
        return json.dumps({"type": "roll", "t": next(t), "player": player, "dice": dice,
                           "thrown": [f"{p}{i}" for i in thrown]})  # fmt: skip

    def line(kind: str, player: str, **fields) -> str:
        return json.dumps({"type": kind, "player": player, **fields})

    header = {"type": "match", "v": 1, "game": "bluff", "players": ["Ann", "Bob"],
              "options": {"stakes": 2, "throws": 2}}  # fmt: skip
    stream = [
        json.dumps(header),
        r("Ann", 5, 5, 2, 3, 1), r("Ann", 5, 5, 5, 3, 1, thrown="3"),  # two throws: three fives
        line("claim", "Ann", hand=[5, 5, 5, 3, 3]),  # claims a full house
        line("challenge", "Bob"),  # a bluff: Ann 1, Bob 3; Bob leads
        r("Bob", 2, 2, 4, 4, 1), line("claim", "Bob", hand=[2, 2, 4, 4, 1]),  # the truth: two pairs
        r("Ann", 1, 2, 3, 5, 6), r("Ann", 4, 4, 3, 5, 6, thrown="12"),  # one pair: no better
        # Ann loses: Ann 0, Bob 4: Bob wins
    ]  # fmt: skip
    out = list(referee(stream))
    decisions = [d for s in out for d in s.decisions]
    assert all(d.foul is None for d in decisions)
    assert [d.points for d in decisions if d.points] == [{"Ann": -1, "Bob": 1}, {"Ann": -1, "Bob": 1}]
    final = decisions[-1]
    assert (final.over, final.winner, final.score) == (True, "Bob", {"Ann": 0, "Bob": 4})
    with pytest.raises(RefereeError, match=f"line {len(stream) + 1}: bluff: the game is over"):
        list(referee([*stream, r("Bob", 1, 1, 1, 1, 1)]))
