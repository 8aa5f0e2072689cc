"""Shot diagrams (record.diagram): the table to scale, balls at rest, paths from tracks, contacts, pots."""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET

import pytest
from record_helper import SAMPLE, snooker_match

from adjudication.engines import engine_for
from arbiter import contract as c
from arbiter.games import billiards, game
from record.diagram import position_at, read_tracks, shot_svg, split_shots

SVG = "{http://www.w3.org/2000/svg}"
TABLE = billiards("snooker").table
WHITE_FROM, WHITE_TO = (300.0, 500.0), (800.0, 1500.0)
RED_FROM = (400.0, 2000.0)
TL = TABLE.pocket("tl").mouth_xy_mm

SHOT: list[c.JsonLine] = [
    c.ShotStart(t=1.0, ball="white"),
    c.BallBall(t=1.5, balls=("white", "red:1")),
    c.Cushion(t=2.0, ball="white", side="left"),
    c.Pot(t=2.5, ball="red:1", pocket="tl"),
    c.ShotEnd(t=4.0, positions={"white": WHITE_TO, "black": (889.0, 3245.0), "pink": (889.0, 2676.75)}),
    c.Decision(
        shot=1,
        player="A",
        points={"A": 1},
        score={"A": 1, "B": 0},
        next="A",
        respot=(c.Respot("blue", (889.0, 1784.5)),),
    ),
]


def _lerp(a, b, w):
    return (a[0] + w * (b[0] - a[0]), a[1] + w * (b[1] - a[1]))


def _tracks() -> list[tuple[float, dict]]:
    """60 fps around the shot: the white rolls from 1 s to 3 s, red:1 from 1.5 s into tl at 2.5 s."""
    frames = []
    for i in range(55, 247):
        t = i / 60
        balls = {
            "white": _lerp(WHITE_FROM, WHITE_TO, min(max((t - 1.0) / 2.0, 0.0), 1.0)),
            "black": (889.0, 3245.0),
            "pink": (889.0, 2676.75),
        }
        if t < 2.5:
            balls["red:1"] = _lerp(RED_FROM, TL, min(max((t - 1.5) / 1.0, 0.0), 1.0))
        frames.append((t, balls))
    return frames


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _all(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("class") == cls]


def _xy(e: ET.Element) -> tuple[float, float]:
    """Back from the drawing (y to the right, x down) to table millimetres."""
    return float(e.get("cy")), float(e.get("cx"))


def _hex(ball: str) -> str:
    return "#{:02x}{:02x}{:02x}".format(*billiards("snooker").look(ball).rgb)


def test_the_table_is_drawn_landscape_to_scale_with_pockets_and_spots():
    root = _parse(shot_svg(billiards("snooker"), SHOT, width_px=600))
    assert root.tag == f"{SVG}svg"
    _, _, view_w, view_h = (float(v) for v in root.get("viewBox").split())
    assert view_w > view_h and int(root.get("width")) == 600
    assert int(root.get("height")) == round(600 * view_h / view_w)
    (cloth,) = _all(root, "cloth")
    assert float(cloth.get("width")) == TABLE.length_mm and float(cloth.get("height")) == TABLE.width_mm
    pockets = {e.get("data-pocket"): e for e in _all(root, "pocket")}
    assert set(pockets) == {"bl", "br", "ml", "mr", "tl", "tr"}
    for p in TABLE.pockets:
        assert _xy(pockets[p.id]) == pytest.approx(p.mouth_xy_mm, abs=0.01)
        assert float(pockets[p.id].get("r")) == pytest.approx(p.opening_mm / 2, abs=0.01)
    spots = {e.get("data-spot"): _xy(e) for e in _all(root, "spot")}
    assert spots["black"] == pytest.approx(TABLE.spots["black"], abs=0.01)
    assert [e.get("data-line") for e in _all(root, "mark") if e.get("data-line")] == ["baulk"]
    assert [e.get("data-arc") for e in _all(root, "mark") if e.get("data-arc")] == ["D"]


def test_a_circle_per_ball_at_rest_in_its_colour():
    root = _parse(shot_svg(billiards("snooker"), SHOT))
    balls = {e.get("data-ball"): e for e in _all(root, "ball")}
    assert set(balls) == {"white", "black", "pink"}  # red:1 was potted: not at rest on the table
    for ball, xy in SHOT[4].positions.items():
        assert balls[ball].get("fill") == _hex(ball)
        assert _xy(balls[ball]) == pytest.approx(xy, abs=0.01)
        assert float(balls[ball].get("r")) == pytest.approx(TABLE.ball_radius_mm, abs=0.01)
    (respot,) = _all(root, "respot")
    assert respot.get("data-ball") == "blue" and _xy(respot) == pytest.approx((889.0, 1784.5), abs=0.01)


def test_pots_are_marked_at_their_pocket_with_or_without_tracks():
    for tracks in (None, _tracks()):
        root = _parse(shot_svg(billiards("snooker"), SHOT, tracks))
        (pot,) = _all(root, "pot")
        assert (pot.get("data-ball"), pot.get("data-pocket")) == ("red:1", "tl")
        assert _xy(pot) == pytest.approx(TL, abs=0.01) and pot.get("stroke") == _hex("red:1")


