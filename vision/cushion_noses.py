"""From a side's line on the cloth's outline in to the cushion's nose, and on to the bed's visible edge.

The cloth region usually takes in the cushion tops (the same cloth covers them), so its outline is the
cushions' outer edge; the playing area ends at the noses, a step of brightness (the shaded face, or its
shadow line) a cushion's width inside, parallel to the outline or, on a long side seen in perspective, not
(``_tilt``). Seen from inside the table's outline a cushion shows its face, a dark band between the nose and
the bed: the side is moved on to the bed's edge, the cloth-level line the calibration models its corners on.
Where no step is found the side is left where it was. ``table_lines`` fits the sides these start from.
"""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from vision.table_lines import CORNER_CLEAR, SideFit, ransac_line

NOSE_BAND = (0.004, 0.05)  # the nose is looked for this far inside the outline (share of the image diagonal)
NOSE_STEP_PX = 0.5  # sampling step across a side
PROFILES = 60  # profiles across each side for the nose search
MIN_SEEN_PROFILES = 8  # profiles clear of graphics needed to look for the nose at all
GRAPHIC_CLEAR = 0.04  # ... else profiles go this near the side's ends (a pocket's jaws), beside the graphic
MIN_NOSE_SUPPORT = 0.5  # share of profiles whose own strongest step agrees with the common one
NOSE_AGREE = 0.004  # ... within this share of the diagonal
NOSE_CONTRAST = 3.0  # the common step must be this many times the median step across the band
# ... and at least this many grey levels a sample: a cushion the cloth's colour under even light shows no
# nose at all, and a step of a few tenths of a level there is the cloth's shading (a broadcast render's far
# end moved 16 px onto the bed by one of 0.15)
MIN_NOSE_STEP = 0.3
NOSE_DIP = 0.3  # between the outline and the nose the step must fall below this share of the nose's
# A nose whose offset from the outline changes along the side (``_tilt``) is lined up where its common step
# is this many times that of the outline's parallel; shifts are tried in steps of TILT_STEP samples.
TILT_GAIN, TILT_STEP = 1.25, 2
# ... on a side that runs up the image at least this steeply (rows over columns: a long side seen from behind
# an end), agreed on by this share of the profiles
RECEDES, TILT_SUPPORT = 0.5, 0.75
# Where at least this share of a side's PROFILES step the other way from the rest, and one way before some
# profile and the other after it explains at least ONE_STRETCH of them, those are on another edge
# (``_one_way``).
OTHER_EDGE, ONE_STRETCH = 0.25, 0.9
NOSE_TOL = 0.0015  # RANSAC tolerance of the nose line through the profiles' steps (share of the diagonal)
# A bright line painted on the cloth (a baulk line, a head string) rises and falls within this many px, the
# fall at least this share of the rise: no nose, whose step is one way (and whose dark band is a valley).
PAINTED_PX, PAINTED_BALANCE = 4.0, 0.5
# ... and the brightness either side of it alike within this share of its height, and the cloth's (the
# cloth brightens or dims across the band) within the second
PAINTED_SIDES, PAINTED_CLOTH = 0.6, 1.0
PAINTED_NEAR = 0.12  # ... and within this share of the cloth's brightness (a rail or a shaded face is not)
PAINTED_EDGE = 0.2  # its rise and fall end where the step falls below this share of theirs
# The bed's edge inward of a nose: a band darker than BAND_DARK of the bed beyond it and of the cushion
# before it (the cushion's face and the nose's shadow, seen from inside the table's outline), starting
# within BAND_START of the nose and ending within BAND_REACH of it (shares of the image diagonal), its inner
# edge where the brightness is back half-way to the bed's; BAND_SUPPORT of the profiles must show one. A
# shaded cushion face under lamps is ~0.25-0.6 of the bed, the nose's shadow on a real bed ~0.6; the bed's
# own fall-off towards a cushion is a ramp from the nose, with no lit cushion before it. A fainter band, up
# to BAND_FAINT of the bed, counts where it is also darker than BAND_DIP of the nose before it: a broadcast
# camera's long cushion faces in soft light are ~0.7 of the bed after a nose at ~0.9; an overhead photo's
# cloth falling off towards a rail at the frame's edge is as dark before its "band" as in it. A long side
# seen from behind one end shows its face on the half nearer the camera only (0.6 of the profiles needed
# before issue 10's twenty-first round kept such sides at the nose); the line through that half is the
# bed's edge all along.
BAND_REACH, BAND_DARK, BAND_SUPPORT, BAND_START = 0.025, 0.65, 0.45, 0.002
BAND_FAINT, BAND_DIP = 0.78, 0.96


