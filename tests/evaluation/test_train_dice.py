"""Training the dice reader end to end on a handful of images for one step: data, both stages in their own
processes, the ONNX models, the record beside them and its figures, read back by the run-time reader.
Training needs torch (the train extra), which CI lacks: there the test is skipped and the command line's
refusal is tested instead."""

from __future__ import annotations

import importlib.util
import json
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from dice_fakes import fake_root
from typer.testing import CliRunner

from cli.main import app
from datasets.dice.real import SplitRecipe
from datasets.dice.training_data import DataRecipe, default_renders
from evaluation.dice_recipes import DiceTrainRecipe, FacesRecipe, FinderRecipe, faces_recipe, finder_recipe
from evaluation.train_dice import reader_settings, train_dice
from vision.dice import DiceReader, DiceReaderConfig
from vision.yolo import MODELS_DIR

HAS_TORCH = importlib.util.find_spec("torch") is not None
PHOTOS = Path(__file__).parents[1] / "data" / "dice_real"  # held-out test photos of every set


@pytest.mark.skipif(not HAS_TORCH, reason="training needs torch (pip install -e '.[train]'); CI has none")
def test_training_runs_end_to_end_for_two_steps_with_the_finders_mistakes(tmp_path):
    """Two steps each: the finder's checkpoint after its first, the face reader mining the training photos
    with it before its second (a stale checkpoint of an earlier run is not used)."""
    root = tmp_path / "real"
    fake_root(root)
    (tmp_path / "work" / "stages").mkdir(parents=True)
    (tmp_path / "work" / "stages" / "finder_checkpoint.onnx").write_bytes(b"stale")
    recipe = DiceTrainRecipe(
        DataRecipe(split=SplitRecipe(val=0.2, test=0.2), renders=replace(default_renders(), count=2)),
        FinderRecipe(iters=2, batch=2, patch=128, checkpoint_at=1),
        FacesRecipe(iters=2, batch=4, eval_every=1, hard_from=1),
    )
    lines: list[str] = []
    record = train_dice(recipe, tmp_path / "work", tmp_path / "models", log=lines.append, real_root=root)
    on_disk = json.loads((tmp_path / "models" / "dice_reader.json").read_text())
    assert on_disk == json.loads(json.dumps(record)) and record["recipe"]["finder"]["iters"] == 2
    assert any("finder checkpoint at step 1" in line for line in lines)
    assert any("the finder's mistakes on the training photos" in line for line in lines)
    assert set(record["faces_hard_negatives_mined"]) == {"topdown-webcam", "oblique-phone", "tray-phone"}
    assert set(record["figures"]) == {"val", "test"}
    assert set(record["figures"]["test"]["sets"]) == {"topdown-webcam", "oblique-phone", "tray-phone"}
    assert record["data"]["renders"]["train"]["images"] == 2 and record["seconds"]["total"] > 0
    assert any("finder step 0" in line for line in lines) and any("faces step 0" in line for line in lines)
    reader = DiceReader(tmp_path / "models", DiceReaderConfig(confidence=0.01, min_score=0.01))
    for reading in reader.read(np.full((240, 320, 3), 128, np.uint8)):
        assert len(reading.probs) == 7


@pytest.mark.skipif(not HAS_TORCH, reason="training needs torch (pip install -e '.[train]'); CI has none")
def test_arbiter_dice_train_runs_end_to_end_on_a_handful_of_photos(tmp_path):
    root = tmp_path / "real"
    fake_root(root)
    args = ["dice", "train", "--real", str(root), "--work", str(tmp_path / "work")]
    args += ["--models", str(tmp_path / "models"), "--renders", "2", "--limit", "3"]
    result = CliRunner().invoke(app, [*args, "--finder-iters", "1", "--face-iters", "1"])
    assert result.exit_code == 0, result.output
    record = json.loads((tmp_path / "models" / "dice_reader.json").read_text())
    assert record["recipe"]["finder"]["iters"] == 1 and record["seeds"]["finder"] == 0
    assert record["seconds"]["total"] > 0 and set(record["figures"]) == {"val", "test"}
    assert record["command"].startswith("arbiter dice train")
    assert DiceReader(tmp_path / "models").read(np.full((240, 320, 3), 128, np.uint8)) is not None


