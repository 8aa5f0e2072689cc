"""Futsal: periods, the clock, the ball out of play, goals, time-outs, stoppages, the kicks from the penalty
mark. One row per rule case: its law, a short stream, options, and fields of the decision it must give
(the last one unless ``at`` says which). Pitch 20 x 40 m; Home defends y = 0 in period 1."""

from __future__ import annotations

from typing import Any

import pytest
from team_lines import A, H, check, first_half, foul, goal, kick, ko, out, play, rs, sub, tout, try_, wh

from adjudication.engine import RuleError
from adjudication.team import futsal

CENTRE = (10.0, 20.0)
DRAW_TO_SHOOTOUT = [*first_half(), ko(1300, A), wh(2500)]

CASES: list[tuple[str, str, list[Any], dict[str, Any], dict[str, Any]]] = [
    # --- periods and duration (Law 8) ---
    (
        "kick-off starts the first half",
        "8",
        [ko(5.0)],
        {},
        {
            "call": "period_start",
            "period": 1,
            "clock": 0.0,
            "restart": ("kick_off", H, CENTRE),
            "fouls": {H: 0, A: 0},
        },
    ),
    (
        "half-time at the timekeeper's whistle",
        "8",
        first_half(),
        {},
        {"call": "period_end", "period": 1, "clock": 1200.0, "next": A, "restart": ("kick_off", A)},
    ),
    (
        "the other team kicks off the second half",
        "8",
        [*first_half(), ko(1300, A)],
        {},
        {"call": "period_start", "period": 2, "clock": 0.0, "note": "Away defends the goal at y = 0"},
    ),
    (
        "the clock ends the half: the next line finds it over",
        "7, 8",
        [ko(0), out(1201.0, "touch", (0, 5), A)],
        {},
        {"at": 1, "call": "period_end", "clock": 1200.0, "note": "the clock reached 20:00.0"},
    ),
    (
        "a ball going out after the clock ran out gives nothing",
        "8",
        [ko(0), out(1201.0, "touch", (0, 5), A)],
        {},
        {"call": "period_end"},
    ),
    (
        "a whistle within the tolerance ends the half",
        "7, 8",
        [ko(0), wh(1199.5)],
        {},
        {"call": "period_end", "clock": 1199.5},
    ),
    ("half_min option", "8", [ko(0), wh(600)], {"half_min": 10}, {"call": "period_end", "clock": 600.0}),
    (
        "the winner has more goals",
        "11",
        [ko(0), goal(30, H), ko(40, A), wh(1210), ko(1300, A), wh(2500)],
        {},
        {"call": "match_end", "over": True, "winner": H, "score": {H: 1, A: 0}},
    ),
    (
        "a draw without extra time or kicks",
        "11",
        DRAW_TO_SHOOTOUT,
        {},
        {"call": "match_end", "over": True, "winner": None, "next": None},
    ),
    (
        "a draw with extra time: two periods of five minutes",
        "after 18",
        DRAW_TO_SHOOTOUT,
        {"extra_time": True},
        {
            "call": "period_end",
            "over": False,
            "note": "extra time, 2 periods of 5 minutes",
            "restart": ("kick_off", None),
        },
    ),
    (
        "extra time's first period ends at 5:00",
        "after 18",
        [*DRAW_TO_SHOOTOUT, ko(2600, H), wh(2900)],
        {"extra_time": True},
        {"call": "period_end", "period": 3, "clock": 300.0, "next": A},
    ),
    (
        "extra_min option",
        "after 18",
        [*DRAW_TO_SHOOTOUT, ko(2600, H), wh(2780)],
        {"extra_time": True, "extra_min": 3},
        {"call": "period_end", "period": 3, "clock": 180.0},
    ),
    (
        "a draw after extra time goes to kicks",
        "after 18",
        [*DRAW_TO_SHOOTOUT, ko(2600, H), wh(2900), ko(3000, A), wh(3300)],
        {"extra_time": True, "penalties": True},
        {"call": "period_end", "period": 4, "note": "kicks from the penalty mark"},
    ),
    (
        "a draw goes straight to kicks without extra time",
        "after 18",
        DRAW_TO_SHOOTOUT,
        {"penalties": True},
        {"call": "period_end", "period": 2, "note": "kicks from the penalty mark"},
    ),
    # --- the clock (Law 7) ---
    (
        "the clock stops when the ball goes out",
        "7",
        [ko(10), out(22.5, "touch", (0, 8), A)],
        {},
        {"clock": 12.5},
    ),
    (
        "the clock does not run while the ball is out",
        "7",
        [ko(0), out(10, "touch", (0, 8), A), rs(14, H, "kick_in", ready=12), out(20, "touch", (20, 8), H)],
        {},
        {"clock": 16.0},
    ),
    (
        "the clock stops at a foul and restarts with the kick",
        "7",
        [ko(0), foul(30, A), rs(40, H, "free_kick_direct"), out(45, "touch", (0, 8), A)],
        {},
        {"clock": 35.0},
    ),
    # --- ball out of play (Law 10, 16, 17, 18) ---
    (
        "over the touch line: a kick-in to the other team",
        "16",
        [ko(0), out(12.4, "touch", (-0.3, 13.2), A)],
        {},
        {"call": "restart", "restart": ("kick_in", H, (0.0, 13.2)), "next": H},
    ),
    (
        "against the ceiling: a kick-in at the nearest touch line",
        "10",
        [ko(0), out(5, "ceiling", (14.0, 9.0), H)],
        {},
        {"restart": ("kick_in", A, (20.0, 9.0)), "note": "ceiling"},
    ),
    (
        "over the goal line off an attacker: a goal clearance",
        "17",
        [ko(0), out(5, "goal", (3.0, 40.2), H)],
        {},
        {"restart": ("goal_clearance", A, None)},
    ),
    (
        "over the goal line off a defender: a corner",
        "18",
        [ko(0), out(5, "goal", (3.0, 40.2), A)],
        {},
        {"restart": ("corner", H, (0.0, 40.0))},
    ),
    (
        "the ends change at half-time: a corner at y = 0",
        "8, 18",
        [*first_half(), ko(1300, A), out(1310, "goal", (17.0, -0.1), A)],
        {},
        {"restart": ("corner", H, (20.0, 0.0))},
    ),
    # --- goals (Law 11 and the restarts) ---
    (
        "a goal counts; the conceding team kicks off",
        "11",
        [ko(0), goal(30, H, by="Home:9")],
        {},
        {
            "call": "goal",
            "points": {H: 1},
            "score": {H: 1, A: 0},
            "restart": ("kick_off", A, CENTRE),
            "clock": 30.0,
        },
    ),
    (
        "no goal directly from a kick-in",
        "16",
        [ko(0), out(5, "touch", (0, 30), A), rs(7, H, "kick_in", ready=6), goal(8, H, direct=True)],
        {},
        {"call": "goal_disallowed", "score": {H: 0, A: 0}, "restart": ("goal_clearance", A)},
    ),
    (
        "a goal from a kick-in that touched another player counts",
        "16",
        [ko(0), out(5, "touch", (0, 30), A), rs(7, H, "kick_in", ready=6), goal(8, H)],
        {},
        {"call": "goal", "score": {H: 1, A: 0}},
    ),
    (
        "an own goal straight from a kick-in: a corner",
        "16 (FIFA 15)",
        [ko(0), out(5, "touch", (0, 3), A), rs(7, H, "kick_in", ready=6), goal(8, A, direct=True)],
        {},
        {"call": "goal_disallowed", "restart": ("corner", A)},
    ),
    (
        "no goal directly from a goal clearance",
        "17",
        [ko(0), out(5, "goal", (3, 40.5), H), rs(7, A, "goal_clearance", ready=6), goal(9, A, direct=True)],
        {},
        {"call": "goal_disallowed", "restart": ("goal_clearance", H)},
    ),
    (
        "a goal directly from a corner counts",
        "18",
        [ko(0), out(5, "goal", (3, 40.5), A), rs(7, H, "corner", ready=6), goal(9, H, direct=True)],
        {},
        {"call": "goal", "score": {H: 1, A: 0}},
    ),
    (
        "a goal directly from the kick-off counts",
        "8",
        [ko(0), goal(3, H, direct=True)],
        {},
        {"call": "goal", "score": {H: 1, A: 0}},
    ),
    (
        "no goal directly from an indirect free kick",
        "12",
        [ko(0), foul(5, A, "indirect", (10, 25)), rs(8, H, "free_kick_indirect"), goal(9, H, direct=True)],
        {},
        {"call": "goal_disallowed", "restart": ("goal_clearance", A)},
    ),
    (
        "a goal directly from a direct free kick counts",
        "12",
        [ko(0), foul(5, A, xy=(10, 25)), rs(8, H, "free_kick_direct"), goal(9, H, direct=True)],
        {},
        {"call": "goal", "score": {H: 1, A: 0}},
    ),
    (
        "no goal directly from a dropped ball (FIFA)",
        "9 (FIFA 8)",
        [ko(0), wh(5, "injury", (10, 25)), rs(9, H, "dropped_ball"), goal(11, H, direct=True)],
        {},
        {"call": "goal_disallowed", "restart": ("goal_clearance", A)},
    ),
    (
        "the ball crossing while out of play is no goal",
        "10",
        [ko(0), out(5, "touch", (0, 8), A), goal(6, H)],
        {},
        {"call": "goal_disallowed", "note": "out of play", "restart": ("kick_in", H)},
    ),
    (
        "a goal after the clock ran out does not count",
        "8, 10",
        [ko(0), goal(1200.4, H)],
        {},
        {"call": "goal_disallowed", "score": {H: 0, A: 0}, "note": "after the end of the period"},
    ),
    # --- time-outs (Law 8) ---
    (
        "a time-out for the team that restarts",
        "8",
        [ko(0), out(5, "touch", (0, 8), A), tout(6, H)],
        {},
        {"call": "timeout", "player": H, "restart": ("kick_in", H), "clock": 5.0},
    ),
    (
        "asked for in play: granted at the next stoppage with the ball",
        "8",
        [ko(0), tout(3, H), out(5, "touch", (0, 8), A)],
        {},
        {"call": "timeout", "player": H},
    ),
    (
        "asked for when the other team restarts: it waits",
        "8",
        [ko(0), tout(3, H), out(5, "touch", (0, 8), H)],
        {},
        {"call": "restart", "restart": ("kick_in", A)},
    ),
    (
        "one time-out per half",
        "8",
        [
            ko(0),
            out(5, "touch", (0, 8), A),
            tout(6, H),
            rs(67, H, "kick_in", ready=66),
            out(70, "touch", (0, 8), A),
            tout(71, H),
        ],
        {},
        {"call": "timeout_refused", "note": "one per half"},
    ),
    (
        "a new time-out in the second half",
        "8",
        [
            ko(0),
            out(5, "touch", (0, 8), A),
            tout(6, H),
            rs(67, H, "kick_in", ready=66),
            wh(1262),
            ko(1300, A),
            out(1305, "touch", (0, 8), A),
            tout(1306, H),
        ],
        {},
        {"call": "timeout", "period": 2},
    ),
    (
        "no time-out in extra time",
        "8 decision",
        [*DRAW_TO_SHOOTOUT, ko(2600, H), out(2605, "touch", (0, 8), A), tout(2606, H)],
        {"extra_time": True},
        {"call": "timeout_refused", "note": "extra time"},
    ),
    # --- stoppages (Law 9) ---
    (
        "play stopped for an injury: a dropped ball where the ball was",
        "9",
        [ko(0), wh(8, "injury", (12.0, 15.0))],
        {},
        {"call": "stoppage", "restart": ("dropped_ball", None, (12.0, 15.0)), "next": None, "clock": 8.0},
    ),
    (
        "a dropped ball in a penalty area goes to the area line",
        "9",
        [ko(0), wh(8, "stoppage", (10.0, 2.0))],
        {},
        {"restart": ("dropped_ball", None, (10.0, 6.0))},
    ),
    # --- kicks from the penalty mark (procedures after Law 18) ---
    (
        "kicks: decided early when the other cannot catch up",
        "after 18",
        [*DRAW_TO_SHOOTOUT, *[kick(2600 + i, team, good=team == H) for i in range(3) for team in (H, A)]],
        {"penalties": True},
        {
            "call": "shootout_kick",
            "over": True,
            "winner": H,
            "shootout": {H: 3, A: 0},
            "score": {H: 0, A: 0},
            "period": 3,
        },
    ),
    (
        "kicks: one more each after five",
        "after 18",
        [
            *DRAW_TO_SHOOTOUT,
            *[kick(2600 + i, team) for i in range(5) for team in (A, H)],
            kick(2610, A),
            kick(2611, H, good=False),
        ],
        {"penalties": True},
        {"over": True, "winner": A, "shootout": {H: 5, A: 6}},
    ),
    (
        "kicks: level after a round of sudden death goes on",
        "after 18",
        [*DRAW_TO_SHOOTOUT, *[kick(2600 + i, team) for i in range(6) for team in (A, H)]],
        {"penalties": True},
        {"over": False, "shootout": {H: 6, A: 6}},
    ),
]


