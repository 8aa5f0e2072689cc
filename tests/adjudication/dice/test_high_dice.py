"""High dice: banker against punter, with and without extra throws, then a whole match."""

from __future__ import annotations

import json

import pytest

from adjudication.dice import high_dice
from adjudication.engine import RuleError
from adjudication.referee import RefereeError, referee
from arbiter.contract import Bet, Decision, Die, JsonLine, Match, Roll, Stop


def roll(player: str, *faces: int, thrown: tuple[str, ...] | None = None) -> Roll:
    dice = tuple(Die(f"d{i}", v) for i, v in enumerate(faces, 1))
    return Roll(t=0.0, player=player, dice=dice, thrown=thrown or tuple(d.id for d in dice))


def stop(player: str) -> Stop:
    return Stop(player=player)


def play(lines: list[JsonLine], **options) -> tuple[high_dice.State, list[Decision]]:
    state = high_dice.start(Match(game="high-dice", players=("K", "P"), options=options))
    decisions: list[Decision] = []
    for line in lines:
        state, ds = high_dice.step(state, line)
        decisions.extend(ds)
    return state, decisions


CASES = [
    # id, lines, options, expected fields of the last decision
    (
        "the banker's throw sets the mark",
        [roll("K", 3, 5)],
        {},
        {"points": {}, "score": {"K": 0, "P": 0}, "next": "P"},
    ),
    (
        "a higher punter total wins a stake",
        [roll("K", 3, 5), roll("P", 4, 5)],
        {},
        {"points": {"P": 1, "K": -1}, "score": {"K": -1, "P": 1}, "next": "K"},
    ),
    (
        "a lower punter total pays a stake",
        [roll("K", 3, 5), roll("P", 1, 5)],
        {},
        {"points": {"P": -1, "K": 1}, "score": {"K": 1, "P": -1}, "next": "K"},
    ),
    (
        "a tie goes to the banker",
        [roll("K", 3, 5), roll("P", 4, 4)],
        {},
        {"points": {"P": -1, "K": 1}, "next": "K"},
    ),
    ("stake option", [roll("K", 1, 1), roll("P", 4, 4)], {"stake": 5}, {"points": {"P": 5, "K": -5}}),
    (
        "banker option",
        [roll("P", 1, 1), roll("K", 4, 4)],
        {"banker": "P"},
        {"points": {"K": 1, "P": -1}, "next": "P"},
    ),
    (
        "a failed throw with an extra left pays nothing yet",
        [roll("K", 4, 5), roll("P", 1, 2)],
        {"extra_throws": 1},
        {"points": {}, "next": "P"},
    ),
    (
        "winning on the extra throw wins one stake",
        [roll("K", 4, 5), roll("P", 1, 2), roll("P", 6, 6)],
        {"extra_throws": 1},
        {"points": {"P": 1, "K": -1}, "next": "K"},
    ),
    (
        "failing twice pays two stakes",
        [roll("K", 4, 5), roll("P", 1, 2), roll("P", 3, 3)],
        {"extra_throws": 1},
        {"points": {"P": -2, "K": 2}, "next": "K"},
    ),
    (
        "failing three times pays three stakes",
        [roll("K", 4, 5), roll("P", 1, 2), roll("P", 3, 3), roll("P", 4, 5)],
        {"extra_throws": 2},
        {"points": {"P": -3, "K": 3}},
    ),
    (
        "stake counts per throw",
        [roll("K", 4, 5), roll("P", 1, 2), roll("P", 3, 3)],
        {"extra_throws": 2, "stake": 2},
        {"points": {}, "next": "P"},
    ),
    (
        "stopping pays for the throws made",
        [roll("K", 4, 5), roll("P", 1, 2), roll("P", 3, 3), stop("P")],
        {"extra_throws": 2, "stake": 2},
        {"points": {"P": -4, "K": 4}, "next": "K"},
    ),
    (
        "stopping after the first throw pays one",
        [roll("K", 4, 5), roll("P", 1, 2), stop("P")],
        {"extra_throws": 2},
        {"points": {"P": -1, "K": 1}, "next": "K"},
    ),
    (
        "the punter throwing first is void",
        [roll("P", 6, 6)],
        {},
        {"foul": ("out_of_turn", 0), "points": {}, "next": "K"},
    ),
    (
        "the banker throwing twice is void",
        [roll("K", 2, 2), roll("K", 6, 6)],
        {},
        {"foul": ("out_of_turn", 0), "points": {}, "next": "P"},
    ),
    ("three dice are void", [roll("K", 2, 2, 2)], {}, {"foul": ("wrong_dice", 0), "next": "K"}),
    (
        "a die left lying is void",
        [roll("K", 2, 2), roll("P", 6, 6, thrown=("d1",))],
        {},
        {"foul": ("die_not_thrown", 0), "next": "P"},
    ),
    (
        "rounds end the match",
        [roll("K", 2, 2), roll("P", 6, 6)],
        {"rounds": 1},
        {"points": {"P": 1, "K": -1}, "over": True, "winner": "P", "next": None},
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
    assert len(decisions) == len(lines)


ERRORS = [
    ("a stop before any throw", [stop("P")], {}, "accepted now: a stop by the punter P"),
    (
        "a stop without extra throws",
        [roll("K", 4, 5), roll("P", 1, 2), stop("P")],
        {},
        "accepted now: a stop",
    ),
    ("a stop by the banker", [roll("K", 4, 5), roll("P", 1, 2), stop("K")], {"extra_throws": 1}, "by K"),
    ("a bet", [Bet(player="P", face=3)], {}, "accepted now: a roll by K"),
    (
        "a line after the match",
        [roll("K", 4, 5), roll("P", 1, 2), roll("K", 4, 5)],
        {"rounds": 1},
        "game is over",
    ),
]


@pytest.mark.parametrize(("lines", "options", "message"), [c[1:] for c in ERRORS], ids=[c[0] for c in ERRORS])
def test_unusable_lines(lines, options, message):
    with pytest.raises(RuleError, match=message):
        play(lines, **options)


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (("A", "B", "C"), {}, "high-dice is played by exactly 2 players"),
        (("A", "B"), {"extra_throws": 3}, "extra_throws must be an integer 0..2"),
        (("A", "B"), {"stake": 0}, "stake must be an integer >= 1"),
        (("A", "B"), {"banker": "C"}, "banker must be one of the players"),
        (("A", "B"), {"throws": 2}, "high-dice has no option 'throws'"),
    ],
)
def test_bad_options(players, options, message):
    with pytest.raises(ValueError, match=message):
        high_dice.start(Match(game="high-dice", players=players, options=options))


