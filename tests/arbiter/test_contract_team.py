"""The team-sport lines (``arbiter.contract.team``): architecture.md's examples read and written back, the
extensions, refusals that name the field and what it must be; a team decision's fields written and read
back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arbiter import contract
from arbiter.contract import (
    TEAM_LINES,
    ContractError,
    Decision,
    FrozenMap,
    RestartDue,
    Substitution,
    TeamCall,
    from_json,
    iter_numbered,
    parse_line,
    to_json,
)

ROOT = Path(__file__).resolve().parents[2]


def architecture_team_blocks() -> list[list[str]]:
    """The JSON blocks of docs/architecture.md's "Team sports" section, each as its lines."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## Team sports", 1)[1].split("\n## ", 1)[0]
    return [part.split("```", 1)[0].strip().splitlines() for part in section.split("```json")[1:]]


def test_the_architecture_page_shows_these_lines_and_this_decision() -> None:
    (header, *lines), decision = architecture_team_blocks()
    assert lines == ARCHITECTURE
    assert parse_line(header).game == "futsal"  # type: ignore[attr-defined]  # (the lines are one of each type)
    joined = " ".join(decision)
    value = parse_line(joined)
    assert isinstance(value, Decision) and value.call == "sixth_foul" and value.restart is not None
    written = json.loads(to_json(value))
    assert written == json.loads(joined)
    assert list(written) == list(json.loads(joined))  # the keys in the documented order


# Every line of architecture.md's "Team sports" example, verbatim.
ARCHITECTURE = [
    '{"type":"kickoff","t":0.0,"team":"Home"}',
    '{"type":"ball_out","t":12.4,"line":"touch","xy_m":[0.0,13.2],"last":"Away"}',
    '{"type":"restart","t":15.0,"team":"Home","kind":"kick_in","xy_m":[0.0,13.2]}',
    '{"type":"foul","t":40.2,"team":"Away","player":"Away:4","kind":"direct","xy_m":[10.5,31.0],"card":"yellow"}',
    '{"type":"goal","t":61.0,"team":"Home","by":"Home:9"}',
    '{"type":"timeout","t":70.2,"team":"Away"}',
    '{"type":"substitution","t":80.0,"team":"Home","out":"Home:3","in":"Home:12"}',
    '{"type":"whistle","t":1330.0,"reason":"period_end"}',
    '{"type":"try","t":200.1,"team":"Home","xy_m":[20.0,55.0]}',
    '{"type":"kick_at_goal","t":230.0,"team":"Home","kind":"conversion","good":true}',
]

EXTENSIONS = [
    '{"type":"kickoff","t":2600.0,"team":"Away","defends_y0":"Away"}',
    '{"type":"ball_out","t":5.0,"line":"ceiling","xy_m":[4.0,9.0],"last":"Home"}',
    '{"type":"restart","t":15.0,"team":"Home","kind":"kick_in","xy_m":[0.0,13.2],"ready_t":12.5}',
    '{"type":"restart","t":15.0,"team":"Away","kind":"lineout"}',
    '{"type":"goal","t":61.0,"team":"Home","direct":true}',
    '{"type":"foul","t":4.0,"team":"Away","player":"Away:12","kind":"misconduct","card":"red","bench":true}',
    '{"type":"foul","t":4.0,"team":"Away","kind":"direct","xy_m":[1.0,2.0],"advantage":true}',
    '{"type":"whistle","t":8.0,"reason":"injury","xy_m":[12.0,15.0]}',
    '{"type":"substitution","t":80.0,"team":"Home","in":"Home:12"}',
]


@pytest.mark.parametrize("text", ARCHITECTURE + EXTENSIONS)
def test_reads_and_writes_back(text: str) -> None:
    value = parse_line(text)
    assert isinstance(value, TEAM_LINES)
    assert to_json(value) == text  # written exactly as read


def test_every_team_line_type_is_listed() -> None:
    for cls in TEAM_LINES:
        assert contract.LINE_TYPES[cls.TYPE] is cls


