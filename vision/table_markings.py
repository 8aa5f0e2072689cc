"""An end of the table placed from a one-ended marking (snooker's baulk line), where the image does not
show that end's cushion.

A broadcast camera stands behind the baulk end: its frame cuts the near cushion, or a score bar hides it,
and the cloth's outline then ends at the frame's or the graphic's edge, several percent of the length
short. The baulk line is still seen above the graphic: a thin white line across the cloth from one long
cushion to the other, at a known distance from the baulk cushion's nose (``arbiter.tables``). The far
end's corners and the line's two ends on the long sides are four points of a rectangle of known shape on
the cloth; their homography puts the near corners where they must be, whatever the camera. The far end's
errors are damped by the short reach (a quarter of them reaches the near corners); the line's are carried
about one and a quarter times.

The line is fitted across the cloth between the two side lines: every segment from a point on the left
side to one on the right, near an end, is scored by how much thin bright ridge it runs along (a white
top-hat, so balls and the cloth's shading hardly count), coarse to fine. It is taken only where it runs
along most of the width. The marking places only an end the image shows short of it (the end found lies
inside the placed one): a found end beyond it means the other end is the hidden one, and is said as a doubt.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from arbiter.tables import Line, TableModel
from vision.table_geometry import (
    PlaneView,
    apply_homography,
    cloth_corners_mm,
    homography,
    name_corners,
    quad_of,
)

# Where a one-ended line is looked for: this span of shares of the length from an end, in the found
# corners' top view (the end found may be ~10 % short, which moves the line's share by as much).
SEARCH = (0.04, 0.42)
SAMPLES = 120  # points read along a candidate line
INSET = 0.06  # share of the line's length left out at each side (cushion noses, pocket jaws)
TOPHAT_PX = 7  # the top-hat's size at 1280 px wide: wider than the line, narrower than a ball
RIDGE_SIGMA_PX = 1.0  # the response is blurred this much, so a line half a pixel off still scores
RIDGE_NOISE = 4.0  # a point is on a ridge this many robust noise units above the cloth's median
CAP = 3.0  # a point's score is capped at this many thresholds: a ball's highlight is not a line
MIN_COVER = 0.6  # share of a line's points on the ridge: players, cues and balls may cover the rest
# Segments are searched between points every 2 px along each side, first every WIDE_EVERY-th point on
# the ridge blurred by as many px (a line between two of them still scores), then every point round the
# COARSE_KEEP best of those. (Every point of the whole stretches cost 0.16 s an end at 1920x1080, a third
# of the calibration.)
WIDE_EVERY = 3
COARSE_KEEP = 24
FINE_STEP_PX = 0.25  # the fine search's step along each side, over +-FINE_REACH_PX
FINE_REACH_PX = 2.0
# Found and placed ends within this share of the length agree: the end found stands. Each is good to about
# 0.3 % on a table marked to the rules; pooltool's renders draw snooker's baulk line ~0.5 % off the rules'.
AGREE = 0.0075


@dataclass(frozen=True)
class MarkedLine:
    """A one-ended line found: where it meets the two long sides (image px, the side through ``bl`` and
    ``tl`` first), the end it is measured from (as the corners name the ends), the line (its distance
    from that end) and the share of its length seen as a ridge."""

    ends_px: np.ndarray
    end: str
    line: Line
    cover: float


@dataclass(frozen=True)
class MarkedEnd:
    """The corners (quad order) with ``end`` (the quad's side ``side``) placed from a marking where the
    image shows the table short there. ``beyond``: the share of the length the end was moved outwards at
    its more moved corner; where nothing was moved, how far inside the end found the placed one lies at
    its nearer corner (negative: the end found lies beyond the marking's, so something else is off)."""

    quad_px: np.ndarray
    end: str
    line: MarkedLine
    side: int
    beyond: float

    @property
    def moved(self) -> bool:
        return self.beyond > AGREE


def one_ended_lines(table: TableModel) -> list[Line]:
    """The table's lines that have no mirror image at the other end: only these tell which end they
    belong to (pool's head and foot strings do not)."""
    ys = {round(ln.y_mm, 1) for ln in table.lines}
    return [ln for ln in table.lines if round(table.length_mm - ln.y_mm, 1) not in ys]


def ridge(image: np.ndarray, inside: np.ndarray) -> tuple[np.ndarray, float]:
    """The thin bright ridges of ``image`` (a white top-hat, blurred), and the level above which a point
    is on one, from the robust noise of the response over the cloth (``inside``, nonzero)."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    size = max(5, 2 * round(TOPHAT_PX * image.shape[1] / 1280 / 2) + 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    resp = cv2.GaussianBlur(cv2.morphologyEx(gray, cv2.MORPH_TOPHAT, kernel), (0, 0), RIDGE_SIGMA_PX)
    values = resp[inside > 0]
    if values.size == 0:
        return resp, float("inf")
    med = float(np.median(values))
    noise = 1.4826 * float(np.median(np.abs(values - med))) + 0.5
    return resp, med + RIDGE_NOISE * noise


def _scores(resp: np.ndarray, level: float, left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """The capped mean ridge along each segment from ``left[k]`` to ``right[k]`` (N x 2 each)."""
    t = np.linspace(INSET, 1 - INSET, SAMPLES, dtype=np.float32)
    out = np.empty(len(left), np.float32)
    chunk = 8000
    for a in range(0, len(left), chunk):
        lo, hi = left[a : a + chunk].astype(np.float32), right[a : a + chunk].astype(np.float32)
        pts = lo[:, None, :] + (hi - lo)[:, None, :] * t[None, :, None]
        vals = cv2.remap(resp, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR, borderValue=0.0)
        out[a : a + chunk] = np.minimum(vals / level, CAP).mean(axis=1)
    return out


def _cover(resp: np.ndarray, level: float, left: np.ndarray, right: np.ndarray) -> float:
    t = np.linspace(INSET, 1 - INSET, SAMPLES, dtype=np.float32)
    pts = (left + (right - left) * t[:, None]).astype(np.float32)
    vals = cv2.remap(resp, pts[None, :, 0], pts[None, :, 1], cv2.INTER_LINEAR, borderValue=0.0)
    return float((vals >= level).mean())


def _along(a: np.ndarray, b: np.ndarray, step_px: float) -> np.ndarray:
    """Points from ``a`` to ``b`` every ``step_px`` or so (at least two)."""
    n = max(2, int(np.ceil(np.linalg.norm(b - a) / step_px)) + 1)
    return np.asarray(a + (b - a) * np.linspace(0.0, 1.0, n)[:, None])


def best_line(
    resp: np.ndarray, level: float, left: tuple[np.ndarray, np.ndarray], right: tuple[np.ndarray, np.ndarray]
) -> tuple[np.ndarray, float]:
    """The segment between the stretch ``left`` (two points) of one side and ``right`` of the other that
    runs along most ridge: its two ends (2 x 2 px) and the share of it on the ridge. Every 2 px on each
    side, but first every WIDE_EVERY-th of those on the ridge blurred to match, and then every one round
    the COARSE_KEEP best of those; then finely (FINE_STEP_PX) round the best."""
    a, b = _along(*left, 2.0), _along(*right, 2.0)
    i, j = (
        g.ravel()
        for g in np.meshgrid(
            np.arange(0, len(a), WIDE_EVERY), np.arange(0, len(b), WIDE_EVERY), indexing="ij"
        )
    )
    wide = cv2.GaussianBlur(np.minimum(resp / level, CAP), (0, 0), float(WIDE_EVERY))
    kept = np.argsort(_scores(wide, 1.0, a[i], b[j]))[::-1][:COARSE_KEEP]  # the ridge capped, then blurred
    step = np.arange(-WIDE_EVERY, WIDE_EVERY + 1)
    pi = np.clip(i[kept][:, None, None] + step[None, :, None], 0, len(a) - 1)
    qj = np.clip(j[kept][:, None, None] + step[None, None, :], 0, len(b) - 1)
    i, j = np.unique(np.stack(np.broadcast_arrays(pi, qj), -1).reshape(-1, 2), axis=0).T
    k = int(np.argmax(_scores(resp, level, a[i], b[j])))
    pa, pb = a[i[k]], b[j[k]]
    ua = (left[1] - left[0]) / max(float(np.linalg.norm(left[1] - left[0])), 1e-9)
    ub = (right[1] - right[0]) / max(float(np.linalg.norm(right[1] - right[0])), 1e-9)
    d = np.arange(-FINE_REACH_PX, FINE_REACH_PX + 1e-9, FINE_STEP_PX)
    fa, fb = pa + d[:, None] * ua, pb + d[:, None] * ub
    i, j = np.meshgrid(np.arange(len(d)), np.arange(len(d)), indexing="ij")
    s = _scores(resp, level, fa[i.ravel()], fb[j.ravel()])
    k = int(np.argmax(s))
    ends = np.array([fa[i.ravel()[k]], fb[j.ravel()[k]]])
    return ends, _cover(resp, level, ends[0], ends[1])


ENDS = {"bottom": (("bl", "tl"), ("br", "tr")), "top": (("tl", "bl"), ("tr", "br"))}


def find_line(image: np.ndarray, corners: dict[str, np.ndarray], table: TableModel) -> MarkedLine | None:
    """The table's one-ended line near either end of ``corners`` (named ``bl br tr tl``), the better
    seen of the two, or None where neither end shows one along MIN_COVER of the width."""
    lines = one_ended_lines(table)
    if not lines:
        return None
    unit = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    inside = np.zeros(image.shape[:2], np.uint8)
    quad = quad_of(corners)
    cv2.fillConvexPoly(inside, np.round(quad).astype(np.int32), 1)
    resp, level = ridge(image, inside)
    best: MarkedLine | None = None
    for end, ((a0, a1), (b0, b1)) in ENDS.items():
        h = homography(unit, np.array([corners[a0], corners[b0], corners[b1], corners[a1]]))
        span = np.array([[0.0, SEARCH[0]], [0.0, SEARCH[1]], [1.0, SEARCH[0]], [1.0, SEARCH[1]]])
        p = apply_homography(h, span)
        ends, cover = best_line(resp, level, (p[0], p[1]), (p[2], p[3]))
        if cover >= MIN_COVER and (best is None or cover > best.cover):
            best = MarkedLine(ends, end, lines[0], cover)
    return best


def place_from_line(
    corners: dict[str, np.ndarray], line: MarkedLine, table: TableModel
) -> dict[str, np.ndarray]:
    """The corners with ``line.end`` placed from the other end's corners and the line: the homography of
    the rectangle between them, carried on to the end."""
    (a0, a1), (b0, b1) = ENDS[line.end]
    w, length, d = table.width_mm, table.length_mm, line.line.y_mm
    world = np.array([[0.0, length], [w, length], [w, d], [0.0, d]])
    h = homography(world, np.array([corners[a1], corners[b1], line.ends_px[1], line.ends_px[0]]))
    placed = apply_homography(h, np.array([[0.0, 0.0], [w, 0.0]]))
    out = dict(corners)
    out[a0], out[b0] = placed[0], placed[1]
    return out


def reach_beyond(
    found: dict[str, np.ndarray], placed: dict[str, np.ndarray], end: str, table: TableModel
) -> tuple[float, float]:
    """How far (shares of the length: the more and the less of the two corners) the placed ``end`` lies
    beyond the end found, in the placed corners' frame: > 0 the image showed the table short there."""
    (a0, a1), (b0, b1) = ENDS[end]
    h = homography(np.array([placed[a0], placed[b0], placed[b1], placed[a1]]), cloth_corners_mm(table))
    y = apply_homography(h, np.array([found[a0], found[b0]]))[:, 1] / table.length_mm
    return float(np.max(y)), float(np.min(y))


def mark_end(image: np.ndarray, quad_px: np.ndarray, view: PlaneView, table: TableModel) -> MarkedEnd | None:
    """The corners of ``quad_px`` with the end nearest a one-ended line placed from it where the image
    shows the table short there (module docstring), or None where the table has no such line or the
    image does not show it."""
    corners = name_corners(quad_px, view)
    line = find_line(image, corners, table)
    if line is None:
        return None
    placed = place_from_line(corners, line, table)
    most, least = reach_beyond(corners, placed, line.end, table)
    index = [int(np.argmin(np.linalg.norm(quad_px - corners[ENDS[line.end][n][0]], axis=1))) for n in (0, 1)]
    side = index[0] if (index[0] + 1) % 4 == index[1] else index[1]
    quad = quad_px.copy()
    if most > AGREE:
        quad[index[0]], quad[index[1]] = placed[ENDS[line.end][0][0]], placed[ENDS[line.end][1][0]]
    return MarkedEnd(quad, line.end, line, side, most if most > AGREE else least)
