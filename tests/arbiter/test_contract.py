"""The event contract: every example of architecture.md reads and round-trips; every bad line is refused
with its line number, what was wrong and what was expected."""

from __future__ import annotations

import io
import json
import pickle
from pathlib import Path

import pytest

from adjudication.referee import referee
from arbiter import contract
from arbiter.contract import (
    BallBall,
    Call,
    ContractError,
    Cushion,
    Decision,
    Die,
    Foul,
    FrozenMap,
    JsonLine,
    Match,
    Pot,
    Respot,
    Roll,
    ShotEnd,
    ShotStart,
    append_event,
    from_json,
    iter_stream,
    parse_line,
    read_events,
    read_stream,
    to_json,
    write_events,
)

# Every example line of docs/architecture.md, verbatim (the decision example joined onto one line).
ARCHITECTURE_EXAMPLES = [
    '{"type":"match","v":1,"game":"snooker","players":["A","B"]}',
    '{"type":"shot_start","t":1.20,"frame":72,"ball":"white"}',
    '{"type":"ball_ball","t":1.55,"balls":["white","red:4"]}',
    '{"type":"cushion","t":1.90,"ball":"red:4","side":"top"}',
    '{"type":"pocket","t":2.31,"ball":"red:4","pocket":"tr"}',
    '{"type":"off_table","t":2.50,"ball":"blue"}',
    '{"type":"pin_down","t":2.60,"pin":"pin:c","by":"red"}',
    '{"type":"shot_end","t":4.80,"positions":{"white":[612.0,1840.5],"black":[889.0,3245.0]}}',
    '{"type":"declare","player":"A","ball":"blue"}',
    '{"type":"declare","player":"B","ball":"green","free_ball":true}',
    '{"type":"call","player":"A","ball":"7","pocket":"tl"}',
    '{"type":"call","player":"A","safety":true}',
    '{"type":"choice","player":"B","option":"play"}',
    '{"type":"concede","player":"A"}',
    '{"type":"match","v":1,"game":"yacht","players":["A","B"]}',
    '{"type":"roll","t":3.20,"player":"A","dice":[{"id":"d1","value":3},{"id":"d2","value":5},'
    '{"id":"d3","value":5},{"id":"d4","value":1},{"id":"d5","value":6}],"thrown":["d1","d2","d3","d4","d5"]}',
    '{"type":"choose","player":"A","category":"full_house"}',
    '{"type":"decision","shot":7,"player":"A","foul":{"reason":"wrong_ball_first","penalty":5,'
    '"rule":"snooker 3.12"}, "points":{"B":5},"score":{"A":31,"B":17},"next":"B","on":"red","over":false,'
    '"winner":null, "awaiting":["choice"],"respot":[{"ball":"blue","xy_mm":[889.0,1784.5]}],'
    '"notes":["free ball available"]}',
]

MORE_GOOD = [
    '{"type":"match","v":1,"game":"pyramid","players":["Аня","Борис"],'
    '"options":{"variant":"free","target":8,"first":"Борис"}}',
    '{"type":"cushion","t":0,"frame":0,"ball":"cue","side":"left"}',
    '{"type":"call","t":5.5,"player":"A","ball":"3"}',
    '{"type":"choice","player":"A","option":"rebreak"}',
    '{"type":"shot_end","t":9.0,"positions":{}}',
    '{"type":"pocket","t":2.31,"ball":"red:4","pocket":"tr","unsure":true}',
    '{"type":"roll","t":1.0,"frame":30,"player":"B","dice":[{"id":"d1","value":6},{"id":"d2","value":1}],'
    '"thrown":["d2"]}',
    '{"type":"decision","shot":1,"player":"A","foul":null,"points":{},"score":{"A":0,"B":0},"next":"B",'
    '"over":false,"winner":null}',
    '{"type":"decision","shot":40,"player":"B","foul":null,"points":{"B":7},"score":{"A":50,"B":64},'
    '"next":null,"over":true,"winner":"B"}',
]


@pytest.mark.parametrize("line", ARCHITECTURE_EXAMPLES + MORE_GOOD)
def test_good_line_parses_and_round_trips(line: str) -> None:
    value = parse_line(line, 1)
    text = to_json(value)
    assert from_json(text) == value
    assert hash(value) == hash(from_json(text))
    # Same content and the same key order as the documented line: the writer follows architecture.md.
    assert json.loads(text) == json.loads(line)
    assert list(json.loads(text)) == list(json.loads(line))
    assert "\n" not in text and ", " not in text.replace("free ball available", "")