def test_a_stream_checks_team_names_against_the_header() -> None:
    header = '{"type":"match","v":1,"game":"futsal","players":["Home","Away"]}'
    good = [header, ARCHITECTURE[3], ARCHITECTURE[6]]
    assert len(list(iter_numbered(good))) == 3
    bad = [header, '{"type":"goal","t":1.0,"team":"Home","by":"Visitors:9"}']
    with pytest.raises(ContractError, match=r"line 2: goal.by team 'Visitors' is not a player of this match"):
        list(iter_numbered(bad))


INVALID = [
    ('{"type":"kickoff","team":"Home"}', "kickoff.t is required but missing"),
    ('{"type":"kickoff","t":-1,"team":"Home"}', "kickoff.t must be a number of seconds >= 0"),
    ('{"type":"kickoff","t":1,"team":""}', "kickoff.team must be a team name from the header"),
    (
        '{"type":"ball_out","t":1,"line":"side","xy_m":[0,1],"last":"A"}',
        "ball_out.line must be one of touch, goal",
    ),
    (
        '{"type":"ball_out","t":1,"line":"touch","xy_m":[0],"last":"A"}',
        "ball_out.xy_m must be \\[x_m, y_m\\]",
    ),
    ('{"type":"ball_out","t":1,"line":"touch","xy_m":[0,1]}', "ball_out.last is required but missing"),
    (
        '{"type":"restart","t":1,"team":"A","kind":"throw_in"}',
        "restart.kind must be one of kick_off, kick_in",
    ),
    ('{"type":"restart","t":1,"team":"A","kind":"kick_in","ready_t":2}', "restart.ready_t must not be after"),
    ('{"type":"goal","t":1,"team":"A","by":"A7"}', "goal.by must be a player TEAM:number"),
    ('{"type":"goal","t":1,"team":"A","direct":1}', "goal.direct must be true or false"),
    ('{"type":"foul","t":1,"team":"A","kind":"push"}', "foul.kind must be one of direct, indirect, handling"),
    (
        '{"type":"foul","t":1,"team":"A","kind":"direct","card":"blue","player":"A:1"}',
        "foul.card must be one of",
    ),
    (
        '{"type":"foul","t":1,"team":"A","kind":"direct","card":"red"}',
        "foul.player must name the player shown",
    ),
    ('{"type":"foul","t":1,"team":"A","kind":"direct","player":"B:4"}', "foul.player must be a player of A"),
    (
        '{"type":"foul","t":1,"team":"A","kind":"direct","player":"A:0"}',
        "foul.player must be a player TEAM:number",
    ),
    ('{"type":"timeout","t":1}', "timeout.team is required but missing"),
    ('{"type":"substitution","t":1,"team":"A","out":"A:3"}', "substitution.in is required but missing"),
    ('{"type":"substitution","t":1,"team":"A","out":"A:3","in":"A:3"}', "substitution.in must differ"),
    (
        '{"type":"substitution","t":1,"team":"A","out":"A:3","in":"B:3"}',
        "substitution.in must be a player of A",
    ),
    (
        '{"type":"whistle","t":1,"reason":"goal"}',
        "whistle.reason must be one of period_end, stoppage, injury",
    ),
    (
        '{"type":"kick_at_goal","t":1,"team":"A","kind":"dropkick","good":true}',
        "kick_at_goal.kind must be one of",
    ),
    ('{"type":"kick_at_goal","t":1,"team":"A","kind":"drop"}', "kick_at_goal.good is required but missing"),
    ('{"type":"try","t":1,"team":"A","by":"B:2"}', "try.by must be a player of A"),
]


@pytest.mark.parametrize(("text", "message"), INVALID, ids=[v[0] for v in INVALID])
def test_refuses_bad_lines_naming_the_field(text: str, message: str) -> None:
    with pytest.raises(ContractError, match=f"^line 3: {message}"):
        parse_line(text, 3)


def test_substitution_in_is_written_as_in() -> None:
    line = Substitution(t=1.0, team="Home", out="Home:3", in_="Home:12")
    assert to_json(line) == '{"type":"substitution","t":1.0,"team":"Home","out":"Home:3","in":"Home:12"}'
    assert from_json(to_json(line)) == line


