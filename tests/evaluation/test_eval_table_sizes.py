"""``arbiter eval table-sizes``: tables of other sizes, found and sized from the balls, or said unsure."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from arbiter.games import billiards
from cli.main import app
from datasets.billiards.synth import SynthConfig
from datasets.billiards.variety import VARIETIES
from evaluation.table_sizes import SizeRow, evaluate_table_sizes, first_frame, format_report, summary, totals
from vision.calibration import calibrate_auto
from vision.table_verdict import Doubt


def test_a_smaller_table_is_sized_and_one_too_near_the_game_s_own_is_said_unsure() -> None:
    rows = evaluate_table_sizes(["straight-pool"], shots=1, rooms=("projector",), sizes=("8ft", "7ft"))
    by_size = {r.size: r for r in rows}
    assert set(by_size) == {"8ft", "7ft"}
    seven, eight = by_size["7ft"], by_size["8ft"]
    assert seven.found == "7ft" and seven.sure and seven.right
    # 8 ft is within what a ball is measured to of the game's own 9 ft: the 9 ft is taken, never silently.
    assert eight.found == "9ft" and not eight.sure and not eight.sure_but_wrong
    assert totals(rows)["sure_but_wrong"] == 0
    assert "| straight-pool | 7ft | projector | 1/1 |" in format_report(rows)


def test_pyramid_tables_the_balls_mismeasure_are_never_sized_wrong_and_sure() -> None:
    # The 10 ft table's ivory balls on a light grey cloth show their lit halves only (seed 9502, shot 3:
    # read as 12 ft, sure, before the outlines' stretch was read); an 11 ft table's balls read 4 % small
    # measure the game's own 12 ft (seed 9601, shot 3: sure before sizes within a ball's measure were named).
    shaded = evaluate_table_sizes(["pyramid"], shots=4, rooms=("classic",), sizes=("10ft",))
    near = evaluate_table_sizes(["pyramid"], shots=4, rooms=("classic",), sizes=("11ft",), seed=9600)
    assert shaded[3].found == near[3].found == "12ft"
    assert not shaded[3].sure and not near[3].sure
    assert totals([*shaded, *near])["sure_but_wrong"] == 0


def test_the_figures_count_right_sure_and_wrong() -> None:
    rows = [
        SizeRow("snooker", "6ft", "classic", 0, "6ft", True, 0.002),
        SizeRow("snooker", "6ft", "classic", 1, "12ft", True, 0.002),  # sure but the wrong size
        SizeRow("snooker", "6ft", "classic", 2, "6ft", False, 0.02),  # unsure, corners off
        SizeRow("snooker", "6ft", "classic", 3, None, False, None, "no table found"),
    ]
    g = summary(rows)["snooker 6ft classic"]
    assert (g["right"], g["sure_and_right"], g["sure_but_wrong"], g["unsure"], g["failed"]) == (1, 1, 1, 1, 1)
    assert g["sizes_found"] == ["-", "12ft", "6ft"] and g["worst_corner_error"] == 0.02


def test_an_unknown_game_is_named_before_anything_is_drawn() -> None:
    result = CliRunner().invoke(app, ["eval", "table-sizes", "--game", "carom"])
    assert result.exit_code == 2 and "unknown billiards game" in result.output


def test_broadcast_views_are_calibrated_past_the_score_bar_and_the_baulk_line() -> None:
    # Seed 9800's first ten broadcast frames: a score bar's edge taken for the near cushion (shot 0, 1.2 %
    # off), a baulk line just inside the far cushion taken for its nose (shot 1, 22 % off), a near end
    # askew under half a bar (shot 9, 7 %): 6 of 10 right before issue 10's nineteenth round.
    rows = evaluate_table_sizes(["snooker"], shots=10, rooms=("broadcast",), sizes=("12ft",), seed=9800)
    t = totals(rows)
    assert t["right"] >= 8 and t["sure_but_wrong"] == 0 and t["failed"] == 0
    assert max(r.corner_error or 1.0 for r in rows) < 0.06


def broadcast_frame(seed: int, shot: int) -> dict[str, Any]:
    """One broadcast first frame of the 12 ft snooker draw ``seed``, scored as ``arbiter eval table-sizes
    --shot`` scores it."""
    draw = ["--game", "snooker", "--room", "broadcast", "--size", "12ft", "--seed", str(seed)]
    result = CliRunner().invoke(app, ["eval", "table-sizes", *draw, "--shot", str(shot), "--json"])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)["rows"]
    assert row["shot"] == shot
    return dict(row)


@pytest.mark.parametrize(
    ("seed", "shot"),
    [
        # Camera behind the black end: a score bar over the near cushion, not reaching its left corner, has
        # a nose's step; the baulk line puts its own end 1.1 % inside the one found, and the middle pockets
        # 2 % short of half-way. 4.0 % off before issue 10's twentieth round.
        (10000, 8),
        # A bar over the near cushion's left half; its edge, taken with the cushion beside it, tilted that
        # end 2.2 % off and the table's shape did not fit. Found again with the bar's edge (a run along one
        # row, inside the line the rest of the side makes) left out.
        (9900, 11),
        # The near end wholly under the bar, placed from the middle pockets. Their parallax was taken with
        # the focal length the first corners gave (2,959 px, the near end still unplaced; the render's lens
        # is 1,759 px): the end came out 1.2 % long. Read each round with the focal length of the corners in
        # hand, 0.16 % (issue 10's forty-fourth round).
        (9900, 16),
        # A bar over the near cushion but for its right end, a cue across that; the one line through the
        # bar's edge and the cushion beside it tilted the end, one corner out and the other in, 1.37 % off.
        # Half-way between them, the middle pockets stood at 0.491 and 0.509 of the way up: the end is
        # askew, and is placed from them (the forty-fourth round).
        (10000, 13),
    ],
)
def test_a_near_end_under_a_score_bar_is_placed_within_one_percent(seed: int, shot: int) -> None:
    row = broadcast_frame(seed, shot)
    assert row["corner_error"] < 0.01 and not row["sure"]


def test_an_end_the_marking_doubts_says_why_it_was_placed() -> None:
    cfg = SynthConfig(
        game="snooker", shots=9, seed=10000, width=1280, height=720, video=False, yolo_every=0,
        variety=VARIETIES["broadcast"], table="12ft",
    )  # fmt: skip
    calib = calibrate_auto(first_frame(cfg, 8)[0], billiards("snooker").table)
    placed = [r.detail for r in calib.verdict.doubts if r.kind is Doubt.END_FROM_POCKETS]
    assert len(placed) == 1 and "the baulk line put its own end" in placed[0]


def test_an_unknown_room_or_size_is_named_before_anything_is_drawn() -> None:
    result = CliRunner().invoke(app, ["eval", "table-sizes", "--room", "attic"])
    assert result.exit_code != 0 and "unknown room 'attic'" in result.output
    result = CliRunner().invoke(app, ["eval", "table-sizes", "--game", "snooker", "--size", "7ft"])
    assert result.exit_code != 0 and "no table of size '7ft'" in result.output
    result = CliRunner().invoke(app, ["eval", "table-sizes", "--shot", "-1"])
    assert result.exit_code != 0 and "a shot is counted from 0" in result.output
