"""Follow every ball across frames: one Kalman filter per ball in table millimetres (filterpy), association
by the assignment problem constrained by identity, and a lifecycle that tells a hidden ball from a pot.

The loop is SORT's: predict, associate, update, create, emit, remove; call ``update`` once per frame, with
no detections too. What differs is billiards: a ball at rest does not vanish, so a stationary track that
loses its detections (a cue, an arm, a hand over it) is kept where it is for as long as it stays unseen; a
ball is potted only when it is seen entering a pocket's area and is then gone, and one that vanishes
anywhere else (under an arm, merged with another ball, blurred) is held, never potted; a pot the camera
did not see clearly is marked unsure. Identity comes from the ball's look (the yellow is the yellow), so
the assignment never swaps two balls of different looks; a detection of another look right where a ball is
predicted is that ball misread (two balls cannot overlap), and it gives no birth to a ball of the look it
was misread as, nor renames the ball unless its detections say so twice over and that look's ball has not
been on the table; nor does a new track already moving fast when it is confirmed
(balls are added only at rest): it is the ball just lost nearest where it appeared.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from scipy.optimize import linear_sum_assignment

from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import BilliardsSpec
from arbiter.tables import Pocket, TableModel
from vision.points import nearest_distance
from vision.types import Detections

from .paths import (
    into_mouth,
    mouth_depth,
    mouths_at,
    struck_away,
    to_segment,
    where_no_ball_rests,
)
from .track import (
    HEADING_FIT_S,
    XY,
    Sighting,
    Track,
    TrackState,
    TrackView,
    chord_speed,
    fitted_velocity,
    heading_of,
    new_filter,
    reflect_at_cushions,
    set_dt,
)
from .tracker_config import TrackerConfig

# Another ball seen within this many ball diameters of where a ball vanished: the detector may have merged
# the two, so a pot there is unsure.
MERGED_WITHIN = 0.9
# A ball at rest in a pocket's jaws that a moving ball touched (its centre within STRUCK_WITHIN diameters of
# the resting ball's) at most STRUCK_S before it was last seen, and lost at once, was knocked in: a black
# ball struck softly off the lip drops into the black hole before it has moved enough to be seen moving.
STRUCK_WITHIN = 1.25
STRUCK_S = 0.05
# A ball heads into a pocket when this share of its speed takes it out through the pocket's mouth (about
# 75 degrees off the pocket's axis at most): a ball rolling along a cushion past a middle pocket does not.
HEADING_IN = 0.25
# A ball pending a pot is the same ball if seen again within this many ball diameters of where it was last
# seen: a ball rattling in the jaws moves less; another ball of its look rolling past the pocket is further.
POT_REVIVE_DIAMETERS = 2.0
# A detection of another look this close (in ball diameters) to where a followed ball is predicted is that
# ball misread (a blurred 5 read as the 3, a 9 as the 1): two balls cannot overlap. It may be taken, at a
# cost of MISREAD_COST diameters on top of its distance, so that a detection of the ball's own look nearby
# is always preferred, and one much further away (another ball of that look) is not.
MISREAD_WITHIN = 0.75
MISREAD_COST = 1.0
# Two balls' centres are never nearer than a diameter: a detection this near another detection, or where a
# ball seen last frame is predicted (in diameters, with the detector's error), is that ball misread or its
# ghost (its shadow in a pocket's throat read as a dark ball, a glint split off). It is taken by a ball
# predicted near it, never by a ball of its look found again far from where it was last seen (the cue ball
# in the jaws read as the 8 once dragged the resting 8 across the table and potted it).
OVERLAP = 0.85
# A ball at rest (not lost) that the detector missed for a frame is where it lay, unless a detection of its
# look at least this confident is found beyond the gate (the ball struck): a flickering false detection of a
# green on a green cloth (confidence 0.18) dragged the resting green 1.3 m, and its filter off the table.
SURE_TO_MOVE_A_BALL = 0.3
# A slow ball seen going into a pocket must stay unseen until its last heading would have taken it a ball's
# width past the mouth (``BallTracker._confirm_s``), at most this long: it may be seen again in the jaws.
POT_CONFIRM_MAX_S = 0.5
# A ball lost in the open is potted (unsure) when its path from its last sighting would have taken it over a
# pocket's mouth in the time it has been unseen, so long as that is no more than this: a fast ball the
# detector loses in its blur before it reaches the pocket's area (``BallTracker._reached_mouth``).
LOST_POT_S = 0.3
STILL_SHARE = 0.25  # a ball seen within this share of a ball's width of where it lay is still there
# A ball is only ever added to the table at rest (a respot, a ball uncovered): a new track that is already
# this fast when it is confirmed is a ball that was there, misread in its blur as another look (a struck
# purple-striped 12 read as the red-striped 11 while its filter still lags behind it at its old place).
NEW_BALL_MAX_SPEED_MM_S = 1000.0
# The ball it is was seen at most this long before the new track was: it was lost as it was struck.
NEWCOMER_UNSEEN_S = 0.5


_NO_MATCH = 1e6  # the cost of a track-detection pair that may not be associated


class BallTracker:
    """Tracks the balls of one game in table millimetres. ``update`` once per frame."""

    def __init__(self, spec: BilliardsSpec, config: TrackerConfig | None = None) -> None:
        self.table: TableModel = spec.table
        self.spec = spec
        self.config: TrackerConfig = config or TrackerConfig()
        self.tracks: list[Track] = []
        self._t: float | None = None
        # Which ids each look may take, in the order they are handed out (red:1, red:2, ...).
        self._ids_by_cls: dict[int, list[str]] = {}
        for bid, look in spec.looks.items():
            self._ids_by_cls.setdefault(APPEARANCE_CLASSES.index(look.cls), []).append(bid)

    def carry(self, moved: Callable[[np.ndarray], np.ndarray]) -> None:
        """The camera moved and its calibration was followed: every track's place (mm, N x 2 -> N x 2)
        carried to where the moved calibration puts what it was seen as, so no ball jumps."""
        for tr in self.tracks:
            tr.kf.x[:2, 0] = moved(np.array([tr.xy]))[0]

    def swap(self, a: str, b: str) -> None:
        """Ball ``a`` is ``b`` (``EventDetector.take_swaps``: the struck ball is the cue ball): its track
        takes ``b``'s id and look, its reads so far counted for it; the track that was ``b`` (where one is)
        takes ``a``'s and starts its reads afresh: its detections read it as ``b``'s look, so its own is
        unknown until they say otherwise (``_rename``)."""
        named = {tr.ball: tr for tr in self.tracks if tr.state is TrackState.CONFIRMED and not tr.stand_in}
        first, second = named.get(a), named.get(b)
        if first is None:
            return
        if second is not None:
            second.ball, second.cls, second.looks = a, first.cls, {}
        first.ball, first.cls = b, APPEARANCE_CLASSES.index(self.spec.looks[b].cls)
        first.looks = {first.cls: sum(first.looks.values())}

    def update(self, t: float, detections: Detections) -> list[TrackView]:
        """Advance to time ``t`` with this frame's detections (``xy_mm`` filled). Returns every live ball.

        SORT's loop: predict every live track, associate tracks with detections, update the matched ones,
        account for the misses, give birth to tracks for the detections left over, emit."""
        dt = 0.0 if self._t is None else max(t - self._t, 1e-6)
        self._t = t
        live = [tr for tr in self.tracks if tr.state is not TrackState.GONE]
        self._predict(live, dt)
        xy_mm = detections.xy_mm
        usable = np.flatnonzero(np.isfinite(xy_mm).all(axis=1))
        pairs = self._associate(live, detections, usable, dt)
        for tr in self.tracks:
            tr.was = None
        for tr, j in pairs:
            if not detections.blurred[j]:  # a streak names no look
                tr.read_as(int(detections.cls[j]), float(detections.confidence[j]))
            self._hit(tr, t, xy_mm[j])
            self._rename(tr)
        measured = {id(tr) for tr, _ in pairs}
        for tr, _ in pairs:
            if tr.state is TrackState.CONFIRMED and tr.hits == self.config.n_init:  # confirmed just now
                ball = self._misread_newcomer(tr)
                if ball is not None:
                    measured.add(id(ball))
                elif tr.stand_in:  # a second ball of a unique look: no ball
                    self.tracks.remove(tr)
        for tr in live:
            if id(tr) not in measured:
                self._miss(tr, t)
        matched = {j for _, j in pairs}
        for j in usable:
            if int(j) not in matched and not detections.blurred[j]:  # a streak names no ball to be born
                refound = self._birth(t, int(detections.cls[j]), xy_mm[j], float(detections.confidence[j]))
                if refound is not None:
                    measured.add(id(refound))
        return self.views(measured)

    # -- the steps of one update ----------------------------------------------------------------------------
    def _predict(self, live: list[Track], dt: float) -> None:
        if dt <= 0:
            return
        for tr in live:
            set_dt(tr.kf, dt, self.config.accel_mm_s2)
            tr.kf.predict()
            reflect_at_cushions(tr.kf, self.table)

    def _associate(
        self, live: list[Track], detections: Detections, usable: np.ndarray, dt: float
    ) -> list[tuple[Track, int]]:
        """(track, detection row) pairs: the assignment of least total distance among pairs of the same
        look within the track's gate, and detections of another look right where a ball is predicted (the
        ball misread, ``MISREAD_WITHIN``). A misread keeps the track's look (one frame's reading does not
        rename a ball: ``_rename``), and gives no birth to a ball of the look it was misread as. A streak (a
        ball found in its own blur, ``Detections.blurred``) has no look: it goes to a ball in view within the
        gate whatever its look (the one moving there, or one at rest whose own detection is missing: it has
        just been struck), never to a ball lost in the open, and no ball is born of it."""
        if not live or not len(usable):
            return []
        xy_mm = detections.xy_mm[usable]
        cls = detections.cls[usable]
        unsure = detections.confidence[usable] < SURE_TO_MOVE_A_BALL
        cost = np.full((len(live), len(usable)), _NO_MATCH)
        diameter = self.table.ball_diameter_mm
        seen = [tr.xy for tr in live if tr.state is TrackState.CONFIRMED and not tr.lost and tr.misses == 0]
        others = nearest_distance(xy_mm, xy_mm, itself=True)
        beside = np.minimum(others, nearest_distance(xy_mm, np.reshape(seen, (-1, 2))))
        ghosts = beside < OVERLAP * diameter
        blurred = detections.blurred[usable]
        dropping = where_no_ball_rests(self.table, xy_mm)  # (N,) the pocket each lies deep in, -1 where none
        shadowy = unsure.copy()  # unsure and in a pocket's mouth: its shadow, unless a ball is right there
        shadowy[unsure] = [bool(mouths_at(self.table, (x, y))) for x, y in xy_mm[unsure]]
        for i, tr in enumerate(live):
            d = np.linalg.norm(xy_mm - np.array(tr.xy), axis=1)
            same = cls == tr.cls
            ok = same & ~blurred & (d <= self._gate(tr, dt))
            far = d > self.config.gate_mm + tr.speed * dt
            if not tr.lost:  # a streak is whichever ball is there: moving, or one that just left its place
                ok |= blurred & ~far
            ok &= ~(far & ghosts)  # found again far away: by a detection that is surely a ball
            if (dropping >= 0).any():  # past a mouth only a ball going in is seen
                ok &= (dropping < 0) | np.isin(dropping, mouths_at(self.table, tr.xy))
            ok &= ~(shadowy & (d > diameter))  # a green rolling 130 mm off once took one and ran into it
            if tr.speed < self.config.rest_speed_mm_s and not tr.lost:
                ok &= ~(far & unsure)  # ... and a ball at rest, missed a frame, is where it lay
            cost[i, ok] = d[ok]
            if tr.state is TrackState.CONFIRMED and not tr.lost:  # a lost ball's place is a guess
                misread = ~same & (d <= MISREAD_WITHIN * diameter)
                cost[i, misread] = d[misread] + MISREAD_COST * diameter
        rows, cols = linear_sum_assignment(cost)
        return [(live[r], int(usable[k])) for r, k in zip(rows, cols, strict=True) if cost[r, k] < _NO_MATCH]

    def _gate(self, tr: Track, dt: float) -> float:
        """How far from its prediction a detection may be associated with ``tr``. A ball whose look is unique
        in the set (the yellow, the 7) that has gone unseen can be found anywhere: its look is its identity.
        While it is in view it is gated like the others, so a detection of its colour elsewhere (a misread
        ball) cannot drag it across the table."""
        if tr.pot_pending is not None:  # only a ball seen again by the pocket (rattling in the jaws) is it
            return POT_REVIVE_DIAMETERS * self.table.ball_diameter_mm
        unique = len(self._ids_by_cls.get(tr.cls, ())) == 1
        if unique and (tr.lost or tr.misses > 0):
            return math.inf
        return self.config.gate_mm + tr.speed * dt

    def _hit(self, tr: Track, t: float, xy_mm: np.ndarray) -> None:
        """``tr`` was detected at ``xy_mm``."""
        if tr.lost or tr.pot_pending:  # found again after a while: start afresh where it is
            # Seen again by the pocket it was going into, it goes on as it went: it may drop a moment later.
            velocity = heading_of(tr) if tr.pot_pending else (0.0, 0.0)
            tr.kf = new_filter((float(xy_mm[0]), float(xy_mm[1])), self.config.measurement_mm, velocity)
            tr.lost, tr.pot_pending = False, None
        else:
            tr.kf.update(xy_mm.reshape(2, 1))
        tr.hits += 1
        tr.misses = 0
        tr.last_seen_t = t
        if tr.state is TrackState.TENTATIVE and tr.hits >= self.config.n_init:
            tr.state = TrackState.CONFIRMED
        tr.history.append((t, *tr.xy, True))

    def _rename(self, tr: Track) -> None:
        """``tr`` becomes the ball of the look its detections give it (``Track.outvoted_by``) where no ball of
        that look's free id has been on the table yet: a far cue ball never found at rest, read as the pink
        for a few weak frames as it started to move, is the white once its detections say so."""
        look = tr.outvoted_by()
        ball = None if look is None or tr.state is not TrackState.CONFIRMED else self._free_id(look)
        been = any(o.ball == ball and o.hits >= self.config.n_init for o in self.tracks)
        if look is None or ball is None or been:
            return
        tr.was, tr.ball, tr.cls = tr.ball, ball, look

    def _miss(self, tr: Track, t: float) -> None:
        """``tr`` was not detected: a tentative track dies; a ball seen going into a pocket (or over a
        cushion) and then gone is gone; any other ball is held: one lost in the open (an arm over it, a
        blur, merged with another ball) stays on the table, as does a ball at rest under a hand or the cue."""
        cfg = self.config
        tr.misses += 1
        moving = tr.speed >= cfg.rest_speed_mm_s
        if tr.state is TrackState.TENTATIVE:
            tr.state = TrackState.GONE  # never became a ball
            return
        if tr.pot_pending is not None:
            if t - tr.last_seen_t >= tr.pot_confirm_s:  # seen going in, and gone since: potted
                tr.state = TrackState.GONE
                tr.gone_near, tr.pot_unsure = tr.pot_pending
                return
            moving = False
        elif tr.misses > cfg.max_misses_moving:
            exit_ = self._exit(tr, moving)
            if exit_ is not None:
                pocket, unsure = exit_
                if pocket is None:  # over a cushion, off the table
                    tr.state = TrackState.GONE
                    return
                tr.pot_pending = (pocket, unsure)  # potted once it stays unseen for pot_confirm_s
                tr.pot_confirm_s = self._confirm_s(tr, self.table.pocket(pocket))
                moving = False
            if moving or self._struck(tr, tr.xy):
                # Lost in the open (a blur the detector missed, an arm over it), or struck from rest and
                # gone at once (a pyramid ball driven out of the rack at the break, which held at the rack
                # left its sightings elsewhere no free id of its look): it is still on the table. Stop
                # guessing its path; the next sighting of its look picks it up wherever it is.
                tr.lost = True
                moving = False
        if tr.lost and t - tr.last_seen_t <= LOST_POT_S:
            reached = self._reached_mouth(tr, t)
            if reached is not None:  # it would be over a pocket's mouth by now, and nowhere seen on the way
                tr.lost, tr.pot_pending = False, (reached[0].id, True)
                tr.pot_confirm_s = reached[1] + cfg.pot_confirm_s
        if not moving:
            # Hidden at rest: hold it where it stopped (no drift from a stale velocity).
            tr.kf.x[2:, 0] = 0.0
        tr.history.append((t, *tr.xy, False))

    def _exit(self, tr: Track, moving: bool) -> tuple[str | None, bool] | None:
        """How a ball unseen for ``max_misses_moving`` frames left the table, as ``(pocket, unsure)``, or
        None when it did not (it is held). A pot needs the ball *seen entering* the pocket's area: moving,
        last measured within ``pocket_reach_mm`` of a mouth, and either in the jaws heading out of the table
        or short of them on a path that crosses the mouth between the jaws, the heading fitted to its last
        sightings (``heading_of``), or told from its striker where it was struck and lost at once
        (``_struck_away``). A ball rolling along a cushion past a pocket is not; one at rest in the jaws
        under a hand is held (a ball that drops by itself is replaced). It is sure when that sighting was in
        the jaws with no other ball where it vanished (two balls the detector merged into one look like a
        pot) and its heading was seen, not told; else it is marked unsure. A ball last seen in the jaws past
        the line of the cushions' noses is in the mouth whatever its heading (a slow ball rolling along a
        jaw drops): potted, unsure. Any other moving ball last seen off the cloth left the table (pocket
        None). A ball at rest in the jaws that a moving ball touched just before it vanished was knocked in
        (``_struck``): potted, unsure."""
        last = next(((h[1], h[2]) for h in reversed(tr.history) if h[3]), None)
        if last is None:
            return None
        struck = not moving and self._struck(tr, last)
        # A ball at rest never drops by itself; one just struck may drop before it is seen moving.
        pocket = self._nearest_pocket(last) if moving or struck else None
        if pocket is not None:
            jaws_mm = pocket.opening_mm / 2 + self.table.ball_diameter_mm
            in_jaws = math.dist(pocket.mouth_xy_mm, last) < jaws_mm
            away = self._struck_away(tr)
            heading = heading_of(tr) if away is None else away
            outward = -(heading[0] * pocket.inward[0] + heading[1] * pocket.inward[1])  # out through it
            # In the jaws, any heading out of the table; short of them, a path that crosses the mouth. A
            # heading told from the striker, not seen, leaves the pot unsure.
            out = outward > HEADING_IN * math.hypot(*heading)
            if (in_jaws and out) or into_mouth(pocket, last, heading):
                return pocket.id, not in_jaws or away is not None or self._merged(tr, last)
            if in_jaws and not self.table.on_table(last):  # past the noses' line: only a mouth lets it there
                return pocket.id, True  # heading along the jaws, not out: unsure
            if in_jaws and struck:  # knocked off the lip and gone at once: unsure, no heading to go by
                return pocket.id, True
        if moving and not self.table.on_table(last):
            return None, False
        return None

    def _reached_mouth(self, tr: Track, t: float) -> tuple[Pocket, float] | None:
        """The pocket whose mouth ``tr``'s path from its last sighting crosses, at its fitted heading, by
        time ``t``, with the seconds it took; None when it crosses none by then."""
        last = next((h for h in reversed(tr.history) if h[3]), None)
        heading = self._departure(tr)
        if last is None or math.hypot(*heading) < self.config.rest_speed_mm_s:
            return None
        xy = (last[1], last[2])
        for pocket in self.table.pockets:
            if into_mouth(pocket, xy, heading):
                depth = mouth_depth(pocket, xy)
                toward = -(heading[0] * pocket.inward[0] + heading[1] * pocket.inward[1])
                if depth / toward <= t - last[0] and not self._seen_on_the_way(
                    tr, last, heading, depth / toward
                ):
                    return pocket, depth / toward
        return None

    def _seen_on_the_way(
        self, tr: Track, last: tuple[float, float, float, bool], heading: XY, seconds: float
    ) -> bool:
        """Whether another ball was seen, since ``tr`` was lost, within a ball's width of the path it would
        have taken to the pocket: it may be that ball misread, or have stopped it (a kiss). A ball that lay
        there before ``tr`` was lost and lies there still, though ``tr`` would have reached it by now, was
        neither: no ball rolls through another, so it is no ball (a score bar's letter over the cushion). Nor
        is a sighting that never became a ball and is gone (a flicker, or ``tr`` itself misread on its way
        in: it went on)."""
        end = (last[1] + heading[0] * seconds, last[2] + heading[1] * seconds)
        for other in self.tracks:
            flicker = other.state is TrackState.GONE and other.hits < self.config.n_init
            if other is tr or flicker or self._lay_still(other, last[0]):
                continue
            for h in reversed(other.history):
                if h[0] <= last[0]:
                    break
                if h[3] and to_segment((h[1], h[2]), (last[1], last[2]), end) < self.table.ball_diameter_mm:
                    return True
        return False

    def _lay_still(self, tr: Track, since: float) -> bool:
        """Whether ``tr`` was seen where it lies (to STILL_SHARE) before ``since`` and every time since."""
        before = next((h[1:3] for h in reversed(tr.history) if h[3] and h[0] <= since), None)
        after = [h[1:3] for h in tr.history if h[3] and h[0] > since]
        reach = STILL_SHARE * self.table.ball_diameter_mm
        return bool(after) and before is not None and all(math.dist(p, before) < reach for p in after)

    def _confirm_s(self, tr: Track, pocket: Pocket) -> float:
        """How long ``tr``, seen going into ``pocket``, must stay unseen to be potted: ``pot_confirm_s``, or
        for a slow ball the time its last heading takes it from its last sighting to a ball's width past
        the mouth's line, where it has surely dropped (a ball crawling into the jaws, lost in their shadow,
        is often seen again there), at most ``POT_CONFIRM_MAX_S``."""
        last = next((h for h in reversed(tr.history) if h[3]), None)
        heading = self._departure(tr)
        toward = -(heading[0] * pocket.inward[0] + heading[1] * pocket.inward[1])
        if last is None or toward <= 0:
            return self.config.pot_confirm_s
        to_drop = max(0.0, mouth_depth(pocket, (last[1], last[2])) + self.table.ball_diameter_mm)
        return min(POT_CONFIRM_MAX_S, max(self.config.pot_confirm_s, to_drop / toward))

    def _misread_newcomer(self, new: Track) -> Track | None:
        """The ball that ``new``, confirmed already moving (``NEW_BALL_MAX_SPEED_MM_S``), is: of the balls
        unseen since ``new`` was first seen (and seen ``NEWCOMER_UNSEEN_S`` before it), the one last seen
        nearest to where ``new`` was first seen, within the gate. That ball takes ``new``'s sightings and
        filter and keeps its own id and look; ``new`` is dropped. None (``new`` stays a new ball) where it is
        slow or no such ball is there."""
        (t0, x0, y0, _), last = new.history[0], new.history[-1]
        if last[0] <= t0 or chord_speed(new.history[0], last) < NEW_BALL_MAX_SPEED_MM_S:
            return None
        candidates = []
        for old in self.tracks:
            if old is new or old.state is not TrackState.CONFIRMED:
                continue
            if not t0 - NEWCOMER_UNSEEN_S <= old.last_seen_t < t0:
                continue
            seen = [h for h in old.history if h[3]]
            if seen and math.dist(seen[-1][1:3], (x0, y0)) <= self.config.gate_mm:
                candidates.append((math.dist(seen[-1][1:3], (x0, y0)), old))
        if not candidates:
            return None
        ball = min(candidates, key=lambda c: c[0])[1]
        ball.kf, ball.history = new.kf, ball.history + new.history
        ball.hits, ball.misses, ball.last_seen_t = ball.hits + new.hits, 0, new.last_seen_t
        ball.lost, ball.pot_pending = False, None
        self.tracks.remove(new)
        return ball

    def _struck(self, tr: Track, xy: XY) -> bool:
        """Whether a moving ball was seen touching ``tr`` (last seen at ``xy``) just before ``tr`` was lost:
        within STRUCK_WITHIN diameters of it, at most STRUCK_S before its last sighting."""
        reach = STRUCK_WITHIN * self.table.ball_diameter_mm
        since = tr.last_seen_t - STRUCK_S
        return any(
            o is not tr
            and o.state is TrackState.CONFIRMED
            and o.speed >= self.config.rest_speed_mm_s
            and any(h[3] and h[0] >= since and math.dist((h[1], h[2]), xy) < reach for h in o.history[-6:])
            for o in self.tracks
        )

    def _departure(self, tr: Track) -> XY:
        """Where ``tr`` was heading when last seen (mm/s): as it was struck (``_struck_away``), else fitted to
        its sightings (``heading_of``)."""
        away = self._struck_away(tr)
        return heading_of(tr) if away is None else away

    def _struck_away(self, tr: Track) -> XY | None:
        """For a ball a moving one touched at most STRUCK_S before it was last seen (struck from rest and
        lost before it was seen moving: a red driven under a score bar), the velocity it left with
        (``struck_away``: a ball of the striker's mass leaves with the striker's velocity before the
        contact, fitted to its path there, along the line of their centres); else None."""
        last = next((h for h in reversed(tr.history) if h[3]), None)
        if last is None:
            return None
        since = last[0] - STRUCK_S
        rest = next((h for h in reversed(tr.history) if h[3] and h[0] <= since), None)  # where it lay before
        rest = rest or next(h for h in tr.history if h[3])
        rest_xy, reach = (rest[1], rest[2]), STRUCK_WITHIN * self.table.ball_diameter_mm
        for other in self.tracks:
            if other is tr or other.state is not TrackState.CONFIRMED:
                continue
            path = _sightings_since(other.history, since - HEADING_FIT_S)
            touch = next(
                (h for h in path if since <= h[0] <= last[0] and math.dist(h[1:3], rest_xy) < reach), None
            )
            if touch is None:
                continue
            before = [h for h in path if touch[0] - HEADING_FIT_S <= h[0] <= touch[0]]
            velocity = fitted_velocity(before)
            if velocity is None:
                continue
            mean = np.mean([h[1:3] for h in before], axis=0)
            away = struck_away(
                (float(mean[0]), float(mean[1])), velocity, rest_xy, self.table.ball_diameter_mm
            )
            if away is not None and math.hypot(*away) >= self.config.rest_speed_mm_s:
                return away
        return None

    def _merged(self, tr: Track, xy: XY) -> bool:
        """Whether another ball seen this frame overlaps where ``tr`` was last seen: the detector may have
        taken the two for one."""
        reach = MERGED_WITHIN * self.table.ball_diameter_mm
        return any(
            o is not tr and o.state is TrackState.CONFIRMED and o.misses == 0 and math.dist(o.xy, xy) < reach
            for o in self.tracks
        )

    def _birth(self, t: float, cls: int, xy_mm: np.ndarray, confidence: float) -> Track | None:
        """A detection no track took: a look-alike seen going into a pocket and seen again by it (no pot);
        else nothing where no ball can rest (``paths.where_no_ball_rests``); else a new ball if the game has
        a free id of its look (returned when it is a ball at once, ``n_init`` 1: measured now); else a lost
        look-alike seen again further than the gate (returned, as it is measured now); else nothing (more
        balls of this look than the game has: a false detection)."""
        pending = [
            tr
            for tr in self.tracks
            if tr.cls == cls and tr.pot_pending is not None and tr.state is TrackState.CONFIRMED
            and math.dist(tr.xy, xy_mm) <= POT_REVIVE_DIAMETERS * self.table.ball_diameter_mm
        ]  # fmt: skip
        if pending:  # a ball seen going into a pocket, seen again next to it: no pot
            tr = min(pending, key=lambda tr: math.dist(tr.xy, xy_mm))
            self._hit(tr, t, xy_mm)
            return tr
        if where_no_ball_rests(self.table, xy_mm.reshape(1, 2))[0] >= 0:
            return None  # no ball is found again nor added where none can rest
        xy = (float(xy_mm[0]), float(xy_mm[1]))
        ball = self._free_id(cls)
        if ball is None:
            lost = [
                tr for tr in self.tracks if tr.cls == cls and tr.lost and tr.state is TrackState.CONFIRMED
            ]
            if not lost:
                self._stand_in(t, cls, xy_mm, confidence)
                return None
            tr = min(lost, key=lambda tr: math.dist(tr.xy, xy_mm))
            tr.kf = new_filter((float(xy_mm[0]), float(xy_mm[1])), self.config.measurement_mm)
            tr.lost, tr.misses, tr.last_seen_t = False, 0, t
            tr.history.append((t, *tr.xy, True))
            return tr
        tr = Track(ball, cls, new_filter(xy, self.config.measurement_mm), last_seen_t=t)
        tr.read_as(cls, confidence)
        tr.history.append((t, *xy, True))
        self.tracks.append(tr)
        if self.config.n_init <= 1:
            tr.state = TrackState.CONFIRMED
            return tr
        return None

    def _stand_in(self, t: float, cls: int, xy_mm: np.ndarray, confidence: float) -> None:
        """A sure detection of a unique look whose ball is followed elsewhere (the cue ball's, where a stripe
        lying white side up took its name and the cue ball was named as the stripe): a tentative track that
        lives only to be found, once confirmed, to be another ball misread as it was struck
        (``_misread_newcomer``: the struck cue ball, read as itself again once it moves), and is dropped
        otherwise."""
        unique = len(self._ids_by_cls.get(cls, ())) == 1
        if not unique or self.config.n_init <= 1 or confidence < SURE_TO_MOVE_A_BALL:
            return
        xy = (float(xy_mm[0]), float(xy_mm[1]))
        ball = self._ids_by_cls[cls][0]
        tr = Track(ball, cls, new_filter(xy, self.config.measurement_mm), last_seen_t=t, stand_in=True)
        tr.read_as(cls, confidence)
        tr.history.append((t, *xy, True))
        self.tracks.append(tr)

    # -- lookups --------------------------------------------------------------------------------------------
    def _free_id(self, cls: int) -> str | None:
        taken = {t.ball for t in self.tracks if t.state is not TrackState.GONE}
        return next((b for b in self._ids_by_cls.get(cls, []) if b not in taken), None)

    def _nearest_pocket(self, xy: XY) -> Pocket | None:
        best = min(self.table.pockets, key=lambda p: math.dist(p.mouth_xy_mm, xy), default=None)
        if best is None or math.dist(best.mouth_xy_mm, xy) > self.config.pocket_reach_mm:
            return None
        return best

    # -- what the outside sees ------------------------------------------------------------------------------
    def views(self, measured: set[int] | None = None) -> list[TrackView]:
        """Every ball on the table now; ``measured`` holds the ``id`` of the tracks detected this frame."""
        measured = measured or set()
        return [
            TrackView(
                tr.ball,
                tr.xy,
                tr.velocity,
                tr.state,
                id(tr) in measured,
                tr.speed >= self.config.rest_speed_mm_s,
                tr.lost,
                tr.pot_pending is not None,
                tr.was,
            )
            for tr in self.tracks
            if tr.state is TrackState.CONFIRMED
        ]

    def gone(self) -> list[Track]:
        """Every ball that has left the table (potted or off), once it had been a ball."""
        return [tr for tr in self.tracks if tr.state is TrackState.GONE and tr.hits >= self.config.n_init]


def _sightings_since(history: list[Sighting], t: float) -> list[Sighting]:
    """The measured entries of ``history`` from time ``t`` on, read from its end (it grows all clip long)."""
    recent = []
    for h in reversed(history):
        if h[0] < t:
            break
        if h[3]:
            recent.append(h)
    return recent[::-1]