def test_a_path_per_moving_ball_from_the_tracks():
    assert not _all(_parse(shot_svg(billiards("snooker"), SHOT)), "path")  # no tracks, no paths
    root = _parse(shot_svg(billiards("snooker"), SHOT, _tracks()))
    paths = {e.get("data-ball"): e for e in _all(root, "path")}
    assert set(paths) == {"white", "red:1"}  # black and pink never moved
    white = [tuple(float(v) for v in p.split(",")) for p in paths["white"].get("points").split()]
    assert (white[0][1], white[0][0]) == pytest.approx(WHITE_FROM, abs=0.01)
    assert (white[-1][1], white[-1][0]) == pytest.approx(WHITE_TO, abs=0.01)
    red_end = paths["red:1"].get("points").split()[-1].split(",")
    assert (float(red_end[1]), float(red_end[0])) == pytest.approx(TL, abs=0.01)  # into its pocket
    assert paths["white"].get("stroke") == _hex("white")
    starts = {e.get("data-ball"): _xy(e) for e in _all(root, "start")}
    assert starts["white"] == pytest.approx(WHITE_FROM, abs=0.01)


def test_contacts_and_cushion_hits_sit_where_the_tracks_put_the_balls():
    root = _parse(shot_svg(billiards("snooker"), SHOT, _tracks()))
    (contact,) = _all(root, "contact")
    white = _lerp(WHITE_FROM, WHITE_TO, 0.25)  # t = 1.5
    expected = ((white[0] + RED_FROM[0]) / 2, (white[1] + RED_FROM[1]) / 2)
    assert _xy(contact) == pytest.approx(expected, abs=0.5)
    (hit,) = _all(root, "cushion-hit")
    x, y = float(hit.get("y")), float(hit.get("x"))
    assert (x, y) == pytest.approx(_lerp(WHITE_FROM, WHITE_TO, 0.5), abs=0.5)


def test_five_pins_draws_its_pins_and_no_pockets():
    shot = [c.ShotStart(t=0.0, ball="white"), c.ShotEnd(t=1.0, positions={"white": (700.0, 500.0)})]
    root = _parse(shot_svg(billiards("five-pins"), shot))
    assert len(_all(root, "pin")) == 5 and not _all(root, "pocket")
    (ball,) = _all(root, "ball")
    assert ball.get("fill") == "#{:02x}{:02x}{:02x}".format(*billiards("five-pins").look("white").rgb)


def test_an_unknown_ball_is_grey_and_a_dice_game_has_no_table():
    root = _parse(shot_svg(billiards("snooker"), [c.ShotEnd(t=1.0, positions={"ghost": (100.0, 100.0)})]))
    assert _all(root, "ball")[0].get("fill") == "#969696"
    with pytest.raises(ValueError, match="unknown billiards game 'yacht'"):
        shot_svg(billiards("yacht"), [])


def test_split_shots_groups_inputs_shot_and_decision():
    header, lines = snooker_match(breaks=1)
    decided = []
    engine = engine_for(game("snooker"))
    state = engine.start(header)
    for line in lines:
        state, decisions = engine.step(state, line)
        decided += [line, *decisions]
    groups = split_shots(decided)
    assert len(groups) == 3
    for group in groups:
        starts = [i for i, x in enumerate(group) if isinstance(x, c.ShotStart)]
        assert len(starts) == 1 and all(
            not isinstance(x, c.ShotStart | c.ShotEnd) for x in group[: starts[0]]
        )
    assert isinstance(groups[1][0], c.Choice)  # B's choice after A's foul belongs to B's shot
    assert isinstance(groups[2][0], c.Declare)  # the nomination belongs to the shot it is for
    assert [[d.shot for d in g if isinstance(d, c.Decision)] for g in groups] == [[1], [2], [3, 3]]
    assert isinstance(groups[-1][-2], c.Concede)  # the concession after the last shot joins it
    assert sum(len(g) for g in groups) == len(decided)


def test_split_shots_pairs_decisions_recorded_at_the_end_by_number():
    header, lines = snooker_match(breaks=1, concede=False)
    engine = engine_for(game("snooker"))
    state, decisions = engine.start(header), []
    for line in lines:
        state, made = engine.step(state, line)
        decisions += made
    groups = split_shots([*lines, *decisions])
    assert [[d.shot for d in g if isinstance(d, c.Decision)] for g in groups] == [[1], [2], [3]]
    assert split_shots([c.Roll(t=1.0, player="A", dice=(c.Die("d1", 2),), thrown=("d1",))]) == []


def test_read_tracks_takes_run_tracks_and_synthetic_truth_frames(tmp_path):
    path = tmp_path / "tracks.jsonl"
    path.write_text(
        json.dumps({"frame": 1, "t": 0.5, "balls": {"white": [1.0, 2.0]}})
        + "\n\n"
        + json.dumps({"frame": 0, "t": 0.25, "balls": {"white": [0.0, 0.0]}})
        + "\n"
    )
    assert read_tracks(path) == [(0.25, {"white": (0.0, 0.0)}), (0.5, {"white": (1.0, 2.0)})]
    truth = read_tracks(SAMPLE.parent / "frames.jsonl")
    assert len(truth) > 100 and "white" in truth[0][1] and "white" not in truth[-1][1]  # in off: gone
    path.write_text('{"frame": 0, "t": 0.1, "balls": {"white": [1.0]}}\n')
    with pytest.raises(ValueError, match="line 1: not a tracks line"):
        read_tracks(path)


def test_position_at_interpolates_between_the_frames_that_saw_the_ball():
    frames = [(0.0, {"a": (0.0, 0.0)}), (1.0, {"b": (5.0, 5.0)}), (2.0, {"a": (10.0, 20.0)})]
    assert position_at(frames, "a", 0.5) == pytest.approx((2.5, 5.0))
    assert position_at(frames, "a", 3.0) == (10.0, 20.0) and position_at(frames, "a", -1.0) == (0.0, 0.0)
    assert position_at(frames, "b", 1.0) == (5.0, 5.0) and position_at(frames, "z", 1.0) is None
    assert math.isclose(position_at(frames, "a", 2.0)[1], 20.0)
