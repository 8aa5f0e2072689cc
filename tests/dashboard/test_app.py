"""The dashboard page's logic, driven by Streamlit's AppTest (no browser): pages, setup, the live run of the
bundled sample, inputs, corrections, history and exports."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboard import session as s
from dashboard.session import run as session_run
from dashboard.session import setup as session_setup
from tests.dashboard import apptest

RUN_TIMEOUT_S = 240  # the whole sample clip: about 20-40 s on two shared cores


def _one(elements, label: str):
    found = [e for e in elements if e.label == label]
    assert found, f"no {label!r} among {[e.label for e in elements]}"
    return found[0]


def _go(at: AppTest, page: str) -> AppTest:
    at.sidebar.radio(key="page").set_value(page).run()
    assert not at.exception, at.exception
    return at


def _recorded_sample(db: Path) -> int:
    """The sample shot's truth as a finished, refereed match of the record (as ``--open`` adds a run)."""
    desk = s.Desk(db)
    try:
        return desk.open_folder(s.SAMPLE_SHOT / "truth.jsonl")
    finally:
        desk.close()


def test_the_page_opens_on_an_empty_record(db):
    at = apptest.app()
    assert at.sidebar.radio(key="page").options == ["Match", "New match", "History"]
    assert any("No match is open" in m for m in apptest.texts(at, "info"))
    assert db.is_file()
    _go(at, "History")
    assert any("no match yet" in m for m in apptest.texts(at, "info"))


def test_a_record_file_that_is_not_arbiters_is_named_and_left_alone(tmp_path, monkeypatch):
    bad = tmp_path / "notes.db"
    bad.write_text("shopping list\n")
    monkeypatch.setenv("ARBITER_DB", str(bad))
    at = apptest.page().run()
    assert any("not a SQLite database" in m for m in apptest.texts(at, "error"))
    assert bad.read_text() == "shopping list\n"


def test_setup_offers_every_game_with_its_own_options_as_typed_widgets(db):
    at = _go(apptest.app(), "New match")
    game = at.selectbox(key="game")
    assert game.options[:2] == ["Snooker (snooker)", "14.1 continuous (straight pool) (straight-pool)"]
    assert len(game.options) == len(s.games()) == 23 and game.value == "snooker"
    frames = at.number_input(key="opt_snooker_frames")  # snooker first: best of N frames, 1 by default
    assert frames.value == 1 and frames.min == 1 and "best of N (odd)" in frames.help
    assert at.selectbox(key="opt_snooker_first").options == ["A", "B"]
    assert not at.text_area  # no JSON box: snooker has no option of the json kind
    at.selectbox(key="game").set_value("pyramid").run()
    assert at.selectbox(key="opt_pyramid_variant").options == ["free", "combined", "dynamic"]
    assert at.number_input(key="opt_pyramid_target").max == 8
    at.selectbox(key="game").set_value("martinetti").run()
    assert at.checkbox(key="opt_martinetti_auto_advance").value is False
    at.selectbox(key="game").set_value("yacht").run()
    assert at.text_area(key="opt_yacht_categories").value == ""  # a json kind: a box, empty for the default
    assert at.number_input(key="opt_yacht_rounds").value is None  # absent unless given
    at.text_input(key="players").set_value("Ann, Bob, Cy").run()
    assert at.selectbox(key="opt_yacht_first").options == ["Ann", "Bob", "Cy"]
    assert any("[the rules of Sea dice (Yacht)](?rules=yacht)" in m for m in apptest.texts(at, "caption"))


def test_options_picked_in_the_form_go_into_the_header(db):
    at = _go(apptest.app(), "New match")
    at.radio(key="source_kind").set_value("manual").run()
    at.selectbox(key="game").set_value("pyramid").run()
    at.selectbox(key="opt_pyramid_variant").set_value("dynamic")
    at.number_input(key="opt_pyramid_target").set_value(5)
    at.selectbox(key="opt_pyramid_first").set_value("B")
    at.button(key="start").click().run()
    assert not at.exception and not apptest.texts(at, "error"), apptest.texts(at, "error")
    assert any("options: variant dynamic, target 5, first B" in m for m in apptest.texts(at, "caption"))
    desk = s.Desk(db)
    (info,) = desk.matches()
    assert dict(desk.record.header(info.id).options) == {"variant": "dynamic", "target": 5, "first": "B"}
    desk.close()


