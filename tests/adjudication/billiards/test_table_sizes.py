"""The match header's ``table`` (issue 10): every engine judges on the geometry of the table played, and a
header without it on the game's standard table, exactly as before."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from adjudication.billiards import pyramid, snooker, straight_pool
from adjudication.billiards.five_pins import table as five_pins_table
from adjudication.billiards.pyramid import spotting
from adjudication.billiards.shot import Shot
from adjudication.referee import Referee
from arbiter import contract as c
from arbiter.games import billiards
from arbiter.tables import XY

SNOOKER = billiards("snooker")
SIX_FT = SNOOKER.resized("6ft").table
COLOURS = ("yellow", "green", "brown", "blue", "pink", "black")


def _snooker_stream(table: str | None) -> list[c.JsonLine]:
    """A frame's opening on a 6 ft table: the white, from the D, hits a red first and pots the blue: a foul,
    and the blue goes back on its spot. Balls stand where they stand on a 6 ft table."""
    spots = SIX_FT.spots
    at_rest: dict[str, XY] = {c_: spots[c_] for c_ in COLOURS if c_ != "blue"}
    at_rest["white"] = (spots["brown"][0] + 60.0, spots["brown"][1] - 80.0)
    at_rest.update({f"red:{n}": (200.0 + 30.0 * (n % 8), 1450.0 + 60.0 * (n // 8)) for n in range(1, 16)})
    return [
        c.Match(game="snooker", players=("A", "B"), table=table),
        c.ShotStart(t=1.0, ball="white"),
        c.BallBall(t=1.2, balls=("white", "red:3")),
        c.Pot(t=1.6, ball="blue", pocket="mr"),
        c.ShotEnd(t=3.0, positions=at_rest),
    ]


def _decisions(lines: Sequence[c.JsonLine]) -> list[c.Decision]:
    header, *rest = lines
    assert isinstance(header, c.Match)
    referee = Referee(header)
    return [d for line in rest for d in referee.step(line)]


def test_a_6ft_snooker_respot_lands_on_the_6ft_tables_spot() -> None:
    (decision,) = _decisions(_snooker_stream("6ft"))
    assert decision.foul is not None
    assert [(r.ball, r.xy_mm) for r in decision.respot] == [("blue", SIX_FT.spots["blue"])]
    assert SIX_FT.spots["blue"] == pytest.approx((444.5, 892.5))  # the middle of a 1785 x 889 mm playing area


def test_a_header_without_a_table_referees_on_the_standard_table_as_before() -> None:
    (decision,) = _decisions(_snooker_stream(None))
    assert [(r.ball, r.xy_mm) for r in decision.respot] == [("blue", SNOOKER.table.spots["blue"])]
    standard = _decisions(_snooker_stream(SNOOKER.table.size))
    assert standard == [decision]  # naming the standard size changes nothing


def test_the_header_round_trips_with_its_table_and_without() -> None:
    sized = c.Match(game="pyramid", players=("A", "B"), table="10ft")
    text = c.to_json(sized)
    assert text == '{"type":"match","v":1,"game":"pyramid","players":["A","B"],"table":"10ft"}'
    assert c.from_json(text) == sized and c.from_json(text).table == "10ft"
    old = '{"type":"match","v":1,"game":"pyramid","players":["A","B"]}'
    assert c.to_json(c.from_json(old)) == old and c.from_json(old).table is None


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"type":"match","v":1,"game":"snooker","players":["A","B"],"table":"8ft"}', "12ft, 10ft, 9ft, 6ft"),
        ('{"type":"match","v":1,"game":"pig","players":["A","B"],"table":"9ft"}', "not played on a billiard"),
        ('{"type":"match","v":1,"game":"snooker","players":["A","B"],"table":6}', "match.table"),
        ('{"type":"match","v":1,"game":"snooker","players":["A","B"],"table":"100x50"}', "no billiard table"),
    ],
)
def test_a_table_the_game_is_not_played_on_is_refused_naming_the_sizes(line: str, message: str) -> None:
    with pytest.raises(c.ContractError, match=message):
        c.parse_line(line, 1)


def test_a_table_of_its_own_size_is_a_header_s_table_and_the_engine_plays_on_it() -> None:
    """The calibration names a table no catalogue size fits by its playing area (a toy snooker table,
    "1785x822"), and the run's header carries it: the engine racks on that table."""
    header = c.Match(game="snooker", players=("A", "B"), table="1785x822")
    assert c.from_json(c.to_json(header)) == header
    layout = snooker.start(header).table.layout
    assert (layout.length_mm, layout.width_mm) == (1785.0, 822.0)
    assert layout.spots["black"] == SNOOKER.resized("1785x822").table.spots["black"]


def test_straight_pool_racks_on_the_7ft_tables_foot_spot() -> None:
    header = c.Match(game="straight-pool", players=("A", "B"), table="7ft")
    state = straight_pool.start(header)
    foot = billiards("straight-pool").resized("7ft").table.spots["foot"]
    standard = straight_pool.start(c.Match(game="straight-pool", players=("A", "B")))
    assert state.table["1"] != standard.table["1"]
    apex = min(state.table.values(), key=lambda xy: xy[1])
    assert apex == pytest.approx(foot)


def test_pyramid_spots_a_ball_on_the_9ft_tables_back_spot() -> None:
    header = c.Match(game="pyramid", players=("A", "B"), table="9ft")
    state = pyramid.start(header)
    back = billiards("pyramid").resized("9ft").table.spots["back"]
    assert state.layout.spots["back"] == back
    assert spotting.spot(state.layout, []) == back
    assert back != billiards("pyramid").table.spots["back"]


def test_five_pins_puts_the_red_back_on_the_small_tables_spot() -> None:
    layout = billiards("five-pins").resized("small").table
    shot = Shot(
        start=c.ShotStart(t=0.0, ball="white"),
        events=(c.OffTable(t=1.0, ball="red"),),
        end=c.ShotEnd(t=2.0, positions={"white": (300.0, 400.0), "yellow": (700.0, 1500.0)}),
    )
    positions, respots, _ = five_pins_table.after_shot(layout, shot, "white", "yellow", True, 1.0)
    assert positions["red"] == layout.spots["red"] and respots[0].xy_mm == layout.spots["red"]
    assert layout.spots["red"] != billiards("five-pins").table.spots["red"]
