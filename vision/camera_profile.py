"""A camera fitted to a table, and its camera profile: the JSON file a calibration is saved to and loaded
from (``arbiter calibrate`` writes it, ``arbiter run --calibration`` reads it).

The profile records everything a later run needs and a person may check: the camera, the points the fit
used, which end was taken as the bottom and why, the table (its size from the game's catalogue) and the
verdict (sure, or the doubts). ``vision.calibration`` makes these; every stage after vision converts with
``px_to_mm`` and ``mm_to_px``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

import cv2
import numpy as np

from arbiter.games import billiards
from arbiter.tables import TableModel
from vision.camera_fit import CameraParts, backproject, principal_point, project, split
from vision.table_verdict import CalibrationVerdict

PROFILE_TYPE = "arbiter.camera_profile"
PROFILE_VERSION = 1

Orientation = Literal["markings", "convention", "points"]


@dataclass(frozen=True)
class TableCalibration:
    """A camera fitted to a table. Fields are plain numbers so the profile round-trips exactly; arrays
    are derived. ``points_px`` holds the named points the fit used (manual) or found (auto: the four
    corners), so a profile can be checked or corrected by hand. ``table`` is the table the camera was fitted
    to, of the size found or given (``TableModel.size``); ``verdict`` says whether the calibration is sure,
    and why not: never use an unsure one without saying so (``vision.calibration.warn_if_unsure``)."""

    game: str
    image_size: tuple[int, int]  # width, height in pixels
    f_px: float
    k1: float
    k2: float
    rvec: tuple[float, float, float]
    tvec: tuple[float, float, float]
    method: Literal["auto", "manual"]
    points_px: tuple[tuple[str, tuple[float, float]], ...] = ()
    reprojection_error_px: float = 0.0
    orientation: Orientation = "convention"  # what settled which short end is the bottom
    nose_z_mm: float = 0.0  # height of the cushion-nose line the fit used (AutoConfig.nose_z_mm)
    table: TableModel = field(default=None, compare=False, repr=False)  # type: ignore[assignment]
    verdict: CalibrationVerdict = field(default_factory=CalibrationVerdict)
    # The table the image does not show (px polygon; empty when all is seen): an end under a score bar or
    # past the frame's edge, placed from a marking or the middle pockets, and a score bar found over the
    # table (``vision.score_bar``). Nothing is detected there (a bar's letters are no balls);
    # ``table_mask`` leaves it out.
    unseen_px: tuple[tuple[float, float], ...] = ()

    def __post_init__(self) -> None:
        w, h = self.image_size
        if int(w) < 2 or int(h) < 2 or not (self.f_px > 0 and math.isfinite(self.f_px)):
            raise ValueError(f"bad calibration: image size {self.image_size}, focal length {self.f_px}")
        pose = (*self.rvec, *self.tvec, self.k1, self.k2)
        if len(self.rvec) != 3 or len(self.tvec) != 3 or not all(math.isfinite(v) for v in pose):
            raise ValueError(
                f"bad calibration: rvec and tvec need 3 finite values, got {self.rvec}, {self.tvec}"
            )
        if self.table is None:
            object.__setattr__(self, "table", billiards(self.game).table)
        elif self.table.game != self.game:
            raise ValueError(f"table {self.table.name!r} is for {self.table.game!r}, not {self.game!r}")

    # --- derived (computed once per instance) ---
    @cached_property
    def _theta(self) -> np.ndarray:
        return np.array([self.f_px, self.k1, self.k2, *self.rvec, *self.tvec], dtype=np.float64)

    @cached_property
    def _parts(self) -> CameraParts:
        return split(self._theta)

    @cached_property
    def _centre(self) -> np.ndarray:
        return principal_point(self.image_size)

    @property
    def camera_matrix(self) -> np.ndarray:
        """OpenCV K (3 x 3); with ``dist_coeffs`` and ``rvec``/``tvec`` it drops into any OpenCV call."""
        cx, cy = self._centre
        return np.array([[self.f_px, 0.0, cx], [0.0, self.f_px, cy], [0.0, 0.0, 1.0]])

    @property
    def dist_coeffs(self) -> np.ndarray:
        return np.array([self.k1, self.k2, 0.0, 0.0, 0.0])

    @cached_property
    def camera_centre_mm(self) -> np.ndarray:
        """The camera's optical centre in table mm (its height is ``[2]``)."""
        return self._parts.origin

    @property
    def points(self) -> dict[str, tuple[float, float]]:
        return dict(self.points_px)

    @property
    def sure(self) -> bool:
        return self.verdict.sure

    # --- mapping ---
    def px_to_mm(self, xy_px: np.ndarray, z_mm: float = 0.0) -> np.ndarray:
        """Pixels (N, 2) -> table mm (N, 2) on the plane ``z_mm`` above the cloth. Ball centres are at
        ``z_mm = table.ball_radius_mm``."""
        px = np.asarray(xy_px, dtype=np.float64).reshape(-1, 2)
        if len(px) == 0:
            return np.zeros((0, 2))
        return backproject(self._parts, self._centre, px, z_mm)

    def mm_to_px(self, xy_mm: np.ndarray, z_mm: float = 0.0) -> np.ndarray:
        """Table mm (N, 2) at height ``z_mm`` -> pixels (N, 2), lens distortion included."""
        xy = np.asarray(xy_mm, dtype=np.float64).reshape(-1, 2)
        xyz = np.concatenate([xy, np.full((len(xy), 1), float(z_mm))], axis=1)
        return project(self._parts, self._centre, xyz) if len(xy) else np.zeros((0, 2))

    def radius_px(self, xy_mm: np.ndarray, radius_mm: float) -> np.ndarray:
        """Apparent radius (N,) of balls of ``radius_mm`` resting at ``xy_mm``: the geometric mean of the
        semi-axes of their silhouettes (ellipses off the axis), what a detector's circle should match."""
        xy = np.asarray(xy_mm, dtype=np.float64).reshape(-1, 2)
        p = np.concatenate([xy, np.full((len(xy), 1), float(radius_mm))], axis=1)
        v = p - self.camera_centre_mm
        dist = np.linalg.norm(v, axis=1, keepdims=True)
        w = v / dist
        rot = self._parts.rot
        u = rot[0][None, :] - (w @ rot[0])[:, None] * w
        u /= np.linalg.norm(u, axis=1, keepdims=True)
        vv = np.cross(w, u)
        ratio = (radius_mm / dist) ** 2  # the silhouette is the circle where rays graze the sphere
        c = p - ratio * v
        r = radius_mm * np.sqrt(1.0 - ratio)
        rim = np.concatenate([c + r * u, c - r * u, c + r * vv, c - r * vv])
        px = project(self._parts, self._centre, rim)
        px = px.reshape(4, len(p), 2)
        a, b = (px[0] - px[1]) / 2, (px[2] - px[3]) / 2
        return np.asarray(np.sqrt(np.abs(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0])))

    def outline_px(self, z_mm: float = 0.0) -> np.ndarray:
        """The playing area's boundary (N, 2) in pixels, on the plane ``z_mm`` above the cloth (the cushions'
        noses at ``table.cushion_height_mm``)."""
        return self.mm_to_px(_outline_mm(self.table), z_mm)

    def table_mask(self, shape: tuple[int, ...]) -> np.ndarray:
        """uint8 mask (255 inside) of the playing area at cloth level, pocket mouths and throats included
        (a ball dropping into a pocket stays inside it until it is gone)."""
        h, w = int(shape[0]), int(shape[1])
        if (w, h) != tuple(self.image_size):
            raise ValueError(
                f"mask of {w}x{h} px asked from a calibration made for {self.image_size[0]}x"
                f"{self.image_size[1]} px images; recalibrate for this resolution"
            )
        mask = np.zeros((h, w), np.uint8)
        polys = [self.outline_px()]
        depth = self.table.ball_diameter_mm
        for p in self.table.pockets:
            m, inward = np.array(p.mouth_xy_mm), np.array(p.inward)
            perp = np.array([-inward[1], inward[0]]) * p.opening_mm / 2
            throat = np.array([m + perp, m - perp, m - perp - inward * depth, m + perp - inward * depth])
            polys.append(self.mm_to_px(throat))
        cv2.fillPoly(mask, [np.round(q * 16).astype(np.int32) for q in polys], 255, cv2.LINE_8, 4)
        if self.unseen_px:
            unseen = np.round(np.array(self.unseen_px) * 16).astype(np.int32)
            cv2.fillPoly(mask, [unseen], 0, cv2.LINE_8, 4)
        return mask

    def shows(self, xy_px: np.ndarray) -> np.ndarray:
        """Per pixel (N, 2), whether the image shows the table there: False in the strip it does not show
        (``unseen_px``: an end under a score bar), where nothing seen is a ball."""
        xy = np.asarray(xy_px, dtype=np.float64).reshape(-1, 2)
        if not self.unseen_px:
            return np.ones(len(xy), bool)
        strip = np.array(self.unseen_px, np.float32)
        return np.array([cv2.pointPolygonTest(strip, (float(x), float(y)), False) < 0 for x, y in xy], bool)

    # --- profile ---
    def to_dict(self) -> dict[str, Any]:
        return {
            "type": PROFILE_TYPE,
            "version": PROFILE_VERSION,
            "game": self.game,
            "image_size": list(self.image_size),
            "method": self.method,
            "orientation": self.orientation,
            "camera": {
                "f_px": self.f_px,
                "principal_px": [float(v) for v in self._centre],
                "k1": self.k1,
                "k2": self.k2,
                "rvec": list(self.rvec),
                "tvec": list(self.tvec),
            },
            "nose_z_mm": self.nose_z_mm,
            "points_px": {name: list(xy) for name, xy in self.points_px},
            "reprojection_error_px": self.reprojection_error_px,
            "table": {
                "size": self.table.size,
                "name": self.table.name,
                "length_mm": self.table.length_mm,
                "width_mm": self.table.width_mm,
            },
            "verdict": self.verdict.to_dict(),
            **({"unseen_px": [list(xy) for xy in self.unseen_px]} if self.unseen_px else {}),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], source: str = "camera profile") -> TableCalibration:
        def need(obj: Mapping[str, Any], key: str, where: str) -> Any:
            if not isinstance(obj, Mapping) or key not in obj:
                raise ValueError(f"{source}: missing {where}{key!r}; recalibrate or fix the file")
            return obj[key]

        if d.get("type", PROFILE_TYPE) != PROFILE_TYPE:
            raise ValueError(f"{source}: not a camera profile (type {d.get('type')!r})")
        if int(d.get("version", PROFILE_VERSION)) > PROFILE_VERSION:
            raise ValueError(f"{source}: profile version {d['version']} is newer than this Arbiter reads")
        cam = need(d, "camera", "")
        try:
            size = need(d, "image_size", "")
            w, h = (int(v) for v in size)
            method = str(need(d, "method", ""))
            if method not in ("auto", "manual"):
                raise ValueError(f"method must be 'auto' or 'manual', got {method!r}")
            orientation = str(d.get("orientation", "convention"))
            if orientation not in ("markings", "convention", "points"):
                raise ValueError(f"orientation must be markings, convention or points, got {orientation!r}")
            pts = d.get("points_px", {})
            game = str(need(d, "game", ""))
            return cls(
                game=game,
                image_size=(w, h),
                f_px=float(need(cam, "f_px", "camera.")),
                k1=float(need(cam, "k1", "camera.")),
                k2=float(cam.get("k2", 0.0)),
                rvec=tuple(float(v) for v in need(cam, "rvec", "camera.")),  # type: ignore[arg-type]
                tvec=tuple(float(v) for v in need(cam, "tvec", "camera.")),  # type: ignore[arg-type]
                method=method,  # type: ignore[arg-type]
                points_px=tuple((str(k), (float(v[0]), float(v[1]))) for k, v in pts.items()),
                reprojection_error_px=float(d.get("reprojection_error_px", 0.0)),
                orientation=orientation,  # type: ignore[arg-type]
                nose_z_mm=float(d.get("nose_z_mm", 0.0)),
                table=_table_of(d.get("table"), game),
                verdict=CalibrationVerdict.from_dict(d.get("verdict", {})),
                unseen_px=tuple((float(x), float(y)) for x, y in d.get("unseen_px", [])),
            )
        except (TypeError, ValueError, IndexError, KeyError) as e:
            if str(e).startswith(source):
                raise
            raise ValueError(f"{source}: bad value ({e}); recalibrate or fix the file") from e

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n")

    @classmethod
    def load(
        cls, path: str | Path, image_size: tuple[int, int] | None = None, game: str | None = None
    ) -> TableCalibration:
        """Read a profile; with ``image_size`` (the video's) and ``game`` given, refuse a profile made for
        another resolution or table, saying what to do."""
        p = Path(path)
        try:
            d = json.loads(p.read_text())
        except FileNotFoundError:
            raise ValueError(f"camera profile {p} not found") from None
        except json.JSONDecodeError as e:
            raise ValueError(f"camera profile {p} is not JSON: {e}") from e
        if not isinstance(d, dict):
            raise ValueError(f"camera profile {p} must hold a JSON object")
        calib = cls.from_dict(d, source=f"camera profile {p}")
        if image_size is not None and tuple(int(v) for v in image_size) != calib.image_size:
            raise ValueError(
                f"camera profile {p} was made for {calib.image_size[0]}x{calib.image_size[1]} px images but "
                f"the video is {image_size[0]}x{image_size[1]}; calibrate again at this resolution "
                "(automatic, or manual with four corner points) or use the profile made for it"
            )
        if game is not None and game != calib.game:
            raise ValueError(
                f"camera profile {p} is for {calib.game}, not {game}; use a profile of this table"
            )
        return calib


