"""The dashboard's controller without Streamlit: setup, video runs in the background, inputs, corrections,
the view of a match and its exports."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest

from arbiter import contract as c
from arbiter import games as g
from arbiter.games import BILLIARDS_GAMES, DICE_GAMES, TEAM_GAMES, billiards
from dashboard import session as s
from dashboard import views as v
from dashboard.session import run as session_run
from dashboard.session import setup as session_setup
from tracking.throws import TrackedDie
from vision.calibration import TableCalibration
from vision.dice import DiceReaderConfig
from vision.sources import FrameSource

GAMES = tuple(s.id for s in BILLIARDS_GAMES)

RUN_TIMEOUT_S = 240  # the whole sample clip: about 20-40 s on two shared cores


def _wait(run: s.PipelineRun, timeout: float = RUN_TIMEOUT_S) -> s.Progress:
    assert run.join(timeout), f"the run did not end within {timeout} s: {run.progress()}"
    return run.progress()


@pytest.fixture
def desk(tmp_path):
    d = s.Desk(tmp_path / "arbiter.db")
    yield d
    d.close()


@pytest.fixture(scope="module")
def sample_run(tmp_path_factory):
    """The bundled sample clip run once through the whole pipeline, as the page's one-click button does."""
    d = s.Desk(tmp_path_factory.mktemp("sample") / "arbiter.db")
    match_id = d.start_sample()
    run = d.run(match_id)
    progress = _wait(run)
    yield d, match_id, run, progress
    d.close()


# --- setup -----------------------------------------------------------------------------------------------


def test_every_refereed_game_can_be_chosen():
    assert set(s.games()) == {g.id for g in (*BILLIARDS_GAMES, *DICE_GAMES, *TEAM_GAMES)}
    assert s.games()[: len(BILLIARDS_GAMES)] == GAMES


@pytest.mark.parametrize(
    ("game", "names"),
    [
        ("snooker", ("frames", "first")),
        ("straight-pool", ("target", "first")),
        ("pig", ("target", "first")),
        ("yacht", ("first", "categories", "rounds", "scores")),
    ],
)
def test_the_options_offered_are_the_games_own(game, names):
    options = s.game_options(game)
    assert tuple(o.name for o in options) == names == tuple(o.name for o in g.game(game).options)
    assert all(o.help for o in options)


PIG_FORM = {"target": 100, "first": "A"}  # the form as it opens: the rules' defaults


@pytest.mark.parametrize(
    ("game", "values", "want"),
    [
        ("pig", PIG_FORM, {}),  # a form left alone: no options, as arbiter referee would start it
        ("pig", {"target": 20, "first": "B"}, {"target": 20, "first": "B"}),
        ("pig", {"target": 20.0}, {"target": 20}),
        ("snooker", {"frames": 3, "first": "A"}, {"frames": 3}),
        ("pyramid", {"variant": "dynamic", "target": 8, "foul_penalty": "ball"},
            {"variant": "dynamic", "foul_penalty": "ball"}),
        ("martinetti", {"auto_advance": True}, {"auto_advance": True}),
        ("yacht", {"rounds": None, "categories": "", "scores": ""}, {}),
        ("yacht", {"categories": '["choice", "yacht"]'}, {"categories": ["choice", "yacht"]}),
        ("five-pins", {"contact_mm": 3.0, "target": 60}, {}),
        ("five-pins", {"contact_mm": 4.5}, {"contact_mm": 4.5}),
        ("thirteen", {"shifted_die": " d3 "}, {"shifted_die": "d3"}),
        ("buck-dice", {"point": 4}, {"point": 4}),
    ],
)  # fmt: skip
def test_the_options_form_gives_the_header_only_what_differs_from_the_rules(game, values, want):
    options = s.options_from_form(g.game(game), values, ("A", "B"))
    assert options == want
    s.Setup(game=game, options=options).header()  # and the engine takes them


@pytest.mark.parametrize(
    ("game", "values", "message"),
    [
        ("pig", {"target": 0}, "target must be at least 1"),
        ("pig", {"target": 2.5}, "target must be a whole number"),
        ("pig", {"first": "Zoe"}, "first must be one of the players A, B"),
        ("pyramid", {"target": 9}, "target must be 1..8"),
        ("pyramid", {"variant": "russian"}, "variant must be one of free, combined, dynamic"),
        ("yacht", {"categories": "chance"}, "categories must be a JSON list or object"),
        ("yacht", {"categories": "7"}, "categories must be a JSON list or object"),
        ("five-pins", {"contact_mm": float("nan")}, "finite"),
    ],
)
def test_an_option_out_of_its_range_says_what_it_must_be(game, values, message):
    with pytest.raises(s.DeskError, match=message):
        s.options_from_form(g.game(game), values, ("A", "B"))


