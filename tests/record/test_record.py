"""The match record (record.store), its exports (record.export) and commands (cli.record)."""

from __future__ import annotations

import csv
import io
import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from record_helper import ROOT, SAMPLE, snooker_match, write_stream
from typer.testing import CliRunner

import adjudication.engines
from arbiter import contract as c
from arbiter.contract import Stop
from cli.main import app
from record import export
from record.recorder import import_refereed, recording, referee_into
from record.store import (
    APPLICATION_ID,
    CAMERA_TYPES,
    SCHEMA_VERSION,
    MatchRecord,
    RecordError,
)

SHOT_FRAMES = SAMPLE.parent / "frames.jsonl"


@pytest.fixture
def record(tmp_path):
    with MatchRecord.open(tmp_path / "arbiter.db") as r:
        yield r


def _recorded(record: MatchRecord) -> int:
    """The snooker match recorded live (events, inputs, decisions interleaved) and finished."""
    header, lines = snooker_match()
    match_id = record.start_match(header, source="camera 0")
    on_event = recording(record, match_id)
    for line in lines:
        on_event(line)
    record.finish(match_id)
    return match_id


# --- opening ---------------------------------------------------------------------------------------------


def test_open_creates_a_marked_wal_database_with_its_folder(tmp_path):
    path = tmp_path / "out" / "arbiter.db"
    with MatchRecord.open(path) as r:
        assert r.matches() == []
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert dict(conn.execute("SELECT key, value FROM arbiter_meta"))["application"] == "arbiter"
    conn.close()
    with MatchRecord.open(path) as again:  # an existing record opens
        assert again.matches() == []


def test_an_empty_file_becomes_a_record(tmp_path):
    path = tmp_path / "empty.db"
    path.touch()
    with MatchRecord.open(path) as r:
        assert r.start_match(c.Match(game="pig", players=("A", "B"))) == 1


def test_a_blank_sqlite_file_left_by_a_killed_creation_becomes_a_record(tmp_path):
    path = tmp_path / "arbiter.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")  # writes the header page, no schema: a creation killed here
    conn.close()
    with MatchRecord.open(path) as r:
        assert r.start_match(c.Match(game="pig", players=("A", "B"))) == 1


def _text_file(path: Path) -> None:
    path.write_text('{"type":"match","v":1,"game":"pig","players":["A"]}\n')


