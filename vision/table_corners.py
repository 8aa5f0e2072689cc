"""The four corners of a table's playing area in one image, markerless, and every doubt about them.

The steps: the cloth's colour from the image (``vision.cloth_colour``), its region (a wall of its colour
split off), four RANSAC cushion lines on the region's outline (``vision.table_lines``) moved in to the
noses and, where a cushion's face shows, on to the bed's edge (``vision.cushion_noses``), their crossings:
the corners at cloth level, where the camera model puts them. This works on any cloth, from overhead or
from a broadcast camera's height, with players, cues and graphics over the view; it raises
``CalibrationError`` only where there is no table at all. Everything else it finds comes back with the
reasons to doubt it (``vision.table_verdict``): a side hidden (by a graphic the caller masks) or cut by the
frame, noses not seen, a shape that is no table's. An end the image shows short (under a score bar,
cut by the frame) is placed from a one-ended marking where the table has one (``vision.table_markings``),
else from the middle pockets (``vision.table_pockets``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from arbiter.tables import TableModel
from vision.camera_fit import principal_point, prior_focal
from vision.cloth_colour import ClothColourModel, estimate, leak, region, uniformity, working_copy
from vision.corner_heights import faces_seen
from vision.cushion_noses import move_to_nose, to_the_bed
from vision.graphic_edges import runs_past_the_corners
from vision.table_finder import CalibrationError, no_table_error
from vision.table_geometry import TABLE_ASPECTS, PlaneView, nose_reach_px, oblique, plane_view
from vision.table_lines import (
    SideFit,
    corners_of,
    distort,
    placed_side,
    quad_from_region,
    quad_side,
    refined_sides,
    straightest_k1,
    undistorted,
)
from vision.table_markings import AGREE, MarkedEnd, mark_end
from vision.table_pockets import PlacedEnd, place_end, pockets_on_the_cloth
from vision.table_verdict import Doubt, Note, Reason

MIN_TABLE_SHARE = 0.02  # share of the frame the cloth region must cover to be a table at all
MIN_UNIFORMITY = 0.8  # share of the region in the cloth's colour: a table is ~0.9+, noise or clutter less
MIN_CONTRAST = 2.0  # grey-level deviation of the frame below which it is one flat colour: no table
MAX_FRAME_SIDES = 3  # this many sides on the frame's edge: the region may be cloth and floor together
WILD_SHARE = 0.5  # sides meeting this share of the frame outside it are no table's (``_wild``)
MIN_CLOTH_SHARE = 0.06  # below this share of the frame the table is doubtful (far off, or not a table)
MIN_SIDE_INLIERS = 0.45  # share of a side's outline on its line: below it the side is hidden or bent
MAX_OUTSIDE = 0.03  # a corner this far outside the frame (share of the diagonal) is extrapolated
MIN_NOSE_SIDES = 2  # sides whose nose must be seen: otherwise the corners may be the cushions' outer edge
MAX_BORDER_SHARE = 0.5  # share of a side's points on the frame's edge above which the table is cut
# A side moved in to a nose less than SHORT_INSET of the other moved sides' median inset inside the cloth's
# outline, where that is over MIN_INSET of the table's length (cushion tops of the cloth's colour), is
# doubted (``_short_inset``).
SHORT_INSET, MIN_INSET = 0.25, 0.02
FRAME_SLACK = 0.1  # sides' outline along the frame's edge (in sides) one finder may have more of and tie
# A side with this share of its points on the frame's edge that ends at a corner more than BEYOND_PX
# beyond the frame is cut too: its line was carried through where the frame cut the cloth (a floor or a
# rail lit the cloth's colour joined it there), to a corner nothing in the image shows.
PART_BORDER_SHARE = 0.2
BEYOND_PX = 4.0
MAX_HIDDEN_SHARE = 0.3  # share of a side's points along a graphic above which the side is not the cushion
GRAY_SIGMA_PX = 1.0
# A marking this far (share of the length) nearer its end than the corners put it is a doubt: the other end
# is cut short (a quarter of its error reaches here) or the marking is not the regulation one (pooltool's
# renders draw snooker's baulk line ~1 % off the rules' 737 mm).
MARKING_OFF = 0.015
# The middle pockets, read on corners placed from a marking, confirm them within this share of half-way: a
# near end off by 1 % of the length moves them about half as much.
MARKING_CONFIRM = 0.004
MIN_K1 = 0.01  # radial distortion below which the sides are not straightened (under a pixel at the corners)
# A side whose edge runs on past a corner on this share of the way (``vision.graphic_edges``) is a graphic's:
# score bars' edges 0.63-1.0 on the broadcast renders, cushions' at most 0.15 there, on the real photos and
# on the other rooms' renders.
GRAPHIC_RUNS = 0.5


@dataclass(frozen=True)
class TableCorners:
    """The corners found (full-image px, quad order: corner k between sides k-1 and k), at the noses and on
    the outline, the sides, the cloth's colour, its share of the frame, what the corners say of the view,
    and the doubts (with a note where an end placed from a marking was confirmed)."""

    quad_px: np.ndarray
    outline_px: np.ndarray
    sides: tuple[SideFit, ...]
    cloth: ClothColourModel
    cloth_share: float
    view: PlaneView
    doubts: tuple[Reason, ...]
    k1: float = 0.0  # the lens's radial distortion the sides were straightened with (0: none)
    f_px: float = 0.0  # ... normalised by this focal length (a typical lens's)
    # The strip of the table the image does not show (full-image px, a quad; (0, 2) when all is seen):
    # between the cloth's edge at an end seen short (under a score bar, cut by the frame) and where that
    # end was placed.
    unseen_px: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))


def find_corners(
    image: np.ndarray,
    ignore: np.ndarray | None = None,
    table: TableModel | None = None,
    flat_runs: bool = False,
) -> TableCorners:
    """The table's corners in ``image`` (H x W x 3 BGR uint8). ``ignore`` (H x W, nonzero = a graphic over
    the view, ``vision.broadcast.StaticOverlay``) is never taken for cloth or cushion; with ``flat_runs``,
    nor is a graphic's edge the cloth's outline shows over part of a side (``table_lines``). A wide lens bows
    the cushions: the sides are found again in the image straightened by the k1 that makes them
    straightest, and the corners put back where the lens shows them, unless they are more doubtful so (a cue
    or a graphic bent the outline). Raises CalibrationError when there is no table in view."""
    h, w = image.shape[:2]
    small, _ = working_copy(image)
    if float(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).std()) < MIN_CONTRAST:
        raise no_table_error("the image is one flat colour")
    first = _plain_or_trend(image, ignore, table, flat_runs)
    centre = principal_point((w, h))
    f = prior_focal((w, h))
    k1 = straightest_k1(list(first.sides), centre, f)
    if abs(k1) < MIN_K1:
        return first
    unbent = (
        None if ignore is None else undistorted((ignore > 0).astype(np.uint8), centre, f, k1, nearest=True)
    )
    trend = first.cloth.follows_tint
    straight = _find(undistorted(image, centre, f, k1), unbent, table, flat_runs, trend)
    if _doubted(straight) > _doubted(first):
        return first  # straightened, the table is more doubtful: the bend was no lens's (a cue, a graphic)
    return replace(
        straight,
        quad_px=distort(straight.quad_px, centre, f, k1),
        outline_px=distort(straight.outline_px, centre, f, k1),
        unseen_px=distort(straight.unseen_px, centre, f, k1),
        k1=k1,
        f_px=f,
    )


def _plain_or_trend(
    image: np.ndarray, ignore: np.ndarray | None, table: TableModel | None, flat_runs: bool
) -> TableCorners:
    """The corners found with the cloth's colour following a tint across the frame, where it does
    (``vision.cloth_colour.TREND_GAIN``: a projector's ramp), unless the cloth of one colour finds them with
    fewer doubts, or as many and no more of its sides along the frame's edge (FRAME_SLACK): the tint's model
    keeps a carpet of a nearby hue out at the cloth's own end, and on some views it loses a far cushion's
    top that one colour keeps. A carpet taken for cloth over a rail tilts that side out to the frame's edge
    (the small snooker table in a 1280 px frame under a warm ramp: a side 42 % along the edge, no doubt
    raised, 8.2 % off and sure; the tint's 0.6 %)."""
    found = _find(image, ignore, table, flat_runs)
    if not found.cloth.follows_tint:
        return found
    try:
        plain = _find(image, ignore, table, flat_runs, trend=False)
    except CalibrationError:
        return found
    if _doubted(plain) != _doubted(found):
        return plain if _doubted(plain) < _doubted(found) else found
    return plain if _on_frame(plain) <= _on_frame(found) + FRAME_SLACK else found


def _on_frame(found: TableCorners) -> float:
    """How much of the sides' outline runs along the frame's edge, in sides (0 to 4)."""
    return float(sum(s.on_border for s in found.sides))


def _doubted(found: TableCorners) -> int:
    """How many doubts (not notes) the corners raise."""
    return sum(isinstance(r.kind, Doubt) for r in found.doubts)


def _find(
    image: np.ndarray,
    ignore: np.ndarray | None,
    table: TableModel | None,
    flat_runs: bool = False,
    trend: bool = True,
) -> TableCorners:
    """One pass of the finder: cloth (its colour following a tint across the frame where ``trend`` and
    one does), sides, noses, corners, doubts."""
    h, w = image.shape[:2]
    small, scale = working_copy(image)
    ig = None
    if ignore is not None:
        ig = cv2.resize(
            (ignore > 0).astype(np.uint8), (small.shape[1], small.shape[0]), interpolation=cv2.INTER_NEAREST
        )
    cloth, mask, sides = _cloth_sides(image, small, scale, ignore, ig, flat_runs, trend)
    outline = corners_of(sides)
    if not np.all(np.isfinite(outline)):
        raise no_table_error("two neighbouring sides of the cloth are parallel")
    gray = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), GRAY_SIGMA_PX)
    sides = [_graphic_or_not(image, gray, s, (outline[k], outline[(k + 1) % 4])) for k, s in enumerate(sides)]
    reach = [math.inf] * 4 if table is None else nose_reach_px(outline, plane_view(outline, (w, h)), table)
    sides = [
        move_to_nose(gray, s, (outline[k], outline[(k + 1) % 4]), ignore, reach[k])
        for k, s in enumerate(sides)
    ]
    at = corners_of(sides)
    seen = None if table is None else faces_seen(at, plane_view(at, (w, h)), table, (w, h))
    sides = [
        s if seen is not None and not seen[k] else to_the_bed(gray, s, (at[k], at[(k + 1) % 4]))
        for k, s in enumerate(sides)
    ]
    quad_px = corners_of(sides)
    if not np.all(np.isfinite(quad_px)):
        raise no_table_error("two neighbouring cushions' noses are parallel")
    view = plane_view(quad_px, (w, h))
    quad_px, view, replaced, end_doubts = _place_an_end(image, quad_px, sides, view, table)
    share = float(mask.mean())
    doubts = _doubts(sides, quad_px, (w, h), share, view, replaced, outline)
    unseen = np.zeros((0, 2)) if replaced is None else _strip(outline, quad_px, replaced)
    return TableCorners(
        quad_px, outline, tuple(sides), cloth, share, view, (*doubts, *end_doubts), unseen_px=unseen
    )


