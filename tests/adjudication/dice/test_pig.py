"""Pig: one row per rule case (a short stream and the decision it must give), then whole games."""

from __future__ import annotations

import json

import pytest

from adjudication.dice import pig
from adjudication.engine import RuleError
from adjudication.referee import RefereeError, referee
from arbiter.contract import Decision, Die, JsonLine, Match, Roll, Stop


def roll(player: str, *faces: int, t: float = 0.0) -> Roll:
    dice = tuple(Die(f"d{i}", v) for i, v in enumerate(faces, 1))
    return Roll(t=t, player=player, dice=dice, thrown=tuple(d.id for d in dice))


def stop(player: str) -> Stop:
    return Stop(player=player)


def play(lines: list[JsonLine], players=("A", "B"), **options) -> tuple[pig.State, list[Decision]]:
    state = pig.start(Match(game="pig", players=players, options=options))
    decisions: list[Decision] = []
    for line in lines:
        state, ds = pig.step(state, line)
        decisions.extend(ds)
    return state, decisions


CASES = [
    # id, lines, options, expected fields of the last decision
    ("face adds to the turn", [roll("A", 4)], {}, {"points": {}, "score": {"A": 0, "B": 0}, "next": "A"}),
    (
        "stop banks the turn total",
        [roll("A", 4), roll("A", 6), stop("A")],
        {},
        {"points": {"A": 10}, "score": {"A": 10, "B": 0}, "next": "B"},
    ),
    (
        "a one loses the turn total and passes the die",
        [roll("A", 4), roll("A", 6), roll("A", 1)],
        {},
        {"points": {}, "score": {"A": 0, "B": 0}, "next": "B"},
    ),
    (
        "a one on the first throw passes the die",
        [roll("A", 1)],
        {},
        {"points": {}, "score": {"A": 0, "B": 0}, "next": "B"},
    ),
    (
        "banked points survive a later one",
        [roll("A", 5), stop("A"), roll("B", 2), stop("B"), roll("A", 3), roll("A", 1)],
        {},
        {"points": {}, "score": {"A": 5, "B": 2}, "next": "B"},
    ),
    (
        "option first",
        [roll("B", 3), stop("B")],
        {"first": "B"},
        {"points": {"B": 3}, "score": {"A": 0, "B": 3}, "next": "A"},
    ),
    (
        "out of turn throw is void",
        [roll("B", 5)],
        {},
        {"foul": ("out_of_turn", 0), "points": {}, "score": {"A": 0, "B": 0}, "next": "A"},
    ),
    (
        "two dice is void",
        [roll("A", 5, 2)],
        {},
        {"foul": ("wrong_dice", 0), "points": {}, "score": {"A": 0, "B": 0}, "next": "A"},
    ),
    (
        "void throw keeps the turn total",
        [roll("A", 5), roll("B", 6), stop("A")],
        {},
        {"points": {"A": 5}, "score": {"A": 5, "B": 0}, "next": "B"},
    ),
    (
        "reaching the target does not end the round",
        [roll("A", 6), roll("A", 5), stop("A")],
        {"target": 10},
        {"points": {"A": 11}, "score": {"A": 11, "B": 0}, "next": "B", "over": False, "winner": None},
    ),
    (
        "the last player of the round can overtake",
        [roll("A", 6), roll("A", 5), stop("A"), roll("B", 6), roll("B", 6), stop("B")],
        {"target": 10},
        {"points": {"B": 12}, "score": {"A": 11, "B": 12}, "next": None, "over": True, "winner": "B"},
    ),
    (
        "the first to the target wins when the round ends behind",
        [roll("A", 6), roll("A", 5), stop("A"), roll("B", 6), roll("B", 1)],
        {"target": 10},
        {"points": {}, "score": {"A": 11, "B": 0}, "next": None, "over": True, "winner": "A"},
    ),
    (
        "a tie at the end of the round is played off",
        [roll("A", 6), roll("A", 5), stop("A"), roll("B", 5), roll("B", 6), stop("B")],
        {"target": 10},
        {"points": {"B": 11}, "score": {"A": 11, "B": 11}, "next": "A", "over": False},
    ),
    (
        "the play-off is decided at the end of its round",
        [
            roll("A", 6),
            roll("A", 5),
            stop("A"),
            roll("B", 5),
            roll("B", 6),
            stop("B"),
            roll("A", 2),
            stop("A"),
            roll("B", 1),
        ],
        {"target": 10},
        {"points": {}, "score": {"A": 13, "B": 11}, "next": None, "over": True, "winner": "A"},
    ),
]


