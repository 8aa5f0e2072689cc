"""The classical detector: the pyramid, the cloth, candidate circles, then judging and naming them.

A circle is kept when it is covered, outlined all round (or packed between two kept balls, as inside a rack),
round (``coherence``) and shiny: every ball shows a glint above its body colour, which pocket mouths, sleeves,
hands and shadows do not; a lone ball without a glint is kept on its round outline alone, and a ball hanging
in a pocket's jaws, its outline lost against the mouth's black, on its glint, one colour over its face and the
outline it shows to the cloth (``jaws_px``); in a cluster a ball without a glint (a white under a tinted
light, its highlight clipped) is kept when it is rounder and more outlined than any hand or letter and touches
a ball kept. The first frame with a few balls sets their size (``_resized``). Kept circles are named over the
game's ball set (``identity``), through the white balance of the whitest ball (``balance``).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import cv2
import numpy as np

from arbiter.games import BilliardsSpec
from vision.ball_size import outline_scale
from vision.cloth import ClothModel, Foreground, find_table
from vision.points import nearest_distance
from vision.types import Detections

from .blobs import StillBlobs, find_blobs, fit_blobs, merged
from .candidates import Candidates
from .colour import Colour, balanced
from .colour_memo import ColourMemo
from .config import ClassicalConfig
from .identity import BallSet
from .isolated import fit_isolated
from .kernels import EPS, bound
from .levels import Geometry, Pyramid, Scene
from .streaks import find_streaks

# A circle this near a spot (radii) is on it: a ball respotted there, or a candidate pulled off its centre
# by the markings through it.
MIN_BALL_RADIUS_PX = 2.0  # a ball smaller than this in the picture cannot be told from noise and texture
_SPOT_REACH = 1.0
# A circle is looked for on a spot only with no other circle within this many radii: a ball passing the
# one on the spot (a white rolling behind the brown, seen from a broadcast camera) may share its blob, and a
# circle fitted there, or the cluster's circle on the spot, is pulled.
_SPOT_CLEAR = 3.5
_SPOT_COVERED = 0.5  # share of a ball's disk round a spot that is not cloth before a circle is looked for
_PACKED_OUTLINE = 0.5  # share of min_outline a ball packed between two found balls needs
_TOUCH = (1.7, 2.3)  # radii between the centres of touching balls (perspective, fit error)
_PACKED_ROUNDS = 3
_ALONE = 2.6  # radii: a circle with none other closer is no part of a group of touching balls
# The balls' own size: a frame with this many balls whose median fitted radius is outside this share of
# the expected one rebuilds the detector at it, at most this often.
_RESIZE_MIN_BALLS = 3
_RESIZE_KEEP = (0.95, 1.1)
_RESIZE_ROUNDS = 2
# ... and where the fits keep the size given, balls whose outlines are this much bigger than it. Outlines
# read 2-8 % under the balls' size (renders and real photos, ``vision.ball_size.outline_scale``); one
# catalogue size misjudged is 1.1-1.2 times, which the calibration measures where it can; past this is a
# table two sizes or more smaller than the one taken (the game's largest, where nothing measured it).
_OUTLINED_BIGGER = 1.2
# The whitest ball's white balance, when no ball is named white, is kept when it names the frame no worse
# than this (mean colour distance, as a share of the plain naming's): from a white under tinted light it
# measures 0.88-1.03 on the real photos, from a pink with the white potted ~1.6 on the bundled clip.
_BALANCE_GAIN = 1.1


def _touching(xy: np.ndarray, radius: float) -> np.ndarray:
    """Which circles (N x N, bool) touch each other: centres about two radii apart (``_TOUCH``)."""
    d = np.linalg.norm(xy[:, None, :] - xy[None, :, :], axis=2)
    touching: np.ndarray = (d >= _TOUCH[0] * radius) & (d <= _TOUCH[1] * radius)
    return touching


def shows_glint(colour: Colour, cfg: ClassicalConfig) -> np.ndarray:
    """Which balls show a ball's glint (``min_glint``), or where the exposure leaves a coloured face too near
    the sensor's white for that (a yellow lit to full scale), ``glint_room`` of the room it leaves. A face
    mostly white has no such allowance (``glint_room_colour``): a score bar's white letters are as clipped,
    and a white ball without a glint is kept by its outline (``plain_coherence``)."""
    room = np.where(colour.shares[:, 2] >= cfg.glint_room_colour, colour.room, np.inf)
    return np.asarray(colour.glint >= np.minimum(cfg.min_glint, cfg.glint_room * room))


def _tinted(cand: Candidates, colour: Colour, cfg: ClassicalConfig) -> np.ndarray:
    """Which circles are balls of the cloth's own colour (``ClassicalConfig.min_tinted_edge``): lone, with a
    seed's glint over a disk a shade darker than the cloth, a weak rim (its shaded side) all round and
    round."""
    return np.asarray(
        ~cand.cluster
        & (colour.glint >= cfg.min_seed_glint)
        & (colour.light < 0.0)
        & (colour.light >= cfg.min_tinted_light)
        & (cand.edge >= cfg.min_tinted_edge)
        & (cand.edge < cfg.max_tinted_edge)
        & (cand.outline >= cfg.min_seed_outline)
        & (colour.coherence >= cfg.min_tinted_coherence)
    )


def _packed(xy: np.ndarray, candidate: np.ndarray, kept: np.ndarray, radius: float) -> np.ndarray:
    """Candidates that touch at least two kept balls (centres two radii apart): inside a rack a ball's
    outline is mostly seams with balls of its own colour, and its packed neighbours vouch for it. Spreads
    inwards over a few rounds."""
    kept = kept.copy()
    touching = _touching(xy, radius)
    for _ in range(_PACKED_ROUNDS):
        new = candidate & ~kept & ((touching & kept[None, :]).sum(axis=1) >= 2)
        if not new.any():
            break
        kept |= new
    return kept


class ClassicalDetector:
    """Finds the balls of one game in frames from one fixed camera.

    ``ball_radius_px`` is the apparent ball radius (from the calibration, at the table's centre: it varies by
    ~10 % over the table, which the thresholds absorb). ``table_mask`` (H x W, nonzero = playing area, drawn
    at cloth level or at ball-centre height, pocket mouths in or out) limits the search; without it the cloth
    is found in the first frame (``cloth.find_table``). ``spots_px`` (N x 2, full-image px: where a ball's
    centre is when it stands on each of the table's spots) lets a ball of the cloth's colour be found on a
    spot, where the markings cross its rim. ``jaws_px`` (P x 2, full-image px: the middle of each pocket's
    mouth) lets a ball hanging in a pocket's jaws be found on the part of its outline the cloth shows.
    ``radius_at`` (full-image px, N x 2 -> N) is the radius the calibration expects at each point, where it
    varies more (a broadcast's near and far ends): the first frame's balls are checked against it.
    ``at_rest``: the frames are pictures of balls at rest (a folder of photos), where every ball with a spot
    of its own is on the table (``BallSet.for_game``). Call ``detect`` once per frame and in order: the cloth
    model learns from every call and still blobs are recognised from the last frame. ``reset`` after a cut or
    a camera move."""

    def __init__(
        self,
        spec: BilliardsSpec,
        ball_radius_px: float,
        table_mask: np.ndarray | None = None,
        config: ClassicalConfig | None = None,
        spots_px: np.ndarray | None = None,
        at_rest: bool = False,
        jaws_px: np.ndarray | None = None,
        radius_at: Callable[[np.ndarray], np.ndarray] | None = None,
    ) -> None:
        config = config or ClassicalConfig()
        self._balls = BallSet.for_game(spec, at_rest)
        if not isinstance(ball_radius_px, numbers.Real) or not math.isfinite(ball_radius_px):
            raise ValueError(f"ball_radius_px must be a finite number, got {ball_radius_px!r}")
        if ball_radius_px < MIN_BALL_RADIUS_PX:
            raise ValueError(
                f"ball_radius_px must be at least {MIN_BALL_RADIUS_PX:g} (a ball of {ball_radius_px} px "
                "cannot be told)"
            )
        if table_mask is not None:
            table_mask = np.asarray(table_mask)
            if table_mask.ndim != 2 or not table_mask.any():
                raise ValueError("table_mask must be a 2-D array (H x W) with at least one nonzero pixel")
        self.spec: BilliardsSpec = spec
        self.radius: float = float(ball_radius_px)
        self.config: ClassicalConfig = config
        self._table_mask: np.ndarray | None = table_mask
        self._spots_px: np.ndarray = (
            np.zeros((0, 2)) if spots_px is None else np.asarray(spots_px, np.float64).reshape(-1, 2)
        )
        self._jaws_px: np.ndarray | None = jaws_px
        self._radius_at: Callable[[np.ndarray], np.ndarray] | None = radius_at
        self._given_radius: float = self.radius  # ``radius_at``'s scale; the detector may be rebuilt
        self._pyramid: Pyramid = Pyramid.build(self.radius, config)
        self._geometry: Geometry | None = None
        self._cloth: ClothModel | None = None
        self._still: StillBlobs = StillBlobs(config.reuse_still)
        self._colours: ColourMemo = ColourMemo(config)
        self._last: Detections | None = None
        self._last_score: np.ndarray | None = None  # the last frame's coarse foreground score (``streaks``)
        self._sized: bool = False  # whether a frame has confirmed the balls' radius (``_resized``)
        # Every circle of the last frame with the measures it was judged on: for tuning and diagnosis.
        self.last_candidates: dict[str, Any] | None = None

    def reset(self) -> None:
        """Forget the cloth (a cut, a new table); the next frame relearns it."""
        if self._cloth is not None:
            self._cloth.reset()
        self._still.reset()
        self._colours.reset()
        self._last = None
        self._last_score = None

    def detect(self, image: np.ndarray) -> Detections:
        """Every ball found in ``image`` (H x W x 3 BGR uint8). ``xy_mm`` is left NaN."""
        image = np.asarray(image)
        if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            raise ValueError(f"detect needs an H x W x 3 uint8 BGR image, got {image.dtype} {image.shape}")
        found = self._detect(image)
        for _ in range(_RESIZE_ROUNDS):
            if self._sized:
                break
            found = self._resized(image, found)
        return found

    def _resized(self, image: np.ndarray, found: Detections) -> Detections:
        """The first frame with a few balls says how big they really look: when their fitted radii sit at
        the edge of the sizes tried (the calibration's radius is off by more than ~10 %: a wrong table
        size, a camera height misjudged), the detector is rebuilt at their median radius and looks again.
        Where the fits keep the size they were given (a lone ball's ring vote seldom moves it), the balls'
        outlines are measured (``vision.ball_size.outline_scale``) and the detector rebuilt at theirs when
        they are bigger than expected: a table too oblique to measure, taken at the game's largest size, a
        small bar table's balls 1.35 times the radius expected and a black in the rack missed. Only bigger:
        an outline closes short of a ball whose shaded side meets a cloth of its shade (``ball_size``), but
        seldom beyond one, and the game's largest size, taken where nothing measured it, errs that way."""
        if len(found) < _RESIZE_MIN_BALLS:
            return found
        ratio = float(np.median(found.radius_px)) / self.radius
        if _RESIZE_KEEP[0] <= ratio <= _RESIZE_KEEP[1]:
            ratio = self._outlined_ratio(image, found.xy_px[~found.blurred])
        if _RESIZE_KEEP[0] <= ratio <= _RESIZE_KEEP[1]:
            self._sized = True
            return found
        self.radius *= ratio
        self._pyramid = Pyramid.build(self.radius, self.config)
        self._geometry, self._cloth = None, None
        self.reset()
        return self._detect(image)

    def _outlined_ratio(self, image: np.ndarray, xy_px: np.ndarray) -> float:
        """How many times bigger than expected the balls at ``xy_px`` look by their outlines, where that is
        past _OUTLINED_BIGGER; else 1."""
        scaled = self.radius / self._given_radius  # the calibration's radii, as the detector was rebuilt
        given = self.radius if self._radius_at is None else self._radius_at(xy_px) * scaled
        expected = np.broadcast_to(np.asarray(given, np.float64), len(xy_px))
        scale = outline_scale(image, xy_px, expected)
        return scale if scale is not None and scale > _OUTLINED_BIGGER else 1.0

    def _detect(self, image: np.ndarray) -> Detections:
        geo = self._geometry_for(image)
        levels = [image[geo.y0 : geo.y1, geo.x0 : geo.x1]]
        for _ in range(self._pyramid.coarse):
            levels.append(cv2.resize(levels[-1], None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA))
        moved = self._still.moved(levels[-1], geo)
        if moved is not None and self._last is not None and not moved.any():
            return self._last[~self._last.blurred]  # nothing on the table changed since the last frame
        if self._cloth is None:
            self._cloth = ClothModel(geo.masks[-1], self.config.cloth)
        fg = self._cloth.update(levels[-1].astype(np.float32))
        scene = Scene.of(tuple(levels), geo, self._pyramid, self.config, self._cloth)
        cand = self._candidates(scene, fg, moved)
        self.last_candidates = None
        balls = self._judge(scene, cand)
        self._last = Detections.merge([balls, self._streaks(geo, fg.score, balls)])
        return self._last

    def _streaks(self, geo: Geometry, score: np.ndarray, balls: Detections) -> Detections:
        """Balls in their own motion blur, away from ``balls`` (``streaks``): placed, not named."""
        cfg = self.config.streaks
        previous, self._last_score = self._last_score, score.copy()
        if not cfg.enabled:
            return Detections.empty()
        q = 2**self._pyramid.coarse
        origin = np.array([geo.x0, geo.y0], np.float64)
        at = (balls.xy_px - origin + 0.5) / q - 0.5
        found = find_streaks(score, previous, geo.masks[-1], at, self._pyramid.coarse_radius, cfg)
        if not len(found):
            return Detections.empty()
        n = len(found)
        return Detections(
            q * (found + 0.5) - 0.5 + origin,
            np.full(n, self.radius),
            np.full(n, self._balls.cls[0]),
            np.full(n, cfg.confidence),
            blurred=np.ones(n, bool),
        )

    def _geometry_for(self, image: np.ndarray) -> Geometry:
        h, w = image.shape[:2]
        if self._geometry is not None and self._geometry.shape == (h, w):
            return self._geometry
        if self._table_mask is not None and self._table_mask.shape != (h, w):
            raise ValueError(f"table_mask is {self._table_mask.shape}, the image {h} x {w}: they must match")
        mask = self._table_mask if self._table_mask is not None else find_table(image)
        self._geometry = Geometry.build(mask, self.radius, self.config, self._pyramid.coarse, self._jaws_px)
        self._cloth = None
        return self._geometry

    def _candidates(self, scene: Scene, fg: Foreground, moved: np.ndarray | None) -> Candidates:
        """Circles in the coarse foreground, fitted at the fine level. A blob whose surroundings have not
        changed since the last frame (balls at rest: most of a match) keeps last frame's circles."""
        blobs = find_blobs(scene, fg)
        found = fit_blobs(scene, blobs, self._still.recall(moved, blobs))
        self._still.remember(scene.coarse, blobs, found)
        cand = merged(found, self.config.min_separation * self._pyramid.fine_radius)
        return self._with_spot_seeds(scene, fg, cand, moved)

    def _with_spot_seeds(
        self, scene: Scene, fg: Foreground, cand: Candidates, moved: np.ndarray | None
    ) -> Candidates:
        """``cand`` and a seed fitted on every spot where something ball-sized lies, no circle was found
        and nothing moved nearby since the last frame (``moved``: a ball rolling past shares the blob, and a
        circle fitted there is pulled): a ball of the cloth's colour on its spot whose blob the spot's
        markings join to a line (snooker's green on the baulk line, lit by a projector) is a cluster with no
        ball-thick part, where no glint is looked for; on its spot it is judged by its glint and dark disk
        (``_balls_among``)."""
        if not len(self._spots_px):
            return cand
        geo, p = scene.geo, self._pyramid
        origin = np.array([geo.x0, geo.y0], np.float64)
        fine = (self._spots_px - origin + 0.5) / 2**p.fine - 0.5
        coarse = np.round((self._spots_px - origin + 0.5) / 2**p.coarse - 0.5).astype(np.int64)
        h, w = fg.mask.shape
        lies = (coarse[:, 0] >= 0) & (coarse[:, 0] < w) & (coarse[:, 1] >= 0) & (coarse[:, 1] < h)
        if len(cand):  # a circle on the spot, or a ball beside it whose blob this one may have joined
            apart = np.linalg.norm(fine[:, None, :] - cand.xy[None, :, :], axis=2).min(axis=1)
            lies &= apart > _SPOT_CLEAR * p.fine_radius
        half, reach = round(p.coarse_radius), math.ceil(_SPOT_CLEAR * p.coarse_radius)
        for i in np.nonzero(lies)[0]:  # a few spots, each read in its own window
            x, y = coarse[i]
            # Something ball-sized lies there: half a ball's disk round the spot is not cloth (a spot's own
            # white dot, or a ball's shadow beside it, is much less) ...
            disk = (slice(max(y - half, 0), y + half + 1), slice(max(x - half, 0), x + half + 1))
            lies[i] = np.count_nonzero(fg.cloth[disk] == 0) >= _SPOT_COVERED * fg.cloth[disk].size
            # ... and nothing moved nearby since the last frame.
            near = (slice(max(y - reach, 0), y + reach + 1), slice(max(x - reach, 0), x + reach + 1))
            lies[i] &= moved is None or not moved[near].any()
        if not lies.any():
            return cand
        seeds = fit_isolated(scene, fine[lies], np.ones(int(lies.sum()), bool))
        seeds = replace(seeds, looked_for=np.ones(len(seeds), bool))
        return Candidates.concat([cand, seeds]) if len(cand) else seeds

    def _judge(self, scene: Scene, cand: Candidates) -> Detections:
        """Keep the circles that are balls and name them."""
        if len(cand) == 0:
            return Detections.empty()
        geo, fine_levels = scene.geo, self._pyramid.fine
        xy_full = 2**fine_levels * (cand.xy + 0.5) - 0.5 + np.array([geo.x0, geo.y0], np.float64)
        colour = self._colours.measure(scene, cand.xy, cand.radius)
        centre_ok = geo.centre_ok(xy_full)
        keep, min_cov = self._balls_among(cand, colour, centre_ok, self._on_a_spot(xy_full))
        keep |= self._in_jaws(cand, colour, centre_ok & geo.in_jaws(xy_full, self._jaw_reach))
        keep |= self._plain_beside(cand, colour, centre_ok & (cand.coverage >= min_cov), keep)
        keep &= ~colour.hollow  # a ring of light drawn round bare cloth (``rings``)
        self.last_candidates = {
            "xy_px": xy_full,
            "coverage": cand.coverage,
            "edge": cand.edge,
            "cluster": cand.cluster,
            "seeded": cand.seeded,
            "outline": cand.outline,
            "glint": colour.glint,
            "coherence": colour.coherence,
            "light": colour.light,
            "kept": keep,
        }
        if not keep.any():
            return Detections.empty()
        choice, distance = self._name(scene, cand.xy[keep], colour.subset(keep))
        fit = bound((cand.coverage[keep] - min_cov[keep]) / (1.0 - min_cov[keep] + EPS), 0.0, 1.0)
        scale = self.config.colour_scale
        confidence = (0.5 + 0.5 * fit) * scale / (scale + distance)
        radius = cand.radius[keep] * 2**fine_levels
        return Detections(xy_full[keep], radius, self._balls.cls[choice], confidence)

    def _name(self, scene: Scene, xy: np.ndarray, seen: Colour) -> tuple[np.ndarray, np.ndarray]:
        """Class (into the ball set) and colour distance of the balls at fine-level points ``xy``: named as
        they look, then again through the white balance of the ball named white; when none is (a tinted
        light can make the white read as pink), of the whitest ball, kept only if it names the frame no
        worse (``balance``)."""
        choice, distance = self._balls.name(seen)
        if self._balls.white is None:
            return choice, distance
        named = np.nonzero(choice == self._balls.white)[0]
        again = balanced(scene, xy, seen, int(named[0]) if len(named) else None, self.config)
        if again is None:
            return choice, distance
        choice2, distance2 = self._balls.name(again)
        if len(named) or distance2.mean() < _BALANCE_GAIN * distance.mean():
            return choice2, distance2
        return choice, distance

    def _on_a_spot(self, xy_full: np.ndarray) -> np.ndarray:
        """Which circles (full-image px) are centred on one of the table's spots, within ``_SPOT_REACH``."""
        if not len(self._spots_px) or not len(xy_full):
            return np.zeros(len(xy_full), bool)
        apart = np.linalg.norm(xy_full[:, None, :] - self._spots_px[None, :, :], axis=2).min(axis=1)
        return np.asarray(apart <= _SPOT_REACH * self.radius)

    @property
    def _jaw_reach(self) -> float:
        return self.config.jaw_reach * self.radius

    def _in_jaws(self, cand: Candidates, colour: Colour, in_jaws: np.ndarray) -> np.ndarray:
        """Which circles of clusters centred in a pocket's jaws (``in_jaws``, N: bool) are balls: half over
        the mouth's black, a ball's blob joins the mouth's and its outline shows only where it meets the
        cloth; it is kept on its glint (a seed's), one colour over its face and that part of its outline, or
        on a ball's glint where that face is as round as a plain ball's in a cluster (a red rattling in a
        corner's jaws on a dark cloth: glint 0.82, coherence 0.9)."""
        cfg = self.config
        shiny = (colour.glint >= cfg.min_seed_glint) & (colour.coherence >= cfg.min_cluster_coherence)
        round_ = shows_glint(colour, cfg) & (colour.coherence >= cfg.plain_cluster_coherence)
        return np.asarray(
            in_jaws
            & cand.cluster
            & (cand.coverage >= cfg.min_cluster_coverage)
            & (cand.edge >= cfg.min_jaw_edge)
            & (cand.outline >= cfg.min_jaw_outline)
            & (shiny | round_)
        )

    def _round_alone(
        self, cand: Candidates, colour: Colour, centre_ok: np.ndarray, apart: np.ndarray
    ) -> np.ndarray:
        """A cluster's circle with no other beside it, as round as only a ball is and outlined all round, on
        a covered disk: a ball without a glint whose blob took in the light round it (a white under a
        projector's warm pool, its highlight clipped to its body's level: coherence 0.99, outline 0.36,
        glint 0.11). Circles of hands, nets and score-bar letters in clusters are no rounder than 0.92.
        ``apart``: each circle's distance to the nearest other, in fine-level radii."""
        cfg = self.config
        return np.asarray(
            cand.cluster
            & (apart > _ALONE)
            & centre_ok
            & (colour.coherence >= cfg.outlined_coherence)
            & (cand.outline >= cfg.plain_outline)
            & (cand.coverage >= cfg.min_cluster_coverage)
        )

    def _plain_beside(
        self, cand: Candidates, colour: Colour, covered: np.ndarray, kept: np.ndarray
    ) -> np.ndarray:
        """Which circles of clusters, ``covered`` where a ball may lie, are balls without a glint: as round
        and as outlined all round as no hand, net or letter is (``plain_cluster_coherence``,
        ``plain_cluster_outline``), touching a ball kept (a white against a red under a pink light, its
        highlight clipped to its body's level; a score bar's round letters touch letters, not balls)."""
        cfg = self.config
        plain = (
            covered
            & cand.cluster
            & ~kept
            & (cand.edge >= cfg.min_edge)
            & (colour.coherence >= cfg.plain_cluster_coherence)
            & (cand.outline >= cfg.plain_cluster_outline)
        )
        if not plain.any() or not kept.any():
            return np.asarray(plain)
        touching = _touching(cand.xy, self._pyramid.fine_radius)
        return np.asarray(plain & (touching & kept[None, :]).any(axis=1))

    def _balls_among(
        self, cand: Candidates, colour: Colour, centre_ok: np.ndarray, on_spot: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Which circles are balls (N,: bool), and the coverage each needed (N,): covered, outlined, shiny,
        centred where a ball may lie; or packed between two balls, with half the outline; or a glint seed
        on a spot, on its glint and dark disk alone: the markings there (the spot; snooker's baulk line and
        the D's end through the green's) cross its rim, so its outline is theirs as much as its own (and
        where they join its blob to a line, a circle of that cluster on the spot is judged the same way)."""
        cfg = self.config
        min_cov = np.where(
            cand.cluster,
            cfg.min_cluster_coverage,
            np.where(cand.seeded, cfg.min_seed_coverage, cfg.min_coverage),
        )
        outlined = (
            ~cand.cluster
            & (colour.coherence >= cfg.outlined_coherence)
            & (cand.outline >= cfg.outlined_outline)
        )
        min_cov = np.where(outlined, np.minimum(min_cov, cfg.min_outlined_coverage), min_cov)
        plausible = centre_ok & (cand.coverage >= min_cov) & (cand.edge >= cfg.min_edge)
        plain = (
            ~cand.cluster & (colour.coherence >= cfg.plain_coherence) & (cand.outline >= cfg.plain_outline)
        )
        plausible &= shows_glint(colour, cfg) | plain
        plausible &= colour.coherence >= cfg.min_coherence
        round_ = ~cand.cluster | (colour.coherence >= cfg.min_cluster_coherence)
        seed_outline = (
            cand.seeded & (colour.glint >= cfg.min_seed_glint) & (cand.outline >= cfg.min_seed_outline)
        )
        keep = plausible & round_ & ((cand.outline >= cfg.min_outline) | seed_outline)
        apart = nearest_distance(cand.xy, cand.xy, itself=True) / self._pyramid.fine_radius  # in radii
        keep |= self._round_alone(cand, colour, centre_ok, apart)
        keep |= centre_ok & (cand.coverage >= cfg.min_seed_coverage) & _tinted(cand, colour, cfg)
        # A circle of a cluster, or one looked for on a spot with no blob's circle, has not shown itself a
        # ball by its blob: it needs one colour over its face (not lines and cloth), a face darker than the
        # cloth (its shaded disk; not a projector's bright pool round a spot's white dot), and no other
        # circle beside it (a ball rolling past one on its spot joins their blobs, and pulls the circle).
        shown = cand.seeded & ~cand.cluster & ~cand.looked_for
        alone = apart > _SPOT_CLEAR
        keep |= (
            (cand.seeded | cand.cluster)
            & on_spot
            & centre_ok
            & (cand.coverage >= min_cov)
            & (colour.glint >= cfg.min_seed_glint)
            & (shown | (alone & (colour.coherence >= cfg.min_coherence) & (colour.light < 0.0)))
        )
        keep |= _packed(
            cand.xy,
            plausible & (cand.outline >= _PACKED_OUTLINE * cfg.min_outline),
            keep,
            self._pyramid.fine_radius,
        )
        return keep, min_cov
