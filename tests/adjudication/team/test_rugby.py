"""Mini-rugby (rugby-5, rugby-7): one row per rule case, with the paragraph of the school mini-rugby rules or
the World Rugby law (2018 numbering, sevens variations) it applies. Home defends y = 0 in the first half."""

from __future__ import annotations

from typing import Any

import pytest
from team_lines import A, H, check, foul, goal, kick, ko, match, out, play, rs, sub, try_, wh

from adjudication.engine import RuleError
from adjudication.team import rugby, rugby_5, rugby_7

R5, R7 = "rugby-5", "rugby-7"
SCORED = [ko(0), try_(60, H)]  # Home's try at 1:00, its conversion due
CONVERTED = [*SCORED, kick(90, H, "conversion")]

CASES: list[tuple[str, str, str, list[Any], dict[str, Any]]] = [
    # --- teams, duration, kick-off (text: Число игроков, Продолжительность игры, Начало игры) ---
    (
        "rugby-5 kicks off with the opponents 3 m away",
        "Начало игры",
        R5,
        [ko(0)],
        {
            "call": "period_start",
            "period": 1,
            "on_court": {H: 5, A: 5},
            "note": "at least 3 m away",
            "restart": ("kick_off", H, (10.0, 20.0)),
        },
    ),
    (
        "rugby-7 kicks off with the opponents 10 m away",
        "Начало игры",
        R7,
        [ko(0)],
        {"on_court": {H: 7, A: 7}, "note": "at least 10 m away", "restart": ("kick_off", H, (23.5, 28.0))},
    ),
    (
        "rugby-5 halves are 10 minutes, then a 5-minute break",
        "Продолжительность",
        R5,
        [ko(0), wh(600)],
        {"call": "period_end", "clock": 600.0, "note": "5-minute break", "next": A},
    ),
    (
        "rugby-7 halves are 15 minutes, then a 10-minute break",
        "Продолжительность",
        R7,
        [ko(0), wh(900)],
        {"call": "period_end", "clock": 900.0, "note": "10-minute break"},
    ),
    (
        "the other team kicks off the second half",
        "WR 12",
        R5,
        [ko(0), wh(600), ko(900, A)],
        {"call": "period_start", "period": 2},
    ),
    (
        "the half ends at the whistle once time is up, not at the clock",
        "WR 5",
        R5,
        [ko(0), out(601, "touch", (0, 30), A), wh(604)],
        {"call": "period_end", "clock": 600.0},
    ),
    (
        "the match goes to the side with more points",
        "WR 8",
        R5,
        [*CONVERTED, rs(100, H, "restart_kick"), wh(600), ko(900, A), wh(1500)],
        {"call": "match_end", "over": True, "winner": H, "score": {H: 7, A: 0}},
    ),
    (
        "a draw stands (the text has no extra time)",
        "Продолжительность",
        R7,
        [ko(0), wh(900), ko(1500, A), wh(2400)],
        {"call": "match_end", "over": True, "winner": None},
    ),
    # --- scoring (World Rugby Law 8) and the restart after a score (text: Возобновление игры) ---
    (
        "a try is five points and a conversion is due",
        "WR 8",
        R5,
        SCORED,
        {"call": "try", "points": {H: 5}, "score": {H: 5, A: 0}, "awaiting": ("kick_at_goal",), "next": H},
    ),
    (
        "a conversion is two points; the scorers restart with a kick",
        "WR 8; Возобновление игры",
        R5,
        CONVERTED,
        {
            "call": "conversion",
            "points": {H: 2},
            "score": {H: 7, A: 0},
            "restart": ("restart_kick", H),
            "next": H,
        },
    ),
    (
        "a missed conversion: the restart kick all the same",
        "WR 8",
        R5,
        [*SCORED, kick(90, H, "conversion", False)],
        {"call": "kick_missed", "score": {H: 5, A: 0}, "restart": ("restart_kick", H)},
    ),
    (
        "option restart_by conceders",
        "WR 12 (fifteens)",
        R5,
        CONVERTED,
        {"options": {"restart_by": "conceders"}, "restart": ("restart_kick", A)},
    ),
    (
        "a penalty goal is three points",
        "WR 8, 20",
        R7,
        [ko(0), foul(30, A, xy=(20.0, 40.0)), kick(40, H, "penalty")],
        {"call": "penalty_goal", "points": {H: 3}, "score": {H: 3, A: 0}, "restart": ("restart_kick", H)},
    ),
    (
        "a drop goal in open play is three points",
        "WR 8",
        R7,
        [ko(0), kick(45, A, "drop")],
        {"call": "drop_goal", "score": {H: 0, A: 3}, "restart": ("restart_kick", A)},
    ),
    (
        "a missed drop goal: play on",
        "WR 8",
        R7,
        [ko(0), kick(45, A, "drop", False)],
        {"call": "kick_missed", "restart": None, "score": {H: 0, A: 0}},
    ),
    # --- the rules of the kick (text: Начало игры, Возобновление игры) ---
    (
        "receivers too near the kick-off: kicked again",
        "Возобновление игры (l.27)",
        R5,
        [ko(0), foul(0.5, A, "distance", None)],
        {"call": "retake", "restart": ("kick_off", H), "foul": "distance"},
    ),
    (
        "receivers too near the restart kick: kicked again",
        "Возобновление игры (l.27)",
        R7,
        [*CONVERTED, foul(95, A, "distance", None)],
        {"call": "retake", "restart": ("restart_kick", H)},
    ),
    (
        "kickers in front of the ball: a scrum to the receivers",
        "Возобновление игры (l.26)",
        R5,
        [ko(0), foul(0.5, H, "distance", None)],
        {"call": "foul", "restart": ("scrum", A, (10.0, 20.0))},
    ),
    (
        "kickers' fault at the restart kick: a scrum to the receivers",
        "Возобновление игры (l.26)",
        R7,
        [*CONVERTED, rs(100, H, "restart_kick"), foul(100.5, H, "distance", None)],
        {"restart": ("scrum", A)},
    ),
    (
        "a missed penalty kick at goal: play on",
        "WR 8, 20",
        R7,
        [ko(0), foul(30, A, xy=(20.0, 40.0)), kick(40, H, "penalty", False)],
        {"call": "kick_missed", "score": {H: 0, A: 0}, "restart": None},
    ),
    # --- play (World Rugby Laws 11, 18, 20, 21) ---
    (
        "into touch: a lineout to the other team",
        "WR 18",
        R7,
        [ko(0), out(30, "touch", (-0.5, 30), A)],
        {"call": "restart", "restart": ("lineout", H, (0.0, 30.0))},
    ),
    (
        "dead in in-goal off an attacker: a drop-out to the defenders",
        "WR 21",
        R7,
        [ko(0), out(30, "goal", (20, 60), H)],
        {"restart": ("drop_out", A)},
    ),
    (
        "dead in in-goal off a defender: a 5 m scrum to the attackers",
        "WR 21",
        R7,
        [ko(0), out(30, "goal", (20, 60), A)],
        {"restart": ("scrum", H)},
    ),
    (
        "a knock-on: a scrum to the other team",
        "WR 11",
        R5,
        [ko(0), foul(30, H, "handling", (5.0, 20.0))],
        {"restart": ("scrum", A, (5.0, 20.0))},
    ),
    (
        "a free-kick offence: a free kick",
        "WR 20",
        R5,
        [ko(0), foul(30, H, "indirect", (5.0, 20.0))],
        {"restart": ("free_kick", A)},
    ),
    (
        "foul play: a penalty",
        "WR 20",
        R5,
        [ko(0), foul(30, H, "direct", (5.0, 20.0))],
        {"restart": ("penalty", A)},
    ),
    # --- substitutions (text: Число игроков) ---
    (
        "no substitution during a half",
        "Число игроков (l.9)",
        R7,
        [ko(0), sub(30, H, "Home:3", "Home:9")],
        {"call": "substitution_refused", "note": "only at the break"},
    ),
    (
        "no more substitutes than the bench: rugby-7 has four",
        "Число игроков (l.8)",
        R7,
        [ko(0), wh(900), *[sub(901 + k, H, f"Home:{k + 1}", f"Home:{k + 8}") for k in range(5)]],
        {"call": "substitution_refused", "note": "its 4 substitutes"},
    ),
    # --- cards and the clock (World Rugby Laws 5, 9, sevens) ---
    (
        "a yellow card: two minutes in the sin bin",
        "WR 9 (sevens)",
        R7,
        [ko(0), foul(30, A, card="yellow"), rs(35, H, "penalty"), out(149, "touch", (0, 30), H)],
        {"on_court": {H: 7, A: 6}},
    ),
    (
        "... and back after two minutes of playing time",
        "WR 9 (sevens)",
        R7,
        [ko(0), foul(30, A, card="yellow"), rs(35, H, "penalty"), out(151, "touch", (0, 30), H)],
        {"on_court": {H: 7, A: 7}},
    ),
    (
        "a red card: short for the rest of the match",
        "WR 9",
        R5,
        [
            ko(0),
            foul(30, A, card="red"),
            rs(35, H, "penalty"),
            wh(600),
            ko(900, A),
            out(1000, "touch", (0, 30), H),
        ],
        {"on_court": {H: 5, A: 4}},
    ),
    (
        "the clock runs on while the ball is dead",
        "WR 5",
        R5,
        [ko(0), out(100, "touch", (0, 30), A), rs(130, H, "lineout"), out(200, "touch", (0, 30), A)],
        {"clock": 200.0},
    ),
    (
        "time off for an injury stops the clock until play restarts",
        "WR 5",
        R5,
        [ko(0), wh(100, "injury"), rs(160, H, "scrum"), out(200, "touch", (0, 30), A)],
        {"clock": 140.0},
    ),
]


