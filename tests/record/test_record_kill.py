"""The issue's test of done for the record: kill a recording run mid-match (SIGKILL, no chance to clean up)
and show that the record holds every line the run reported written, in order and intact, that the match
reads as interrupted, and that the run resumes to the very record an uninterrupted run writes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
from record_helper import ROOT, snooker_match, write_stream

from arbiter import contract as c
from record import export
from record.recorder import recording
from record.store import CAMERA_TYPES, MatchRecord

HELPER = ROOT / "tests" / "record" / "record_helper.py"
DELAY_S = 0.02  # between lines in the child: a live run's pace, fast enough for a test
BREAKS = 8  # a red and the black each: about 100 lines, so the slowest kill below still lands mid-match

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL (POSIX)")


def _reference(tmp_path) -> list[str]:
    """What an uninterrupted run records: header, then events and inputs with decisions interleaved."""
    header, lines = snooker_match(BREAKS)
    with MatchRecord.open(tmp_path / "reference.db") as r:
        match_id = r.start_match(header)
        on_event = recording(r, match_id)
        for line in lines:
            on_event(line)
        r.finish(match_id)
        return r.texts(match_id)


@pytest.mark.parametrize("kill_after", [1, 15, 40])
def test_a_run_killed_mid_match_keeps_every_line_written_and_resumes(tmp_path, kill_after):
    header, lines = snooker_match(BREAKS)
    stream = write_stream(tmp_path / "stream.jsonl", header, lines)
    reference = _reference(tmp_path)
    db = tmp_path / "arbiter.db"

    child = subprocess.Popen(
        [sys.executable, str(HELPER), str(db), str(stream), str(DELAY_S)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        first = child.stdout.readline().split()
        assert first[0] == "match", first
        match_id = int(first[1])
        reported: list[int] = []
        while len(reported) < kill_after:
            text = child.stdout.readline()
            assert text and text.strip() != "finished", "the child ended before it could be killed"
            reported.append(int(text))
        with MatchRecord.open(db) as watcher:  # a second process reads while the run writes
            assert watcher.info(match_id).status == "running"
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
        rest = child.stdout.read().split()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == -signal.SIGKILL
    assert "finished" not in rest
    reported += [int(x) for x in rest]
    assert reported == list(range(1, len(reported) + 1))  # the child reported each seq once, in order

    with MatchRecord.open(db) as record:
        rows = record.rows(match_id)
        # every line reported committed is there, in order, numbered without gaps, intact
        assert len(rows) >= len(reported)
        assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
        assert len(rows) < len(reference) - 1, "the kill came after the end of the match"
        assert record.texts(match_id) == reference[: len(rows) + 1]
        parsed = [c.parse_line(r.text, r.seq + 1) for r in rows]
        assert [p.TYPE for p in parsed] == [r.type for r in rows]
        list(c.iter_stream(record.texts(match_id)))  # the stream rules hold on what was kept
        info = record.info(match_id)
        assert info.status == "interrupted" and info.lines == len(rows)

        camera = [r for r in rows if r.type in CAMERA_TYPES]
        assert record.resume_point(match_id) == (camera[-1].t if camera else None)

        # resume: the run starts over on the same source; what was recorded is skipped, the rest appended
        on_event = recording(record, match_id)
        appended = [seq for line in lines for seq in on_event(line)]
        assert appended == list(range(len(rows) + 1, len(reference)))
        assert record.info(match_id).status == "running"
        record.finish(match_id)
        assert record.texts(match_id) == reference
        final = record.info(match_id)
        assert final.status == "finished" and final.winner == "B"
        assert dict(final.score) == {"A": 0, "B": 4 + 8 * BREAKS}  # A's foul, then red and black each break
        exported = export.export_jsonl(record, match_id, tmp_path / "resumed.jsonl")
        assert exported.read_text(encoding="utf-8") == "".join(t + "\n" for t in reference)
