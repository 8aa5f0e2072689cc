"""14.1 continuous: one row per rule case, each a short stream refereed line by line, plus whole games."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any

import pytest

from adjudication.billiards import straight_pool
from adjudication.engines import engine_for
from adjudication.referee import Refereed, RefereeError, referee
from arbiter.contract import Decision, from_json, to_json
from arbiter.games import game

D = 57.15
ROW = D * math.sqrt(3) / 2
FOOT = (635.0, 1905.0)
HEAD = (635.0, 635.0)
CENTRE = (635.0, 1270.0)
XS = (150.0, 390.0, 630.0, 870.0, 1110.0)

# Where the balls rest after the opening break in most rows: three rows of five, clear of the rack area,
# with ball 1 behind the head string and the foot spot free (so a spotted ball goes on it).
SPREAD: dict[str, tuple[float, float]] = {
    "1": (150.0, 400.0),
    **{str(n): (XS[n - 1], 900.0) for n in range(2, 6)},
    **{str(n): (XS[n - 6], 1300.0) for n in range(6, 11)},
    **{str(n): (XS[n - 11], 2350.0) for n in range(11, 16)},
    "cue": (635.0, 1600.0),
}


# --- stream builders ---------------------------------------------------------------------------------------


def hit(a: str, b: str) -> dict[str, Any]:
    return {"type": "ball_ball", "balls": [a, b]}


def rail(ball: str, side: str = "top") -> dict[str, Any]:
    return {"type": "cushion", "ball": ball, "side": side}


def pot(ball: str, pocket: str) -> dict[str, Any]:
    return {"type": "pocket", "ball": ball, "pocket": pocket}


def off(ball: str) -> dict[str, Any]:
    return {"type": "off_table", "ball": ball}


def call(player: str, ball: str | None = None, pocket: str | None = None) -> dict[str, Any]:
    if ball is None:
        return {"type": "call", "player": player, "safety": True}
    line: dict[str, Any] = {"type": "call", "player": player, "ball": ball}
    if pocket is not None:
        line["pocket"] = pocket
    return line


def choice(player: str, option: str) -> dict[str, Any]:
    return {"type": "choice", "player": player, "option": option}


def concede(player: str) -> dict[str, Any]:
    return {"type": "concede", "player": player}


def without(positions: dict[str, tuple[float, float]], *balls: str) -> dict[str, tuple[float, float]]:
    return {b: xy for b, xy in positions.items() if b not in balls}


def shot(*events: dict[str, Any], at: dict[str, tuple[float, float]] | None = None) -> list[dict[str, Any]]:
    """One shot's camera lines; ``at`` is the rest positions (default SPREAD less the balls gone)."""
    if at is None:
        gone = {e["ball"] for e in events if e["type"] in ("pocket", "off_table")}
        at = without(SPREAD, *gone)
    end = {"type": "shot_end", "positions": {b: list(xy) for b, xy in at.items()}}
    return [{"type": "shot_start", "ball": "cue"}, *events, end]


def lines_of(stream: Iterable[dict[str, Any] | list[dict[str, Any]]], **options: Any) -> list[str]:
    """A match header and the stream as JSON lines, camera lines timed 0.01 s apart."""
    header: dict[str, Any] = {"type": "match", "v": 1, "game": "straight-pool", "players": ["A", "B"]}
    if options:
        header["options"] = options
    out = [json.dumps(header)]
    t = 0.0
    for item in stream:
        for line in item if isinstance(item, list) else [item]:
            if line["type"] not in ("call", "choice", "concede", "declare"):
                t += 0.01
                line = {**line, "t": round(t, 2)}
            out.append(json.dumps(line))
    return out


def run(stream: Iterable[dict[str, Any] | list[dict[str, Any]]], **options: Any) -> list[Refereed]:
    return list(referee(lines_of(stream, **options), straight_pool.ENGINE))


def decisions(stream: Iterable[dict[str, Any] | list[dict[str, Any]]], **options: Any) -> list[Decision]:
    return [d for r in run(stream, **options) for d in r.decisions]


# --- common pieces -----------------------------------------------------------------------------------------

# A legal opening break by A, no call: the cue ball and two object balls reach a rail after the contact.
BREAK = shot(hit("cue", "2"), rail("cue", "left"), rail("3"), rail("4", "right"))
# A breaking foul by A: only one object ball reaches a rail.
BAD_BREAK = shot(hit("cue", "2"), rail("cue", "left"), rail("3"))


def pots(player: str, ball: str, pocket: str = "tl") -> list[Any]:
    return [call(player, ball, pocket), shot(hit("cue", ball), pot(ball, pocket))]


