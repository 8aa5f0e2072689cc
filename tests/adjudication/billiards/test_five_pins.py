"""Five-pins engine: a row per rule case of the UMB 5-pin rules (2, 5-8, 10-13, 15), bad lines, a game."""

from __future__ import annotations

import json
from typing import Any

import pytest

from adjudication.billiards import five_pins as fp
from adjudication.engine import RuleError
from adjudication.engines import engine_for
from adjudication.referee import RefereeError, referee
from arbiter.contract import Concede, Decision, Match, ShotEnd, ShotStart
from arbiter.games import game

A, B = "Anna", "Boris"
TOP, RED_SPOT, BOTTOM = (710.0, 2740.0), (710.0, 2130.0), (710.0, 100.0)
# Resting places far from pins, spots and cushions, each ball in its own spot of the table.
REST = {"white": [400.0, 700.0], "yellow": [1000.0, 1900.0], "red": [400.0, 2400.0]}


# --- stream builders ----------------------------------------------------------------------------------------


def hit(a: str, b: str, *, same: bool = False) -> dict[str, Any]:
    return {"type": "ball_ball", "balls": [a, b], "_same": same}


def cushion(ball: str, side: str) -> dict[str, Any]:
    return {"type": "cushion", "ball": ball, "side": side}


def pin(p: str, by: str) -> dict[str, Any]:
    return {"type": "pin_down", "pin": f"pin:{p}", "by": by if by in fp.BALLS else f"pin:{by}"}


def off(ball: str) -> dict[str, Any]:
    return {"type": "off_table", "ball": ball}