def _foreign(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
    conn.execute("INSERT INTO users (name) VALUES ('ada')")
    conn.commit()
    conn.close()


def _foreign_wal(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, blob BLOB)")
    conn.commit()
    conn.close()


def _ours(path: Path) -> None:
    with MatchRecord.open(path) as r:
        _recorded(r)
        _recorded(r)


def _truncated(path: Path) -> None:
    _ours(path)
    data = path.read_bytes()
    assert len(data) > 4 * 4096  # several pages, so half of them are missing
    path.write_bytes(data[: len(data) // 2])


def _garbage_after_the_magic(path: Path) -> None:
    path.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 20)


def _newer_schema(path: Path) -> None:
    _ours(path)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()


def _blank_of_another_program(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 1234")  # no schema yet, but marked as someone else's
    conn.close()


def _meta_without_mark(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TABLE arbiter_meta (key TEXT PRIMARY KEY, value TEXT)"
    )  # not ours: no application id
    conn.commit()
    conn.close()


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (_text_file, "not a SQLite database"),
        (_foreign, "another program's SQLite database, not an Arbiter record (tables: users)"),
        (_foreign_wal, "another program's SQLite database"),
        (_meta_without_mark, "another program's"),
        (
            _blank_of_another_program,
            "another program's SQLite database, not an Arbiter record (tables: none)",
        ),
        (_truncated, "corrupt"),
        (_garbage_after_the_magic, "corrupt"),
        (_newer_schema, "newer Arbiter"),
    ],
    ids=["text", "foreign", "foreign-wal", "unmarked", "marked-blank", "truncated", "garbage", "newer"],
)
def test_a_file_that_is_not_an_intact_record_is_refused_and_left_byte_identical(tmp_path, make, says):
    path = tmp_path / "some.db"
    make(path)
    before = path.read_bytes()
    siblings = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(RecordError) as info:
        MatchRecord.open(path)
    message = str(info.value)
    assert str(path) in message and says in message and "left untouched" in message
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == siblings  # no sidecar files left behind


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(RecordError, match="is a folder"):
        MatchRecord.open(tmp_path)


# --- appending and reading -------------------------------------------------------------------------------

EVERY_LINE: list[c.JsonLine] = [
    c.Declare(player="A", ball="blue"),
    c.Declare(player="B", ball="green", free_ball=True),
    c.Call(player="A", ball="7", pocket="tl"),
    c.Call(player="A", safety=True),
    c.ShotStart(t=1.2, frame=72, ball="white"),
    c.BallBall(t=1.55, balls=("white", "red:4")),
    c.Cushion(t=1.9, ball="red:4", side="top"),
    c.Pot(t=2.31, ball="red:4", pocket="tr"),
    c.OffTable(t=2.5, ball="blue"),
    c.PinDown(t=2.6, pin="pin:c", by="red"),
    c.ShotEnd(t=4.8, positions={"white": (612.0, 1840.5), "black": (889.0, 3245.0)}),
    c.Decision(
        shot=7,
        player="A",
        foul=c.Foul("wrong_ball_first", 5, "snooker 3.12"),
        points={"B": 5},
        score={"A": 31, "B": 17},
        next="B",
        on="red",
        awaiting=("choice",),
        respot=(c.Respot("blue", (889.0, 1784.5)),),
        notes=("free ball available",),
    ),
    c.Choice(player="B", option="play"),
    c.Roll(
        t=5.0,
        player="A",
        dice=(c.Die("d1", 3), c.Die("d2", 5)),
        thrown=("d1", "d2"),
    ),
    c.Choose(player="A", category="full_house"),
    Stop(player="A"),
    c.Concede(player="A"),
    c.Decision(shot=7, player="A", score={"A": 31, "B": 17}, next=None, over=True, winner="B"),
]


def test_every_line_type_round_trips_with_its_seq_type_and_time(record):
    header = c.Match(game="snooker", players=("A", "B"), options={"frames": 3})
    match_id = record.start_match(header, source="test")
    seqs = [record.append(match_id, line) for line in EVERY_LINE]
    assert seqs == list(range(1, len(EVERY_LINE) + 1))
    assert record.header(match_id) == header
    assert record.lines(match_id) == EVERY_LINE
    rows = record.rows(match_id)
    assert [r.text for r in rows] == [c.to_json(x) for x in EVERY_LINE]
    assert [r.type for r in rows] == [x.TYPE for x in EVERY_LINE]
    assert [r.t for r in rows] == [getattr(x, "t", None) for x in EVERY_LINE]
    assert record.lines(match_id, after=10) == EVERY_LINE[10:]
    assert record.texts(match_id)[0] == c.to_json(header)


def test_append_many_is_one_transaction(record):
    match_id = record.start_match(c.Match(game="snooker", players=("A", "B")))
    record.append(match_id, c.ShotStart(t=5.0, ball="white"))
    with pytest.raises(RecordError, match="time order"):
        record.append_many(
            match_id, [c.Cushion(t=6.0, ball="white", side="top"), c.ShotStart(t=1.0, ball="white")]
        )
    assert len(record.lines(match_id)) == 1  # the good first line was rolled back with the bad one


@pytest.mark.parametrize(
    ("line", "says"),
    [
        (c.Declare(player="Z", ball="blue"), "'Z' is not a player of this match"),
        (c.ShotStart(t=0.5, ball="white"), "before the last recorded t=1.0"),
        (c.Match(game="snooker", players=("A", "B")), "recorded by start_match"),
    ],
    ids=["player", "time", "header"],
)
def test_a_line_that_would_break_the_stream_is_refused(record, line, says):
    match_id = record.start_match(c.Match(game="snooker", players=("A", "B")))
    record.append(match_id, c.ShotStart(t=1.0, ball="white"))
    with pytest.raises(RecordError, match=says):
        record.append(match_id, line)
    assert len(record.lines(match_id)) == 1


def test_unknown_and_finished_matches(record):
    with pytest.raises(RecordError, match=r"no match 9 in .*arbiter matches"):
        record.lines(9)
    match_id = record.start_match(c.Match(game="snooker", players=("A", "B")))
    record.finish(match_id)
    with pytest.raises(RecordError, match="finished"):
        record.append(match_id, c.ShotStart(t=1.0, ball="white"))
    record.delete_match(match_id)
    assert record.matches() == []


def test_resume_point_follows_camera_events_only(record):
    match_id = record.start_match(c.Match(game="snooker", players=("A", "B")))
    assert record.resume_point(match_id) is None
    record.append(match_id, c.Declare(t=0.5, player="A", ball="blue"))
    assert record.resume_point(match_id) is None
    record.append(match_id, c.ShotStart(t=1.25, ball="white"))
    record.append(match_id, c.Choice(t=2.0, player="B", option="play"))
    assert record.resume_point(match_id) == 1.25
    assert {"shot_start", "ball_ball", "pocket", "shot_end", "roll"} <= CAMERA_TYPES


# --- listing and status ----------------------------------------------------------------------------------


def _child(db: Path, code: str) -> None:
    subprocess.run([sys.executable, "-c", code, str(db)], cwd=ROOT, check=True, timeout=60)


def test_matches_lists_status_score_and_winner(tmp_path):
    db = tmp_path / "arbiter.db"
    with MatchRecord.open(db) as r:
        finished = _recorded(r)
        running = r.start_match(c.Match(game="pig", players=("A", "B")), source="camera 1")
    # another process starts a match and dies without finishing it: interrupted
    _child(
        db,
        "import sys; from record.store import MatchRecord; from arbiter.contract import Match, ShotStart\n"
        "r = MatchRecord.open(sys.argv[1]); m = r.start_match(Match(game='snooker', players=('C', 'D')))\n"
        "r.append(m, ShotStart(t=1.0, ball='white'))",
    )
    with MatchRecord.open(db) as r:
        infos = {i.id: i for i in r.matches()}
        assert [i.id for i in r.matches()] == [1, 2, 3]
        done = infos[finished]
        assert (done.status, done.game, done.players, done.source) == (
            "finished",
            "snooker",
            ("A", "B"),
            "camera 0",
        )
        assert dict(done.score) == {"A": 0, "B": 28} and done.winner == "B" and done.over
        assert done.lines == len(r.lines(finished)) and done.finished_at >= done.started_at
        # the writer of match 2 (this process) is alive, but no instance of this process holds it now
        assert infos[running].score is None and infos[running].winner is None
        assert infos[running].status == "running"
        assert infos[3].status == "interrupted" and infos[3].lines == 1
        # appending to an interrupted match takes it over: it runs again, in this process
        r.append(3, c.ShotEnd(t=2.0, positions={"white": (100.0, 100.0)}))
        assert r.info(3).status == "running"
        r.finish(3)
        assert r.info(3).status == "finished"


# --- recording live, replaying, refereeing ----------------------------------------------------------------


def _reference(tmp_path) -> list[str]:
    with MatchRecord.open(tmp_path / "reference.db") as r:
        return r.texts(_recorded(r))


def test_a_live_recording_interleaves_the_engines_decisions(tmp_path, record):
    match_id = _recorded(record)
    lines = record.lines(match_id)
    decisions = [x for x in lines if isinstance(x, c.Decision)]
    assert [d.shot for d in decisions] == [1, 2, 3, 4, 5, 6, 7, 7]
    assert isinstance(lines[lines.index(decisions[0]) - 1], c.ShotEnd)  # each right after its shot_end
    assert decisions[0].foul is not None and decisions[0].awaiting == ("choice",)
    assert decisions[-1].over and decisions[-1].winner == "B"
    stream = list(c.iter_stream(record.texts(match_id)))  # the record is a valid contract stream
    assert stream[0] == record.header(match_id)


@pytest.mark.parametrize("cut", [0, 1, 11, 13, 14, 16, 25, 47])
def test_a_replayed_run_skips_what_was_recorded_and_goes_on(tmp_path, record, cut):
    """A video run again from its start after an interruption: the record ends up as if never interrupted."""
    header, lines = snooker_match()
    match_id = record.start_match(header, source="clip.mp4")
    first = recording(record, match_id)
    for line in lines[:cut]:
        first(line)
    recorded_before = record.rows(match_id)
    again = recording(record, match_id)
    written = [seq for line in lines for seq in again(line)]
    record.finish(match_id)
    assert record.texts(match_id) == _reference(tmp_path)
    assert len(written) == len(set(written)) == len(record.rows(match_id)) - len(recorded_before)


def test_a_live_source_resumes_with_a_time_offset(record):
    header, lines = snooker_match(breaks=1, concede=False)
    match_id = record.start_match(header)
    on_event = recording(record, match_id)
    for line in lines[:13]:
        on_event(line)
    resume = record.resume_point(match_id)
    camera = recording(record, match_id, skip_recorded=False, t_offset=resume)
    restart = lines[13:]  # the camera's clock starts again at 0
    start_t = next(x.t for x in restart if hasattr(x, "t") and x.t is not None)
    for line in restart:
        camera(replace(line, t=line.t - start_t) if getattr(line, "t", None) is not None else line)
    times = [r.t for r in record.rows(match_id) if r.t is not None]
    assert times == sorted(times) and times[-1] > resume
    assert camera.problem is None and sum(isinstance(x, c.Decision) for x in record.lines(match_id)) == 3


def test_a_recorder_tells_a_shot_left_open_by_a_run_cut_short(record):
    """A run stopped mid-shot records no ``shot_end``: the shot is open, undecided, until the run resumes."""
    header, lines = snooker_match(breaks=1, concede=False)
    match_id = record.start_match(header)
    assert not recording(record, match_id).shot_open
    first_end = next(i for i, x in enumerate(lines) if isinstance(x, c.ShotEnd))
    on_event = recording(record, match_id)
    for line in lines[:first_end]:
        on_event(line)
    assert recording(record, match_id).shot_open and not any(
        isinstance(x, c.Decision) for x in record.lines(match_id)
    )
    recording(record, match_id)(lines[first_end])
    assert not recording(record, match_id).shot_open


def test_a_line_the_engine_refuses_is_recorded_and_refereeing_stops(record):
    header, lines = snooker_match(breaks=1, concede=False)
    match_id = record.start_match(header)
    on_event = recording(record, match_id)
    choice = next(i for i, x in enumerate(lines) if isinstance(x, c.Choice))
    for line in lines[:choice] + lines[choice + 1 :]:  # the chooser never chose: the next shot comes first
        on_event(line)
    assert on_event.problem is not None and "a choice is awaited first" in on_event.problem
    assert not on_event.deciding
    recorded = record.lines(match_id)
    assert len([x for x in recorded if not isinstance(x, c.Decision)]) == len(lines) - 1  # every event kept
    assert sum(isinstance(x, c.Decision) for x in recorded) == 1


def test_referee_into_decides_recorded_lines_then_new_ones(record):
    header, lines = snooker_match()
    match_id = record.start_match(header)
    before = 41 + 1 + 5 + 3  # the sample's shot, B's choice, B's red, then the declare and half a shot
    for line in lines[:before]:  # recorded without decisions
        record.append(match_id, line)
    decisions = referee_into(record, match_id, lines[before:])
    recorded = record.lines(match_id)
    assert [d.shot for d in decisions] == [1, 2, 3, 4, 5, 6, 7, 7]
    assert [x for x in recorded if isinstance(x, c.Decision)] == decisions
    assert [x for x in recorded if not isinstance(x, c.Decision)] == lines
    assert recorded[before : before + 2] == decisions[:2]  # the lines recorded before are decided first
    assert isinstance(recorded[-1], c.Decision) and recorded[-1].winner == "B"


def test_referee_into_refuses_a_game_without_an_engine(record, monkeypatch):
    without = {g: e for g, e in adjudication.engines.ENGINES.items() if g != "futsal"}
    monkeypatch.setattr(adjudication.engines, "ENGINES", without)
    match_id = record.start_match(c.Match(game="futsal", players=("A", "B")))
    with pytest.raises(RecordError, match="no rule engine"):
        referee_into(record, match_id)


# --- import and exports ----------------------------------------------------------------------------------


def test_jsonl_export_is_byte_exact_and_imports_back_the_same(tmp_path, record):
    match_id = _recorded(record)
    path = export.export_jsonl(record, match_id, tmp_path / "match.jsonl")
    expected = "".join(t + "\n" for t in record.texts(match_id)).encode("utf-8")
    assert path.read_bytes() == expected
    again = record.import_jsonl(path)
    assert record.texts(again) == record.texts(match_id)
    assert record.lines(again) == record.lines(match_id)
    assert record.info(again).status == "finished" and record.info(again).source == str(path)
    export.export_jsonl(record, again, tmp_path / "again.jsonl")
    assert (tmp_path / "again.jsonl").read_bytes() == expected


def test_importing_a_runs_events_with_the_referee_places_decisions_as_live(tmp_path, record):
    header, lines = snooker_match()
    events = write_stream(tmp_path / "events.jsonl", header, lines)
    match_id = import_refereed(record, events)
    assert record.texts(match_id) == _reference(tmp_path)
    with pytest.raises(RecordError, match="already holds decisions"):
        import_refereed(record, export.export_jsonl(record, match_id, tmp_path / "m.jsonl"))


def test_a_bad_stream_imports_nothing(tmp_path, record):
    path = tmp_path / "bad.jsonl"
    path.write_text(SAMPLE.read_text() + '{"type":"cushion","t":9.0,"ball":"white","side":"up"}\n')
    with pytest.raises(RecordError, match=r"line 43: cushion\.side .*nothing was imported"):
        record.import_jsonl(path)
    with pytest.raises(RecordError, match="not found"):
        record.import_jsonl(tmp_path / "absent.jsonl")
    assert record.matches() == []


def test_csv_has_a_row_per_line_in_words_with_the_decision_fields(tmp_path, record):
    match_id = _recorded(record)
    path = export.export_csv(record, match_id, tmp_path / "match.csv")
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))
    assert len(rows) == len(record.lines(match_id)) + 1
    assert rows[0]["type"] == "match" and rows[0]["seq"] == "0"
    assert rows[1] == rows[1] | {
        "seq": "1",
        "type": "shot_start",
        "t": "0.806696",
        "summary": "shot: the cue strikes white",
    }
    foul = next(r for r in rows if r["type"] == "decision")
    assert foul["foul_reason"] == "in_off" and foul["penalty"] == "4"
    assert foul["rule"] == "WPBSA 3.11" and foul["score"] == "A 0, B 4" and foul["next"] == "B"
    assert foul["summary"].startswith("#1 A: FOUL in off")
    assert rows[-1]["winner"] == "B" and rows[-1]["over"] == "yes"
    declare = next(r for r in rows if r["type"] == "declare")
    assert (
        declare["player"] == "B"
        and declare["summary"] == "B nominates black"
        and declare["foul_reason"] == ""
    )


