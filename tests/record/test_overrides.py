"""Referee overrides: delete, replace, insert a line; the decisions after it recomputed by the engines."""

from __future__ import annotations

import json

import pytest

from arbiter import contract as c
from cli.common import SAMPLE_SHOT
from record.overrides import (
    Override,
    OverrideError,
    apply,
    changes,
    check,
    recompute,
    referee_lines,
    trace,
)


def _j(obj: dict) -> str:
    return json.dumps(obj, separators=(",", ":"))


def _roll(t: float, player: str, value: int) -> str:
    return _j(
        {"type": "roll", "t": t, "player": player, "dice": [{"id": "d1", "value": value}], "thrown": ["d1"]}
    )


BAD_SIDE = _j({"type": "cushion", "t": 1, "ball": "white", "side": "up"})
HEADER = _j({"type": "match", "v": 1, "game": "pig", "players": ["A", "B"], "options": {"target": 10}})
PIG = [HEADER, _roll(1.0, "A", 6), _roll(2.0, "A", 5), _j({"type": "stop", "t": 3.0, "player": "A"})]
SNOOKER = (SAMPLE_SHOT / "truth.jsonl").read_text().splitlines()


def _banked(result) -> dict:
    return dict(result.decisions[-1].score)


@pytest.mark.parametrize(
    ("overrides", "score"),
    [
        ([], {"A": 11, "B": 0}),
        ([Override("delete", 3)], {"A": 6, "B": 0}),
        ([Override("replace", 3, _roll(2.0, "A", 2))], {"A": 8, "B": 0}),
        ([Override("insert", 4, _roll(2.5, "A", 3))], {"A": 14, "B": 0}),
        # each override numbers the lines as they stand after the ones before it
        ([Override("delete", 2), Override("replace", 2, _roll(2.0, "A", 4))], {"A": 4, "B": 0}),
        ([Override("insert", 2, _roll(0.5, "A", 2)), Override("delete", 4)], {"A": 8, "B": 0}),
    ],
)
def test_an_override_recomputes_the_decisions_after_it(overrides, score):
    result = recompute(PIG, overrides)
    assert result.error is None
    assert _banked(result) == score


def test_the_original_lines_are_not_changed_and_a_corrected_line_is_traced():
    original = list(PIG)
    traced = trace(
        PIG, [Override("replace", 3, _roll(2.0, "A", 2)), Override("insert", 5, _roll(4.0, "B", 3))]
    )
    assert original == PIG
    assert [corrected for _, corrected in traced] == [False, False, True, False, True]
    assert apply(PIG, []) == PIG


def test_a_corrected_pot_turns_the_in_off_into_a_fair_stroke_on_the_sample_shot():
    before = recompute(SNOOKER)
    d = before.decisions[0]
    assert d.foul is not None and d.foul.reason == "in_off" and d.awaiting == ("choice",)
    white_pot = json.loads(SNOOKER[39])
    assert white_pot == white_pot | {"type": "pocket", "ball": "white", "pocket": "bl"}
    after = recompute(SNOOKER, [Override("delete", 40, reason="the white stopped in the jaws")])
    d = after.decisions[0]
    assert d.foul is None and dict(d.points) == {} and dict(d.score) == {"A": 0, "B": 0}
    assert d.next == "B" and d.awaiting == ()
    assert [i for i, _, _ in changes(before, after)] == [0]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"op": "move", "at": 2}, "op must be one of"),
        ({"op": "delete", "at": 0}, "integer >= 1"),
        ({"op": "delete", "at": True}, "integer >= 1"),
        ({"op": "delete", "at": 1}, r"header \(line 1\) cannot be deleted"),
        ({"op": "delete", "at": 2, "line": PIG[1]}, "takes no new line"),
        ({"op": "replace", "at": 2}, "needs the new line"),
        ({"op": "insert", "at": 2, "line": "  "}, "needs the new line"),
        ({"op": "insert", "at": 2, "line": "{not json"}, "not a line of the contract"),
        ({"op": "insert", "at": 2, "line": BAD_SIDE}, "cushion.side must be one of"),
        ({"op": "insert", "at": 1, "line": HEADER}, "nothing goes before the match header"),
        ({"op": "replace", "at": 1, "line": PIG[1]}, "only be replaced by another match header"),
        ({"op": "replace", "at": 3, "line": HEADER}, "a match header can only be line 1"),
        (
            {
                "op": "insert",
                "at": 3,
                "line": _j(
                    {"type": "decision", "shot": 1, "player": "A", "foul": None, "points": {},
                     "score": {"A": 0}, "next": "B", "over": False, "winner": None}
                ),
            },
            "decisions are not corrected by hand",
        ),
    ],
)  # fmt: skip
def test_a_bad_override_is_refused_when_made(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Override(**kwargs)


@pytest.mark.parametrize(
    "override",
    [
        Override("delete", 5),
        Override("replace", 5, _roll(9.0, "A", 1)),
        Override("insert", 6, _roll(9.0, "A", 1)),
    ],
)
def test_an_override_past_the_end_names_itself(override):
    with pytest.raises(
        OverrideError, match=r"override 1 \((delete|replace|insert) at line \d\) is past the end"
    ):
        apply(PIG, [override])


def test_the_header_may_be_replaced_by_another_header():
    played = [*PIG, _roll(4.0, "B", 2), _j({"type": "stop", "t": 5.0, "player": "B"})]
    assert recompute(played).state.winner == "A"  # 11 reaches the target of 10; B had the closing turn
    header = _j({"type": "match", "v": 1, "game": "pig", "players": ["A", "B"], "options": {"target": 100}})
    result = recompute(played, [Override("replace", 1, header)])
    assert not result.state.over and dict(result.state.score) == {"A": 11, "B": 2}


def test_an_override_round_trips_through_its_stored_form():
    o = Override("replace", 3, _roll(2.0, "A", 2), reason="die read as 5, shows 2")
    assert Override.from_json(o.to_json()) == o
    assert "replace at line 3" in o.describe() and "die read as 5" in o.describe()
    assert Override.from_json(Override("delete", 4).to_json()) == Override("delete", 4)
    with pytest.raises(ValueError, match="JSON object"):
        Override.from_json("[1, 2]")


def test_refereeing_stops_at_a_line_the_rules_cannot_use_and_keeps_what_came_before():
    broken = [*PIG, _roll(2.5, "B", 3)]  # time goes backwards: the contract refuses it
    result = referee_lines(broken)
    assert (
        result.error is not None
        and result.error.line_no == 5
        and "time goes backwards" in result.error.message
    )
    assert len(result.steps) == 3 and dict(result.state.score) == {"A": 11, "B": 0}


def test_check_refuses_a_correction_that_breaks_a_clean_stream_but_allows_repairing_a_broken_one():
    with pytest.raises(OverrideError, match="the rules stop at line 3"):
        check(PIG, [Override("insert", 3, _roll(0.5, "A", 3))])
    broken = [*PIG, _roll(2.5, "B", 3)]
    repaired = check(broken, [Override("replace", 5, _roll(4.0, "B", 3))])
    assert repaired.error is None
    still_broken = check(broken, [Override("delete", 2)])  # a stream that already stopped may be edited
    assert still_broken.error is not None


def test_decision_lines_in_a_recorded_stream_are_remade_not_read():
    recorded = [HEADER]
    for step in recompute(PIG).steps:
        recorded.append(c.to_json(step.event))
        recorded.extend(c.to_json(d) for d in step.decisions)
    assert recompute(recorded).decisions == recompute(PIG).decisions