@pytest.mark.skipif(HAS_TORCH, reason="this Python has torch: the refusal cannot be seen here")
def test_training_without_torch_says_how_to_get_it(tmp_path):
    result = CliRunner().invoke(app, ["dice", "train", "--work", str(tmp_path), "--models", str(tmp_path)])
    assert result.exit_code == 2 and "pip install -e '.[train]'" in result.output


def test_the_cost_of_a_training_run_is_told_before_it_starts(tmp_path):
    result = CliRunner().invoke(app, ["dice", "train", "--estimate", "--finder-iters", "10"])
    assert result.exit_code == 0 and "min on two quiet cores" in result.output and "10 steps" in result.output


def test_the_record_says_every_setting_the_reader_reads_with():
    """The record's ``reader.defaults`` names every run-time setting, the jittered read and the weight of
    the die's doubt included, so a record says how its figures were read."""
    defaults = reader_settings(1.0, 512)["defaults"]
    assert defaults == DiceReaderConfig().__dict__
    assert {"jitter", "die_power", "confidence", "flip", "refine"} <= set(defaults)


def test_the_steps_of_a_recipe_move_its_checkpoint_and_hard_negatives_with_them():
    base = DiceTrainRecipe()
    half = base.with_steps(base.finder.iters // 2, base.faces.iters // 2)
    assert half.finder.checkpoint_at == base.finder.checkpoint_at // 2
    assert half.faces.hard_from == base.faces.hard_from // 2
    tiny = base.with_steps(1, 1)
    assert tiny.finder.checkpoint_at == 0 and tiny.faces.hard_from == 0


def test_each_stage_reads_its_recipe_back_as_it_was_written():
    """The stages run in processes of their own and get their recipes as JSON, where tuples become lists."""
    recipe = DiceTrainRecipe(faces=FacesRecipe(widths=(8, 16, 32, 64), bf16=False))
    sent = json.loads(json.dumps(recipe.to_dict()))
    assert faces_recipe(sent["faces"]) == recipe.faces
    assert finder_recipe(sent["finder"]) == recipe.finder


def test_a_face_reader_waiting_for_a_checkpoint_the_finder_never_makes_is_refused():
    with pytest.raises(ValueError, match="checkpoint_at"):
        DiceTrainRecipe(
            finder=FinderRecipe(iters=100, checkpoint_at=200), faces=FacesRecipe(iters=10, hard_from=5)
        )


def test_arbiter_dice_rescore_scores_the_record_again_with_the_readers_defaults(tmp_path):
    """After the operating point is chosen on the validation photos, the record's figures and defaults are
    those of the reader as it now reads; the record says it was rescored and what the defaults were."""
    models = tmp_path / "models"
    models.mkdir()
    for name in ("dice_finder.onnx", "dice_faces.onnx", "dice_reader.json"):
        shutil.copyfile(MODELS_DIR / name, models / name)
    record = json.loads((models / "dice_reader.json").read_text())
    record["reader"]["defaults"] = {**record["reader"]["defaults"], "confidence": 0.5}
    (models / "dice_reader.json").write_text(json.dumps(record))
    (tmp_path / "work" / "data" / "eval").mkdir(parents=True)
    (tmp_path / "work" / "data" / "eval" / "test").symlink_to(PHOTOS, target_is_directory=True)
    args = ["dice", "rescore", "--models", str(models), "--work", str(tmp_path / "work")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    again = json.loads((models / "dice_reader.json").read_text())
    assert again["reader"]["defaults"] == DiceReaderConfig().__dict__
    assert again["rescored"]["defaults_before"]["confidence"] == 0.5
    assert (
        set(again["figures"]) == {"test"}
        and again["figures"]["test"]["threshold"] == DiceReaderConfig().confidence
    )


def test_arbiter_dice_rescore_without_the_training_photos_says_where_they_should_be(tmp_path):
    result = CliRunner().invoke(app, ["dice", "rescore", "--work", str(tmp_path / "nowhere")])
    assert result.exit_code != 0 and "data/eval" in result.output and "--work" in result.output