def _table_of(recorded: Any, game: str) -> TableModel:
    """The table a profile records: its catalogue size (``"10ft"``, or ``{"size": "10ft", ...}``), the
    game's own table when it records none (profiles made before sizes). A recorded playing area must be
    the catalogue's: a profile is never silently read with another table."""
    base = billiards(game).table
    if recorded is None:
        return base
    size = recorded if isinstance(recorded, str) else str(recorded.get("size", "") or base.size)
    table = base.resized(size)
    if isinstance(recorded, Mapping):
        for key in ("length_mm", "width_mm"):
            if key in recorded and abs(float(recorded[key]) - getattr(table, key)) > 0.5:
                raise ValueError(
                    f"table {key} {recorded[key]} is not the {game} {size} table's ({getattr(table, key)})"
                )
    return table


def _outline_mm(table: TableModel, per_side: int = 48) -> np.ndarray:
    """The playing area's boundary, densely sampled so that distortion bends it correctly in pixels."""
    w, length = table.width_mm, table.length_mm
    s = np.linspace(0.0, 1.0, per_side, endpoint=False)
    return np.concatenate(
        [
            np.stack([w * s, np.zeros_like(s)], 1),
            np.stack([np.full_like(s, w), length * s], 1),
            np.stack([w * (1 - s), np.full_like(s, length)], 1),
            np.stack([np.zeros_like(s), length * (1 - s)], 1),
        ]
    )
