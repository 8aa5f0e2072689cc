"""Synthetic dice: pip dice rendered with numpy and OpenCV (no 3D engine), labelled exactly.

A die is a cube in table millimetres with an orientation; a pinhole camera looks at the table from straight
above to far oblique. Each visible face is its own small texture (body, bevelled edge, pips in the standard
layouts) warped onto the face's projected quad, shaded by a directional light, inside the cube's silhouette
rounded like a real die's corners; it casts a soft shadow along the light. Tables are procedural (wood,
cloth, speckled laminate, stone, printed boards with clutter), lit unevenly and tinted; the camera adds
defocus, noise and JPEG. Dice may be any colour, translucent-looking, with black, white, red or gold pips,
a large or logo one; some rest cocked (no face up) and are labelled ``cocked``.

Faces are numbered on the die body so that opposite faces sum to 7 (``BODY_FACES``, 1-2-3 counter-clockwise
round their corner as on Western dice); what shows on top follows from the orientation (``top_face``).

Two products:
- ``render_still`` / ``render_dataset``: stills with YOLO labels (whole visible die, class = face - 1, or 6
  for a cocked die; dice hidden more than ``MIN_VISIBLE`` are not labelled);
- ``throw_clip`` / ``write_throw_clip``: a short clip of throws (dice sliding and tumbling in, settling;
  kept dice lie still; some dice leave the table or end cocked) with per-frame truth and the truth of each
  throw, for ``tracking.throws.ThrowWatcher`` and ``arbiter run``.

Everything is a function of the seed: the same seed gives byte-identical images and labels.

This module is the door to the parts, each a module of its own: ``geometry`` (faces, orientations, the
camera), ``looks`` (dice, tables, light, textures), ``scene`` (placing and drawing dice with shadows, the
lens), ``stills`` (labelled stills) and ``throws`` (throw clips and their truth).
"""

from __future__ import annotations

from datasets.dice.geometry import (
    BODY_FACES,
    CAMERA_MM,
    COCKED_TILT_DEG,
    CORNERS,
    FLAT_TILT_DEG,
    IN_VIEW,
    MIN_VISIBLE,
    NORMALS,
    PIPS,
    VALUES,
    Camera,
    bottom_face,
    face_normal,
    face_up,
    resting_height,
    top_face,
)
from datasets.dice.looks import TABLE_KINDS, DieLook, Light, TableLook, face_texture, table_texture
from datasets.dice.scene import DieState, DrawnDie, Lens, SceneRenderer
from datasets.dice.stills import Still, StillRecipe, render_dataset, render_still, rng_for
from datasets.dice.throws import (
    FrameTruth,
    ThrowClip,
    ThrowRecipe,
    ThrowTruth,
    throw_clip,
    truth_readings,
    write_throw_clip,
)

__all__ = [
    "BODY_FACES",
    "CAMERA_MM",
    "COCKED_TILT_DEG",
    "CORNERS",
    "FLAT_TILT_DEG",
    "IN_VIEW",
    "MIN_VISIBLE",
    "NORMALS",
    "PIPS",
    "TABLE_KINDS",
    "VALUES",
    "Camera",
    "DieLook",
    "DieState",
    "DrawnDie",
    "FrameTruth",
    "Lens",
    "Light",
    "SceneRenderer",
    "Still",
    "StillRecipe",
    "TableLook",
    "ThrowClip",
    "ThrowRecipe",
    "ThrowTruth",
    "bottom_face",
    "face_normal",
    "face_texture",
    "face_up",
    "render_dataset",
    "render_still",
    "resting_height",
    "rng_for",
    "table_texture",
    "throw_clip",
    "top_face",
    "truth_readings",
    "write_throw_clip",
]
