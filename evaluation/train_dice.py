"""Training the dice reader: real photographs plus renders in, ``models/dice_yolo11n.onnx``, with its record.

One network finds every die and reads its face (classes ``vision.dice.DICE_CLASSES``: faces 1..6 and
``cocked``). It learns from the training split of both real sets (``datasets.dice.real``: pip-cluster boxes
grown to whole dice) and from renders (``datasets.dice.render``: every colour, table, light, tilt, cocked
dice, distractor cubes), and picks its best epoch on the real validation split only: renders teach
variety, real photographs decide. The record beside the model holds the goal's figures on the real test
split, per set, which the network never saw (``evaluation.dice``).

Like ``evaluation.train_detector`` this imports ultralytics (and torch) and needs the ``train`` extra; it
reuses that module's ``offline_ultralytics`` so nothing reaches for the network.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import yaml

from datasets.dice.real import SplitRecipe, build_real
from datasets.dice.render import StillRecipe, render_dataset
from evaluation.dice import evaluate_folder
from evaluation.train_detector import environment, export_onnx, offline_ultralytics, validation_figures
from vision.dice import DICE_CLASSES, MODELS_DIR, DiceReader, DiceReaderConfig

DICE_MODEL_NAME = "dice_yolo11n"
RENDER_DIR = "renders"  # under the data folder: images/train and labels/train of the renders


@dataclass(frozen=True)
class DiceRecipe:
    """The training data: the real splits (fixed by their salt; keep it, or test photos leak into
    training) and how many renders to add to the real training photos (about 820 real ones)."""

    real: SplitRecipe = field(default_factory=SplitRecipe)
    renders: StillRecipe = field(default_factory=lambda: StillRecipe(count=3000, seed=0))
    real_repeat: int = 2  # each real training photo is listed this many times: real photos weigh more
    real_limit: int | None = None  # at most this many real photos per set and split (smoke runs only)

    def to_dict(self) -> dict:
        return {
            "real": asdict(self.real),
            "renders": self.renders.to_dict(),
            "real_repeat": self.real_repeat,
            "real_limit": self.real_limit,
        }


@dataclass(frozen=True)
class DiceTrainSettings:
    """How to train. ``epochs`` is the main cost: about 0.8 s per image per epoch at 640 px on this machine's
    two busy CPU cores (``arbiter dice train --estimate`` prints the whole estimate), a few ms on a GPU.
    ``imgsz`` 640: the real photos' size; oblique dice can be 15 px there. ``device``: ``cpu``, or ``0``
    for the first GPU. ``workers``: data-loading processes, and processes drawing the renders."""

    epochs: int = 80
    batch: int = 16
    imgsz: int = 640
    architecture: str = "yolo11n.yaml"
    seed: int = 0
    workers: int = 2
    patience: int = 25
    optimizer: str = "SGD"  # from scratch; ultralytics' "auto" picks AdamW at a learning rate too low here
    lr0: float = 0.01
    device: str = "cpu"
    fraction: float = 1.0  # share of the training list used (smoke runs)


def build_dataset(
    recipe: DiceRecipe, data_dir: Path, log: Callable[[str], None] = print, processes: int = 1
) -> dict:
    """The real splits and the renders under ``data_dir``, and ``data.yaml`` training on both and
    validating on real photos only. Cached: an existing ``counts.json`` means it is built. ``processes``:
    renders drawn in parallel."""
    counts_file = data_dir / "counts.json"
    if counts_file.exists():
        return json.loads(counts_file.read_text())
    data_dir.mkdir(parents=True, exist_ok=True)
    log(f"writing the real splits into {data_dir} (growing pip-cluster boxes to whole dice takes minutes)")
    real = build_real(data_dir, recipe.real, log=log, limit=recipe.real_limit)
    renders: dict = {"images": 0}
    if recipe.renders.count:
        log(f"rendering {recipe.renders.count} stills into {data_dir / RENDER_DIR}")
        renders = render_dataset(
            recipe.renders,
            data_dir / RENDER_DIR,
            "train",
            on_image=lambda i: log(f"  render {i + 1}") if (i + 1) % 250 == 0 else None,
            processes=processes,
        )
    # ultralytics takes a list of image lists; repeating the real one weighs real photos up.
    real_list = data_dir / "real_train.txt"
    real_images = sorted(str(p.absolute()) for p in (data_dir / "images" / "train").iterdir())
    real_list.write_text("".join(p + "\n" for p in real_images) * max(1, recipe.real_repeat))
    train = [real_list.name] + ([f"{RENDER_DIR}/images/train"] if recipe.renders.count else [])
    data = {
        "path": str(data_dir.resolve()),
        "train": train,
        "val": "images/val",
        "names": dict(enumerate(DICE_CLASSES)),
    }
    (data_dir / "data.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    counts = {"real": real, "renders": renders, "real_repeat": recipe.real_repeat}
    counts_file.write_text(json.dumps(counts, indent=1) + "\n")
    return counts


def train_dice(
    recipe: DiceRecipe,
    settings: DiceTrainSettings,
    work: Path,
    models: Path = MODELS_DIR,
    log: Callable[[str], None] = print,
    command: str = "arbiter dice train",
    evaluate: bool = True,
) -> dict:
    """Build the dataset (once), train from scratch, export ONNX into ``models`` with its record (recipe,
    counts, settings, validation and test figures, times, versions, command); returns the record."""
    offline_ultralytics(work / "ultralytics")
    data_dir = work / "data"
    started = time.time()
    counts = build_dataset(recipe, data_dir, log, processes=max(1, settings.workers))
    built = time.time()

    import torch
    from ultralytics import YOLO

    if settings.device == "cpu":
        torch.set_num_threads(os.cpu_count() or 1)
    model = YOLO(settings.architecture)
    model.train(
        data=str(data_dir / "data.yaml"),
        epochs=settings.epochs,
        imgsz=settings.imgsz,
        batch=settings.batch,
        device=settings.device,
        workers=settings.workers,
        seed=settings.seed,
        deterministic=True,
        pretrained=False,
        amp=settings.device != "cpu",
        plots=False,
        project=str(work / "runs"),
        name="dice",
        exist_ok=True,
        patience=settings.patience,
        optimizer=settings.optimizer,
        lr0=settings.lr0,
        fraction=settings.fraction,
        # A die is the same die mirrored (pip counts survive) and seen from any side: both flips. Dice come
        # in every colour, so hue moves further than ultralytics' default. Scale covers 15 px to 150 px dice.
        fliplr=0.5,
        flipud=0.5,
        hsv_h=0.1,
        hsv_s=0.7,
        hsv_v=0.4,
        scale=0.5,
        translate=0.1,
        degrees=0.0,
        mosaic=1.0,
        close_mosaic=max(1, settings.epochs // 8),
        verbose=False,
    )
    trained = time.time()
    metrics = model.val(
        data=str(data_dir / "data.yaml"),
        imgsz=settings.imgsz,
        batch=settings.batch,
        device=settings.device,
        plots=False,
    )
    record = {
        "recipe": recipe.to_dict(),
        "dataset": counts,
        "settings": asdict(settings),
        "validation": validation_figures(metrics),
        "seconds": {"dataset": round(built - started), "training": round(trained - built)},
        **environment(settings.device),
        "command": command,
    }
    record = export_dice(Path(model.trainer.best), models, record, settings.imgsz)
    if evaluate:
        record["test"] = evaluate_splits(models / f"{DICE_MODEL_NAME}.onnx", data_dir, log)
        (models / f"{DICE_MODEL_NAME}.json").write_text(json.dumps(record, indent=1) + "\n")
    return record


def export_dice(weights: Path, models: Path, record: dict, imgsz: int) -> dict:
    """Export ``weights`` (.pt) to ONNX (dynamic input size) into ``models``; write ``record`` beside it."""
    return export_onnx(
        weights,
        models / f"{DICE_MODEL_NAME}.onnx",
        imgsz,
        {"long_side": imgsz, "what": "letterboxed photo, BGR->RGB, /255, sides multiples of 32"},
        record,
    )


def evaluate_splits(model: Path, data_dir: Path, log: Callable[[str], None] = print) -> dict:
    """The goal's figures of ``model`` on the real validation and test folders (``data_dir/eval``), per set,
    at the reader's default threshold and at 99% recall."""

    operating = DiceReaderConfig().confidence
    reader = DiceReader(model, DiceReaderConfig(confidence=SWEEP_FLOOR))
    out = {}
    for split in ("val", "test"):
        folder = data_dir / "eval" / split
        if folder.is_dir():
            log(f"scoring {model.name} on the real {split} photos")
            out[split] = evaluate_folder(folder, reader.read, operating)
    return out


SWEEP_FLOOR = 0.05  # predictions are kept down to this confidence so the figures can be given at any above
