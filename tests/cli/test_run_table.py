"""``--table`` and ``--corners`` on ``arbiter run`` and ``arbiter calibrate``: a bad value is refused before
any frame is read, with what the game is played on."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from arbiter import contract as c
from cli.common import SAMPLE_SHOT
from cli.main import app
from record.store import MatchRecord


@pytest.mark.parametrize("command", ["run", "calibrate"])
def test_a_table_size_the_game_has_not_is_refused_with_its_sizes(command: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, [command, str(tmp_path), "--game", "snooker", "--table", "8ft"])
    assert result.exit_code == 2
    assert "--table '8ft'" in result.output
    assert all(size in result.output for size in ("12ft", "10ft", "9ft", "6ft"))


def test_corners_and_a_profile_together_are_refused(tmp_path: Path) -> None:
    corners = "bl=1,2;br=3,4;tl=5,6;tr=7,8"
    profile = str(tmp_path / "p.json")
    args = ["run", str(tmp_path), "--game", "snooker", "--corners", corners, "--calibration", profile]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and "either --corners or --calibration" in result.output


def test_a_resumed_match_goes_on_with_the_table_it_was_recorded_on(tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "000.png"), np.zeros((40, 60, 3), np.uint8))
    db = tmp_path / "m.db"
    with MatchRecord.open(db) as record:
        match_id = record.start_match(c.Match(game="snooker", players=("A", "B"), table="6ft"))
    video_frames = ["run", str(frames), "--fps", "30", "--game", "snooker"]
    args = [*video_frames, "--db", str(db), "--resume", str(match_id)]
    result = CliRunner().invoke(app, [*args, "--table", "9ft"])
    assert result.exit_code == 2
    assert "recorded on the 6ft table" in result.output and "--table 6ft" in result.output


def test_a_photo_of_another_size_without_a_table_is_a_cut_the_run_outlives(tmp_path: Path) -> None:
    """A folder of a video's frames (``--fps``) from two cameras, the second showing no table: the change
    of size is said as a cut with both sizes, and the run ends cleanly saying the table was not found
    again. (Without ``--fps`` the folder is photos, each on its own: ``tests/pipeline/test_photos.py``.)"""
    video = cv2.VideoCapture(str(SAMPLE_SHOT / "video.mp4"))
    ok, first = video.read()
    video.release()
    assert ok
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "000.png"), first)
    cv2.imwrite(str(frames / "001.png"), np.full((360, 640, 3), 90, np.uint8))
    video_frames = ["run", str(frames), "--fps", "30", "--game", "snooker"]
    args = [*video_frames, "--out", str(tmp_path / "out"), "--no-annotate"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    h, w = first.shape[:2]
    assert f"camera cut (the picture is {w}x{h} px -> 640x360)" in result.output
    assert "2 frames" in result.output and "the table was not found again after the last cut" in result.output


@pytest.mark.parametrize("command", ["run", "calibrate"])
def test_a_table_s_own_size_is_taken_and_one_no_table_has_is_refused_saying_why(
    command: str, tmp_path: Path
) -> None:
    """``--table 1575x700`` (a toy table's playing area, length x width in mm) passes the check; a width
    given first is refused with what to give."""
    result = CliRunner().invoke(app, [command, str(tmp_path), "--game", "snooker", "--table", "700x1575"])
    assert result.exit_code == 2 and "--table '700x1575'" in result.output and "length first" in result.output
    result = CliRunner().invoke(app, [command, str(tmp_path), "--game", "snooker", "--table", "1575x700"])
    assert "--table" not in result.output
