"""``--table`` and ``--corners`` on ``arbiter run`` and ``arbiter calibrate``: a bad value is refused before
any frame is read, with what the game is played on."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app


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