def test_the_report_is_one_self_contained_page_with_the_score_and_a_diagram_per_shot(tmp_path, record):
    match_id = _recorded(record)
    html = export.export_report(record, match_id, tmp_path / "report.html").read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert "Final score: <strong>A 0, B 28</strong> &mdash; B wins" in html
    assert "snooker: A v B" in html
    assert html.count("<svg") == 7 and html.count("<figure>") == 7
    assert "in off" in html and "WPBSA 3.11" in html  # the rule, and in words
    assert "black re-spotted on its own spot" in html
    for external in ("<script", "src=", "href=", "@import", "url("):
        assert external not in html


def test_the_report_draws_ball_paths_from_the_runs_tracks(tmp_path, record):
    match_id = import_refereed(record, SAMPLE)
    plain = export.report_html(record, match_id)
    traced = export.report_html(record, match_id, tracks=SHOT_FRAMES)
    assert 'class="path"' not in plain and 'class="path"' in traced
    assert "Final score: <strong>A 0, B 4</strong>" in traced


def test_a_dice_match_report_has_no_table_diagrams(record):
    match_id = record.start_match(c.Match(game="pig", players=("A", "B")))
    record.append(match_id, c.Roll(t=1.0, player="A", dice=(c.Die("d1", 4),), thrown=("d1",)))
    html = export.report_html(record, match_id)
    assert "<svg" not in html and "no decision recorded" in html and "A throws 1 of 1: 4" in html