def test_a_player_option_defaults_to_the_first_player():
    first = g.game("pig").option("first")
    assert s.option_default(first, ("Ann", "Bob")) == "Ann"
    assert s.option_default(g.game("pig").option("target"), ("Ann", "Bob")) == 100


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (s.Setup(game="curling"), "unknown game"),
        (s.Setup(game="snooker", options={"frames": 2}), "odd integer"),
        (s.Setup(game="pig", options={"colour": "red"}), "no option 'colour'"),
        (s.Setup(game="pig", players=("A", "A")), "distinct"),
    ],
)
def test_a_setup_the_engine_cannot_use_is_refused_before_a_match_starts(setup, message):
    with pytest.raises(s.DeskError, match=message):
        setup.header()


def test_a_good_setup_gives_the_header_the_engine_reads():
    header = s.Setup(game="pig", players=("Ann", "Bob"), options={"target": 20}).header()
    assert header == c.Match(game="pig", players=("Ann", "Bob"), options={"target": 20})


@pytest.mark.parametrize(
    ("text", "want"),
    [("A, B", ("A", "B")), ("Ann;Bob; Cy", ("Ann", "Bob", "Cy")), ("", s.DeskError), ("A, A", s.DeskError)],
)
def test_players_are_typed_in_turn_order(text, want):
    if want is s.DeskError:
        with pytest.raises(s.DeskError):
            s.parse_players(text)
    else:
        assert s.parse_players(text) == want


@pytest.mark.parametrize(
    ("kind", "value", "want"),
    [
        ("sample", "", str(s.SAMPLE_VIDEO)),
        ("manual", "", None),
        ("camera", "0", "0"),
        ("camera", "first", s.DeskError),
        ("rtsp", "rtsp://10.0.0.5:554/table", "rtsp://10.0.0.5:554/table"),
        ("rtsp", "10.0.0.5", s.DeskError),
        ("file", "/no/such/video.mp4", s.DeskError),
        ("file", "", s.DeskError),
        ("folder", str(s.SAMPLE_VIDEO), s.DeskError),
        ("folder", str(s.SAMPLE_SHOT), str(s.SAMPLE_SHOT)),
        ("telepathy", "", s.DeskError),
    ],
)
def test_a_source_is_checked_when_chosen(kind, value, want):
    if want is s.DeskError:
        with pytest.raises(s.DeskError):
            s.source_spec(kind, value)
    else:
        assert s.source_spec(kind, value) == want


@pytest.mark.parametrize(
    ("text", "want"), [("102, 88", (102.0, 88.0)), ("102 88", (102.0, 88.0)), ("1190.5,95", (1190.5, 95.0))]
)
def test_a_typed_corner_is_two_pixel_numbers(text, want):
    assert s.parse_point(text) == want


@pytest.mark.parametrize("text", ["", "102", "a, b", "1, 2, 3"])
def test_a_bad_corner_says_what_a_point_is(text):
    with pytest.raises(s.DeskError, match="two pixel numbers"):
        s.parse_point(text)


# --- calibration -----------------------------------------------------------------------------------------


def test_the_table_is_found_on_the_first_frame_and_typed_corners_fit_it_too(tmp_path):
    auto = s.calibrate(str(s.SAMPLE_VIDEO), billiards("snooker"), tmp_path / "auto.json")
    assert auto.ok and auto.profile is not None and auto.profile.is_file() and "automatic" in auto.message
    assert auto.image.shape == (720, 1280, 3)
    table = billiards("snooker").table
    calib = TableCalibration.load(auto.profile, game="snooker", image_size=auto.size)
    corners_mm = np.array(
        [[0, 0], [table.width_mm, 0], [0, table.length_mm], [table.width_mm, table.length_mm]]
    )
    typed = {
        name: tuple(map(float, xy)) for name, xy in zip(s.CORNERS, calib.mm_to_px(corners_mm), strict=True)
    }
    manual = s.calibrate(str(s.SAMPLE_VIDEO), billiards("snooker"), tmp_path / "manual.json", typed)
    assert manual.ok and "manual" in manual.message
    again = TableCalibration.load(manual.profile, game="snooker", image_size=manual.size)
    assert np.allclose(again.mm_to_px(corners_mm), calib.mm_to_px(corners_mm), atol=3.0)


def test_corners_that_fit_no_camera_are_refused_with_the_frame_to_read_them_from(tmp_path):
    bad = dict.fromkeys(s.CORNERS, (10.0, 10.0))
    preview = s.calibrate(str(s.SAMPLE_VIDEO), billiards("snooker"), tmp_path / "bad.json", bad)
    assert not preview.ok and preview.profile is None and "check the points" in preview.message
    assert not (tmp_path / "bad.json").exists()
    assert preview.image.shape == (720, 1280, 3)  # the frame with a pixel grid


