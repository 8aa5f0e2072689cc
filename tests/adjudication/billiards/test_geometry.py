"""Snooker geometry: snookers, touching balls and re-spotting, on cases worked out by hand.

Ball radius r = 26.25 mm (diameter 52.5 mm, WPBSA 1.2). The standard case: the white at (889, 1000),
the ball on at (889, 2000), d = 1000 mm. The white's centre meets the ball on at 2r = 52.5 mm from its centre;
the two thinnest hits are the tangents from the white to that circle: cos(phi) = 52.5 / 1000 = 0.0525, so the
contact points are (889 +- 52.5 * sin(phi), 2000 - 52.5 * cos(phi)) = (889 +- 52.4276, 1997.2438).

An obstacle on y = 1500 at x = 889 + dx: the right-hand edge path runs from (889, 1000) toward
(941.4276, 1997.2438), so at y = 1500 it is 26.29 mm right of the centre line; the obstacle blocks it when its
distance to that line, (997.2438 * dx - 500 * 52.4276) / 998.6210, is under 52.5 mm: for dx < 78.86 mm.
"""

from __future__ import annotations

import math

import pytest

from adjudication.billiards import geometry as g
from arbiter.games import billiards

TABLE = billiards("snooker").table
R = TABLE.ball_radius_mm
SPOT = TABLE.spots
WHITE = (889.0, 1000.0)
ON = (889.0, 2000.0)
EDGE_LIMIT_DX = (52.5 * math.hypot(52.42757, 997.24375) + 500 * 52.42757) / 997.24375


def test_the_edge_limit_worked_out_by_hand() -> None:
    assert TABLE.ball_radius_mm == 26.25
    limit = EDGE_LIMIT_DX
    assert round(limit, 2) == 78.86
    assert g.snookered(WHITE, [ON], [(889.0 + limit - 0.05, 1500.0)], R)
    assert not g.snookered(WHITE, [ON], [(889.0 + limit + 0.05, 1500.0)], R)


@pytest.mark.parametrize(
    ("a", "b", "tol", "expected"),
    [
        ((0.0, 0.0), (52.5, 0.0), 1.0, True),  # exactly a diameter apart
        ((0.0, 0.0), (53.4, 0.0), 1.0, True),  # within the tracking tolerance
        ((0.0, 0.0), (53.6, 0.0), 1.0, False),
        ((0.0, 0.0), (52.6, 0.0), 0.0, False),
        ((0.0, 0.0), (30.0, 40.0), 1.0, True),  # 50 mm: overlapping reads as touching
        ((100.0, 100.0), (137.0, 137.0), 1.0, True),  # 52.33 mm along a diagonal
    ],
)
def test_touching(a, b, tol, expected) -> None:
    assert g.touching(a, b, R, tol) is expected


def test_extreme_edge_contacts_are_the_tangent_points() -> None:
    right, left = sorted(g.extreme_edge_contacts(WHITE, ON, R), key=lambda p: -p[0])
    assert right == pytest.approx((889.0 + 52.42757, 1997.24375), abs=1e-4)
    assert left == pytest.approx((889.0 - 52.42757, 1997.24375), abs=1e-4)
    for p in (right, left):
        assert g.distance(p, ON) == pytest.approx(52.5)
        # tangent: the path from the white is square to the radius at the contact
        assert (p[0] - WHITE[0]) * (p[0] - ON[0]) + (p[1] - WHITE[1]) * (p[1] - ON[1]) == pytest.approx(
            0.0, abs=1e-6
        )
    assert g.extreme_edge_contacts(WHITE, (889.0, 1052.5), R) is None  # touching: no approach


