"""Every game's table against its rules text and the governing body's figures."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import BILLIARDS_GAMES, billiards
from arbiter.tables import POCKET_IDS, own_size, own_size_name
from datasets.billiards import layouts

GAMES = tuple(s.id for s in BILLIARDS_GAMES)


def test_snooker_table_is_the_wpbsa_table_of_the_rules_text(seed_text):
    t = billiards("snooker").table
    # The text: "3 569 мм на 1 778 мм", baulk line "29″ (737 мм)", D "радиусом 11″ (292 мм)",
    # black spot "12″ (324 мм) от дальнего борта", balls "диаметр 52,5 мм".
    assert "3 569 мм на 1 778 мм" in seed_text
    assert (t.length_mm, t.width_mm) == (3569.0, 1778.0)
    assert "(737 мм) от нижнего борта" in seed_text and t.line("baulk").y_mm == 737.0
    assert "радиусом 11″ (292 мм)" in seed_text and t.arcs[0].radius_mm == 292.0
    assert "(324 мм) от дальнего борта" in seed_text and t.length_mm - t.spots["black"][1] == 324.0
    assert "52,5 мм" in seed_text and t.ball_diameter_mm == 52.5
    assert t.spots["blue"] == (889.0, 3569.0 / 2)
    assert t.spots["pink"][1] == pytest.approx((t.spots["blue"][1] + 3569.0) / 2)
    assert t.spots["brown"] == (889.0, 737.0)
    # "viewed from the baulk end, the spot on the right is the yellow spot"
    assert t.spots["yellow"][0] > t.spots["green"][0]
    assert {math.dist(t.spots[c], t.spots["brown"]) for c in ("yellow", "green")} == {292.0}


def test_snooker_opening_rack_follows_the_text():
    t = billiards("snooker").table
    lay = layouts.opening(billiards("snooker"), np.random.default_rng(0))
    reds = [lay[b] for b in lay if b.startswith("red:")]
    assert len(reds) == 15
    apex = min(reds, key=lambda p: p[1])
    # apex as close to the pink as possible without touching it; base parallel to the top cushion
    gap = math.dist(apex, t.spots["pink"]) - t.ball_diameter_mm
    assert 0 < gap < 2.0
    assert len({round(p[1], 3) for p in reds}) == 5
    for colour in ("yellow", "green", "brown", "blue", "pink", "black"):
        assert lay[colour] == t.spots[colour]
    white = lay["white"]  # in hand: inside the D
    assert white[1] <= 737.0 and math.dist(white, t.spots["brown"]) <= 292.0


def test_straight_pool_rack_and_table(seed_text):
    t = billiards("straight-pool").table
    assert (t.width_mm, t.length_mm, t.ball_diameter_mm) == (1270.0, 2540.0, 57.15)
    assert t.line("head_string").y_mm == 635.0
    # "Стандартная треугольная пирамида с передним шаром (вершиной) на задней отметке, единицей справа и
    # пятеркой слева."
    assert "единицей справа и пятеркой слева" in seed_text
    lay = layouts.opening(billiards("straight-pool"), np.random.default_rng(3))
    balls = {b: lay[b] for b in lay if b != "cue"}
    apex = min(balls.values(), key=lambda p: p[1])
    assert apex == pytest.approx(t.spots["foot"])
    back = max(p[1] for p in balls.values())
    assert lay["1"][1] == pytest.approx(back) and lay["5"][1] == pytest.approx(back)
    assert lay["1"][0] > lay["5"][0]  # one on the right corner, five on the left
    assert lay["cue"][1] <= 635.0


def test_pyramid_pockets_are_barely_wider_than_a_ball():
    t = billiards("pyramid").table
    assert t.ball_diameter_mm == 68.0
    for p in t.pockets:
        slack = p.opening_mm - t.ball_diameter_mm
        assert (4.0 <= slack <= 5.0) if p.corner else (14.0 <= slack <= 18.0)
    lay = layouts.opening(billiards("pyramid"), np.random.default_rng(1))
    apex = min((lay[b] for b in lay if b != "cue"), key=lambda p: p[1])
    assert apex == pytest.approx(t.spots["back"])
    assert lay["cue"][1] <= t.line("home").y_mm


def test_five_pins_marks_of_the_rules_text(seed_text):
    t = billiards("five-pins").table
    assert not t.pockets
    # "верхняя отметка, на расстоянии 100 мм от верхнего короткого борта (на средней линии - 710 мм от
    # длинного борта)", the lag line 710 mm from the bottom cushion, the red on the centre of the top half.
    assert re.search(r"100 мм от верхнего короткого борта", seed_text)
    assert "710 мм от длинного борта" in seed_text
    assert t.width_mm / 2 == 710.0
    assert t.spots["top"] == (710.0, t.length_mm - 100.0)
    assert t.spots["bottom"] == (710.0, 100.0)
    assert t.spots["lag"] == (710.0, 710.0)
    assert t.spots["red"] == (710.0, t.length_mm * 3 / 4)
    assert {p.id for p in t.pins} == {"pin:c", "pin:n", "pin:s", "pin:e", "pin:w"}
    centre = next(p for p in t.pins if p.id == "pin:c")
    assert centre.xy_mm == t.centre_xy_mm
    # no ball can pass between the centre pin and an outer pin
    for p in t.pins:
        if p.id != "pin:c":
            assert math.dist(p.xy_mm, centre.xy_mm) - p.base_diameter_mm < t.ball_diameter_mm


@pytest.mark.parametrize("game", GAMES)
def test_pocket_geometry_is_consistent(game):
    t = billiards(game).table
    if game == "five-pins":
        return
    assert tuple(p.id for p in t.pockets) == POCKET_IDS
    for p in t.pockets:
        assert p.opening_mm > t.ball_diameter_mm
        assert math.hypot(*p.inward) == pytest.approx(1.0)
        x, y = p.mouth_xy_mm
        assert -1e-9 <= x <= t.width_mm + 1e-9 and -1e-9 <= y <= t.length_mm + 1e-9


@pytest.mark.parametrize("game", GAMES)
def test_every_ball_has_a_detector_class(game):
    for b in billiards(game).balls:
        assert billiards(game).look(b).cls in APPEARANCE_CLASSES


def test_unknown_game_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="snooker, straight-pool, pyramid, five-pins"):
        billiards("8-ball")


# ------------------------------------------------------------------------------------------ sizes
SIZES = {"snooker": {"12ft", "10ft", "9ft", "6ft"}, "straight-pool": {"9ft", "8ft", "7ft"},
         "pyramid": {"12ft", "11ft", "10ft", "9ft"}, "five-pins": {"match", "small"}}  # fmt: skip


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_its_catalogue_of_sizes_and_is_its_standard_one(game):
    t = billiards(game).table
    assert {s.name for s in t.sizes} == SIZES[game]
    assert t.size in SIZES[game]
    assert t.table_size(t.size).length_mm == t.length_mm and t.table_size(t.size).width_mm == t.width_mm
    assert t.resized(t.size) is t
    for s in t.sizes:
        assert 1.9 < s.aspect < 2.1, "every table people play on is about 2:1"


@pytest.mark.parametrize(("game", "size"), [(g, s) for g, names in SIZES.items() for s in sorted(names)])
def test_a_resized_table_scales_its_markings_and_keeps_what_the_ball_sizes(game, size):
    base = billiards(game).table
    t = base.resized(size)
    entry = base.table_size(size)
    sx, sy = entry.width_mm / base.width_mm, entry.length_mm / base.length_mm
    assert (t.width_mm, t.length_mm, t.size, t.game) == (entry.width_mm, entry.length_mm, size, game)
    assert (t.ball_diameter_mm, t.cushion_height_mm, t.cushion_width_mm) == (
        base.ball_diameter_mm,
        base.cushion_height_mm,
        base.cushion_width_mm,
    )
    for name, (x, y) in base.spots.items():
        assert t.spots[name] == pytest.approx((x * sx, y * sy))
    for a, b in zip(base.lines, t.lines, strict=True):
        assert b.y_mm == pytest.approx(a.y_mm * sy)
    for a, b in zip(base.arcs, t.arcs, strict=True):
        assert b.radius_mm == pytest.approx(a.radius_mm * sx)
    for a, b in zip(base.pockets, t.pockets, strict=True):
        assert b.opening_mm == a.opening_mm and b.inward == a.inward
        if a.corner:  # the mouth keeps its place on the corner's diagonal
            cx = (
                a.mouth_xy_mm[0] if a.mouth_xy_mm[0] < base.width_mm / 2 else a.mouth_xy_mm[0] - base.width_mm
            )
            assert (b.mouth_xy_mm[0] - (0 if cx >= 0 else t.width_mm)) == pytest.approx(cx)
        else:
            assert b.mouth_xy_mm[1] == pytest.approx(t.length_mm / 2)
    centre = np.array(t.centre_xy_mm)
    for a, b in zip(base.pins, t.pins, strict=True):  # the pin cross keeps its spacing round the centre
        assert np.subtract(b.xy_mm, centre) == pytest.approx(np.subtract(a.xy_mm, base.centre_xy_mm))
    back = t.resized(base.size)  # and back again: the same geometry
    assert (back.width_mm, back.length_mm) == (base.width_mm, base.length_mm)
    for name, xy in base.spots.items():
        assert back.spots[name] == pytest.approx(xy)
    for a, b in zip(base.pockets, back.pockets, strict=True):
        assert b.mouth_xy_mm == pytest.approx(a.mouth_xy_mm)


def test_an_unknown_size_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="sizes: 12ft, 10ft, 9ft, 6ft"):
        billiards("snooker").table.resized("8ft")


def test_a_table_of_its_own_size_is_named_by_its_playing_area():
    """A toy or home table no catalogue has: its playing area in millimetres, length by width, is its name
    (as --table gives it, as the calibration names one it measured); every marking scaled to it."""
    snooker = billiards("snooker").table
    own = snooker.resized("1575x700")
    assert (own.length_mm, own.width_mm, own.size) == (1575.0, 700.0, "1575x700")
    assert own.spots["black"][1] == pytest.approx(
        1575.0 - (snooker.length_mm - snooker.spots["black"][1]) * 1575.0 / snooker.length_mm
    )
    assert own_size_name(1575.2, 699.6) == "1575x700" and own.resized(own.size) is own
    assert own_size("12ft") is None


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("700x1575", "length first"),  # width first
        ("5000x2500", "800 to 4000 mm"),  # no billiard table is that long
        ("1575x1500", "1.4 to 2.8 times"),  # nearly square
    ],
)
def test_an_own_size_that_is_no_billiard_table_is_refused_saying_why(name, message):
    with pytest.raises(ValueError, match=message):
        billiards("snooker").table.resized(name)
