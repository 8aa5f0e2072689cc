"""Second-look renders: tables drawn by renderers other than the one Arbiter's synthetic world trains and
tests on, with exact truth, for the views no real photo here shows.

- ``pooltool/``: pooltool's own 3D renderer (panda3d, offscreen; ``pooltool_renders``): a snooker table
  and a 7 ft pool table, four views 4-6 degrees off vertical and three broadcast-like ones.
- ``arbiter/``: Arbiter's renderer from a broadcast camera's place (``broadcast_renders``): high behind the
  baulk end, tilted 35-50 degrees, green, blue and red cloth, a score bar over the bottom cushion, a player's
  dark shape and a cue; and one grey-cloth overhead view.

Each ``<name>.jpg`` has a ``<name>.json`` beside it: the table, the camera (OpenCV pinhole in table mm), the
playing area's corners (``corners_px``; pooltool's at its cushion-nose height, and at cloth level in
``corners_cloth_px``) and every ball. A ``TableImage`` takes the corners at cloth level: where the
calibration models them (``AutoConfig.nose_z_mm``, 0) and where the real photos' labels put them (the bed's
visible edge). The images are JPEG
(quality 92) copies of the renders: small enough to keep, and a little of a real camera's compression.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType

from datasets.billiards.real import GAME_OF_KIND, TableImage, read_balls, read_corners

HERE = Path(__file__).resolve().parent
SOURCES = ("pooltool", "arbiter")


def renders(root: Path = HERE) -> tuple[TableImage, ...]:
    """Every render under ``root/<source>/``, by source and name. A pool table's two ends look alike, so
    its orientation counts as unknown; a snooker table's baulk line and D tell them apart."""
    out = []
    for source in SOURCES:
        for path in sorted((root / source).glob("*.json")):
            rec = json.loads(path.read_text(encoding="utf-8"))
            table = rec["table"]
            out.append(
                TableImage(
                    name=path.stem,
                    image_path=path.with_name(rec["image"]),
                    real=False,
                    game=GAME_OF_KIND[table["kind"]],
                    view=str(rec.get("view", "")),
                    corners_px=read_corners(rec.get("corners_cloth_px", rec["corners_px"])),
                    orientation_known=table["kind"] == "snooker",
                    aspect=float(table["length_mm"]) / float(table["width_mm"]),
                    balls=read_balls(rec.get("balls", [])),
                    truth=MappingProxyType(rec),
                )
            )
    return tuple(out)