def test_whole_match_through_the_referee():
    t = iter(range(100))

    def r(player: str, a: int, b: int) -> str:
        dice = [{"id": "d1", "value": a}, {"id": "d2", "value": b}]
        return json.dumps(
            {"type": "roll", "t": next(t), "player": player, "dice": dice, "thrown": ["d1", "d2"]}
        )

    options = {"rounds": 3, "extra_throws": 2, "stake": 2, "banker": "Bank"}
    header = {"type": "match", "v": 1, "game": "high-dice", "players": ["Punt", "Bank"], "options": options}
    stream = [
        json.dumps(header),
        r("Bank", 5, 5), r("Punt", 3, 3), r("Punt", 6, 5),  # Punt wins on the extra throw: +2
        r("Bank", 2, 3), r("Punt", 1, 3), r("Punt", 2, 2),
        json.dumps({"type": "stop", "player": "Punt"}),  # two failures, then a stop: -4
        r("Bank", 6, 6), r("Punt", 1, 1), r("Punt", 6, 6), r("Punt", 2, 1),  # three failures: -6
    ]  # fmt: skip
    decisions = [d for s in referee(stream) for d in s.decisions]
    assert len(decisions) == len(stream) - 1
    assert [d.points for d in decisions if d.points] == [
        {"Punt": 2, "Bank": -2},
        {"Punt": -4, "Bank": 4},
        {"Punt": -6, "Bank": 6},
    ]
    final = decisions[-1]
    assert (final.score, final.over, final.winner) == ({"Punt": -8, "Bank": 8}, True, "Bank")
    with pytest.raises(RefereeError, match=f"line {len(stream) + 1}: high-dice: the game is over"):
        list(referee([*stream, r("Bank", 1, 1)]))
