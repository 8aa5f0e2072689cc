"""``arbiter eval``: the whole pipeline scored against the synthetic world's truth, on the bundled sample."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from cli.main import app

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "billiards" / "snooker"


def test_eval_scores_the_bundled_sample_against_its_truth(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["eval", str(SAMPLES), "--work", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    assert '"shots": 1' in result.output or '"shots_scored": 1' in result.output
    assert '"pocket"' in result.output and '"tracking"' in result.output
