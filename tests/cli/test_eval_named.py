"""`arbiter eval real-balls`: an evaluation on the repository's labelled sets is a command of the eval group,
while `arbiter eval FOLDER` stays the score of synthetic shots."""

from __future__ import annotations

from typer.testing import CliRunner

from cli import evaluate
from cli.main import app


def test_eval_real_balls_runs_the_evaluation_and_prints_it_beside_the_start(monkeypatch) -> None:
    class Report:
        def to_dict(self) -> dict[str, object]:
            return {"groups": {"now": 1}}

    seen: list[object] = []
    monkeypatch.setattr(evaluate, "evaluate_real_balls", lambda on_row: seen.append(on_row) or Report())
    monkeypatch.setattr(evaluate, "load_start", lambda: {"groups": {"then": 0}})
    result = CliRunner().invoke(app, ["eval", "real-balls", "--json"])
    assert result.exit_code == 0, result.output
    assert len(seen) == 1 and '"start": {"then": 0}' in result.output and '"now": 1' in result.output


def test_eval_names_its_evaluations_in_its_help() -> None:
    result = CliRunner().invoke(app, ["eval", "--help"])
    assert result.exit_code == 0 and "real-balls" in result.output and "cross-look" in result.output


def test_a_folder_is_still_the_shots_score(tmp_path) -> None:
    result = CliRunner().invoke(app, ["eval", str(tmp_path / "missing")])
    assert result.exit_code != 0 and "real-balls" not in result.output


def test_eval_real_scores_the_calibration_on_the_real_set(monkeypatch) -> None:
    class Report:
        def to_dict(self) -> dict[str, object]:
            return {"real": {"within_1pct": 2}}

    seen: list[object] = []
    monkeypatch.setattr(
        evaluate.real_tables,
        "evaluate_real_tables",
        lambda on_image, lights, markers, long_side: (
            seen.append((on_image, lights, markers, long_side)) or Report()
        ),
    )
    result = CliRunner().invoke(app, ["eval", "real", "--json"])
    assert result.exit_code == 0, result.output
    assert seen == [(None, ("as shot",), False, None)] and '"within_1pct": 2' in result.output
    result = CliRunner().invoke(app, ["eval", "real", "--json", "--lights"])
    assert result.exit_code == 0, result.output
    assert seen[-1] == (None, ("as shot", "blue light", "magenta light", "warm ramp"), False, None)
    result = CliRunner().invoke(app, ["eval", "real", "--json", "--markers"])
    assert result.exit_code == 0, result.output
    assert seen[-1] == (None, ("as shot",), True, None)
    result = CliRunner().invoke(app, ["eval", "real", "--json", "--long-side", "1280"])
    assert result.exit_code == 0, result.output
    assert seen[-1] == (None, ("as shot",), False, 1280)


def test_eval_real_says_what_is_wrong_with_a_frame_too_small() -> None:
    result = CliRunner().invoke(app, ["eval", "real", "--long-side", "100"])
    assert result.exit_code != 0 and "too small" in result.output


def test_eval_table_sizes_draws_the_frames_of_the_seed_given(monkeypatch) -> None:
    seen: list[tuple[object, ...]] = []

    def evaluate_table_sizes(games, shots, rooms, seed, on_row, sizes, only_shots):
        seen.append((games, shots, rooms, seed, sizes, only_shots))
        return []

    monkeypatch.setattr(evaluate.table_sizes, "evaluate_table_sizes", evaluate_table_sizes)
    args = ["eval", "table-sizes", "--game", "pyramid", "--shots", "2", "--seed", "9600"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert seen == [(["pyramid"], 2, ("classic", "projector"), 9600, None, None)]
    args = ["eval", "table-sizes", "--game", "snooker", "--room", "broadcast", "--size", "12ft"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert seen[-1] == (["snooker"], 4, ("broadcast",), 9500, ["12ft"], None)
    result = CliRunner().invoke(app, [*args, "--seed", "10000", "--shot", "8", "--shot", "3"])
    assert result.exit_code == 0, result.output
    assert seen[-1] == (["snooker"], 4, ("broadcast",), 10000, ["12ft"], [8, 3])
