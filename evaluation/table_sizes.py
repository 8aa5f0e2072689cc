"""``arbiter eval table-sizes``: the automatic calibration on tables of every size each game is played on.

Issue 10 asks for tables of any real size, chosen from the table's aspect and the balls' size, every geometry
scaled from it. Here each game's catalogue (``arbiter.tables``: snooker 12, 10, 9, 6 ft; pool 9, 8, 7 ft;
pyramid 12, 11, 10, 9 ft; carom match and small) is drawn by the synthetic world (``SynthConfig.table``):
a few shots per size, each shot's first frame (the frame a run calibrates on) calibrated automatically with
only the game given, as ``arbiter run --game G`` does, in two rooms: the classic overhead one, and a fixed
rig with a projector's coloured light and printed markers on the rails (``variety.PROJECTOR``, the hidden
real overhead set's kind); or, asked for, a television camera high behind one end with a score bar over
the view (``variety.BROADCAST``, the hidden broadcast set's kind).

A calibration is right when it names the table's size and puts the corners within 1 % of the length
(``real_tables.corner_error``, against the corners the filming camera projects); sure but wrong when it is
sure and either is wrong. Sizes too near each other for the balls to tell apart (snooker's 10 and 12 ft,
pool's 8 and 9 ft: ``table_geometry.TELL_APART``) are expected to come out unsure with the game's own size
taken: the figure says how often that happens, and that none of them is sure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from arbiter.games import BILLIARDS_GAMES, billiards
from arbiter.tables import TableModel
from datasets.billiards.camera import Camera
from datasets.billiards.synth import SynthConfig, film, frame_times, scenes, simulate_shot
from datasets.billiards.variety import VARIETIES
from evaluation.real_tables import TOLERANCE, camera_corners, corner_error
from vision.calibration import CalibrationError, TableCalibration, calibrate_auto

SHOTS = 4  # per game, size and room
SEED = 9500
ROOMS = ("classic", "projector")
ROOMS_KNOWN = (*ROOMS, "broadcast")  # ``variety.BROADCAST``: the hidden broadcast set's kind of view
_UNIT = {"bl": (0.0, 0.0), "br": (1.0, 0.0), "tr": (1.0, 1.0), "tl": (0.0, 1.0)}  # of width, length


def corners_off(camera: Camera, calib: TableCalibration, table: TableModel) -> float:
    """The worst of the calibration's four corners from the ones ``camera`` films ``table`` with, as a share
    of the table's length (either end where the calibration took the bottom end by convention)."""
    unit = np.array(list(_UNIT.values()))
    z = calib.nose_z_mm
    truth = camera.project(np.c_[unit * [table.width_mm, table.length_mm], np.full(4, z)])
    return corner_error(
        camera_corners(calib, z),
        {k: (float(x), float(y)) for k, (x, y) in zip(_UNIT, truth, strict=True)},
        table.length_mm / table.width_mm,
        calib.orientation == "convention",
    )


@dataclass(frozen=True)
class SizeRow:
    """One shot's first frame calibrated: the true size, what was found, sure or not, how far off."""

    game: str
    size: str
    room: str
    shot: int
    found: str | None  # the size the calibration chose; None where it failed
    sure: bool
    corner_error: float | None
    failure: str = ""

    @property
    def right(self) -> bool:
        return self.found == self.size and self.corner_error is not None and self.corner_error <= TOLERANCE

    @property
    def sure_but_wrong(self) -> bool:
        return self.sure and not self.right


def first_frame(cfg: SynthConfig, index: int) -> tuple[np.ndarray, Camera]:
    """The first frame of shot ``index`` of ``cfg`` and the camera that filmed it (no video written)."""
    shot = simulate_shot(cfg, index)
    filming = film(cfg, shot)
    _, sub_times = frame_times(cfg, shot, filming.look)
    first = next(scenes(cfg, shot, sub_times[:1]))
    return filming.renderer.render(first).image, filming.camera


def catalogue_sizes(games: Iterable[str] | None = None) -> tuple[str, ...]:
    """Every size in the catalogues of ``games`` (default: every billiards game), each once."""
    names = [z.name for g in games or [s.id for s in BILLIARDS_GAMES] for z in billiards(g).table.sizes]
    return tuple(dict.fromkeys(names))


