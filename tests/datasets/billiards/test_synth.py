"""The synthetic world end to end: truth against the engine, frames against the camera, seeds, files."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
import yaml
from typer.testing import CliRunner

from arbiter import contract as c
from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import BILLIARDS_GAMES, billiards
from cli.main import app
from datasets.billiards.camera import Camera
from datasets.billiards.synth import SynthConfig, simulate_shot, synth_billiards

GAMES = tuple(s.id for s in BILLIARDS_GAMES)

SMALL = {"fps": 30.0, "width": 480, "height": 270, "yolo_every": 15}


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> tuple[SynthConfig, Path]:
    cfg = SynthConfig(game="snooker", shots=3, seed=21, video=False, **SMALL)
    out = tmp_path_factory.mktemp("snooker")
    synth_billiards(cfg, out)
    return cfg, out


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_truth_is_the_engines_event_list(world):
    cfg, out = world
    engine_kinds = {
        "stick_ball": "shot_start",
        "ball_ball": "ball_ball",
        "ball_linear_cushion": "cushion",
        "ball_circular_cushion": "cushion",
        "ball_pocket": "pocket",
    }
    pocket_ids = {"lb": "bl", "rb": "br", "lc": "ml", "rc": "mr", "lt": "tl", "rt": "tr"}
    for i in range(cfg.shots):
        shot = simulate_shot(cfg, i)
        engine = [e for e in shot.trace._system.events if e.event_type.value in engine_kinds]
        header, events = c.read_stream(out / f"shot_{i:03d}" / "truth.jsonl")
        assert header.game == "snooker"
        body = [e for e in events if not isinstance(e, c.ShotEnd)]
        assert isinstance(events[-1], c.ShotEnd)
        assert len(body) == len(engine)
        for ev, line in zip(engine, body, strict=True):
            assert engine_kinds[ev.event_type.value] == line.TYPE
            assert line.t == pytest.approx(shot.t0 + ev.time, abs=1e-6)
            if line.TYPE == "ball_ball":
                assert set(line.balls) == set(ev.ids)
            elif line.TYPE == "pocket":
                assert (line.ball, line.pocket) == (ev.ids[0], pocket_ids[ev.ids[1]])
            elif line.TYPE == "shot_start":
                assert line.ball == ev.ids[1] == "white"
            else:
                assert line.ball == ev.ids[0]
        assert events[-1].t == pytest.approx(shot.t0 + shot.trace.duration_s, abs=1e-6)
        final = shot.trace.final_positions()
        assert set(events[-1].positions) == set(final)
        for ball, xy in events[-1].positions.items():
            assert xy == pytest.approx(final[ball], abs=0.006)


def test_frames_reproject_through_the_recorded_camera(world):
    cfg, out = world
    r = billiards(cfg.game).table.ball_radius_mm
    for i in range(cfg.shots):
        shot_dir = out / f"shot_{i:03d}"
        camera = Camera.from_dict(json.loads((shot_dir / "camera.json").read_text()))
        frames = _lines(shot_dir / "frames.jsonl")
        assert len(frames) == int(
            np.ceil(json.loads((shot_dir / "shot.json").read_text())["clip_s"] * cfg.fps)
        )
        mm, px = [], []
        for f in frames[::5]:
            for b in f["balls"].values():
                if b["xy_px"] is not None:
                    mm.append(b["xy_mm"])
                    px.append(b["xy_px"])
        mm, px = np.array(mm), np.array(px)
        projected = camera.project(np.column_stack([mm, np.full(len(mm), r)]))
        assert np.abs(projected - px).max() < 1.0
        back = camera.px_to_table(px, r)
        back_px = camera.project(np.column_stack([back, np.full(len(back), r)]))
        assert np.abs(back_px - px).max() < 1.0
        mm_per_px = billiards(cfg.game).table.length_mm / cfg.width
        assert np.abs(back - mm).max() < mm_per_px


def test_frames_agree_with_the_truth(world):
    _, out = world
    shot_dir = out / "shot_000"
    frames = _lines(shot_dir / "frames.jsonl")
    _, events = c.read_stream(shot_dir / "truth.jsonl")
    start = next(e for e in events if isinstance(e, c.ShotStart))
    end = events[-1]
    before = [f for f in frames if f["t"] < start.t - 0.05]
    after = [f for f in frames if f["t"] > end.t + 0.05]
    assert before and after
    assert not any(b["moving"] for f in before + after for b in f["balls"].values())
    assert any(b["moving"] for f in frames for b in f["balls"].values())
    potted = {e.ball for e in events if isinstance(e, c.Pot)}
    assert {k for k, b in after[-1]["balls"].items() if b["pocketed"]} == potted
    for ball, xy in end.positions.items():
        assert after[-1]["balls"][ball]["xy_mm"] == pytest.approx(list(xy), abs=0.01)


def test_the_same_seed_gives_byte_identical_output(world, tmp_path):
    cfg, out = world
    again = tmp_path / "again"
    synth_billiards(cfg, again)
    for i in range(cfg.shots):
        for name in ("truth.jsonl", "frames.jsonl", "shot.json", "camera.json", "look.json"):
            assert (out / f"shot_{i:03d}" / name).read_bytes() == (
                again / f"shot_{i:03d}" / name
            ).read_bytes()
        images = sorted((out / f"shot_{i:03d}" / "yolo" / "images").iterdir())
        assert images
        for img in images:
            assert img.read_bytes() == (again / f"shot_{i:03d}" / "yolo" / "images" / img.name).read_bytes()
    other = tmp_path / "other"
    synth_billiards(replace(cfg, seed=cfg.seed + 1, shots=1), other)
    assert (other / "shot_000" / "truth.jsonl").read_bytes() != (
        out / "shot_000" / "truth.jsonl"
    ).read_bytes()


def test_yolo_export_is_ready_for_ultralytics(world):
    cfg, out = world
    data = yaml.safe_load((out / "data.yaml").read_text())
    assert list(data["names"].values()) == list(APPEARANCE_CLASSES)
    for split in ("train", "val"):
        for d in data[split]:
            assert (out / d).is_dir()
    assert not set(data["train"]) & set(data["val"])
    n_labels = 0
    for i in range(cfg.shots):
        labels = sorted((out / f"shot_{i:03d}" / "yolo" / "labels").glob("*.txt"))
        images = sorted((out / f"shot_{i:03d}" / "yolo" / "images").glob("*.jpg"))
        assert [p.stem for p in labels] == [p.stem for p in images]
        for path in labels:
            for line in path.read_text().splitlines():
                cls, *box = line.split()
                assert 0 <= int(cls) < len(APPEARANCE_CLASSES)
                cx, cy, w, h = map(float, box)
                assert 0 <= cx <= 1 and 0 <= cy <= 1 and 0 < w < 0.2 and 0 < h < 0.2
                n_labels += 1
        img = cv2.imread(str(images[0]))
        assert img.shape == (cfg.height, cfg.width, 3)
    assert n_labels > 0


@pytest.mark.parametrize("game", GAMES)
def test_the_command_writes_every_file_for_every_game(game, tmp_path):
    out = tmp_path / game
    result = CliRunner().invoke(
        app,
        [
            "synth",
            "billiards",
            "--game",
            game,
            "--shots",
            "1",
            "--seed",
            "3",
            "--fps",
            "30",
            "--size",
            "320x180",
            "--blur",
            "1",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    shot = out / "shot_000"
    for name in ("truth.jsonl", "frames.jsonl", "video.mp4", "camera.json", "look.json", "shot.json"):
        assert (shot / name).is_file(), name
    assert (out / "data.yaml").is_file()
    cap = cv2.VideoCapture(str(shot / "video.mp4"))
    n = 0
    while cap.read()[0]:
        n += 1
    assert n == len((shot / "frames.jsonl").read_text().splitlines())
    header, events = c.read_stream(shot / "truth.jsonl")
    assert header.game == game and isinstance(events[0], c.ShotStart) and isinstance(events[-1], c.ShotEnd)
    if game == "five-pins":
        frames = _lines(shot / "frames.jsonl")
        assert set(frames[0]["pins"]) == {"pin:c", "pin:n", "pin:s", "pin:e", "pin:w"}
        downs = {e.pin for e in events if isinstance(e, c.PinDown)}
        assert {p for p, v in frames[-1]["pins"].items() if v["down"]} == downs


def test_yolo_every_0_writes_no_images_and_the_same_clip(tmp_path):
    args = ["synth", "billiards", "--game", "snooker", "--seed", "3", "--fps", "30", "--size", "320x180"]
    for name, every in (("none", "0"), ("some", "5")):
        result = CliRunner().invoke(
            app, [*args, "--blur", "1", "--yolo-every", every, "--out", str(tmp_path / name)]
        )
        assert result.exit_code == 0, result.output
    assert not list((tmp_path / "none" / "shot_000" / "yolo" / "images").iterdir())
    assert list((tmp_path / "some" / "shot_000" / "yolo" / "images").iterdir())
    for name in ("truth.jsonl", "frames.jsonl"):
        assert (tmp_path / "none" / "shot_000" / name).read_bytes() == (
            tmp_path / "some" / "shot_000" / name
        ).read_bytes()


def test_a_smaller_table_is_played_on_filmed_and_named_in_the_truth(tmp_path):
    cfg = SynthConfig(game="snooker", shots=1, seed=5, table="6ft", video=False, **SMALL)
    synth_billiards(cfg, tmp_path)
    shot = tmp_path / "shot_000"
    header, _ = c.read_stream(shot / "truth.jsonl")
    assert header.table == "6ft"
    assert json.loads((shot / "shot.json").read_text())["table"] == "6ft"
    table = billiards("snooker").resized("6ft").table
    assert (table.length_mm, table.width_mm) == (1785.0, 889.0)
    first = _lines(shot / "frames.jsonl")[0]["balls"]
    xy = np.array([b["xy_mm"] for b in first.values() if not b["pocketed"]])
    r = table.ball_radius_mm
    assert (xy >= r - 1e-6).all() and (xy[:, 0] <= table.width_mm - r + 1e-6).all()
    assert (xy[:, 1] <= table.length_mm - r + 1e-6).all()
    assert xy[:, 1].max() > 0.6 * table.length_mm  # the reds' triangle is at the 6 ft table's top end
    # Fifteen full-size reds racked behind the pink reach the black on a 6 ft table: no break in the mix.
    assert "break" not in cfg.intents and "break" in SynthConfig(game="snooker").intents
    # The camera frames the smaller table: its corners project inside the frame.
    camera = Camera.from_dict(json.loads((shot / "camera.json").read_text()))
    corners = camera.project(np.array([[0, 0, 0], [table.width_mm, table.length_mm, 0]], float))
    assert (corners >= 0).all() and (corners[:, 0] < cfg.width).all() and (corners[:, 1] < cfg.height).all()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "carom"], "unknown billiards game"),
        (["--game", "snooker", "--size", "big"], "--size must look like"),
        (["--game", "snooker", "--shots", "0"], "shots must be at least 1"),
        (["--game", "snooker", "--blur", "2"], "blur_samples must be odd"),
        (["--game", "snooker", "--yolo-every", "-1"], "yolo_every must be 0 (no YOLO images) or more"),
        (["--game", "snooker", "--intent", "jump"], "unknown intents ['jump']; choose from break, pot"),
        (["--game", "snooker", "--table", "8ft"], "12ft, 10ft, 9ft, 6ft"),
        (["--game", "snooker", "--table", "6ft", "--intent", "break"], "break does not fit a 6ft table"),
    ],
)
def test_bad_arguments_get_a_clear_message(args, message, tmp_path):
    result = CliRunner().invoke(app, ["synth", "billiards", *args, "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert message in result.output