def test_dice_games_have_no_table_to_calibrate(tmp_path):
    with pytest.raises(s.DeskError, match="yacht is a dice game"):
        s.calibrate(str(s.SAMPLE_VIDEO), g.dice("yacht"), tmp_path / "x.json")


# --- inputs ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "fields", "want"),
    [
        ("declare", {"ball": "blue"}, {"type": "declare", "player": "A", "ball": "blue"}),
        ("declare", {"ball": "pink", "free_ball": True},
            {"type": "declare", "player": "A", "ball": "pink", "free_ball": True}),
        ("call", {"ball": "7", "pocket": "tl"}, {"type": "call", "player": "A", "ball": "7", "pocket": "tl"}),
        ("call", {"ball": "", "pocket": "", "safety": True}, {"type": "call", "player": "A", "safety": True}),
        ("choice", {"option": "pass"}, {"type": "choice", "player": "A", "option": "pass"}),
        ("concede", {}, {"type": "concede", "player": "A"}),
        ("roll", {"faces": "3 5", "thrown": "d2"}, {"type": "roll", "t": 2.5, "player": "A",
            "dice": [{"id": "d1", "value": 3}, {"id": "d2", "value": 5}], "thrown": ["d2"]}),
        ("roll", {"faces": "6"}, {"type": "roll", "t": 2.5, "player": "A", "dice": [{"id": "d1", "value": 6}],
            "thrown": ["d1"]}),
        ("choose", {"category": "full_house"}, {"type": "choose", "player": "A", "category": "full_house"}),
        ("stop", {}, {"type": "stop", "player": "A"}),
        ("claim", {"hand": "3 3 3 2 2", "number": ""},
            {"type": "claim", "player": "A", "hand": [3, 3, 3, 2, 2]}),
        ("claim", {"hand": "", "number": "7"}, {"type": "claim", "player": "A", "number": 7}),
        ("challenge", {}, {"type": "challenge", "player": "A"}),
        ("bet", {"face": 4, "stake": 2}, {"type": "bet", "player": "A", "face": 4, "stake": 2}),
        ("operation", {"op": "third"}, {"type": "operation", "player": "A", "op": "third"}),
    ],
)  # fmt: skip
def test_each_input_the_camera_cannot_see_is_a_contract_line(kind, fields, want):
    line = s.make_input(kind, "A", t=2.5 if kind == "roll" else None, **fields)
    assert json.loads(c.to_json(line)) == want


@pytest.mark.parametrize(
    ("kind", "fields", "message"),
    [
        ("choice", {"option": "maybe"}, "choice.option must be one of"),
        ("roll", {"faces": "3 7"}, "an integer 1..6"),
        ("roll", {"faces": "three"}, "faces are numbers"),
        ("claim", {"hand": "1 2"}, "5 faces"),
        ("call", {"ball": "", "pocket": ""}, "must name a ball"),
        ("bet", {"face": 9}, "bet.face"),
        ("juggle", {}, "unknown input"),
    ],
)
def test_a_bad_input_says_what_is_wrong(kind, fields, message):
    with pytest.raises(s.DeskError, match=message):
        s.make_input(kind, "A", t=1.0, **fields)


def test_a_typed_event_line_is_any_event_but_not_a_header_or_a_decision():
    line = s.parse_input_line('{"type":"cushion","t":2.5,"ball":"white","side":"top"}')
    assert isinstance(line, c.Cushion)
    with pytest.raises(s.DeskError, match="not a line of the contract"):
        s.parse_input_line('{"type":"cushion","t":2.5,"ball":"white","side":"up"}')
    with pytest.raises(s.DeskError, match="headers and decisions"):
        s.parse_input_line('{"type":"match","v":1,"game":"pig","players":["A"]}')


def _pig(desk: s.Desk, target: int = 10) -> int:
    return desk.start(s.Setup(game="pig", players=("A", "B"), options={"target": target}), None)


def _roll(desk: s.Desk, match_id: int, player: str, faces: str) -> s.MatchView:
    return desk.add_input(match_id, s.make_input("roll", player, t=desk.next_t(match_id), faces=faces))


def test_a_match_typed_by_hand_is_refereed_as_it_goes(desk):
    match_id = _pig(desk)
    view = desk.view(match_id)
    assert view.board.score == {"A": 0, "B": 0} and view.board.next == "A" and view.info.status == "running"
    _roll(desk, match_id, "A", "6")
    _roll(desk, match_id, "A", "5")
    view = desk.add_input(match_id, s.make_input("stop", "A"))
    assert view.board.score == {"A": 11, "B": 0} and view.board.next == "B"
    assert [r.type for r in view.rows] == ["roll", "roll", "stop"]
    assert view.rows[-1].decisions and "score A 11, B 0" in view.rows[-1].decisions[-1].text
    times = [r.t for r in view.rows if r.t is not None]
    assert times == sorted(times)
    # the record holds the events and the engine's decisions, as the command line records them
    texts = desk.record.texts(match_id)
    assert sum(json.loads(t)["type"] == "decision" for t in texts) == len(view.decisions)


