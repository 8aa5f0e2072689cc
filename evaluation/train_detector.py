"""Training the ball-and-pin detector: synthetic table views in, an ONNX file and its record out.

This is the only module that imports ultralytics (and so torch): it needs the ``train`` extra
(``pip install -e .[train]``). Running the trained detector needs neither (``vision.yolo``).

Ultralytics reaches for the network in several places (fonts for plots, pretrained weights, pip installs
of missing exporters). ``offline_ultralytics`` shuts every one of them off before it is imported: its
settings live inside the project, the font it looks for is a local copy, and the model starts from its
architecture file, not downloaded weights.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasets.billiards.detector_data import TILE, DatasetRecipe, build
from vision.table_view import VIEW_SIZE
from vision.yolo import MODELS_DIR

DETECTOR_NAME = "billiards_yolo11n"
Log = Callable[[str], None]


@dataclass(frozen=True)
class TrainSettings:
    """How to train. ``epochs`` is the main cost: about 0.3 s per tile per epoch on this machine at 352 px.
    ``architecture`` is an ultralytics model file (ours: YOLO11n with 4 box bins, see the file): training
    starts from scratch, nothing is downloaded."""

    epochs: int = 16
    batch: int = 16
    nominal_batch: int = 16  # ultralytics accumulates gradients up to this; its 64 would mean 4x fewer steps
    architecture: str = str(MODELS_DIR / "billiards_yolo11n.yaml")
    seed: int = 0
    workers: int = 2
    patience: int = 100
    optimizer: str = "SGD"  # from scratch on a short schedule; "auto" picks AdamW at lr 3e-4, too slow here
    lr0: float = 0.01


def offline_ultralytics(config_dir: Path) -> None:
    """Point ultralytics at ``config_dir`` with a local font and no network; call before importing it."""
    config_dir.mkdir(parents=True, exist_ok=True)
    os.environ["YOLO_CONFIG_DIR"] = str(config_dir)
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "false"
    import matplotlib

    font = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    for name in ("Arial.ttf", "Arial.Unicode.ttf"):
        target = config_dir / "Ultralytics" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            shutil.copyfile(font, target)
            shutil.copyfile(font, config_dir / name)


def _dataset(recipe: DatasetRecipe, data_dir: Path, log: Log) -> dict[str, Any]:
    """The dataset's counts, building it first unless ``data_dir`` already holds it, built by the same
    recipe (``recipe.json`` beside it): a set of another recipe is refused, never trained on silently."""
    counts_file, recipe_file = data_dir / "counts.json", data_dir / "recipe.json"
    wanted = json.loads(json.dumps(recipe.to_dict()))
    if counts_file.exists():
        built = json.loads(recipe_file.read_text()) if recipe_file.exists() else None
        if built != wanted:
            raise ValueError(
                f"{data_dir} holds a dataset of another recipe ({recipe_file.name} differs or is missing); "
                "remove it or give another --work"
            )
    else:
        log(f"building the dataset in {data_dir}")
        counts_file.parent.mkdir(parents=True, exist_ok=True)
        counts_file.write_text(json.dumps(build(recipe, data_dir, lambda g, i: log(f"  {g} shot {i}"))))
        recipe_file.write_text(json.dumps(wanted, indent=1) + "\n")
    counts: dict[str, Any] = json.loads(counts_file.read_text())
    return counts


def _train_arguments(settings: TrainSettings, data_dir: Path, work: Path) -> dict[str, Any]:
    """What ``YOLO.train`` is given: the settings, on the CPU, deterministic, no plots."""
    return {
        "data": str(data_dir / "data.yaml"),
        "epochs": settings.epochs,
        "imgsz": TILE,
        "batch": settings.batch,
        "device": "cpu",
        "workers": settings.workers,
        "seed": settings.seed,
        "deterministic": True,
        "pretrained": False,
        "amp": False,
        "plots": False,
        "project": str(work / "runs"),
        "name": "detector",
        "exist_ok": True,
        "patience": settings.patience,
        "optimizer": settings.optimizer,
        "nbs": settings.nominal_batch,
        "lr0": settings.lr0,
        # The table view has no up or down: both flips are real tables. Scale stays near 1 because a ball's
        # size in the view is fixed by design; colour jitter stands in for lighting the renderer lacks.
        "fliplr": 0.5,
        "flipud": 0.5,
        "scale": 0.15,
        "translate": 0.1,
        "degrees": 0.0,
        "mosaic": 1.0,
        "close_mosaic": max(1, settings.epochs // 5),
        "verbose": False,
    }


def train_detector(
    recipe: DatasetRecipe, settings: TrainSettings, work: Path, models: Path = MODELS_DIR, log: Log = print
) -> dict[str, Any]:
    """Build the dataset (unless ``work/data`` already holds it), train, export ONNX into ``models``, and
    write the record (recipe, settings, validation figures, times, versions) beside it."""
    offline_ultralytics(work / "ultralytics")
    data_dir = work / "data"
    started = time.time()
    counts = _dataset(recipe, data_dir, log)
    built = time.time()

    import torch
    from ultralytics import YOLO  # type: ignore[attr-defined, unused-ignore]

    torch.set_num_threads(os.cpu_count() or 1)
    model = YOLO(settings.architecture)
    model.train(**_train_arguments(settings, data_dir, work))
    trained = time.time()
    metrics = model.val(
        data=str(data_dir / "data.yaml"), imgsz=TILE, batch=settings.batch, device="cpu", plots=False
    )
    record = {
        "recipe": recipe.to_dict(),
        "dataset": counts,
        "settings": settings.__dict__,
        "validation": validation_figures(metrics),
        "seconds": {"dataset": round(built - started), "training": round(trained - built)},
        **environment("cpu"),
        "command": "arbiter train detector",
    }
    trainer = model.trainer
    assert trainer is not None  # set by train()
    return export_detector(Path(trainer.best), models, record)


def export_detector(weights: Path, models: Path, record: dict[str, Any]) -> dict[str, Any]:
    """Export trained ``weights`` (.pt) to ONNX in ``models`` with dynamic input size (the table view at
    run time, whole frames for the benchmark's peer) and write ``record`` beside it."""
    w, h = VIEW_SIZE
    return export_onnx(
        weights,
        models / f"{DETECTOR_NAME}.onnx",
        (h, w),
        {"width": w, "height": h, "what": "vision.table_view.TableView, BGR->RGB, /255"},
        record,
    )


def validation_figures(metrics: Any) -> dict[str, float]:
    """The headline figures of an ultralytics validation run."""
    return {
        "mAP50": round(float(metrics.box.map50), 4),
        "mAP50_95": round(float(metrics.box.map), 4),
        "precision": round(float(metrics.box.mp), 4),
        "recall": round(float(metrics.box.mr), 4),
    }


def environment(device: str) -> dict[str, Any]:
    """What a model was trained with and on, for its record."""
    import torch
    import ultralytics

    return {
        "versions": {
            "ultralytics": ultralytics.__version__,
            "torch": torch.__version__,
            "python": platform.python_version(),
        },
        "machine": f"{platform.machine()}, {os.cpu_count()} CPU cores, device {device}",
    }


def export_onnx(
    weights: Path,
    target: Path,
    imgsz: int | tuple[int, int],
    input_desc: dict[str, Any],
    record: dict[str, Any],
) -> dict[str, Any]:
    """Export ``weights`` (.pt) to ONNX (opset 18, dynamic input size) as ``target``, and write the model's
    record (``record`` with the file name, its input and classes) beside it as JSON; returns the record."""
    from ultralytics import YOLO  # type: ignore[attr-defined, unused-ignore]

    model = YOLO(str(weights))
    onnx_path = Path(model.export(format="onnx", imgsz=imgsz, opset=18, simplify=True, dynamic=True))
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(onnx_path, target)
    record = {"model": target.name, "input": input_desc, "classes": list(model.names.values()), **record}
    target.with_suffix(".json").write_text(json.dumps(record, indent=1) + "\n")
    return record
