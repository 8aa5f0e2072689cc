"""Training the dice reader on this machine's CPU: data, the two stages at once, the models and their record.

``train_dice`` builds the training data once (``datasets.dice.training_data``: the real training photos
with whole-die boxes, renders), starts the finder and the face reader in two processes of one thread each
(``evaluation.dice_stage``, which needs torch: the ``train`` extra), copies their ONNX files into
``models`` and writes ``dice_reader.json`` beside them: the reader's settings, the recipe, the seeds, the
data counts, the times and the machine's load, and the goal's figures on the real validation and test
photos of every set (``evaluation.dice``), which no stage ever saw.

This module imports no torch, so the command line can describe and check a training run anywhere.
"""

from __future__ import annotations

import importlib.util
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from datasets.dice.real import REAL_ROOT
from datasets.dice.training_data import build_training_data
from evaluation.dice import evaluate_folder
from evaluation.dice_hard import CHECKPOINT, CHECKPOINT_INFO
from evaluation.dice_recipes import DiceTrainRecipe
from vision.dice import DEFAULT_DICE_MODEL, READER_CLASSES, DiceReader, DiceReaderConfig, model_record
from vision.dice_crops import CROP, MARGIN
from vision.dice_finder import STRIDE
from vision.yolo import MODELS_DIR

ROOT = Path(__file__).resolve().parents[1]
STAGES = ("finder", "faces")
FILES = {"finder": "dice_finder.onnx", "faces": "dice_faces.onnx"}
SWEEP_FLOOR = 0.05  # readings are kept down to this confidence so the figures can be given at any above


class TrainingError(RuntimeError):
    """A training run that cannot start or did not finish; the message says why."""


def check_torch() -> None:
    if importlib.util.find_spec("torch") is None:
        raise TrainingError(
            f"training needs torch, which {sys.executable} lacks: install the train extra "
            "(pip install -e '.[train]') or run with a Python that has it"
        )


