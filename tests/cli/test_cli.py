"""The small commands: show and validate, on the bundled sample and on bad files."""

from __future__ import annotations

from typer.testing import CliRunner

from cli.common import SAMPLE_SHOT
from cli.main import app


def test_show_and_validate_the_bundled_sample():
    runner = CliRunner()
    shown = runner.invoke(app, ["show", str(SAMPLE_SHOT)])
    assert shown.exit_code == 0 and "potted: white (bottom-left)" in shown.output
    valid = runner.invoke(app, ["validate", str(SAMPLE_SHOT / "truth.jsonl")])
    assert valid.exit_code == 0 and "valid, snooker" in valid.output


def test_a_bad_line_is_named_with_its_number_and_reason(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"type":"match","v":1,"game":"snooker","players":["A","B"]}\n'
        '{"type":"cushion","t":1.0,"ball":"white","side":"up"}\n'
    )
    result = CliRunner().invoke(app, ["validate", str(bad)])
    assert result.exit_code == 2 and "line 2: cushion.side must be one of" in result.output
    missing = CliRunner().invoke(app, ["show", str(tmp_path / "nothing")])
    assert missing.exit_code == 2 and "not found" in missing.output