def evaluate_table_sizes(
    games: Iterable[str] | None = None,
    shots: int = SHOTS,
    rooms: Iterable[str] = ROOMS,
    size: tuple[int, int] = (1280, 720),
    seed: int = SEED,
    on_row: Callable[[SizeRow], None] | None = None,
    sizes: Iterable[str] | None = None,
    only_shots: Iterable[int] | None = None,
) -> list[SizeRow]:
    """Every size (or those of ``sizes``) of every game (default: all billiards games) in every room,
    ``shots`` first frames each (or only the shots ``only_shots`` of that draw: one frame looked at again)."""
    rows = []
    only = set(sizes) if sizes is not None else None
    for game in games or [s.id for s in BILLIARDS_GAMES]:
        table = billiards(game).table
        for k, table_size in enumerate(table.sizes):
            if only is not None and table_size.name not in only:
                continue
            for room in rooms:
                cfg = SynthConfig(
                    game=game,
                    shots=shots,
                    seed=seed + k,
                    width=size[0],
                    height=size[1],
                    video=False,
                    yolo_every=0,
                    variety=VARIETIES[room],
                    table=table_size.name,
                )
                for index in range(shots) if only_shots is None else sorted(set(only_shots)):
                    row = _row(cfg, index, room)
                    rows.append(row)
                    if on_row is not None:
                        on_row(row)
    return rows


def _row(cfg: SynthConfig, index: int, room: str) -> SizeRow:
    image, camera = first_frame(cfg, index)
    truth = cfg.spec.table
    try:
        calib = calibrate_auto(image, billiards(cfg.game).table)
    except CalibrationError as exc:
        return SizeRow(cfg.game, truth.size, room, index, None, False, None, str(exc).split(";")[0])
    off = corners_off(camera, calib, truth)
    return SizeRow(cfg.game, truth.size, room, index, calib.table.size, calib.sure, round(off, 5))


def summary(rows: Iterable[SizeRow]) -> dict[str, dict[str, Any]]:
    """Per game, size and room: shots, right, sure and right, sure but wrong, unsure, failed, the sizes
    chosen and the worst corner."""
    groups: dict[str, list[SizeRow]] = {}
    for r in rows:
        groups.setdefault(f"{r.game} {r.size} {r.room}", []).append(r)
    out = {}
    for key, g in groups.items():
        errors = [r.corner_error for r in g if r.corner_error is not None]
        out[key] = {
            "shots": len(g),
            "right": sum(r.right for r in g),
            "sure_and_right": sum(r.sure and r.right for r in g),
            "sure_but_wrong": sum(r.sure_but_wrong for r in g),
            "unsure": sum(not r.sure and r.found is not None for r in g),
            "failed": sum(r.found is None for r in g),
            "sizes_found": sorted({r.found or "-" for r in g}),
            "worst_corner_error": max(errors) if errors else None,
        }
    return out


def totals(rows: list[SizeRow]) -> dict[str, int]:
    """Over every row: shots, right, sure and right, sure but wrong, unsure, failed."""
    return {
        "shots": len(rows),
        "right": sum(r.right for r in rows),
        "sure_and_right": sum(r.sure and r.right for r in rows),
        "sure_but_wrong": sum(r.sure_but_wrong for r in rows),
        "unsure": sum(not r.sure and r.found is not None for r in rows),
        "failed": sum(r.found is None for r in rows),
    }


def to_dict(rows: list[SizeRow]) -> dict[str, Any]:
    return {"totals": totals(rows), "groups": summary(rows), "rows": [asdict(r) for r in rows]}


def format_report(rows: list[SizeRow]) -> str:
    """A Markdown table, one line per game, size and room, then the totals."""
    lines = [
        "| game | size | room | right | sure and right | sure but wrong | unsure | failed | sizes found "
        "| worst corner |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for key, g in summary(rows).items():
        game, size, room = key.split(" ")
        worst = "-" if g["worst_corner_error"] is None else f"{100 * g['worst_corner_error']:.2f} %"
        lines.append(
            f"| {game} | {size} | {room} | {g['right']}/{g['shots']} | {g['sure_and_right']} | "
            f"{g['sure_but_wrong']} | {g['unsure']} | {g['failed']} | {', '.join(g['sizes_found'])} "
            f"| {worst} |"
        )
    t = totals(rows)
    lines.append(
        f"\nAll: right {t['right']}/{t['shots']}, sure and right {t['sure_and_right']}, sure but wrong "
        f"{t['sure_but_wrong']}, unsure {t['unsure']}, failed {t['failed']}"
    )
    return "\n".join(lines)