def test_an_option_the_engine_refuses_is_refused_with_its_reason(db):
    at = _go(apptest.app(), "New match")
    at.radio(key="source_kind").set_value("manual").run()
    at.number_input(key="opt_snooker_frames").set_value(2).run()  # best of 2 frames
    at.button(key="start").click().run()
    assert any("odd integer" in m for m in apptest.texts(at, "error"))
    at.selectbox(key="game").set_value("yacht").run()
    at.text_area(key="opt_yacht_categories").set_value("full house").run()
    at.button(key="start").click().run()
    assert any("categories must be a JSON list or object" in m for m in apptest.texts(at, "error"))
    desk = s.Desk(db)
    assert desk.matches() == []
    desk.close()


def test_a_dice_game_is_refused_a_video_without_the_dice_reader(db, monkeypatch):
    monkeypatch.setattr(session_setup, "dice_video_available", lambda: False)
    at = _go(apptest.app(), "New match")
    at.radio(key="source_kind").set_value("sample").run()
    at.selectbox(key="game").set_value("yacht").run()
    assert any("does not read dice from video" in m for m in apptest.texts(at, "info"))
    at.button(key="start").click().run()
    assert any("does not read dice from video" in m for m in apptest.texts(at, "error"))


def test_a_dice_game_from_video_is_read_with_the_doubt_chosen_on_the_page(db, monkeypatch):
    """The page's doubt reaches the dice reader (the dice pipeline stood in for: the page's wiring only)."""
    readers = []

    def pipeline(source, spec, players, out, options=None, **_):
        readers.append(options.reader.unsure_below)
        return type("Result", (), {"frames": 0, "bad_frames": 0, "fps": 0.0})()

    monkeypatch.setattr(session_setup, "dice_video_available", lambda: True)
    monkeypatch.setattr(session_run, "referee_dice_video", pipeline)
    at = _go(apptest.app(), "New match")
    at.radio(key="source_kind").set_value("sample").run()
    at.selectbox(key="game").set_value("yacht").run()
    assert at.slider(key="unsure_below").value == s.READER_DOUBT
    at.slider(key="unsure_below").set_value(0.97).run()
    at.button(key="start").click().run()
    assert not at.exception, at.exception
    for _ in range(100):
        if readers:
            break
        time.sleep(0.05)
    assert readers == [0.97]


def test_a_match_typed_by_hand_from_setup_to_scoreboard(db):
    at = _go(apptest.app(), "New match")
    at.radio(key="source_kind").set_value("manual").run()
    at.selectbox(key="game").set_value("pig").run()
    at.text_input(key="players").set_value("Ann, Bob").run()
    at.number_input(key="opt_pig_target").set_value(10).run()
    at.button(key="start").click().run()
    assert not at.exception, at.exception
    assert at.sidebar.radio(key="page").value == "Match"
    assert any("Match 1: pig, Ann v Bob" in h for h in apptest.texts(at, "subheader"))
    assert "Ann to play" in apptest.html(at)
    match_id = at.session_state["match"]
    for kind, fields in (("roll", {"faces": "6"}), ("roll", {"faces": "5"}), ("stop", {})):
        at.selectbox(key=f"input_kind_{match_id}").set_value(kind).run()
        for label, value in fields.items():
            _one(at.text_input, label).set_value(value)
        _one(at.button, "Record it").click().run()
        assert not at.exception and not apptest.texts(at, "error"), apptest.texts(at, "error")
        assert any("recorded:" in m for m in apptest.texts(at, "success"))
    html = apptest.html(at)
    assert '<div class="score">11</div>' in html and "Bob to play" in html
    assert "Ann throws 1 of 1: 6" in html and "score Ann 11, Bob 0" in html