def _graphic_or_not(
    image: np.ndarray, gray: np.ndarray, side: SideFit, ends: tuple[np.ndarray, np.ndarray]
) -> SideFit:
    """``side`` said to run along a graphic (``hidden``) where its edge runs on past its corners with the
    same colour beyond it (``vision.graphic_edges``): a score bar laid over the cushion, taken for the
    cloth's end by a first calibration that has no mask of the graphics."""
    runs = runs_past_the_corners(image, gray, side, ends)
    return replace(side, hidden=max(side.hidden, runs)) if runs >= GRAPHIC_RUNS else side


def _strip(outline: np.ndarray, placed: np.ndarray, k: int) -> np.ndarray:
    """The table the image does not show at a placed end: the quad between side ``k`` of the cloth's
    outline (where a score bar or the frame cuts the cloth seen) and side ``k`` as placed (corners k and
    k + 1 of each); where the placed side crosses the outline's (beyond it at one corner, inside at the
    other: a bar over half the end), the triangle beyond it only, not the bow-tie whose other half is
    cloth seen; none where the placed end lies within a pixel of the cloth seen or inside it. Not from
    the side the noses were sought on: one moved onto the cloth's shading would hide the cloth between it
    and the bar, balls and all."""
    j = (k + 1) % 4
    a, b = outline[k], outline[j]
    normal = np.array([b[1] - a[1], a[0] - b[0]]) / max(float(np.linalg.norm(b - a)), 1e-9)
    if float((a - placed.mean(axis=0)) @ normal) < 0:
        normal = -normal  # away from the table's middle
    beyond = np.array([(placed[k] - a) @ normal, (placed[j] - a) @ normal])
    if float(beyond.max()) <= 1.0:
        return np.zeros((0, 2))
    if float(beyond.min()) >= 0.0:
        return np.array([a, b, placed[j], placed[k]], dtype=np.float64)
    crossing = placed[k] + beyond[0] / (beyond[0] - beyond[1]) * (placed[j] - placed[k])
    if beyond[0] > 0:
        return np.array([a, crossing, placed[k]], dtype=np.float64)
    return np.array([crossing, b, placed[j]], dtype=np.float64)


