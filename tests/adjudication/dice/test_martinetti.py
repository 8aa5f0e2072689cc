"""Martinetti: what a throw makes, the thrower's claim or stop, overlooked numbers claimed by partners, fouls,
and whole games."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from adjudication.dice import martinetti
from adjudication.engine import RuleError
from adjudication.referee import RefereeError, referee
from arbiter.contract import Claim, Decision, Die, JsonLine, Match, Roll, Stop


def roll(player: str, *faces: int, thrown: tuple[str, ...] | None = None) -> Roll:
    dice = tuple(Die(f"d{i}", v) for i, v in enumerate(faces, 1))
    return Roll(t=0.0, player=player, dice=dice, thrown=thrown or tuple(d.id for d in dice))


def claim(player: str, number: int) -> Claim:
    return Claim(player=player, number=number)


def stop(player: str) -> Stop:
    return Stop(player=player)


def play(
    lines: list[JsonLine], fields=(0, 0, 0, 0), players=("A", "B", "C", "D"), **options
) -> tuple[martinetti.State, list[Decision]]:
    state = martinetti.start(Match(game="martinetti", players=players, options=options))
    state = replace(state, fields=tuple(fields))
    decisions: list[Decision] = []
    for line in lines:
        state, ds = martinetti.step(state, line)
        decisions.extend(ds)
    return state, decisions


REACH = [
    # field, faces, furthest field
    (0, (1, 2, 3), 3),
    (0, (1, 1, 1), 2),  # 1 + (1 + 1), the text's example
    (0, (2, 3, 4), 0),  # no 1
    (0, (1, 5, 6), 1),
    (0, (6, 6, 1), 1),
    (1, (2, 3, 4), 4),
    (2, (1, 2, 3), 3),  # 3 from one die or 1 + 2, but never 3 and 4 together
    (3, (4, 1, 6), 4),
    (4, (5, 6, 1), 6),
    (6, (3, 4, 6), 7),
    (6, (1, 6, 1), 7),  # 7 = 6 + 1; 8 would need the 6 again
    (9, (5, 5, 6), 10),
    (10, (6, 6, 5), 11),
    (11, (6, 6, 1), 12),
    (11, (4, 4, 4), 12),
    (11, (1, 2, 3), 11),
]


@pytest.mark.parametrize(("field", "faces", "reach"), REACH)
def test_furthest_field_a_throw_reaches(field, faces, reach):
    assert martinetti.furthest(field, faces) == reach


CASES = [
    # id, fields before, lines, options, expected fields of the last decision, fields after
    (
        "a throw without the next number passes the dice",
        (0, 0, 0, 0),
        [roll("A", 2, 3, 4)],
        {},
        {"points": {}, "next": "B", "on": "1", "awaiting": ()},
        (0, 0, 0, 0),
    ),
    (
        "a throw that advances awaits the thrower's claim",
        (0, 0, 0, 0),
        [roll("A", 1, 2, 5)],
        {},
        {"points": {}, "next": "A", "on": "1", "awaiting": ("claim", "stop")},
        (0, 0, 0, 0),
    ),
    (
        "claiming the furthest field keeps the dice",
        (0, 0, 0, 0),
        [roll("A", 1, 2, 3), claim("A", 3)],
        {},
        {"points": {"A": 3}, "next": "A", "on": "4", "awaiting": ()},
        (3, 0, 0, 0),
    ),
    (
        "three ones make 1 and 2",
        (0, 0, 0, 0),
        [roll("A", 1, 1, 1), claim("A", 2)],
        {},
        {"points": {"A": 2}, "next": "A", "on": "3"},
        (2, 0, 0, 0),
    ),
    (
        "claiming short overlooks the next number",
        (0, 0, 0, 0),
        [roll("A", 1, 2, 3), claim("A", 2)],
        {},
        {"points": {"A": 2}, "next": "B", "on": "1"},
        (2, 0, 0, 0),
    ),
    (
        "a stop overlooks the next number",
        (4, 0, 0, 0),
        [roll("A", 5, 1, 1), stop("A")],
        {},
        {"points": {}, "next": "B", "on": "1"},
        (4, 0, 0, 0),
    ),
    (
        "the nearest partner who needs it takes it at once",
        (2, 0, 2, 2),
        [roll("A", 3, 6, 6), stop("A"), claim("C", 3)],
        {},
        {"player": "C", "points": {"C": 1}, "next": "B", "on": "1"},
        (2, 0, 3, 2),
    ),
    (
        "a farther partner's claim waits for the next throw",
        (2, 2, 0, 2),
        [roll("A", 3, 6, 6), stop("A"), claim("D", 3), roll("B", 3, 5, 5)],
        {},
        {"player": "B", "points": {}, "next": "B", "on": "3", "awaiting": ("claim", "stop")},
        (2, 2, 0, 3),
    ),
    (
        "a nearer partner's shout beats a farther one's",
        (2, 2, 2, 2),
        [roll("A", 3, 6, 6), stop("A"), claim("D", 3), claim("B", 3)],
        {},
        {"player": "B", "points": {"B": 1}, "next": "B", "on": "4"},
        (2, 3, 2, 2),
    ),
    (
        "a held claim is settled before the next throw",
        (2, 2, 2, 2),
        [roll("A", 3, 6, 6), stop("A"), claim("D", 3), claim("C", 3), roll("B", 6, 6, 6)],
        {},
        {"player": "B", "points": {}, "next": "C", "on": "4"},
        (2, 2, 3, 2),
    ),
    (
        "reaching 12 wins",
        (11, 0, 0, 0),
        [roll("A", 6, 6, 1), claim("A", 12)],
        {},
        {"points": {"A": 1}, "next": None, "on": None, "over": True, "winner": "A"},
        (12, 0, 0, 0),
    ),
    (
        "a partner can win on an overlooked 12",
        (11, 5, 11, 0),
        [roll("A", 6, 6, 3), stop("A"), claim("C", 12)],
        {},
        {"player": "C", "points": {"C": 1}, "over": True, "winner": "C", "next": None},
        (11, 5, 12, 0),
    ),
    (
        "a held claim that wins ends the game at the next throw",
        (11, 11, 0, 11),
        [roll("A", 6, 6, 3), stop("A"), claim("D", 12), roll("B", 1, 1, 1)],
        {},
        {"player": "D", "points": {"D": 1}, "over": True, "winner": "D"},
        (11, 11, 0, 12),
    ),
    (
        "auto_advance moves as far as the throw allows",
        (0, 0, 0, 0),
        [roll("A", 1, 2, 3)],
        {"auto_advance": True},
        {"points": {"A": 3}, "next": "A", "on": "4", "awaiting": ()},
        (3, 0, 0, 0),
    ),
    (
        "auto_advance passes a throw that cannot move",
        (3, 0, 0, 0),
        [roll("A", 1, 1, 1)],
        {"auto_advance": True},
        {"points": {}, "next": "B", "on": "1"},
        (3, 0, 0, 0),
    ),
    (
        "auto_advance stops where the throw does",
        (10, 0, 0, 0),
        [roll("A", 5, 6, 6)],
        {"auto_advance": True},
        {"points": {"A": 1}, "next": "A", "on": "12"},
        (11, 0, 0, 0),
    ),
    (
        "auto_advance wins at 12",
        (11, 0, 0, 0),
        [roll("A", 4, 4, 4)],
        {"auto_advance": True},
        {"points": {"A": 1}, "over": True, "winner": "A", "next": None},
        (12, 0, 0, 0),
    ),
    (
        "first option",
        (0, 0, 0, 0),
        [roll("C", 2, 2, 2)],
        {"first": "C"},
        {"next": "D", "on": "1"},
        (0, 0, 0, 0),
    ),
    (
        "a throw by the wrong player is void",
        (0, 0, 0, 0),
        [roll("B", 1, 2, 3)],
        {},
        {"foul": ("out_of_turn", 0), "points": {}, "next": "A", "on": "1"},
        (0, 0, 0, 0),
    ),
    (
        "a partner throwing while a claim is awaited is void",
        (0, 0, 0, 0),
        [roll("A", 1, 2, 3), roll("B", 1, 2, 3)],
        {},
        {"foul": ("out_of_turn", 0), "next": "A"},
        (0, 0, 0, 0),
    ),
    (
        "two dice are void",
        (0, 0, 0, 0),
        [roll("A", 1, 2)],
        {},
        {"foul": ("wrong_dice", 0), "next": "A"},
        (0, 0, 0, 0),
    ),
    (
        "a die left lying is void",
        (0, 0, 0, 0),
        [roll("A", 1, 2, 3, thrown=("d1", "d2"))],
        {},
        {"foul": ("die_not_thrown", 0), "next": "A"},
        (0, 0, 0, 0),
    ),
    (
        "a void throw leaves the overlooked number open",
        (2, 0, 2, 2),
        [roll("A", 3, 6, 6), stop("A"), claim("D", 3), roll("C", 1, 1, 1), claim("C", 3)],
        {},
        {"player": "C", "points": {"C": 1}, "next": "B"},
        (2, 0, 3, 2),
    ),
]


@pytest.mark.parametrize(
    ("fields", "lines", "options", "want", "after"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_rule_cases(fields, lines, options, want, after):
    state, decisions = play(lines, fields, **options)
    last = decisions[-1]
    foul = want.pop("foul", None)
    assert (last.foul.reason, last.foul.penalty) == foul if foul else last.foul is None
    for key, value in want.items():
        assert getattr(last, key) == value, key
    assert state.fields == after
    assert last.score == dict(zip(state.players, after, strict=True))


def test_a_held_claim_gives_two_decisions_on_the_next_throw():
    state, _ = play([roll("A", 3, 6, 6), stop("A"), claim("D", 3)], (2, 2, 0, 2))
    state, decisions = martinetti.step(state, roll("B", 1, 1, 4))
    assert [(d.player, d.points) for d in decisions] == [("D", {"D": 1}), ("B", {})]
    assert [d.shot for d in decisions] == [3, 4]
    assert decisions[1].next == "C"


ERRORS = [
    (
        "a claim beyond the throw's reach",
        (0, 0, 0, 0),
        [roll("A", 1, 2, 6), claim("A", 3)],
        "A is on 0 and the throw 1-2-6 reaches 2; a claim names a field 1..2",
    ),
    ("a claim at the token's own field", (2, 0, 0, 0), [roll("A", 3, 6, 6), claim("A", 2)], "a field 3..3"),
    (
        "a roll by the thrower before claiming",
        (0, 0, 0, 0),
        [roll("A", 1, 2, 6), roll("A", 1, 2, 6)],
        "A must say how far the last throw moves the token",
    ),
    ("a claim with no throw", (0, 0, 0, 0), [claim("A", 1)], "accepted now: a roll by A"),
    (
        "a partner's claim of another number",
        (2, 3, 0, 0),
        [roll("A", 3, 6, 6), stop("A"), claim("B", 4)],
        "the overlooked number is 3; B claimed 4",
    ),
    (
        "a claim by a partner who needs another number",
        (2, 3, 0, 0),
        [roll("A", 3, 6, 6), stop("A"), claim("B", 3)],
        "B needs 4, not the overlooked 3",
    ),
    (
        "the thrower claims the overlooked number",
        (2, 3, 0, 0),
        [roll("A", 3, 6, 6), stop("A"), claim("A", 3)],
        "a partner's claim of the overlooked 3",
    ),
    (
        "a claim after the window has closed",
        (2, 2, 0, 0),
        [roll("A", 3, 6, 6), stop("A"), roll("B", 6, 6, 6), claim("C", 3)],
        "accepted now: a roll by C",
    ),
    (
        "a claim made twice",
        (2, 0, 2, 2),
        [roll("A", 3, 6, 6), stop("A"), claim("D", 3), claim("D", 3)],
        "D has already claimed 3",
    ),
    ("a stop with nothing to take", (0, 0, 0, 0), [stop("A")], "accepted now: a roll by A"),
    (
        "a hand claim",
        (0, 0, 0, 0),
        [roll("A", 1, 2, 6), Claim(player="A", hand=(1, 2, 3, 4, 5))],
        "got \\(1, 2",
    ),
]


@pytest.mark.parametrize(("fields", "lines", "message"), [c[1:] for c in ERRORS], ids=[c[0] for c in ERRORS])
def test_unusable_lines(fields, lines, message):
    with pytest.raises(RuleError, match=message):
        play(lines, fields)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"auto_advance": 1}, "auto_advance must be true or false"),
        ({"first": "Z"}, "first must be one of the players"),
        ({"fields": 12}, "martinetti has no option 'fields'"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(ValueError, match=message):
        martinetti.start(Match(game="martinetti", players=("A", "B"), options=options))


def test_claim_line_checks_its_fields():
    with pytest.raises(ValueError, match=r"claim\.number must be a field number 1\.\.12"):
        Claim(player="A", number=13)
    with pytest.raises(ValueError, match='claim needs exactly one of "hand"'):
        Claim(player="A", hand=(1, 1, 1, 1, 1), number=3)


def _stream(header: dict, lines: list[tuple], t0: int = 0) -> list[str]:
    out = [json.dumps(header)]
    for t, (kind, player, *rest) in enumerate(lines, start=t0):
        if kind == "roll":
            dice = [{"id": f"d{i}", "value": v} for i, v in enumerate(rest, 1)]
            out.append(json.dumps({"type": "roll", "t": t, "player": player, "dice": dice,
                                   "thrown": [d["id"] for d in dice]}))  # fmt: skip
        elif kind == "claim":
            out.append(json.dumps({"type": "claim", "player": player, "number": rest[0]}))
        else:
            out.append(json.dumps({"type": "stop", "player": player}))
    return out


def test_whole_game_with_claims_through_the_referee():
    header = {"type": "match", "v": 1, "game": "martinetti", "players": ["A", "B"]}
    lines = [
        ("roll", "A", 1, 2, 3), ("claim", "A", 3),  # 1, 2, 3: A 3
        ("roll", "A", 4, 5, 6), ("claim", "A", 6),  # 4, 5, 6: A 6
        ("roll", "A", 1, 1, 2),  # no 7: to B
        ("roll", "B", 1, 1, 1), ("claim", "B", 1),  # B overlooks 2 (1 + 1); A needs 7, so nobody takes it
        ("roll", "A", 3, 4, 2), ("claim", "A", 7),  # 7 = 3 + 4
        ("roll", "A", 2, 6, 4), ("claim", "A", 8),  # 8 = 2 + 6
        ("roll", "A", 4, 5, 6), ("claim", "A", 9),  # 9 = 4 + 5
        ("roll", "A", 4, 6, 1), ("stop", "A"),  # A overlooks 10 = 4 + 6: to B
        ("roll", "B", 1, 2, 3), ("claim", "B", 3),  # 2, 3: B 3
        ("roll", "B", 6, 6, 6),  # no 4: to A
        ("roll", "A", 5, 5, 6), ("claim", "A", 10),  # 10 = 5 + 5
        ("roll", "A", 5, 6, 6), ("claim", "A", 11),  # 11 = 5 + 6; 12 would need both sixes
        ("roll", "A", 6, 3, 3), ("claim", "A", 12),  # 12 = 6 + 3 + 3: A wins
    ]  # fmt: skip
    stream = _stream(header, lines)
    decisions = [d for s in referee(stream) for d in s.decisions]
    assert all(d.foul is None for d in decisions)
    assert [d.next for d in decisions if d.next != d.player] == ["B", "A", "B", "A", None]
    final = decisions[-1]
    assert (final.over, final.winner, final.score) == (True, "A", {"A": 12, "B": 3})
    assert sum(d.points.get("A", 0) for d in decisions) == 12
    with pytest.raises(RefereeError, match=f"line {len(stream) + 1}: martinetti: the game is over"):
        list(referee([*stream, *_stream(header, [("roll", "B", 1, 1, 1)], t0=100)[1:]]))


def test_an_overlooked_number_taken_in_a_stream():
    """Three players: C takes the 1 that B overlooked, before A, who sits further from B."""
    header = {"type": "match", "v": 1, "game": "martinetti", "players": ["A", "B", "C"]}
    lines = [
        ("roll", "A", 2, 2, 2),  # no 1: to B
        ("roll", "B", 1, 4, 4), ("stop", "B"),  # B overlooks 1; A and C need it, C sits next to B's left
        ("claim", "A", 1),  # A is further from B than C: held
        ("claim", "C", 1),  # C is nearest: takes it at once; A's claim lapses
        ("roll", "C", 2, 3, 4), ("claim", "C", 4),  # C 4
    ]  # fmt: skip
    stream = _stream(header, lines)
    out = list(referee(stream))
    decisions = [d for s in out for d in s.decisions]
    taken = [d for d in decisions if d.player == "C" and d.points == {"C": 1}]
    assert len(taken) == 1 and taken[0].next == "C"
    assert out[-1].state.fields == (0, 0, 4)
    assert out[-1].state.overlooked is None
