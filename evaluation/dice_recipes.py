"""How the dice reader is trained: the recipes of its two stages and of the whole run (no torch here, so
the command line can show and check them where the train extra is missing).

The budget is this machine's two CPU cores for at most 30 minutes: the finder and the face reader train
at once, one process and one thread each (``evaluation.train_dice``), so their steps are sized to finish
together in about 21 minutes on quiet cores, leaving the rest to the data and the export.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

from datasets.dice.training_data import DataRecipe


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


# How often each source is drawn into a training batch, for both stages: the oblique set, the hardest, most.
SET_WEIGHTS = {"topdown-webcam": 0.2, "oblique-phone": 0.35, "tray-phone": 0.2, "renders": 0.25}


@dataclass(frozen=True)
class FinderRecipe:
    """The finder learns on random patches of ``patch`` pixels at the scale it runs at (``long_side`` over
    the photo's long side) times a log-uniform factor in ``scale_range``, so that dice from a few pixels to
    close-ups are met. ``set_weights``: the share of patches drawn from each set. ``die_share``: patches
    centred near a die (the rest anywhere: tables, trays, game pieces teach what is not a die).
    ``checkpoint_at``: at this step the finder is exported as it is, for the face reader to mine the places
    it takes for dice (``FacesRecipe.hard_from``)."""

    iters: int = 5500
    batch: int = 24
    patch: int = 256
    lr: float = 3e-3
    weight_decay: float = 1e-4
    long_side: int = 512
    scale_range: tuple[float, float] = (0.45, 2.0)
    max_turn_deg: float = 10.0
    max_stretch: float = 1.25
    die_share: float = 0.8
    size_weight: float = 0.5
    checkpoint_at: int = 1800  # the step whose finder the face reader mines its hard negatives with (0: none)
    set_weights: dict[str, float] = field(default_factory=lambda: dict(SET_WEIGHTS))
    seed: int = 0
    widths: tuple[int, ...] = (16, 24, 48, 64, 96, 128)  # channels: stem, strides 4, 8, 16, 32, 64
    head: int = 24  # channels of the pyramid the heatmap is read from
    bf16: bool = True  # convolutions in bfloat16 while training (autocast; the export stays float32)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = _plain(asdict(self))
        return out


@dataclass(frozen=True)
class FacesRecipe:
    """The face reader learns on crops made as at run time (``vision.dice_crops``) round each die's box,
    moved and resized as the finder's boxes are (``centre_jitter`` of the side, a size factor in
    ``size_range``), turned (all the way round on sets seen from straight above, ``full_turn``; else up
    to ``small_turn_deg``: in an oblique view the top face is the one farther up), put in perspective,
    recoloured, blurred and glared. ``not_a_die_share`` of each batch is crops of no die: empty table, busy
    places (edges, pieces, magnets) and single pips of big dice. ``cocked_share``: of render crops, the share
    drawn from cocked dice (the real sets have none). From step ``hard_from`` on, ``hard_share`` of the
    crops of no die are the finder's own mistakes on the training photos: the places its checkpoint
    (``FinderRecipe.checkpoint_at``) scores at least ``hard_min_score`` that hold no die (tokens with dots,
    pips of big dice, carpet, keys), so that the reader's doubt that a crop is a die ranks them below real
    dice the finder scored low (``DiceReaderConfig.die_power``). 0: none."""

    iters: int = 16000
    batch: int = 64
    lr: float = 4e-3
    weight_decay: float = 5e-4
    label_smoothing: float = 0.05
    centre_jitter: float = 0.1
    size_range: tuple[float, float] = (0.75, 1.4)
    straight_share: float = 0.5  # crops not turned: the ones the box is learnt from
    small_turn_deg: float = 25.0
    full_turn: tuple[str, ...] = ("tray-phone",)
    not_a_die_share: float = 0.25
    cocked_share: float = 0.35
    box_weight: float = 0.5
    hard_from: int = 6400
    hard_share: float = 0.5
    hard_min_score: float = 0.05
    set_weights: dict[str, float] = field(default_factory=lambda: dict(SET_WEIGHTS))
    seed: int = 1
    eval_every: int = 500
    widths: tuple[int, ...] = (16, 32, 64, 128)  # channels at 40, 20, 10 and 5 px
    bf16: bool = True  # convolutions in bfloat16 while training (autocast; the export stays float32)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = _plain(asdict(self))
        return out


@dataclass(frozen=True)
class DiceTrainRecipe:
    """The whole run: data, the two stages, and the seeds (each stage holds its own)."""

    data: DataRecipe = field(default_factory=DataRecipe)
    finder: FinderRecipe = field(default_factory=FinderRecipe)
    faces: FacesRecipe = field(default_factory=FacesRecipe)

    def __post_init__(self) -> None:
        mines = 0 < self.faces.hard_from < self.faces.iters
        if mines and not 0 < self.finder.checkpoint_at <= self.finder.iters:
            raise ValueError(
                f"the face reader mines the finder's mistakes at its step {self.faces.hard_from}, but the "
                f"finder's checkpoint_at ({self.finder.checkpoint_at}) is not one of its {self.finder.iters} "
                "steps: set both, or hard_from 0 for none"
            )

    def to_dict(self) -> dict[str, Any]:
        return {"data": self.data.to_dict(), "finder": self.finder.to_dict(), "faces": self.faces.to_dict()}

    def with_steps(self, finder_iters: int, face_iters: int) -> DiceTrainRecipe:
        """The recipe with other step counts, the finder's checkpoint and the face reader's first hard
        negatives at the same share of each stage's steps (none when a stage is too short for them)."""
        checkpoint = round(self.finder.checkpoint_at * finder_iters / self.finder.iters)
        hard_from = round(self.faces.hard_from * face_iters / self.faces.iters) if checkpoint else 0
        return replace(
            self,
            finder=replace(self.finder, iters=finder_iters, checkpoint_at=checkpoint),
            faces=replace(self.faces, iters=face_iters, hard_from=hard_from),
        )