def _place_an_end(
    image: np.ndarray, quad_px: np.ndarray, sides: list[SideFit], view: PlaneView, table: TableModel | None
) -> tuple[np.ndarray, PlaneView, int | None, tuple[Reason, ...]]:
    """An end the image shows short placed from a one-ended marking (``vision.table_markings``), else
    from the middle pockets (``vision.table_pockets``): the corners, their view, the quad's side replaced
    (its line in ``sides`` replaced in place) and what to say of it. A marked end the middle pockets put
    half-way too is confirmed by both; one seen by one of them only is a doubt. An end the marking sees where
    it was found is kept, and the other end placed from the pockets where they ask for it."""
    size = (image.shape[1], image.shape[0])
    if table is None:
        return quad_px, view, None, ()
    marked = mark_end(image, quad_px, view, table)
    if marked is not None and marked.moved:
        sides[marked.side] = placed_side(marked.quad_px, marked.side, sides[marked.side])
        placed_view = plane_view(marked.quad_px, size)
        return marked.quad_px, placed_view, marked.side, (_marked_reason(image, marked, placed_view, table),)
    witnessed = None if marked is None or abs(marked.beyond) > AGREE else marked.side
    placed = place_end(image, quad_px, tuple(sides), view, table, witnessed)  # never the witnessed end
    seen_as = "was not seen as a cushion"
    if placed is None and marked is not None and marked.beyond < -AGREE:
        placed = _placed_for_the_marking(image, quad_px, sides, view, table, marked)
        seen_as = (
            f"was doubted: the {marked.line.line.name} line put its own end {-marked.beyond:.1%} of the "
            "length inside the one found, and agrees with it once this end is placed"
        )
    if placed is None:
        off = () if marked is None or marked.beyond >= -MARKING_OFF else (_marking_off(marked),)
        return quad_px, view, None, off
    why = (
        f"{_where(sides[placed.side])} {seen_as}: that end is placed from the middle "
        f"pockets (seen {placed.pockets[0]:.1%} and {placed.pockets[1]:.1%} of the way up)"
    )
    sides[placed.side] = placed.line
    return (
        placed.quad_px,
        plane_view(placed.quad_px, size),
        placed.side,
        (Reason(Doubt.END_FROM_POCKETS, why),),
    )


