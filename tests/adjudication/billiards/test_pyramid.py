"""Russian pyramid engine: one row per rule case for each variant, unusable lines, options, whole games.

Streams are built shot by shot by ``Table``, which keeps the balls on the table (applying the engine's
respots) so that every ``shot_end`` lists the balls really there, as the contract requires.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from adjudication.billiards import pyramid
from adjudication.engines import engine_for
from adjudication.referee import RefereeError, referee
from arbiter.contract import Decision, Match, parse_line
from arbiter.games import game

BACK = (889.0, 2676.75)  # the back spot of billiards("pyramid").table
BEHIND_BACK = (889.0, 2676.75 + 68.0)  # the next free point behind it on the long axis (one ball diameter)
IN_HOME = (500.0, 500.0)  # behind the home line (y 892.25)
CUE_AFTER = (889.0, 1200.0)  # where the cue ball comes to rest unless a step says otherwise


def rack() -> dict[str, tuple[float, float]]:
    """Object balls in the back half, clear of the back spot; the cue ball is in hand."""
    return {str(n): (250.0 + 160.0 * ((n - 1) % 5), 2000.0 + 150.0 * ((n - 1) // 5)) for n in range(1, 16)}


# --- stream steps --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class S:
    """A shot: the struck ball and its camera events; ``at`` moves balls (shot_end), ``take`` lifts balls off
    the table before it (a svoyak's or a penalty ball)."""

    ball: str
    events: tuple[tuple[Any, ...], ...] = ()
    at: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    take: tuple[str, ...] = ()


def shot(ball: str, *events: tuple[Any, ...], at: Mapping[str, tuple[float, float]] | None = None,
         take: tuple[str, ...] = ()) -> S:  # fmt: skip
    return S(ball, events, at or {}, take)


def hit(a: str, b: str) -> tuple[Any, ...]:
    return ("ball_ball", a, b)


def cush(ball: str, side: str) -> tuple[Any, ...]:
    return ("cushion", ball, side)


def pot(ball: str, pocket: str = "tr") -> tuple[Any, ...]:
    return ("pocket", ball, pocket)


def off(ball: str) -> tuple[Any, ...]:
    return ("off_table", ball)


@dataclass(frozen=True)
class C:
    player: str
    option: str


@dataclass(frozen=True)
class X:
    player: str


class Table:
    """Builds a stream and feeds it through the engine line by line, keeping the balls on the table."""

    def __init__(self, variant: str, **options: Any) -> None:
        header = {"type": "match", "v": 1, "game": "pyramid", "players": ["A", "B"]}
        header["options"] = {"variant": variant, **options}
        self.lines = [json.dumps(header)]
        match = parse_line(self.lines[0])
        assert isinstance(match, Match)
        self.state = pyramid.start(match)
        self.decisions: list[Decision] = []
        self.balls = rack()
        self.t = 0.0

    def feed(self, obj: dict[str, Any]) -> None:
        if "t" in obj:
            self.t += 0.1
            obj["t"] = round(self.t, 3)
        self.lines.append(json.dumps(obj))
        self.state, decisions = pyramid.step(self.state, parse_line(self.lines[-1], len(self.lines)))
        for d in decisions:
            self.decisions.append(d)
            for r in d.respot:
                self.balls[r.ball] = r.xy_mm

    def play(self, *steps: S | C | X | dict[str, Any]) -> Table:
        for s in steps:
            if isinstance(s, S):
                self._shot(s)
            elif isinstance(s, C):
                self.feed({"type": "choice", "player": s.player, "option": s.option})
                if s.option == "rebreak":
                    self.balls = rack()
            elif isinstance(s, X):
                self.feed({"type": "concede", "player": s.player})
            else:
                self.feed(dict(s))
        return self

    def _shot(self, s: S) -> None:
        lines, self.balls = shot_lines(s, self.balls)
        for line in lines:
            self.feed(line)


def shot_lines(s: S, balls: Mapping[str, tuple[float, float]]) -> tuple[list[dict[str, Any]], dict]:
    """The lines of one shot (times set by whoever feeds them) and the balls on the table after it."""
    balls = {b: xy for b, xy in balls.items() if b not in s.take}
    lines: list[dict[str, Any]] = [{"type": "shot_start", "t": 0, "ball": s.ball}]
    gone = set()
    for kind, *args in s.events:
        if kind == "ball_ball":
            lines.append({"type": kind, "t": 0, "balls": args})
        elif kind == "cushion":
            lines.append({"type": kind, "t": 0, "ball": args[0], "side": args[1]})
        elif kind == "pocket":
            lines.append({"type": kind, "t": 0, "ball": args[0], "pocket": args[1]})
            gone.add(args[0])
        else:
            lines.append({"type": kind, "t": 0, "ball": args[0]})
            gone.add(args[0])
    if s.ball == "cue" and "cue" not in gone:
        balls.setdefault("cue", CUE_AFTER)
    balls.update(s.at)
    for ball in gone:
        balls.pop(ball, None)
    lines.append({"type": "shot_end", "t": 0, "positions": {b: list(xy) for b, xy in balls.items()}})
    return lines, balls


def check(d: Decision, expect: Mapping[str, Any]) -> None:
    for key, want in expect.items():
        if key == "foul":
            got = None if d.foul is None else (d.foul.reason, d.foul.penalty)
            assert got == want, f"foul {got} != {want}"
        elif key == "rule":
            assert d.foul is not None and want in d.foul.rule, d.foul
        elif key == "respot":
            assert [(r.ball, r.xy_mm) for r in d.respot] == want
        elif key == "note":
            assert any(want in n for n in d.notes), d.notes
        elif key == "no_note":
            assert not any(want in n for n in d.notes), d.notes
        elif key in ("points", "score"):
            assert dict(getattr(d, key)) == want, f"{key} {dict(getattr(d, key))} != {want}"
        elif key == "awaiting":
            assert list(d.awaiting) == want
        else:
            assert getattr(d, key) == want, f"{key} {getattr(d, key)!r} != {want!r}"


# --- rule cases ----------------------------------------------------------------------------------------

BREAK = shot("cue", hit("cue", "1"), cush("2", "left"), cush("3", "right"))  # legal, nothing potted: B on
DBREAK = shot("cue", hit("cue", "1"), cush("2", "left"), cush("3", "right"), cush("4", "left"))
B_SVOYAK = shot("cue", hit("cue", "9"), cush("9", "top"), pot("cue", "ml"))  # after a break, B's svoyak
HOME4 = {"4": IN_HOME}
Z = {"A": 0, "B": 0}


@dataclass(frozen=True)
class Row:
    id: str
    variant: str
    steps: tuple[S | C | X, ...]
    expect: Mapping[str, Any]
    options: Mapping[str, Any] = field(default_factory=dict)


FREE = [
    Row(
        "break-legal-two-cushions",
        "free",
        (BREAK,),
        {"foul": None, "points": {}, "score": Z, "next": "B", "note": "legal break"},
    ),
    Row(
        "break-pot",
        "free",
        (shot("cue", hit("cue", "1"), pot("5")),),
        {"foul": None, "points": {"A": 1}, "score": {"A": 1, "B": 0}, "next": "A"},
    ),
    Row(
        "break-one-cushion",
        "free",
        (shot("cue", hit("cue", "1"), cush("2", "top")),),
        {"foul": ("illegal_break", 1), "rule": "IPC General Rules 11-12", "points": {"B": 1}, "next": "B"},
    ),
    Row(
        "break-one-ball-two-cushions",
        "free",
        (shot("cue", hit("cue", "1"), cush("2", "left"), cush("2", "top")),),
        {"foul": ("illegal_break", 1), "points": {"B": 1}},
    ),
    Row(
        "break-with-object-ball",
        "free",
        (shot("7", hit("7", "1"), cush("2", "left"), cush("3", "right")),),
        {"foul": ("wrong_cue_ball", 1), "rule": "IPC Free Pyramid 4", "points": {"B": 1}, "next": "B"},
    ),
    Row(
        "break-no-contact",
        "free",
        (shot("cue", cush("cue", "top")),),
        {"foul": ("no_contact", 1), "points": {"B": 1}, "next": "B"},
    ),
    Row(
        "break-svoyak-counts",
        "free",
        (shot("cue", hit("cue", "1"), cush("2", "left"), cush("3", "right"), pot("cue", "tl")),),
        {"foul": None, "points": {"A": 1}, "next": "A", "note": "cue (svoyak)"},
    ),
    Row(
        "any-ball-struck-pots",
        "free",
        (BREAK, shot("5", hit("5", "9"), pot("9"))),
        {"player": "B", "foul": None, "points": {"B": 1}, "next": "B", "note": "IPC Free Pyramid 5.4"},
    ),
    Row(
        "svoyak-struck-ball",
        "free",
        (BREAK, shot("5", hit("5", "9"), cush("9", "left"), pot("5", "ml"))),
        {"foul": None, "points": {"B": 1}, "next": "B", "note": "5 (svoyak)"},
    ),
    Row(
        "object-and-svoyak",
        "free",
        (BREAK, shot("5", hit("5", "9"), pot("9"), pot("5", "ml"))),
        {"points": {"B": 2}, "score": {"A": 0, "B": 2}, "next": "B"},
    ),
    Row(
        "miss-passes-turn",
        "free",
        (BREAK, shot("5", hit("5", "9"), cush("9", "top"))),
        {"foul": None, "points": {}, "next": "A", "note": "turn passes"},
    ),
    Row(
        "no-contact",
        "free",
        (BREAK, shot("5", cush("5", "left"))),
        {"foul": ("no_contact", 1), "rule": "IPC General Rules 20", "points": {"A": 1}, "next": "A"},
    ),
    Row(
        "no-cushion",
        "free",
        (BREAK, shot("5", hit("5", "9"))),
        {"foul": ("no_cushion", 1), "points": {"A": 1}, "score": {"A": 1, "B": 0}, "next": "A"},
    ),
    Row(
        "struck-ball-off-respotted",
        "free",
        (BREAK, shot("5", hit("5", "9"), off("5"))),
        {"foul": ("ball_off_table", 1), "points": {"A": 1}, "respot": [("5", BACK)]},
    ),
    Row(
        "respot-behind-occupied-spot",
        "free",
        (BREAK, shot("5", hit("5", "9"), off("9"), at={"6": BACK})),
        {"foul": ("ball_off_table", 1), "respot": [("9", BEHIND_BACK)]},
    ),
    Row(
        "pot-on-foul-respotted",
        "free",
        (BREAK, shot("5", hit("5", "9"), pot("9"), off("5"))),
        {
            "foul": ("ball_off_table", 1),
            "points": {"A": 1},
            "score": {"A": 1, "B": 0},
            "respot": [("9", BACK), ("5", BEHIND_BACK)],
            "next": "A",
        },
    ),
    Row(
        "several-fouls-one-penalty",
        "free",
        (BREAK, shot("5", off("5"))),
        {
            "foul": ("no_contact", 1),
            "points": {"A": 1},
            "note": "also ball_off_table",
            "respot": [("5", BACK)],
        },
    ),
    Row(
        "ball-mode-returns-a-ball",
        "free",
        (shot("cue", hit("cue", "1"), pot("5")), shot("cue", hit("cue", "1"))),
        {
            "foul": ("no_cushion", 1),
            "points": {"A": -1},
            "score": Z,
            "respot": [("5", BACK)],
            "next": "B",
            "note": "back on the table",
        },
        {"foul_penalty": "ball"},
    ),
    Row(
        "ball-mode-empty-shelf-debt",
        "free",
        (BREAK, shot("5", hit("5", "9"))),
        {
            "foul": ("no_cushion", 1),
            "points": {"B": -1},
            "score": {"A": 0, "B": -1},
            "respot": [],
            "note": "owes one",
        },
        {"foul_penalty": "ball"},
    ),
    Row(
        "ball-mode-debt-paid-by-next-pot",
        "free",
        (
            BREAK,
            shot("5", hit("5", "9")),
            shot("cue", hit("cue", "2"), cush("2", "left")),
            shot("9", hit("9", "3"), pot("3", "tl")),
        ),
        {"foul": None, "points": {"B": 1}, "score": Z, "respot": [("3", BACK)], "next": "B", "note": "debt"},
        {"foul_penalty": "ball"},
    ),
    Row(
        "ball-mode-debt-paid-once",
        "free",
        (
            BREAK,
            shot("5", hit("5", "9")),
            shot("cue", hit("cue", "2"), cush("2", "left")),
            shot("9", hit("9", "3"), pot("3", "tl")),
            shot("9", hit("9", "10"), pot("10", "tr")),
        ),
        {"foul": None, "points": {"B": 1}, "score": {"A": 0, "B": 1}, "respot": [], "no_note": "debt"},
        {"foul_penalty": "ball"},
    ),
    Row(
        "foul-point-wins-for-opponent",
        "free",
        (BREAK, shot("5", hit("5", "9"))),
        {"foul": ("no_cushion", 1), "score": {"A": 1, "B": 0}, "over": True, "winner": "A", "next": None},
        {"target": 1},
    ),
    Row(
        "pot-reaches-target",
        "free",
        (shot("cue", hit("cue", "1"), pot("5"), pot("6", "tl")),),
        {"points": {"A": 2}, "over": True, "winner": "A", "next": None, "note": "wins"},
        {"target": 2},
    ),
    Row(
        "concede",
        "free",
        (BREAK, X("B")),
        {"shot": 1, "player": "B", "foul": None, "over": True, "winner": "A", "next": None},
    ),
    Row(
        "first-option-breaker",
        "free",
        (shot("cue", hit("cue", "1"), pot("5")),),
        {"player": "B", "points": {"B": 1}, "next": "B"},
        {"first": "B"},
    ),
]

COMBINED = [
    Row("break-legal", "combined", (BREAK,), {"foul": None, "points": {}, "next": "B", "no_note": "in hand"}),
    Row(
        "break-pot",
        "combined",
        (shot("cue", hit("cue", "1"), pot("5")),),
        {"foul": None, "points": {"A": 1}, "next": "A"},
    ),
    Row(
        "break-illegal",
        "combined",
        (shot("cue", hit("cue", "1"), cush("2", "top")),),
        {"foul": ("illegal_break", 1), "points": {"B": 1}, "next": "B", "note": "penalty ball"},
    ),
    Row(
        "break-with-object-ball",
        "combined",
        (shot("7", hit("7", "1"), cush("2", "left"), cush("3", "right")),),
        {
            "foul": ("wrong_cue_ball", 1),
            "rule": "IPC Combined Pyramid: the yellow cue ball only",
            "points": {"B": 1},
        },
    ),
    Row(
        "break-svoyak",
        "combined",
        (shot("cue", hit("cue", "1"), cush("2", "left"), cush("3", "right"), pot("cue", "bl")),),
        {"foul": None, "points": {"A": 1}, "next": "A", "note": "in hand for A from home"},
    ),
    Row(
        "object-pot",
        "combined",
        (BREAK, shot("cue", hit("cue", "9"), pot("9"))),
        {"player": "B", "foul": None, "points": {"B": 1}, "next": "B", "note": "IPC Combined Pyramid 1"},
    ),
    Row(
        "svoyak",
        "combined",
        (BREAK, B_SVOYAK),
        {"foul": None, "points": {"B": 1}, "next": "B", "note": "takes an object ball of his choice"},
    ),
    Row(
        "struck-object-ball",
        "combined",
        (BREAK, shot("5", hit("5", "9"), pot("9"))),
        {"foul": ("wrong_cue_ball", 1), "points": {"A": 1}, "respot": [("9", BACK)], "next": "A"},
    ),
    Row(
        "no-contact",
        "combined",
        (BREAK, shot("cue", cush("cue", "top"))),
        {"foul": ("no_contact", 1), "points": {"A": 1}},
    ),
    Row(
        "no-cushion",
        "combined",
        (BREAK, shot("cue", hit("cue", "9"))),
        {"foul": ("no_cushion", 1), "points": {"A": 1}},
    ),
    Row(
        "cue-off-table-in-hand",
        "combined",
        (BREAK, shot("cue", hit("cue", "9"), off("cue"))),
        {"foul": ("ball_off_table", 1), "respot": [], "next": "A", "note": "in hand for A from home"},
    ),
    Row(
        "object-off-table",
        "combined",
        (BREAK, shot("cue", hit("cue", "9"), off("9"))),
        {"foul": ("ball_off_table", 1), "respot": [("9", BACK)]},
    ),
    Row(
        "cue-potted-no-contact",
        "combined",
        (BREAK, shot("cue", pot("cue", "bl"))),
        {"foul": ("no_contact", 1), "respot": [], "note": "in hand for A from home"},
    ),
    Row(
        "from-home-ball-in-home-first",
        "combined",
        (
            shot("cue", hit("cue", "1"), cush("2", "left"), cush("3", "right"), at=HOME4),
            B_SVOYAK,
            shot("cue", hit("cue", "4"), cush("4", "left")),
        ),
        {"foul": ("ball_in_home_hit", 1), "rule": "IPC Combined Pyramid 6", "points": {"A": 1}, "next": "A"},
    ),
    Row(
        "from-home-top-cushion-first",
        "combined",
        (
            shot("cue", hit("cue", "1"), cush("2", "left"), cush("3", "right"), at=HOME4),
            B_SVOYAK,
            shot("cue", cush("cue", "top"), hit("cue", "4"), cush("4", "left")),
        ),
        {"foul": None, "points": {}, "next": "A"},
    ),
    Row(
        "from-home-ball-outside-home",
        "combined",
        (
            shot("cue", hit("cue", "1"), cush("2", "left"), cush("3", "right"), at=HOME4),
            B_SVOYAK,
            shot("cue", hit("cue", "10"), pot("10")),
        ),
        {"foul": None, "points": {"B": 1}, "score": {"A": 0, "B": 2}, "next": "B"},
    ),
    Row(
        "temporary-home-note",
        "combined",
        (
            shot(
                "cue",
                hit("cue", "1"),
                cush("2", "left"),
                cush("3", "right"),
                at={str(n): (100.0 + 100.0 * n, 400.0) for n in range(1, 16)},
            ),
            shot("cue", hit("cue", "4"), cush("4", "left"), pot("cue", "ml")),
        ),
        {"foul": None, "points": {"B": 1}, "note": "temporary home"},
    ),
    Row(
        "temporary-home-ball-in-home-legal",
        "combined",
        (
            shot(
                "cue",
                hit("cue", "1"),
                cush("2", "left"),
                cush("3", "right"),
                at={str(n): (100.0 + 100.0 * n, 400.0) for n in range(1, 16)},
            ),
            shot("cue", hit("cue", "4"), cush("4", "left"), pot("cue", "ml")),
            shot("cue", hit("cue", "5"), cush("5", "left")),
        ),
        {"foul": None, "points": {}, "next": "A"},
    ),
    Row(
        "opponent-in-hand-after-cue-pot",
        "combined",
        (
            shot("cue", hit("cue", "1"), cush("2", "left"), cush("3", "right"), at=HOME4),
            shot("cue", pot("cue", "bl")),
            shot("cue", hit("cue", "4"), cush("4", "left")),
        ),
        {"player": "A", "foul": ("ball_in_home_hit", 1), "score": {"A": 1, "B": 1}, "next": "B"},
    ),
    Row(
        "ball-mode-returns-a-ball",
        "combined",
        (shot("cue", hit("cue", "1"), pot("5")), shot("cue", hit("cue", "1"))),
        {"foul": ("no_cushion", 1), "points": {"A": -1}, "respot": [("5", BACK)], "no_note": "penalty ball"},
        {"foul_penalty": "ball"},
    ),
    Row(
        "ball-mode-svoyak-pays-debt",
        "combined",
        (BREAK, shot("cue", hit("cue", "9")), shot("cue", hit("cue", "2"), cush("2", "left")), B_SVOYAK),
        {
            "foul": None,
            "points": {"B": 1},
            "score": Z,
            "respot": [],
            "note": "svoyak pays",
            "no_note": "takes an object ball",
        },
        {"foul_penalty": "ball"},
    ),
    Row(
        "foul-wins-for-opponent",
        "combined",
        (BREAK, shot("cue", hit("cue", "9"))),
        {"over": True, "winner": "A", "next": None},
        {"target": 1},
    ),
    Row(
        "svoyak-wins",
        "combined",
        (BREAK, B_SVOYAK),
        {"points": {"B": 1}, "over": True, "winner": "B", "next": None, "no_note": "in hand"},
        {"target": 1},
    ),
]

DYNAMIC = [
    Row(
        "break-pot",
        "dynamic",
        (shot("cue", hit("cue", "1"), pot("5")),),
        {"foul": None, "points": {"A": 1}, "next": "A", "note": "IPC Dynamic Pyramid, opening break"},
    ),
    Row(
        "break-three-side-cushions",
        "dynamic",
        (DBREAK,),
        {"foul": None, "points": {}, "next": "B", "awaiting": []},
    ),
    Row(
        "break-two-cushions-one-over-centre",
        "dynamic",
        (shot("cue", hit("cue", "1"), cush("2", "left"), cush("3", "right"), at={"4": (889.0, 1500.0)}),),
        {"foul": None, "next": "B", "awaiting": []},
    ),
    Row(
        "break-two-side-cushions-only",
        "dynamic",
        (BREAK,),
        {
            "foul": ("illegal_break", 0),
            "rule": "IPC Dynamic Pyramid, opening break",
            "points": {},
            "score": Z,
            "next": "B",
            "awaiting": ["choice"],
            "note": "re-racks",
        },
    ),
    Row(
        "break-top-cushion-not-side",
        "dynamic",
        (shot("cue", hit("cue", "1"), cush("2", "left"), cush("3", "right"), cush("4", "top")),),
        {"foul": ("illegal_break", 0), "awaiting": ["choice"]},
    ),
    Row(
        "break-crossing-ball-must-be-a-third",
        "dynamic",
        (shot("cue", hit("cue", "1"), cush("2", "left"), cush("3", "right"), at={"2": (889.0, 1500.0)}),),
        {"foul": ("illegal_break", 0), "awaiting": ["choice"]},
    ),
    Row(
        "choice-play",
        "dynamic",
        (BREAK, C("B", "play"), shot("cue", hit("cue", "9"), pot("9"))),
        {"player": "B", "foul": None, "points": {"B": 1}, "next": "B", "no_note": "legal break"},
    ),
    Row(
        "choice-rebreak",
        "dynamic",
        (BREAK, C("B", "rebreak"), shot("cue", hit("cue", "1"), pot("5"))),
        {"shot": 2, "player": "B", "foul": None, "points": {"B": 1}, "next": "B", "note": "legal break"},
    ),
    Row(
        "rebreak-must-meet-break-test",
        "dynamic",
        (BREAK, C("B", "rebreak"), BREAK),
        {"player": "B", "foul": ("illegal_break", 0), "next": "A", "awaiting": ["choice"]},
    ),
    Row(
        "break-with-object-ball",
        "dynamic",
        (shot("7", hit("7", "1"), cush("2", "left")),),
        {
            "foul": ("wrong_cue_ball", 1),
            "rule": "IPC Dynamic Pyramid: the yellow cue ball only",
            "points": {"B": 1},
            "awaiting": ["choice"],
        },
    ),
    Row(
        "break-off-table-and-failed",
        "dynamic",
        (shot("cue", hit("cue", "1"), cush("2", "left"), off("3")),),
        {"foul": ("ball_off_table", 1), "points": {"B": 1}, "respot": [("3", BACK)], "awaiting": ["choice"]},
    ),
    Row(
        "svoyak-in-hand-anywhere",
        "dynamic",
        (DBREAK, B_SVOYAK),
        {"foul": None, "points": {"B": 1}, "next": "B", "note": "anywhere on the table"},
    ),
    Row(
        "cue-potted-from-hand",
        "dynamic",
        (DBREAK, B_SVOYAK, shot("cue", hit("cue", "10"), pot("cue", "tl"))),
        {
            "foul": ("cue_ball_potted_from_hand", 1),
            "points": {"A": 1},
            "score": {"A": 1, "B": 1},
            "next": "A",
            "note": "in hand for A, anywhere",
        },
    ),
    Row(
        "from-hand-ball-in-home-legal",
        "dynamic",
        (
            shot("cue", hit("cue", "1"), cush("2", "left"), cush("3", "right"), cush("5", "left"), at=HOME4),
            B_SVOYAK,
            shot("cue", hit("cue", "4"), pot("4", "bl")),
        ),
        {"foul": None, "points": {"B": 1}, "next": "B"},
    ),
    Row(
        "svoyak-not-from-hand",
        "dynamic",
        (
            DBREAK,
            B_SVOYAK,
            shot("cue", hit("cue", "10"), pot("10")),
            shot("cue", hit("cue", "11"), cush("11", "top"), pot("cue", "tl")),
        ),
        {"foul": None, "points": {"B": 1}, "score": {"A": 0, "B": 3}, "next": "B"},
    ),
    Row(
        "struck-object-ball",
        "dynamic",
        (DBREAK, shot("5", hit("5", "9"), cush("9", "left"))),
        {
            "foul": ("wrong_cue_ball", 1),
            "rule": "IPC Dynamic Pyramid: the yellow cue ball only",
            "points": {"A": 1},
            "next": "A",
        },
    ),
    Row(
        "no-contact",
        "dynamic",
        (DBREAK, shot("cue", cush("cue", "left"))),
        {"foul": ("no_contact", 1), "points": {"A": 1}},
    ),
    Row(
        "no-cushion",
        "dynamic",
        (DBREAK, shot("cue", hit("cue", "9"))),
        {"foul": ("no_cushion", 1), "points": {"A": 1}, "awaiting": []},
    ),
    Row(
        "cue-off-table-in-hand-anywhere",
        "dynamic",
        (DBREAK, shot("cue", hit("cue", "9"), off("cue"))),
        {"foul": ("ball_off_table", 1), "respot": [], "note": "in hand for A, anywhere"},
    ),
    Row(
        "object-off-table-spot-taken",
        "dynamic",
        (DBREAK, shot("cue", hit("cue", "9"), off("9"), at={"cue": BACK})),
        {"foul": ("ball_off_table", 1), "respot": [("9", BEHIND_BACK)]},
    ),
    Row(
        "ball-mode-debt",
        "dynamic",
        (DBREAK, shot("cue", hit("cue", "9"))),
        {"points": {"B": -1}, "score": {"A": 0, "B": -1}, "note": "owes one"},
        {"foul_penalty": "ball"},
    ),
    Row(
        "foul-wins-for-opponent",
        "dynamic",
        (DBREAK, shot("cue", hit("cue", "9"))),
        {"over": True, "winner": "A"},
        {"target": 1},
    ),
    Row(
        "pot-wins",
        "dynamic",
        (DBREAK, shot("cue", hit("cue", "9"), pot("9"))),
        {"over": True, "winner": "B", "next": None},
        {"target": 1},
    ),
    Row(
        "concede-while-choice-awaited",
        "dynamic",
        (BREAK, X("A")),
        {"player": "A", "over": True, "winner": "B", "awaiting": []},
    ),
]


@pytest.mark.parametrize("row", [*FREE, *COMBINED, *DYNAMIC], ids=lambda r: f"{r.variant}-{r.id}")
def test_rule_case(row: Row) -> None:
    table = Table(row.variant, **row.options).play(*row.steps)
    check(table.decisions[-1], row.expect)


def test_every_variant_has_twenty_rows() -> None:
    assert min(len(FREE), len(COMBINED), len(DYNAMIC)) >= 20


def test_one_decision_per_shot_numbered_from_one() -> None:
    table = Table("free").play(BREAK, shot("5", hit("5", "9"), pot("9")), shot("5", hit("5", "10")))
    assert [(d.shot, d.player) for d in table.decisions] == [(1, "A"), (2, "B"), (3, "B")]


# --- unusable lines ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bad:
    """Steps that are fine, then lines of which the ``at``-th (1-based) cannot be used."""

    id: str
    variant: str
    before: tuple[S | C | X, ...]
    line: dict[str, Any] | S
    message: str
    at: int = 1
    open_shot: bool = False  # a shot has started (and hit a ball) before the bad line


CALL = {"type": "call", "player": "A", "ball": "7", "pocket": "tl"}
START = {"type": "shot_start", "t": 0, "ball": "cue"}
BAD = [
    Bad(
        "unknown-struck-ball",
        "free",
        (),
        {"type": "shot_start", "t": 0, "ball": "white"},
        "not a pyramid ball",
    ),
    Bad(
        "unknown-ball-in-contact", "free", (), shot("cue", hit("cue", "16")), "'16' is not a pyramid ball", 2
    ),
    Bad(
        "unknown-ball-in-positions",
        "free",
        (),
        {"type": "shot_end", "t": 0, "positions": {"red:1": [1, 2]}},
        "'red:1' is not a pyramid ball",
        open_shot=True,
    ),
    Bad("call-not-taken", "free", (), CALL, "free pyramid takes no called shots"),
    Bad("call-not-taken-combined", "combined", (BREAK,), CALL, "combined pyramid takes no called shots"),
    Bad("declare-not-taken", "free", (), {"type": "declare", "player": "A", "ball": "7"}, "'declare'"),
    Bad(
        "choice-not-awaited",
        "dynamic",
        (DBREAK,),
        {"type": "choice", "player": "B", "option": "play"},
        "no choice is awaited",
    ),
    Bad(
        "choice-by-wrong-player",
        "dynamic",
        (BREAK,),
        {"type": "choice", "player": "A", "option": "play"},
        "the choice is B's",
    ),
    Bad(
        "choice-pass-not-offered",
        "dynamic",
        (BREAK,),
        {"type": "choice", "player": "B", "option": "pass"},
        "may only play",
    ),
    Bad("shot-while-choice-awaited", "dynamic", (BREAK,), START, "choice is awaited"),
    Bad("line-after-game-over", "free", (X("A"),), START, "the game is over"),
    Bad(
        "struck-ball-potted-earlier",
        "free",
        (shot("cue", hit("cue", "1"), pot("5")),),
        {"type": "shot_start", "t": 0, "ball": "5"},
        "'5' is not on the table",
    ),
    Bad(
        "cue-ball-on-a-shelf",
        "free",
        (shot("cue", hit("cue", "1"), cush("2", "left"), pot("cue", "bl"), pot("6")),),
        START,
        "'cue' is not on the table",
    ),
    Bad(
        "pot-of-ball-off-table",
        "free",
        (shot("cue", hit("cue", "1"), pot("5")),),
        shot("cue", hit("cue", "1"), pot("5")),
        "ball '5' is not on the table",
        3,
    ),
    Bad(
        "ball-potted-twice",
        "free",
        (),
        shot("cue", hit("cue", "1"), pot("5"), pot("5", "tl")),
        "already left the table",
        4,
    ),
    Bad(
        "camera-line-outside-shot",
        "free",
        (),
        {"type": "cushion", "t": 0, "ball": "1", "side": "top"},
        "outside a shot",
    ),
    Bad("shot-inside-shot", "free", (), START, "has not ended", open_shot=True),
    Bad(
        "pin-down",
        "free",
        (),
        {"type": "pin_down", "t": 0, "pin": "pin:c", "by": "cue"},
        "no pins",
        open_shot=True,
    ),
    Bad(
        "concede-during-shot", "free", (), {"type": "concede", "player": "A"}, "during a shot", open_shot=True
    ),
    Bad(
        "roll-not-taken",
        "free",
        (),
        {"type": "roll", "t": 0, "player": "A", "dice": [{"id": "d1", "value": 3}], "thrown": ["d1"]},
        "'roll'",
    ),
]


@pytest.mark.parametrize("bad", BAD, ids=lambda b: f"{b.variant}-{b.id}")
def test_unusable_line(bad: Bad) -> None:
    table = Table(bad.variant).play(*bad.before)
    if bad.open_shot:
        table.play(START, {"type": "ball_ball", "t": 0, "balls": ["cue", "1"]})
    more = shot_lines(bad.line, table.balls)[0] if isinstance(bad.line, S) else [dict(bad.line)]
    lines = list(table.lines)
    for i, line in enumerate(more):
        if "t" in line:
            line["t"] = 50.0 + i
        lines.append(json.dumps(line))
    with pytest.raises(RefereeError, match=bad.message) as err:
        list(referee(lines))
    assert err.value.line_no == len(table.lines) + bad.at


# --- options -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "players", "message"),
    [
        ({"variant": "classic"}, ("A", "B"), "variant must be one of free, combined, dynamic"),
        ({"target": 9}, ("A", "B"), "target must be an integer 1..8"),
        ({"target": 0}, ("A", "B"), "target must be an integer 1..8"),
        ({"target": "8"}, ("A", "B"), "target must be an integer"),
        ({"target": True}, ("A", "B"), "target must be an integer"),
        ({"foul_penalty": "minus"}, ("A", "B"), "foul_penalty must be one of point, ball"),
        ({"frames": 3}, ("A", "B"), "no option 'frames'"),
        ({"first": "C"}, ("A", "B"), "first must be one of the players"),
        ({}, ("A", "B", "C"), "pyramid is played by exactly 2 players"),
    ],
)
def test_bad_options(options: dict[str, Any], players: tuple[str, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pyramid.start(Match(game="pyramid", players=players, options=options))


def test_defaults() -> None:
    state = pyramid.start(Match(game="pyramid", players=("A", "B")))
    assert (state.variant, state.target, state.penalty, state.turn) == ("free", 8, "point", "A")
    assert (dict(state.score), state.over, state.winner) == (Z, False, None)
    assert state.in_hand == "home" and state.breaking


# --- whole games ---------------------------------------------------------------------------------------


def test_free_game_to_eight() -> None:
    table = Table("free").play(
        shot("cue", hit("cue", "1"), pot("1", "tl")),  # A 1
        shot("cue", hit("cue", "2"), pot("2", "tr"), pot("cue", "ml")),  # A 3: pot and svoyak
        shot("3", hit("3", "4")),  # no cushion: B 1
        shot("4", hit("4", "5"), pot("5", "bl")),  # B 2
        shot("6", hit("6", "7"), pot("7", "br"), pot("6", "mr")),  # B 4
        shot("8", hit("8", "9"), cush("9", "left")),  # miss
        shot("9", hit("9", "10"), pot("10", "tl")),  # A 4
        shot("11", hit("11", "12"), pot("12", "tr")),  # A 5
        shot("13", hit("13", "14"), off("14")),  # off the table: B 5, 14 respotted
        shot("14", hit("14", "15"), pot("15", "tl")),  # B 6
        shot("13", hit("13", "11"), pot("11", "tr"), pot("13", "ml")),  # B 8
    )
    scores = [(d.player, d.foul.reason if d.foul else None, dict(d.score)) for d in table.decisions]
    assert scores == [
        ("A", None, {"A": 1, "B": 0}),
        ("A", None, {"A": 3, "B": 0}),
        ("A", "no_cushion", {"A": 3, "B": 1}),
        ("B", None, {"A": 3, "B": 2}),
        ("B", None, {"A": 3, "B": 4}),
        ("B", None, {"A": 3, "B": 4}),
        ("A", None, {"A": 4, "B": 4}),
        ("A", None, {"A": 5, "B": 4}),
        ("A", "ball_off_table", {"A": 5, "B": 5}),
        ("B", None, {"A": 5, "B": 6}),
        ("B", None, {"A": 5, "B": 8}),
    ]
    assert [(r.ball, r.xy_mm) for r in table.decisions[8].respot] == [("14", BACK)]
    last = table.decisions[-1]
    assert (last.over, last.winner, last.next) == (True, "B", None)
    assert (table.state.over, table.state.winner, dict(table.state.score)) == (True, "B", {"A": 5, "B": 8})
    # the same stream through the registry and the runner gives the same decisions
    again = [d for r in referee(table.lines, engine_for(game("pyramid"))) for d in r.decisions]
    assert again == table.decisions


def test_combined_game_to_eight() -> None:
    table = Table("combined").play(
        shot("cue", hit("cue", "1"), pot("3", "tl")),  # A 1
        shot("cue", hit("cue", "4"), pot("4", "tr")),  # A 2
        shot("cue", hit("cue", "5"), cush("5", "left"), pot("cue", "ml")),  # A 3: svoyak, in hand from home
        shot("cue", hit("cue", "7"), pot("7", "tl"), take=("6",)),  # A 4 (6 taken for the svoyak)
        shot("cue", hit("cue", "8")),  # no cushion: B 1
        shot("cue", hit("cue", "10"), pot("10", "tr"), take=("9",)),  # B 2 (9: penalty ball)
        shot("cue", hit("cue", "11"), pot("cue", "bl")),  # B 3: svoyak
        shot("cue", hit("cue", "13"), cush("13", "top"), take=("12",)),  # miss from home
        shot("cue", hit("cue", "14"), pot("14", "tl")),  # A 5
        shot("cue", hit("cue", "15"), pot("15", "tr"), pot("1", "ml")),  # A 7
        shot("cue", hit("cue", "2"), off("cue")),  # cue off: B 4, B in hand from home
        shot("cue", hit("cue", "5"), pot("5", "tl"), take=("2",)),  # B 5 (2: penalty ball)
        shot("cue", hit("cue", "8"), pot("8", "tr")),  # B 6
        shot("cue", hit("cue", "11"), cush("11", "left")),  # miss
        shot("cue", hit("cue", "13"), pot("13", "tl")),  # A 8
    )
    assert [tuple(d.score.values()) for d in table.decisions] == [
        (1, 0), (2, 0), (3, 0), (4, 0), (4, 1), (4, 2), (4, 3), (4, 3),
        (5, 3), (7, 3), (7, 4), (7, 5), (7, 6), (7, 6), (8, 6),
    ]  # fmt: skip
    assert [d.next for d in table.decisions] == [
        "A", "A", "A", "A", "B", "B", "B", "A", "A", "A", "B", "B", "B", "A", None,
    ]  # fmt: skip
    fouls = {d.shot: d.foul.reason for d in table.decisions if d.foul}
    assert fouls == {5: "no_cushion", 11: "ball_off_table"}
    assert any("in hand for B from home" in n for n in table.decisions[10].notes)
    assert (table.state.over, table.state.winner) == (True, "A")


def test_dynamic_game_to_eight_older_penalty() -> None:
    table = Table("dynamic", foul_penalty="ball").play(
        BREAK,  # A: two side cushions only: B chooses
        C("B", "rebreak"),
        shot("cue", hit("cue", "1"), pot("1", "tl")),  # B 1
        shot("cue", hit("cue", "2"), pot("2", "tr")),  # B 2
        shot("cue", hit("cue", "3")),  # no cushion: B gives a ball back (1), B 1
        shot("cue", hit("cue", "1"), pot("1", "tl")),  # A 1
        shot("cue", hit("cue", "4"), cush("4", "left"), pot("cue", "ml")),  # A 2: svoyak, in hand anywhere
        shot("cue", hit("cue", "6"), pot("6", "tr"), take=("5",)),  # A 3 (5 taken for the svoyak)
        shot("cue", hit("cue", "7"), pot("7", "tl"), pot("8", "tr")),  # A 5
        shot("cue", hit("cue", "9"), off("9")),  # 9 off: respotted, A gives 1 back: A 4
        shot("cue", hit("cue", "10"), pot("10", "bl")),  # B 2
        shot("cue", hit("cue", "11"), pot("11", "tl"), pot("12", "tr")),  # B 4
        shot("cue", hit("cue", "13"), cush("13", "top")),  # miss
        shot("cue", hit("cue", "9"), pot("9", "tl")),  # A 5
        shot("cue", hit("cue", "1"), pot("1", "tr")),  # A 6
        shot("cue", hit("cue", "14"), pot("14", "ml"), pot("15", "mr")),  # A 8
    )
    d = table.decisions
    assert [tuple(x.score.values()) for x in d] == [
        (0, 0), (0, 1), (0, 2), (0, 1), (1, 1), (2, 1), (3, 1), (5, 1), (4, 1), (4, 2), (4, 4), (4, 4),
        (5, 4), (6, 4), (8, 4),
    ]  # fmt: skip
    assert (d[0].foul.reason, d[0].foul.penalty, list(d[0].awaiting)) == ("illegal_break", 0, ["choice"])
    assert [(r.ball, r.xy_mm) for r in d[3].respot] == [("1", BACK)]
    assert [(r.ball, r.xy_mm) for r in d[8].respot] == [("9", BACK), ("1", BEHIND_BACK)]
    assert dict(d[8].points) == {"A": -1}
    assert (d[-1].over, d[-1].winner, d[-1].next) == (True, "A", None)
    assert dict(table.state.shelf) == {"A": 8, "B": 4} and dict(table.state.debt) == Z