def miss(player: str, ball: str = "8") -> list[Any]:
    """A legal miss: the called ball is hit and reaches a rail, nothing drops."""
    return [call(player, ball, "br"), shot(hit("cue", ball), rail(ball))]


def no_rail(player: str, ball: str = "7") -> list[Any]:
    """A standard foul: contact, then no ball reaches a rail and none drops."""
    return [call(player, ball, "tl"), shot(hit("cue", ball))]


SCRATCH_B = [call("B", "7", "tl"), shot(hit("cue", "7"), pot("cue", "br"))]
THREE_FOULS = [BREAK, *no_rail("B"), *miss("A"), *no_rail("B"), *miss("A"), *no_rail("B")]

# Two shots of a re-rack: B pots 1..13 one by one (after A's legal break), leaving 14 and 15.
FOURTEEN = [
    str(n) for n in range(1, 14)
]  # potted before the rack's last two balls; positions shrink as they go


def run_to_two_left() -> list[Any]:
    stream: list[Any] = [BREAK]
    left = dict(SPREAD)
    for ball in FOURTEEN:
        left = without(left, ball)
        stream += [call("B", ball, "tl"), shot(hit("cue", ball), pot(ball, "tl"), at=left)]
    return stream


def last_pot(at: dict[str, tuple[float, float]], *extra: dict[str, Any]) -> list[Any]:
    """B calls and pots the 14th ball of the rack; ``at`` holds the 15th ball (if any) and the cue ball."""
    return [*run_to_two_left(), call("B", "14", "tl"), shot(hit("cue", "14"), pot("14", "tl"), *extra, at=at)]


