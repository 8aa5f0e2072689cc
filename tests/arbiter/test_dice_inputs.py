"""The dice games' input lines: read from JSON, written back, and refused with clear messages."""

from __future__ import annotations

import pytest

from arbiter import contract as inputs
from arbiter.contract import LINE_TYPES, ContractError, parse_line, to_json

VALID = [
    ('{"type":"stop","player":"A"}', inputs.Stop(player="A")),
    ('{"type":"stop","t":1.5,"player":"A"}', inputs.Stop(t=1.5, player="A")),
    ('{"type":"claim","player":"A","hand":[3,3,3,2,2]}', inputs.Claim(player="A", hand=(3, 3, 3, 2, 2))),
    ('{"type":"claim","player":"B","number":5}', inputs.Claim(player="B", number=5)),
    ('{"type":"challenge","player":"B"}', inputs.Challenge(player="B")),
    ('{"type":"bet","player":"B","face":4,"stake":2}', inputs.Bet(player="B", face=4, stake=2)),
    ('{"type":"operation","player":"A","op":"third"}', inputs.Operation(player="A", op="third")),
]


@pytest.mark.parametrize(("text", "value"), VALID, ids=[v[0] for v in VALID])
def test_reads_and_writes_back(text, value):
    assert parse_line(text) == value
    assert to_json(value) == text


def test_bet_stake_defaults_to_one_and_is_written():
    bet = parse_line('{"type":"bet","player":"B","face":6}')
    assert bet == inputs.Bet(player="B", face=6, stake=1)
    assert to_json(bet) == '{"type":"bet","player":"B","face":6,"stake":1}'


def test_every_input_is_a_line_type():
    for cls in (inputs.Stop, inputs.Claim, inputs.Challenge, inputs.Bet, inputs.Operation):
        assert LINE_TYPES[cls.TYPE] is cls


@pytest.mark.parametrize("op", list(inputs.Op))
def test_every_operation_reads(op):
    assert parse_line(f'{{"type":"operation","player":"A","op":"{op}"}}').op == op


INVALID = [
    ('{"type":"stop"}', "stop.player is required but missing"),
    ('{"type":"stop","player":""}', "stop.player must be a player name"),
    ('{"type":"stop","player":"A","t":-1}', "stop.t must be a number of seconds >= 0"),
    ('{"type":"claim","player":"A"}', 'claim needs exactly one of "hand"'),
    ('{"type":"claim","player":"A","hand":[1,2,3,4,5],"number":2}', 'claim needs exactly one of "hand"'),
    ('{"type":"claim","player":"A","hand":[1,2,3,4]}', "claim.hand must be a list of 5 faces, each 1..6"),
    ('{"type":"claim","player":"A","hand":[1,2,3,4,0]}', "claim.hand must be a list of 5 faces"),
    ('{"type":"claim","player":"A","hand":[1,2,3,4,true]}', "claim.hand must be a list of 5 faces"),
    ('{"type":"claim","player":"A","hand":"33322"}', "claim.hand must be a list of 5 faces"),
    ('{"type":"claim","player":"A","number":0}', "claim.number must be a field number 1..12"),
    ('{"type":"claim","player":"A","number":2.5}', "claim.number must be a field number 1..12"),
    ('{"type":"challenge","player":7}', "challenge.player must be a player name"),
    ('{"type":"bet","player":"B"}', "bet.face is required but missing"),
    ('{"type":"bet","player":"B","face":0}', "bet.face must be the face bet on, an integer 1..6"),
    ('{"type":"bet","player":"B","face":3,"stake":0}', "bet.stake must be the units staked, an integer >= 1"),
    ('{"type":"bet","player":"B","face":3,"stake":1.5}', "bet.stake must be the units staked"),
    ('{"type":"operation","player":"A"}', "operation.op is required but missing"),
    (
        '{"type":"operation","player":"A","op":"times"}',
        "operation.op must be one of plus, minus, half, third",
    ),
]


@pytest.mark.parametrize(("text", "message"), INVALID, ids=[v[0] for v in INVALID])
def test_refuses_bad_lines_with_the_line_number(text, message):
    with pytest.raises(ContractError, match=f"^line 7: {message}"):
        parse_line(text, 7)
