"""14.1 rack geometry: the rack, its outline, spotting and the special racking table (WPA 4.8)."""

from __future__ import annotations

import math

import pytest

from adjudication.billiards import rack
from adjudication.billiards.rack import Place, Where15, WhereCue
from arbiter.games import billiards

TABLE = billiards("straight-pool").table
D = 57.15  # WPA ball, 2 1/4 in
R = D / 2
ROW = D * math.sqrt(3) / 2  # distance between rows of a tight rack
FOOT = (635.0, 1905.0)  # 3/4 of 2540 on the long string of a 1270 mm wide table
HEAD = (635.0, 635.0)
CENTRE = (635.0, 1270.0)


def test_table_figures_used_here() -> None:
    assert TABLE.ball_diameter_mm == D
    assert TABLE.spots["foot"] == FOOT
    assert TABLE.spots["head"] == HEAD
    assert TABLE.spots["centre"] == CENTRE
    assert TABLE.line("head_string").y_mm == 635.0


def test_rack_slots_are_a_tight_triangle_on_the_foot_spot() -> None:
    slots = rack.rack_slots(TABLE)
    assert len(slots) == 15
    assert slots[0] == FOOT
    assert slots[1] == pytest.approx((FOOT[0] - R, FOOT[1] + ROW))
    assert slots[2] == pytest.approx((FOOT[0] + R, FOOT[1] + ROW))
    assert slots[10] == pytest.approx((FOOT[0] - 2 * D, FOOT[1] + 4 * ROW))
    assert slots[14] == pytest.approx((749.3, 2102.9734073))
    # neighbours touch, nobody overlaps
    gaps = [math.dist(a, b) for i, a in enumerate(slots) for b in slots[i + 1 :]]
    assert min(gaps) == pytest.approx(D)
    assert sum(1 for g in gaps if g == pytest.approx(D)) == 30  # edges of a 5-row triangular packing


def test_rack_outline_is_one_radius_outside_the_centres() -> None:
    apex, left, right = rack.rack_outline(TABLE)
    assert apex == pytest.approx((635.0, FOOT[1] - D))
    assert left == pytest.approx((FOOT[0] - 2 * D - D * math.sqrt(3) / 2, FOOT[1] + 4 * ROW + R))
    assert right == pytest.approx((FOOT[0] + 2 * D + D * math.sqrt(3) / 2, FOOT[1] + 4 * ROW + R))
    # each side of the outline is tangent to the balls along it
    for slot in (0, 1, 3, 6, 10, 11, 12, 13, 14, 2, 5, 9):
        assert rack.distance_to_rack_area(TABLE, rack.rack_slots(TABLE)[slot]) == 0.0


@pytest.mark.parametrize(
    ("xy", "inside"),
    [
        pytest.param(FOOT, True, id="apex ball"),
        pytest.param((635.0, 2000.0), True, id="middle of the rack"),
        pytest.param((635.0, FOOT[1] - D - R + 0.5), True, id="overlaps the apex corner"),
        pytest.param((635.0, FOOT[1] - D - R - 0.5), False, id="just clear of the apex corner"),
        pytest.param((635.0, 2131.548 + R - 0.5), True, id="overlaps the back edge"),
        pytest.param((635.0, 2131.548 + R + 0.5), False, id="just clear of the back edge"),
        pytest.param((820.0, 2131.0), True, id="overlaps the back right corner"),
        pytest.param((860.0, 2131.0), False, id="beside the back right corner"),
        pytest.param((520.0, 1900.0), False, id="beside the apex, left"),
        pytest.param(HEAD, False, id="head spot"),
    ],
)
def test_in_rack_area(xy: tuple[float, float], inside: bool) -> None:
    assert rack.in_rack_area(TABLE, xy) is inside


@pytest.mark.parametrize(
    ("xy", "spot", "blocked"),
    [
        ((635.0 + D - 0.01, 635.0), "head", True),
        ((635.0 + D + 0.01, 635.0), "head", False),
        ((635.0, 635.0), "head", True),
        ((600.0, 1260.0), "centre", True),
        ((635.0, 1905.0 + D), "foot", False),  # frozen to a ball on the spot, not in its way
    ],
)
def test_blocks_spot(xy: tuple[float, float], spot: str, blocked: bool) -> None:
    assert rack.blocks_spot(TABLE, xy, spot) is blocked