@pytest.mark.parametrize(
    ("obstacles", "snookered", "any_part", "full_ball"),
    [
        ([], False, True, True),
        ([(889.0, 1500.0)], True, False, False),  # dead in line, half way: the whole ball hidden
        ([(889.0 + 78.0, 1500.0)], True, True, True),  # right edge blocked (dx < 78.86): partly snookered
        ([(889.0 - 78.0, 1500.0)], True, True, True),  # the same on the left
        ([(889.0 + 80.0, 1500.0)], False, True, True),  # both edges free
        ([(889.0 + 40.0, 1500.0)], True, True, False),  # the centre line blocked, a thin left cut open
        ([(889.0 + 78.0, 1500.0), (889.0 - 78.0, 1500.0)], True, True, True),  # both edges blocked
        ([(889.0, 2100.0)], False, True, True),  # behind the ball on: no obstruction
        ([(889.0, 1000.0 - 52.5)], False, True, True),  # touching the white from behind: play away
        ([(889.0 + 52.5, 2000.0)], True, True, True),  # touching the ball on at its right edge
    ],
)
def test_snookered_and_clear_paths(obstacles, snookered, any_part, full_ball) -> None:
    assert g.snookered(WHITE, [ON], obstacles, R) is snookered
    assert g.any_part_clear(WHITE, ON, obstacles, R) is any_part
    assert g.full_ball_clear(WHITE, ON, obstacles, R) is full_ball


def test_one_ball_on_in_full_view_is_enough() -> None:
    hidden = (889.0, 2000.0)
    open_ = (300.0, 2000.0)
    blocker = [(889.0, 1500.0)]
    assert g.snookered(WHITE, [hidden], blocker, R)
    assert not g.snookered(WHITE, [hidden, open_], blocker, R)


def test_a_ball_on_is_never_an_obstacle() -> None:
    # Two reds in line: the near one is on, so it does not snooker; the far one is hidden by it only as an
    # obstacle, which a ball on is not.
    assert not g.snookered(WHITE, [(889.0, 1500.0), ON], [], R)
    assert not g.snookered(WHITE, [], [(889.0, 1500.0)], R)  # nothing on: nothing to be snookered on


def test_touching_ball_not_on_blocks_only_toward_it() -> None:
    behind = (889.0, 1000.0 + 52.5)  # touching the white, between it and the ball on
    assert not g.path_clear(WHITE, (889.0, 1900.0), [behind], R)
    assert g.path_clear(WHITE, (889.0, 100.0), [behind], R)
    assert g.path_clear(WHITE, (1500.0, 1000.0), [behind], R)  # square to it: grazes, does not move it
    assert g.snookered(WHITE, [ON], [behind], R)


def test_touching_the_ball_on_is_not_snookered() -> None:
    assert not g.snookered(WHITE, [(889.0 + 52.5, 1000.0)], [(889.0 + 52.5, 900.0)], R)


def test_d_positions_stay_in_the_d() -> None:
    arc = TABLE.arcs[0]
    cx, cy = arc.centre_xy_mm
    points = g.d_positions(TABLE)
    assert all(y <= cy + 1e-9 and math.dist((x, y), (cx, cy)) <= 292.0 + 1e-6 for x, y in points)
    for corner in (SPOT["yellow"], SPOT["green"], SPOT["brown"], (cx, cy - 292.0)):
        assert min(math.dist(corner, p) for p in points) < 1e-6


# A ball on just off the bottom cushion at (889, 30), a row of five balls 100 mm apart at y = 150 mm
# (x = 689..1089): a ball cannot pass between centres less than two diameters (105 mm) apart, and from every
# point of the D (x 597..1181, y 445..737) the lines to the ball on cross y = 150 within x = 889 +- 140.
WALL = [(889.0 + 100.0 * k, 150.0) for k in range(-2, 3)]


def test_snookered_in_hand_only_when_hidden_from_the_whole_d() -> None:
    ball_on = [(889.0, 30.0)]
    assert g.snookered_in_hand(ball_on, WALL, TABLE)
    assert not g.any_part_clear_in_hand(ball_on, WALL, TABLE)
    gap = [w for w in WALL if w[0] != 889.0]  # a 200 mm gap in the middle
    assert not g.snookered_in_hand(ball_on, gap, TABLE)
    assert g.any_part_clear_in_hand(ball_on, gap, TABLE)
    assert g.full_ball_clear_in_hand(ball_on, gap, TABLE)
    assert not g.snookered_in_hand([SPOT["blue"]], WALL, TABLE)


# --- re-spotting ------------------------------------------------------------------------------------------

