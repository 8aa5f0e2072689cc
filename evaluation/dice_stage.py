"""One stage of the dice reader's training in a process of its own (torch, one thread):

    python -m evaluation.dice_stage finder|faces --index CACHE/index.json --recipe JSON --out DIR

``evaluation.train_dice`` starts both stages at once, one per core: small networks keep one core busy
each, where one process with two threads would leave a core idle half the time. Each stage loads the
images it learns from, trains, exports its ONNX file into ``DIR`` and writes ``DIR/<stage>.json``: its
seconds, CPU seconds, log and (the face reader) its softmax temperature and validation figures.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch

from datasets.dice.training_data import training_images
from evaluation.dice_hard import finder_session, wait_for_checkpoint, write_checkpoint
from evaluation.dice_nets import Finder, export_onnx
from evaluation.dice_recipes import faces_recipe, finder_recipe
from evaluation.train_dice_faces import (
    Source,
    face_sources,
    fit_temperature,
    plain_crops,
    predict,
    train_faces,
    with_mistakes,
)
from evaluation.train_dice_finder import finder_pools, train_finder
from vision.dice_crops import CROP

FILES = {"finder": "dice_finder.onnx", "faces": "dice_faces.onnx"}
MINE_WAIT_S = 3600.0  # how long the face reader waits for the finder's checkpoint before giving up


def _load(index: dict[str, Any], split: str) -> list[tuple[str, np.ndarray, np.ndarray]]:
    return [(t.set_name, t.load(), t.boxes) for t in training_images(index, (split,))]


def run_finder(
    index: dict[str, Any], recipe: dict[str, Any], out: Path, log: Callable[[str], None]
) -> dict[str, Any]:
    r = finder_recipe(recipe)
    side = r.long_side

    def export(model: Finder, path: Path) -> None:
        example = torch.rand(1, 3, side * 9 // 16 // 64 * 64 + 64, side)
        export_onnx(model, str(path), example, "image", ["out"], {2: "height", 3: "width"})

    def checkpoint(model: Finder) -> None:
        write_checkpoint(lambda path: export(model, path), out, side)
        log(f"finder checkpoint at step {r.checkpoint_at} written for the face reader's hard negatives")

    model = train_finder(finder_pools(_load(index, "train")), r, log, checkpoint if r.checkpoint_at else None)
    torch.save(model.state_dict(), out / "finder.pt")
    export(model, out / FILES["finder"])
    return {}


def run_faces(
    index: dict[str, Any], recipe: dict[str, Any], out: Path, log: Callable[[str], None]
) -> dict[str, Any]:
    r = faces_recipe(recipe)
    val_sources = face_sources(_load(index, "val"))
    val = {name: plain_crops(sources) for name, sources in val_sources.items()}
    mined: dict[str, int] = {}

    def mine(pools: dict[str, list[Source]]) -> dict[str, list[Source]]:
        path, long_side = wait_for_checkpoint(out, MINE_WAIT_S, log)
        pools, counts = with_mistakes(pools, finder_session(path), long_side, r.hard_min_score)
        mined.update(counts)
        log(f"faces step {r.hard_from}: the finder's mistakes on the training photos, per set: {counts}")
        return pools

    model = train_faces(face_sources(_load(index, "train")), val, r, log, mine)
    temperature = fit_temperature(model, val)
    torch.save(model.state_dict(), out / "faces.pt")
    export_onnx(model, str(out / FILES["faces"]), torch.rand(2, 3, CROP, CROP), "crops", ["logits", "box"],
                {0: "crops"})  # fmt: skip
    read_right = {
        name: round(float((predict(model, vx).argmax(1) == vy).float().mean()), 4)
        for name, (vx, vy) in val.items()
        if len(vy)
    }
    return {
        "temperature": temperature,
        "val_read_right_at_labelled_boxes": read_right,
        "hard_negatives_mined": mined,
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stage", choices=sorted(FILES))
    ap.add_argument("--index", required=True, type=Path)
    ap.add_argument("--recipe", required=True, help="the stage's recipe as JSON")
    ap.add_argument("--out", required=True, type=Path)
    a = ap.parse_args(argv)
    torch.set_num_threads(1)
    a.out.mkdir(parents=True, exist_ok=True)
    started = time.time()
    lines: list[str] = []

    def log(msg: str) -> None:
        line = f"[{a.stage} {time.time() - started:7.1f}s] {msg}"
        lines.append(line)
        print(line, flush=True)

    index = json.loads(a.index.read_text())
    run = run_finder if a.stage == "finder" else run_faces
    extra = run(index, json.loads(a.recipe), a.out, log)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    record = {
        "stage": a.stage,
        "file": FILES[a.stage],
        "seconds": round(time.time() - started, 1),
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 1),
        "torch": torch.__version__,
        "threads": torch.get_num_threads(),
        "omp_num_threads": os.environ.get("OMP_NUM_THREADS"),
        **extra,
        "log": lines,
    }
    (a.out / f"{a.stage}.json").write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