def test_an_input_the_rules_refuse_shows_why(db):
    desk = s.Desk(db)
    match_id = desk.start(s.Setup(game="pig"), None)
    desk.close()
    at = apptest.app()
    at.session_state["match"] = match_id
    at.run()
    assert at.selectbox(key=f"input_kind_{match_id}").options == ["roll", "stop", "event (JSON line)"]
    at.selectbox(key=f"input_kind_{match_id}").set_value("event (JSON line)").run()
    _one(at.text_area, "line").set_value('{"type":"claim","player":"A","number":5}')
    _one(at.button, "Record it").click().run()
    errors = apptest.texts(at, "error")
    assert any("the rules refuse it" in m and "a roll or a stop by A" in m for m in errors)


def test_a_recorded_match_is_reviewed_with_scoreboard_timeline_diagrams_and_exports(db, monkeypatch):
    match_id = _recorded_sample(db)
    monkeypatch.setenv("ARBITER_MATCH", str(match_id))
    at = apptest.app()
    assert at.sidebar.radio(key="page").value == "Match"
    html = apptest.html(at)
    assert 'data-player="B"' in html and '<div class="score">4</div>' in html
    assert "B to play · on: red · waiting for: choice" in html
    assert "shot: the cue strikes white" in html and "FOUL in off" in html
    (diagram,) = [i for i in at.get("image") if "shot 1:" in str(i.proto)]
    assert "data:image/svg+xml" in str(diagram.proto)
    assert [t.label for t in at.tabs] == ["Timeline", "Shots", "Input", "Correct", "Export"]
    downloads = [d.proto.label for d in at.get("download_button")]
    assert downloads == ["Download JSON Lines", "Download CSV", "Download report (HTML)"]  # no video: typed


def test_a_correction_on_the_page_recomputes_the_call(db, monkeypatch):
    match_id = _recorded_sample(db)
    monkeypatch.setenv("ARBITER_MATCH", str(match_id))
    at = apptest.app()
    white_pot = json.loads((s.SAMPLE_SHOT / "truth.jsonl").read_text().splitlines()[39])
    assert white_pot == white_pot | {"type": "pocket", "ball": "white"}  # line 40: the in-off
    _one(at.radio, "correction").set_value("delete")
    _one(at.number_input, "line (as numbered in the timeline)").set_value(40)
    _one(at.text_input, "why (kept with the correction)").set_value("the white stayed in the jaws")
    _one(at.button, "Apply the correction").click().run()
    assert not at.exception and not apptest.texts(at, "error"), apptest.texts(at, "error")
    assert any("corrected; 1 decision(s) recomputed differently" in m for m in apptest.texts(at, "success"))
    html = apptest.html(at)
    assert '<div class="score">4</div>' not in html and "FOUL in off" not in html  # a fair stroke
    assert "B to play · on: red" in html and "waiting for" not in html
    assert any("the white stayed in the jaws" in m for m in apptest.texts(at, "markdown"))
    assert [r.label for r in at.radio if r.key == f"export_which_{match_id}"]  # corrected or as recorded


def test_a_correction_is_made_in_the_form_from_the_games_own_balls(db, monkeypatch):
    match_id = _recorded_sample(db)
    monkeypatch.setenv("ARBITER_MATCH", str(match_id))
    at = apptest.app()
    line = at.selectbox(key=f"fix_at_{match_id}")
    assert line.options[0].startswith("2: 0.81 s · shot_start")
    assert line.options[-1] == "43: after the last line"
    line.set_value(3).run()
    assert at.radio(key=f"fix_op_{match_id}_3").value == "replace"
    assert at.selectbox(key=f"fix_type_{match_id}_3_replace").value == "ball_ball"
    key = f"fix_{match_id}_3_replace_ball_ball"
    hit = at.selectbox(key=f"{key}_balls_1")
    assert hit.value == "red:4" and "red:7" in hit.options and "pink" in hit.options  # snooker's balls
    hit.set_value("pink")  # the classic break-off foul: the white clips the pink before the pack
    at.text_input(key=f"{key}_reason").set_value("white hit the pink first")
    _one(at.button, "Correct the line").click().run()
    assert not at.exception and not apptest.texts(at, "error"), apptest.texts(at, "error")
    assert any("corrected; 1 decision(s) recomputed differently" in m for m in apptest.texts(at, "success"))
    html = apptest.html(at)
    assert '<div class="score">6</div>' in html and "FOUL wrong ball first (6; WPBSA 3.11)" in html
    desk = s.Desk(db)
    (override,) = desk.view(match_id).overrides
    assert override.line == '{"type":"ball_ball","t":1.214965,"balls":["white","pink"]}'  # its time kept
    desk.close()