def rack_xy(n: int) -> tuple[float, float]:
    """Slot n of a tight rack (0 = apex on the foot spot, then row by row, left to right)."""
    k = next(k for k in range(5) if k * (k + 1) // 2 <= n < (k + 1) * (k + 2) // 2)
    j = n - k * (k + 1) // 2
    return (FOOT[0] + (j - k / 2) * D, FOOT[1] + k * ROW)


# The 14 racked after 14 and 15 are left: 1 back right (slot 14), 5 back left (slot 10), the rest in order.
RACK_14 = {"1": 14, "2": 1, "3": 2, "4": 3, "5": 10, "6": 4, "7": 5, "8": 6, "9": 7, "10": 8}
RACK_14 |= {"11": 9, "12": 11, "13": 12, "14": 13}  # ball 15 is the one left on the table
# All fifteen, the opening rack: 2 on the apex.
RACK_15 = {"1": 14, "2": 0, "3": 1, "4": 2, "5": 10, **{str(n): n - 3 for n in range(6, 13)}}
RACK_15 |= {"13": 11, "14": 12, "15": 13}
# All fifteen with ball 15 (the fifteenth) on the apex.
RACK_15_APEX_15 = {"15": 0, "1": 14, "5": 10, "2": 1, "3": 2, "4": 3, **{str(n): n - 2 for n in range(6, 12)}}
RACK_15_APEX_15 |= {"12": 11, "13": 12, "14": 13}


def racked(slots: dict[str, int]) -> list[tuple[str, tuple[float, float]]]:
    return [(b, rack_xy(slots[b])) for b in sorted(slots, key=int)]


# After a re-rack with 15 and the cue ball clear, B pots the racked 3: thirteen racked balls, 15 and the cue.
AFTER_RERACK_3 = {b: rack_xy(n) for b, n in RACK_14.items() if b != "3"} | {
    "15": (300.0, 1200.0),
    "cue": (700.0, 1800.0),
}


# --- the rule-case table -----------------------------------------------------------------------------------

CASES: list[Any] = [
    # opening break (WPA 4.3, 4.10)
    pytest.param(
        [BREAK],
        {},
        {"shot": 1, "player": "A", "reason": None, "points": {}, "score": {"A": 0, "B": 0}, "next": "B"},
        id="legal break, no call: cue ball and two object balls to a rail",
    ),
    pytest.param(
        [call("A", "2", "tl"), shot(hit("cue", "2"), pot("2", "tl"))],
        {},
        {"reason": None, "points": {"A": 1}, "score": {"A": 1, "B": 0}, "next": "A", "awaiting": ("call",)},
        id="break: called ball in the called pocket scores and the breaker goes on",
    ),
    pytest.param(
        [call("A", "2", "tl"), shot(hit("cue", "2"), rail("cue"), rail("3"), pot("2", "tr"), rail("4"))],
        {},
        {"reason": None, "points": {}, "next": "B", "respot": [("2", FOOT)]},
        id="break: called ball in the wrong pocket but rails made: legal, ball spotted",
    ),
    pytest.param(
        [BAD_BREAK],
        {},
        {
            "reason": "breaking_foul",
            "penalty": 2,
            "points": {"A": -2},
            "score": {"A": -2, "B": 0},
            "next": "B",
            "awaiting": ("choice",),
        },
        id="breaking foul: one object ball to a rail",
    ),
    pytest.param(
        [shot(rail("cue"), rail("cue", "bottom"))],
        {},
        {"reason": "breaking_foul", "points": {"A": -2}, "note": "also no_contact"},
        id="breaking foul: cue ball misses the rack",
    ),
    pytest.param(
        [shot(hit("cue", "2"), rail("3"), rail("4"), rail("6"))],
        {},
        {"reason": "breaking_foul", "points": {"A": -2}},
        id="breaking foul: cue ball not to a rail",
    ),
    pytest.param(
        [shot(hit("cue", "2"), rail("3"), pot("cue", "br"))],
        {},
        {"reason": "breaking_foul", "penalty": 2, "note": "also cue_ball_scratch"},
        id="breaking foul and scratch: the breaking foul takes precedence",
    ),
    pytest.param(
        [shot(hit("cue", "2"), rail("3"), rail("4"), pot("cue", "br"))],
        {},
        {
            "reason": "cue_ball_scratch",
            "penalty": 1,
            "points": {"A": -1},
            "next": "B",
            "awaiting": ("call",),
            "note": "B has the cue ball in hand behind the head string",
        },
        id="legal break with a scratch: standard foul -1",
    ),
    pytest.param(
        [shot(hit("cue", "2"), rail("cue"), rail("3"), off("4"))],
        {},
        {"reason": "object_ball_off_table", "points": {"A": -1}, "next": "B", "respot": [("4", FOOT)]},
        id="legal break with an object ball off the table: standard foul, ball spotted",
    ),
    pytest.param(
        [BAD_BREAK, choice("B", "rebreak"), BREAK],
        {},
        {"shot": 2, "player": "A", "reason": None, "score": {"A": -2, "B": 0}, "next": "B"},
        id="rebreak: the breaker breaks again",
    ),
    pytest.param(
        [BAD_BREAK, choice("B", "rebreak"), BAD_BREAK],
        {},
        {"shot": 2, "reason": "breaking_foul", "score": {"A": -4, "B": 0}, "awaiting": ("choice",)},
        id="rebreak repeats until legal: -2 each time",
    ),
    pytest.param(
        [BAD_BREAK, choice("B", "play"), *pots("B", "7")],
        {},
        {"player": "B", "points": {"B": 1}, "score": {"A": -2, "B": 1}, "next": "B"},
        id="failed break accepted: the opponent plays the table",
    ),
    pytest.param(
        [
            BAD_BREAK,
            choice("B", "rebreak"),
            BREAK,
            *no_rail("B"),
            *no_rail("A"),
            *no_rail("B"),
            *no_rail("A"),
        ],
        {},
        {"player": "A", "reason": "no_rail_after_contact", "penalty": 1, "score": {"A": -4, "B": -2}},
        id="a breaking foul is not one of three consecutive fouls",
    ),
    # scoring (WPA 4.7)
    pytest.param(
        [BREAK, *pots("B", "7")],
        {},
        {"player": "B", "reason": None, "points": {"B": 1}, "score": {"A": 0, "B": 1}, "next": "B"},
        id="called ball in the called pocket: 1 point, inning goes on",
    ),
    pytest.param(
        [BREAK, call("B", "7", "tl"), shot(hit("cue", "7"), hit("7", "8"), pot("7", "tl"), pot("8", "br"))],
        {},
        {"points": {"B": 2}, "score": {"A": 0, "B": 2}, "next": "B", "note": "also pocketed 8"},
        id="called ball and another: both score",
    ),
    pytest.param(
        [BREAK, call("B", "7", "tl"), shot(hit("cue", "7"), pot("7", "tr"))],
        {},
        {"reason": None, "points": {}, "next": "A", "respot": [("7", FOOT)]},
        id="called ball in the wrong pocket: spotted, no penalty, turn passes",
    ),
    pytest.param(
        [BREAK, call("B", "7", "tl"), shot(hit("cue", "7"), hit("7", "8"), pot("8", "br"))],
        {},
        {"reason": None, "points": {}, "next": "A", "respot": [("8", FOOT)]},
        id="another ball without the called one: spotted, no penalty",
    ),
    pytest.param(
        [
            BREAK,
            call("B", "7", "tl"),
            shot(hit("cue", "10"), hit("10", "9"), pot("10", "bl"), pot("9", "br")),
        ],
        {},
        {"respot": [("9", FOOT), ("10", (635.0, 1905.0 + D))], "next": "A"},
        id="two balls spotted in numerical order on the long string",
    ),
    pytest.param(
        [BREAK, call("B"), shot(hit("cue", "8"), pot("8", "br"))],
        {},
        {"reason": None, "points": {}, "next": "A", "respot": [("8", FOOT)], "note": "safety"},
        id="safety: a pocketed ball is spotted and play passes",
    ),
    pytest.param(
        [BREAK, *miss("B")],
        {},
        {"reason": None, "points": {}, "score": {"A": 0, "B": 0}, "next": "A", "awaiting": ("call",)},
        id="legal miss: play passes",
    ),
    # standard fouls (WPA 4.9, 6.x)
    pytest.param(
        [BREAK, call("B", "7", "tl"), shot(hit("cue", "7"), rail("7"), pot("cue", "br"))],
        {},
        {
            "reason": "cue_ball_scratch",
            "penalty": 1,
            "rule": "WPA 4.9, 6.1",
            "points": {"B": -1},
            "score": {"A": 0, "B": -1},
            "next": "A",
            "note": "A has the cue ball in hand behind the head string",
        },
        id="scratch: -1, opponent in hand behind the head string, negative score",
    ),
    pytest.param(
        [BREAK, call("B", "7", "tl"), shot(hit("cue", "7"), rail("7"), off("cue"))],
        {},
        {"reason": "cue_ball_off_table", "points": {"B": -1}, "next": "A"},
        id="cue ball off the table",
    ),
    pytest.param(
        [BREAK, call("B", "7", "tl"), shot(rail("cue"))],
        {},
        {"reason": "no_contact", "points": {"B": -1}, "next": "A", "respot": []},
        id="cue ball hits no ball",
    ),
    pytest.param(
        [BREAK, *no_rail("B")],
        {},
        {"reason": "no_rail_after_contact", "penalty": 1, "points": {"B": -1}, "next": "A"},
        id="no ball to a rail after the contact",
    ),
    pytest.param(
        [BREAK, call("B", "7", "tl"), shot(rail("cue"), hit("cue", "7"))],
        {},
        {"reason": "no_rail_after_contact"},
        id="a rail before the contact does not count",
    ),
    pytest.param(
        [BREAK, call("B", "7", "tl"), shot(hit("cue", "7"), hit("7", "6"), off("6"))],
        {},
        {"reason": "object_ball_off_table", "points": {"B": -1}, "respot": [("6", FOOT)]},
        id="object ball off the table: foul, ball spotted",
    ),
    pytest.param(
        [BREAK, call("B", "7", "tl"), shot(hit("cue", "7"), pot("7", "tl"), pot("cue", "tr"))],
        {},
        {
            "reason": "cue_ball_scratch",
            "points": {"B": -1},
            "respot": [("7", FOOT)],
            "note": "the called ball was pocketed on a foul",
        },
        id="called ball pocketed on a scratch: spotted, -1",
    ),
    pytest.param(
        [BREAK, call("B", "7", "tl"), shot(hit("cue", "7"), pot("7", "tl"), off("6"))],
        {},
        {
            "reason": "object_ball_off_table",
            "points": {"B": -1},
            "respot": [("6", FOOT), ("7", (635.0, 1905 + D))],
        },
        id="called ball pocketed while another leaves the table: foul, both spotted",
    ),
    pytest.param(
        [BREAK, *no_rail("B"), call("A", "1", "bl"), shot(hit("cue", "1"), rail("1"))],
        {},
        {"player": "A", "reason": None, "next": "B"},
        id="cue ball stays after a standard foul: a kitchen ball may be hit",
    ),
    pytest.param(
        [BREAK, *SCRATCH_B, call("A", "1", "bl"), shot(hit("cue", "1"), rail("1"))],
        {},
        {"player": "A", "reason": "bad_play_from_behind_head_string", "points": {"A": -1}, "next": "B"},
        id="in hand behind the head string: first ball behind the head string is a foul",
    ),
    pytest.param(
        [BREAK, *SCRATCH_B, call("A", "1", "bl"), shot(rail("cue"), hit("cue", "1"), rail("1"))],
        {},
        {"player": "A", "reason": None, "next": "B"},
        id="in hand: a rail before the kitchen ball is taken as crossing the head string",
    ),
    # three consecutive fouls (WPA 4.11, 6.14)
    pytest.param(
        [BREAK, *no_rail("B"), *miss("A"), *no_rail("B")],
        {},
        {
            "reason": "no_rail_after_contact",
            "score": {"A": 0, "B": -2},
            "note": "B is on 2 consecutive fouls",
        },
        id="second consecutive foul: -1 and a warning",
    ),
    pytest.param(
        THREE_FOULS,
        {},
        {
            "player": "B",
            "reason": "three_consecutive_fouls",
            "penalty": 16,
            "rule": "WPA 4.11, 6.14",
            "points": {"B": -16},
            "score": {"A": 0, "B": -18},
            "next": "B",
            "awaiting": (),
            "respot": racked(RACK_15),
            "note": "third consecutive foul (no_rail_after_contact)",
        },
        id="third consecutive foul: -16, all fifteen re-racked, offender breaks",
    ),
    pytest.param(
        [*THREE_FOULS, BAD_BREAK],
        {},
        {"player": "B", "reason": "breaking_foul", "score": {"A": 0, "B": -20}, "next": "A"},
        id="after three fouls the offender breaks under the opening-break rules",
    ),
    pytest.param(
        [*THREE_FOULS, BREAK, *miss("A"), *no_rail("B")],
        {},
        {"reason": "no_rail_after_contact", "points": {"B": -1}, "score": {"A": 0, "B": -19}},
        id="the count starts again from zero after the third foul",
    ),
    pytest.param(
        [BREAK, *no_rail("B"), *miss("A"), *miss("B"), *miss("A"), *no_rail("B"), *miss("A"), *no_rail("B")],
        {},
        {"reason": "no_rail_after_contact", "points": {"B": -1}, "score": {"A": 0, "B": -3}},
        id="a legal shot between fouls resets the count",
    ),
    pytest.param(
        [BREAK, *no_rail("B"), *miss("A"), *pots("B", "9"), *no_rail("B"), *miss("A"), *no_rail("B")],
        {},
        {"reason": "no_rail_after_contact", "points": {"B": -1}, "score": {"A": 0, "B": -2}},
        id="fouls in three innings but a pot in between is not three in a row (WPA 6.14)",
    ),
    # the re-rack after fourteen (WPA 4.4, 4.8)
    pytest.param(
        last_pot({"15": (300.0, 1200.0), "cue": (900.0, 1500.0)}),
        {},
        {
            "shot": 15,
            "points": {"B": 1},
            "score": {"A": 0, "B": 14},
            "next": "B",
            "awaiting": ("call",),
            "respot": racked(RACK_14),
            "note": "re-rack: 14 balls racked, apex empty",
        },
        id="re-rack: 15th ball and cue ball clear of the rack stay",
    ),
    pytest.param(
        last_pot({"15": (560.0, 1990.0), "cue": (900.0, 1500.0)}),
        {},
        {"respot": [*racked(RACK_14), ("15", HEAD)], "next": "B"},
        id="re-rack: 15th ball in the rack goes on the head spot",
    ),
    pytest.param(
        last_pot({"15": (560.0, 1990.0), "cue": (610.0, 640.0)}),
        {},
        {"respot": [*racked(RACK_14), ("15", CENTRE)]},
        id="re-rack: 15th ball in the rack, cue ball on the head spot: ball on the centre spot",
    ),
    pytest.param(
        last_pot({"15": (560.0, 1990.0), "cue": (720.0, 2080.0)}),
        {},
        {"respot": racked(RACK_15_APEX_15), "note": "B has the cue ball in hand"},
        id="re-rack: both in the rack: fifteen racked, cue ball in hand",
    ),
    pytest.param(
        last_pot({"cue": (900.0, 1500.0)}, pot("15", "br")),
        {},
        {"points": {"B": 2}, "score": {"A": 0, "B": 15}, "respot": racked(RACK_15)},
        id="re-rack: 15th ball pocketed with the 14th: both score, fifteen racked",
    ),
    pytest.param(
        last_pot({"cue": (720.0, 2080.0)}, pot("15", "br")),
        {},
        {"respot": racked(RACK_15), "note": "B has the cue ball in hand"},
        id="re-rack: 15th ball pocketed, cue ball in the rack: in hand",
    ),
    pytest.param(
        last_pot({"15": (300.0, 400.0), "cue": (720.0, 2080.0)}),
        {},
        {"respot": [*racked(RACK_14), ("cue", HEAD)]},
        id="re-rack: 15th ball behind the head string, cue ball in the rack: cue ball on the head spot",
    ),
    pytest.param(
        last_pot({"15": (660.0, 640.0), "cue": (720.0, 2080.0)}),
        {},
        {"respot": [*racked(RACK_14), ("cue", CENTRE)]},
        id="re-rack: 15th ball on the head spot, cue ball in the rack: cue ball on the centre spot",
    ),
    pytest.param(
        last_pot({"15": (300.0, 1200.0), "cue": (720.0, 2080.0)}),
        {},
        {"respot": racked(RACK_14), "note": "B has the cue ball in hand behind the head string"},
        id="re-rack: 15th ball in front of the head string, cue ball in the rack: in hand",
    ),
    pytest.param(
        [
            *last_pot({"15": (300.0, 1200.0), "cue": (900.0, 1500.0)}),
            call("B", "3", "tl"),
            shot(hit("cue", "3"), pot("3", "tl"), at=AFTER_RERACK_3),
        ],
        {},
        {"points": {"B": 1}, "score": {"A": 0, "B": 15}, "respot": []},
        id="after a re-rack any racked ball may be called",
    ),
    pytest.param(
        [
            *run_to_two_left(),
            call("B", "14", "tl"),
            shot(hit("cue", "14"), pot("14", "tl"), pot("cue", "br"), at={"15": (300.0, 1200.0)}),
        ],
        {},
        {"reason": "cue_ball_scratch", "score": {"A": 0, "B": 12}, "respot": [("14", FOOT)], "next": "A"},
        id="no re-rack when the 14th ball drops on a foul",
    ),
    # the end of the game (WPA 4.4, 4.7)
    pytest.param(
        [BREAK, *pots("B", "7"), *pots("B", "8")],
        {"target": 2},
        {"points": {"B": 1}, "score": {"A": 0, "B": 2}, "next": None, "over": True, "winner": "B"},
        id="target reached: game over",
    ),
    pytest.param(
        [BREAK, call("B", "7", "tl"), shot(hit("cue", "7"), hit("7", "8"), pot("7", "tl"), pot("8", "br"))],
        {"target": 2},
        {"points": {"B": 2}, "over": True, "winner": "B"},
        id="target reached with an extra ball",
    ),
    pytest.param(
        [*run_to_two_left(), call("B", "14", "tl"), shot(hit("cue", "14"), pot("14", "tl"), at={"15": FOOT})],
        {"target": 14},
        {"over": True, "winner": "B", "respot": [], "next": None},
        id="no re-rack when the 14th ball wins the game",
    ),
    pytest.param(
        [BREAK, concede("B")],
        {},
        {"shot": 1, "player": "B", "points": {}, "next": None, "over": True, "winner": "A"},
        id="concession: the opponent wins",
    ),
    pytest.param(
        [BREAK, *pots("B", "7")],
        {"first": "B"},
        RefereeError,
        id="option first: B breaks, so B's call after his own break is the wrong turn",
    ),
    pytest.param(
        [BREAK],
        {"first": "B"},
        {"player": "B", "next": "A"},
        id="option first: B breaks",
    ),
]


def _check(decision: Decision, expect: dict[str, Any]) -> None:
    foul = decision.foul
    for key, want in expect.items():
        if key == "reason":
            assert (foul.reason if foul else None) == want
        elif key == "penalty":
            assert foul is not None and foul.penalty == want
        elif key == "rule":
            assert foul is not None and foul.rule == want
        elif key == "respot":
            got = [(r.ball, r.xy_mm) for r in decision.respot]
            assert [b for b, _ in got] == [b for b, _ in want]
            for (_, xy), (_, want_xy) in zip(got, want, strict=True):
                assert xy == pytest.approx(want_xy, abs=0.006)  # written to 0.01 mm
        elif key == "note":
            assert any(want in n for n in decision.notes), decision.notes
        else:
            assert getattr(decision, key) == want, key


@pytest.mark.parametrize(("stream", "options", "expect"), CASES)
def test_rule_case(stream: list[Any], options: dict[str, Any], expect: Any) -> None:
    if expect is RefereeError:
        with pytest.raises(RefereeError):
            decisions(stream, **options)
        return
    made = decisions(stream, **options)
    assert made, "the stream settled nothing"
    _check(made[-1], expect)
    assert from_json(to_json(made[-1])) == made[-1]  # every decision is a valid contract line


# --- lines the engine cannot use ---------------------------------------------------------------------------

SHOT_START = {"type": "shot_start", "ball": "cue"}

ERRORS: list[Any] = [
    pytest.param([BREAK, [SHOT_START]], "shot without a call", id="no call"),
    pytest.param([BREAK, call("A", "7", "tl")], "B is at the table", id="call by the wrong player"),
    pytest.param([BREAK, call("B", "16", "tl")], "object ball 1..15", id="call of a ball not in the game"),
    pytest.param(
        [BREAK, *pots("B", "7"), call("B", "7", "tl")], "not on the table", id="call of a potted ball"
    ),
    pytest.param([BREAK, call("B", "7")], "no pocket", id="call without a pocket"),
    pytest.param(
        [BREAK, call("B", "7", "tl"), SHOT_START, call("B", "8", "tl")],
        "during a shot",
        id="call inside a shot",
    ),
    pytest.param([BAD_BREAK, choice("A", "play")], "is B's", id="choice by the offender"),
    pytest.param([BAD_BREAK, choice("B", "pass")], "the options are play", id="choice pass"),
    pytest.param([BAD_BREAK, choice("B", "replace")], "the options are play", id="choice replace"),
    pytest.param([BAD_BREAK, [SHOT_START]], "choice is awaited", id="shot while a choice is awaited"),
    pytest.param([BAD_BREAK, call("A", "7", "tl")], "choice is awaited", id="call while a choice is awaited"),
    pytest.param([BREAK, choice("B", "play")], "none is awaited", id="choice without a breaking foul"),
    pytest.param([BAD_BREAK, choice("B", "play"), [SHOT_START]], "without a call", id="play needs a call"),
    pytest.param(
        [BREAK, call("B", "7", "tl"), [SHOT_START, hit("cue", "16")]], "not in 14.1", id="unknown ball"
    ),
    pytest.param(
        [BREAK, call("B", "7", "tl"), shot(hit("cue", "7"), at={**SPREAD, "red": (1.0, 1.0)})],
        "not in 14.1",
        id="unknown ball at rest",
    ),
    pytest.param([[{"type": "shot_start", "ball": "7"}]], "strikes the cue ball", id="object ball struck"),
    pytest.param([{"type": "declare", "player": "A", "ball": "7"}], "14.1 reads call", id="declare line"),
    pytest.param(
        [[SHOT_START, {"type": "pin_down", "pin": "pin:c", "by": "cue"}]],
        "no pins",
        id="pin_down line",
    ),
    pytest.param(
        [[{"type": "cushion", "ball": "cue", "side": "top"}]], "outside a shot", id="event outside a shot"
    ),
    pytest.param([BREAK, concede("B"), call("A", "8", "br")], "game is over", id="line after the end"),
    pytest.param([[SHOT_START], concede("A")], "during a shot", id="concede inside a shot"),
]


@pytest.mark.parametrize(("stream", "message"), ERRORS)
def test_unusable_line(stream: list[Any], message: str) -> None:
    with pytest.raises(RefereeError, match=message) as err:
        decisions(stream)
    assert err.value.line_no == len(lines_of(stream))  # the last line is the bad one


@pytest.mark.parametrize(
    ("options", "players", "message"),
    [
        ({"target": 0}, ["A", "B"], "target must be an integer >= 1"),
        ({"target": "150"}, ["A", "B"], "target must be an integer >= 1"),
        ({"target": True}, ["A", "B"], "target must be an integer >= 1"),
        ({"race": 5}, ["A", "B"], "straight-pool has no option 'race'; its options: target"),
        ({"first": "C"}, ["A", "B"], "first must be one of the players"),
        ({}, ["A", "B", "C"], "straight-pool is played by exactly 2 players"),
    ],
)
def test_bad_options(options: dict[str, Any], players: list[str], message: str) -> None:
    header = {"type": "match", "v": 1, "game": "straight-pool", "players": players, "options": options}
    with pytest.raises(RefereeError, match=message):
        list(referee([json.dumps(header)], straight_pool.ENGINE))


def test_default_target_is_150_and_the_engine_is_registered() -> None:
    assert engine_for(game("straight-pool")) is straight_pool.ENGINE
    (header,) = lines_of([])
    state = straight_pool.start(from_json(header))
    assert state.target == 150
    assert state.turn == "A"
    assert dict(state.score) == {"A": 0, "B": 0}
    assert len(state.table) == 15 and "cue" not in state.table and state.cue_in_hand


def test_foul_table_is_complete() -> None:
    assert set(straight_pool.FOULS) == set(straight_pool.Reason)
    assert straight_pool.FOULS[straight_pool.Reason.THREE_CONSECUTIVE_FOULS].penalty == 16
    assert straight_pool.FOULS[straight_pool.Reason.BREAKING_FOUL].penalty == 2
    assert all(straight_pool.FOULS[r].penalty == 1 for r in straight_pool.STANDARD_FOULS)


def test_every_ball_behind_the_head_string_notes_the_spot_on_request() -> None:
    kitchen = {str(n): (60.0 * n, 300.0 + n) for n in range(1, 16)} | {"cue": (635.0, 1600.0)}
    stream = [
        shot(hit("cue", "2"), rail("cue"), rail("3"), rail("4"), at=kitchen),
        call("B", "7", "tl"),
        shot(hit("cue", "7"), rail("7"), pot("cue", "br"), at=without(kitchen, "cue")),
    ]
    last = decisions(stream)[-1]
    assert last.foul is not None and last.foul.reason == "cue_ball_scratch"
    assert any(
        n.startswith("every object ball is behind the head string: 15 may be spotted") for n in last.notes
    )


# --- whole games -------------------------------------------------------------------------------------------


def test_whole_game_to_the_target_with_a_rerack() -> None:
    """A breaks; B runs five, misses; A scratches; B runs the rack, re-racks, breaks it, wins 20 to -1."""
    stream: list[Any] = [BREAK]
    left = dict(SPREAD)

    def b_pots(ball: str, at: dict[str, tuple[float, float]] | None = None) -> None:
        nonlocal left
        left = without(left, ball)
        stream.extend([call("B", ball, "tr"), shot(hit("cue", ball), pot(ball, "tr"), at=at or left)])

    for n in range(1, 6):
        b_pots(str(n))
    stream.extend([call("B", "6", "tl"), shot(hit("cue", "6"), rail("6"), at=left)])  # a legal miss
    stream.extend(
        [call("A", "6", "tl"), shot(hit("cue", "6"), rail("6"), pot("cue", "bl"), at=without(left, "cue"))]
    )
    left["cue"] = (635.0, 500.0)  # B places the cue ball in the kitchen
    for n in range(6, 14):
        b_pots(str(n))
    b_pots("14", at={"15": (1000.0, 1500.0), "cue": (700.0, 1400.0)})  # the 14th: re-rack, 15 stays
    # the break shot of the new rack: 15 into br, the cue ball opens the 14 (B's SPREAD positions again)
    left = without(SPREAD, "15")
    stream.extend(
        [call("B", "15", "br"), shot(hit("cue", "15"), pot("15", "br"), hit("cue", "7"), rail("7"), at=left)]
    )
    for n in (1, 2, 3, 4, 5):
        b_pots(str(n))
    results = run(stream, target=20)
    made = [d for r in results for d in r.decisions]

    assert len(made) == 1 + 5 + 1 + 1 + 9 + 1 + 5
    assert [d.player for d in made[:8]] == ["A", "B", "B", "B", "B", "B", "B", "A"]
    scratch = made[7]
    assert scratch.foul is not None and scratch.foul.reason == "cue_ball_scratch"
    assert scratch.score == {"A": -1, "B": 5}
    rerack = made[16]
    assert rerack.score == {"A": -1, "B": 14}
    assert [r.ball for r in rerack.respot] == [str(n) for n in range(1, 15)]
    assert any(n.startswith("re-rack: 14 balls racked, apex empty") for n in rerack.notes)
    assert made[17].score == {"A": -1, "B": 15}
    final = made[-1]
    assert (final.over, final.winner, final.next, final.score) == (True, "B", None, {"A": -1, "B": 20})
    assert all(not d.over for d in made[:-1])
    state = results[-1].state
    assert (state.over, state.winner, dict(state.score)) == (True, "B", {"A": -1, "B": 20})
    for d in made:
        assert from_json(to_json(d)) == d


def test_whole_game_with_breaking_fouls_three_fouls_and_a_concession() -> None:
    """Failed break re-broken, accepted second time; B fouls three times, re-breaks; A concedes."""
    stream = [
        BAD_BREAK,
        choice("B", "rebreak"),
        BAD_BREAK,
        choice("B", "play"),
        *no_rail("B"),
        *miss("A"),
        *no_rail("B"),
        *miss("A"),
        *no_rail("B"),
        BREAK,  # B's opening break after the third foul
        *pots("A", "7"),
        *pots("A", "8"),
        concede("A"),
    ]
    made = decisions(stream)
    summary = [(d.shot, d.player, d.foul.reason if d.foul else None, dict(d.score)) for d in made]
    assert summary == [
        (1, "A", "breaking_foul", {"A": -2, "B": 0}),
        (2, "A", "breaking_foul", {"A": -4, "B": 0}),
        (3, "B", "no_rail_after_contact", {"A": -4, "B": -1}),
        (4, "A", None, {"A": -4, "B": -1}),
        (5, "B", "no_rail_after_contact", {"A": -4, "B": -2}),
        (6, "A", None, {"A": -4, "B": -2}),
        (7, "B", "three_consecutive_fouls", {"A": -4, "B": -18}),
        (8, "B", None, {"A": -4, "B": -18}),
        (9, "A", None, {"A": -3, "B": -18}),
        (10, "A", None, {"A": -2, "B": -18}),
        (10, "A", None, {"A": -2, "B": -18}),
    ]
    assert (made[-1].over, made[-1].winner) == (True, "B")
