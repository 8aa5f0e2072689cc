"""A fast overhead-camera renderer for synthetic billiards clips, OpenCV and numpy only.

Speed comes from doing the expensive part once per shot: the table (cloth, cushions, pockets, markings,
uneven light, vignette) is drawn in table millimetres and warped through the camera, lens distortion
included, into a static background (``background``, ``table``). Each frame then copies it, blends small
pre-shaded ball sprites (``balls``, ``shadows``; one affine warp each, which also gives sub-pixel placement
and the perspective stretch of off-axis balls, and streaks under motion blur: ``blur``), draws pins
(``pins``) and occluders (``occluders``: cue, bridge hand, arm) and adds a pre-drawn noise field at a
per-frame offset (``noise``); ``renderer`` puts these together, ``frame`` says what comes out and ``bench``
times it. Everything is a function of the seed and the sample times, so the same inputs give
byte-identical frames whatever was rendered before.
"""

from __future__ import annotations

from .background import Background, build_background
from .bench import bench, bench_motion, bench_scene
from .frame import RenderedFrame, RenderedObject, Stroke, exposure_times, jpeg_roundtrip
from .renderer import TableRenderer
from .table import cushion_polygons, pocket_shapes

__all__ = [
    "Background",
    "RenderedFrame",
    "RenderedObject",
    "Stroke",
    "TableRenderer",
    "bench",
    "bench_motion",
    "bench_scene",
    "build_background",
    "cushion_polygons",
    "exposure_times",
    "jpeg_roundtrip",
    "pocket_shapes",
]