ALL_SPOTS = {c: SPOT[c] for c in g.SPOT_PRECEDENCE}
ABOVE = 2 * R + g.RESPOT_CLEARANCE_MM  # 54.0 mm: straight above a ball, clear of it


def test_spot_occupied_means_a_ball_there_would_touch() -> None:
    spot = SPOT["blue"]
    assert g.spot_occupied(spot, [(spot[0], spot[1] + 52.5 + 0.9)], R)
    assert not g.spot_occupied(spot, [(spot[0], spot[1] + 52.5 + 1.2)], R)


@pytest.mark.parametrize(
    ("ball", "positions", "expected"),
    [
        ("blue", {}, SPOT["blue"]),
        ("blue", {"white": (900.0, 1700.0)}, SPOT["blue"]),  # 86 mm away: free
        ("blue", {"red:1": SPOT["blue"]}, SPOT["black"]),  # own spot taken: the highest free spot
        ("blue", {"red:1": SPOT["blue"], "black": SPOT["black"]}, SPOT["pink"]),
        ("yellow", {"red:1": SPOT["yellow"], "black": SPOT["black"], "pink": SPOT["pink"]}, SPOT["blue"]),
        # every spot taken: straight above its own spot, clear of the ball on it
        ("pink", {**ALL_SPOTS, "red:1": SPOT["pink"]}, (SPOT["pink"][0], SPOT["pink"][1] + ABOVE)),
        # a ball 30 mm to the side of the spot: sqrt(54^2 - 30^2) = 44.90 mm above
        (
            "brown",
            {**ALL_SPOTS, "red:1": (SPOT["brown"][0] + 30.0, SPOT["brown"][1])},
            (SPOT["brown"][0], SPOT["brown"][1] + math.sqrt(ABOVE**2 - 30.0**2)),
        ),
        # two balls stacked above the spot: the first gap above them
        (
            "blue",
            {**ALL_SPOTS, "red:1": SPOT["blue"], "red:2": (SPOT["blue"][0], SPOT["blue"][1] + 52.5)},
            (SPOT["blue"][0], SPOT["blue"][1] + 52.5 + ABOVE),
        ),
    ],
)
def test_respot_position(ball, positions, expected) -> None:
    positions = {b: xy for b, xy in positions.items() if b != ball}
    assert g.respot_position(ball, positions, TABLE) == pytest.approx(expected)


def test_black_goes_below_its_spot_when_the_top_is_full() -> None:
    x, y = SPOT["black"]
    # balls every 54 mm from the spot to 3515 mm: the next place up, 3569, is past the cushion (3542.75)
    column = {f"red:{k + 1}": (x, y + ABOVE * k) for k in range(6)}
    positions = {**{c: SPOT[c] for c in ("pink", "blue", "brown", "green", "yellow")}, **column}
    assert g.free_spot("black", positions, TABLE) is None
    assert g.respot_position("black", positions, TABLE) == pytest.approx((x, y - ABOVE))


def test_several_colours_own_spots_first_then_by_value() -> None:
    # pink's spot is free, black's is taken: pink goes home first, then black takes the best free spot left,
    # which is no longer pink's (blue is on its own spot): brown's.
    placed = g.respot_positions(["black", "pink"], {"red:1": SPOT["black"], "blue": SPOT["blue"]}, TABLE)
    assert placed == {"pink": SPOT["pink"], "black": SPOT["brown"]}
    # pink's and blue's spots both taken, black on its own: pink (higher) takes brown's, blue then green's.
    taken = {"red:1": SPOT["pink"], "red:2": SPOT["blue"], "black": SPOT["black"]}
    assert g.respot_positions(["blue", "pink"], taken, TABLE) == {
        "pink": SPOT["brown"],
        "blue": SPOT["green"],
    }


def test_a_respotted_ball_never_touches_another() -> None:
    positions = {
        **ALL_SPOTS,
        "red:1": SPOT["green"],
        "white": (SPOT["green"][0] + 20.0, SPOT["green"][1] + 60.0),
    }
    positions.pop("green")
    xy = g.respot_position("green", positions, TABLE)
    assert xy[0] == SPOT["green"][0] and xy[1] > SPOT["green"][1]
    assert not any(g.touching(xy, o, R) for o in positions.values())
