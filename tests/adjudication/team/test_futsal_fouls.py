"""Futsal fouls: free kicks and penalties, the accumulated fouls and the sixth foul, the four seconds, the
distance at restarts, added time for a kick. One row per rule case (law, stream, options, fields of the last
decision). Away defends y = 40 in period 1: its penalty area is near y = 40, its second penalty mark
(10, 30); Home's goal is at y = 0."""

from __future__ import annotations

from typing import Any

import pytest
from team_lines import A, H, check, first_half, foul, fouls_by, goal, ko, out, play, rs, sub, tout, wh

from adjudication.engine import RuleError
from adjudication.team.futsal import Phase

PENALTY = [ko(0), foul(5, A, xy=(10.0, 38.0)), rs(6, H, "penalty")]  # Home's penalty taken at t = 6
FIVE_AWAY = [
    ko(0),
    *fouls_by(A, 5, 10, xy=(10.0, 10.0)),
    rs(52, H, "free_kick_direct"),
]  # clock = t - 10 after

CASES: list[tuple[str, str, list[Any], dict[str, Any]]] = [
    # --- free kicks and penalties (Law 12, 13, 15) ---
    (
        "a direct foul: a direct free kick where it happened",
        "12",
        [ko(0), foul(5, A, xy=(12.0, 18.0))],
        {
            "call": "foul",
            "foul": "direct",
            "restart": ("free_kick_direct", H, (12.0, 18.0)),
            "fouls": {H: 0, A: 1},
            "next": H,
            "clock": 5.0,
        },
    ),
    (
        "deliberate handling is an accumulated foul",
        "12",
        [ko(0), foul(5, A, "handling", (12.0, 18.0))],
        {"foul": "handling", "fouls": {H: 0, A: 1}, "restart": ("free_kick_direct", H)},
    ),
    (
        "a direct foul in the offender's own penalty area: a penalty",
        "12, 15",
        [ko(0), foul(5, A, xy=(11.0, 37.0))],
        {"call": "penalty", "restart": ("penalty", H, (10.0, 34.0)), "fouls": {H: 0, A: 1}},
    ),
    (
        "on the penalty-area line is inside the area",
        "1, 15",
        [ko(0), foul(5, A, xy=(10.0, 34.0))],
        {"call": "penalty"},
    ),
    (
        "beside the arc is outside the area",
        "1, 12",
        [ko(0), foul(5, A, xy=(17.0, 36.0))],
        {"call": "foul", "restart": ("free_kick_direct", H, (17.0, 36.0))},
    ),
    (
        "an attacker's foul in the other area: a free kick from anywhere in it",
        "12, clarif. 9",
        [ko(0), foul(5, H, xy=(10.0, 37.0))],
        {"restart": ("free_kick_direct", A, (10.0, 37.0)), "note": "anywhere"},
    ),
    (
        "a 15-16 m wide pitch has 4 m areas",
        "1 decision 1",
        [ko(0), foul(5, A, xy=(7.75, 35.0))],
        {"options": {"pitch_m": [15.5, 40]}, "call": "foul"},
    ),
    (
        "... and on a 20 m pitch the same place is in the 6 m area",
        "1",
        [ko(0), foul(5, A, xy=(10.0, 35.0))],
        {"call": "penalty"},
    ),
    (
        "an indirect foul: an indirect free kick, not counted",
        "12",
        [ko(0), foul(5, A, "indirect", (12.0, 18.0))],
        {"restart": ("free_kick_indirect", H, (12.0, 18.0)), "fouls": {H: 0, A: 0}, "foul": "indirect"},
    ),
    (
        "an indirect free kick in the attacked area goes to the area line",
        "12, 13",
        [ko(0), foul(5, A, "indirect", (10.0, 38.0))],
        {"restart": ("free_kick_indirect", H, (10.0, 34.0))},
    ),
    (
        "... to the nearest point of the arc",
        "12, 13",
        [ko(0), foul(5, A, "indirect", (16.0, 40.0))],
        {"restart": ("free_kick_indirect", H, (17.58, 40.0))},
    ),
    (
        "an indirect free kick in the kicking team's own area: anywhere in it",
        "clarif. 9",
        [ko(0), foul(5, H, "indirect", (10.0, 38.0))],
        {"restart": ("free_kick_indirect", A, (10.0, 38.0))},
    ),
    (
        "a foul needs the ball in play",
        "12",
        [ko(0), out(5, "touch", (0, 8), A), foul(6, A)],
        {"error": "misconduct"},
    ),
    ("a foul in play needs its place", "12", [ko(0), foul(5, A, xy=None)], {"error": "foul.xy_m is needed"}),
    # --- accumulated fouls (Law 14) ---
    (
        "the fifth accumulated foul is signalled and still has a wall",
        "7, 14",
        FIVE_AWAY[:-1],
        {
            "call": "foul",
            "fouls": {H: 0, A: 5},
            "note": "fifth accumulated foul",
            "restart": ("free_kick_direct", H),
        },
    ),
    (
        "the sixth foul, in the opponents' half: the second penalty mark",
        "14",
        [*FIVE_AWAY, foul(70, A, xy=(10.0, 10.0))],
        {
            "call": "sixth_foul",
            "restart": ("second_penalty_mark", H, (10.0, 30.0)),
            "fouls": {H: 0, A: 6},
            "note": "without a wall",
        },
    ),
    (
        "the sixth foul, in its own half beyond 10 m: the second penalty mark",
        "14",
        [*FIVE_AWAY, foul(70, A, xy=(10.0, 29.0))],
        {"call": "sixth_foul", "restart": ("second_penalty_mark", H)},
    ),
    (
        "the sixth foul within 10 m of its goal: the mark or the place",
        "14",
        [*FIVE_AWAY, foul(70, A, xy=(3.0, 33.0))],
        {
            "restart": ("second_penalty_mark", H, (10.0, 30.0)),
            "note": "from the second penalty mark or from the place",
        },
    ),
    (
        "the seventh foul has no wall either",
        "14",
        [
            *FIVE_AWAY,
            foul(70, A, xy=(10.0, 10.0)),
            rs(75, H, "second_penalty_mark"),
            foul(80, A, xy=(10.0, 10.0)),
        ],
        {"call": "sixth_foul", "fouls": {H: 0, A: 7}},
    ),
    (
        "the sixth foul in its own penalty area: a penalty",
        "14, 15",
        [*FIVE_AWAY, foul(70, A, xy=(10.0, 37.0))],
        {"call": "penalty", "restart": ("penalty", H, (10.0, 34.0)), "fouls": {H: 0, A: 6}},
    ),
    (
        "the other team's count is its own",
        "14",
        [*FIVE_AWAY, foul(70, H, xy=(10.0, 30.0))],
        {"call": "foul", "fouls": {H: 1, A: 5}},
    ),
    (
        "the count starts again in the second half",
        "14",
        [*FIVE_AWAY, wh(1210), ko(1300, A), foul(1310, A, xy=(10.0, 30.0))],
        {"call": "foul", "fouls": {H: 0, A: 1}},
    ),
    (
        "extra time goes on with the second half's count",
        "14",
        [
            *first_half(),
            ko(1300, A),
            *fouls_by(A, 5, 1310),
            rs(1352, H, "free_kick_direct"),
            wh(2510),
            ko(2600, H),
            foul(2605, A, xy=(10.0, 20.0)),
        ],
        {
            "options": {"extra_time": True},
            "call": "sixth_foul",
            "period": 3,
            "fouls": {H: 0, A: 6},
            "restart": ("second_penalty_mark", H, (10.0, 30.0)),
        },
    ),
    (
        "advantage: the foul counts and play goes on",
        "clarif. 14",
        [ko(0), foul(5, A, advantage=True)],
        {"call": "foul", "fouls": {H: 0, A: 1}, "restart": None, "next": None, "note": "advantage"},
    ),
    (
        "advantage: a foul in the same attack is the sixth",
        "clarif. 14 (example)",
        [
            ko(0),
            *fouls_by(A, 4, 10, xy=(10.0, 10.0)),
            rs(44, H, "free_kick_direct"),
            foul(50, A, advantage=True),
            foul(52, A, xy=(10.0, 10.0)),
        ],
        {"call": "sixth_foul", "fouls": {H: 0, A: 6}},
    ),
    # --- added time for a kick (Law 14, 15) ---
    (
        "a sixth-foul kick due at the end: time is added",
        "14",
        [*FIVE_AWAY, foul(1209.5, A, xy=(10.0, 10.0)), wh(1211)],
        {"call": "time_added", "clock": 1199.5, "restart": ("second_penalty_mark", H), "over": False},
    ),
    (
        "a goal from the kick in added time counts, then the half ends",
        "14",
        [
            *FIVE_AWAY,
            foul(1209.5, A, xy=(10.0, 10.0)),
            wh(1211),
            rs(1215, H, "second_penalty_mark"),
            goal(1216.5, H),
        ],
        {"at": -2, "call": "goal", "score": {H: 1, A: 0}},
    ),
    (
        "... and the half ends with it",
        "14",
        [
            *FIVE_AWAY,
            foul(1209.5, A, xy=(10.0, 10.0)),
            wh(1211),
            rs(1215, H, "second_penalty_mark"),
            goal(1216.5, H),
        ],
        {"call": "period_end", "period": 1, "clock": 1200.0, "next": A},
    ),
    (
        "a penalty in added time, missed and out: the half ends",
        "15",
        [
            ko(0),
            foul(1199.8, A, xy=(10.0, 38.0)),
            wh(1200.5),
            rs(1205, H, "penalty"),
            out(1206, "goal", (13, 40.3), H),
        ],
        {"call": "period_end", "clock": 1200.0},
    ),
    (
        "a penalty due with no time left is completed without the whistle",
        "15",
        [ko(0), foul(1199.8, A, xy=(10.0, 38.0)), rs(1205, H, "penalty"), goal(1205.6, H)],
        {"at": -2, "call": "goal", "score": {H: 1, A: 0}},
    ),
    # --- four seconds (Law 12, 13, 16, 17, 18) ---
    (
        "a kick-in more than four seconds after the ball is ready: to the other team",
        "16",
        [ko(0), out(5, "touch", (0, 8), A), rs(12, H, "kick_in", ready=7.5)],
        {"call": "four_seconds", "foul": "four_seconds", "restart": ("kick_in", A, (0.0, 8.0)), "clock": 5.0},
    ),
    (
        "a kick-in without ready_t is counted from the ball out",
        "16",
        [ko(0), out(5, "touch", (0, 8), A), rs(10, H, "kick_in")],
        {"call": "four_seconds", "restart": ("kick_in", A)},
    ),
    (
        "a late goal clearance: an indirect free kick on the area line",
        "17",
        [ko(0), out(5, "goal", (3, 40.5), H), rs(12, A, "goal_clearance", (10.0, 37.0), ready=7)],
        {"call": "four_seconds", "restart": ("free_kick_indirect", H, (10.0, 34.0))},
    ),
    (
        "a late corner: an indirect free kick to the defenders from the corner",
        "18",
        [ko(0), out(5, "goal", (3, 40.5), A), rs(12, H, "corner", ready=7)],
        {"call": "four_seconds", "restart": ("free_kick_indirect", A, (0.0, 40.0))},
    ),
    (
        "a late free kick: an indirect free kick to the other team there",
        "13",
        [ko(0), foul(5, A, xy=(12.0, 18.0)), rs(12, H, "free_kick_direct", ready=7)],
        {"call": "four_seconds", "restart": ("free_kick_indirect", A, (12.0, 18.0))},
    ),
    (
        "a late second-penalty-mark kick",
        "13, 14",
        [*FIVE_AWAY, foul(70, A, xy=(10.0, 10.0)), rs(80, H, "second_penalty_mark", ready=75)],
        {"call": "four_seconds", "restart": ("free_kick_indirect", A, (10.0, 30.0))},
    ),
    (
        "a goalkeeper holding the ball more than four seconds",
        "12",
        [ko(0), foul(5, A, "four_seconds", (10.0, 38.0))],
        {"call": "four_seconds", "restart": ("free_kick_indirect", H, (10.0, 34.0)), "fouls": {H: 0, A: 0}},
    ),
    (
        "the timekeeper's four seconds at a kick-in",
        "16",
        [ko(0), out(5, "touch", (0, 8), A), foul(10, H, "four_seconds", None)],
        {"restart": ("kick_in", A, (0.0, 8.0))},
    ),
    (
        "after a time-out the four seconds count from its end",
        "8, 16",
        [ko(0), out(5, "touch", (0, 8), A), tout(6, H), rs(71, H, "kick_in")],
        {"call": "four_seconds", "note": "5.0 s"},
    ),
    (
        "four seconds by the team not restarting",
        "16",
        [ko(0), out(5, "touch", (0, 8), A), foul(10, A, "four_seconds", None)],
        {"error": "fits no restart due"},
    ),
    # --- the distance at restarts (Law 8, 13, 16, 18) ---
    (
        "a player too near a free kick: retaken",
        "13",
        [ko(0), foul(5, A, xy=(12.0, 18.0)), foul(8, A, "distance", None, card="yellow", player="Away:5")],
        {"call": "retake", "restart": ("free_kick_direct", H, (12.0, 18.0)), "note": "Away:5 cautioned"},
    ),
    (
        "too near a kick-in as it is taken: retaken",
        "16",
        [ko(0), out(5, "touch", (0, 8), A), rs(8, H, "kick_in", ready=7), foul(8.5, A, "distance", None)],
        {"call": "retake", "restart": ("kick_in", H, (0.0, 8.0)), "clock": 5.5},
    ),
    (
        "too near the kick-off: retaken",
        "8",
        [ko(0), foul(0.4, A, "distance", None)],
        {"call": "retake", "restart": ("kick_off", H)},
    ),
    (
        "the distance binds the other team",
        "13",
        [ko(0), foul(5, A, xy=(12.0, 18.0)), foul(8, H, "distance", None)],
        {"error": "binds Away"},
    ),
    (
        "defenders in the area at a penalty that scores: the goal stands",
        "15",
        [*PENALTY, foul(6.1, A, "distance", None), goal(6.5, H)],
        {"call": "goal", "score": {H: 1, A: 0}, "note": "the goal stands"},
    ),
    (
        "defenders in the area at a penalty that misses: retaken",
        "15",
        [*PENALTY, foul(6.1, A, "distance", None), out(6.5, "goal", (14.0, 40.3), H)],
        {"call": "retake", "restart": ("penalty", H, (10.0, 34.0))},
    ),
    (
        "a kicker's team-mate in the area and a goal: retaken",
        "15",
        [*PENALTY, foul(6.1, H, "distance", None), goal(6.5, H)],
        {"call": "retake", "score": {H: 0, A: 0}, "restart": ("penalty", H)},
    ),
    (
        "a kicker's team-mate in the area and no goal: a free kick to the defenders",
        "15, clarif. 15",
        [*PENALTY, foul(6.1, H, "distance", None), out(6.5, "goal", (14.0, 40.3), H)],
        {"call": "foul", "restart": ("free_kick_indirect", A, (10.0, 34.0))},
    ),
    (
        "the offence at the kick waits for its outcome",
        "15",
        [*PENALTY, foul(6.1, A, "distance", None)],
        {"call": "foul", "restart": None, "note": "the kick's outcome decides"},
    ),
    (
        "defenders ahead of the ball at a 10 m kick that scores: the goal stands",
        "14",
        [
            *FIVE_AWAY,
            foul(70, A, xy=(10.0, 10.0)),
            rs(74, H, "second_penalty_mark"),
            foul(74.2, A, "distance", None),
            goal(75, H),
        ],
        {"call": "goal", "score": {H: 1, A: 0}},
    ),
    (
        "a distance foul belongs to the restart just taken",
        "13",
        [
            ko(0),
            out(5, "touch", (0, 8), A),
            rs(8, H, "kick_in", ready=7),
            sub(9, H, "Home:3", "Home:12"),
            foul(9.5, A, "distance", None),
        ],
        {"error": "none is being taken"},
    ),
]