def _placed_for_the_marking(
    image: np.ndarray,
    quad_px: np.ndarray,
    sides: list[SideFit],
    view: PlaneView,
    table: TableModel,
    marked: MarkedEnd,
) -> PlacedEnd | None:
    """The end away from a marking that puts its own end inside the one found (the table's length is off,
    so the other end is), placed from the middle pockets however strong its own line, and kept only where
    the marking then agrees with its end: two witnesses, the pockets and the marking, against one end's line
    (a score bar's edge over part of the near cushion, not reaching past its corners, has a nose's step)."""
    placed = place_end(image, quad_px, tuple(sides), view, table, marked.side, doubted=True)
    if placed is None:
        return None
    size = (image.shape[1], image.shape[0])
    again = mark_end(image, placed.quad_px, plane_view(placed.quad_px, size), table)
    if again is None or again.side != marked.side or again.moved:
        return None
    return placed if abs(again.beyond) <= AGREE else None


def _marked_reason(image: np.ndarray, marked: MarkedEnd, view: PlaneView, table: TableModel) -> Reason:
    """What to say of an end placed from a marking: a note where the middle pockets, read again on the
    placed corners, are half-way within MARKING_CONFIRM; else a doubt saying what they said."""
    at = (
        f"the {marked.end} end was {marked.beyond:.1%} of the length short of where the "
        f"{marked.line.line.name} line puts it: it is placed from the line"
    )
    middle = pockets_on_the_cloth(image, marked.quad_px, view, table)
    if middle is None:
        return Reason(Doubt.END_FROM_MARKING, f"{at}, and no middle pockets were seen to confirm it")
    if abs(middle - 0.5) > MARKING_CONFIRM:
        return Reason(
            Doubt.END_FROM_MARKING, f"{at}, but the middle pockets come out {middle:.1%} of the way up"
        )
    return Reason(Note.END_FROM_MARKING, f"{at}; the middle pockets confirm it ({middle:.1%} of the way up)")


