"""Craps: the pass line case by case (come-out, point, seven out, void throws), then whole matches."""

from __future__ import annotations

import json

import pytest

from adjudication.dice import craps
from adjudication.engine import RuleError
from adjudication.referee import RefereeError, referee
from arbiter.contract import Decision, Die, JsonLine, Match, Roll, Stop


def roll(player: str, *faces: int, thrown: tuple[str, ...] | None = None) -> Roll:
    dice = tuple(Die(f"d{i}", v) for i, v in enumerate(faces, 1))
    return Roll(t=0.0, player=player, dice=dice, thrown=thrown or tuple(d.id for d in dice))


def play(lines: list[JsonLine], players=("A", "B"), **options) -> tuple[craps.State, list[Decision]]:
    state = craps.start(Match(game="craps", players=players, options=options))
    decisions: list[Decision] = []
    for line in lines:
        state, ds = craps.step(state, line)
        decisions.extend(ds)
    return state, decisions


CASES = [
    # id, lines, options, expected fields of the last decision
    ("come-out 7 is a natural", [roll("A", 3, 4)], {}, {"points": {"A": 1}, "next": "A", "on": None}),
    ("come-out 11 is a natural", [roll("A", 5, 6)], {}, {"points": {"A": 1}, "next": "A", "on": None}),
    ("come-out 2 is craps", [roll("A", 1, 1)], {}, {"points": {"A": -1}, "next": "A", "on": None}),
    ("come-out 3 is craps", [roll("A", 1, 2)], {}, {"points": {"A": -1}, "next": "A", "on": None}),
    ("come-out 12 is craps", [roll("A", 6, 6)], {}, {"points": {"A": -1}, "next": "A", "on": None}),
    (
        "come-out 8 is a point, not craps (misprint)",
        [roll("A", 4, 4)],
        {},
        {"points": {}, "next": "A", "on": "8"},
    ),
    ("come-out 4 is a point", [roll("A", 1, 3)], {}, {"points": {}, "next": "A", "on": "4"}),
    ("come-out 10 is a point", [roll("A", 4, 6)], {}, {"points": {}, "next": "A", "on": "10"}),
    (
        "point made wins",
        [roll("A", 2, 4), roll("A", 1, 5)],
        {},
        {"points": {"A": 1}, "next": "A", "on": None},
    ),
    (
        "seven out loses and passes the dice",
        [roll("A", 2, 4), roll("A", 3, 4)],
        {"turns": 2},
        {"points": {"A": -1}, "score": {"A": -1, "B": 0}, "next": "B", "on": None},
    ),
    (
        "other totals do nothing in the point phase",
        [roll("A", 2, 4), roll("A", 5, 6), roll("A", 1, 1), roll("A", 4, 4)],
        {},
        {"points": {}, "next": "A", "on": "6"},
    ),
    (
        "11 in the point phase is no natural",
        [roll("A", 4, 4), roll("A", 5, 6)],
        {},
        {"points": {}, "score": {"A": 0, "B": 0}, "next": "A", "on": "8"},
    ),
    (
        "craps on the come-out keeps the dice",
        [roll("A", 1, 1), roll("A", 3, 4)],
        {},
        {"points": {"A": 1}, "score": {"A": 0, "B": 0}, "next": "A"},
    ),
    ("stake option", [roll("A", 6, 5)], {"stake": 5}, {"points": {"A": 5}, "score": {"A": 5, "B": 0}}),
    ("first option", [roll("B", 6, 5)], {"first": "B"}, {"points": {"B": 1}, "next": "B"}),
    (
        "throw by a player who is not the shooter is void",
        [roll("A", 2, 4), roll("B", 3, 3)],
        {},
        {"foul": ("out_of_turn", 0), "points": {}, "next": "A", "on": "6"},
    ),
    ("three dice is void", [roll("A", 2, 4, 1)], {}, {"foul": ("wrong_dice", 0), "points": {}, "next": "A"}),
    ("one die is void", [roll("A", 2)], {}, {"foul": ("wrong_dice", 0), "next": "A"}),
    (
        "a die left lying is no roll",
        [roll("A", 2, 4), roll("A", 2, 5, thrown=("d2",))],
        {},
        {"foul": ("die_not_thrown", 0), "points": {}, "next": "A", "on": "6"},
    ),
    (
        "the last seven out ends the match",
        [
            roll("A", 6, 5),
            roll("A", 2, 4),
            roll("A", 3, 4),
            roll("B", 1, 2),
            roll("B", 5, 5),
            roll("B", 6, 1),
        ],
        {},
        {"points": {"B": -1}, "score": {"A": 0, "B": -2}, "next": None, "over": True, "winner": "A"},
    ),
    (
        "a tied match has no winner",
        [roll("A", 2, 4), roll("A", 3, 4), roll("B", 2, 4), roll("B", 3, 4)],
        {},
        {"points": {"B": -1}, "score": {"A": -1, "B": -1}, "next": None, "over": True, "winner": None},
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


@pytest.mark.parametrize("total", range(2, 13))
def test_come_out_table(total):
    """Every come-out total against the casino pass line, which the decision cites (Craps rule 2)."""
    a = max(1, total - 6)
    _, (d,) = play([roll("A", a, total - a)])
    expected = {7: 1, 11: 1, 2: -1, 3: -1, 12: -1}.get(total, 0)
    assert d.points == ({"A": expected} if expected else {})
    assert d.on == (None if expected else str(total))
    assert "(Craps rule 2, the casino pass line)" in d.notes[0]


ERRORS = [
    ("an input line", [Stop(player="A")], "accepted now: a roll by the shooter A"),
    ("a player not in the match", [roll("Z", 2, 2)], "'Z' is not a player"),
    (
        "a line after the match",
        [roll("A", 2, 4), roll("A", 3, 4), roll("B", 2, 4), roll("B", 3, 4), roll("A", 3, 3)],
        "the game is over",
    ),
]


@pytest.mark.parametrize(("lines", "message"), [c[1:] for c in ERRORS], ids=[c[0] for c in ERRORS])
def test_unusable_lines(lines, message):
    with pytest.raises(RuleError, match=message):
        play(lines)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"stake": 0}, "stake must be an integer >= 1"),
        ({"turns": "two"}, "turns must be an integer >= 1"),
        ({"first": "C"}, "first must be one of the players"),
        ({"point": 4}, "craps has no option 'point'"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(ValueError, match=message):
        craps.start(Match(game="craps", players=("A", "B"), options=options))


def test_whole_match_through_the_referee():
    """Three shooters, two turns each, from JSON Lines; nets and the hand-overs checked."""
    t = iter(range(1000))

    def r(player: str, a: int, b: int) -> str:
        dice = [{"id": "d1", "value": a}, {"id": "d2", "value": b}]
        return json.dumps(
            {"type": "roll", "t": next(t), "player": player, "dice": dice, "thrown": ["d1", "d2"]}
        )

    header = {"type": "match", "v": 1, "game": "craps", "players": ["A", "B", "C"], "options": {"turns": 2}}
    stream = [
        json.dumps(header),
        r("A", 5, 6), r("A", 2, 2), r("A", 1, 3), r("A", 3, 3), r("A", 4, 3),  # A +1 +1 -1
        r("B", 1, 1), r("B", 4, 5), r("B", 2, 5),  # B -1 -1
        r("C", 6, 1), r("C", 5, 5), r("C", 6, 4), r("C", 5, 5), r("C", 1, 6),  # C +1 +1 -1
        r("A", 2, 3), r("A", 6, 1),  # A -1: A 0
        r("B", 6, 6), r("B", 1, 1), r("B", 5, 1), r("B", 3, 3), r("B", 2, 2), r("B", 1, 6),  # B -4
        r("C", 1, 2), r("C", 3, 5), r("C", 2, 6),  # C -1 +1: C 1
        r("C", 2, 2), r("C", 5, 2),  # C -1: C 0, match over
    ]  # fmt: skip
    decisions = [d for step_ in referee(stream) for d in step_.decisions]
    assert len(decisions) == len(stream) - 1
    assert all(d.foul is None for d in decisions)
    final = decisions[-1]
    assert final.score == {"A": 0, "B": -4, "C": 0}
    assert (final.over, final.winner) == (True, None)
    hand_overs = [d.next for d in decisions if d.notes and "seven out" in d.notes[0]]
    assert hand_overs == ["B", "C", "A", "B", "C", None]
    with pytest.raises(RefereeError, match=f"line {len(stream) + 1}: craps: the game is over"):
        list(referee([*stream, r("A", 3, 4)]))
