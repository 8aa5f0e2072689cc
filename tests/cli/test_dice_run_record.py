"""A filmed dice game recorded into a match database as it is refereed (``--db``), from ``arbiter dice run``
and from ``arbiter run``; a billiards table's options given for a dice game are refused, not ignored."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbiter import contract as c
from cli.main import app
from datasets.dice.throws import throw_clip, write_throw_clip
from evaluation.dice_bench import BENCH_RECIPE
from record.store import MatchRecord

# The dice benchmark's clip (three plainly seen throws of five dice) at 15 frames a second.
RECIPE = replace(BENCH_RECIPE, fps=15.0)


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_throw_clip(throw_clip(RECIPE), tmp_path_factory.mktemp("clip"))


@pytest.mark.slow
@pytest.mark.parametrize("command", [["dice", "run"], ["run"]])
def test_a_dice_run_records_each_roll_and_the_referees_calls_as_a_finished_match(
    clip: Path, tmp_path: Path, command: list[str]
) -> None:
    db = tmp_path / "matches.db"
    out = tmp_path / "out"
    args = [*command, str(clip), "--game", "poker-dice", "--out", str(out), "--db", str(db), "--no-annotate"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert f"recorded as match 1 in {db}" in result.output
    with MatchRecord.open(db) as record:
        (match,) = record.matches()
        lines = record.lines(match.id)
    assert match.game == "poker-dice" and match.players == ("A", "B") and match.status == "finished"
    rolls = [line for line in lines if isinstance(line, c.Roll)]
    decisions = [line for line in lines if isinstance(line, c.Decision)]
    written = c.read_stream((out / "events.jsonl").read_text().splitlines())[1]
    assert len(rolls) == RECIPE.throws and rolls == [line for line in written if isinstance(line, c.Roll)]
    assert decisions  # the third throw ends the turn: the record's engine called it as the run's did
    assert [c.to_json(d) for d in decisions] == (out / "decisions.jsonl").read_text().splitlines()


@pytest.mark.parametrize(
    ("option", "value"),
    [("--corners", "bl=0,0;br=10,0;tl=0,10;tr=10,10"), ("--table", "12ft"), ("--detector", "yolo")],
)
def test_arbiter_run_refuses_a_billiards_tables_options_for_a_dice_game(
    tmp_path: Path, option: str, value: str
) -> None:
    video = tmp_path / "throws.mp4"
    video.write_bytes(b"not read: refused before the video is opened")
    result = CliRunner().invoke(app, ["run", str(video), "--game", "pig", option, value])
    assert result.exit_code == 2
    assert f"{option} is for a billiards table; pig is a dice game" in result.output