def finder_recipe(d: dict[str, Any]) -> FinderRecipe:
    tuples: dict[str, tuple[Any, ...]] = {k: tuple(d[k]) for k in ("scale_range", "widths") if k in d}
    return FinderRecipe(**{**d, **tuples})


def faces_recipe(d: dict[str, Any]) -> FacesRecipe:
    kept = ("size_range", "full_turn", "widths")
    tuples: dict[str, tuple[Any, ...]] = {k: tuple(d[k]) for k in kept if k in d}
    return FacesRecipe(**{**d, **tuples})


# Measured on this machine's two quiet cores in the shipped model's run (models/dice_reader.json: the two
# stages at once, one thread each): processor seconds per training step of each stage, and the data built
# once (two processes). A busy machine takes longer: the recipe before ran at 0.64 s a finder step under load.
FINDER_S_PER_STEP = 0.23  # batch 24 of 256 px patches, bfloat16 (0.29 at a load of 1-4; float32: 0.43)
FACES_S_PER_STEP = 0.063  # batch 64 of 40 px crops, bfloat16 (float32: 0.12)
DATA_S = 63.0  # growing the top-down set's boxes and reading the photos
RENDER_S = 0.14  # per rendered still
MINE_S = 60.0  # the face reader running the finder's checkpoint over the real training photos


def cost_estimate(recipe: DiceTrainRecipe) -> str:
    """What a run will cost on two quiet cores: the stages run at once, so the slower one counts; the face
    reader waits at ``hard_from`` for the finder's checkpoint where the finder is slower to reach it."""
    finder_step = FINDER_S_PER_STEP * recipe.finder.batch / 24 * (recipe.finder.patch / 256) ** 2
    finder = recipe.finder.iters * finder_step
    face_step = FACES_S_PER_STEP * recipe.faces.batch / 64
    faces = recipe.faces.iters * face_step
    if 0 < recipe.faces.hard_from < recipe.faces.iters:
        reached = max(recipe.faces.hard_from * face_step, recipe.finder.checkpoint_at * finder_step)
        faces = reached + MINE_S + (recipe.faces.iters - recipe.faces.hard_from) * face_step
    data = DATA_S + recipe.data.renders.count * RENDER_S
    return (
        f"about {(data + max(finder, faces)) / 60:.0f} min on two quiet cores: data {data / 60:.1f} min "
        f"(once; cached), then at once the finder ({recipe.finder.iters} steps, {finder / 60:.0f} min) and "
        f"the face reader ({recipe.faces.iters} steps, {faces / 60:.0f} min); a busy machine takes longer"
    )