def test_examples_read_as_the_right_types() -> None:
    kinds = [type(parse_line(line)).__name__ for line in ARCHITECTURE_EXAMPLES]
    assert kinds == [
        "Match", "ShotStart", "BallBall", "Cushion", "Pot", "OffTable", "PinDown", "ShotEnd", "Declare",
        "Declare", "Call", "Call", "Choice", "Concede", "Match", "Roll", "Choose", "Decision",
    ]  # fmt: skip
    roll = parse_line(ARCHITECTURE_EXAMPLES[15])
    assert isinstance(roll, Roll)
    assert roll.dice[1] == Die("d2", 5)
    assert roll.thrown == ("d1", "d2", "d3", "d4", "d5")


def test_exact_canonical_text() -> None:
    assert (
        to_json(ShotStart(t=1.2, frame=72, ball="white"))
        == '{"type":"shot_start","t":1.2,"frame":72,"ball":"white"}'
    )
    assert to_json(Call(player="A", safety=True)) == '{"type":"call","player":"A","safety":true}'


BAD = [
    # line, expected fragment of the message
    ("not json", "not valid JSON"),
    ('{"type":"cushion","t":1.0,', "not valid JSON"),
    ("[1, 2]", "expected a JSON object"),
    ('"cushion"', "expected a JSON object"),
    ('{"t":1.0,"ball":"white"}', 'missing "type"'),
    ('{"type":7}', '"type" must be a string'),
    ('{"type":"wobble","t":1.0}', "unknown line type 'wobble'; known types: ball_ball"),
    ('{"type":"cushion","t":1.0,"ball":"red:4"}', "cushion.side is required but missing"),
    (
        '{"type":"cushion","t":1.9,"ball":"red:4","side":"up"}',
        "cushion.side must be one of bottom, top, left, right (got 'up')",
    ),
    (
        '{"type":"shot_start","t":"1.2","ball":"white"}',
        "shot_start.t must be a number of seconds >= 0 (got '1.2')",
    ),
    (
        '{"type":"shot_start","t":-0.5,"ball":"white"}',
        "shot_start.t must be a number of seconds >= 0 (got -0.5)",
    ),
    ('{"type":"shot_start","t":true,"ball":"white"}', "shot_start.t must be a number"),
    ('{"type":"shot_start","t":NaN,"ball":"white"}', "NaN is not a number in JSON"),
    ('{"type":"shot_start","t":1e999,"ball":"white"}', "shot_start.t must be a number"),
    ('{"type":"shot_start","t":1.0,"frame":2.5,"ball":"white"}', "shot_start.frame must be a frame number"),
    ('{"type":"shot_start","t":1.0,"frame":-1,"ball":"white"}', "shot_start.frame must be a frame number"),
    ('{"type":"shot_start","t":1.0,"ball":""}', "shot_start.ball must be a non-empty string (got '')"),
    ('{"type":"shot_start","t":1.0,"ball":null}', "shot_start.ball must be a non-empty string (got None)"),
    ('{"type":"shot_start","t":1.0,"t":2.0,"ball":"white"}', "duplicate key 't'"),
    (
        '{"type":"ball_ball","t":1.5,"balls":["white","white"]}',
        "ball_ball.balls must be a pair of two different",
    ),
    ('{"type":"ball_ball","t":1.5,"balls":["white"]}', "ball_ball.balls must be a pair"),
    ('{"type":"ball_ball","t":1.5,"balls":"white,red:4"}', "ball_ball.balls must be a pair"),
    ('{"type":"ball_ball","t":1.5,"balls":["white",4]}', "ball_ball.balls must be a pair"),
    (
        '{"type":"pocket","t":2.3,"ball":"red:4","pocket":"tm"}',
        "pocket.pocket must be one of bl, br, ml, mr, tl, tr",
    ),
    ('{"type":"pin_down","t":2.6,"pin":"pin:c"}', "pin_down.by is required but missing"),
    ('{"type":"shot_end","t":4.8,"positions":[[1,2]]}', "shot_end.positions must be an object"),
    (
        '{"type":"shot_end","t":4.8,"positions":{"white":[1.0]}}',
        "shot_end.positions['white'] must be [x_mm, y_mm], two numbers (got [1.0])",
    ),
    (
        '{"type":"shot_end","t":4.8,"positions":{"white":[1.0,"2"]}}',
        "shot_end.positions['white'] must be [x_mm",
    ),
    ('{"type":"declare","player":"A"}', "declare.ball is required but missing"),
    (
        '{"type":"declare","player":"A","ball":"blue","free_ball":"yes"}',
        "declare.free_ball must be true or false",
    ),
    ('{"type":"declare","t":-1,"player":"A","ball":"blue"}', "declare.t must be a number of seconds >= 0"),
    ('{"type":"call","player":"A"}', "call must name a ball (and pocket) or be a safety"),
    ('{"type":"call","player":"A","ball":"7","safety":true}', "a safety call names no ball or pocket"),
    ('{"type":"call","player":"A","ball":"7","pocket":"corner"}', "call.pocket must be one of bl"),
    (
        '{"type":"choice","player":"B","option":"maybe"}',
        "choice.option must be one of play, pass, replace, rebreak",
    ),
    ('{"type":"concede"}', "concede.player is required but missing"),
    (
        '{"type":"roll","t":3.2,"player":"A","dice":[{"id":"d1","value":7}],"thrown":["d1"]}',
        "roll.dice[0].value must be an integer 1..6 (got 7)",
    ),
    (
        '{"type":"roll","t":3.2,"player":"A","dice":[{"id":"d1","value":0}],"thrown":["d1"]}',
        "roll.dice[0].value must be an integer 1..6",
    ),
    (
        '{"type":"roll","t":3.2,"player":"A","dice":[{"id":"d1","value":true}],"thrown":["d1"]}',
        "roll.dice[0].value must be an integer 1..6",
    ),
    (
        '{"type":"roll","t":3.2,"player":"A","dice":[{"id":"d1","value":3},{"id":"d2","value":2}],"thrown":["d9"]}',
        "roll.thrown must name dice of this roll (d1, d2) (got 'd9')",
    ),
    (
        '{"type":"roll","t":3.2,"player":"A","dice":[{"id":"d1","value":3},{"id":"d1","value":2}],"thrown":["d1"]}',
        "roll.dice must hold each die once (got 'd1' twice)",
    ),
    (
        '{"type":"roll","t":3.2,"player":"A","dice":[{"id":"d1"}],"thrown":["d1"]}',
        "roll.dice[0].value is required but missing",
    ),
    (
        '{"type":"roll","t":3.2,"player":"A","dice":[3,5],"thrown":["d1"]}',
        "roll.dice must be a list of objects",
    ),
    ('{"type":"roll","t":3.2,"player":"A","dice":[],"thrown":[]}', "roll.dice must be a non-empty list"),
    (
        '{"type":"roll","t":3.2,"player":"A","dice":[{"id":"d1","value":3}],"thrown":[]}',
        "roll.thrown must be a non-empty list of distinct die ids",
    ),
    ('{"type":"choose","player":"A"}', "choose.category is required but missing"),
    ('{"type":"match","game":"snooker","players":["A","B"]}', "match.v is required but missing"),
    (
        '{"type":"match","v":2,"game":"snooker","players":["A","B"]}',
        "match.v 2 is not supported: this reader reads schema version 1 only",
    ),
    ('{"type":"match","v":"1","game":"snooker","players":["A","B"]}', "match.v must be the schema version"),
    (
        '{"type":"match","v":1,"game":"chess","players":["A","B"]}',
        "match.game must be one of snooker, straight-pool",
    ),
    ('{"type":"match","v":1,"game":"snooker","players":[]}', "match.players must be a non-empty list"),
    ('{"type":"match","v":1,"game":"snooker","players":["A","A"]}', "(got 'A' twice)"),
    ('{"type":"match","v":1,"game":"snooker","players":"AB"}', "match.players must be a non-empty list"),
    (
        '{"type":"match","v":1,"game":"snooker","players":["A","B"],"options":[1]}',
        "match.options must be an object",
    ),
    (
        '{"type":"decision","shot":7,"player":"A","foul":null,"points":{},"score":{},"next":"B","over":false}',
        "decision.winner is required but missing",
    ),
    (
        '{"type":"decision","shot":7,"player":"A","points":{},"score":{},"next":"B","over":false,"winner":null}',
        "decision.foul is required but missing",
    ),
    (
        '{"type":"decision","shot":7,"player":"A","foul":{"reason":"x","rule":"r"},"points":{},"score":{},'
        '"next":"B","over":false,"winner":null}',
        "decision.foul.penalty is required but missing",
    ),
    (
        '{"type":"decision","shot":7,"player":"A","foul":"push","points":{},"score":{},'
        '"next":"B","over":false,"winner":null}',
        "decision.foul must be an object",
    ),
    (
        '{"type":"decision","shot":7,"player":"A","foul":null,"points":{"B":"5"},"score":{},'
        '"next":"B","over":false,"winner":null}',
        "decision.points['B'] must be an integer (got '5')",
    ),
    (
        '{"type":"decision","shot":-1,"player":"A","foul":null,"points":{},"score":{},'
        '"next":"B","over":false,"winner":null}',
        "decision.shot must be an integer >= 0",
    ),
    (
        '{"type":"decision","shot":1,"player":"A","foul":null,"points":{},"score":{},'
        '"next":"B","over":"no","winner":null}',
        "decision.over must be true or false",
    ),
    (
        '{"type":"decision","shot":1,"player":"A","foul":null,"points":{},"score":{},'
        '"next":"B","over":false,"winner":"A"}',
        "decision.winner must be null while the match is not over",
    ),
    (
        '{"type":"decision","shot":1,"player":"A","foul":null,"points":{},"score":{},"next":"B","over":false,'
        '"winner":null,"respot":[{"ball":"blue","xy_mm":[1]}]}',
        "decision.respot[0].xy_mm must be [x_mm, y_mm]",
    ),
]


