"""`arbiter eval NAME`: a named evaluation on the repository's labelled sets runs instead of a folder's."""

from __future__ import annotations

from typer.testing import CliRunner

from cli import evaluate
from cli.main import app


def test_eval_real_balls_runs_the_named_evaluation(monkeypatch) -> None:
    seen: list[bool] = []
    monkeypatch.setitem(evaluate.NAMED_EVALS, "real-balls", seen.append)
    result = CliRunner().invoke(app, ["eval", "real-balls", "--json"])
    assert result.exit_code == 0, result.output
    assert seen == [True]


def test_eval_names_the_named_evaluations_in_its_help() -> None:
    result = CliRunner().invoke(app, ["eval", "--help"])
    assert result.exit_code == 0 and "real-balls" in result.output