def shot(ball: str, *events: dict[str, Any], at: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """One shot: ``shot_start`` with ``ball``, the events, ``shot_end`` with REST updated by ``at``
    (a ball mapped to None is left out of the positions)."""
    positions = {**REST, **(at or {})}
    positions = {b: xy for b, xy in positions.items() if xy is not None}
    return [
        {"type": "shot_start", "ball": ball},
        *events,
        {"type": "shot_end", "positions": positions},
    ]


def lines(*shots: list[dict[str, Any]], options: dict[str, Any] | None = None) -> list[str]:
    """The JSON Lines of a match: the header, then every line timed 0.1 s apart (``_same``: same time)."""
    header: dict[str, Any] = {"type": "match", "v": 1, "game": "five-pins", "players": [A, B]}
    if options:
        header["options"] = options
    out, t = [json.dumps(header)], 0.0
    for s in shots:
        for line in s:
            line = dict(line)
            if not line.pop("_same", False):
                t = round(t + 0.1, 3)
            if line["type"] not in ("concede",):
                line["t"] = t
            out.append(json.dumps(line))
    return out


def decisions(*shots: list[dict[str, Any]], options: dict[str, Any] | None = None) -> list[Decision]:
    return [d for r in referee(lines(*shots, options=options)) for d in r.decisions]


def last(*shots: list[dict[str, Any]], options: dict[str, Any] | None = None) -> Decision:
    return decisions(*shots, options=options)[-1]


def legal(ball: str = "white") -> list[dict[str, Any]]:
    other = "yellow" if ball == "white" else "white"
    return shot(ball, hit(ball, other))


# --- rule cases ---------------------------------------------------------------------------------------------

# (id, shots, expected fields of the last decision). ``foul`` is (reason, penalty) or None.
CASES: list[tuple[str, list[list[dict[str, Any]]], dict[str, Any]]] = [
    # sec 6: only the opponent's ball hit
    (
        "legal_no_points",
        [shot("white", hit("white", "yellow"))],
        {"foul": None, "points": {}, "score": {A: 0, B: 0}},
    ),
    (
        "legal_off_cushions",
        [shot("white", cushion("white", "left"), cushion("white", "top"), hit("white", "yellow"))],
        {"foul": None, "points": {}, "next": B, "on": "white"},
    ),
    # sec 8.1: pins
    (
        "one_side_pin",
        [shot("white", hit("white", "yellow"), pin("n", "yellow"))],
        {"foul": None, "points": {A: 2}},
    ),
    (
        "two_side_pins",
        [shot("white", hit("white", "yellow"), pin("n", "yellow"), pin("e", "yellow"))],
        {"points": {A: 4}},
    ),
    ("centre_alone_8", [shot("white", hit("white", "yellow"), pin("c", "yellow"))], {"points": {A: 8}}),
    (
        "centre_with_side_4_plus_2",
        [shot("white", hit("white", "yellow"), pin("w", "yellow"), pin("c", "yellow"))],
        {"points": {A: 6}},
    ),
    (
        "whole_cross_12",
        [shot("white", hit("white", "yellow"), *(pin(p, "yellow") for p in ("c", "n", "s", "e", "w")))],
        {"points": {A: 12}, "score": {A: 12, B: 0}},
    ),
    (
        "pin_knocked_by_pin",
        [shot("white", hit("white", "yellow"), pin("e", "yellow"), pin("c", "e"))],
        {"foul": None, "points": {A: 6}},
    ),
    # sec 8.2: caroms, the first only
    (
        "carom_4",
        [shot("white", hit("white", "yellow"), hit("white", "red"))],
        {"foul": None, "points": {A: 4}},
    ),
    (
        "ricochet_3",
        [shot("white", hit("white", "yellow"), hit("yellow", "red"))],
        {"foul": None, "points": {A: 3}},
    ),
    (
        "carom_then_ricochet_counts_carom",
        [shot("white", hit("white", "yellow"), hit("white", "red"), hit("yellow", "red"))],
        {"points": {A: 4}},
    ),
    (
        "ricochet_then_carom_counts_ricochet",
        [shot("white", hit("white", "yellow"), hit("yellow", "red"), hit("white", "red"))],
        {"points": {A: 3}},
    ),
    (
        "carom_and_ricochet_same_instant",
        [shot("white", hit("white", "yellow"), hit("yellow", "red"), hit("white", "red", same=True))],
        {"points": {A: 4}},
    ),
    (
        "split_hit_opponent_and_red",
        [shot("white", hit("white", "yellow"), hit("white", "red", same=True))],
        {"foul": None, "points": {A: 4}},
    ),
    # sec 5.2-5.4: pins and caroms add up, the red's pins count
    (
        "ricochet_red_knocks_centre_alone",
        [shot("white", hit("white", "yellow"), hit("yellow", "red"), pin("c", "red"))],
        {"points": {A: 11}},
    ),
    (
        "carom_red_and_yellow_pins",
        [shot("white", hit("white", "yellow"), hit("white", "red"), pin("n", "red"), pin("c", "yellow"))],
        {"points": {A: 10}},
    ),
    # second player plays yellow and must hit white
    (
        "second_player_yellow",
        [legal("white"), shot("yellow", hit("yellow", "white"), pin("s", "white"))],
        {"player": B, "points": {B: 2}, "next": A, "on": "yellow", "score": {A: 0, B: 2}},
    ),
    # fouls, sec 15.3 (opponent's ball): the opponent's ball not hit
    (
        "miss_nothing_hit",
        [shot("white", cushion("white", "top"))],
        {
            "foul": ("missed_opponent_ball", 2),
            "points": {B: 2},
            "score": {A: 0, B: 2},
            "next": B,
            "on": "white",
        },
    ),
    (
        "miss_own_ball_pins_count",
        [shot("white", pin("n", "white"), pin("c", "white"))],
        {"foul": ("missed_opponent_ball", 8), "points": {B: 8}},
    ),
    # 15.3 (red ball): red first, 4 points, its pins to the opponent, no carom
    ("red_first_4", [shot("white", hit("white", "red"))], {"foul": ("red_first", 4), "points": {B: 4}}),
    (
        "red_first_red_pins",
        [shot("white", hit("white", "red"), pin("c", "red"))],
        {"foul": ("red_first", 12), "points": {B: 12}},
    ),
    (
        "red_first_then_opponent_ball_then_red",
        [shot("white", hit("white", "red"), hit("white", "yellow"), hit("yellow", "red"))],
        {"foul": ("red_first", 4), "points": {B: 4}},
    ),
    # 15.3 (pins): pins before the opponent's ball
    (
        "pins_first",
        [shot("white", pin("s", "white"), hit("white", "yellow"))],
        {"foul": ("pins_first", 4), "points": {B: 4}},
    ),
    # 15.2 / 7.3: own ball knocks pins after a legal contact: pins and carom to the opponent, no ball in hand
    (
        "own_ball_pins",
        [shot("white", hit("white", "yellow"), pin("n", "white"))],
        {"foul": ("own_ball_pins", 2), "points": {B: 2}, "next": B},
    ),
    (
        "own_ball_pins_with_all_points",
        [shot("white", hit("white", "yellow"), pin("c", "yellow"), hit("white", "red"), pin("n", "white"))],
        {"foul": ("own_ball_pins", 10), "points": {B: 10}},
    ),
    (
        "own_ball_pin_through_pin",
        [shot("white", hit("white", "yellow"), pin("e", "white"), pin("c", "e"))],
        {"foul": ("own_ball_pins", 6), "points": {B: 6}},
    ),
    # 15.3 (wrong ball): wrong ball
    (
        "wrong_ball_opponents",
        [shot("yellow", hit("yellow", "white"), pin("n", "white"))],
        {"foul": ("wrong_ball", 4), "points": {B: 4}, "player": A},
    ),
    ("wrong_ball_red", [shot("red", hit("red", "yellow"))], {"foul": ("wrong_ball", 2), "points": {B: 2}}),
    # 15.3 (ball off the table): balls off the table, 2 however many; the shot's points go with it
    (
        "off_table_yellow",
        [shot("white", hit("white", "yellow"), pin("n", "yellow"), off("yellow"), at={"yellow": None})],
        {"foul": ("ball_off_table", 4), "points": {B: 4}, "respot": ()},
    ),
    (
        "off_table_two_balls",
        [
            shot(
                "white",
                hit("white", "yellow"),
                hit("white", "red"),
                off("white"),
                off("red"),
                at={"white": None, "red": None},
            )
        ],
        {"foul": ("ball_off_table", 6), "points": {B: 6}, "respot": (("red", RED_SPOT), ("white", BOTTOM))},
    ),
    (
        "miss_and_off_table_add_up",
        [shot("white", off("white"), at={"white": None})],
        {
            "foul": ("missed_opponent_ball", 4),
            "points": {B: 4},
            "rule": "UMB 5-pin 15.3 (opponent's ball), 15.3 (ball off the table), 15.1",
        },
    ),
    # sec 11.3: the striker's ball goes to the short-cushion spot away from the opponent's ball
    (
        "off_table_striker_ball_opponent_top",
        [shot("white", hit("white", "yellow"), off("white"), at={"white": None})],
        {"respot": (("white", BOTTOM),)},
    ),
    (
        "off_table_striker_ball_opponent_bottom",
        [shot("white", hit("white", "yellow"), off("white"), at={"white": None, "yellow": [1000.0, 600.0]})],
        {"respot": (("white", TOP),)},
    ),
    (
        "off_table_striker_spot_taken_by_red",
        [
            shot(
                "white",
                hit("white", "yellow"),
                off("white"),
                at={"white": None, "yellow": [1000.0, 600.0], "red": [720.0, 2730.0]},
            )
        ],
        {"respot": (("white", RED_SPOT),)},
    ),
    (
        "off_table_red_spot_taken",
        [
            shot(
                "white",
                hit("white", "yellow"),
                hit("yellow", "red"),
                off("red"),
                at={"red": None, "white": [700.0, 2150.0]},
            )
        ],
        {"foul": ("ball_off_table", 5), "respot": (("red", TOP),)},
    ),
    # sec 2: the score stops at the target
    (
        "target_cap",
        [shot("white", hit("white", "yellow"), *(pin(p, "yellow") for p in ("c", "n", "s", "e", "w")))],
        {
            "points": {A: 10},
            "score": {A: 10, B: 0},
            "over": True,
            "winner": A,
            "next": None,
            "on": None,
            "options": {"target": 10},
        },
    ),
    (
        "foul_wins_for_opponent",
        [shot("white", hit("white", "red"))],
        {"points": {B: 3}, "score": {A: 0, B: 3}, "over": True, "winner": B, "options": {"target": 3}},
    ),
    (
        "game_over_nothing_put_back",
        [shot("white", off("white"), at={"white": None})],
        {
            "foul": ("missed_opponent_ball", 4),
            "points": {B: 3},
            "winner": B,
            "respot": (),
            "options": {"target": 3},
        },
    ),
    (
        "first_option",
        [shot("yellow", hit("yellow", "white"), hit("yellow", "red"))],
        {"player": B, "points": {B: 4}, "next": A, "options": {"first": B}},
    ),
]


def _norm(d: Decision) -> dict[str, Any]:
    return {
        "foul": None if d.foul is None else (d.foul.reason, d.foul.penalty),
        "rule": None if d.foul is None else d.foul.rule,
        "points": dict(d.points),
        "score": dict(d.score),
        "next": d.next,
        "on": d.on,
        "over": d.over,
        "winner": d.winner,
        "player": d.player,
        "respot": tuple((r.ball, r.xy_mm) for r in d.respot),
    }


@pytest.mark.parametrize(("shots", "expected"), [pytest.param(s, e, id=i) for i, s, e in CASES])
def test_rule_case(shots: list[list[dict[str, Any]]], expected: dict[str, Any]) -> None:
    expected = dict(expected)
    options = expected.pop("options", None)
    got = _norm(last(*shots, options=options))
    assert {k: got[k] for k in expected} == expected


def test_case_count() -> None:
    assert len(CASES) >= 30


# --- notes: ball in hand, contact, pins taken off -----------------------------------------------------------


def test_ball_in_hand_note_after_a_foul() -> None:
    d = last(shot("white", hit("white", "red")))  # white rests in the bottom half
    assert d.notes[-1] == (
        "yellow in hand: placed in the top half, no part over the middle line "
        "(UMB 5-pin 13.2-13.3); or white on the top spot on request (UMB 5-pin 13.5)"
    )


def test_ball_in_hand_offender_on_middle_line() -> None:
    d = last(shot("white", cushion("white", "top"), at={"white": [300.0, 1421.0]}))
    assert "yellow in hand: placed in the bottom half" in d.notes[-1]
    assert "13.4" in d.notes[-1]


def test_own_ball_pins_gives_no_ball_in_hand() -> None:
    d = last(shot("white", hit("white", "yellow"), pin("n", "white")))
    assert not any("in hand" in n for n in d.notes)
    assert d.notes == (
        "foul own_ball_pins: 0 points (UMB 5-pin 15.2)",
        "pins pin:n: 2 (UMB 5-pin 8.1)",
        "2 points to Boris (UMB 5-pin 7, 15)",
    )


def test_legal_notes_name_the_rules() -> None:
    d = last(shot("white", hit("white", "yellow"), hit("yellow", "red"), pin("c", "red")))
    assert d.notes == (
        "pins pin:c: 8 (UMB 5-pin 8.1)",
        "ricochet (opponent's ball on the red): 3 (UMB 5-pin 8.2)",
        "legal: 11 points to Anna (UMB 5-pin 5, 8)",
    )


TOUCHING = {"white": [400.0, 700.0], "yellow": [400.0, 762.0]}  # 62 mm apart: 0.5 mm gap


@pytest.mark.parametrize(
    ("second", "foul"),
    [
        pytest.param(
            shot("yellow", hit("yellow", "white"), at=TOUCHING), "played_into_contact", id="straight_in"
        ),
        pytest.param(
            shot("yellow", cushion("yellow", "left"), hit("yellow", "white"), at=TOUCHING),
            None,
            id="cushion_first_is_legal",
        ),
        pytest.param(shot("yellow", hit("yellow", "red"), at=TOUCHING), "red_first", id="red_first_only"),
    ],
)
def test_balls_in_contact(second: list[dict[str, Any]], foul: str | None) -> None:
    first = shot("white", hit("white", "yellow"), at=TOUCHING)
    d1, d2 = decisions(first, second)
    assert "yellow touches white: play away from it, not straight into it (UMB 5-pin 10)" in d1.notes
    assert (d2.foul and d2.foul.reason) == foul
    if foul == "played_into_contact":
        assert (d2.foul.penalty, d2.points, d2.foul.rule) == (2, {A: 2}, "UMB 5-pin 15.3 (ball in contact)")


def test_cushion_contact() -> None:
    at = {"yellow": [31.75 + 1.0, 1900.0]}  # 1 mm off the left cushion nose
    first = shot("white", hit("white", "yellow"), at=at)
    into = shot("yellow", cushion("yellow", "left"), hit("yellow", "white"), at=at)
    away = shot("yellow", cushion("yellow", "right"), hit("yellow", "white"), at=at)
    d1, d2 = decisions(first, into)
    assert "yellow touches the left cushion: play away from it, not straight into it (UMB 5-pin 10)" in (
        d1.notes
    )
    assert d2.foul is not None and d2.foul.reason == "played_into_contact"
    assert decisions(first, away)[1].foul is None


def test_no_contact_check_after_ball_in_hand() -> None:
    first = shot("white", hit("white", "red"), at=TOUCHING)  # foul: yellow is picked up
    d1, d2 = decisions(first, shot("yellow", hit("yellow", "white"), at=TOUCHING))
    assert not any("touches" in n for n in d1.notes)
    assert d2.foul is None


def test_pin_under_a_ball_is_taken_off_and_stands_again_later() -> None:
    on_centre = {"red": [710.0, 1440.0]}  # 20 mm from the centre pin's spot
    first = shot("white", hit("white", "yellow"), hit("yellow", "red"), at=on_centre)
    d1 = last(first)
    assert "pin:c taken off for the next shot: a ball stands on its spot (UMB 5-pin 12.7)" in d1.notes
    with pytest.raises(RefereeError, match=r"pin_down for pin:c, which the referee took off"):
        decisions(first, shot("yellow", hit("yellow", "white"), pin("c", "white")))
    # the red moves away: every pin stands again for the shot after
    ds = decisions(first, legal("yellow"), shot("white", hit("white", "yellow"), pin("c", "yellow")))
    assert ds[-1].points == {A: 8}
    # a centre alone is 8 even with side pins taken off (sec 8.1)
    on_north = {"red": [710.0, 1483.0]}
    ds = decisions(
        shot("white", hit("white", "yellow"), at=on_north),
        shot("yellow", hit("yellow", "white"), pin("c", "white")),
    )
    assert "pin:n taken off for the next shot: a ball stands on its spot (UMB 5-pin 12.7)" in ds[0].notes
    assert ds[1].points == {B: 8}


def test_knocked_pins_stand_again() -> None:
    cross = [pin(p, "yellow") for p in ("c", "n", "s", "e", "w")]
    ds = decisions(
        shot("white", hit("white", "yellow"), *cross),
        shot("yellow", hit("yellow", "white"), *(pin(p, "white") for p in "cnsew")),
    )
    assert [d.points for d in ds] == [{A: 12}, {B: 12}]


# --- concede ------------------------------------------------------------------------------------------------


def test_concede() -> None:
    ds = decisions(legal(), [{"type": "concede", "player": B}])
    d = ds[-1]
    assert (d.shot, d.player, d.over, d.winner, d.next, dict(d.points), dict(d.score)) == (
        1,
        B,
        True,
        A,
        None,
        {},
        {A: 0, B: 0},
    )
    assert d.notes == ("Boris concedes: Anna wins the game (UMB 5-pin 9.1)",)


# --- unusable lines -----------------------------------------------------------------------------------------

BAD: list[tuple[str, list[list[dict[str, Any]]], int, str]] = [
    (
        "pocket_line",
        [[{"type": "shot_start", "ball": "white"}, {"type": "pocket", "ball": "red", "pocket": "tl"}]],
        3,
        "five-pins takes no pocket lines \\(a five-pins table has no pockets\\)",
    ),
    (
        "declare_line",
        [[{"type": "declare", "player": A, "ball": "red"}]],
        2,
        "five-pins takes no declare lines",
    ),
    ("unknown_struck_ball", [shot("cue")], 2, "shot_start.ball 'cue' is not a five-pins ball"),
    ("unknown_ball_contact", [shot("white", hit("white", "black"))], 3, "ball_ball.balls 'black' is not"),
    (
        "unknown_pin",
        [shot("white", {"type": "pin_down", "pin": "pin:x", "by": "white"})],
        3,
        "pin_down.pin 'pin:x' is not a pin",
    ),
    (
        "pin_twice",
        [shot("white", hit("white", "yellow"), pin("n", "yellow"), pin("n", "yellow"))],
        5,
        "pin_down for pin:n twice in one shot",
    ),
    (
        "pin_by_standing_pin",
        [shot("white", hit("white", "yellow"), pin("c", "e"))],
        4,
        "pin_down.by pin:e knocked pin:c but is not down in this shot",
    ),
    (
        "pin_by_nothing",
        [shot("white", {"type": "pin_down", "pin": "pin:c", "by": "cue"})],
        3,
        "pin_down.by 'cue' is neither a ball",
    ),
    (
        "position_missing",
        [shot("white", hit("white", "yellow"), at={"red": None})],
        4,
        "shot_end.positions lacks red, which did not leave the table",
    ),
    (
        "position_unknown",
        [shot("white", hit("white", "yellow"), at={"cue": [1.0, 1.0]})],
        4,
        "shot_end.positions key 'cue' is not a five-pins ball",
    ),
    ("camera_line_outside_shot", [[hit("white", "yellow")]], 2, "outside a shot"),
    (
        "shot_inside_shot",
        [[{"type": "shot_start", "ball": "white"}, {"type": "shot_start", "ball": "white"}]],
        3,
        "has not ended",
    ),
    (
        "concede_during_shot",
        [[{"type": "shot_start", "ball": "white"}, {"type": "concede", "player": A}]],
        3,
        "concede by Anna during a shot",
    ),
    (
        "line_after_the_end",
        [[{"type": "concede", "player": A}], legal("yellow")],
        3,
        "the game is over \\(Boris won\\); no shot_start line",
    ),
]


@pytest.mark.parametrize(("shots", "line_no", "message"), [pytest.param(s, n, m, id=i) for i, s, n, m in BAD])
def test_unusable_line(shots: list[list[dict[str, Any]]], line_no: int, message: str) -> None:
    with pytest.raises(RefereeError, match=message) as err:
        decisions(*shots)
    assert err.value.line_no == line_no


@pytest.mark.parametrize(
    ("options", "players", "message"),
    [
        ({"target": 0}, (A, B), "option target must be an integer >= 1"),
        ({"target": "60"}, (A, B), "option target must be an integer >= 1"),
        ({"target": True}, (A, B), "option target must be an integer >= 1"),
        ({"first": "Carla"}, (A, B), "option first must be one of the players Anna, Boris"),
        ({"contact_mm": -1}, (A, B), "option contact_mm must be a number"),
        ({"frames": 3}, (A, B), "five-pins has no option 'frames'; its options: target"),
        ({}, (A, B, "Carla"), "five-pins is played by exactly 2 players"),
    ],
)
def test_bad_options(options: dict[str, Any], players: tuple[str, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        fp.start(Match(game="five-pins", players=players, options=options))


def test_defaults_and_registry() -> None:
    state = fp.start(Match(game="five-pins", players=(A, B), options={"source": "synthetic"}))
    assert (state.target, state.turn, state.contact_mm, dict(state.score)) == (60, A, 3.0, {A: 0, B: 0})
    assert engine_for(game("five-pins")) is fp.ENGINE


def test_pin_points_table() -> None:
    assert [fp.pin_points(set(p)) for p in ([], ["pin:n"], ["pin:c"], ["pin:c", "pin:s"], list(fp.PINS))] == [
        0,
        2,
        8,
        6,
        12,
    ]


# --- a whole game to the target -----------------------------------------------------------------------------


def test_whole_game_to_60() -> None:
    def cross(by: str) -> list[dict[str, Any]]:
        return [pin(p, by) for p in ("c", "n", "s", "e", "w")]

    rounds = [
        (shot("white", hit("white", "yellow"), *cross("yellow")), {A: 12}),  # A 12
        (shot("yellow", hit("yellow", "red")), {A: 4}),  # red first: A 16
        (shot("white", hit("white", "yellow"), hit("yellow", "red"), pin("c", "red")), {A: 11}),  # A 27
        (shot("yellow", hit("yellow", "white"), hit("yellow", "red"), pin("n", "white")), {B: 6}),  # B 6
        (shot("white", hit("white", "yellow"), pin("s", "white")), {B: 2}),  # own pins: B 8
        (shot("yellow", hit("yellow", "white"), *cross("white")), {B: 12}),  # B 20
        (shot("white", hit("white", "yellow"), hit("white", "red")), {A: 4}),  # A 31
        (shot("yellow", hit("yellow", "white")), {}),  # nothing
        (shot("white", hit("white", "yellow"), *cross("yellow"), hit("white", "red")), {A: 16}),  # A 47
        (shot("yellow", cushion("yellow", "top")), {A: 2}),  # miss: A 49
        (shot("white", hit("white", "yellow"), pin("e", "yellow"), pin("w", "yellow")), {A: 4}),  # A 53
        (shot("yellow", hit("yellow", "white"), pin("c", "white")), {B: 8}),  # B 28
        (shot("white", hit("white", "yellow"), *cross("yellow")), {A: 7}),  # 12 worth, 7 credited: A 60
    ]
    ds = decisions(*(s for s, _ in rounds))
    assert [d.shot for d in ds] == list(range(1, 14))
    assert [d.player for d in ds] == [A, B] * 6 + [A]
    assert [dict(d.points) for d in ds] == [p for _, p in rounds]
    assert [d.next for d in ds] == [B, A] * 6 + [None]
    assert [d.over for d in ds] == [False] * 12 + [True]
    assert dict(ds[-1].score) == {A: 60, B: 28}
    assert ds[-1].winner == A
    assert ds[-1].notes[-2:] == (
        "the shot is worth 12; Anna's score stops at the target 60 (UMB 5-pin 2)",
        "Anna reaches 60: wins the game (UMB 5-pin 2)",
    )
    assert [d.shot for d in ds if d.foul is not None] == [2, 5, 10]


def test_step_is_pure() -> None:
    state = fp.start(Match(game="five-pins", players=(A, B)))
    s1, _ = fp.step(state, ShotStart(t=0.1, ball="white"))
    s2, (d,) = fp.step(s1, ShotEnd(t=0.2, positions=REST))
    assert state.pending.start is None and s1.pending.start is not None and s2.pending.start is None
    assert (d.foul.reason if d.foul else None, dict(s2.score), s2.turn) == (
        "missed_opponent_ball",
        {A: 0, B: 2},
        B,
    )
    with pytest.raises(RuleError, match="game is over"):
        fp.step(fp.step(s2, Concede(player=A))[0], Concede(player=B))
