"""Automatic calibration on real photos and on second-look renders, beside the first finder, in one run.

Every image of the real test set with labelled corners (``datasets.billiards.real``) and every render of
another look (``datasets.billiards.second_look``) is calibrated twice: by ``calibrate_auto`` (the
markerless cloth-lines finder, with its verdict) and by the first finder (``AutoConfig(finder="outline")``,
what ``calibrate_auto`` did before). A calibration's error is its worst corner: each corner it puts in the
image (``TableCalibration.points``) is mapped through the labelled corners' homography into the table's
plane and measured as a share of the table's length. Where the label cannot tell the ends apart (pool
tables), the end-for-end swap is forgiven. The camera fitted is scored the same way (``camera_error``): the
table's corners at the cloth as it puts them in the image, what the referee maps the balls with. The two
differ where the camera is fitted to corners other than those found (an end seen at its nose's height,
``vision.corner_heights``; the cushion edges' refinement).

The figures (``RealTablesReport``): corners within ``tolerance`` (1 % of the length: the issue's goal), and
``sure but wrong``, calibrations that call themselves sure and are not within it: the count that must be
zero, since only an unsure calibration warns its user. The first finder has no verdict: whatever it does
not refuse, it uses, so every success of it counts as sure.

Each image may also be calibrated under coloured light (``lights``: ``real_balls.LIGHTS``, the whole image
multiplied by a colour ramp, what a projector over the table does): no labelled photo here is lit that way,
and the hidden real set is. With ``markers``, each light is also tried with printed markers on the table's
rails (``printed_markers``: the hidden set's tables carry them, none here does), its row's light named
``"<light>, printed markers"``.

With ``long_side``, every look is first made a camera's frame of that size (``as_camera_frame``: scaled so
its long side is that many pixels, area-averaged, and compressed as a JPEG of quality CAMERA_JPEG_QUALITY,
its labelled corners scaled alike): the hidden set's frames are 1280x720, and the labelled photos are
phone photos up to 1600 px wide, uncompressed since their own JPEG.

Each image's looks (its lights, with and without markers) are also one still camera's photos: the
figures "as one camera's photos" score what ``arbiter run FOLDER`` gives a folder of them, the table most
of its photos agree on (``pipeline.fixed_camera``), beside each look calibrated alone. The hidden real
overhead set is such a folder: forty photos from one fixed camera under a projector's changing light.

``evaluate_real_tables`` is what ``arbiter eval real`` calls; ``format_report`` prints it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

import cv2
import numpy as np

from arbiter.games import billiards
from datasets.billiards.real import CORNERS, TableImage, photos, with_corners
from datasets.billiards.second_look import renders
from evaluation.printed_markers import with_markers
from evaluation.real_balls import LIGHTS, lit
from pipeline.fixed_camera import each_photos_table
from vision.calibration import AutoConfig, CalibrationError, TableCalibration, calibrate_auto

AS_SHOT = "as shot"
MARKED = ", printed markers"  # appended to a light's name for its rows with markers on the rails
TOLERANCE = 0.01  # of the table's length: the "corners within 1 % of the table's length"
TURNED = {"bl": "tr", "br": "tl", "tr": "bl", "tl": "br"}
OLD_FINDER = AutoConfig(finder="outline")
CAMERA_JPEG_QUALITY = 85  # a camera frame's compression in ``as_camera_frame``
MIN_LONG_SIDE = 320  # the smallest camera frame ``as_camera_frame`` is asked for


@dataclass(frozen=True)
class Attempt:
    """One calibration of one image: its worst corner error (share of the length; None when it failed),
    whether it called itself sure, its doubts, what settled the ends, the table size it took, the time it
    took, and why it failed."""

    error: float | None
    sure: bool
    doubts: tuple[str, ...]
    orientation: str
    size: str
    seconds: float
    failure: str = ""
    camera_error: float | None = None  # the camera's corners at the cloth, scored like the corners found

    def right(self, tolerance: float) -> bool:
        return self.error is not None and self.error <= tolerance

    def sure_but_wrong(self, tolerance: float) -> bool:
        return self.error is not None and self.sure and self.error > tolerance

    def camera_right(self, tolerance: float) -> bool:
        return self.camera_error is not None and self.camera_error <= tolerance

    def camera_sure_but_wrong(self, tolerance: float) -> bool:
        return self.camera_error is not None and self.sure and self.camera_error > tolerance


@dataclass(frozen=True)
class Row:
    name: str
    real: bool
    view: str
    new: Attempt
    old: Attempt
    light: str = AS_SHOT
    one_camera: Attempt | None = None  # this look as one of its image's looks, one camera's photos


@dataclass(frozen=True)
class Summary:
    """The figures of one group of rows (real photos, or renders)."""

    images: int
    new_right: int
    new_sure: int
    new_sure_right: int
    new_sure_but_wrong: int
    old_right: int
    old_sure_but_wrong: int
    old_failed: int
    new_camera_right: int = 0
    new_camera_sure_but_wrong: int = 0
    one_camera_right: int = 0  # the looks scored as one camera's photos (``Row.one_camera``)
    one_camera_sure_but_wrong: int = 0


@dataclass(frozen=True)
class RealTablesReport:
    rows: tuple[Row, ...]
    tolerance: float = TOLERANCE
    long_side: int | None = None  # every look made a camera frame of this long side (``as_camera_frame``)

    @property
    def lights(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(r.light for r in self.rows))

    def summary(self, real: bool, light: str | None = AS_SHOT) -> Summary:
        """The figures of the real photos' rows (or the renders'), under ``light`` (None: every look)."""
        rows = [r for r in self.rows if r.real == real and light in (None, r.light)]
        tol = self.tolerance
        return Summary(
            images=len(rows),
            new_right=sum(r.new.right(tol) for r in rows),
            new_sure=sum(r.new.sure for r in rows),
            new_sure_right=sum(r.new.sure and r.new.right(tol) for r in rows),
            new_sure_but_wrong=sum(r.new.sure_but_wrong(tol) for r in rows),
            old_right=sum(r.old.right(tol) for r in rows),
            old_sure_but_wrong=sum(r.old.sure_but_wrong(tol) for r in rows),
            old_failed=sum(r.old.error is None for r in rows),
            new_camera_right=sum(r.new.camera_right(tol) for r in rows),
            new_camera_sure_but_wrong=sum(r.new.camera_sure_but_wrong(tol) for r in rows),
            one_camera_right=sum(r.one_camera is not None and r.one_camera.right(tol) for r in rows),
            one_camera_sure_but_wrong=sum(
                r.one_camera is not None and r.one_camera.sure_but_wrong(tol) for r in rows
            ),
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "tolerance": self.tolerance,
            "long_side": self.long_side,
            "real": self.summary(True).__dict__,
            "renders": self.summary(False).__dict__,
            "every_look": {
                "real": self.summary(True, None).__dict__,
                "renders": self.summary(False, None).__dict__,
            },
            "lights": {
                lt: {"real": self.summary(True, lt).__dict__, "renders": self.summary(False, lt).__dict__}
                for lt in self.lights
            },
            "rows": [
                {
                    "name": r.name,
                    "real": r.real,
                    "view": r.view,
                    "light": r.light,
                    "new": r.new.__dict__,
                    "old": r.old.__dict__,
                    "one_camera": None if r.one_camera is None else r.one_camera.__dict__,
                }
                for r in self.rows
            ],
        }


def corner_error(
    found: Mapping[str, tuple[float, float]],
    truth: Mapping[str, tuple[float, float]],
    aspect: float,
    either_end: bool,
) -> float:
    """The worst of the four corners' distances from the truth in the table's plane, as a share of its
    length (the truth's homography maps the image onto a 1-long table); with ``either_end``, the better of
    the corners as named and turned end for end."""
    table = np.array([[0, 0], [1 / aspect, 0], [1 / aspect, 1], [0, 1]], np.float32)
    h = cv2.getPerspectiveTransform(np.array([truth[k] for k in CORNERS], np.float32), table)

    def worst(names: Mapping[str, str]) -> float:
        p = np.array([found[names[k]] for k in CORNERS], np.float64).reshape(-1, 1, 2)
        return float(np.max(np.linalg.norm(cv2.perspectiveTransform(p, h).reshape(-1, 2) - table, axis=1)))

    same = worst({k: k for k in CORNERS})
    return min(same, worst(TURNED)) if either_end else same


def _attempt(image: TableImage, pixels: np.ndarray, config: AutoConfig | None) -> Attempt:
    """One calibration of one labelled image, scored."""
    return _calibrated(image, pixels, config)[0]


def _calibrated(
    image: TableImage, pixels: np.ndarray, config: AutoConfig | None
) -> tuple[Attempt, TableCalibration | None]:
    """One calibration of one labelled image, scored, and the calibration (None where it failed)."""
    if image.corners_px is None:
        raise ValueError(f"{image.name} has no labelled corners to score a calibration against")
    table = billiards(image.game).table
    started = time.perf_counter()
    try:
        calib: TableCalibration = calibrate_auto(pixels, table, config)
    except (CalibrationError, cv2.error) as exc:
        return Attempt(None, False, (), "", "", time.perf_counter() - started, str(exc).split(";")[0]), None
    return _scored(image, calib, time.perf_counter() - started), calib


def _scored(image: TableImage, calib: TableCalibration, seconds: float) -> Attempt:
    """A calibration of a labelled image scored against its corners."""
    assert image.corners_px is not None
    either_end = not image.orientation_known
    error = corner_error(calib.points, image.corners_px, image.aspect, either_end)
    camera = corner_error(camera_corners(calib), image.corners_px, image.aspect, either_end)
    doubts = tuple(str(r.kind) for r in calib.verdict.doubts)
    return Attempt(
        error, calib.verdict.sure, doubts, calib.orientation, calib.table.size, seconds, camera_error=camera
    )


def _as_one_camera(
    looks: list[tuple[Row, TableImage, TableCalibration | None]],
) -> list[Row]:
    """The rows of one image's looks with the table its looks, one camera's photos, agree on for each
    (``pipeline.fixed_camera``: what ``arbiter run FOLDER`` gives a folder of them)."""
    tables = each_photos_table([calib for _, _, calib in looks])
    rows = []
    for (row, scored, calib), chosen in zip(looks, tables, strict=True):
        taken = row.new if chosen is None or chosen is calib else _scored(scored, chosen, 0.0)
        rows.append(replace(row, one_camera=taken))
    return rows


def camera_corners(calib: TableCalibration, z_mm: float = 0.0) -> dict[str, tuple[float, float]]:
    """The playing area's four corners, ``z_mm`` above the cloth, where the calibration's camera puts them
    (px)."""
    t = calib.table
    unit = {"bl": (0.0, 0.0), "br": (1.0, 0.0), "tr": (1.0, 1.0), "tl": (0.0, 1.0)}
    mm = np.array([[u * t.width_mm, v * t.length_mm] for u, v in (unit[k] for k in CORNERS)])
    px = calib.mm_to_px(mm, z_mm)
    return {k: (float(p[0]), float(p[1])) for k, p in zip(CORNERS, px, strict=True)}


def evaluate_real_tables(
    images: Iterable[TableImage] | None = None,
    tolerance: float = TOLERANCE,
    on_image: Callable[[Row], None] | None = None,
    lights: Iterable[str] = (AS_SHOT,),
    markers: bool = False,
    long_side: int | None = None,
) -> RealTablesReport:
    """Both finders on every image with labelled corners (default: the real photos, then the renders),
    under each of ``lights`` (names of ``real_balls.LIGHTS``), and with ``markers`` each light again with
    printed markers on the rails; with ``long_side``, each look as a camera frame of that size
    (``as_camera_frame``)."""
    if long_side is not None and long_side < MIN_LONG_SIDE:
        raise ValueError(
            f"a long side of {long_side} px is too small to find a table in: {MIN_LONG_SIDE} or more"
        )
    lights = tuple(lights)
    unknown = [light for light in lights if light not in LIGHTS]
    if unknown:
        raise ValueError(f"unknown light {unknown[0]!r}: the lights are {', '.join(LIGHTS)}")
    chosen = with_corners(tuple(images) if images is not None else photos() + renders())
    rows: list[Row] = []
    for image in chosen:
        shot = image.load()
        looks = [(light, shot) for light in lights]
        if markers:
            assert image.corners_px is not None  # with_corners chose it
            marked = with_markers(shot, image.corners_px, image.aspect)
            looks += [(light + MARKED, marked) for light in lights]
        seen = []
        for name, look in looks:
            scored, pixels = image, lit(look, name.removesuffix(MARKED))
            if long_side is not None:
                scored, pixels = as_camera_frame(image, pixels, long_side)
            new, calib = _calibrated(scored, pixels, None)
            row = Row(image.name, image.real, image.view, new, _attempt(scored, pixels, OLD_FINDER), name)
            seen.append((row, scored, calib))
            if on_image is not None:
                on_image(row)
        rows += _as_one_camera(seen)
    return RealTablesReport(tuple(rows), tolerance, long_side)


def as_camera_frame(image: TableImage, pixels: np.ndarray, long_side: int) -> tuple[TableImage, np.ndarray]:
    """``pixels`` (BGR, ``image``'s) as a camera's frame: scaled so that its long side is ``long_side`` px
    (area-averaged going down) and compressed as a JPEG of quality CAMERA_JPEG_QUALITY; and ``image`` with
    its labelled corners scaled alike (pixel centres kept)."""
    s = long_side / max(pixels.shape[:2])
    interpolation = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    frame = cv2.resize(pixels, None, fx=s, fy=s, interpolation=interpolation)
    ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, CAMERA_JPEG_QUALITY])
    decoded = cv2.imdecode(jpeg, cv2.IMREAD_COLOR) if ok else None
    if decoded is None:
        raise ValueError(f"{image.name}: its {frame.shape[1]}x{frame.shape[0]} frame could not be compressed")
    corners = None
    if image.corners_px is not None:
        corners = {k: ((x + 0.5) * s - 0.5, (y + 0.5) * s - 0.5) for k, (x, y) in image.corners_px.items()}
    return replace(image, corners_px=corners), np.asarray(decoded)


def _cell(a: Attempt) -> str:
    return f"fail ({a.failure[:60]})" if a.error is None else f"{100 * a.error:.2f} %"


def _verdict(a: Attempt) -> str:
    if a.error is None:
        return ""
    return "sure" if a.sure else "unsure: " + ", ".join(a.doubts)


def format_report(report: RealTablesReport) -> str:
    """The report as Markdown: a row per image (and light), then each group's figures under each light."""
    lines = [
        "| image | real | light | new: worst corner | new: its camera | new verdict | ends | size "
        "| as one camera's photos | first finder |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in report.rows:
        kind = "yes" if r.real else "render"
        new, old = _cell(r.new), _cell(r.old)
        camera = "" if r.new.camera_error is None else f"{100 * r.new.camera_error:.2f} %"
        shared = "" if r.one_camera is None or r.one_camera is r.new else _cell(r.one_camera)
        lines.append(
            f"| {r.name} | {kind} | {r.light} | {new} | {camera} | {_verdict(r.new)} | {r.new.orientation} "
            f"| {r.new.size} | {shared} | {old} |"
        )
    tol = f"{100 * report.tolerance:g} %"
    frame = "" if report.long_side is None else f", as {report.long_side} px camera frames"
    for light in report.lights:
        under = light.removeprefix(AS_SHOT) if light.startswith(AS_SHOT) else f", under {light}"
        under += frame
        for real, label in ((True, "Real photos"), (False, "Second-look renders")):
            s = report.summary(real, light)
            if not s.images:
                continue
            lines.append(
                f"\n{label} ({s.images}{under}): corners within {tol} of the length: new "
                f"{s.new_right}/{s.images} (sure and right {s.new_sure_right}, sure but wrong "
                f"{s.new_sure_but_wrong}, unsure {s.images - s.new_sure}), its camera {s.new_camera_right}/"
                f"{s.images} (sure but wrong {s.new_camera_sure_but_wrong}); first finder "
                f"{s.old_right}/{s.images} (failed {s.old_failed}, used but wrong {s.old_sure_but_wrong})"
            )
    if len(report.lights) > 1:
        lines += _one_camera_lines(report, tol, frame)
    return "\n".join(lines)


def _one_camera_lines(report: RealTablesReport, tol: str, frame: str) -> list[str]:
    """Each group's looks scored as its images' cameras' photos, beside each look alone."""
    lines = []
    for real, label in ((True, "Real photos"), (False, "Second-look renders")):
        s = report.summary(real, None)
        if not s.images:
            continue
        looks = len(report.lights)
        lines.append(
            f"\n{label}, every look ({s.images}{frame}), each image's {looks} looks one camera's photos (the "
            f"table most of them agree on, as `arbiter run FOLDER` takes it): corners within {tol} "
            f"{s.one_camera_right}/{s.images}, sure but wrong {s.one_camera_sure_but_wrong}; each look "
            f"alone {s.new_right}/{s.images}, sure but wrong {s.new_sure_but_wrong}"
        )
    return lines