@pytest.mark.parametrize(("line", "fragment"), BAD)
def test_bad_line_is_refused_with_its_number(line: str, fragment: str) -> None:
    with pytest.raises(ContractError) as info:
        parse_line(line, 7)
    assert info.value.line_no == 7
    assert str(info.value).startswith("line 7: ")
    assert fragment in str(info.value)


def test_error_without_a_line_number() -> None:
    with pytest.raises(ContractError) as info:
        from_json('{"type":"cushion","t":1.9,"ball":"red:4","side":"up"}')
    assert str(info.value) == "cushion.side must be one of bottom, top, left, right (got 'up')"
    assert isinstance(info.value, ValueError)


def test_extra_fields_are_ignored() -> None:
    line = '{"type":"cushion","t":1.9,"ball":"red:4","side":"top","speed_mm_s":812.5,"future":{"x":[1]}}'
    assert parse_line(line) == Cushion(t=1.9, ball="red:4", side="top")


def test_null_optional_fields_read_as_absent() -> None:
    line = '{"type":"shot_start","t":1.0,"frame":null,"ball":"white"}'
    assert parse_line(line) == ShotStart(t=1.0, ball="white")


def test_constructors_check_like_the_parser() -> None:
    with pytest.raises(
        ValueError, match=r"cushion.side must be one of bottom, top, left, right \(got 'up'\)"
    ):
        Cushion(t=1.0, ball="white", side="up")
    with pytest.raises(ValueError, match=r"roll.dice\[0\].value must be an integer 1..6 \(got 7\)"):
        Roll(t=1.0, player="A", dice=(Die("d1", 7),), thrown=("d1",))
    with pytest.raises(ValueError, match=r"match\.game must be one of"):
        Match(game="chess", players=("A", "B"))


