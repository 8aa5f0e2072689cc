"""Scoring dice reading: the two box conventions, greedy matching, confusion, figures at any threshold, the
goal's operating point, and folders (set discovery, conventions, a reader run over them)."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from evaluation.dice import (
    COLUMNS,
    Convention,
    EvalError,
    LabelBox,
    Matching,
    discover,
    evaluate_folder,
    figures,
    guess_convention,
    labels_from_yolo,
    match_image,
)
from vision.dice import DieReading


def die(x0, y0, x1, y1, value=3, conf=0.9):
    return DieReading((x0, y0, x1, y1), value, conf)


def lab(x0, y0, x1, y1, value=3):
    return LabelBox(value, (x0, y0, x1, y1))


@pytest.mark.parametrize(
    ("pred", "label", "convention", "found"),
    [
        ((100, 100, 160, 160), (100, 100, 160, 160), Convention.IOU, True),  # the same box
        ((100, 100, 160, 160), (110, 110, 170, 170), Convention.IOU, True),  # IoU 0.53
        ((100, 100, 160, 160), (120, 120, 180, 180), Convention.IOU, False),  # IoU 0.28
        ((100, 100, 160, 160), (115, 115, 145, 145), Convention.IOU, False),  # a cluster box: IoU 0.25
        ((100, 100, 160, 160), (115, 115, 145, 145), Convention.CENTRE, True),  # ... found by its centre
        # A one's cluster is one pip; the whole die's centre misses it, but the die holds the pip's centre.
        ((100, 100, 160, 170), (126, 118, 134, 126), Convention.CENTRE, True),
        ((100, 100, 160, 160), (170, 100, 200, 130), Convention.CENTRE, False),  # the next die's cluster
    ],
)
def test_a_prediction_finds_a_label_by_its_sets_convention(pred, label, convention, found):
    matched = match_image([die(*pred)], [lab(*label)], convention)
    assert (matched[0] == 0) is found


def test_matching_is_greedy_by_confidence_and_one_to_one():
    labels = [lab(0, 0, 50, 50), lab(60, 0, 110, 50)]
    preds = [die(2, 2, 52, 52, conf=0.4), die(0, 0, 50, 50, conf=0.9), die(61, 1, 111, 51, conf=0.5)]
    assert match_image(preds, labels, Convention.IOU) == [None, 0, 1]


def test_figures_count_found_right_wrong_missed_and_extra():
    m = Matching()
    labels = [lab(0, 0, 50, 50, 5), lab(100, 0, 150, 50, 4), lab(200, 0, 250, 50, 6), lab(300, 0, 350, 50, 1)]
    preds = [
        die(0, 0, 50, 50, 5),  # right
        die(100, 0, 150, 50, 5),  # a four read as five
        die(200, 0, 250, 50, None),  # a six read as cocked
        die(400, 0, 450, 50, 2),  # nothing there
    ]  # the one at 300 is missed
    m.add(preds, labels, Convention.IOU)
    f = m.at(0.0)
    assert (f["labels"], f["predictions"], f["matched"], f["correct"]) == (4, 4, 3, 1)
    assert f["recall"] == 0.75 and f["precision"] == 0.75
    assert f["accuracy"] == pytest.approx(1 / 3, abs=1e-4) and f["read_right"] == 0.25
    assert f["confusion"]["5"]["5"] == 1 and f["confusion"]["4"]["5"] == 1
    assert f["confusion"]["6"]["cocked"] == 1 and f["confusion"]["1"]["missed"] == 1
    assert f["extra"]["2"] == 1
    assert list(f["confusion"]["1"]) == list(COLUMNS)
    assert sum(sum(row.values()) for row in f["confusion"].values()) == f["labels"]


def test_readings_marked_unsure_are_counted_apart():
    m = Matching()
    labels = [lab(0, 0, 50, 50, 5), lab(100, 0, 150, 50, 4), lab(200, 0, 250, 50, 6)]
    unsure_wrong = DieReading((100, 0, 150, 50), 5, 0.9, unsure=True)
    m.add([die(0, 0, 50, 50, 5), unsure_wrong, die(200, 0, 250, 50, 6)], labels, Convention.IOU)
    f = m.at(0.0)
    assert (
        f["accuracy"] == pytest.approx(2 / 3, abs=1e-4) and f["unsure"] == 1 and f["accuracy_of_sure"] == 1.0
    )


def test_a_higher_threshold_keeps_the_matches_above_it():
    m = Matching()
    labels = [lab(0, 0, 50, 50, 2), lab(100, 0, 150, 50, 3)]
    m.add(
        [die(0, 0, 50, 50, 2, 0.9), die(100, 0, 150, 50, 4, 0.3), die(1, 1, 51, 51, 2, 0.2)],
        labels,
        Convention.IOU,
    )
    low, high = m.at(0.1), m.at(0.5)
    assert (low["matched"], low["predictions"], low["extra"]["2"]) == (2, 3, 1)
    assert (high["matched"], high["correct"], high["recall"], high["accuracy"]) == (1, 1, 0.5, 1.0)


def test_the_goal_is_read_at_the_threshold_where_recall_reaches_99_percent():
    m = Matching()
    # 200 dice in 2 photos: all found; the least confident one is read wrong.
    for k in range(2):
        labels = [lab(60 * i, 0, 60 * i + 50, 50, 1 + i % 6) for i in range(100)]
        preds = [die(*lb.box_px, lb.value, 0.99 - 0.004 * i) for i, lb in enumerate(labels)]
        preds[-1] = die(*labels[-1].box_px, 1 + labels[-1].value % 6, 0.3 + 0.1 * k)
        m.add(preds, labels, Convention.IOU)
    f = figures(m, 0.25)
    assert f["recall"] == 1.0 and f["accuracy"] == 0.99
    goal = f["at_goal_recall"]
    assert goal["recall"] == 0.99 and goal["accuracy"] == 1.0 and goal["threshold"] > 0.5
    assert f["goal_met"]
    unreached = Matching()
    unreached.add([die(0, 0, 50, 50)], [lab(0, 0, 50, 50), lab(100, 0, 150, 50)], Convention.IOU)
    assert unreached.at_recall() is None and not figures(unreached, 0.25)["goal_met"]


def test_matchings_merge_across_sets():
    a, b = Matching(), Matching()
    a.add([die(0, 0, 50, 50, 2)], [lab(0, 0, 50, 50, 2)], Convention.IOU)
    b.add([die(0, 0, 50, 50, 4)], [lab(0, 0, 50, 50, 5)], Convention.IOU)
    f = a.merge(b).at()
    assert (f["images"], f["labels"], f["matched"], f["correct"]) == (2, 2, 2, 1)
    assert f["confusion"]["5"]["4"] == 1


def test_yolo_labels_are_read_in_pixels_and_bad_lines_are_named():
    boxes = labels_from_yolo("4 0.5 0.25 0.1 0.2\n\n", 640, 480)
    assert boxes == [LabelBox(5, (288.0, 72.0, 352.0, 168.0))]
    with pytest.raises(EvalError, match=r"x\.txt line 1"):
        labels_from_yolo("7 0.5 0.5 0.1 0.1", 640, 480, "x.txt")
    with pytest.raises(EvalError, match="line 2"):
        labels_from_yolo("1 0.5 0.5 0.1 0.1\n1 0.5", 640, 480)


def test_the_convention_is_guessed_from_the_sizes_of_ones_against_high_faces():
    clusters = ["0 0.5 0.5 0.02 0.02\n5 0.3 0.3 0.09 0.1"] * 6
    whole = ["0 0.5 0.5 0.1 0.1\n5 0.3 0.3 0.1 0.11"] * 6
    assert guess_convention(clusters) is Convention.CENTRE
    assert guess_convention(whole) is Convention.IOU
    assert guess_convention(["2 0.5 0.5 0.1 0.1"]) is None


def _write_set(folder, photos, layout="split", info=None):
    """Photos: (name, [(cls, cx, cy, w, h)]) -> a YOLO folder of 200x100 images."""
    for name, rows in photos:
        img_dir = folder / "images" if layout == "split" else folder
        lab_dir = folder / "labels" if layout == "split" else folder
        img_dir.mkdir(parents=True, exist_ok=True)
        lab_dir.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(img_dir / f"{name}.jpg"), np.full((100, 200, 3), 128, np.uint8))
        if rows is not None:
            (lab_dir / f"{name}.txt").write_text("".join(" ".join(map(str, r)) + "\n" for r in rows))
    if info:
        (folder / "dice_set.json").write_text(json.dumps(info))


def test_sets_are_found_with_their_conventions(tmp_path):
    _write_set(tmp_path / "topdown-webcam", [("a", [(0, 0.5, 0.5, 0.05, 0.1)])], layout="flat")
    _write_set(
        tmp_path / "mine", [("b", [(2, 0.5, 0.5, 0.2, 0.4)])], info={"set": "phone", "convention": "iou"}
    )
    (tmp_path / "mine" / "labels" / "orphan.txt").write_text("1 0.5 0.5 0.1 0.1\n")
    sets = {s.name: s for s in discover(tmp_path)}
    assert sets["topdown-webcam"].convention is Convention.CENTRE
    assert sets["topdown-webcam"].convention_from == "folder name"
    assert (sets["phone"].convention, sets["phone"].convention_from) == (Convention.IOU, "dice_set.json")
    assert sets["phone"].labels_without_image == 1
    forced = discover(tmp_path, Convention.CENTRE)
    assert all(s.convention is Convention.CENTRE and s.convention_from == "option" for s in forced)


def test_a_folder_whose_convention_cannot_be_told_is_refused_with_what_to_give(tmp_path):
    _write_set(tmp_path / "unknown", [("a", [(2, 0.5, 0.5, 0.2, 0.4)])])
    with pytest.raises(EvalError, match="--convention"):
        discover(tmp_path / "unknown")
    with pytest.raises(EvalError, match="not a folder"):
        discover(tmp_path / "nothing")


def test_a_folder_is_scored_per_set_and_over_all(tmp_path):
    rows = {
        "a": [(4, 0.25, 0.5, 0.2, 0.4), (1, 0.75, 0.5, 0.2, 0.4)],
        "b": [(5, 0.5, 0.5, 0.2, 0.4)],
        "c": None,
    }
    _write_set(tmp_path / "s1", list(rows.items()), info={"set": "s1", "convention": "iou"})

    def fake_read(image):
        # Reads the labelled dice of photos a and b (it cannot know which: same grey image), so it sees
        # the five at the left and a two at the right in every photo.
        return [DieReading((30, 30, 70, 70), 5, 0.9), DieReading((130, 30, 170, 70), 2, 0.8)]

    result = evaluate_folder(tmp_path, fake_read, 0.25)
    s1 = result["sets"]["s1"]
    assert (s1["images"], s1["labels"], s1["predictions"]) == (3, 3, 6)
    # a: both right; b: the six is not at the left... its box covers the middle: missed, two extras.
    assert s1["matched"] == 2 and s1["correct"] == 2 and s1["confusion"]["6"]["missed"] == 1
    assert s1["convention"] == "iou" and result["all"]["labels"] == 3


def test_the_cli_says_how_to_get_a_missing_model(tmp_path):
    from typer.testing import CliRunner

    from cli.main import app

    _write_set(tmp_path / "s", [("a", [(4, 0.25, 0.5, 0.2, 0.4)])], info={"convention": "iou"})
    result = CliRunner().invoke(app, ["dice", "eval", str(tmp_path), "--model", str(tmp_path / "none.onnx")])
    assert result.exit_code == 2
    assert "arbiter dice train" in result.output


def test_the_cli_refuses_a_negative_weight_of_the_dies_doubt(tmp_path):
    from typer.testing import CliRunner

    from cli.main import app

    _write_set(tmp_path / "s", [("a", [(4, 0.25, 0.5, 0.2, 0.4)])], info={"convention": "iou"})
    result = CliRunner().invoke(app, ["dice", "eval", str(tmp_path), "--die-power", "-1"])
    assert result.exit_code == 2
    assert "die_power must be at least 0" in result.output