def test_a_line_is_inserted_and_deleted_in_the_form(db):
    desk = s.Desk(db)
    match_id = desk.start(s.Setup(game="pig"), None)
    for faces in ("6", "5"):
        desk.add_input(match_id, s.make_input("roll", "A", t=desk.next_t(match_id), faces=faces))
    desk.close()
    at = apptest.app()
    at.session_state["match"] = match_id
    at.run()
    at.selectbox(key=f"fix_at_{match_id}").set_value(4).run()  # after the last line
    assert at.radio(key=f"fix_op_{match_id}_4").options == ["insert a line before it"]
    at.selectbox(key=f"fix_type_{match_id}_4_insert").set_value("stop").run()
    at.selectbox(key=f"fix_{match_id}_4_insert_stop_player").set_value("A")
    _one(at.button, "Correct the line").click().run()
    assert not apptest.texts(at, "error"), apptest.texts(at, "error")
    assert '<div class="score">11</div>' in apptest.html(at)
    at.selectbox(key=f"fix_at_{match_id}").set_value(2).run()
    assert at.radio(key=f"fix_op_{match_id}_2").value == "replace"  # a line starts as "change it"
    die = at.selectbox(key=f"fix_{match_id}_2_replace_roll_dice_d1")
    assert die.value == 6 and die.options == ["1", "2", "3", "4", "5", "6"]
    die.set_value(1)
    _one(at.button, "Correct the line").click().run()  # a one loses the turn: A's stop cannot follow
    assert any("the rules stop at line 4" in m and "it is B's turn" in m for m in apptest.texts(at, "error"))
    at.selectbox(key=f"fix_{match_id}_2_replace_roll_dice_d1").set_value(2)
    _one(at.button, "Correct the line").click().run()
    assert not apptest.texts(at, "error"), apptest.texts(at, "error")
    assert '<div class="score">7</div>' in apptest.html(at)
    at.selectbox(key=f"fix_at_{match_id}").set_value(3).run()
    at.radio(key=f"fix_op_{match_id}_3").set_value("delete").run()
    _one(at.button, "Correct the line").click().run()
    assert not apptest.texts(at, "error"), apptest.texts(at, "error")
    assert '<div class="score">2</div>' in apptest.html(at)


def test_each_call_names_its_rule_and_the_rules_page_opens(db, monkeypatch):
    match_id = _recorded_sample(db)
    monkeypatch.setenv("ARBITER_MATCH", str(match_id))
    at = apptest.app()
    html = apptest.html(at)
    assert "rule WPBSA 3.11" in html and 'href="?rules=snooker"' in html
    assert any("[the rules of Snooker](?rules=snooker)" in m for m in apptest.texts(at, "caption"))
    rules = apptest.page()
    rules.query_params["rules"] = "snooker"
    rules.run()
    assert any("The rules of Snooker" in h for h in apptest.texts(rules, "subheader"))
    shown = apptest.texts(rules, "markdown") + apptest.texts(rules, "info")
    assert any("nooker" in m or "docs/games/snooker.md is not written yet" in m for m in shown)
    rules.query_params["rules"] = "chess"
    rules.run()
    assert any("unknown game 'chess'" in m for m in apptest.texts(rules, "error"))