def test_an_input_the_rules_refuse_is_not_recorded(desk):
    match_id = _pig(desk)
    before = desk.record.info(match_id).lines
    with pytest.raises(s.DeskError, match="the rules refuse it: pig: a 'claim' line by A cannot be used now"):
        desk.add_input(match_id, s.make_input("claim", "A", number="5"))
    assert desk.record.info(match_id).lines == before


def test_a_finished_match_takes_corrections_not_inputs(desk):
    match_id = _pig(desk)
    _roll(desk, match_id, "A", "4")
    desk.finish(match_id)
    with pytest.raises(s.DeskError, match="finished"):
        desk.add_input(match_id, s.make_input("stop", "A"))
    view = desk.override(match_id, "insert", 3, c.to_json(s.make_input("stop", "A")), "A said stop")
    assert view.board.score == {"A": 4, "B": 0}


# --- corrections -----------------------------------------------------------------------------------------


def test_a_correction_recomputes_the_decisions_and_keeps_the_original_lines(desk, tmp_path):
    match_id = _pig(desk)
    _roll(desk, match_id, "A", "6")
    _roll(desk, match_id, "A", "5")
    desk.add_input(match_id, s.make_input("stop", "A"))
    recorded = desk.record.texts(match_id)
    second = desk.view(match_id).rows[1]
    assert second.line_no == 3 and "6" not in second.text
    fixed = json.loads(second.json)
    fixed["dice"][0]["value"] = 2
    view = desk.override(match_id, "replace", 3, json.dumps(fixed), "the die shows 2")
    assert view.board.score == {"A": 8, "B": 0}
    assert view.rows[1].corrected and not view.rows[0].corrected
    assert desk.record.texts(match_id) == recorded  # the recorded lines are untouched
    assert [o.reason for o in view.overrides] == ["the die shows 2"]
    # the corrections are in the record's file: another desk on the same file sees them
    other = s.Desk(desk.db)
    try:
        assert other.view(match_id).board.score == {"A": 8, "B": 0}
    finally:
        other.close()
    corrected = desk.export_text(match_id, "jsonl")
    original = desk.export_text(match_id, "jsonl", corrected=False)
    assert '"value":2' in corrected and '"value":2' not in original
    assert original.splitlines() == recorded
    assert '"score":{"A":8,"B":0}' in corrected.splitlines()[-1]
    assert "A 8" in desk.export_text(match_id, "csv") and "A 8" in desk.export_text(match_id, "html")


@pytest.mark.parametrize(
    ("op", "at", "line", "message"),
    [
        ("delete", 1, None, "cannot be deleted"),
        ("delete", 9, None, "past the end"),
        ("insert", 3, '{"type":"roll","t":0.0,"player":"A","dice":[{"id":"d1","value":3}],"thrown":["d1"]}',
         "the rules stop at line 3"),
        ("replace", 2, '{"type":"cushion","t":1,"ball":"white","side":"up"}', "not a line of the contract"),
    ],
)  # fmt: skip
def test_a_correction_that_cannot_apply_is_refused_and_not_kept(desk, op, at, line, message):
    match_id = _pig(desk)
    _roll(desk, match_id, "A", "6")
    _roll(desk, match_id, "A", "5")
    with pytest.raises(s.DeskError, match=message):
        desk.override(match_id, op, at, line)
    assert desk.view(match_id).overrides == ()


# --- video runs ------------------------------------------------------------------------------------------


def test_the_sample_runs_through_the_whole_pipeline_in_the_background(sample_run):
    desk, match_id, run, progress = sample_run
    assert progress.status == "done", progress
    assert progress.frames == progress.total == 312 and progress.eta_s == 0
    assert run.latest_frame() is not None and not run.problems
    view = desk.view(match_id)
    kinds = [r.type for r in view.rows]
    assert kinds[0] == "shot_start" and kinds[-1] == "shot_end" and "pocket" in kinds
    # the sample's break-off goes in off: a foul, four away, the white in hand, B to choose
    assert (
        view.board.score == {"A": 0, "B": 4} and view.board.next == "B" and view.board.awaiting == ("choice",)
    )
    decision = view.rows[-1].decisions[0]
    assert decision.foul and "FOUL in off" in decision.text and "WPBSA 3.11" in decision.text
    assert desk.annotated_video(match_id) is not None and desk.tracks(match_id) is not None
    assert (desk.folder(match_id) / "camera_profile.json").is_file()


