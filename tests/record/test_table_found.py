"""A video run's match is started before its calibration: the table it finds is written into the match's
header (``Match.table``) and the recorder's engine judges on it; a match with lines keeps its own table."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbiter import contract as c
from arbiter.games import billiards
from record.export import export_jsonl
from record.recorder import recording
from record.store import MatchRecord, RecordError

SIX_FT = billiards("snooker").resized("6ft").table
FOUL_ON_BLUE = (
    c.ShotStart(t=1.0, ball="white"),
    c.BallBall(t=1.2, balls=("white", "red:3")),
    c.Pot(t=1.6, ball="blue", pocket="mr"),
    c.ShotEnd(t=3.0, positions={"white": (500.0, 300.0), "red:3": (300.0, 1500.0), "black": (444.5, 1600.0)}),
)


def test_the_run_header_gives_a_fresh_match_its_table_and_the_engine_judges_on_it(tmp_path: Path) -> None:
    with MatchRecord.open(tmp_path / "m.db") as record:
        match_id = record.start_match(c.Match(game="snooker", players=("A", "B")))
        recorder = recording(record, match_id)
        recorder(c.Match(game="snooker", players=("A", "B"), table="6ft"))  # the pipeline's on_header
        for line in FOUL_ON_BLUE:
            recorder(line)
        assert record.header(match_id).table == "6ft"
        (decision,) = [x for x in record.lines(match_id) if isinstance(x, c.Decision)]
        ((ball, xy),) = [(r.ball, r.xy_mm) for r in decision.respot]
        assert ball == "blue" and xy == pytest.approx(SIX_FT.spots["blue"], abs=0.01)
    with MatchRecord.open(tmp_path / "m.db") as again:  # the header on disk says so too
        assert again.header(match_id).table == "6ft"
        out = export_jsonl(again, match_id, tmp_path / "m.jsonl")
        assert '"table":"6ft"' in out.read_text().splitlines()[0]


def test_a_match_with_lines_keeps_its_table(tmp_path: Path) -> None:
    with MatchRecord.open(tmp_path / "m.db") as record:
        match_id = record.start_match(c.Match(game="snooker", players=("A", "B")))
        recorder = recording(record, match_id)
        recorder(FOUL_ON_BLUE[0])
        recorder(c.Match(game="snooker", players=("A", "B"), table="12ft"))  # the standard one: the same
        with pytest.raises(RecordError, match="recorded on the standard table"):
            recorder(c.Match(game="snooker", players=("A", "B"), table="6ft"))
        assert record.header(match_id).table is None