def test_values_are_frozen_and_hashable() -> None:
    end = ShotEnd(t=2, positions={"white": [1, 2]})
    assert end.positions == {"white": (1.0, 2.0)}
    assert isinstance(end.positions, FrozenMap)
    assert end.t == 2.0 and isinstance(end.t, float)
    with pytest.raises(TypeError):
        end.positions["white"] = (0.0, 0.0)  # type: ignore[index]
    m = Match(game="pyramid", players=["A", "B"], options={"target": 8, "marks": [1, 2]})
    assert m.players == ("A", "B") and m.options["marks"] == (1, 2)
    assert len({m, Match(game="pyramid", players=("A", "B"), options={"marks": [1, 2], "target": 8})}) == 1
    assert pickle.loads(pickle.dumps(m)) == m


def test_floats_are_rounded_when_written() -> None:
    end = ShotEnd(t=1.23456789, positions={"white": (612.00499, -0.0001)})
    assert to_json(end) == '{"type":"shot_end","t":1.234568,"positions":{"white":[612.0,0.0]}}'
    again = from_json(to_json(end))
    assert to_json(again) == to_json(end)


def test_decision_written_with_optional_fields_only_when_given() -> None:
    d = Decision(shot=3, player="A", score={"A": 1, "B": 0}, next="A", points={"A": 1}, on="colour")
    assert to_json(d) == (
        '{"type":"decision","shot":3,"player":"A","foul":null,"points":{"A":1},"score":{"A":1,"B":0},'
        '"next":"A","on":"colour","over":false,"winner":null}'
    )
    full = Decision(
        shot=7,
        player="A",
        foul=Foul("wrong_ball_first", 5, "snooker 3.12"),
        points={"B": 5},
        score={"A": 31, "B": 17},
        next="B",
        on="red",
        awaiting=["choice"],
        respot=[Respot("blue", (889, 1784.5))],
        notes=["free ball available"],
    )
    assert from_json(to_json(full)) == full == parse_line(ARCHITECTURE_EXAMPLES[-1])


