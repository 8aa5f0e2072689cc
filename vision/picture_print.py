"""Whether two pictures come from one still camera, whatever the light: a print of each picture's edges.

A folder of photos from a fixed camera over a table shows the same rails, pockets and room in every photo,
under whatever light a lamp or a projector throws, with the balls and the players moved. Its photos can
then share what one photo alone may get wrong: the table (``pipeline.photos``). A photo from a camera that
moved, or of another table, cannot.

A picture's print is its lightness gradient on a small copy (``PRINT_PX`` on the long side), each pixel's
magnitude over the local mean magnitude round it, so a dim photo and a lit one of the same scene print
alike. Two prints are of one camera when phase correlation finds them in register (shifted by at most
``SAME_SHIFT_PX`` print pixels) with a clear peak (``SAME_RESPONSE``), or with two quarters in register
with clear peaks of their own (a player's body across a real table's view lowers the whole's peak to
0.13-0.23, unshifted, where the quarters it does not cover answer 0.6-0.95), and each quarter that has a
clear peak of its own is in register too (a camera turned about the picture's middle leaves the whole in
register and moves the quarters apart): the same photo under a projector's blue, magenta or warm ramp
answers 0.95-0.99 unshifted; one shifted by 1 % of its width moves 3 print pixels; one turned by 2 degrees
answers 0.62-0.70 in register, its quarters 2-3 print pixels apart; two phone photos of one table from two
places, or two placings of one fixed camera, answer 0.02-0.26 at a shift of tens of pixels. A picture with
almost no edges (a flat frame, a covered lens) has no print and matches nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

PRINT_PX = 320  # long side of the copy a print is made on: the scene's layout, not its detail
LOCAL_SIGMA = 8.0  # print pixels over which the gradient's local mean is taken
FLOOR_SHARE = 0.05  # of the picture's mean gradient, added under the local mean: flat stretches stay flat
MIN_EDGE = 1.0  # mean gradient (8-bit levels per print pixel) below which a picture has no print
SAME_SHIFT_PX = 1.0  # print pixels two prints of one camera may be apart (0.3 % of the width)
SAME_RESPONSE = 0.3  # the phase correlation's peak two prints of one camera reach
MIN_QUARTERS = 2  # quarters in register with clear peaks that stand for the whole where it has none


@dataclass(frozen=True)
class PicturePrint:
    """A picture's size (width, height) and its edges' print (float32), None for a picture with none."""

    size: tuple[int, int]
    edges: np.ndarray | None


def picture_print(image: np.ndarray) -> PicturePrint:
    """The print of a BGR picture (H x W x 3 uint8)."""
    h, w = image.shape[:2]
    s = PRINT_PX / max(h, w)
    small = cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    gray = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32), (3, 3), 0)
    magnitude = np.hypot(cv2.Sobel(gray, cv2.CV_32F, 1, 0), cv2.Sobel(gray, cv2.CV_32F, 0, 1))
    mean = float(magnitude.mean())
    if mean < MIN_EDGE:
        return PicturePrint((w, h), None)
    local = cv2.GaussianBlur(magnitude, (0, 0), LOCAL_SIGMA) + FLOOR_SHARE * mean
    return PicturePrint((w, h), np.asarray(magnitude / local, np.float32))


def same_camera(a: PicturePrint, b: PicturePrint) -> bool:
    """Whether two prints are of one still camera's pictures: one size; the whole in register, with a clear
    peak or with at least MIN_QUARTERS quarters in register with clear peaks of their own (a player's body
    across the view hides the rest: the whole's peak falls to 0.13-0.23, unshifted); and no quarter with a
    clear peak out of register (a camera turned about the picture's middle)."""
    if a.size != b.size or a.edges is None or b.edges is None:
        return False
    shift, response = _register(a.edges, b.edges)
    if shift > SAME_SHIFT_PX:
        return False
    h, w = a.edges.shape
    quarters = [
        _register(a.edges[rows, cols], b.edges[rows, cols])
        for rows in (slice(0, h // 2), slice(h // 2, h))
        for cols in (slice(0, w // 2), slice(w // 2, w))
    ]
    clear = [q_shift for q_shift, q_response in quarters if q_response >= SAME_RESPONSE]
    if any(q_shift > SAME_SHIFT_PX for q_shift in clear):
        return False
    return response >= SAME_RESPONSE or len(clear) >= MIN_QUARTERS


def _register(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """How far apart two prints (or two parts of them) lie (print pixels), and the peak's response."""
    window = cv2.createHanningWindow((a.shape[1], a.shape[0]), cv2.CV_32F)
    (dx, dy), response = cv2.phaseCorrelate(np.ascontiguousarray(a), np.ascontiguousarray(b), window)
    return float(np.hypot(dx, dy)), float(response)