def test_the_sample_has_a_diagram_per_shot_and_a_report_with_it(sample_run):
    desk, match_id, _, _ = sample_run
    (svg,) = desk.shot_diagrams(match_id)
    assert svg.startswith("<svg") and 'class="path"' in svg and 'class="pot"' in svg
    report = desk.export_text(match_id, "html")
    assert "<svg" in report and "in off" in report and "A 0, B 4" in report


def test_the_choice_after_the_foul_is_entered_on_the_page(sample_run):
    desk, match_id, _, _ = sample_run
    with pytest.raises(s.DeskError, match="the choice is B's"):
        desk.add_input(match_id, s.make_input("choice", "A", option="play"))
    view = desk.add_input(match_id, s.make_input("choice", "B", option="play"))
    assert view.rows[-1].type == "choice" and not view.rows[-1].decisions  # a choice gives no decision
    assert view.board.awaiting == () and view.board.since == ("B chooses: play",)
    assert "then: B chooses: play" in v.status_line(view.board)


def test_a_stopped_run_keeps_what_it_recorded_and_resumes(desk):
    match_id = desk.start_sample()
    run = desk.run(match_id)
    deadline = time.monotonic() + RUN_TIMEOUT_S
    # stopped in the middle of the break-off (frame 90, 3 s), before the white goes in off (frame 159, 5.3 s)
    while run.progress().frames < 90 and run.progress().active and time.monotonic() < deadline:
        time.sleep(0.05)
    desk.stop(match_id)
    progress = _wait(run)
    assert progress.status == "stopped" and progress.frames < 159, progress
    assert "stopped after" in progress.message and not desk.running(match_id)
    assert "the shot in play is left open" in progress.message
    assert desk.view(match_id).info.status == "running"  # the match stays open for inputs
    kept = desk.record.texts(match_id)
    kinds = [json.loads(t)["type"] for t in kept[1:]]
    # what was seen is kept; the half shot is neither ended nor judged
    assert kinds[0] == "shot_start" and "ball_ball" in kinds
    assert "shot_end" not in kinds and "decision" not in kinds and "pocket" not in kinds
    # resumed, the file is run again from its start and what was recorded is not recorded twice
    progress = _wait(desk.resume(match_id))
    assert progress.status == "done", progress
    texts = desk.record.texts(match_id)
    assert texts[: len(kept)] == kept
    kinds = [json.loads(t)["type"] for t in texts[1:]]
    assert kinds.count("shot_start") == kinds.count("shot_end") == kinds.count("decision") == 1
    assert kinds[-2:] == ["shot_end", "decision"]
    # the shot judged once, whole: the in-off after the stop is called
    view = desk.view(match_id)
    (decision,) = [d for row in view.rows for d in row.decisions]
    assert decision.foul and "FOUL in off" in decision.text and "WPBSA 3.11" in decision.text
    assert view.board.score == {"A": 0, "B": 4}
    desk.finish(match_id)
    assert desk.view(match_id).info.status == "finished"
    with pytest.raises(s.DeskError, match="finished"):
        desk.resume(match_id)


def test_a_file_that_is_not_a_video_is_refused_before_a_match_is_recorded(desk, tmp_path):
    bad = tmp_path / "broken.mp4"
    bad.write_bytes(b"\x00not a video" * 100)
    with pytest.raises(s.DeskError, match="cannot open video"):
        desk.start(s.Setup(game="snooker"), str(bad))
    assert desk.matches() == []


def test_a_video_without_a_table_fails_with_the_reason_and_keeps_the_match(desk, tmp_path):
    from vision.video import VideoWriter

    clip = tmp_path / "dark.mp4"
    with VideoWriter(clip, 320, 240, 30.0) as writer:
        for _ in range(12):
            writer.write(np.zeros((240, 320, 3), np.uint8))
    match_id = desk.start(s.Setup(game="snooker"), str(clip))
    progress = _wait(desk.run(match_id), 120)
    assert progress.status == "failed" and "could not find the table" in progress.message
    assert "kept" in progress.message and desk.info(match_id).id == match_id


def test_a_dice_game_needs_the_dice_reader_for_a_video(desk, monkeypatch):
    monkeypatch.setattr(session_setup, "dice_video_available", lambda: False)
    with pytest.raises(s.DeskError, match="does not read dice from video"):
        desk.start(s.Setup(game="yacht"), str(s.SAMPLE_VIDEO))
    assert desk.matches() == []


def test_only_a_dice_game_takes_the_dice_readers_doubt(desk):
    with pytest.raises(s.DeskError, match="snooker has no dice to read"):
        s.Setup(game="snooker", unsure_below=0.95).header()
    assert s.Setup(game="pig", unsure_below=0.95).header().game == "pig"