SNOOKER = '{"type":"match","v":1,"game":"snooker","players":["A","B"]}'


def test_read_stream_splits_header_and_lines() -> None:
    match, lines = read_stream(ARCHITECTURE_EXAMPLES[:14])
    assert match == Match(game="snooker", players=("A", "B"))
    assert len(lines) == 13
    assert isinstance(lines[3], Pot)


@pytest.mark.parametrize(
    ("lines", "bad_line", "fragment"),
    [
        (
            ['{"type":"cushion","t":1.9,"ball":"red:4","side":"top"}'],
            1,
            "the first line must be the match header",
        ),
        ([SNOOKER, SNOOKER], 2, "a second match header; a stream holds one match, its header is line 1"),
        (
            [
                SNOOKER,
                '{"type":"shot_start","t":2.0,"ball":"white"}',
                '{"type":"cushion","t":1.5,"ball":"white","side":"top"}',
            ],
            3,
            "time goes backwards: t=1.5 is before t=2.0 of line 2",
        ),
        ([SNOOKER, '{"type":"declare","player":"C","ball":"blue"}'], 2, "declare.player 'C' is not a player"),
        (
            [
                SNOOKER,
                '{"type":"decision","shot":1,"player":"A","foul":null,"points":{"Z":1},"score":{},'
                '"next":"B","over":false,"winner":null}',
            ],
            2,
            "decision.points key 'Z' is not a player of this match (A, B)",
        ),
        (['{"type":"match","v":2,"game":"snooker","players":["A"]}'], 1, "reads schema version 1 only"),
    ],
)
def test_stream_rules(lines: list[str], bad_line: int, fragment: str) -> None:
    with pytest.raises(ContractError) as info:
        read_stream(lines)
    assert info.value.line_no == bad_line
    assert fragment in str(info.value)


def test_empty_stream() -> None:
    with pytest.raises(ContractError, match="stream is empty"):
        read_stream(["", "   "])


def test_equal_times_and_untimed_input_are_in_order() -> None:
    lines = [
        SNOOKER,
        '{"type":"declare","player":"A","ball":"blue"}',
        '{"type":"shot_start","t":1.0,"ball":"white"}',
        '{"type":"ball_ball","t":1.0,"balls":["white","blue"]}',
        '{"type":"decision","shot":1,"player":"A","foul":null,"points":{},"score":{"A":0,"B":0},'
        '"next":"B","over":false,"winner":null}',
        '{"type":"call","t":1.0,"player":"B","safety":true}',
    ]
    assert len(read_stream(lines)[1]) == 5


def test_iter_stream_yields_every_line_before_the_bad_one() -> None:
    lines = [
        SNOOKER,
        '{"type":"shot_start","t":1.0,"ball":"white"}',
        "",  # blank lines are skipped but counted
        '{"type":"pocket","t":2.0,"ball":"red:1","pocket":"tl"}',
        '{"type":"pocket","t":2.5,"ball":"red:2","pocket":"xx"}',
        '{"type":"shot_end","t":4.0,"positions":{}}',
    ]
    seen = []
    with pytest.raises(ContractError) as info:
        for item in iter_stream(lines):
            seen.append(item.TYPE)
    assert seen == ["match", "shot_start", "pocket"]
    assert info.value.line_no == 5


def test_files_round_trip(tmp_path) -> None:
    path = tmp_path / "match.jsonl"
    values = [parse_line(line) for line in ARCHITECTURE_EXAMPLES[:14]]
    assert write_events(path, values) == 14
    assert list(read_events(path)) == values
    assert list(read_events(str(path))) == values
    assert read_stream(path) == (values[0], values[1:])
    buf = io.StringIO()
    append_event(buf, values[1])
    assert buf.getvalue() == to_json(values[1]) + "\n"


def test_str_is_a_path_not_text() -> None:
    with pytest.raises(TypeError, match="splitlines"):
        list(read_events(SNOOKER))