@pytest.mark.parametrize(
    ("law", "lines", "options", "want"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_rule_cases(law: str, lines: list[Any], options: dict[str, Any], want: dict[str, Any]) -> None:
    _state, decisions = play(lines, **options)
    want = dict(want)
    check(decisions[want.pop("at", -1)], want)


ERRORS = [
    ("the wrong team kicks off the second half", [*first_half(), ko(1300, H)], {}, "Away kicks off period 2"),
    (
        "a period-end whistle far from the clock's end",
        [ko(0), wh(900)],
        {},
        "05:00.0 of the period still to play",
    ),
    ("a restart while the ball is in play", [ko(0), rs(5, H, "kick_in")], {}, "the ball is in play now"),
    ("the wrong restart", [ko(0), out(5, "touch", (0, 8), A), rs(7, H, "corner")], {}, "kick_in by Home"),
    (
        "the wrong team restarts",
        [ko(0), out(5, "touch", (0, 8), A), rs(7, A, "kick_in")],
        {},
        "got a kick_in by Away",
    ),
    ("a rugby restart", [ko(0), out(5, "touch", (0, 8), A), rs(7, H, "scrum")], {}, "is a rugby restart"),
    (
        "kicks out of turn",
        [*DRAW_TO_SHOOTOUT, kick(2600, H), kick(2601, H)],
        {"penalties": True},
        "it is Away's kick",
    ),
    ("a kick at goal in play", [ko(0), kick(5, H)], {}, "kicks from the penalty mark, which are not on now"),
    ("a line after the match", [*DRAW_TO_SHOOTOUT, ko(2600, H)], {}, "the match is over"),
    ("a try line", [ko(0), try_(5, H)], {}, "futsal takes no try lines"),
    ("a goal before the kick-off", [goal(5, H)], {}, "before the kick-off"),
    ("a team not in the match", [ko(0, "Visitors")], {}, "'Visitors' is not a team of this match"),
]


@pytest.mark.parametrize(("lines", "options", "message"), [c[1:] for c in ERRORS], ids=[c[0] for c in ERRORS])
def test_unusable_lines(lines: list[Any], options: dict[str, Any], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        play(lines, **options)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"half_min": 0}, "futsal option half_min must be an integer >= 1 \\(got 0\\)"),
        ({"half_min": 12.5}, "half_min must be an integer"),
        ({"extra_time": "yes"}, "extra_time must be true or false"),
        ({"pitch_m": [30, 40]}, "pitch_m must be \\[width_m, length_m\\] with width 15..25"),
        ({"pitch_m": [20]}, "pitch_m must be"),
        ({"quarters": 4}, "futsal has no option 'quarters'; its options: half_min"),
    ],
)
def test_bad_options(options: dict[str, Any], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        play([], **options)


def test_a_ball_out_while_play_is_stopped_gives_no_decision() -> None:
    _, decisions = play([ko(0), out(5, "touch", (0, 8), A), out(6, "goal", (3, 40.5), A)])
    assert [d.call for d in decisions] == ["period_start", "restart"]


def test_a_restart_taken_as_due_gives_no_decision_and_starts_the_clock() -> None:
    state, decisions = play([ko(0), out(5, "touch", (0, 8), A), rs(8, H, "kick_in", ready=7)])
    assert len(decisions) == 2
    assert state.clock.running and state.clock.at(10) == pytest.approx(7.0)


def test_a_dropped_ball_may_be_played_by_either_team() -> None:
    for team in (H, A):
        state, _ = play([ko(0), wh(8, "injury", (12.0, 15.0)), rs(9, team, "dropped_ball")])
        assert state.phase is futsal.Phase.PLAY


def test_substitutions_are_free_and_give_no_decision() -> None:
    _, decisions = play([ko(0), sub(5, H, "Home:3", "Home:12"), sub(6, A, "Away:2", "Away:9")])
    assert len(decisions) == 1


def test_the_final_whistle_after_the_clock_ended_the_match_is_taken_quietly() -> None:
    lines = [*first_half(), ko(1300, A), out(2501, "touch", (0, 8), A), wh(2501.5)]
    state, decisions = play(lines)
    assert state.over and decisions[-1].call == "match_end" and decisions[-1].clock == 1200.0


def test_extra_time_kick_off_may_set_the_ends() -> None:
    lines = [*DRAW_TO_SHOOTOUT, ko(2600, A, defends_y0=A), out(2605, "goal", (3, -0.2), A)]
    _, decisions = play(lines, extra_time=True)
    assert decisions[-1].restart is not None and decisions[-1].restart.kind == "corner"
