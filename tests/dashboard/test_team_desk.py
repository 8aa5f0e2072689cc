"""The timekeeper's desk of a team match, driven by Streamlit's AppTest (no browser): a futsal or rugby match
created from New match with its options as widgets, buttons pressed, the board (score, clock, fouls with the
fifth and sixth standing out, time-outs, send-off timers), a refused time-out, a line the rules cannot use,
a correction that re-referees, the exports; and the desk's session functions directly."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

from arbiter import contract as c
from dashboard import session as s
from dashboard.team_desk import DESK_SHIFT
from tests.dashboard import apptest


def _ok(at: AppTest) -> AppTest:
    assert not at.exception, at.exception
    assert not apptest.texts(at, "error"), apptest.texts(at, "error")
    return at


def _press(at: AppTest, *keys: str) -> AppTest:
    for key in keys:
        at.button(key=key).click().run()
        _ok(at)
    return at


def _new_match(game: str, teams: str = "Home, Away", **options: object) -> AppTest:
    at = apptest.page()
    at.run()
    at.sidebar.radio(key="page").set_value("New match").run()
    at.selectbox(key="game").set_value(game).run()
    at.text_input(key="players").set_value(teams).run()
    for name, value in options.items():
        at.number_input(key=f"opt_{game}_{name}").set_value(value).run()
    at.button(key="start").click().run()
    return _ok(at)


def _score(at: AppTest, team: str) -> int:
    found = re.search(
        rf'data-team="{team}"><div class="name">{team}[^<]*</div><div class="score">(\d+)<', apptest.html(at)
    )
    assert found, apptest.html(at)
    return int(found[1])


def _fouls(at: AppTest, team: str) -> tuple[str, int]:
    page = apptest.html(at)
    found = re.search(rf'data-team="{team}">.*?<span class="fouls (\w+)" data-fouls="(\d+)"', page)
    assert found, page
    return found[1], int(found[2])


def test_a_futsal_match_is_created_with_its_options_and_opened_as_a_desk(db):
    at = _new_match("futsal", half_min=25)
    assert at.sidebar.radio(key="page").value == "Match"
    assert any("Match 1: futsal, Home v Away" in h for h in apptest.texts(at, "subheader"))
    assert any("half min 25" in m for m in apptest.texts(at, "caption"))
    html = apptest.html(at)
    assert '<div class="time">00:00.0</div>' in html and "25:00.0 left" in html
    assert "time-outs left: 1" in html
    assert {b.key for b in at.button} >= {
        "td_kickoff_Home", "td_out_Away", "td_restart_due", "td_goal_Home", "td_foul_Away", "td_timeout_Home",
        "td_sub", "td_whistle_stoppage", "td_kick_Home_good",
    }  # fmt: skip


def test_buttons_record_lines_refereed_at_once_with_their_law(db):
    at = _new_match("futsal")
    _press(at, "td_kickoff_Home", "td_out_Away", "td_restart_due")
    assert any('"kind":"kick_in"' in m for m in apptest.texts(at, "success"))
    _press(at, "td_goal_Home")
    assert _score(at, "Home") == 1 and _score(at, "Away") == 0
    html = apptest.html(at)
    assert "due: kick off to Away" in html
    assert "FIFA Futsal Law 16" in html  # the kick-in, by its law
    assert "FIFA Futsal Law 11" in html  # the goal
    assert re.search(r"clock stops \(latest first\): P1 00:00\.\d goal; P1 00:00\.\d ball_out", html)
    desk = s.Desk(db)
    try:
        types = [r.type for r in desk.record.rows(1) if r.type != "decision"]
        assert types == ["kickoff", "ball_out", "restart", "goal"]
    finally:
        desk.close()


def test_the_clock_runs_with_the_desk_time_and_stops_when_the_ball_is_out(db):
    at = _new_match("futsal")
    _press(at, "td_kickoff_Home")
    at.session_state[DESK_SHIFT] = 65.0  # a minute and five seconds later
    at.run()
    assert re.search(r'<div class="time">01:0[5-9]\.\d</div>', apptest.html(at)), apptest.html(at)
    _press(at, "td_out_Away")
    at.session_state[DESK_SHIFT] = 200.0
    at.run()
    html = apptest.html(at)
    assert re.search(r'<div class="arbiter-clock stopped"><div class="time">01:0[5-9]\.\d</div>', html), html
    assert "four seconds" in html  # a kick-in is counted from the ball going out


def test_the_fifth_and_sixth_fouls_stand_out(db):
    at = _new_match("futsal")
    _press(at, "td_kickoff_Home")
    at.number_input(key="td_foul_y").set_value(30.0).run()  # in Home's half, away from Away's goal
    for n in range(1, 7):
        _press(at, "td_foul_Away", "td_restart_due")
        level, count = _fouls(at, "Away")
        assert count == n
        assert level == {5: "fifth", 6: "sixth"}.get(n, "normal")
    assert _fouls(at, "Home") == ("normal", 0)
    assert "sixth" in apptest.html(at) and "second penalty mark" in apptest.html(at)


def test_a_send_off_timer_counts_down_and_ends_with_a_goal_conceded(db):
    at = _new_match("futsal")
    _press(at, "td_kickoff_Home")
    at.selectbox(key="td_foul_card").set_value("red").run()
    at.number_input(key="td_foul_player").set_value(4).run()
    _press(at, "td_foul_Away", "td_restart_due")
    html = apptest.html(at)
    assert re.search(r'<div class="sendoff">Away:4 off, team short: 0[12]:[0-5]\d\.\d</div>', html), html
    assert "on court: 4" in html
    at.session_state[DESK_SHIFT] = 30.0  # half a minute of play
    at.run()
    assert re.search(r"Away:4 off, team short: 01:[23]\d\.\d", apptest.html(at)), apptest.html(at)
    _press(at, "td_goal_Home")  # Home, with more players, scores: Away may be whole again
    html = apptest.html(at)
    assert 'class="sendoff"' not in html and "on court: 4" not in html


def test_a_refused_time_out_shows_the_engines_reason_and_keeps_every_line(db):
    at = _new_match("futsal")
    _press(at, "td_kickoff_Home", "td_out_Away", "td_timeout_Home")
    assert "time-outs left: 0" in apptest.html(at) and "time-out:" in apptest.html(at)
    at.button(key="td_timeout_Home").click().run()
    assert not at.exception
    assert any(
        "timeout refused" in m and "has had its time-out this half" in m for m in apptest.texts(at, "warning")
    )
    desk = s.Desk(db)
    try:
        assert [r.type for r in desk.record.rows(1) if r.type == "timeout"] == ["timeout", "timeout"]
    finally:
        desk.close()


def test_a_line_the_rules_cannot_use_is_not_recorded_and_says_why(db):
    at = _new_match("futsal")
    _press(at, "td_kickoff_Home")
    at.button(key="td_whistle_period_end").click().run()  # twenty minutes early
    assert any("not recorded: the rules refuse it" in m for m in apptest.texts(at, "error"))
    desk = s.Desk(db)
    try:
        assert [r.type for r in desk.record.rows(1) if r.type != "decision"] == ["kickoff"]
    finally:
        desk.close()


def test_a_correction_re_referees_the_desk_and_the_match_exports(db):
    at = _new_match("futsal")
    _press(at, "td_kickoff_Home", "td_goal_Home")
    assert _score(at, "Home") == 1
    at.selectbox(key="fix_at_1").set_value(3).run()  # the goal
    at.radio(key="fix_op_1_3").set_value("delete").run()
    at.button(key="FormSubmitter:fix_1_3_delete_-Correct the line").click().run()
    _ok(at)
    assert _score(at, "Home") == 0
    assert {b.key for b in at.get("download_button")} >= {"dl_jsonl_1", "dl_csv_1", "dl_html_1"}
    desk = s.Desk(db)
    try:
        text = desk.export_text(1, "jsonl")
        assert '"type":"goal"' not in text and '"type":"kickoff"' in text
        assert '"type":"goal"' in desk.export_text(1, "jsonl", corrected=False)
    finally:
        desk.close()


def test_a_rugby_match_scores_tries_and_kicks_at_goal(db):
    at = _new_match("rugby-7", "Reds, Blues")
    assert "td_timeout_Reds" not in {b.key for b in at.button}  # rugby has no time-outs
    assert at.selectbox(key="td_kick_kind").options == ["conversion", "penalty", "drop"]
    _press(at, "td_kickoff_Reds", "td_try_Reds", "td_kick_Reds_good")
    assert _score(at, "Reds") == 7 and _score(at, "Blues") == 0


# --- the desk's session functions ----------------------------------------------------------------------


def test_a_desk_line_is_checked_by_the_contract():
    line = s.team_line("foul", 12.5, {"team": "Home", "kind": "direct", "card": "yellow", "player": 7})
    assert (
        c.to_json(line)
        == '{"type":"foul","t":12.5,"team":"Home","player":"Home:7","kind":"direct","card":"yellow"}'
    )
    with pytest.raises(s.DeskError, match="must name the player shown the card"):
        s.team_line("foul", 1.0, {"team": "Home", "kind": "direct", "card": "red"})
    with pytest.raises(s.DeskError, match="unknown desk input"):
        s.team_line("corner", 1.0, {})
    assert s.out_xy("touch_right", 13.0, (20.0, 40.0)) == (20.2, 13.0)
    assert s.out_xy("goal_far", 3.0, (20.0, 40.0)) == (3.0, 40.2)


def test_a_goal_credited_to_the_wrong_team_is_corrected_in_the_form(db):
    at = _new_match("futsal")
    _press(at, "td_kickoff_Home", "td_goal_Home")
    at.selectbox(key="fix_at_1").set_value(3).run()
    types = at.selectbox(key="fix_type_1_3_replace").options
    assert types[:4] == ["kickoff", "ball_out", "restart", "goal"] and "try" not in types
    team = at.selectbox(key="fix_1_3_replace_goal_team")
    assert team.value == "Home" and team.options == ["Home", "Away"]
    team.set_value("Away")
    at.button(key="FormSubmitter:fix_1_3_replace_goal-Correct the line").click().run()
    _ok(at)
    assert _score(at, "Home") == 0 and _score(at, "Away") == 1


def test_the_correction_form_offers_a_team_sports_own_words():
    spec = s.spec_of("rugby-7")
    assert (
        "try" in s.line_types(spec)
        and "goal" not in s.line_types(spec)
        and "timeout" not in s.line_types(spec)
    )
    fields = {f.name: f for f in s.line_fields("restart", spec, ("Reds", "Blues"))}
    assert fields["kind"].choices[:3] == ("kick_off", "restart_kick", "scrum")
    sub = c.Substitution(t=3.0, team="Reds", out="Reds:3", in_="Reds:12")
    form = s.line_fields("substitution", spec, ("Reds", "Blues"), sub)
    assert {f.name: f.value for f in form}["in_"] == "Reds:12"
    assert s.line_from_fields("substitution", form, {}) == sub
    foul = s.line_fields("foul", spec, ("Reds", "Blues"))
    assert {f.name: f.kind for f in foul}["player"] is s.FieldKind.TEXT  # TEAM:number, typed
    assert {f.name: f.choices for f in foul}["card"] == ("", "yellow", "red")


def test_ball_ready_starts_the_four_seconds_and_a_typed_line_goes_through_the_same_checks(db):
    at = _new_match("futsal")
    _press(at, "td_kickoff_Home")
    at.number_input(key="td_foul_y").set_value(30.0).run()
    _press(at, "td_foul_Away")
    assert "four seconds" not in apptest.html(at)  # a free kick is counted from the ball ready only
    _press(at, "td_ready")
    at.session_state[DESK_SHIFT] = 5.0
    at.run()
    page = apptest.html(at)
    assert re.search(r'four seconds: <span class="count late">[5-9]\.\d</span>', page), page
    _press(at, "td_restart_due")
    assert any('"ready_t"' in m for m in apptest.texts(at, "success"))  # the press is on the line
    # more than four seconds: the other team's kick
    assert "due: free kick indirect to Away" in apptest.html(at)
    assert "FIFA Futsal Law 13" in apptest.html(at)
    _press(at, "td_restart_due")
    line = at.text_area[0]
    line.set_value('{"type":"ball_out","t":60,"line":"ceiling","xy_m":[5.0,12.0],"last":"Home"}')
    at.button(key="FormSubmitter:td_json_1-Record the line").click().run()
    _ok(at)
    assert "due: kick in to Away" in apptest.html(at)
    line = at.text_area[0]
    line.set_value('{"type":"timeout","t":1.0,"team":"Home"}')  # before the last line
    at.button(key="FormSubmitter:td_json_1-Record the line").click().run()
    assert any("the rules refuse it: time goes backwards" in m for m in apptest.texts(at, "error"))


def test_a_rugby_yellow_card_is_two_minutes_short_and_no_fouls_are_counted(db):
    at = _new_match("rugby-5", "Reds, Blues")
    _press(at, "td_kickoff_Reds")
    at.selectbox(key="td_foul_card").set_value("yellow").run()
    at.number_input(key="td_foul_player").set_value(7).run()
    _press(at, "td_foul_Blues")
    html = apptest.html(at)
    assert re.search(r'<div class="sendoff">Blues:7 off, team short: 0[12]:[0-5]\d\.\d</div>', html), html
    assert 'class="fouls' not in html  # mini-rugby accumulates no fouls


def test_a_team_match_is_not_started_from_a_video(db):
    desk = s.Desk(db)
    try:
        with pytest.raises(s.DeskError, match="kept at the timekeeper's desk"):
            desk.start(s.Setup(game="futsal", players=("Home", "Away")), str(s.SAMPLE_VIDEO))
        assert desk.matches() == []
    finally:
        desk.close()
