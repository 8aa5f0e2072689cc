"""Rendered photos refereed as ``arbiter run FOLDER`` does (``evaluation.rendered_photos``): the stills
written from a clip set, the scoring of one photo, and the bundled sample refereed end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from evaluation.rendered_photos import evaluate_rendered_photos, score_photo, totals, write_stills

SAMPLE = Path(__file__).resolve().parents[2] / "samples/billiards/snooker"


def test_a_photo_s_balls_are_matched_nearest_first_within_a_radius() -> None:
    truth = {
        "red:1": (100.0, 100.0),
        "red:2": (160.0, 100.0),
        "pink": (500.0, 500.0),
        "black": (900.0, 900.0),
    }
    run = {"red:7": (110.0, 100.0), "red:8": (150.0, 100.0), "red:9": (505.0, 500.0), "white": (50.0, 1500.0)}
    score = score_photo("set", "p.png", truth, run, radius_mm=26.25)
    assert (score.truth, score.found, score.named, score.false) == (4, 3, 2, 1)
    assert score.missed == ("black",) and score.misnamed == ("pink -> red:9",)


def test_the_first_and_last_frame_of_every_shot_are_written_with_their_balls(tmp_path) -> None:
    game, truth = write_stills(SAMPLE, tmp_path)
    assert game == "snooker"
    assert sorted(truth) == ["shot_000_first.png", "shot_000_last.png"]
    assert all((tmp_path / name).exists() for name in truth)
    frames = (SAMPLE / "shot_000/frames.jsonl").read_text().splitlines()
    first = json.loads(frames[0])["balls"]
    assert set(truth["shot_000_first.png"]) == {
        b for b, s in first.items() if not s["pocketed"] and not s["hidden"]
    }


@pytest.mark.slow
def test_the_bundled_sample_s_photos_are_refereed_and_scored(tmp_path) -> None:
    """The sample break-off's two stills: the table found and nearly every ball found and named."""
    rows = evaluate_rendered_photos([SAMPLE], tmp_path)
    t = totals(rows)
    assert t["photos"] == 2 and t["recall"] >= 0.9 and t["named_right"] >= 0.9 and t["false"] <= 1
    assert (tmp_path / "snooker/run/tracks.jsonl").exists()


def test_a_folder_that_is_no_clip_set_is_said(tmp_path) -> None:
    result = CliRunner().invoke(
        app, ["eval", "rendered-photos", str(tmp_path), "--work", str(tmp_path / "w")]
    )
    assert result.exit_code != 0 and "no shot_*/video.mp4" in result.output