# --- the commands ----------------------------------------------------------------------------------------


def test_matches_and_export_commands(tmp_path):
    db = tmp_path / "arbiter.db"
    runner = CliRunner()
    absent = runner.invoke(app, ["matches", "--db", str(db)])
    assert absent.exit_code == 0 and "does not exist yet" in absent.output and not db.exists()
    with MatchRecord.open(db) as r:
        match_id = _recorded(r)
        expected = export.jsonl_text(r, match_id)
    listing = runner.invoke(app, ["matches", "--db", str(db)])
    assert listing.exit_code == 0, listing.output
    header, row = listing.output.splitlines()
    assert header.split()[:4] == ["id", "started", "(UTC)", "game"]
    assert row.startswith("1 ") and "snooker" in row and "A, B" in row and "finished" in row
    assert row.endswith("A 0, B 28; B wins")
    out = runner.invoke(app, ["export", "1", "--db", str(db)])
    assert out.exit_code == 0 and out.stdout == expected
    for suffix, marker in (
        (".csv", "seq,type,t,frame"),
        (".html", "<!DOCTYPE html>"),
        (".jsonl", '{"type":"match"'),
    ):
        target = tmp_path / f"match{suffix}"
        result = runner.invoke(app, ["export", "1", "--db", str(db), "--out", str(target)])
        assert result.exit_code == 0, result.output
        assert target.read_text(encoding="utf-8").startswith(marker)
    html = runner.invoke(
        app, ["export", "1", "--db", str(db), "--format", "html", "--tracks", str(SHOT_FRAMES)]
    )
    assert html.exit_code == 0 and 'class="path"' in html.stdout
    missing = runner.invoke(app, ["export", "7", "--db", str(db)])
    assert missing.exit_code == 2 and "no match 7" in missing.output
    bad = runner.invoke(app, ["export", "1", "--db", str(db), "--format", "pdf"])
    assert bad.exit_code == 2 and "--format must be one of jsonl, csv, html" in bad.output


def test_import_command_and_a_foreign_database_refused(tmp_path):
    db = tmp_path / "arbiter.db"
    runner = CliRunner()
    result = runner.invoke(app, ["record", "import", str(SAMPLE), "--db", str(db), "--referee"])
    assert result.exit_code == 0, result.output
    assert "as match 1 (snooker, 42 lines)" in result.output
    listed = runner.invoke(app, ["matches", "--db", str(db), "--import", str(SAMPLE)])
    assert listed.exit_code == 0 and len(listed.output.splitlines()) == 4  # import line, header, two matches
    foreign = tmp_path / "photos.db"
    _foreign(foreign)
    before = foreign.read_bytes()
    for args in (["matches"], ["export", "1"], ["record", "import", str(SAMPLE)]):
        refused = runner.invoke(app, [*args, "--db", str(foreign)])
        assert refused.exit_code == 2 and "left untouched" in refused.output, args
    assert foreign.read_bytes() == before
