"""The dice reader's training cache: real training and validation photos with whole-die boxes, renders with
their cocked dice, the held-out photos only in the eval folders, and a cache reused when its recipe holds."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from dice_fakes import fake_root

from datasets.dice.real import SETS, SplitRecipe
from datasets.dice.training_data import (
    INDEX,
    RENDER_SET,
    DataRecipe,
    build_training_data,
    default_renders,
    training_images,
)


def test_the_cache_holds_train_and_val_never_test_and_is_reused(tmp_path):
    root, cache = tmp_path / "real", tmp_path / "cache"
    fake_root(root)
    recipe = DataRecipe(split=SplitRecipe(val=0.2, test=0.2), renders=replace(default_renders(), count=3))
    lines: list[str] = []
    index = build_training_data(recipe, cache, processes=1, log=lines.append, root=root)
    listed = {e["path"] for e in index["images"]}
    for name in SETS:
        held_out = {p.name for p in (cache / "eval" / "test" / name / "images").iterdir()}
        assert held_out and not any(path.endswith(tuple(held_out)) for path in listed)
        assert index["counts"][name]["test"]["photos"] == len(held_out)
        info = json.loads((cache / "eval" / "val" / name / "dice_set.json").read_text())
        assert info["convention"] == SETS[name].convention.value
    train = training_images(index)
    assert {t.set_name for t in train} == {*SETS, RENDER_SET}
    assert all(t.split == "train" for t in train) and {t.split for t in training_images(index, ("val",))} == {
        "val"
    }
    webcam = next(t for t in train if t.set_name == "topdown-webcam")
    image = webcam.load()
    assert webcam.boxes.shape[1] == 5 and 60 < webcam.boxes[0, 3] - webcam.boxes[0, 1] < 85  # grown whole die
    assert image.shape[:2] == (480, 640)
    renders = [t for t in train if t.set_name == RENDER_SET]
    assert len(renders) == 3 and all(t.path.exists() for t in renders)
    assert index["counts"][RENDER_SET]["train"]["images"] == 3
    again = build_training_data(recipe, cache, processes=1, log=lines.append, root=root)
    assert again == json.loads((cache / INDEX).read_text()) and lines[-1].startswith("training data reused")


def test_a_cache_named_relative_to_the_working_folder_is_read_from_any_other(tmp_path, monkeypatch):
    fake_root(tmp_path / "real")
    recipe = DataRecipe(split=SplitRecipe(val=0.2, test=0.2), renders=replace(default_renders(), count=1))
    monkeypatch.chdir(tmp_path)
    index = build_training_data(recipe, Path("cache"), processes=1, log=lambda _: None, root=Path("real"))
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    images = training_images(index)
    assert images and all(t.path.is_absolute() for t in images)
    assert all(t.load().ndim == 3 for t in images)