@pytest.mark.parametrize(("law", "lines", "want"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rule_cases(law: str, lines: list[Any], want: dict[str, Any]) -> None:
    want = dict(want)
    options = want.pop("options", {})
    if "error" in want:
        with pytest.raises(RuleError, match=want["error"]):
            play(lines, **options)
        return
    _state, decisions = play(lines, **options)
    check(decisions[want.pop("at", -1)], want)


def test_the_sixth_foul_choice_accepts_the_place_of_the_foul() -> None:
    lines = [*FIVE_AWAY, foul(70, A, xy=(3.0, 33.0)), rs(74, H, "free_kick_direct")]
    state, _decisions = play(lines)
    assert state.phase is Phase.PLAY and state.taken.xy_m == (3.0, 33.0)
    lines = [*FIVE_AWAY, foul(70, A, xy=(10.0, 10.0)), rs(74, H, "free_kick_direct")]
    with pytest.raises(
        RuleError, match="the restart due is second_penalty_mark by Home; got a free_kick_direct"
    ):
        play(lines)


def test_a_kick_within_four_seconds_and_a_free_kick_without_ready_t_give_no_decision() -> None:
    _, decisions = play([ko(0), out(5, "touch", (0, 8), A), rs(11, H, "kick_in", ready=7.5)])
    assert len(decisions) == 2
    _, decisions = play([ko(0), foul(5, A, xy=(12.0, 18.0)), rs(40, H, "free_kick_direct")])
    assert len(decisions) == 2


def test_a_penalty_has_no_four_second_limit() -> None:
    state, decisions = play([ko(0), foul(5, A, xy=(10.0, 38.0)), rs(30, H, "penalty", ready=6)])
    assert len(decisions) == 2 and state.phase is Phase.PLAY


def test_a_mid_half_penalty_does_not_extend_the_half() -> None:
    lines = [ko(0), foul(600, A, xy=(10.0, 38.0)), rs(605, H, "penalty"), out(1206, "touch", (0, 8), A)]
    _, decisions = play(lines)
    assert [d.call for d in decisions[-1:]] == ["period_end"] and decisions[-1].clock == 1200.0