def test_a_correction_the_rules_cannot_follow_is_refused_on_the_page(db, monkeypatch):
    match_id = _recorded_sample(db)
    monkeypatch.setenv("ARBITER_MATCH", str(match_id))
    at = apptest.app()
    _one(at.radio, "correction").set_value("insert")
    _one(at.number_input, "line (as numbered in the timeline)").set_value(3)
    _one(at.text_area, "new line (replace, insert: one JSON line of the contract)").set_value(
        '{"type":"cushion","t":0.1,"ball":"white","side":"top"}'
    )
    _one(at.button, "Apply the correction").click().run()
    errors = apptest.texts(at, "error")
    assert any("the rules stop at line 3" in m and "time goes backwards" in m for m in errors)


def test_history_lists_past_matches_and_opens_one(db):
    match_id = _recorded_sample(db)
    at = _go(apptest.app(), "History")
    (table,) = at.table
    assert "snooker" in table.value.to_string() and "B 4" in table.value.to_string()
    at.selectbox(key="history_pick").set_value(match_id).run()
    at.button(key="history_open").click().run()
    assert at.sidebar.radio(key="page").value == "Match" and at.session_state["match"] == match_id


def test_a_run_folder_is_imported_from_history(db):
    at = _go(apptest.app(), "History")
    at.text_input(key="import_folder").set_value(str(s.SAMPLE_SHOT / "truth.jsonl")).run()
    at.button(key="import_go").click().run()
    assert at.sidebar.radio(key="page").value == "Match"
    assert '<div class="score">4</div>' in apptest.html(at)
    at = _go(at, "History")
    at.text_input(key="import_folder").set_value("/no/such/run").run()
    at.button(key="import_go").click().run()
    assert any("not found" in m for m in apptest.texts(at, "error"))


def test_the_table_is_calibrated_over_the_frame_automatically_or_by_typed_corners(db):
    at = _go(apptest.app(), "New match")
    at.radio(key="source_kind").set_value("sample").run()
    _one(at.button, "Find the table on the first frame").click().run()
    assert any("automatic calibration, reprojection error" in m for m in apptest.texts(at, "success"))
    assert at.checkbox(key="use_calib").value
    for name, xy in zip(s.CORNERS, ("86, 74", "86, 628", "1219, 82", "1204, 649"), strict=True):
        at.text_input(key=f"corner_{name}").set_value(xy)
    _one(at.button, "Fit the table to these corners").click().run()
    assert any("manual calibration, reprojection error" in m for m in apptest.texts(at, "success"))
    at.text_input(key="corner_tr").set_value("1204").run()
    _one(at.button, "Fit the table to these corners").click().run()
    assert any("two pixel numbers" in m for m in apptest.texts(at, "error"))


def test_the_corners_clicked_on_the_frame_fit_the_table(db):
    at = _go(apptest.app(), "New match")
    at.radio(key="source_kind").set_value("sample").run()
    assert any("click bl: the bottom left (baulk cushion) corner" in m for m in apptest.texts(at, "caption"))
    assert _one(at.button, "Fit the table to the clicked corners").disabled
    clicks = s.CornerClicks((1280, 720))
    for n, (x, y) in enumerate(((86, 74), (86, 628), (1219, 82), (1204, 649))):  # as the browser sends them
        clicks = clicks.add({"x": x / 1.6, "y": y / 1.6, "width": 800, "height": 450, "unix_time": n})
    at.session_state["corner_clicks"] = (str(s.SAMPLE_VIDEO), clicks)
    at.run()
    assert any("all four corners are clicked" in m for m in apptest.texts(at, "caption"))
    _one(at.button, "Fit the table to the clicked corners").click().run()
    assert any("manual calibration, reprojection error" in m for m in apptest.texts(at, "success"))
    assert at.checkbox(key="use_calib").value
    _one(at.button, "Clear the clicks").click().run()
    assert any("click bl:" in m for m in apptest.texts(at, "caption"))