def test_every_line_type_is_listed_once_by_its_type() -> None:
    for name, cls in contract.LINE_TYPES.items():
        assert name == cls.TYPE
    families = (contract.billiards, contract.dice, contract.team, contract.decision, contract.match)
    defined = {
        obj
        for module in families
        for obj in vars(module).values()
        if isinstance(obj, type)
        and issubclass(obj, JsonLine)
        and not obj.__name__.startswith("_")
        and obj is not JsonLine
    }  # a family's private base (``team._TeamLine``) is not a line type
    assert defined == set(contract.LINE_TYPES.values())


def test_ball_ball_order_matters() -> None:
    a = BallBall(t=1.0, balls=("white", "red:4"))
    assert a != BallBall(t=1.0, balls=("red:4", "white"))
    assert a.balls[0] == "white"


# Decisions of a billiards and a dice stream as written before the team sports' optional fields were added
# to ``Decision``: refereeing the same streams must write them byte for byte (samples/billiards/snooker, and
# the pig stream below).
SNOOKER_DECISIONS = [
    (
        '{"type":"decision","shot":1,"player":"A","foul":{"reason":"wrong_ball_first","penalty":4,'
        '"rule":"seed 004 sec 9.2, 23.2(2)"},"points":{"B":4},"score":{"A":0,"B":4},"next":"B",'
        '"on":"red","over":false,"winner":null,"awaiting":["choice"],'
        '"notes":["foul: first hit yellow, the ball on was red",'
        '"foul on the opening stroke: B may have A break again (seed 004 sec 8)",'
        '"B chooses: play, pass, rebreak (seed 004 sec 22.1; WPBSA 3.13)"]}'
    ),
]
PIG_STREAM = [
    '{"type":"match","v":1,"game":"pig","players":["A","B"],"options":{"target":10}}',
    '{"type":"roll","t":1.0,"player":"A","dice":[{"id":"d1","value":6}],"thrown":["d1"]}',
    '{"type":"roll","t":2.0,"player":"A","dice":[{"id":"d1","value":5}],"thrown":["d1"]}',
    '{"type":"stop","t":2.5,"player":"A"}',
    '{"type":"roll","t":3.0,"player":"B","dice":[{"id":"d1","value":1}],"thrown":["d1"]}',
]
PIG_DECISIONS = [
    (
        '{"type":"decision","shot":1,"player":"A","foul":null,"points":{},"score":{"A":0,"B":0},'
        '"next":"A","over":false,"winner":null,"notes":["6: turn total 6, throw again or stop"]}'
    ),
    (
        '{"type":"decision","shot":2,"player":"A","foul":null,"points":{},"score":{"A":0,"B":0},'
        '"next":"A","over":false,"winner":null,"notes":["5: turn total 11, throw again or stop"]}'
    ),
    (
        '{"type":"decision","shot":3,"player":"A","foul":null,"points":{"A":11},"score":{"A":11,'
        '"B":0},"next":"B","over":false,"winner":null,"notes":["A banks 11 (seed 000 Свинья (l.64))",'
        '"A reaches 10: the round is played out"]}'
    ),
    (
        '{"type":"decision","shot":4,"player":"B","foul":null,"points":{},"score":{"A":11,"B":0},'
        '"next":null,"over":true,"winner":"A",'
        '"notes":["1 thrown: the turn\'s 0 points are lost (seed 000 Свинья (l.64))",'
        '"round complete: A wins with 11 (seed 000 Свинья (l.64): equal turns for all)"]}'
    ),
]
SNOOKER_SAMPLE = Path(__file__).resolve().parents[2] / "samples/billiards/snooker/shot_000/truth.jsonl"


@pytest.mark.parametrize("written", [*SNOOKER_DECISIONS, *PIG_DECISIONS])
def test_decisions_recorded_before_the_team_fields_read_back_byte_for_byte(written: str) -> None:
    back = from_json(written)
    assert to_json(back) == written
    assert back.call is None and back.restart is None and not back.fouls  # type: ignore[attr-defined]


@pytest.mark.parametrize("source", [SNOOKER_SAMPLE, PIG_STREAM], ids=["snooker", "pig"])
def test_table_game_decisions_carry_no_team_fields(source: Path | list[str]) -> None:
    team_keys = {"call", "law", "restart", "clock", "period", "fouls", "on_court", "shootout"}
    decisions = [d for step in referee(source) for d in step.decisions]
    assert decisions
    for d in decisions:
        assert not team_keys & set(json.loads(to_json(d)))