def _marking_off(marked: MarkedEnd) -> Reason:
    why = (
        f"the {marked.line.line.name} line near the {marked.end} end is {-marked.beyond:.1%} of the length "
        "nearer that end than the corners put it: the other end may be hidden or cut"
    )
    return Reason(Doubt.MARKING_OFF, why)


def _cloth_sides(
    image: np.ndarray,
    small: np.ndarray,
    scale: float,
    full_ignore: np.ndarray | None,
    ignore: np.ndarray | None,
    flat_runs: bool = False,
    trend: bool = True,
) -> tuple[ClothColourModel, np.ndarray, list[SideFit]]:
    """The cloth's colour, its region and the region's four sides, or CalibrationError. A wall or floor of
    the cloth's colour joined to it through a rail's gaps is cut off (``vision.cloth_colour.leak``). A
    region that runs off the frame on most sides is clustered again inside itself: a cloth and a floor of
    one colour in the whole frame may still be two in the table's neighbourhood. ``ignore`` is
    ``full_ignore`` (image-sized) at the working copy's size."""
    cloth = estimate(small, ignore, trend=trend)
    if cloth is None:
        raise no_table_error("no region of one colour looks like a table's cloth")
    not_cloth = ignore
    leaked = leak(image, cloth, (small.shape[1], small.shape[0]), full_ignore)
    if leaked is not None:
        not_cloth = leaked if ignore is None else ignore | leaked
    mask = region(small, cloth, not_cloth)
    sides = _sides(mask, scale, ignore, flat_runs)
    frame = (image.shape[1], image.shape[0])
    if _wild(sides, frame):  # a blob of the cloth's colour beyond the rail may have pulled a side
        cut = region(small, cloth, not_cloth, cut_necks=True)
        cut_sides = _sides(cut, scale, ignore, flat_runs)
        if not _wild(cut_sides, frame) and _cut(cut_sides) <= _cut(sides):
            mask, sides = cut, cut_sides
    if _cut(sides) >= MAX_FRAME_SIDES:
        again = estimate(small, ignore, within=mask, trend=trend)
        if again is not None:
            mask2 = region(small, again, not_cloth)
            sides2 = _sides(mask2, scale, ignore, flat_runs)
            if len(sides2) == 4 and _cut(sides2) < _cut(sides):
                cloth, mask, sides = again, mask2, sides2
    if len(sides) != 4:
        raise no_table_error(f"the cloth-coloured region ({mask.mean():.1%} of the frame) has no four sides")
    if uniformity(small, cloth, mask) < MIN_UNIFORMITY:
        raise no_table_error("no region of the frame is of one colour, as a cloth is")
    return cloth, mask, sides