@pytest.mark.parametrize(("y", "behind"), [(634.9, True), (635.0, False), (635.1, False), (10.0, True)])
def test_behind_head_string(y: float, behind: bool) -> None:
    assert rack.behind_head_string(TABLE, (300.0, y)) is behind


def test_full_rack_layout_puts_one_right_five_left() -> None:
    layout = rack.rack_layout(TABLE, rack.OBJECT_BALLS)
    slots = rack.rack_slots(TABLE)
    assert list(layout) == [str(n) for n in range(1, 16)]
    assert layout["1"] == slots[14]  # back right as the breaker sees it
    assert layout["5"] == slots[10]  # back left
    assert layout["2"] == slots[0]  # lowest other ball at the apex
    assert sorted(layout.values()) == sorted(slots)


def test_fourteen_ball_layout_leaves_the_apex_empty() -> None:
    balls = [b for b in rack.OBJECT_BALLS if b != "9"]
    layout = rack.rack_layout(TABLE, balls)
    assert "9" not in layout
    assert FOOT not in layout.values()
    assert sorted(layout.values()) == sorted(rack.rack_slots(TABLE)[1:])


def test_apex_ball_takes_the_apex_even_when_it_is_a_corner_ball() -> None:
    layout = rack.rack_layout(TABLE, rack.OBJECT_BALLS, apex_ball="1")
    slots = rack.rack_slots(TABLE)
    assert layout["1"] == FOOT
    assert layout["5"] == slots[10]
    assert layout["2"] == slots[1]
    assert sorted(layout.values()) == sorted(slots)


@pytest.mark.parametrize(
    ("balls", "apex"),
    [
        pytest.param(rack.OBJECT_BALLS[:13], None, id="thirteen balls"),
        pytest.param(rack.OBJECT_BALLS[:14], "15", id="apex ball not racked"),
        pytest.param(rack.OBJECT_BALLS[:14], "1", id="apex ball with fourteen"),
    ],
)
def test_rack_layout_rejects(balls: tuple[str, ...], apex: str | None) -> None:
    with pytest.raises(ValueError):
        rack.rack_layout(TABLE, balls, apex_ball=apex)


@pytest.mark.parametrize(
    ("balls", "occupied", "expected"),
    [
        pytest.param(["7"], {}, {"7": FOOT}, id="free foot spot"),
        pytest.param(["7"], {"cue": (100.0, 100.0)}, {"7": FOOT}, id="cue ball elsewhere"),
        pytest.param(["7"], {"3": FOOT}, {"7": (635.0, 1905.0 + D)}, id="frozen behind a ball on the spot"),
        pytest.param(
            ["7"],
            {"3": (650.0, 1905.0)},
            {"7": (635.0, 1905.0 + math.sqrt(D * D - 15.0 * 15.0))},
            id="frozen behind an offset ball",
        ),
        pytest.param(
            ["10", "9"], {}, {"9": FOOT, "10": (635.0, 1905.0 + D)}, id="numerical order, not text order"
        ),
        pytest.param(
            ["12"],
            {str(n): (635.0, 1905.0 + n * D - D) for n in range(1, 12)},
            {"12": (635.0, 1905.0 - D)},
            id="long string to the foot cushion full: in front of the foot spot",
        ),
        pytest.param(
            ["9"],
            rack.rack_layout(TABLE, [b for b in rack.OBJECT_BALLS if b != "9"]),
            {"9": FOOT},
            id="fifteenth ball onto the empty apex of untouched fourteen (WPA 4.6)",
        ),
    ],
)
def test_spot_balls(
    balls: list[str], occupied: dict[str, tuple[float, float]], expected: dict[str, tuple[float, float]]
) -> None:
    spotted = rack.spot_balls(TABLE, balls, occupied)
    assert list(spotted) == list(expected)
    for ball, xy in expected.items():
        assert spotted[ball] == pytest.approx(xy)


# Positions for the special racking table. The 15th ball and the cue ball never overlap each other.
B_IN_RACK = (560.0, 1990.0)
B_ON_HEAD = (660.0, 640.0)
B_KITCHEN = (300.0, 400.0)
B_ELSEWHERE = (300.0, 1200.0)
C_IN_RACK = (720.0, 2080.0)
C_ON_HEAD = (580.0, 630.0)
C_ELSEWHERE = (900.0, 1500.0)


