"""Ball detection on real photos and on second-look renders: found, precise and named, per image.

Every labelled image (``datasets.billiards.real``: every ball's centre, radius and identity) and every
render of another look (``datasets.billiards.second_look``) is run through the classical detector as the
pipeline builds it (``vision.detectors.build_detector``), in these settings:

- ``labelled``: the camera fitted to the labelled corners (``calibrate_manual``) on the catalogue table
  whose length in ball diameters is nearest the labels' (a render's own table for the renders), so the
  mask and the expected radius are what a user typing the corners gets; an image without corners in view
  is looked at without a table (the detector finds the cloth) and with the labels' median radius;
- ``auto``: the automatic calibration (``calibrate_auto``), used only where it says it is sure; an unsure
  one is reported and not scored;
- ``photos``: what ``arbiter run`` gives for a folder of photos (``pipeline.photos.photo_balls``): the
  automatic calibration used sure or not (the run says it is unsure, and goes on; where it finds no table,
  no ball is written and every labelled one is missed), the balls named under the game's ball set, scored
  where the calibration places each named ball;
- ``camera``: the same, the image's looks under the lights taken as one still camera's photos, as ``arbiter
  run FOLDER`` takes a fixed camera's folder: each look's table the one most of its looks agree on
  (``pipeline.fixed_camera``), its own where they agree on none or its own is sure and elsewhere.

The real photos are also scored under coloured light (``LIGHTS``: the whole image multiplied by a colour
ramp, what a projector over the table does to every ball and the cloth alike), since no labelled photo
here is lit that way and the hidden set is: in the ``labelled`` setting, and in the ``photos`` setting with
the table found automatically in the lit photo, as a run over such photos finds it; and under a projector's
pictures (``PROJECTED``: a light whose colour changes over the bed, each channel's gain a smooth random
field drawn from a seed) and its interfaces (``INTERFACE``: sharp-edged lines, rings and panels of coloured
light, what a projector drawing a game's aims and scores over the table adds) in those two settings; and as
a camera exposing brighter than the photo was (``EXPOSED``: every channel times a gain, clipped at the
sensor's white: bright balls first, then a pale cloth), in the same two.

A detection is a ball found when its centre lies within half a diameter (one radius) of a labelled ball,
one to one (Hungarian on the distance). Precision is over every detection; on a render a detection of a
ball hidden under an overlay is neither right nor wrong. Colour right compares colour families (a pool
number's colour, the cue ball and snooker's white as white), and only where the label's ball set is the
game's (a UK eight-ball set refereed as straight pool has no numbers to name).

``evaluate_real_balls`` is what ``arbiter eval real-balls`` calls; ``format_balls_report`` prints it beside
the figures of the detector as it was before the work of issue 10 (``START``, recorded by running this
module on that commit).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from scipy.optimize import linear_sum_assignment

from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import billiards
from arbiter.tables import TableModel
from datasets.billiards.real import TableImage, photos
from datasets.billiards.second_look import renders
from pipeline.billiards import RunOptions
from pipeline.fixed_camera import each_photos_table
from pipeline.photos import photo_balls
from vision.calibration import CalibrationError, TableCalibration, calibrate_auto, calibrate_manual
from vision.classical import ClassicalDetector
from vision.detectors import build_detector
from vision.table_geometry import choose_size
from vision.types import Detections

SETTINGS = ("labelled", "auto", "photos", "camera")
# the settings the real photos are also scored in under coloured light
LIT_SETTINGS = ("labelled", "photos", "camera")
# Coloured light over the whole image: per-channel (B, G, R) gains at the image's left and right edges,
# blended across it. A projector's light is not white and not even; these span the casts that move a
# snooker ball's hue the most (blue light greys the reds and browns, magenta turns green cloth grey).
LIGHTS: Mapping[str, tuple[tuple[float, float, float], tuple[float, float, float]] | None] = {
    "as shot": None,
    "blue light": ((1.25, 0.95, 0.65), (1.15, 0.9, 0.75)),
    "magenta light": ((1.1, 0.7, 1.2), (1.0, 0.75, 1.1)),
    "warm ramp": ((0.7, 0.9, 1.2), (0.95, 1.0, 1.05)),
}
# A projector's picture over the table: each channel's gain e ** (PROJECTED_STRENGTH * f), f a random field
# of PROJECTED_CELLS cells down the image, smoothly interpolated and scaled to reach 1; one seed a picture.
PROJECTED = tuple(f"projected picture {k}" for k in range(1, 7))
PROJECTED_STRENGTH, PROJECTED_CELLS = 0.35, 6
# A projector drawing a game's interface over the table: INTERFACE_SHAPES lines, rings and panels of light,
# each of one colour (every channel brightened by up to INTERFACE_LIGHT), sharp-edged, placed from a seed.
INTERFACE = tuple(f"projected interface {k}" for k in range(1, 7))
INTERFACE_SHAPES, INTERFACE_LIGHT = 6, 0.8
# A camera exposing for a room darker than the table (a projector's bright bed, auto-exposure on the dark
# room round it): every channel times the gain, clipped at the sensor's white.
EXPOSURES: Mapping[str, float] = {"over-exposed 1.3": 1.3, "over-exposed 1.5": 1.5, "over-exposed 1.7": 1.7}
EXPOSED = tuple(EXPOSURES)
START = Path(__file__).with_name("real_balls_start.json")
_POOL_FAMILY = ("yellow", "blue", "red", "purple", "orange", "green", "maroon", "black")
_JUDGED_SETS = ("snooker", "pool", "pyramid")  # label ball sets whose ids the game's classes can name


def family(name: str) -> str | None:
    """The colour family of a label's id or a detector's class name (None: nothing to compare)."""
    if name in ("white", "cue"):
        return "white"
    if name == "pyramid_ball":
        return "ivory"
    number = name.removeprefix("pool_")
    if number.isdigit():
        return _POOL_FAMILY[(int(number) - 1) % 8]
    return name if name in APPEARANCE_CLASSES else None


@dataclass(frozen=True)
class BallScore:
    """Counts over one or more images: balls labelled, detections, balls found (one to one within a
    radius), detections on hidden balls (not counted either way), colours judged and right, and the sum of
    the found balls' centre errors as a share of their radius."""

    truth: int = 0
    found: int = 0
    matched: int = 0
    on_hidden: int = 0
    judged: int = 0
    right: int = 0
    centre_error: float = 0.0

    def __add__(self, other: BallScore) -> BallScore:
        return BallScore(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    @property
    def recall(self) -> float:
        return self.matched / self.truth if self.truth else float("nan")

    @property
    def precision(self) -> float:
        counted = self.found - self.on_hidden
        return self.matched / counted if counted else float("nan")

    @property
    def colour(self) -> float:
        return self.right / self.judged if self.judged else float("nan")


@dataclass(frozen=True)
class BallRow:
    """One image in one setting under one light: its score (None when nothing was run: an unsure automatic
    calibration), what was missed and misnamed, and the detector's time."""

    name: str
    real: bool
    view: str
    setting: str
    light: str
    score: BallScore | None
    missed: tuple[str, ...] = ()
    misnamed: tuple[str, ...] = ()  # "truth->named"
    extra: int = 0  # detections that match no ball
    ms: float = 0.0
    note: str = ""


def score_detections(
    image: TableImage, xy_px: np.ndarray, names: list[str]
) -> tuple[BallScore, tuple[str, ...], tuple[str, ...]]:
    """Detections (centres, class names) against an image's labelled balls: the score, the ids missed and
    the balls misnamed."""
    hidden = _hidden(image)
    truth = np.array([b.xy_px for b in image.balls], np.float64).reshape(-1, 2)
    radius = np.array([b.radius_px for b in image.balls], np.float64)
    rows, cols = _match(truth, radius, xy_px)
    seen = ~hidden
    found_seen = seen[rows]
    ball_set = str(image.truth.get("table", {}).get("ball_set", "")).split(" ")[0]
    judged_set = not image.real or ball_set in _JUDGED_SETS
    right, judged, misnamed = 0, 0, []
    for r, c in zip(rows[found_seen], cols[found_seen], strict=True):
        want, got = family(image.balls[r].id), family(names[c])
        if judged_set and want is not None:
            judged += 1
            right += want == got
            if want != got:
                misnamed.append(f"{image.balls[r].id}->{names[c]}")
    error = np.linalg.norm(truth[rows] - xy_px[cols], axis=1) / radius[rows] if len(rows) else np.zeros(0)
    score = BallScore(
        truth=int(seen.sum()),
        found=len(xy_px),
        matched=int(found_seen.sum()),
        on_hidden=int((~found_seen).sum()),
        judged=judged,
        right=right,
        centre_error=float(error[found_seen].sum()),
    )
    missed = tuple(image.balls[i].id for i in np.nonzero(seen)[0] if i not in set(rows.tolist()))
    return score, missed, tuple(misnamed)


def _hidden(image: TableImage) -> np.ndarray:
    """Per labelled ball, whether it is hidden (a render's ball under an overlay)."""
    rows = image.truth.get("balls", [])
    return np.array([bool(b.get("occluded", False)) for b in rows], bool).reshape(len(image.balls))


def _match(truth: np.ndarray, radius: np.ndarray, xy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Truth and detection indices matched one to one within each truth ball's radius."""
    if not len(truth) or not len(xy):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    d = np.linalg.norm(truth[:, None, :] - xy[None, :, :], axis=2)
    far = d > radius[:, None]
    rows, cols = linear_sum_assignment(np.where(far, 1e6, d))
    ok = ~far[rows, cols]
    return rows[ok].astype(np.int64), cols[ok].astype(np.int64)


def lit(pixels: np.ndarray, light: str) -> np.ndarray:
    """The image under one of ``LIGHTS``, ``PROJECTED``, ``INTERFACE`` or ``EXPOSED``."""
    if light in EXPOSURES:
        return _lit_by(pixels, np.full(3, EXPOSURES[light], np.float32))
    if light in PROJECTED:
        return _lit_by(pixels, projected_gains(pixels.shape[:2], PROJECTED.index(light)))
    if light in INTERFACE:
        return _lit_by(pixels, interface_gains(pixels.shape[:2], INTERFACE.index(light)))
    ramp = LIGHTS[light]
    if ramp is None:
        return pixels
    w = pixels.shape[1]
    t = np.linspace(0.0, 1.0, w, dtype=np.float32)[None, :, None]
    left, right = (np.array(g, np.float32)[None, None, :] for g in ramp)
    return _lit_by(pixels, left + (right - left) * t)


def projected_gains(shape: tuple[int, int], seed: int) -> np.ndarray:
    """Per-pixel, per-channel gains (H, W, 3) of a projector's picture (``PROJECTED``) over an image of
    ``shape``."""
    h, w = shape
    cells = np.random.default_rng(seed).normal(size=(PROJECTED_CELLS, PROJECTED_CELLS * w // h + 1, 3))
    field: np.ndarray = cv2.resize(cells.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    field /= max(float(np.abs(field).max()), 1e-6)
    return np.asarray(np.exp(PROJECTED_STRENGTH * field))


def interface_gains(shape: tuple[int, int], seed: int) -> np.ndarray:
    """Per-pixel, per-channel gains (H, W, 3) of a projector's interface (``INTERFACE``) over an image of
    ``shape``: 1 where it draws nothing, sizes in shares of the image's height."""
    h, w = shape
    rng = np.random.default_rng([seed, 1])
    gains = np.ones((h, w, 3), np.float32)
    for _ in range(INTERFACE_SHAPES):
        colour = (1.0 + rng.uniform(0.0, INTERFACE_LIGHT, 3)).tolist()
        kind = int(rng.integers(3))
        x, y = int(rng.uniform(0.1, 0.9) * w), int(rng.uniform(0.1, 0.9) * h)
        width = max(1, int(rng.uniform(0.006, 0.02) * h))
        if kind == 0:  # a line: an aim, a path
            end = (int(rng.uniform(0.1, 0.9) * w), int(rng.uniform(0.1, 0.9) * h))
            cv2.line(gains, (x, y), end, colour, width)
        elif kind == 1:  # a ring round a ball or a target
            cv2.circle(gains, (x, y), int(rng.uniform(0.03, 0.12) * h), colour, width)
        else:  # a panel: a score, a menu
            corner = (x + int(rng.uniform(0.05, 0.2) * w), y + int(rng.uniform(0.05, 0.2) * h))
            cv2.rectangle(gains, (x, y), corner, colour, -1)
    return gains


def _lit_by(pixels: np.ndarray, gains: np.ndarray) -> np.ndarray:
    out = pixels.astype(np.float32) * gains
    return np.asarray(np.clip(out + 0.5, 0, 255).astype(np.uint8))


def sized_table(image: TableImage) -> TableModel:
    """The game's table in the catalogue size the labels say: a render's own length, or for a photo the
    size whose length in ball diameters is nearest the labelled one (the corners' long sides over the
    balls' median diameter)."""
    table = billiards(image.game).table
    if not table.sizes:
        return table
    if not image.real:
        length = float(image.truth["table"]["length_mm"])
        return table.resized(min(table.sizes, key=lambda s: abs(np.log(s.length_mm / length))).name)
    if image.corners_px is None or not image.balls:
        return table
    c = {k: np.array(v) for k, v in image.corners_px.items()}
    length_px = 0.5 * (np.linalg.norm(c["tl"] - c["bl"]) + np.linalg.norm(c["tr"] - c["br"]))
    share = 2.0 * float(np.median([b.radius_px for b in image.balls])) / float(length_px)
    choice = choose_size(table, share)
    best = min(table.sizes, key=lambda s: abs(np.log(table.ball_diameter_mm / share / s.length_mm)))
    return table.resized(best.name if choice.measured else choice.size.name)


def _labelled_detector(image: TableImage, pixels: np.ndarray) -> Any:
    """The detector as a run with the labelled corners typed in builds it (without corners in view: no
    table, the labels' median radius)."""
    spec = billiards(image.game)
    if image.corners_px is None:
        radius = float(np.median([b.radius_px for b in image.balls]))
        return ClassicalDetector(spec, radius, at_rest=True)
    table = sized_table(image)
    h, w = pixels.shape[:2]
    calib = calibrate_manual(dict(image.corners_px), table, (w, h))
    return build_detector("classical", replace(spec, table=table), calib, pixels.shape, at_rest=True)


Auto = TableCalibration | str  # the automatic calibration of an image, or why there is none


def _auto_calibration(image: TableImage, pixels: np.ndarray) -> Auto:
    try:
        return calibrate_auto(pixels, billiards(image.game).table)
    except CalibrationError as exc:
        return f"no table: {str(exc).split(';')[0][:60]}"


def _found(image: TableImage, pixels: np.ndarray, setting: str, auto: Auto) -> tuple[np.ndarray, list[str]]:
    """Where the balls are found in ``pixels`` (px) and the look each is named, in ``setting``."""
    spec = billiards(image.game)
    if setting in ("photos", "camera"):
        assert isinstance(auto, TableCalibration)
        sized = spec.resized(auto.table.size) if auto.table.size else spec
        _, views = photo_balls(pixels, auto, sized, RunOptions(spec=sized))
        xy_mm = np.array([v.xy_mm for v in views], float).reshape(-1, 2)
        return auto.mm_to_px(xy_mm, sized.table.ball_radius_mm), [sized.looks[v.ball].cls for v in views]
    if setting == "auto":
        assert isinstance(auto, TableCalibration)
        detector = build_detector(
            "classical", replace(spec, table=auto.table), auto, pixels.shape, at_rest=True
        )
    else:
        detector = _labelled_detector(image, pixels)
    found: Detections = detector.detect(pixels)
    return found.xy_px, list(found.class_names)


def _run(image: TableImage, pixels: np.ndarray, setting: str, light: str, auto: Auto) -> BallRow:
    base = BallRow(image.name, image.real, image.view, setting, light, None)
    if setting in ("photos", "camera") and isinstance(auto, str):
        # No table: the run writes no ball, so every labelled ball is missed.
        score, missed, _ = score_detections(image, np.zeros((0, 2)), [])
        return replace(base, score=score, missed=missed, note=auto)
    if setting != "labelled" and isinstance(auto, str):
        return replace(base, note=auto)
    if setting == "auto" and isinstance(auto, TableCalibration) and not auto.verdict.sure:
        return replace(base, note="calibration unsure: not used")
    started = time.perf_counter()
    xy_px, names = _found(image, lit(pixels, light), setting, auto)
    ms = 1000.0 * (time.perf_counter() - started)
    score, missed, misnamed = score_detections(image, xy_px, names)
    extra = score.found - score.matched - score.on_hidden
    return replace(base, score=score, missed=missed, misnamed=misnamed, extra=extra, ms=ms)


def evaluate_real_balls(
    images: Iterable[TableImage] | None = None,
    settings: Iterable[str] = SETTINGS,
    lights: Iterable[str] = (*LIGHTS, *PROJECTED, *INTERFACE, *EXPOSED),
    on_row: Callable[[BallRow], None] | None = None,
) -> RealBallsReport:
    """The detector on every image with labelled balls (default: the real photos, then the renders), in
    each setting; the real photos also under each light (the labelled, photos and camera settings; a
    projector's pictures and interfaces, the labelled and photos settings), the automatic calibration found
    in the lit photo. The camera setting takes the looks under ``LIGHTS`` as one camera's photos."""
    chosen = [i for i in (tuple(images) if images is not None else photos() + renders()) if i.balls]
    settings, lights = tuple(settings), tuple(lights)
    rows = []
    for image in chosen:
        pixels = image.load()
        looks = lights if image.real else tuple(lt for lt in lights if lt == "as shot")
        asked = [
            light
            for light in looks
            if any(s != "labelled" and (light == "as shot" or s in LIT_SETTINGS) for s in settings)
        ]
        autos: dict[str, Auto] = {light: _auto_calibration(image, lit(pixels, light)) for light in asked}
        shared = _as_one_camera({light: auto for light, auto in autos.items() if light in LIGHTS})
        for setting in settings:
            if setting == "camera" and not image.real:
                continue  # one look of a render: no camera's photos to agree
            for light in looks:
                if light != "as shot" and setting not in LIT_SETTINGS:
                    continue
                if setting == "camera" and light not in LIGHTS:
                    continue  # one camera's looks are those under ``LIGHTS`` (``shared``)
                auto = shared if setting == "camera" else autos
                row = _run(image, pixels, setting, light, auto.get(light, "not asked"))
                rows.append(row)
                if on_row is not None:
                    on_row(row)
    return RealBallsReport(tuple(rows))


def _as_one_camera(autos: Mapping[str, Auto]) -> dict[str, Auto]:
    """Each look's table where the looks are one camera's photos (``pipeline.fixed_camera``)."""
    tables = each_photos_table([a if isinstance(a, TableCalibration) else None for a in autos.values()])
    return {
        light: auto if chosen is None else chosen
        for (light, auto), chosen in zip(autos.items(), tables, strict=True)
    }


# The lights the report sums over: each of ``LIGHTS`` on its own, a projector's pictures together.
_SUMMED_LIGHTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    *((light, (light,)) for light in LIGHTS),
    ("projected pictures", PROJECTED),
    ("projected interfaces", INTERFACE),
    ("over-exposed", EXPOSED),
)
# Groups the report sums: name, and which rows.
_Pick = Callable[[BallRow], bool]
GROUPS: tuple[tuple[str, _Pick], ...] = (
    ("real overhead, labelled", lambda r: r.real and "overhead" in r.view and r.setting == "labelled"),
    ("real, labelled", lambda r: r.real and r.setting == "labelled"),
    ("real, auto (where sure)", lambda r: r.real and r.setting == "auto"),
    ("real, as arbiter run names a photo's", lambda r: r.real and r.setting == "photos"),
    ("real, as arbiter run names one camera's photos", lambda r: r.real and r.setting == "camera"),
    ("renders, labelled", lambda r: not r.real and r.setting == "labelled"),
    ("renders overhead, labelled", lambda r: not r.real and "overhead" in r.view and r.setting == "labelled"),
    ("renders, auto (where sure)", lambda r: not r.real and r.setting == "auto"),
    ("renders, as arbiter run names a photo's", lambda r: not r.real and r.setting == "photos"),
)


@dataclass(frozen=True)
class RealBallsReport:
    rows: tuple[BallRow, ...]

    def total(self, pick: _Pick, light: str | tuple[str, ...] = "as shot") -> tuple[BallScore, int]:
        """The summed score of the rows ``pick`` chooses under ``light`` (or any of several), and how many
        were scored."""
        under = (light,) if isinstance(light, str) else light
        chosen = [r.score for r in self.rows if r.light in under and pick(r) and r.score is not None]
        return sum(chosen, BallScore()), len(chosen)

    def to_dict(self) -> dict[str, Any]:
        groups: dict[str, Any] = {}
        for light, under in _SUMMED_LIGHTS:
            for name, pick in GROUPS:
                score, n = self.total(pick, under)
                if n:
                    groups[f"{name} / {light}"] = {"images": n, **score.__dict__}
        rows = [{**r.__dict__, "score": r.score.__dict__ if r.score else None} for r in self.rows]
        return {"groups": groups, "rows": rows}


def load_start(path: Path = START) -> dict[str, Any] | None:
    """The figures of the detector as it was before issue 10's work (``to_dict`` of that run), if kept."""
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def _pct(v: float) -> str:
    return "-" if v != v else f"{100 * v:.1f} %"


def _figures(s: BallScore) -> str:
    found = f"{s.matched}/{s.truth} = {_pct(s.recall)}"
    precise = f"{s.matched}/{s.found - s.on_hidden} = {_pct(s.precision)}"
    return f"found {found}, precision {precise}, colour right {s.right}/{s.judged} = {_pct(s.colour)}"


def _start_figures(start: Mapping[str, Any], key: str) -> str:
    g = start.get("groups", {}).get(key)
    if g is None:
        return "-"
    return _figures(BallScore(**{f.name: g[f.name] for f in fields(BallScore)}))


def _row_line(r: BallRow) -> str:
    if r.score is None:
        return f"| {r.name} | {r.setting} | {r.light} | {r.note} | | | | |"
    s = r.score
    err = f"{s.centre_error / max(s.matched + s.on_hidden, 1):.2f}"
    wrong = ", ".join(r.misnamed[:4])
    return (
        f"| {r.name} | {r.setting} | {r.light} | {s.matched}/{s.truth} | {s.matched}/{s.found - s.on_hidden}"
        f" | {s.right}/{s.judged} | {err} | missed {', '.join(r.missed) or '-'}; misnamed {wrong or '-'} |"
    )


def format_balls_report(report: RealBallsReport, start: Mapping[str, Any] | None = None) -> str:
    """The report as Markdown: a row per image, setting and light, then each group's figures now and, where
    given, at the start."""
    lines = [
        "| image | setting | light | found | precise | colour right | centre error (radii) | notes |",
        "|---|---|---|---|---|---|---|---|",
        *(_row_line(r) for r in report.rows),
        "",
    ]
    for light, under in _SUMMED_LIGHTS:
        for name, pick in GROUPS:
            score, n = report.total(pick, under)
            if not n:
                continue
            key = f"{name} / {light}"
            lines.append(f"- {key} ({n} {'looks' if len(under) > 1 else 'images'}): now {_figures(score)}")
            if start is not None:
                lines.append(f"  - at the start: {_start_figures(start, key)}")
    return "\n".join(lines)
