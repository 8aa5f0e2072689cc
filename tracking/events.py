"""Turn followed balls into the event stream of the contract, live, with contact times finer than a frame.

Between contacts a ball moves on a near-straight line at a near-constant speed (rolling resistance takes
centuries of frames to matter), so every contact is a *kink* in its trajectory: a change of velocity. A line
fitted to the frames before and one fitted to the frames after meet at the moment of contact; that
intersection is the contact time, to a fraction of the frame interval (at 60 fps a fast ball moves three
diameters a frame, so the frame in which a contact shows is not good enough). A kink is then explained by
what was there at that moment: a cushion nose one radius away (a cushion contact, on that side), another
ball two radii away (a ball-ball contact; the ball that was moving into the other is named first), or
nothing when the ball was at rest and nothing touched it (the cue: the shot starts). A ball the tracker
saw going into a pocket and then lost is potted there (marked unsure when the tracker was not sure);
outside the cloth, it left the table. When every ball has been at rest for ``settle_s``, the shot ends.

Events are emitted as soon as they are certain: a kink needs ``window`` frames after it, a pot needs the
tracker to give the ball up (``TrackerConfig.pot_confirm_s`` after it was last seen going in; events after
that sighting wait for it). A short reorder buffer (`reorder`) keeps the stream in time order.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

import numpy as np

from arbiter import contract as c
from arbiter.games import BilliardsSpec
from arbiter.tables import TableModel

from .address_steps import Step, places_about
from .ball_path import DEPARTURE_FIT_SAMPLES, BallPath, paths_bound, touching, unread_since
from .camera_moves import creeping, picture_jump
from .cue_ball import ALONE_S, swap_struck_cue_ball
from .cushion_sides import (
    SideConfig,
    after_intercept,
    approach_holds,
    jaw_side,
    kink_at,
    kink_side,
    lasting_change,
    speed_into,
    split_turns,
    struck_into_cushion,
    velocity_before,
)
from .cushion_touches import TouchConfig
from .event_config import EventConfig
from .held_pots import HeldPots, drop_delay, unique_looks
from .near_misses import EARLY_DEPARTURE_S, changed_by
from .paths import first_reach, position_at, sighting_times, struck_unseen
from .reorder import Reorder, SeenEvent
from .track import Track, TrackView
from .tracker import NEW_BALL_MAX_SPEED_MM_S
from .unfolding import departure_cushions, gap_cushions
from .unseen_contacts import first_touch, struck_by_unseen, struck_lost_from, unseen_since

NO_PATH = BallPath()  # the path of a ball not seen yet (never changed)
# A ball left rest: when, which, from where, how far it is now, its velocity as it left.
_Departure = tuple[float, str, np.ndarray, np.ndarray, np.ndarray]
# Both balls of a contact kink; the second kink within this time of the first is the same contact.
DUPLICATE_CONTACT_S = 0.05
# A ball unseen this long is hidden (a score bar, an arm) or lost: its last samples are read on what there is.
HIDDEN_S = 0.1
# A ball unseen from its last sighting at rest to its first moving one (lost in its blur, first seen after a
# cushion) left in that gap: a mover there up to this long before its departure as read may have struck it.
UNSEEN_DEPARTURE_S = 0.2
# A ball at rest given up as struck is awaited this long to be seen again, then left where a ball touched it.
STRUCK_UNSEEN_S = 1.0
# A ball first seen already moving was struck at most this long before (``EventDetector._found_moving``).
FOUND_MOVING_WITHIN_S = 0.3


class EventDetector:
    """Online: ``update`` after each tracker update; at the end, ``finish`` when the source ended and
    ``interrupt`` when it was cut short (a stop, a lost camera): that leaves a shot in play open for the run
    that resumes.

    ``shot_open``: that resumed run, on a live source that cannot be replayed: the shot in play when it was
    interrupted goes on, and ends (with the positions seen then) once every ball is seen at rest."""

    def __init__(
        self,
        spec: BilliardsSpec,
        config: EventConfig | None = None,
        shot_open: bool = False,
        sides: SideConfig | None = None,
        touches: TouchConfig | None = None,
    ) -> None:
        self.table: TableModel = spec.table
        self.cue_balls = spec.cue_balls  # the balls a player may strike (five-pins: both players' balls)
        self.looks = spec.looks
        self.config: EventConfig = config or EventConfig()
        self.sides: SideConfig = sides or SideConfig(tol_mm=self.config.cushion_tol_mm)
        self.touches: TouchConfig = touches or TouchConfig()
        self.r = self.table.ball_radius_mm
        self._paths: dict[str, BallPath] = {}
        self._events = Reorder()
        self._pots = HeldPots(unique_looks(spec.looks))  # pots that wait a moment for the ball
        self._in_shot = shot_open
        self._last_motion_t = -math.inf
        self._recent_pairs: deque[tuple[float, frozenset[str]]] = deque(maxlen=64)
        # Every cushion contact reported: time, ball, side, where the ball was (when known).
        self._recent_cushions: deque[tuple[float, str, str, np.ndarray | None]] = deque(maxlen=64)
        self._gone_seen: set[int] = set()
        self._departures: list[_Departure] = []
        self.picture_jumps = 0  # how many jumps of the picture were seen (``camera_moves``): the camera moved
        # Pairs of balls the tracker named the wrong way round, found since ``take_swaps`` was last called.
        self._swaps: list[tuple[str, str]] = []

    # -- public ---------------------------------------------------------------------------------------------
    def update(
        self,
        t: float,
        views: list[TrackView],
        gone: Sequence[Track],
        found: Iterable[c.PinDown] = (),
        pending_from: float = math.inf,
    ) -> list[SeenEvent]:
        """Feed one frame's tracks; returns the events that became certain, in time order. ``found`` are
        timed events seen by other watchers this frame (pins down), merged into the same time order;
        ``pending_from`` is the earliest time those watchers may still report one at (nothing later is
        released before it)."""
        for event in found:
            self._events.push(event.t, event)
        if self._last_motion_t == -math.inf:
            self._last_motion_t = t  # nothing was seen moving before the first frame: rest counts from it
        for v in views:
            if v.was in self._paths and v.ball not in self._paths:  # renamed by the tracker: the path is its
                self._paths[v.ball] = replace(self._paths.pop(v.was), first_read=False)
            if v.measured:
                path = self._paths.setdefault(v.ball, BallPath())
                path.samples.append((t, *v.xy_mm))
                path.touch.saw(path.samples, self.table, self.touches, moving=path.rest is None)
            elif v.lost and v.ball in self._paths:
                self._paths[v.ball].lost_at_rest()
        for ball, path in self._paths.items():
            self._scan(ball, path)
            if path.first_due(t, self.config.window):
                self._found_moving(ball, path)
            self._left_unseen(ball, path, t)
            self._read_sides(ball, path)
            self._read_touches(ball, path, t)
        self._resolve_departures()
        for tr in gone:
            if id(tr) not in self._gone_seen:
                self._gone_seen.add(id(tr))
                self._vanished(tr, t)
        self._settle(t, views)
        unread = unread_since(self._paths.values()) - FOUND_MOVING_WITHIN_S  # a strike may come before them
        self._pots.release_into(self._events, self._paths, self.table, now=t)
        bound = paths_bound(self._paths.values(), t, self.sides, self.config)
        held = min(self._pots.bound(views, self._paths), bound, unread)
        held = min(held, pending_from, struck_lost_from(self._paths.values(), t, 2 * STRUCK_UNSEEN_S))
        return self._events.release(min(t - self.config.hold_s, held))

    def finish(self, t: float, views: list[TrackView]) -> list[SeenEvent]:
        """End of source: flush what is pending, and end a shot still open with the balls where they are."""
        self._read_last_touches(t)
        if self._in_shot:
            self._end_shot(max(self._last_motion_t, self._events.emitted_t), views)
        self._pots.release_into(self._events, self._paths, self.table)
        return self._events.release(math.inf)

    def interrupt(self) -> list[SeenEvent]:
        """The source was cut short: flush what is pending, but leave a shot in play open. Ending it here
        would have the rules judge half a shot; the run that resumes completes it (``shot_open``)."""
        self._read_last_touches(self._events.emitted_t)
        self._pots.release_into(self._events, self._paths, self.table)
        return self._events.release(math.inf)

    def carry(self, moved: Callable[[np.ndarray], np.ndarray]) -> None:
        """The camera moved and its calibration was followed: each ball's samples still to be read carried
        to where the moved calibration puts them (``BallPath.carry``), so that no ball seems to leave rest."""
        for path in self._paths.values():
            path.carry(moved, 2 * self.config.window + 1)

    def take_swaps(self) -> list[tuple[str, str]]:
        """The ball ids found swapped since the last call (``_struck_as_cue_ball``): the events already use
        them so; the tracker is to swap them too."""
        swaps, self._swaps = self._swaps, []
        return swaps

    @property
    def in_shot(self) -> bool:
        """Whether a shot is in play: started and not yet ended."""
        return self._in_shot

    # -- kinks ----------------------------------------------------------------------------------------------
    def _scan(self, ball: str, path: BallPath, last: bool = False) -> None:
        """Look for departures from rest and for kinks of a moving ball, ``window`` + 1 frames behind;
        ``last``: the ball is gone (potted, off the table), and its last kinks are read ``window`` frames
        behind its last sample (the jaw it struck on its way in)."""
        cfg = self.config
        w = cfg.window
        s = path.samples
        while path.checked + w + (0 if last else 1) < len(s):
            k = path.checked
            path.checked += 1
            if path.rest is None:
                path.maybe_rest(k, w, cfg.rest_mm_s)
                if path.rest is None and k >= w + 1 and s[k][0] >= path.quiet_until:
                    self._maybe_kink(ball, path, k)
                continue
            # At rest: has it left its spot, for good?
            left = math.dist(s[k][1:], path.rest) > cfg.departure_mm
            far = left and math.dist(s[k + w][1:], path.rest) > cfg.min_move_mm
            if far and not creeping(s, k, w, path.rest):
                others = places_about((p.samples for b, p in self._paths.items() if b != ball), s[k][0])
                step, j = path.read_step(k, w, others, self.r, cfg.departure_mm)
                if step is Step.WAIT:
                    break
                if step is not Step.BACK:
                    self._departure(ball, path, j)
            else:
                path.still_at(k)

    def _found_moving(self, ball: str, path: BallPath) -> None:
        """A ball first seen moving as fast as a struck ball (``NEW_BALL_MAX_SPEED_MM_S``: a far ball 5 px
        across never found at rest): a cue ball starts the shot where it was first seen; another was struck
        by the ball whose path crossed its line behind it (``paths.struck_unseen``)."""
        line = path.first_seen_struck(self.config.window, NEW_BALL_MAX_SPEED_MM_S)
        if line is None or line[2] < self._events.emitted_t:
            return
        if ball in self.cue_balls:
            if not self._in_shot and line[2] >= self._events.latest():
                self._in_shot = True
                self._events.push(line[2], c.ShotStart(t=round(line[2], 6), ball=ball))
            return
        strikers = {b: p.samples for b, p in self._paths.items() if b != ball}
        struck = struck_unseen(line, strikers, self.r, FOUND_MOVING_WITHIN_S)
        if struck is not None and struck[1] >= self._events.emitted_t:
            self._ball_contact(struck[0], ball, struck[1], priority=2)

    def _left_unseen(self, ball: str, path: BallPath, now: float) -> None:
        """A ball at rest that left its spot and was unseen within ``window`` samples (struck into the shade
        of a score bar or an arm, or lost in its blur) is decided on what there is, once unseen for
        ``HIDDEN_S``: it left if its last sighting is ``min_move_mm`` from its spot and a moving ball was
        touching it then (a ball partly hidden by an arm at rest shifts its centre too, with nothing
        touching it). Else its samples wait, read as usual if it is seen again; one the tracker gave up as
        struck is decided once unseen for ``STRUCK_UNSEEN_S`` (``_struck_and_lost``)."""
        s, cfg = path.samples, self.config
        if path.rest is None or path.checked >= len(s) or now - s[-1][0] < HIDDEN_S:
            return
        k = next(
            (k for k in range(path.checked, len(s)) if math.dist(s[k][1:], path.rest) > cfg.departure_mm),
            None,
        )
        if path.struck_lost == s[-1][0] and now - s[-1][0] > STRUCK_UNSEEN_S:
            self._struck_and_lost(ball, path, k)
        if k is None or path.rest is None or math.dist(s[-1][1:], path.rest) <= cfg.min_move_mm:
            return
        movers = {b for b in self._paths if b != ball and self._moving_at(b, s[k][0])}
        if self._struck_by(ball, s[k][0], np.array(path.rest), movers)[0] is not None:
            path.checked = len(s)
            self._departure(ball, path, k)

    def _struck_and_lost(self, ball: str, path: BallPath, k: int | None) -> None:
        """A ball at rest the tracker gave up as struck and unseen since (sample ``k`` its first off its
        spot, if any): it left when a moving ball first came to touch it (``unseen_contacts.first_touch``),
        struck by it. Its detections taken by another track of its look, or lost in its blur."""
        s, cfg, rest = path.samples, self.config, np.array(path.rest)
        last = s[-1 if k is None else k - 1][0]
        span = (last - EARLY_DEPARTURE_S, last + HIDDEN_S)
        hit = first_touch(self._paths, ball, rest, span, self.r, cfg.ball_tol_mm, cfg.moving_mm_s)
        if hit is None:
            path.struck_lost = -math.inf  # read: left as it is until it is seen at rest again
            return
        if k is None:
            path.left_unseen(last)
        else:
            path.checked = len(s)
            path.leave_rest(k, self.r, cfg.window)
        self._ball_contact(hit[0], ball, hit[1], priority=2)

    def _departure(self, ball: str, path: BallPath, k: int) -> None:
        """The ball left rest between samples k-1 and k: find when, from its first moving samples. What set
        it moving is decided in ``_resolve_departures``, with every ball that left rest in the same frame."""
        rest = np.array(path.rest)
        t0, v1 = path.leave_rest(k, self.r, self.config.window)
        self._departures.append((t0, ball, rest, np.array(path.samples[-1][1:]) - rest, v1))

    def _resolve_departures(self) -> None:
        """Explain the balls that left rest together: in a break a whole rack does in one frame, and each was
        set moving by a ball already moving (the cue ball, then the balls it drove). Breadth first from the
        balls known to be moving, nearest contact first; what no mover explains starts the shot."""
        pending = sorted(self._departures, key=lambda d: d[0])
        self._departures = []
        movers = {b for b in self._paths if self._moving_at(b, pending[0][0])} if pending else set()
        if pending:
            pending = self._unless_picture_jump(pending, movers)
        while pending:
            best = None
            for i, (t0, ball, rest, _, _) in enumerate(pending):
                mover, err, tc = self._struck_by(ball, t0, rest, movers)
                if mover is not None and (best is None or err < best[2]):
                    best = (i, mover, err, tc)
            if best is not None:
                t0, ball, rest, _, _ = pending.pop(best[0])
                self._ball_contact(best[1], ball, best[3], priority=2)
                self._pushed_into_cushion(ball, best[1], t0, rest, best[3])
                movers.add(ball)
                continue
            t0, ball, rest, _, v1 = pending.pop(0)
            movers.add(ball)
            other, _ = self._touching(ball, t0, rest)
            by = None if other or ball in self.cue_balls else self._struck_by_unseen(ball, t0, rest)
            if by is not None:  # a ball lost in its blur, seen touching its spot just after
                self._ball_contact(by[0], ball, by[1], priority=2)
                continue
            if not self._in_shot:
                if ball in self.cue_balls:
                    self._in_shot = True
                    self._events.push(t0, c.ShotStart(t=round(t0, 6), ball=ball))
                elif other in self.cue_balls and self._paths[other].rest is None:
                    # Frozen against the cue ball: both leave rest in the same frame; the cue struck first.
                    self._in_shot = True
                    self._events.start_for(t0, other)
                    self._ball_contact(other, ball, t0, priority=2)
                    movers.add(other)
                elif cue := self._struck_as_cue_ball(ball, t0, float(np.hypot(*v1)), movers, pending):
                    movers.discard(ball)
                    movers.add(cue)
                    self._in_shot = True
                    self._events.push(t0, c.ShotStart(t=round(t0, 6), ball=cue))
                # Else an object ball "moving" while the cue ball rests is a hand or a misread, not a shot.
                # (A cue striking an object ball, a foul, shows here only once the cue ball moves too.)
            elif other is not None:
                self._ball_contact(other, ball, t0, priority=2)

    def _struck_as_cue_ball(
        self, ball: str, t0: float, speed: float, movers: set[str], pending: list[_Departure]
    ) -> str | None:
        """The cue ball's id where ``ball``, leaving rest at ``t0`` and ``speed`` mm/s before any shot with
        nothing touching it and no other ball leaving with it (``movers``, ``pending``: a rack pushed by
        hand), is the cue ball named as a stripe (``cue_ball``); the names swapped in the paths, and for
        the tracker (``take_swaps``)."""
        alone = movers <= {ball} and all(abs(d[0] - t0) > ALONE_S for d in pending)
        cue = swap_struck_cue_ball(self._paths, self.looks, self.cue_balls, ball, speed, alone)
        if cue is not None:
            self._swaps.append((ball, cue))
        return cue

    def _struck_by(
        self, ball: str, t0: float, rest: np.ndarray, movers: set[str]
    ) -> tuple[str | None, float, float]:
        """The moving ball touching ``ball``'s resting place ``rest`` when it left at ``t0`` (``_touching``);
        else at a mover's sighting while ``ball`` was unseen before it was seen moving (lost in its blur,
        ``BallPath.left_rest_within``) or up to ``EARLY_DEPARTURE_S`` later (its detection pulled towards the
        striker's image), timed when that mover came two radii from ``rest``; with the error, or None."""
        mover, err = self._touching(ball, t0, rest, among=movers)
        if mover is not None:
            return mover, err, t0
        since, end = self._paths[ball].left_rest_within(t0, UNSEEN_DEPARTURE_S, EARLY_DEPARTURE_S)
        seen = sighting_times([self._paths[b].samples for b in movers], since, end, but=t0)
        mover, err, t = next(
            ((m, e, t) for t in seen for m, e in [self._touching(ball, t, rest, movers)] if m),
            (None, math.inf, t0),
        )
        xy, start = (float(rest[0]), float(rest[1])), since if t < t0 else t0
        when = None if mover is None else first_reach(self._paths[mover].samples, xy, 2 * self.r, start, end)
        return mover, err, t if when is None else when

    def _struck_by_unseen(self, ball: str, t0: float, rest: np.ndarray) -> tuple[str, float] | None:
        """``unseen_contacts.struck_by_unseen`` among this detector's balls."""
        cfg = self.config
        return struck_by_unseen(self._paths, ball, t0, rest, self.r, cfg.ball_tol_mm, cfg.moving_mm_s)

    def _unless_picture_jump(self, pending: list[_Departure], movers: set[str]) -> list[_Departure]:
        """The departures less those that are one jump of the picture (``camera_moves.picture_jump``)
        among those no moving ball touched: those balls rest where they are now seen."""
        resting = len(pending) + sum(p.rest is not None for p in self._paths.values())
        alone = [
            (ball, rest, shift)
            for t0, ball, rest, shift, _ in pending
            if self._touching(ball, t0, rest, movers)[0] is None
        ]
        jumped = picture_jump(alone, resting)
        self.picture_jumps += bool(jumped)
        for ball in jumped:
            path = self._paths[ball]
            path.rest, path.rest_n, path.left_bent = (path.samples[-1][1], path.samples[-1][2]), 1, False
        return [d for d in pending if d[1] not in jumped]

    def _maybe_kink(self, ball: str, path: BallPath, k: int) -> None:
        """A contact of a moving ball: the velocity change peaks at sample k."""
        cfg = self.config
        s = path.samples
        strength = [kink_at(s, j, self.config.window) for j in (k - 1, k, k + 1)]
        dv_k, a0, v0, v1 = strength[1]
        if dv_k < cfg.kink_mm_s or dv_k < strength[0][0] or dv_k <= strength[2][0]:
            return
        if float(np.hypot(*v0)) < cfg.moving_mm_s:
            return  # it was not moving: departures are handled apart
        dv = v1 - v0
        tk = s[k][0]
        # Where the line before meets the line after (fitted without sample k): a0 + v0 tau = a1 + v1 tau.
        a1 = after_intercept(s, k, self.config.window)
        tau = float(-np.dot(a0 - a1, dv) / np.dot(dv, dv))
        tau = max(s[k - 1][0] - tk, min(s[k + 1][0] - tk, tau))
        tc = tk + tau
        p = a0 + v0 * tau
        path.quiet_until = s[min(k + cfg.window, len(s) - 1)][0]
        other, ball_err = self._touching(ball, tc, p)
        if other is not None and not changed_by(self._paths, other, ball, tc, dv_k, self.table, cfg):
            other = None  # passing close by: a contact changes both balls' motion
        cushion, cushion_err = kink_side(self.table, p, v0, v1, self.config.cushion_tol_mm)
        if cushion is not None and not self._approached(path, k, cushion, v0):
            cushion = None
        # ``_touching`` found the other ball by its place at ``tc``, so it has one.
        other_p = position_at(self._paths[other].samples, tc) if other is not None else None
        if other is not None and other_p is not None and (cushion is None or ball_err <= cushion_err):
            vo = velocity_before(self._paths[other].samples, tc, self.config.window)
            towards = other_p - p
            # A ball at rest strikes nothing: the moving one struck it, whatever its kink's timing says.
            resting = float(np.hypot(*vo)) < cfg.moving_mm_s
            mover_first = resting or float(np.dot(v0, towards)) >= float(np.dot(vo, -towards))
            self._ball_contact(ball if mover_first else other, other if mover_first else ball, tc, priority=1)
        elif cushion is not None:
            self._cushion_contact(ball, cushion, tc)
        elif other is None and (jaw := jaw_side(self.table, p, v0, v1)) and self._jaw_holds(path, k, jaw, v0):
            self._cushion_contact(ball, jaw, tc)

    def _jaw_holds(self, path: BallPath, k: int, side: str, v0: np.ndarray) -> bool:
        """Whether a kink at sample ``k`` read as ``side``'s jaw (``cushion_sides.jaw_side``) is one: its
        approach holds (``_approached``), and so does its change over ``approach_s`` either side
        (``cushion_sides.lasting_change``): a slow ball's centre wobbles as much, never for longer."""
        change = lasting_change(path.samples, k, path.moving_from, self.sides.approach_s)
        return change is not None and change >= self.config.kink_mm_s and self._approached(path, k, side, v0)

    def _pushed_into_cushion(self, ball: str, mover: str, t0: float, rest: np.ndarray, tc: float) -> None:
        """A cushion contact too where a ball struck from rest (``rest``) at ``t0`` was driven into a cushion
        and thrown back out before it was seen moving (``cushion_sides.struck_into_cushion``); else the
        cushions it met unseen after the contact at ``tc`` (``unfolding.departure_cushions``)."""
        q = position_at(self._paths[mover].samples, t0)
        if q is None:
            return
        s, k = self._paths[ball].samples, self._paths[ball].moving_from
        if k >= len(s):
            return  # never seen moving
        first, leave = s[k : k + DEPARTURE_FIT_SAMPLES + 1], self.sides.leave_mm_s
        tol, least = self.config.cushion_tol_mm, self.config.kink_mm_s
        hit = struck_into_cushion(self.table, rest, rest - q, t0, s[k - 1][0], first, tol, least, leave)
        if hit is not None:
            self._cushion_contact(ball, *hit)
            return
        striker, span, cfg = self._paths[mover].samples, self.sides.span, self.config
        for side, t in departure_cushions(s, k, rest, striker, tc, self.table, span, cfg.window, cfg.unfold):
            self._cushion_contact(ball, side, t, inferred=True)

    # -- cushions side by side ------------------------------------------------------------------------------
    def _read_sides(self, ball: str, path: BallPath, last: bool = False) -> None:
        """Cushion turns of the splits that have ``span + 1`` samples after them (``cushion_sides``): the
        corner's second cushion, a contact the kink did not place, one across a gap in the detections.
        ``last``: the ball is gone (potted, off the table): its last splits are read on two samples a side,
        for the jaw it struck on its way in."""
        s = path.samples
        sides, unfold = replace(self.sides, span=2) if last else self.sides, self.config.unfold
        while path.sides_checked + sides.span < len(s) - (0 if last else 1):
            i = path.sides_checked
            path.sides_checked += 1
            # Of its samples at rest only the last is fitted (a ball struck into a cushion beside it turns
            # before its second sample in motion); a ball struck away from a cushion jumps: no approach.
            turns = split_turns(s, i, self.table, sides, max(path.moving_from - 1, 0), path.turns)
            for turn in turns:
                self._cushion_contact(ball, turn.side, turn.t, turn.inferred)
            if not turns:  # cushions met in a gap the lines either side turned at none of: the table unfolded
                for side, tc in gap_cushions(s, i, self.table, sides.span, path.moving_from, unfold):
                    self._cushion_contact(ball, side, tc, inferred=True)

    def _cushion_contact(self, ball: str, side: str, tc: float, inferred: bool = False) -> None:
        """Report a cushion contact once: the kink and the side reading both see most of them, and two
        tracks on one ball (a misread that became a track for a while) see it twice, at one place."""
        path = self._paths.get(ball)
        xy = position_at(path.samples, tc) if path is not None else None
        for t_prev, prev_ball, prev_side, prev_xy in self._recent_cushions:
            if prev_side != side or abs(t_prev - tc) >= DUPLICATE_CONTACT_S:
                continue
            one_place = xy is not None and prev_xy is not None and math.dist(xy, prev_xy) < 2 * self.r
            if prev_ball == ball or one_place:
                return
        self._recent_cushions.append((tc, ball, side, xy))
        if path is not None:
            path.contacts.append(tc)
        self._events.push(tc, c.Cushion(t=round(tc, 6), ball=ball, side=side, inferred=inferred))

    # -- gentle touches ------------------------------------------------------------------------------------
    def _read_touches(self, ball: str, path: BallPath, now: float, last: bool = False) -> None:
        """Gentle touches (``cushion_touches``) decided now, after the side reading's ``span`` + 1 samples."""
        wait = self.sides.span + 1
        for touch in path.touch.read(path.samples, self.table, self.touches, path.contacts, now, wait, last):
            self._cushion_contact(ball, touch.side, touch.t)

    def _read_last_touches(self, now: float) -> None:
        for ball, path in self._paths.items():
            self._read_touches(ball, path, now, last=True)

    def _moving_at(self, ball: str, t: float) -> bool:
        """Whether ``ball`` was moving just before ``t``: not at rest, and fast enough to be seen moving."""
        path = self._paths[ball]
        if path.rest is not None and (not path.samples or path.samples[-1][0] >= t):
            return False
        return (
            float(np.hypot(*velocity_before(path.samples, t, self.config.window))) >= self.config.moving_mm_s
        )

    def _approached(self, path: BallPath, k: int, side: str, v0: np.ndarray) -> bool:
        """Whether the approach into ``side`` of a kink at sample ``k`` (``v0``) holds over the time before
        too (``cushion_sides.approach_holds``), since the ball left rest or last had a contact."""
        s = path.samples
        last = max((tc for tc in path.contacts if tc < s[k][0]), default=-math.inf)
        since, earliest = k - 1, s[k - 1][0] - self.sides.approach_s
        while since > path.moving_from and s[since - 1][0] > last and s[since - 1][0] >= earliest:
            since -= 1
        return approach_holds(s, k - 1, since, side, speed_into(side, v0), self.sides)

    def _touching(
        self, ball: str, t: float, p: np.ndarray, among: set[str] | None = None
    ) -> tuple[str | None, float]:
        """``ball_path.touching`` among this detector's balls."""
        cfg = self.config
        return touching(self._paths, ball, t, p, self.r, cfg.ball_tol_mm, cfg.window, among)

    def _ball_contact(self, first: str, second: str, tc: float, priority: int) -> None:
        """Report a contact once: both balls kink; the timing of a ball leaving rest is the better one. Before
        a shot, only one of the cue ball's (its strike missed): two object balls "touching" while nothing was
        struck are a hand or an arm over the table read as balls."""
        if not self._in_shot and first not in self.cue_balls and second not in self.cue_balls:
            return
        pair = frozenset((first, second))
        contact = c.BallBall(t=round(tc, 6), balls=(first, second))
        if self._events.same_contact(tc, contact, priority, DUPLICATE_CONTACT_S):
            return
        for t_prev, prev in self._recent_pairs:
            if prev == pair and abs(t_prev - tc) < DUPLICATE_CONTACT_S:
                return  # already released
        self._recent_pairs.append((tc, pair))
        for b in pair:
            if b in self._paths:
                self._paths[b].contacts.append(tc)
        if not self._in_shot:
            # A contact with nothing moving before it: the strike itself was missed; start the shot here.
            self._in_shot = True
            cue = first if first in self.cue_balls else second  # its strike unseen: from its last sighting
            since = unseen_since(self._paths.get(cue, NO_PATH).samples, tc, self.config.moving_mm_s)
            self._events.start_for(since, cue)
        self._events.push(tc, contact, priority)

    # -- pots, rest -----------------------------------------------------------------------------------------
    def _vanished(self, tr: Track, t_now: float) -> None:
        measured = [h for h in tr.history if h[3]]
        if not measured:
            return
        t_last, x, y, _ = measured[-1]
        if tr.gone_near is not None:
            t = t_last + drop_delay(tr, measured, self._paths.get(tr.ball), self.table, self.r, self.config)
            pot = c.Pot(t=round(t, 6), ball=tr.ball, pocket=tr.gone_near, unsure=tr.pot_unsure)
            self._pots.hold(pot, self._events)
        elif not self.table.on_table((x, y), margin_mm=-self.r):
            self._events.push(t_last, c.OffTable(t=round(t_last, 6), ball=tr.ball))
        if (path := self._paths.pop(tr.ball, None)) is not None:
            self._read_touches(tr.ball, path, t_now, last=True)
        if path is not None and t_now - t_last <= self.sides.max_gap_s:
            # Given up within the time ``_paths_bound`` holds the stream back for it: in time order still.
            self._scan(tr.ball, path, last=True)
            self._read_sides(tr.ball, path, last=True)

    def _settle(self, t: float, views: list[TrackView]) -> None:
        cfg = self.config
        # A ball lost while moving may still be rolling: the shot is not over until it is seen again at rest
        # (or has been missing for ``lost_wait_s``).
        paths = [(v, self._paths.get(v.ball, NO_PATH)) for v in views]
        lost = any((v.lost and t - p.last_seen_t < cfg.lost_wait_s) or v.pot_pending for v, p in paths)
        moving = lost or any(p.recent_speed(t, cfg.window) >= cfg.rest_mm_s for _, p in paths)
        if moving:
            self._last_motion_t = t
        elif self._in_shot and t - self._last_motion_t >= cfg.settle_s and not self._events.latest() > t:
            self._end_shot(self._last_motion_t, views)

    def _end_shot(self, t_end: float, views: list[TrackView]) -> None:
        self._pots.release_into(self._events, self._paths, self.table)
        self._in_shot = False
        positions = {v.ball: (round(v.xy_mm[0], 2), round(v.xy_mm[1], 2)) for v in views}
        t_end = max(t_end, self._events.emitted_t, self._events.latest())
        self._events.push(t_end, c.ShotEnd(t=round(t_end, 6), positions=positions))