def _sides(
    mask: np.ndarray, scale: float, ignore: np.ndarray | None, flat_runs: bool = False
) -> list[SideFit]:
    quad = quad_from_region(mask) if mask.mean() >= MIN_TABLE_SHARE else None
    return [] if quad is None else refined_sides(mask, quad, scale, ignore, flat_runs=flat_runs)


def _wild(sides: list[SideFit], frame: tuple[int, int]) -> bool:
    """Whether the sides meet at a corner more than WILD_SHARE of the frame outside it (or not at all): then
    the region is taken without the blobs a neck joins to the cloth (``region(..., cut_necks=True)``) where
    that gives sides that do not, along the frame's edge no more often. White markers printed on the rails
    of a table with a grey cloth are of its colour, and a glint on a cushion's rim joins them to it, so a
    side through them met its neighbour far outside the frame (a 6 ft table under a projector: a corner
    36 frames away)."""
    if len(sides) != 4:
        return True
    corners = corners_of(sides)
    if not np.all(np.isfinite(corners)):
        return True
    size = np.array(frame, np.float64)
    return bool(np.any(corners < -WILD_SHARE * size) or np.any(corners > (1 + WILD_SHARE) * size))


def _cut(sides: list[SideFit]) -> int:
    """How many sides run along the frame's edge (all four when there are no sides)."""
    return sum(s.on_border > MAX_BORDER_SHARE for s in sides) if len(sides) == 4 else 4


def _short_inset(
    outline: np.ndarray, quad: np.ndarray, sides: list[SideFit], placed: int | None
) -> Reason | None:
    """A doubt where, seen from above, one side was moved in to a nose far less inside the cloth's outline
    than the others were: a table's four cushions are one width, and where their tops are of the cloth's
    colour the outline runs along their outer edges, a cushion's width outside the noses. A side set much
    less inside (SHORT_INSET of the other moved sides' median, where that is over MIN_INSET of the length)
    stopped at its cushion top's edge or a rail's, short of its nose: the small snooker table with printed
    markers under a warm ramp, in a 1280 px frame, had its top side at its rail's edge (0.7 % of the length
    inside the outline, the others 3.8-4.2 %), 4.1 % off, and a 6 ft table's shape fitted it, sure. Sides
    not moved (no nose seen: where the cloth's region stops at the nose, as on some tables, the outline is
    the edge) are not judged, nor the side ``placed``, nor a view from an end (its near cushion top is wide,
    its far one thin); three moved sides are needed."""
    moved = [k for k in range(4) if k != placed and sides[k].nose_moved]
    if len(moved) < 3 or oblique(quad):
        return None
    insets = np.array([_inset(outline, quad, k) for k in range(4)])
    insets /= max(float(np.linalg.norm(quad[1] - quad[0])), float(np.linalg.norm(quad[2] - quad[1])), 1.0)
    k = min(moved, key=lambda j: insets[j])
    others = float(np.median([insets[j] for j in moved if j != k]))
    if others <= MIN_INSET or insets[k] >= SHORT_INSET * others:
        return None
    why = (
        f"a side lies {insets[k]:.1%} of the table's length inside the cloth's outline, the others "
        f"{others:.1%}: it may have stopped at a cushion's top or a rail, short of the nose"
    )
    return Reason(Doubt.SHORT_INSET, why)


