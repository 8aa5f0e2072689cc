"""The real dice photographs: known defects fixed, splits by source photo without leakage, stratified by
face, deterministic; pip-cluster boxes grown to whole dice; the folders written, never the shared ones."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

import pytest
import yaml
from dice_fakes import fake_root, webcam_photo

from datasets.dice.real import (
    REAL_ROOT,
    RELABELLED,
    SETS,
    SPLITS,
    SplitRecipe,
    build_real,
    load_set,
    source_name,
    split_set,
    unit_hash,
    whole_die_boxes,
)

needs_real = pytest.mark.skipif(not REAL_ROOT.is_dir(), reason=f"real dice photos not found at {REAL_ROOT}")


@pytest.fixture(scope="module")
def loads():
    return {name: load_set(name) for name in SETS}


@needs_real
def test_loading_counts_and_fixes_the_documented_defects(loads):
    top, phone = loads["topdown-webcam"].counts(), loads["oblique-phone"].counts()
    # README: 310 / 951 boxes, one of them spurious; 872 / 3893, 55 label files without images.
    assert (top["photos"], top["boxes"], top["dropped_boxes"]) == (310, 950, 1)
    assert (phone["photos"], phone["boxes"], phone["labels_without_image"]) == (872, 3893, 55)
    assert phone["sources"] == 304 and top["images_without_labels"] == phone["images_without_labels"] == 0
    tray = loads["tray-phone"].counts()  # README: 200 / 1,487, each photo its own throw
    assert (tray["photos"], tray["boxes"], tray["sources"], tray["labels_without_image"]) == (
        200,
        1487,
        200,
        0,
    )
    ((stem, box),) = loads["topdown-webcam"].dropped_boxes
    assert stem == "five_1" and box.value == 1
    five_1 = next(p for p in loads["topdown-webcam"].photos if p.stem == "five_1")
    assert [b.value for b in five_1.boxes] == [5]


@needs_real
def test_a_label_the_photo_contradicts_takes_the_face_shown_and_the_photo_keeps_its_split(loads):
    """Three tray dice labelled 2, 2 and 5 show three, three and four pips (``RELABELLED``): loaded as shown,
    counted, the published face kept beside; the split is made on the published faces, so no photo moves."""
    tray = loads["tray-phone"]
    fixed = {(stem, b.published, b.value) for stem, b in tray.relabelled_boxes}
    assert fixed == {
        ("IMG_20191208_111246", 2, 3),
        ("IMG_20191209_095954", 2, 3),
        ("IMG_20191209_095439", 5, 4),
    }
    assert tray.counts()["relabelled_boxes"] == len(RELABELLED) == 3
    published = replace(tray, photos=tuple(
        replace(p, boxes=tuple(replace(b, value=b.published or b.value, published=None) for b in p.boxes))
        for p in tray.photos
    ))  # fmt: skip
    recipe = SplitRecipe()
    as_published = {s: [p.stem for p in ps] for s, ps in split_set(published, recipe).items()}
    assert {s: [p.stem for p in ps] for s, ps in split_set(tray, recipe).items()} == as_published
    assert all(stem in as_published["test"] for stem, _ in tray.relabelled_boxes)


def test_a_roboflow_copy_belongs_to_the_photo_it_was_made_from():
    assert source_name("oblique-phone", "dice_101_jpg.rf.9e69503db4a1230f791c4004b2080121") == "dice_101_jpg"
    assert source_name("topdown-webcam", "five_1") == "five_1"


def test_the_split_hash_is_the_same_everywhere():
    assert unit_hash("dice_101_jpg", "arbiter-dice-1") == pytest.approx(0.2975754201248984, abs=1e-15)
    assert unit_hash("dice_101_jpg", "other") != unit_hash("dice_101_jpg", "arbiter-dice-1")


@needs_real
@pytest.mark.parametrize("name", list(SETS))
def test_splits_hold_every_photo_once_and_never_share_a_source(loads, name):
    parts = split_set(loads[name], SplitRecipe())
    stems = [p.stem for s in SPLITS for p in parts[s]]
    assert sorted(stems) == sorted(p.stem for p in loads[name].photos)
    sources = {s: {p.source for p in parts[s]} for s in SPLITS}
    assert not (
        sources["train"] & sources["val"]
        or sources["train"] & sources["test"]
        or sources["val"] & sources["test"]
    )
    n = len({p.source for p in loads[name].photos})
    for split, share in (("val", 0.15), ("test", 0.15)):
        assert abs(len(sources[split]) / n - share) < 0.03
    if name == "oblique-phone":  # the 3 augmented copies of a photo travel together
        for split in SPLITS:
            copies = Counter(p.source for p in parts[split])
            assert all(copies[src] == sum(1 for p in loads[name].photos if p.source == src) for src in copies)


@needs_real
@pytest.mark.parametrize("name", list(SETS))
def test_every_face_has_its_share_of_test_dice(loads, name):
    parts = split_set(loads[name], SplitRecipe())
    test = Counter(b.value for p in parts["test"] for b in p.boxes)
    total = Counter(b.value for p in loads[name].photos for b in p.boxes)
    for value in range(1, 7):
        assert 0.07 < test[value] / total[value] < 0.3, (value, test[value], total[value])


@needs_real
def test_splits_are_deterministic_and_follow_the_salt(loads):
    load = loads["oblique-phone"]
    a, b = split_set(load, SplitRecipe()), split_set(load, SplitRecipe())
    assert [p.stem for p in a["test"]] == [p.stem for p in b["test"]]
    c = split_set(load, SplitRecipe(salt="another"))
    assert {p.source for p in a["test"]} != {p.source for p in c["test"]}


def test_bad_split_shares_are_refused():
    with pytest.raises(ValueError, match="shares"):
        SplitRecipe(val=0.5, test=0.5)


def test_pip_clusters_grow_into_the_whole_die():
    img, clusters = webcam_photo()
    grown, fallbacks = whole_die_boxes(img, clusters)
    assert fallbacks == 0
    h, w = img.shape[:2]
    for g, cl in zip(grown, clusters, strict=True):
        assert g.value == cl.value
        assert abs(g.cx * w - cl.cx * w) < 4 and abs(g.cy * h - cl.cy * h) < 4
        assert 62 < g.w * w < 80 and 62 < g.h * h < 80  # the 70 px die, not its cluster


def test_dice_that_merge_into_one_blob_fall_back_to_squares_the_size_of_the_other_dice():
    img, clusters = webcam_photo(dice=((200, 240, 5), (271, 240, 1), (450, 150, 5)))  # two touch
    grown, fallbacks = whole_die_boxes(img, clusters)
    w = img.shape[1]
    assert fallbacks == 2
    for g, cl in zip(grown[:2], clusters[:2], strict=True):
        assert g.w * w == pytest.approx(grown[2].w * w, abs=2)
        assert (g.cx, g.cy) == pytest.approx((cl.cx, cl.cy), abs=1e-6)


def test_build_writes_training_and_eval_folders_and_leaves_the_sources_alone(tmp_path):
    root, out = tmp_path / "real", tmp_path / "out"
    fake_root(root)
    before = sorted((p.relative_to(root), p.stat().st_mtime_ns) for p in root.rglob("*"))
    counts = build_real(out, SplitRecipe(val=0.2, test=0.2), root=root)
    assert sorted((p.relative_to(root), p.stat().st_mtime_ns) for p in root.rglob("*")) == before
    assert counts["oblique-phone"]["loaded"]["labels_without_image"] == 1
    assert counts["topdown-webcam"]["loaded"]["dropped_boxes"] == 1
    for name in SETS:
        written = sum(counts[name][s]["photos"] for s in SPLITS)
        assert written == counts[name]["loaded"]["photos"]
    train_images = sorted((out / "images" / "train").iterdir())
    assert train_images and all(p.is_symlink() for p in train_images)
    assert {p.name.split("__")[0] for p in train_images} == {"td", "op", "tp"}
    for image in train_images:
        label = out / "labels" / "train" / f"{image.stem}.txt"
        assert label.exists()
    # Training labels of the webcam set are whole dice (about 70 px of 640), not 50 px clusters.
    td = [
        float(line.split()[3])
        for p in (out / "labels" / "train").glob("td__five*.txt")
        for line in p.read_text().splitlines()
    ]
    assert td and all(60 / 640 < w < 85 / 640 for w in td)
    info = json.loads((out / "eval" / "test" / "topdown-webcam" / "dice_set.json").read_text())
    assert info["convention"] == "centre" and info["photos"] == counts["topdown-webcam"]["test"]["photos"]
    test_label = next((out / "eval" / "test" / "topdown-webcam" / "labels").glob("five_*.txt"))
    assert float(test_label.read_text().split()[3]) < 60 / 640  # eval keeps the set's own cluster boxes
    data = yaml.safe_load((out / "data.yaml").read_text())
    assert data["names"][6] == "cocked" and data["val"] == ["images/val"]