def _profiles(
    image: np.ndarray,
    side: SideFit,
    ends: tuple[np.ndarray, np.ndarray],
    offsets: np.ndarray,
    clear: float = CORNER_CLEAR,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Profiles (PROFILES x len(offsets), and x 3 of a colour image) of ``image`` inward across a side,
    ``clear`` of its ends, their start points and every sample's place (PROFILES x len(offsets) x 2)."""
    a, b = ends
    ts = np.linspace(clear, 1 - clear, PROFILES)
    base = a[None] + ts[:, None] * (b - a)[None]
    xy = base[:, None, :] + offsets[None, :, None] * side.inward[None, None, :]
    prof = cv2.remap(
        image,
        xy[..., 0].astype(np.float32),
        xy[..., 1].astype(np.float32),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return prof, base, xy


def _seen_profiles(ignore: np.ndarray | None, xy: np.ndarray) -> np.ndarray:
    """Which profiles (rows of ``xy``, full-image px) cross no ignored pixel (a graphic over the view)."""
    if ignore is None:
        return np.ones(xy.shape[0], bool)
    h, w = ignore.shape[:2]
    lost = ~np.isfinite(xy).all(axis=(1, 2))  # a side without ends: nothing of it is seen
    xy = np.nan_to_num(xy, nan=0.0, posinf=0.0, neginf=0.0)
    x = np.clip(np.round(xy[..., 0]).astype(int), 0, w - 1)
    y = np.clip(np.round(xy[..., 1]).astype(int), 0, h - 1)
    return np.asarray(~(ignore[y, x] > 0).any(axis=1) & ~lost)


def move_to_nose(
    gray: np.ndarray,
    side: SideFit,
    ends: tuple[np.ndarray, np.ndarray],
    ignore: np.ndarray | None = None,
    reach_px: float = math.inf,
) -> SideFit:
    """The side moved inward to the nose: the strongest parallel brightness step within NOSE_BAND, when
    enough profiles agree on it (a player or a cue spoils some) and it is a step of its own, not the tail
    of the outline's edge (it steps the other way, or the brightness levels off between them). Otherwise
    the side unchanged. ``gray`` is the full image, float32, lightly blurred; ``ends`` are the side's corners
    on the outline; profiles crossing an ``ignore`` pixel (a graphic, full-image size) are left out, so a
    score bar over the cushion neither votes for its own edge nor against the nose beside it. No nose is
    looked for past ``reach_px`` inward (``table_geometry.nose_reach_px``)."""
    diag = float(np.hypot(*gray.shape[:2]))
    offsets = np.arange(0.0, NOSE_BAND[1] * diag + 2 * PAINTED_PX, NOSE_STEP_PX)  # a line's far edge too
    prof, base, xy = _profiles(gray, side, ends, offsets)
    seen = _seen_profiles(ignore, xy)
    if seen.sum() < MIN_SEEN_PROFILES:  # a graphic over most of the side: what is seen of it, to the pockets
        prof, base, xy = _profiles(gray, side, ends, offsets, GRAPHIC_CLEAR)
        seen = _seen_profiles(ignore, xy)
        if seen.sum() < MIN_SEEN_PROFILES:
            return side
    prof, base = prof[seen], base[seen]
    signed = np.gradient(prof, axis=1)
    grad = np.where(
        _painted(np.median(prof, axis=0), np.median(signed, axis=0))[None, :], 0.0, np.abs(signed)
    )
    first = int(np.searchsorted(offsets, NOSE_BAND[0] * diag))
    last = int(np.searchsorted(offsets, NOSE_BAND[1] * diag))
    within = int(np.searchsorted(offsets, min(NOSE_BAND[1] * diag, reach_px)))
    if within <= first:
        return side
    band, shift = (first, last, within), np.zeros(len(base), int)
    found = _nose_steps(grad, signed, shift, band, diag)
    if found is None or found[2] < MIN_NOSE_SUPPORT:  # none parallel to the outline: one seen in perspective?
        a, b = ends
        along = (base - a) @ (b - a) / max(float((b - a) @ (b - a)), 1e-9) - 0.5
        tilted = _tilt(grad, along, first, within, float(b[1] - a[1]) / max(abs(float(b[0] - a[0])), 1e-9))
        again = _nose_steps(grad, signed, tilted, band, diag) if tilted.any() else None
        if again is not None and again[2] >= TILT_SUPPORT:
            found, shift = again, tilted
    if found is None:
        return side
    own, agree, support = found
    if support < MIN_NOSE_SUPPORT:
        return replace(side, nose_support=support)
    at = np.clip(own + shift, 0, len(offsets) - 1)
    agree = _one_way(agree, signed[np.arange(len(at)), at])
    pts = base[agree] + offsets[at[agree]][:, None] * side.inward[None]
    return replace(_through(side, pts, diag), nose_moved=True, nose_support=support)


def _one_way(agree: np.ndarray, step: np.ndarray) -> np.ndarray:
    """Of the profiles that ``agree`` on the nose, those whose own step (``step``, signed, inward) goes the
    way most of theirs go, where the rest go the other way along one stretch of the side. A long side seen
    from behind one end shows its face widening towards the camera: near the far end a profile's strongest
    step is the face's inner edge onto the bed (dark to bright), nearer the camera the nose's edge onto the
    face (bright to dark), a few px apart. A line through both is neither: it crosses from one to the other,
    turned (a broadcast view's long side 2 degrees off, its near corner 15 px out). The steps of one way lie
    on one edge. A few steps the other way (under OTHER_EDGE of the side's profiles, not only of those that
    agree: a side seen on a few profiles past a graphic, a cloth leaking onto a rail, tells two edges from
    noise no better), or ways mixed all along the side, are noise, which the line's RANSAC leaves out: all
    are kept."""
    way = np.sign(step[agree])
    up, down = int((way > 0).sum()), int((way < 0).sum())
    if min(up, down) < OTHER_EDGE * PROFILES or _split_share(way) < ONE_STRETCH:
        return agree
    return np.asarray(agree & (np.sign(step) == (1 if up >= down else -1)))


def _split_share(way: np.ndarray) -> float:
    """The largest share of ``way`` (+1 / -1 in order along a side) that one way before some profile and the
    other after it explains: 1.0 for two stretches, about a half for ways mixed at random."""
    n = len(way)
    if n == 0:
        return 0.0
    ups = np.concatenate([[0], np.cumsum(way > 0)])  # ups before each split point
    downs = np.arange(n + 1) - ups
    after_up, after_down = ups[-1] - ups, downs[-1] - downs
    return float(np.maximum(ups + after_down, downs + after_up).max()) / n


def _nose_steps(
    grad: np.ndarray, signed: np.ndarray, shift: np.ndarray, band: tuple[int, int, int], diag: float
) -> tuple[np.ndarray, np.ndarray, float] | None:
    """The nose across the profiles (``grad``: their absolute steps, ``signed``: their steps, each moved by
    ``shift``; ``band``: the first, last and farthest sample searched): each profile's own step near the
    strongest common one, which profiles agree with it, and their share; None where the common step is
    weak or is the tail of the outline's edge (``_stands_apart``)."""
    first, last, within = band
    grad, signed = _shifted(grad, shift), _shifted(signed, shift)
    trend, common = np.median(signed, axis=0), np.median(grad, axis=0)
    k = first + int(np.argmax(common[first:within]))
    strong = common[k] >= max(NOSE_CONTRAST * float(np.median(common[first:last])), MIN_NOSE_STEP)
    if not strong or not _stands_apart(trend, k):
        return None
    reach = max(2, int(NOSE_AGREE * diag / NOSE_STEP_PX))
    lo, hi = max(first, k - reach), min(last, k + reach + 1)
    own = np.argmax(grad[:, lo:hi], axis=1) + lo
    agree = grad[np.arange(len(grad)), own] >= 0.5 * grad[:, first:last].max(axis=1)  # its own, not an echo
    return own, agree, float(agree.mean())


def _tilt(grad: np.ndarray, along: np.ndarray, first: int, within: int, rise: float) -> np.ndarray:
    """Each profile's shift (samples) that lines up a nose not parallel to the outline: seen from above and
    behind one end, a long side runs up the image (``rise``: its ends' rows apart over their columns apart,
    going the way ``along`` does, -0.5 to 0.5) and its cushion top is wider at its near, lower end than at
    its far one, so the nose's offset grows towards the lower end. Of such shifts linear in ``along``, up to
    the band's width end to end, the one whose common step (the profiles' median) is strongest, where it is
    TILT_GAIN times the outline's parallel's; none on a side across the view (``RECEDES``)."""

    def strongest(shift: np.ndarray) -> float:
        return float(np.median(_shifted(grad, shift)[:, first:within], axis=0).max())

    flat = np.zeros(len(along), int)
    if abs(rise) < RECEDES:
        return flat
    best, best_shift = strongest(flat), flat
    for slope in range(TILT_STEP, within - first + 1, TILT_STEP):
        shift = np.round(math.copysign(slope, rise) * along).astype(int)
        if (step := strongest(shift)) > best:
            best, best_shift = step, shift
    return best_shift if best >= TILT_GAIN * strongest(flat) else flat


def _shifted(rows: np.ndarray, shift: np.ndarray) -> np.ndarray:
    """``rows`` each moved left by its ``shift`` (sample j of row i is sample j + shift[i]), zero beyond."""
    n = rows.shape[1]
    j = np.arange(n)[None, :] + shift[:, None]
    inside = (j >= 0) & (j < n)
    return np.where(inside, np.take_along_axis(rows, np.clip(j, 0, n - 1), axis=1), 0.0)


def _painted(level: np.ndarray, trend: np.ndarray) -> np.ndarray:
    """Which samples of a profile inward across a side (``level``: its median brightness, ``trend``: its
    median step) are a line painted on the cloth parallel to the side: a rise and a fall within PAINTED_PX,
    the fall at least PAINTED_BALANCE of the rise, with the cloth's brightness either side of it (alike,
    and near the inner half of the band's; a cushion's thin lit top has the rail outside it and its shaded
    face inside, both darker than the bed).
    Snooker's baulk line, ~60 px inside the far cushion from a camera behind the black end, is sharper
    than the cushion's nose."""
    n = max(1, round(PAINTED_PX / NOSE_STEP_PX))
    cloth = float(np.median(level[len(level) // 2 :]))  # the inner half of the band is mostly cloth
    out = np.zeros(len(trend), bool)
    for j in np.nonzero(trend > 0)[0]:
        fall = trend[j + 1 : j + n + 1]
        if not len(fall) or -float(fall.min()) < PAINTED_BALANCE * trend[j]:
            continue
        lo, hi = j, j + 1 + int(np.argmin(fall))
        edge = PAINTED_EDGE * min(float(trend[j]), -float(trend[hi]))
        while lo > 0 and trend[lo - 1] > edge:  # the whole line: its rise ...
            lo -= 1
        while hi + 1 < len(trend) and trend[hi + 1] < -edge:  # ... and its fall
            hi += 1
        sides = np.array([level[max(lo - 1, 0)], level[min(hi + 1, len(level) - 1)]], np.float64)
        height = float(level[lo : hi + 1].max()) - float(sides.max())
        alike = abs(float(sides[0] - sides[1])) <= PAINTED_SIDES * height
        near = float(np.abs(sides - cloth).max()) <= min(PAINTED_CLOTH * height, PAINTED_NEAR * cloth)
        if height > 0 and alike and near:
            out[lo : hi + 1] = True
    return out


def to_the_bed(gray: np.ndarray, side: SideFit, ends: tuple[np.ndarray, ...]) -> SideFit:
    """The side moved inward from its nose to the bed's visible edge where a dark band lies between them
    (``BAND_REACH``): the cushion's face and the nose's shadow, which a camera inside the table's outline
    sees. The bed's edge is the cloth-level line the calibration models its corners on; the nose is a
    cushion's height above it. Otherwise the side unchanged. ``gray`` is the full image, float32."""
    diag = float(np.hypot(*gray.shape[:2]))
    reach = BAND_REACH * diag
    offsets = np.arange(0.0, 1.5 * reach, NOSE_STEP_PX)
    prof, base, _ = _profiles(gray, side, (ends[0], ends[1]), offsets)
    top = _profiles(gray, side, (ends[0], ends[1]), -np.arange(1.0, 4.0, NOSE_STEP_PX))[0].max(axis=1)
    inside = offsets <= reach
    bed = np.median(prof[:, ~inside], axis=1)
    low = prof[:, inside].min(axis=1)
    start = int(np.searchsorted(offsets, BAND_START * diag)) + 1
    found = np.full(len(base), np.nan)
    lit = top >= BAND_DARK * bed  # a nose lit before the band
    dark = (low < BAND_DARK * bed) | ((low < BAND_FAINT * bed) & (low < BAND_DIP * top))
    for i in np.nonzero(dark & lit)[0]:
        found[i] = _band_end(
            prof[i, : int(inside.sum()) + 1], offsets, 0.5 * (float(low[i]) + float(bed[i])), start
        )
    ok = np.isfinite(found)
    if ok.mean() < BAND_SUPPORT:
        return side
    pts = base[ok] + found[ok, None] * side.inward[None]
    return replace(_through(side, pts, diag), on_the_bed=True)


def _through(side: SideFit, pts: np.ndarray, diag: float) -> SideFit:
    """``side`` moved onto the RANSAC line through ``pts`` (image px), its inward normal kept on its side."""
    p, v, _ = ransac_line(pts, NOSE_TOL * diag, np.random.default_rng(0))
    inward = np.array([-v[1], v[0]])
    inward = inward if np.dot(inward, side.inward) > 0 else -inward
    return replace(side, point=p, direction=v, inward=inward)


def _band_end(prof: np.ndarray, offsets: np.ndarray, mid: float, start: int) -> float:
    """Where a profile inward from a nose comes back up through ``mid`` after the band below it that begins
    within its first ``start`` samples (px inward, interpolated), or NaN when it has no such band."""
    dark = prof < mid
    if not dark[:start].any():
        return float("nan")
    first = int(np.argmax(dark))
    up = np.nonzero(~dark[first:])[0]
    if not len(up):
        return float("nan")
    j = first + int(up[0]) - 1  # the band's last sample
    frac = float(np.clip((mid - prof[j]) / max(float(prof[j + 1] - prof[j]), 1e-6), 0.0, 1.0))
    return float(offsets[j] + frac * (offsets[j + 1] - offsets[j]))


def _stands_apart(trend: np.ndarray, k: int) -> bool:
    """Whether the step at ``k`` of a profile (median brightness derivative, inward) is apart from the
    outline's own edge at 0: between them the brightness levels off, or steps the other way (a bright
    cushion top between a dark rail and the nose's shadow)."""
    between, peak = trend[:k], abs(float(trend[k]))
    return len(between) > 0 and (
        float(np.min(np.abs(between))) < NOSE_DIP * peak
        or float(np.max(-np.sign(trend[k]) * between)) >= NOSE_DIP * peak
    )