def _inset(outline: np.ndarray, quad: np.ndarray, k: int) -> float:
    """How far (px) the outline's side ``k`` (its middle) lies outside the quad's side ``k``'s line."""
    a, _, _, inward = quad_side(quad, k)
    return abs(float(((outline[k] + outline[(k + 1) % 4]) / 2 - a) @ inward))


def _where(side: SideFit) -> str:
    """A side named by where it is in the image (its inward normal points away from it)."""
    dx, dy = side.inward
    if abs(dy) >= abs(dx):
        return "the side at the image's bottom" if dy < 0 else "the side at the image's top"
    return "the side at the image's right" if dx < 0 else "the side at the image's left"


def _doubts(
    sides: list[SideFit],
    quad: np.ndarray,
    size: tuple[int, int],
    share: float,
    view: PlaneView,
    placed: int | None,
    outline: np.ndarray,
) -> list[Reason]:
    """Every doubt the corners raise; the side ``placed`` from the middle pockets is judged by them. The
    cloth's ``outline`` (its quad, before the sides were moved to the noses) tells whether the sides lie
    alike inside it (``_short_inset``)."""
    out = []
    short = _short_inset(outline, quad, sides, placed)
    if short is not None:
        out.append(short)
    if share < MIN_CLOTH_SHARE:
        out.append(Reason(Doubt.LITTLE_CLOTH, f"the cloth covers only {share:.0%} of the frame"))
    beyond = np.maximum(np.maximum(-quad, quad - np.array(size)), 0).max(axis=1)  # px outside the frame
    for k, s in enumerate(sides):
        if k == placed:
            continue
        to_beyond = s.on_border > PART_BORDER_SHARE and max(beyond[k], beyond[(k + 1) % 4]) > BEYOND_PX
        if (s.on_border > MAX_BORDER_SHARE or to_beyond) and not s.nose_moved:  # a nose seen is the edge
            out.append(
                Reason(Doubt.CUT_BY_FRAME, f"{_where(s)} runs along the frame's edge: the table may go on")
            )
        elif s.hidden > MAX_HIDDEN_SHARE:
            out.append(Reason(Doubt.HIDDEN_BY_GRAPHIC, f"{_where(s)} runs along a graphic over the view"))
        elif s.inliers < MIN_SIDE_INLIERS:
            out.append(
                Reason(
                    Doubt.SIDE_UNSUPPORTED,
                    f"{_where(s)} is hidden or bent ({s.inliers:.0%} of it is straight)",
                )
            )
    outside = beyond / float(np.hypot(*size))
    if (outside > MAX_OUTSIDE).any():
        out.append(Reason(Doubt.CORNER_OUTSIDE, f"a corner lies {outside.max():.0%} of the frame outside it"))
    aspect = max(view.aspect, 1 / view.aspect)
    if not TABLE_ASPECTS[0] <= aspect <= TABLE_ASPECTS[1]:
        out.append(Reason(Doubt.ASPECT, f"the table's shape comes out {aspect:.2f}:1, no billiard table's"))
    if sum(s.nose_moved for s in sides) < MIN_NOSE_SIDES:
        out.append(
            Reason(
                Doubt.NOSES_NOT_SEEN,
                "the cushion noses were not seen: the corners may be the cushions' outer edge",
            )
        )
    return out
