"""`arbiter demo`: the bundled clip (a snooker break-off that goes in off) through the whole pipeline, with
the call a referee would make, and the same call made on the physics engine's truth."""

from __future__ import annotations

from typer.testing import CliRunner

from arbiter import contract as c
from cli.main import app
from record.store import MatchRecord


def test_the_demo_calls_the_in_off_on_the_break_and_agrees_with_the_truth(tmp_path):
    result = CliRunner().invoke(app, ["demo", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "(snooker, 1280x720, 30 fps)" in out and "312 frames at" in out
    assert "white is potted in the bottom-left pocket" in out and "potted: white (bottom-left)" in out
    assert "#1 A: FOUL in off (4; WPBSA 3.11); B +4; score A 0, B 4 - next B on red (awaiting choice)" in out
    assert "white in hand: the next stroke is played from the D" in out
    assert "B chooses: play, pass, rebreak" in out
    assert "the cue ball's first contact right by kind" in out
    assert "the call is the same as on the truth" in out

    _, events = c.read_stream(tmp_path / "events.jsonl")
    pots = [(e.ball, e.pocket) for e in events if isinstance(e, c.Pot)]
    assert pots == [("white", "bl")]  # the white alone went down: the reds stayed up
    with MatchRecord.open(tmp_path / "arbiter.db") as record:
        (match,) = record.matches()
        (decision,) = [x for x in record.lines(match.id) if isinstance(x, c.Decision)]
    assert decision.foul == c.Foul(reason="in_off", penalty=4, rule="WPBSA 3.11")
    assert dict(decision.points) == {"B": 4} and dict(decision.score) == {"A": 0, "B": 4}
    assert (decision.player, decision.next, decision.on, decision.awaiting) == ("A", "B", "red", ("choice",))
    assert any("B chooses: play, pass, rebreak" in note for note in decision.notes)