def test_a_dice_game_from_video_records_the_rolls_and_referees_them(desk, monkeypatch):
    """The dice pipeline (``arbiter dice run``) is stood in for: this checks the desk's wiring only."""
    calls = []

    def pipeline(
        source, spec, players, out, options=None, match_options=None, on_frame=None, on_event=None, **taps
    ):
        calls.append((spec.id, tuple(players), dict(match_options or {}), options.annotate, options.reader))
        n = 0
        for frame in source:
            n += 1
            taps["on_dice"](frame, [TrackedDie("d1", (10.0, 10.0, 60.0, 60.0), 6, False)])
            on_frame(n, 30.0)
            if n == 5:
                on_event(c.Roll(t=frame.t, player="A", dice=(c.Die("d1", 6),), thrown=("d1",)))
            if n == 6:
                on_event({"type": "cocked", "t": 0.1, "message": "a die leans on the rail"})
                on_event(
                    c.Decision(shot=1, player="A", score={"A": 0, "B": 0}, next="A")
                )  # its own: not ours
            if n == 10:
                break
        return type("Result", (), {"frames": n, "bad_frames": 0, "fps": 30.0})()

    monkeypatch.setattr(session_run, "referee_dice_video", pipeline)
    setup = s.Setup(game="pig", options={"target": 20}, unsure_below=0.95)
    match_id = desk.start(setup, str(s.SAMPLE_VIDEO))
    progress = _wait(desk.run(match_id), 60)
    assert progress.status == "done" and progress.frames == 10, progress
    assert calls == [("pig", ("A", "B"), {"target": 20}, True, DiceReaderConfig(unsure_below=0.95))]
    assert desk.run(match_id).problems == ["the dice reader at t=0.1: a die leans on the rail"]
    _, _, live = desk.run(match_id).latest_frame()
    assert tuple(live[30, 10]) == (0, 220, 0)  # the live view shows the die's box as the run read it
    assert [r.type for r in desk.view(match_id).rows] == ["roll"]
    view = desk.add_input(match_id, s.make_input("stop", "A"))  # what no camera sees, typed on the page
    assert view.board.score == {"A": 6, "B": 0} and view.board.next == "B"


class _DroppingCamera:
    """A live source that sends the sample's first frames, then drops for good (a pulled cable)."""

    def __init__(self, spec: str, frames: int = 70) -> None:
        self._inner = FrameSource(s.SAMPLE_VIDEO)
        self._frames = frames
        self.spec, self.live, self.reconnect_s = spec, True, 0.0
        self.fps, self.frame_count, self.stats = self._inner.fps, None, self._inner.stats

    def __iter__(self):
        for i, frame in enumerate(self._inner):
            if i >= self._frames:
                return
            yield frame


def test_a_lost_camera_shows_a_clear_message_and_keeps_what_was_recorded(desk, monkeypatch):
    monkeypatch.setattr(session_run, "FrameSource", _DroppingCamera)
    run = s.PipelineRun(1, "0", s.Setup(game="snooker"), desk.runs_root / "camera", lambda *_: [])
    progress = _wait(run.start(), 120)
    assert progress.status == "source lost", progress
    assert "stopped sending frames" in progress.message and "70 frames seen are recorded" in progress.message


def test_one_refused_line_never_stops_a_run(tmp_path):
    def refuse(match_id, line):
        raise s.RecordError("the disk is full")

    run = s.PipelineRun(
        1, str(s.SAMPLE_VIDEO), s.Setup(game="snooker", max_frames=150, annotate=False), tmp_path, refuse
    )
    progress = _wait(run.start())
    assert progress.status == "done" and progress.frames == 150
    assert run.problems and all("the disk is full" in p for p in run.problems)


# --- a run folder, and what the page draws ----------------------------------------------------------------


def test_a_run_folder_becomes_one_refereed_match(desk):
    match_id = desk.open_folder(s.SAMPLE_SHOT / "truth.jsonl")
    view = desk.view(match_id)
    assert view.info.status == "finished" and view.board.score == {"A": 0, "B": 4}
    assert any(json.loads(t)["type"] == "decision" for t in desk.record.texts(match_id))
    assert desk.open_folder(s.SAMPLE_SHOT / "truth.jsonl") == match_id
    with pytest.raises(s.DeskError, match="not found"):
        desk.open_folder(Path("/no/such/run"))


def test_the_views_lay_out_the_scoreboard_and_timeline(desk):
    match_id = desk.open_folder(s.SAMPLE_SHOT / "truth.jsonl")
    view = desk.view(match_id)
    board = v.scoreboard_html(view.board)
    assert 'data-player="B"' in board and '<div class="score">4</div>' in board
    assert "B to play · on: red · waiting for: choice" in board
    html = v.timeline_html(view.rows)
    assert html.count('class="event"') == len(view.rows) == 41
    assert html.count('class="decision foul"') == 1 and "FOUL in off" in html
    assert v.timeline_html(view.rows, limit=3).count('class="event"') == 3
    assert "frame 10 of 100 · 20.0 fps · 4 s left" in v.progress_text(s.Progress("running", 10, 100, 20.0))
    assert v.progress_text(s.Progress("running", 10, None, 20.0)) == "running · frame 10 · 20.0 fps"