def test_metres_are_written_to_the_centimetre() -> None:
    text = '{"type":"ball_out","t":1.0,"line":"touch","xy_m":[0.123456,13.2049],"last":"Away"}'
    assert '"xy_m":[0.12,13.2]' in to_json(parse_line(text))


TEAM_DECISION = Decision(
    shot=3,
    player="Home",
    score=FrozenMap({"Home": 1, "Away": 0}),
    next="Away",
    call=TeamCall.GOAL,
    law="FIFA Futsal Law 11 (2008; 2021/22 Law 10)",
    restart=RestartDue("kick_off", "Away", (10.0, 20.0)),
    clock=61.25,
    period=1,
    fouls=FrozenMap({"Home": 0, "Away": 2}),
    on_court=FrozenMap({"Home": 5, "Away": 4}),
)


def test_a_team_decision_writes_its_fields_after_the_others_and_reads_them_back() -> None:
    text = to_json(TEAM_DECISION)
    assert text.endswith(
        '"call":"goal","law":"FIFA Futsal Law 11 (2008; 2021/22 Law 10)",'
        '"restart":{"kind":"kick_off","team":"Away","xy_m":[10.0,20.0]},"clock":61.25,"period":1,'
        '"fouls":{"Home":0,"Away":2},"on_court":{"Home":5,"Away":4}}'
    )
    back = from_json(text)
    assert back == TEAM_DECISION and to_json(back) == text
    assert hash(back) == hash(TEAM_DECISION)


def test_a_dropped_ball_restart_has_no_team_and_a_shootout_is_written() -> None:
    d = Decision(
        shot=1, player="Home", score={"Home": 0, "Away": 0}, next=None, call="stoppage", law="Law 9",
        restart=RestartDue("dropped_ball", None), clock=0.0, period=0, shootout={"Home": 3, "Away": 2},
    )  # fmt: skip
    text = to_json(d)
    assert '"restart":{"kind":"dropped_ball","team":null},"clock":0.0,"period":0' in text
    assert text.endswith('"shootout":{"Home":3,"Away":2}}')
    assert from_json(text) == d


def test_a_stream_checks_the_teams_a_decision_names() -> None:
    header = '{"type":"match","v":1,"game":"futsal","players":["Home","Away"]}'
    bad = to_json(TEAM_DECISION).replace('"fouls":{"Home":0,"Away":2}', '"fouls":{"Home":0,"Visitors":2}')
    with pytest.raises(ContractError, match=r"line 2: decision.fouls key 'Visitors' is not a player"):
        list(iter_numbered([header, bad]))


DECISION_INVALID = [
    ('"call":"offside"', "decision.call must be one of period_start"),
    ('"law":""', "decision.law must be a non-empty string or null"),
    ('"restart":{"kind":"throw_in","team":"A"}', "decision.restart.kind must be one of kick_off"),
    ('"restart":{"kind":"kick_in"}', "decision.restart.team is required but missing"),
    ('"restart":{"kind":"kick_in","team":"A","xy_m":[1]}', r"decision.restart.xy_m must be \[x_m, y_m\]"),
    ('"clock":-1', "decision.clock must be a number of seconds >= 0"),
    ('"period":1.5', "decision.period must be an integer >= 0"),
    ('"fouls":{"A":"two"}', "decision.fouls\\['A'\\] must be an integer"),
    ('"on_court":[5,5]', "decision.on_court must be an object"),
]


@pytest.mark.parametrize(("field", "message"), DECISION_INVALID, ids=[v[0] for v in DECISION_INVALID])
def test_a_decision_refuses_bad_team_fields(field: str, message: str) -> None:
    text = (
        '{"type":"decision","shot":1,"player":"A","foul":null,"points":{},"score":{"A":0,"B":0},'
        f'"next":"B","over":false,"winner":null,{field}}}'
    )
    with pytest.raises(ContractError, match=f"^line 4: {message}"):
        parse_line(text, 4)