@pytest.mark.parametrize(("lines", "options", "want"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rule_cases(lines, options, want):
    _state, decisions = play(lines, **options)
    last = decisions[-1]
    foul = want.pop("foul", None)
    assert (last.foul.reason, last.foul.penalty) == foul if foul else last.foul is None
    for key, value in want.items():
        assert getattr(last, key) == value, key
    assert len(decisions) == len(lines)


def test_three_players_play_out_the_round_after_the_middle_player_reaches_the_target():
    lines = [roll("A", 3), stop("A"), roll("B", 6), roll("B", 6), stop("B"), roll("C", 2), stop("C")]
    state, decisions = play(lines, players=("A", "B", "C"), target=12)
    assert [d.next for d in decisions] == ["A", "B", "B", "B", "C", "C", None]
    assert decisions[-1].winner == "B"
    assert state.score == {"A": 3, "B": 12, "C": 2}


def test_only_tied_leaders_play_off():
    lines = [roll("A", 6), stop("A"), roll("B", 6), stop("B"), roll("C", 2), stop("C")]
    state, decisions = play(lines, players=("A", "B", "C"), target=6)
    assert decisions[-1].next == "A" and not state.over
    assert state.playing == ("A", "B")
    state, ds = pig.step(state, roll("A", 1))
    assert ds[0].next == "B"
    state, ds = pig.step(state, roll("B", 2))
    state, ds = pig.step(state, stop("B"))
    assert (ds[0].over, ds[0].winner, ds[0].score) == (True, "B", {"A": 6, "B": 8, "C": 2})


ERRORS = [
    ("stop before throwing", [stop("A")], {}, "A has not thrown this turn"),
    ("stop after a one", [roll("A", 1), stop("B")], {}, "B has not thrown this turn"),
    ("stop by the other player", [roll("A", 3), stop("B")], {}, "B cannot stop: it is A's turn"),
    (
        "a line after the game",
        [roll("B", 6), stop("B"), roll("A", 1), roll("B", 2)],
        {"target": 6, "first": "B"},
        "over \\(B won\\)",
    ),
    ("a player not in the match", [roll("Z", 2)], {}, "'Z' is not a player"),
]


@pytest.mark.parametrize(("lines", "options", "message"), [c[1:] for c in ERRORS], ids=[c[0] for c in ERRORS])
def test_unusable_lines(lines, options, message):
    with pytest.raises(RuleError, match=message):
        play(lines, **options)


def test_other_line_type_is_refused():
    from arbiter.contract import Choose

    with pytest.raises(RuleError, match="accepted now: a roll or a stop by A"):
        play([Choose(player="A", category="x")])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"target": 0}, "target must be an integer >= 1"),
        ({"target": True}, "target must be an integer"),
        ({"first": "Z"}, "first must be one of the players A, B"),
        ({"goal": 5}, "pig has no option 'goal'"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(ValueError, match=message):
        pig.start(Match(game="pig", players=("A", "B"), options=options))


HEADER = {"type": "match", "v": 1, "game": "pig", "players": ["Ann", "Bob"], "options": {"target": 20}}


def test_whole_game_through_the_referee():
    """A game to 20 from a JSON Lines stream, each throw and stop checked."""
    t = iter(range(100))

    def r(player: str, face: int) -> str:
        obj = {"type": "roll", "t": next(t), "player": player}
        obj |= {"dice": [{"id": "d1", "value": face}], "thrown": ["d1"]}
        return json.dumps(obj)

    def s(player: str) -> str:
        return json.dumps({"type": "stop", "player": player})

    stream = [
        json.dumps(HEADER),
        r("Ann", 6), r("Ann", 6), s("Ann"),  # Ann 12
        r("Bob", 5), r("Bob", 1),  # Bob loses 5
        r("Ann", 3), r("Ann", 4), r("Ann", 1),  # Ann loses 7
        r("Bob", 6), r("Bob", 6), r("Bob", 4), s("Bob"),  # Bob 16
        r("Ann", 5), r("Ann", 4), s("Ann"),  # Ann 21: Bob gets his turn
        r("Bob", 2), s("Bob"),  # Bob 18: Ann wins
    ]  # fmt: skip
    out = list(referee(stream))
    decisions = [d for r_ in out for d in r_.decisions]
    assert len(decisions) == len(stream) - 1
    assert [d.shot for d in decisions] == list(range(1, len(stream)))
    final = decisions[-1]
    assert (final.over, final.winner, final.next) == (True, "Ann", None)
    assert final.score == {"Ann": 21, "Bob": 18}
    assert [d.points for d in decisions if d.points] == [
        {"Ann": 12},
        {"Bob": 16},
        {"Ann": 9},
        {"Bob": 2},
    ]
    with pytest.raises(RefereeError, match=r"line 19: .*game is over"):
        list(referee([*stream, r("Ann", 3)]))


def test_a_void_throw_cites_the_rule_it_breaks_as_the_page_numbers_it():
    _, (decision,) = play([roll("B", 3)])
    assert decision.foul is not None
    assert decision.foul.rule == "Pig rule 2 (players throw in turn, passing to the left)"
    _, decisions = play([roll("A", 4), roll("A", 1)])
    assert decisions[-1].notes == ("1 thrown: the turn's 4 points are lost (Pig rule 4)",)