# --- the correction form ---------------------------------------------------------------------------------

CONTACT = c.BallBall(t=0.914354, frame=55, balls=("white", "yellow"))
ROLL = c.Roll(t=1.5, player="A", dice=(c.Die("d1", 3), c.Die("d2", 5)), thrown=("d2",))


@pytest.mark.parametrize(
    ("game", "types"),
    [
        ("snooker", ("shot_start", "ball_ball", "cushion", "pocket", "off_table", "shot_end", "declare",
                     "choice", "concede")),
        ("straight-pool", ("shot_start", "ball_ball", "cushion", "pocket", "off_table", "shot_end", "call",
                           "choice", "concede")),
        ("five-pins", ("shot_start", "ball_ball", "cushion", "pocket", "off_table", "pin_down", "shot_end",
                       "concede")),
        ("pig", ("roll", "stop")),
        ("liar", ("roll", "claim", "challenge")),
    ],
)  # fmt: skip
def test_a_correction_offers_the_lines_of_the_game_its_camera_sees_and_its_own_inputs(game, types):
    assert s.line_types(g.game(game)) == types


def test_a_contact_is_corrected_from_the_balls_of_the_game():
    snooker = g.billiards("snooker")
    t, balls = s.line_fields("ball_ball", snooker, ("A", "B"), CONTACT)
    assert (t.kind, t.value) == (s.FieldKind.NUMBER, 0.914354)
    assert balls.kind is s.FieldKind.PAIR and balls.value == ("white", "yellow")
    assert balls.choices == snooker.balls and "red:15" in balls.choices
    fixed = s.line_from_fields("ball_ball", (t, balls), {"balls": ("white", "red:7")}, frame=55)
    assert fixed == c.BallBall(t=0.914354, frame=55, balls=("white", "red:7"))


@pytest.mark.parametrize(
    ("type_name", "game", "field", "choices"),
    [
        ("pocket", "snooker", "pocket", ("bl", "br", "ml", "mr", "tl", "tr")),
        ("cushion", "snooker", "side", ("bottom", "top", "left", "right")),
        ("pin_down", "five-pins", "pin", ("pin:c", "pin:n", "pin:s", "pin:e", "pin:w")),
        ("pin_down", "five-pins", "by", ("white", "yellow", "red")),
        ("declare", "snooker", "player", ("A", "B")),
        ("choice", "snooker", "option", c.CHOICE_OPTIONS),
        ("operation", "thirteen", "op", tuple(o.value for o in c.Op)),
    ],
)
def test_each_field_offers_the_games_own_words(type_name, game, field, choices):
    (found,) = [f for f in s.line_fields(type_name, g.game(game), ("A", "B"), None, 1.0) if f.name == field]
    assert found.kind is s.FieldKind.CHOICE and set(found.choices) == set(choices)


def test_an_optional_field_may_be_left_empty_and_is_left_out():
    form = s.line_fields("call", g.billiards("straight-pool"), ("A", "B"))
    assert [(f.name, f.optional) for f in form] == [
        ("t", True), ("player", False), ("ball", True), ("pocket", True), ("safety", True)
    ]  # fmt: skip
    assert "" in form[2].choices and form[4].value is False
    line = s.line_from_fields("call", form, {"player": "B", "ball": "7", "pocket": "tl"})
    assert c.to_json(line) == '{"type":"call","player":"B","ball":"7","pocket":"tl"}'


def test_a_roll_is_corrected_die_by_die():
    pig = g.dice("pig")
    form = s.line_fields("roll", pig, ("A", "B"), ROLL)
    dice = next(f for f in form if f.name == "dice")
    assert dice.kind is s.FieldKind.DICE and dice.value == (("d1", 3), ("d2", 5))
    assert dice.choices == (1, 2, 3, 4, 5, 6)
    thrown = next(f for f in form if f.name == "thrown")
    assert thrown.kind is s.FieldKind.SUBSET and thrown.value == ("d2",) and thrown.choices == ("d1", "d2")
    line = s.line_from_fields("roll", form, {"dice": (("d1", 3), ("d2", 2)), "thrown": ["d1", "d2"]})
    assert line == c.Roll(t=1.5, player="A", dice=(c.Die("d1", 3), c.Die("d2", 2)), thrown=("d1", "d2"))