def test_the_bundled_sample_runs_live_with_one_click(db):
    at = apptest.app()
    at.sidebar.button(key="sample_side").click().run()
    assert not at.exception, at.exception
    assert at.sidebar.radio(key="page").value == "Match"
    seen_running = False
    deadline = time.monotonic() + RUN_TIMEOUT_S
    while time.monotonic() < deadline:
        progress = [p.proto.text for p in at.get("progress")]
        if progress and progress[0].startswith("done"):
            break
        seen_running = seen_running or any(p.startswith("running") for p in progress)
        time.sleep(1.0)
        at.run()
        assert not at.exception, at.exception
    assert progress and progress[0].startswith("done · frame 312 of 312"), progress
    assert seen_running
    assert any("Run done: 312 frames" in m for m in apptest.texts(at, "success"))
    html = apptest.html(at)
    assert '<div class="score">4</div>' in html and "FOUL in off" in html
    downloads = [d.proto.label for d in at.get("download_button")]
    assert "Download the annotated video" in downloads and "Download report (HTML)" in downloads


# --- the command that serves the page ---------------------------------------------------------------------


def _cli(args: list[str], monkeypatch, calls: list | None = None):
    from typer.testing import CliRunner

    import cli.dashboard as cd
    from cli.main import app

    def serve(path, argv, env):
        if calls is not None:
            calls.append((argv, env))
        raise SystemExit(0)

    monkeypatch.setattr(cd.os, "execve", serve)
    return CliRunner().invoke(app, ["dashboard", *args])


def test_the_command_serves_on_this_machine_only_without_telemetry():
    from cli.dashboard import streamlit_command

    cmd = streamlit_command(8600)
    assert (
        cmd[cmd.index("--server.address") + 1] == "127.0.0.1"
        and cmd[cmd.index("--server.port") + 1] == "8600"
    )
    assert cmd[cmd.index("--server.headless") + 1] == "true"
    assert cmd[cmd.index("--browser.gatherUsageStats") + 1] == "false"
    assert cmd[cmd.index("run") + 1] == str(apptest.APP)


def test_the_command_opens_a_run_folder_and_prints_the_address(tmp_path, monkeypatch):
    calls: list = []
    db = tmp_path / "arbiter.db"
    result = _cli(
        ["--port", "8611", "--db", str(db), "--open", str(s.SAMPLE_SHOT / "truth.jsonl")], monkeypatch, calls
    )
    assert result.exit_code == 0, result.output
    assert "Arbiter dashboard: http://127.0.0.1:8611, showing match 1" in result.output
    ((argv, env),) = calls
    assert env["ARBITER_DB"] == str(db.resolve()) and env["ARBITER_MATCH"] == "1"
    assert "--server.port" in argv and "8611" in argv


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "0"], "--port must be 1..65535"),
        (["--match", "7"], "no match 7"),
        (["--open", "/no/such/run"], "not found"),
    ],
)
def test_the_command_refuses_what_it_cannot_serve(tmp_path, monkeypatch, args, message):
    result = _cli([*args, "--db", str(tmp_path / "arbiter.db")], monkeypatch)
    assert result.exit_code == 2 and message in result.output


def test_the_command_refuses_a_port_in_use_and_a_foreign_record(tmp_path, monkeypatch):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = _cli(["--port", str(port), "--db", str(tmp_path / "a.db")], monkeypatch)
    assert result.exit_code == 2 and "is in use" in result.output
    foreign = tmp_path / "notes.db"
    foreign.write_text("not a record")
    result = _cli(["--db", str(foreign), "--port", "8612"], monkeypatch)
    assert result.exit_code == 2 and "not a SQLite database" in result.output


def test_a_match_is_finished_from_the_page_and_then_takes_corrections_only(db):
    desk = s.Desk(db)
    match_id = desk.start(s.Setup(game="pig"), None)
    desk.close()
    at = apptest.app()
    at.session_state["match"] = match_id
    at.run()
    _one(at.button, "Finish the match").click().run()
    assert not at.exception, at.exception
    assert any("status: finished" in m for m in apptest.texts(at, "caption"))
    assert any("finished: correct it in the Correct tab" in m for m in apptest.texts(at, "info"))
    assert not [b for b in at.button if b.label == "Finish the match"]


def test_an_image_folder_is_said_to_be_a_videos_frames(db):
    at = _go(apptest.app(), "New match")
    at.radio(key="source_kind").set_value("folder").run()
    assert any("frames of one video" in c and "arbiter run FOLDER" in c for c in apptest.texts(at, "caption"))