def test_fixture_positions_classify_as_named() -> None:
    assert rack.where_fifteenth(TABLE, None) is Where15.POCKETED
    assert rack.where_fifteenth(TABLE, B_IN_RACK) is Where15.IN_RACK
    assert rack.where_fifteenth(TABLE, B_ON_HEAD) is Where15.ON_HEAD_SPOT
    assert rack.where_fifteenth(TABLE, B_KITCHEN) is Where15.IN_KITCHEN
    assert rack.where_fifteenth(TABLE, B_ELSEWHERE) is Where15.ELSEWHERE
    assert rack.where_cue(TABLE, C_IN_RACK) is WhereCue.IN_RACK
    assert rack.where_cue(TABLE, C_ON_HEAD) is WhereCue.ON_HEAD_SPOT
    assert rack.where_cue(TABLE, C_ELSEWHERE) is WhereCue.ELSEWHERE
    assert rack.where_cue(TABLE, None) is WhereCue.ELSEWHERE


def test_special_racking_table_covers_every_cell() -> None:
    assert set(rack.SPECIAL_RACKING) == {(b, c) for b in Where15 for c in WhereCue}


@pytest.mark.parametrize(
    ("ball_xy", "cue_xy", "ball_place", "cue_place", "moved"),
    [
        # 15th ball in the rack
        (B_IN_RACK, C_IN_RACK, Place.FOOT_SPOT, Place.IN_HAND, {}),
        (B_IN_RACK, C_ELSEWHERE, Place.HEAD_SPOT, Place.STAYS, {"12": HEAD}),
        (B_IN_RACK, C_ON_HEAD, Place.CENTRE_SPOT, Place.STAYS, {"12": CENTRE}),
        # 15th ball pocketed with the 14th
        (None, C_IN_RACK, Place.FOOT_SPOT, Place.IN_HAND, {}),
        (None, C_ELSEWHERE, Place.FOOT_SPOT, Place.STAYS, {}),
        (None, C_ON_HEAD, Place.FOOT_SPOT, Place.STAYS, {}),
        (None, None, Place.FOOT_SPOT, Place.STAYS, {}),
        # 15th ball behind the head string (it stays, WPA 4.8(d); the Russian text's cell is not followed)
        (B_KITCHEN, C_IN_RACK, Place.STAYS, Place.HEAD_SPOT, {"cue": HEAD}),
        (B_KITCHEN, C_ELSEWHERE, Place.STAYS, Place.STAYS, {}),
        # 15th ball elsewhere
        (B_ELSEWHERE, C_IN_RACK, Place.STAYS, Place.IN_HAND, {}),
        (B_ELSEWHERE, C_ELSEWHERE, Place.STAYS, Place.STAYS, {}),
        (B_ELSEWHERE, C_ON_HEAD, Place.STAYS, Place.STAYS, {}),
        # 15th ball in the way of the head spot
        (B_ON_HEAD, C_IN_RACK, Place.STAYS, Place.CENTRE_SPOT, {"cue": CENTRE}),
        (B_ON_HEAD, C_ELSEWHERE, Place.STAYS, Place.STAYS, {}),
        (B_ON_HEAD, C_ON_HEAD, Place.STAYS, Place.STAYS, {}),
    ],
)
def test_plan_rerack(
    ball_xy: tuple[float, float] | None,
    cue_xy: tuple[float, float] | None,
    ball_place: Place,
    cue_place: Place,
    moved: dict[str, tuple[float, float]],
) -> None:
    at_rest: dict[str, tuple[float, float]] = {}
    if ball_xy is not None:
        at_rest["12"] = ball_xy
    if cue_xy is not None:
        at_rest["cue"] = cue_xy
    plan = rack.plan_rerack(TABLE, at_rest)
    assert (plan.fifteenth_place, plan.cue_place) == (ball_place, cue_place)
    assert dict(plan.moved) == moved
    assert plan.cue_in_hand is (cue_place is Place.IN_HAND)
    full = ball_place is Place.FOOT_SPOT
    assert plan.full_rack is full
    assert len(plan.racked) == (15 if full else 14)
    if full and ball_xy is not None:
        assert plan.racked["12"] == FOOT  # the 15th ball on the foot spot, the apex of a full rack
    if not full:
        assert "12" not in plan.racked
        assert FOOT not in plan.racked.values()
    assert plan.fifteenth == ("12" if ball_xy is not None else None)


def test_plan_rerack_refuses_two_object_balls() -> None:
    with pytest.raises(ValueError, match="at most one object ball"):
        rack.plan_rerack(TABLE, {"3": B_ELSEWHERE, "4": B_KITCHEN})
