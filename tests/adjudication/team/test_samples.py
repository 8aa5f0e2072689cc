"""The bundled team-sport streams (``samples/futsal``, ``samples/rugby-7``) refereed by ``arbiter referee``
as a user runs it, the futsal sample kept equal to the synthetic match it was written from, and the bench
figure."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudication.referee import referee
from adjudication.team import futsal
from arbiter.contract import ContractError, Decision, parse_line, read_stream, to_json
from cli.main import app
from datasets.team.futsal_stream import futsal_match
from evaluation import referee_bench as bench

ROOT = Path(__file__).resolve().parents[3]
FUTSAL = ROOT / "samples" / "futsal" / "match.jsonl"
RUGBY_7 = ROOT / "samples" / "rugby-7" / "match.jsonl"
REWRITE = (
    '.venv/bin/python -c "from datasets.team import futsal_stream as f; '
    "f.write('samples/futsal/match.jsonl')\""
)


def test_the_futsal_sample_is_the_synthetic_match_of_seed_0() -> None:
    m = futsal_match(0)
    written = [to_json(m.header), *(to_json(line) for line in m.lines)]
    assert FUTSAL.read_text(encoding="utf-8").splitlines() == written, f"rewrite it with: {REWRITE}"


def test_arbiter_referee_on_the_futsal_sample() -> None:
    """The command a user types, in a process of its own."""
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", "referee", str(FUTSAL.relative_to(ROOT))],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    m = futsal_match(0)
    a, b = m.truth.score.values()
    assert f"final score: Home {a}, Away {b}; Home wins" in done.stdout
    assert "FIFA Futsal Law 14 (2008; 2021/22 Law 13)" in done.stdout  # a sixth foul, with its law


def test_arbiter_referee_json_on_the_rugby_sample() -> None:
    result = CliRunner().invoke(app, ["referee", "--json", str(RUGBY_7)])
    assert result.exit_code == 0, result.output
    decisions = [parse_line(line) for line in result.stdout.splitlines()]
    assert decisions and all(isinstance(d, Decision) and d.law and d.call for d in decisions)
    last = decisions[-1]
    assert isinstance(last, Decision)
    assert (last.call, last.over, last.winner) == ("match_end", True, "Home")
    assert dict(last.score) == {"Home": 17, "Away": 15}
    assert "final score: Home 17, Away 15; Home wins" in result.stderr


def test_the_rugby_sample_scores_by_the_sevens_law() -> None:
    header, _ = read_stream(RUGBY_7)
    assert header.game == "rugby-7"
    calls = [(d.call, dict(d.points)) for r in referee(RUGBY_7) for d in r.decisions if d.points]
    assert calls == [
        ("try", {"Home": 5}), ("conversion", {"Home": 2}), ("penalty_goal", {"Away": 3}),
        ("try", {"Away": 5}), ("drop_goal", {"Home": 3}), ("try", {"Away": 5}), ("conversion", {"Away": 2}),
        ("try", {"Home": 5}), ("conversion", {"Home": 2}),
    ]  # fmt: skip


def test_the_bench_figure_for_the_futsal_sample() -> None:
    timing = bench.time_referee(FUTSAL.read_text(encoding="utf-8").splitlines(), futsal.ENGINE, repeats=3)
    assert (timing.game, timing.lines, timing.repeats) == ("futsal", 232, 3)
    assert timing.decisions == sum(len(r.decisions) for r in referee(FUTSAL))  # what the runner decides
    assert timing.cpu_s < bench.BUDGET_S, str(timing)  # CPU time: other jobs on the machine do not count
    assert "futsal: 232 lines" in str(timing) and "within the 200 ms budget" in str(timing)


def test_the_bench_refuses_an_empty_stream_and_another_game() -> None:
    with pytest.raises(ContractError, match="the stream is empty"):
        bench.time_referee([], futsal.ENGINE)
    with pytest.raises(ValueError, match="the stream is a 'rugby-7' match, not 'futsal'"):
        bench.time_referee(RUGBY_7.read_text(encoding="utf-8").splitlines(), futsal.ENGINE)
