"""Futsal cautions and sending-offs: the team playing short for two minutes of playing time or until it
concedes (Law 12, decision, with its four cases), both teams short, a match abandoned below three players
(Law 3, decision 2), substitutes (clarifications 2006), misconduct while the ball is out of play."""

from __future__ import annotations

from typing import Any

import pytest
from team_lines import A, H, check, foul, goal, ko, out, play, rs, sub, wh

from adjudication.engine import RuleError


def red(t: float, team: str, number: int = 4, xy: tuple[float, float] = (10.0, 20.0)) -> list[Any]:
    """A red card for a foul in midfield and the free kick taken 1 s later (the clock stops for 1 s)."""
    kicker = A if team == H else H
    return [
        foul(t, team, card="red", player=f"{team}:{number}", xy=xy),
        rs(t + 1, kicker, "free_kick_direct"),
    ]


CASES: list[tuple[str, str, list[Any], dict[str, Any]]] = [
    (
        "a caution does not reduce the team",
        "12",
        [ko(0), foul(5, A, card="yellow")],
        {"note": "Away:4 cautioned", "on_court": {H: 5, A: 5}},
    ),
    (
        "a second caution is a sending-off",
        "12",
        [ko(0), foul(5, A, card="yellow"), rs(6, H, "free_kick_direct"), foul(10, A, card="yellow")],
        {"note": "sent off for a second caution", "on_court": {H: 5, A: 4}},
    ),
    (
        "cautions of different players do not add up",
        "12",
        [
            ko(0),
            foul(5, A, card="yellow"),
            rs(6, H, "free_kick_direct"),
            foul(10, A, card="yellow", player="Away:5"),
        ],
        {"on_court": {H: 5, A: 5}},
    ),
    (
        "a red card: the team plays one short",
        "12",
        [ko(0), foul(5, A, card="red")],
        {"note": "sent off for a red card", "on_court": {H: 5, A: 4}},
    ),
    (
        "short for two minutes of playing time...",
        "12 decision",
        [ko(0), *red(5, A), out(125.5, "touch", (0, 8), A)],
        {"on_court": {H: 5, A: 4}, "clock": 124.5},
    ),
    (
        "... and whole again once they are up",
        "12 decision",
        [ko(0), *red(5, A), out(127, "touch", (0, 8), A)],
        {"on_court": {H: 5, A: 5}, "clock": 126.0},
    ),
    (
        "time with the ball out of play does not count",
        "12 decision, 7",
        [ko(0), foul(5, A, card="red"), rs(65, H, "free_kick_direct"), out(130, "touch", (0, 8), A)],
        {"on_court": {H: 5, A: 4}, "clock": 70.0},
    ),
    (
        "the two minutes run on across half-time",
        "12 decision",
        [ko(0), *red(1150, A), wh(1201), ko(1300, A), out(1369, "touch", (0, 8), A)],
        {"on_court": {H: 5, A: 4}},
    ),
    (
        "... and end in the second half",
        "12 decision",
        [ko(0), *red(1150, A), wh(1201), ko(1300, A), out(1371, "touch", (0, 8), A)],
        {"on_court": {H: 5, A: 5}},
    ),
    (
        "5 v 4, the five score: the four are completed",
        "12 decision (case 1)",
        [ko(0), *red(5, A), goal(20, H)],
        {"call": "goal", "on_court": {H: 5, A: 5}, "note": "one player may come on"},
    ),
    (
        "5 v 4, the four score: they stay short",
        "12 decision (FIFA)",
        [ko(0), *red(5, A), goal(20, A)],
        {"call": "goal", "on_court": {H: 5, A: 4}},
    ),
    (
        "4 v 4 and a goal: both stay short",
        "12 decision (case 2)",
        [ko(0), *red(5, H), *red(10, A), goal(20, H)],
        {"on_court": {H: 4, A: 4}},
    ),
    (
        "5 v 3, the five score: the three add one player only",
        "12 decision (case 3)",
        [ko(0), *red(5, A), *red(10, A, 5), goal(20, H)],
        {"on_court": {H: 5, A: 4}},
    ),
    (
        "4 v 3, the four score: the three add one",
        "12 decision (case 3)",
        [ko(0), *red(5, H), *red(10, A), *red(15, A, 5), goal(20, H)],
        {"on_court": {H: 4, A: 4}},
    ),
    (
        "3 v 3 and a goal: both stay short",
        "12 decision (case 4)",
        [ko(0), *red(5, H), *red(7, H, 5), *red(10, A), *red(12, A, 5), goal(20, H)],
        {"on_court": {H: 3, A: 3}},
    ),
    (
        "the completed player is the one sent off first",
        "12 decision",
        [ko(0), *red(5, A), *red(60, A, 5), goal(100, H), out(127, "touch", (0, 8), A)],
        {"on_court": {H: 5, A: 4}},
    ),
    (
        "fewer than three players: the match is abandoned",
        "3 decision 2",
        [ko(0), *red(5, A), *red(7, A, 5), foul(9, A, card="red", player="Away:6")],
        {"call": "abandoned", "over": True, "winner": None, "on_court": {H: 5, A: 2}},
    ),
    (
        "a sent-off player may not come back",
        "12 decision",
        [ko(0), *red(5, A), out(20, "touch", (0, 8), A), sub(21, A, "Away:9", "Away:4")],
        {"call": "substitution_refused", "note": "may not return"},
    ),
    (
        "a substitute's second caution: sent off, the team stays whole",
        "clarif. 3",
        [
            ko(0),
            foul(5, A, "misconduct", (10.0, 20.0), card="yellow", player="Away:12", bench=True),
            rs(6, H, "free_kick_indirect"),
            foul(9, A, "misconduct", (10.0, 20.0), card="yellow", player="Away:12", bench=True),
        ],
        {"on_court": {H: 5, A: 5}, "note": "his team stays whole"},
    ),
    (
        "a substitute's red card: the team stays whole",
        "clarif. 12",
        [ko(0), foul(5, A, xy=(10.0, 20.0), card="red", player="Away:12", bench=True)],
        {"on_court": {H: 5, A: 5}, "restart": ("free_kick_direct", H)},
    ),
    (
        "a player on the ground's second caution at a substitution: short",
        "clarif. 3",
        [
            ko(0),
            foul(5, A, card="yellow"),
            rs(6, H, "free_kick_direct"),
            foul(9, A, "misconduct", (10.0, 20.0), card="yellow"),
        ],
        {"on_court": {H: 5, A: 4}, "call": "misconduct"},
    ),
    (
        "a caution while the ball is out of play: the restart stands",
        "12",
        [ko(0), out(5, "touch", (0, 8), A), foul(6, A, "misconduct", None, card="yellow")],
        {"call": "caution", "restart": ("kick_in", H, (0.0, 8.0)), "next": H},
    ),
    (
        "a sending-off while the ball is out of play",
        "12",
        [ko(0), out(5, "touch", (0, 8), A), foul(6, H, "misconduct", None, card="red")],
        {"call": "send_off", "restart": ("kick_in", H), "on_court": {H: 4, A: 5}},
    ),
    (
        "misconduct in play: an indirect free kick",
        "12",
        [ko(0), foul(5, A, "misconduct", (12.0, 18.0), card="yellow")],
        {"call": "misconduct", "restart": ("free_kick_indirect", H, (12.0, 18.0)), "fouls": {H: 0, A: 0}},
    ),
    (
        "a sixth foul with a red card: the kick and the team short",
        "12, 14",
        [
            ko(0),
            *[x for k in range(5) for x in (foul(10 + 10 * k, A), rs(12 + 10 * k, H, "free_kick_direct"))],
            foul(70, A, card="red", xy=(10.0, 10.0)),
        ],
        {"call": "sixth_foul", "fouls": {H: 0, A: 6}, "on_court": {H: 5, A: 4}},
    ),
]


@pytest.mark.parametrize(("law", "lines", "want"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rule_cases(law: str, lines: list[Any], want: dict[str, Any]) -> None:
    _state, decisions = play(lines)
    want = dict(want)
    check(decisions[want.pop("at", -1)], want)


def test_a_card_for_a_player_already_sent_off_is_refused() -> None:
    with pytest.raises(RuleError, match="Away:4 was sent off"):
        play([ko(0), *red(5, A), foul(20, A, card="yellow")])


def test_a_misconduct_line_needs_a_card() -> None:
    with pytest.raises(RuleError, match="needs a card"):
        play([ko(0), out(5, "touch", (0, 8), A), foul(6, A, "misconduct", None)])


def test_the_abandoned_match_takes_no_more_lines() -> None:
    lines = [
        ko(0),
        *red(5, A),
        *red(7, A, 5),
        foul(9, A, card="red", player="Away:6"),
        rs(10, H, "free_kick_direct"),
    ]
    with pytest.raises(RuleError, match="the match is over"):
        play(lines)