@pytest.mark.parametrize(("law", "game", "lines", "want"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rule_cases(law: str, game: str, lines: list[Any], want: dict[str, Any]) -> None:
    want = dict(want)
    _state, decisions = play(lines, game=game, **want.pop("options", {}))
    check(decisions[want.pop("at", -1)], want)


ERRORS = [
    ("a half-time whistle before time", R5, [ko(0), wh(300)], "05:00.0 of the half still to play"),
    (
        "the same team kicks off both halves",
        R5,
        [ko(0), wh(600), ko(900, H)],
        "Away kicks off the second half",
    ),
    (
        "a conversion by the other team",
        R5,
        [*SCORED, kick(90, A, "conversion")],
        "a conversion follows the team's own",
    ),
    (
        "a penalty kick at goal with no penalty",
        R5,
        [ko(0), kick(40, H, "penalty")],
        "needs a penalty awarded",
    ),
    (
        "the half does not end before the conversion",
        R5,
        [ko(0), try_(599, H), wh(601)],
        "conversion is taken",
    ),
    (
        "the restart kick by the wrong team",
        R5,
        [*CONVERTED, rs(100, A, "restart_kick")],
        "got a restart_kick by Away",
    ),
    ("a try while the ball is dead", R5, [ko(0), out(30, "touch", (0, 30), A), try_(40, H)], "ball in play"),
    ("no four-second rule in rugby", R5, [ko(0), foul(30, A, "four_seconds", None)], "no four-second rule"),
    (
        "a futsal restart",
        R5,
        [ko(0), out(30, "touch", (0, 30), A), rs(40, H, "kick_in")],
        "is a futsal restart",
    ),
    ("a line after the match", R5, [ko(0), wh(600), ko(900, A), wh(1500), ko(1600, H)], "the match is over"),
    ("a goal line", R5, [ko(0), goal(30, H)], "rugby-5 takes no goal lines"),
]


@pytest.mark.parametrize(("game", "lines", "message"), [c[1:] for c in ERRORS], ids=[c[0] for c in ERRORS])
def test_unusable_lines(game: str, lines: list[Any], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        play(lines, game=game)


def test_substitutions_at_the_break_give_no_decision() -> None:
    state, decisions = play([ko(0), wh(600), sub(601, H, "Home:3", "Home:9")], game=R5)
    assert decisions[-1].call == "period_end" and state.came_on[H] == {"Home:9"}


def test_a_replaced_player_may_come_back_without_using_the_bench() -> None:
    lines = [
        ko(0),
        wh(900),
        *[sub(901 + k, H, f"Home:{k + 1}", f"Home:{k + 8}") for k in range(4)],
        sub(906, H, "Home:8", "Home:1"),
    ]
    _, decisions = play(lines, game=R7)
    assert decisions[-1].call == "period_end"


@pytest.mark.parametrize(
    ("game", "options", "message"),
    [
        (R5, {"half_min": -1}, "rugby-5 option half_min must be an integer >= 1"),
        (R7, {"break_min": -1}, "break_min must be an integer >= 0"),
        (R7, {"pitch_m": [47]}, "pitch_m must be \\[width_m, length_m\\]"),
        (R7, {"restart_by": "winners"}, "restart_by must be one of scorers, conceders"),
        (R5, {"extra_time": True}, "rugby-5 has no option 'extra_time'"),
    ],
)
def test_bad_options(game: str, options: dict[str, Any], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        play([], game=game, **options)


def test_an_engine_refuses_another_game() -> None:
    with pytest.raises(RuleError, match="this engine referees 'rugby-5', not 'rugby-7'"):
        rugby_5.ENGINE.start(match(R7))


def test_each_game_has_its_engine_and_the_same_rules() -> None:
    assert rugby_5.ENGINE.game == R5 and rugby_7.ENGINE.game == R7
    assert rugby_5.ENGINE.step is rugby.step is rugby_7.ENGINE.step
    assert (rugby_5.VARIANT.players, rugby_5.VARIANT.bench) == (5, 5)
    assert (rugby_7.VARIANT.players, rugby_7.VARIANT.bench) == (7, 4)