def _stage_process(stage: str, index: Path, recipe: dict[str, Any], out: Path) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
    }
    command = [sys.executable, "-m", "evaluation.dice_stage", stage, "--index", str(index)]
    command += ["--recipe", json.dumps(recipe), "--out", str(out)]
    return subprocess.Popen(
        command, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def run_stages(recipe: DiceTrainRecipe, index: Path, out: Path, log: Callable[[str], None]) -> dict[str, Any]:
    """Both stages at once; their records (what each wrote into ``out``) once both are done. A finder
    checkpoint left by an earlier run is removed first: the face reader mines with this run's."""
    out.mkdir(parents=True, exist_ok=True)
    for stale in (CHECKPOINT, CHECKPOINT_INFO):
        (out / stale).unlink(missing_ok=True)
    recipes = {"finder": recipe.finder.to_dict(), "faces": recipe.faces.to_dict()}
    procs = {s: _stage_process(s, index, recipes[s], out) for s in STAGES}

    def relay(p: subprocess.Popen[str]) -> None:
        for line in p.stdout or ():
            log(line.rstrip())

    relays = [threading.Thread(target=relay, args=(p,), daemon=True) for p in procs.values()]
    for t in relays:
        t.start()
    codes = {s: p.wait() for s, p in procs.items()}
    for t in relays:
        t.join()
    failed = [f"{s} (exit {c})" for s, c in codes.items() if c != 0]
    if failed:
        raise TrainingError(f"training stage failed: {', '.join(failed)}; its log is above")
    return {s: json.loads((out / f"{s}.json").read_text()) for s in STAGES}


def _machine(load_at_start: tuple[float, ...], torch_version: str) -> dict[str, Any]:
    return {
        "cpus": os.cpu_count(),
        "load_average_at_start": [round(v, 2) for v in load_at_start],
        "load_average_at_end": [round(v, 2) for v in os.getloadavg()],
        "python": platform.python_version(),
        "torch": torch_version,
        "platform": platform.platform(),
    }


def reader_settings(temperature: float, long_side: int) -> dict[str, Any]:
    """What the run-time reader needs to read the models as they were trained."""
    return {
        "classes": list(READER_CLASSES),
        "temperature": temperature,
        "long_side": long_side,
        "crop": CROP,
        "margin": MARGIN,
        "stride": STRIDE,
        "finder_input": "BGR / 255, long side scaled to long_side, padded right and bottom to x64",
        "crop_input": "BGR / 255, a square of margin x the box's long side round its centre, crop x crop px",
        "defaults": DiceReaderConfig().__dict__,
    }


def train_dice(
    recipe: DiceTrainRecipe,
    work: Path,
    models: Path = MODELS_DIR,
    log: Callable[[str], None] = print,
    command: str = "arbiter dice train",
    evaluate: bool = True,
    real_root: Path = REAL_ROOT,
) -> dict[str, Any]:
    """Data (cached in ``work/data``; the real photos from ``real_root``), both stages, the models and
    ``dice_reader.json`` in ``models``; returns the record."""
    check_torch()
    load_at_start = os.getloadavg()
    started = time.time()
    index = build_training_data(recipe.data, work / "data", processes=2, log=log, root=real_root)
    built = time.time()
    stages = run_stages(recipe, work / "data" / "index.json", work / "stages", log)
    trained = time.time()
    models.mkdir(parents=True, exist_ok=True)
    for stage in STAGES:
        shutil.copyfile(work / "stages" / FILES[stage], models / FILES[stage])
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    record = {
        "what": "two-stage dice reader: dice_finder.onnx (one-class centre heatmap) finds dice, "
        "dice_faces.onnx reads each die's crop (faces 1..6, cocked, not a die) and re-boxes it",
        "files": FILES,
        "reader": reader_settings(stages["faces"]["temperature"], recipe.finder.long_side),
        "recipe": recipe.to_dict(),
        "seeds": {
            "finder": recipe.finder.seed,
            "faces": recipe.faces.seed,
            "renders": recipe.data.renders.seed,
            "split_salt": recipe.data.split.salt,
        },
        "data": index["counts"],
        "seconds": {
            "data": round(built - started, 1),
            "data_when_built": index.get("seconds"),
            "stages_in_parallel": round(trained - built, 1),
            "finder": stages["finder"]["seconds"],
            "faces": stages["faces"]["seconds"],
            "total": round(time.time() - started, 1),
        },
        "cpu_seconds": {s: stages[s]["cpu_seconds"] for s in STAGES}
        | {"all_children": round(children.ru_utime + children.ru_stime, 1)},
        "machine": _machine(load_at_start, stages["finder"]["torch"]),
        "faces_val_read_right_at_labelled_boxes": stages["faces"]["val_read_right_at_labelled_boxes"],
        "faces_hard_negatives_mined": stages["faces"].get("hard_negatives_mined", {}),
        "sizes_bytes": {f: (models / f).stat().st_size for f in FILES.values()},
        "command": command,
    }
    record_file = models / DEFAULT_DICE_MODEL.name
    record_file.write_text(json.dumps(record, indent=1) + "\n")
    log(f"trained in {record['seconds']['total']:.0f} s; models and record in {models}")
    if evaluate:
        record["figures"] = score_splits(record_file, work / "data" / "eval", log)
        record["seconds"]["eval"] = round(time.time() - started - record["seconds"]["total"], 1)
        record_file.write_text(json.dumps(record, indent=1) + "\n")
    return record


def score_splits(
    model: Path,
    eval_root: Path,
    log: Callable[[str], None] = print,
    splits: tuple[str, ...] = ("val", "test"),
) -> dict[str, Any]:
    """The goal's figures of ``model`` on the held-out real photos of each split (per set and over all), at
    the reader's operating confidence and at 99% recall."""
    operating = DiceReaderConfig().confidence
    reader = DiceReader(model, DiceReaderConfig(confidence=SWEEP_FLOOR, min_score=SWEEP_FLOOR))
    out = {}
    for split in splits:
        if (eval_root / split).is_dir():
            log(f"scoring {model.parent} on the real {split} photos")
            out[split] = evaluate_folder(eval_root / split, reader.read, operating)
    return out


def rescore(
    models: Path, eval_root: Path, command: str, log: Callable[[str], None] = print
) -> dict[str, Any]:
    """The record in ``models`` scored again with this code's reader defaults (after the operating point is
    chosen on the validation photos, which a training run cannot do before its models exist): its
    ``reader.defaults`` and ``figures`` replaced, and a ``rescored`` entry saying when, how and from what."""
    path, record = model_record(models)
    before = record.get("reader", {}).get("defaults")
    record.setdefault("reader", {})["defaults"] = DiceReaderConfig().__dict__
    record["figures"] = score_splits(path, eval_root, log)
    record["rescored"] = {"command": command, "defaults_before": before, "at": time.strftime("%Y-%m-%d")}
    path.write_text(json.dumps(record, indent=1) + "\n")
    return record
