"""`arbiter referee`: decisions in words or as contract lines, the final score, where a stream breaks."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from arbiter import contract as c
from cli.common import SAMPLE_SHOT
from cli.main import app

RUGBY_SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "rugby-7" / "match.jsonl"

PIG = [
    {"type": "match", "v": 1, "game": "pig", "players": ["A", "B"], "options": {"target": 10}},
    {"type": "roll", "t": 1.0, "player": "A", "dice": [{"id": "d1", "value": 6}], "thrown": ["d1"]},
    {"type": "roll", "t": 2.0, "player": "A", "dice": [{"id": "d1", "value": 5}], "thrown": ["d1"]},
    {"type": "stop", "t": 3.0, "player": "A"},
    {"type": "roll", "t": 4.0, "player": "B", "dice": [{"id": "d1", "value": 1}], "thrown": ["d1"]},
]


def _write(tmp_path, lines, name="events.jsonl"):
    path = tmp_path / name
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def test_decisions_in_words_and_the_final_score(tmp_path):
    result = CliRunner().invoke(app, ["referee", str(_write(tmp_path, PIG))])
    assert result.exit_code == 0, result.output
    assert "final score: A 11, B 0" in result.output


def test_json_decisions_are_contract_lines_and_the_score_goes_to_stderr(tmp_path):
    result = CliRunner().invoke(app, ["referee", "--json", str(_write(tmp_path, PIG))])
    assert result.exit_code == 0, result.output
    decisions = [c.parse_line(line) for line in result.stdout.splitlines()]
    assert decisions and all(isinstance(d, c.Decision) for d in decisions)
    assert dict(decisions[-1].score) == {"A": 11, "B": 0}
    assert "final score" in result.stderr


def test_a_line_it_cannot_use_stops_it_after_every_decision_before(tmp_path):
    bad = [*PIG[:4], {**PIG[4], "player": "A"}]  # A throws again, out of turn after stopping
    result = CliRunner().invoke(app, ["referee", "--json", str(_write(tmp_path, bad))])
    lines = result.stdout.splitlines()
    assert any(json.loads(x)["type"] == "decision" for x in lines)  # A's banked turn was decided first
    if result.exit_code:
        assert "line 5" in result.output
    else:  # the engine calls an out-of-turn throw as a foul rather than refusing it
        assert json.loads(lines[-1])["foul"]["reason"] == "out_of_turn"


def test_a_malformed_line_is_refused_with_its_number(tmp_path):
    path = _write(tmp_path, PIG[:2])
    path.write_text(path.read_text() + '{"type":"roll","t":5.0}\n')
    result = CliRunner().invoke(app, ["referee", str(path)])
    assert result.exit_code == 2 and "line 3: roll.dice is required" in result.output
    assert result.output.startswith("#1 A: legal")  # the decision before the bad line was printed


def test_the_game_must_match_the_header(tmp_path):
    result = CliRunner().invoke(app, ["referee", "--game", "snooker", str(_write(tmp_path, PIG))])
    assert result.exit_code == 2 and "'pig' match" in result.output
    unknown = CliRunner().invoke(app, ["referee", "--game", "curling", str(_write(tmp_path, PIG))])
    assert unknown.exit_code == 2 and "unknown game 'curling'" in unknown.output


def test_the_bundled_sample_shot_is_refereed():
    result = CliRunner().invoke(app, ["referee", str(SAMPLE_SHOT / "truth.jsonl")])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("#1 A:") and "final score" in result.output


def test_bench_referee_times_the_bundled_futsal_match_against_the_budget():
    result = CliRunner().invoke(app, ["bench", "referee", "--repeats", "2"])
    assert result.exit_code == 0, result.output
    assert re.search(
        r"match\.jsonl: futsal: 232 lines, \d+ decisions refereed in [\d.]+ ms "
        r"\([\d.]+ ms of CPU; best of 2; within the 200 ms budget\)",
        result.output,
    ), result.output


def test_bench_referee_prints_figures_as_json_for_any_stream(tmp_path):
    result = CliRunner().invoke(app, ["bench", "referee", str(RUGBY_SAMPLE), "--json", "--repeats", "1"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["game"] == "rugby-7" and figures["budget_ms"] == 200.0
    assert 0 < figures["cpu_ms"] < figures["budget_ms"] and figures["wall_ms"] > 0
    missing = CliRunner().invoke(app, ["bench", "referee", str(tmp_path / "none.jsonl")])
    assert missing.exit_code == 2 and "not found" in missing.output