def test_a_line_changed_to_another_type_keeps_the_fields_they_share():
    form = s.line_fields(
        "pocket", g.billiards("snooker"), ("A", "B"), c.Cushion(t=2.0, ball="red:7", side="top")
    )
    # ``unsure``: the camera's doubt on a pot (architecture.md), off for a line typed or changed by hand.
    assert {f.name: f.value for f in form} == {"t": 2.0, "ball": "red:7", "pocket": "bl", "unsure": False}


@pytest.mark.parametrize(
    ("type_name", "values", "message"),
    [
        ("claim", {"player": "A", "hand": "3 3 x"}, "faces are numbers"),
        ("claim", {"player": "A", "hand": "3 3"}, "5 faces"),
        ("shot_end", {"positions": "{white"}, "positions must be JSON"),
        ("shot_end", {"positions": '{"white": [1]}'}, "not a line of the contract"),
    ],
)
def test_a_form_the_contract_refuses_says_why(type_name, values, message):
    spec = g.game("liar") if type_name == "claim" else g.game("snooker")
    form = s.line_fields(type_name, spec, ("A", "B"), None, 1.0)
    with pytest.raises(s.DeskError, match=message):
        s.line_from_fields(type_name, form, values)


def test_headers_and_decisions_are_not_put_in_by_a_correction():
    with pytest.raises(s.DeskError, match="not a 'decision' line"):
        s.line_fields("decision", g.game("pig"), ("A", "B"))


def test_a_correction_from_the_form_recomputes_the_decisions(desk):
    match_id = _pig(desk)
    _roll(desk, match_id, "A", "6")
    _roll(desk, match_id, "A", "5")
    desk.add_input(match_id, s.make_input("stop", "A"))
    row = desk.view(match_id).rows[1]
    form = s.line_fields(row.type, g.game("pig"), ("A", "B"), row.line)
    fixed = s.line_from_fields(row.type, form, {"dice": (("d1", 2),)})
    view = desk.correct(match_id, "replace", row.line_no, fixed, "the die shows 2")
    assert view.board.score == {"A": 8, "B": 0} and view.rows[1].corrected
    view = desk.correct(match_id, "delete", 4, None, "no stop was said")
    assert view.board.score == {"A": 0, "B": 0} and [r.type for r in view.rows] == ["roll", "roll"]


# --- corners clicked on the frame, and the rules behind each call -----------------------------------------


def test_each_click_names_the_next_corner_in_frame_pixels():
    clicks = s.CornerClicks((1280, 720))
    assert clicks.next_corner == "bl" and not clicks.complete
    shown = {"width": 800, "height": 450}  # the frame shown at 800 px wide
    clicks = clicks.add({"x": 50, "y": 71, **shown, "unix_time": 1})
    assert clicks.points == {"bl": (80.0, 113.6)} and clicks.next_corner == "br"
    assert clicks.add({"x": 50, "y": 71, **shown, "unix_time": 1}) == clicks  # the same click, reported again
    for n, (x, y) in enumerate(((58, 405), (714, 65), (717, 390)), start=2):
        clicks = clicks.add({"x": x, "y": y, **shown, "unix_time": n})
    assert clicks.complete and list(clicks.points) == list(s.CORNERS)
    assert clicks.points["tr"] == (1147.2, 624.0)
    assert clicks.add({"x": 1, "y": 1, **shown, "unix_time": 9}).points == clicks.points  # four is all
    assert clicks.cleared().next_corner == "bl" and clicks.add(None) == clicks


def test_clicked_corners_fit_the_table(tmp_path):
    clicks = s.CornerClicks((1280, 720))
    for n, (x, y) in enumerate(((86, 74), (86, 628), (1219, 82), (1204, 649))):
        clicks = clicks.add({"x": x, "y": y, "width": 1280, "height": 720, "unix_time": n})
    preview = s.calibrate(str(s.SAMPLE_VIDEO), billiards("snooker"), tmp_path / "clicked.json", clicks.points)
    assert preview.ok and "manual calibration" in preview.message
    marked = s.mark_corners(s.first_frame(str(s.SAMPLE_VIDEO)), clicks.points)
    assert (
        marked.shape == (720, 1280, 3)
        and tuple(marked[74, 86 + s.calibration.MARK_PX]) == s.calibration.MARK_BGR
    )


def test_each_call_names_its_rule_and_links_the_rules_of_its_game(desk):
    match_id = desk.open_folder(s.SAMPLE_SHOT / "truth.jsonl")
    view = desk.view(match_id)
    (decision,) = [d for r in view.rows for d in r.decisions]
    assert decision.rule == decision.decision.foul.rule == "WPBSA 3.11"
    html = v.timeline_html(view.rows, spec=view.spec)
    assert (
        f"rule {decision.rule}" in html and 'href="?rules=snooker"' in html and "the rules of Snooker" in html
    )
    assert view.spec.rules_page == "docs/games/snooker.md"
    page = s.rules_text(view.spec)
    assert page is None or "nooker" in page
