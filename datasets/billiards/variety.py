"""How varied the synthetic world's filming is: which cameras and which rooms a shot is drawn in. One place,
so that ``arbiter synth`` and the detector's training set (``detector_data.DatasetRecipe``) draw from the
same definition and a trained model's record says which one it saw.

- ``CLASSIC``: what ``arbiter synth`` has always drawn (overhead cameras 0.5-5 degrees off vertical, the
  default ``LookRanges``): the same seed still gives byte-identical clips.
- ``WIDE``: the variety issue 10 asks the detector to be trained on, as far as the renderer draws it today:
  a share of broadcast cameras (``broadcast_camera``: behind one end, 30-68 degrees off vertical, the near
  cushion hiding balls against it), overhead cameras up to 12 degrees off vertical and from higher or lower
  (narrower or wider lenses), every cloth colour of the catalogue with even odds, harsher and dimmer light
  (more lamps, lower ambient, wider exposure), stronger sensor noise and heavier JPEG compression, and more
  clips with a player's arm over the table (the cue is already in most), and a broadcast's score bar over
  the bottom of a quarter of the clips (``look.ScoreBar``; the balls under it are hidden in the truth).
- ``BROADCAST``: every shot from a broadcast's main camera with its score bar (``arbiter synth --variety
  broadcast``): the clips issue 10 measures broadcast pots on (``arbiter eval``), the rest of the look as
  ``CLASSIC``.
- ``PROJECTOR``: a fixed overhead rig (``CLASSIC``'s cameras) with a projector's coloured light over the table
  (``look.Projector``: a cast ramping across the frame, a hot spot) and printed markers on the rails
  (``look.RailMarkers``), as the hidden real overhead set of issue 10 is filmed.

Tables of other sizes than the game's own are ``SynthConfig.table`` (``arbiter synth --table 6ft``), with any
variety. Not drawn yet (the renderer has no such layer): logos and other graphics, whole players beside the
table.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from arbiter.tables import TableModel

from .camera import BroadcastRanges, Camera, CameraRanges, broadcast_camera
from .look import CLOTH_RGB, Look, LookRanges


@dataclass(frozen=True)
class Variety:
    """The spread a shot's camera and look are drawn from: a broadcast camera with ``broadcast_share``,
    else an overhead one within ``overhead``; the room within ``look``."""

    name: str = "classic"
    broadcast_share: float = 0.0
    overhead: CameraRanges = field(default_factory=CameraRanges)
    broadcast: BroadcastRanges = field(default_factory=BroadcastRanges)
    look: LookRanges = field(default_factory=LookRanges)

    def __post_init__(self) -> None:
        if not 0.0 <= self.broadcast_share <= 1.0:
            raise ValueError(f"broadcast_share must be between 0 and 1 (got {self.broadcast_share})")

    def camera(self, table: TableModel, width: int, height: int, rng: np.random.Generator) -> Camera:
        """A camera for one shot. With no broadcast share the stream is used exactly as ``Camera.random``
        uses it, so a classic run's cameras do not change."""
        if self.broadcast_share > 0.0 and rng.random() < self.broadcast_share:
            return broadcast_camera(table, width, height, rng, self.broadcast)
        return Camera.random(table, width, height, rng, self.overhead)

    def room(self, rng: np.random.Generator) -> Look:
        """The look of one shot's room."""
        return Look.random(rng, self.look)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly, for a dataset's or a model's record."""
        out: dict[str, Any] = asdict(self)
        return out


CLASSIC = Variety()
WIDE = Variety(
    name="wide",
    broadcast_share=0.3,
    overhead=CameraRanges(hfov_deg=(45.0, 95.0), tilt_deg=(0.0, 12.0), yaw_deg=4.0, margin=(0.0, 0.12)),
    look=LookRanges(
        cloth_weights=(1.0,) * len(CLOTH_RGB),
        lamps=(1, 5),
        lamp_gain=(0.05, 0.9),
        ambient=(0.4, 0.95),
        vignette=(0.0, 0.5),
        brightness=(0.65, 1.3),
        exposure=(0.05, 1.0),
        noise_sigma=(0.5, 7.0),
        jpeg_quality=(35, 95),
        arm_probability=0.5,
        score_bar_probability=0.25,
    ),
)
BROADCAST = Variety(name="broadcast", broadcast_share=1.0, look=LookRanges(score_bar_probability=1.0))
PROJECTOR = Variety(
    name="projector", look=LookRanges(projector_probability=1.0, rail_markers_probability=1.0)
)
VARIETIES = {v.name: v for v in (CLASSIC, WIDE, BROADCAST, PROJECTOR)}
