"""The shipped dice model (models/dice_reader.json and its two ONNX files) on a few committed real photos of
each set's held-out test split (tests/data/dice_real, never trained on), scored as 'arbiter dice eval'
scores them. The floors sit a little under what the shipped model does on these photos (57 dice: 53 found,
51 read right; oblique-phone 15 found, topdown-webcam 5: the die its crop alone read, wrongly, as cocked
falls under the operating confidence once the jittered reads doubt it too), so a broken model, a crop or
scale that no longer matches its training, or a broken scorer fails here; the goal's figures are measured
on the whole test split (docs/dice.md). tests/data/dice_real_cases holds dice the reader once read wrong."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import pytest
from typer.testing import CliRunner

from arbiter.games import dice
from cli.main import app
from datasets.dice.real import Convention
from datasets.dice.render import throw_clip, write_throw_clip
from evaluation.dice import evaluate_folder, labels_from_yolo, match_image
from evaluation.dice_bench import BENCH_RECIPE
from pipeline.dice import DiceRunOptions, referee_dice_video
from vision.dice import DEFAULT_DICE_MODEL, DiceReader
from vision.sources import FrameSource

PHOTOS = Path(__file__).parents[1] / "data" / "dice_real"


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader(DEFAULT_DICE_MODEL)


def test_the_shipped_model_reads_real_photos_of_every_set(reader):
    result = evaluate_folder(PHOTOS, reader.read, 0.25)
    sets = result["sets"]
    assert set(sets) == {"topdown-webcam", "oblique-phone", "tray-phone"}
    assert sets["tray-phone"]["matched"] >= 31 and sets["tray-phone"]["accuracy"] >= 0.9  # of 34
    assert sets["topdown-webcam"]["matched"] >= 5  # of 8
    assert sets["oblique-phone"]["matched"] >= 13  # of 15
    assert result["all"]["correct"] >= 47 and result["all"]["precision"] >= 0.9  # of 57


def test_every_reading_is_a_face_or_cocked_with_its_probabilities(reader):
    image = cv2.imread(str(PHOTOS / "tray-phone" / "images" / "IMG_20191208_111246.jpg"))
    readings = reader.read(image)
    assert 15 <= len(readings) <= 25  # 22 dice in the photo
    for r in readings:
        assert r.value in (1, 2, 3, 4, 5, 6, None) and 0 < r.confidence <= 1
        assert len(r.probs) == 7 and sum(r.probs) == pytest.approx(1, abs=1e-4)


def test_arbiter_dice_eval_prints_every_figure_per_set_and_over_all():
    result = CliRunner().invoke(app, ["dice", "eval", str(PHOTOS)])
    assert result.exit_code == 0, result.output
    for name in ("topdown-webcam", "oblique-phone", "tray-phone", "all"):
        assert f"{name}: " in result.output and "read right" in result.output
    assert result.output.count("true\\read") == 4 and result.output.count("99% recall") == 4


def _unsure_count(photo: Path, unsure_below: str) -> tuple[int, int]:
    result = CliRunner().invoke(app, ["dice", "read", str(photo), "--json", "--unsure-below", unsure_below])
    assert result.exit_code == 0, result.output
    dice_ = json.loads(result.output)["dice"]
    return len(dice_), sum(d["unsure"] for d in dice_)


def test_arbiter_dice_read_reports_more_doubts_as_the_unsure_share_is_raised():
    photo = PHOTOS / "tray-phone" / "images" / "IMG_20191208_111246.jpg"
    counts = [_unsure_count(photo, u) for u in ("0", "0.9", "0.999")]
    found, doubted = [n for n, _ in counts], [u for _, u in counts]
    assert len(set(found)) == 1  # the same dice, only their doubts differ
    assert doubted[0] <= doubted[1] < doubted[2]
    bad = CliRunner().invoke(app, ["dice", "read", str(photo), "--unsure-below", "1.5"])
    assert bad.exit_code != 0 and "unsure_below must lie in [0, 1]" in bad.output


CASES = Path(__file__).parents[1] / "data" / "dice_real_cases"


@pytest.mark.parametrize(
    ("photo", "line"),
    [
        ("dice_432_jpg.rf.c18674ab3e9821eb0f762a8e1e10b5a0", 8),  # an oblique 6, read as 4 from its crop
        ("IMG_20191208_112404", 13),  # a tray's 3, read as 1 from its crop
    ],
)
def test_the_jittered_read_gets_the_face_the_crop_alone_got_wrong(
    reader: DiceReader, photo: str, line: int
) -> None:
    """The cases are the shipped model's own (chosen again for each model shipped): the crop alone reads
    them wrong, so the jittered read is what gets them right."""
    image = cv2.imread(str(CASES / f"{photo}.jpg"))
    assert image is not None
    h, w = image.shape[:2]
    labels = labels_from_yolo((CASES / f"{photo}.txt").read_text(), w, h)

    def read_by(read: DiceReader) -> int | None:
        readings = read.read(image)
        matched = match_image(readings, labels, Convention.IOU)
        return {j: r.value for r, j in zip(readings, matched, strict=True) if j is not None}.get(line - 1)

    alone = DiceReader(DEFAULT_DICE_MODEL, replace(reader.config, jitter=0.0))
    assert read_by(alone) not in (None, labels[line - 1].value)
    assert read_by(reader) == labels[line - 1].value


@pytest.mark.slow
def test_the_shipped_model_rolls_every_throw_of_a_rendered_clip_of_five_dice(tmp_path):
    """The benchmark's clip (5 dice at 25 degrees off vertical, 3 throws), at 15 fps: one roll per settled
    throw, every face and the dice thrown right. The face reader gives these plainly read dice up to one
    chance in nine of leaning; counted against the face, that marked two of them unsure in every throw, and
    the clip gave no roll at all (``DiceReaderConfig.cocked_doubt``)."""
    clip = throw_clip(replace(BENCH_RECIPE, fps=15.0))
    video = write_throw_clip(clip, tmp_path / "clip")
    options = DiceRunOptions(table_px=clip.table_px)
    result = referee_dice_video(FrameSource(video), dice("yacht"), ["A", "B"], tmp_path / "run", options)
    assert [sorted(d.value for d in roll.dice) for roll in result.rolls] == [
        sorted(t.values.values()) for t in clip.throws
    ]
    assert [len(roll.thrown) for roll in result.rolls] == [len(t.thrown) for t in clip.throws]
    assert result.issues == []
