"""Following dice throws across video frames: per-frame readings in, ``roll`` events out.

``ThrowWatcher`` follows dice with stable ids (``d1``, ``d2``...), notices motion, waits until nothing has
moved for ``settle_s`` and then emits one ``Roll`` holding every die's face, with ``thrown`` the dice that
moved since the last roll. A die picked up and thrown again keeps its id in the roll (games check a hand by
its dice's ids). What it cannot call, it reports as a ``DiceIssue`` instead of guessing: a die that left the
table, one that vanished and was not thrown again, one resting cocked, one it cannot read with confidence.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

import cv2
import numpy as np

from arbiter.contract import Die, Roll
from vision.dice import DieReading

_UNKNOWN_PLACE = 1e6  # px: the distance to where a die was last seen when that is not known
READINGS_KEPT = 150  # per die: a face is voted on from at most this many recent readings (5 s at 30 fps)


class IssueKind(StrEnum):
    OFF_TABLE = "off_table"  # left the table area (or the picture) during a throw, or lies outside it
    COCKED = "cocked"  # resting with no face up (on an edge, against something)
    UNREADABLE = "unreadable"  # settled, but read with too little confidence or inconsistently
    LOST = "lost"  # vanished during a throw away from the table's edge (hidden, or a missed detection)


@dataclass(frozen=True)
class DiceIssue:
    """Something about a settled throw that the watcher reports instead of guessing; not a contract line:
    the pipeline writes these to ``issues.jsonl`` beside the events."""

    t: float
    kind: IssueKind
    die: str
    player: str
    xy_px: tuple[float, float]
    note: str
    frame: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {"type": "dice_issue", "t": round(self.t, 6), "kind": self.kind.value, "die": self.die}
        if self.frame is not None:
            out["frame"] = self.frame
        out.update(player=self.player, xy_px=[round(v, 1) for v in self.xy_px], note=self.note)
        return out


class _Gone(NamedTuple):
    """A die gone during the throw, to report when it settles unless it is accounted for."""

    kind: IssueKind
    die: str
    xy: tuple[float, float]
    note: str
    thrown_in: bool  # it arrived in this same throw (so no die arriving in it replaces it)
    first_xy: np.ndarray  # where it was first seen


@dataclass(frozen=True)
class WatchConfig:
    """What counts as motion, as settled, as the same die, as gone.

    Distances are in die sizes (a die's box side), so the same settings hold for any camera distance.

    - ``settle_s``: a throw is over when nothing has moved for this long. Shorter reports sooner; too short
      calls a die that is still rocking or spinning.
    - ``move_frac``: a die that shifts this far from where it rested has moved (was thrown). Lower catches
      nudges, higher ignores box jitter of a die at rest (about 0.03 here).
    - ``diff_level``: mean grey-level change (0..255) inside a die's box from one frame to the next that
      counts as activity when images are given (a die spinning on the spot, a hand): it delays settling but
      does not by itself make a die thrown. 0 turns it off; video noise is a few levels.
    - ``match_frac``: the furthest a moving die may jump between consecutive frames and stay the same die;
      ``speed_frac`` widens that by this many die sizes per second a die goes unseen (blurred while rolling).
      ``rest_match_frac``: the same for a die at rest (quiet for ``settle_s``): small, so that a die rolling
      past one that the reader missed for a frame is not taken for it. A resting die knocked further than
      this in one frame becomes a new die (and the old one gone): it is still counted as thrown.
    - ``confirm_frames``: sightings before a new die gets an id; one-frame false detections never do.
    - ``lost_s``: a die unseen this long is gone. During a throw that is reported (``off_table`` when last
      seen by the edge, else ``lost``); at rest it is a die picked up, and its id is free again.
    - ``missing_s``: a die that moved and vanished while no thrown die is in sight (picked up, or thrown
      where the reader does not see it) is reported ``lost`` once nothing has moved for this long: dice
      are held before a throw, so this is longer than ``settle_s``; a die thrown in before then cancels
      it. None: only when a throw settles.
    - ``edge_frac``: within this many die sizes of the picture's (or table area's) edge counts as "by the
      edge".
    - ``startup_s``: dice seen in the first moments of watching were lying there before any throw: they are
      on the table but not thrown until they move. Later arrivals were thrown in.
    - ``min_read_confidence``: a settled die whose readings average less than this is ``unreadable`` (the
      reader's confidence is its finder's score times its face's probability: the shipped model reads
      real dice at rest at about 0.3 to 0.7).
    - ``min_agreement``: the share of a settled die's readings that must agree on its face.
    - ``max_unsure_share``: a settled die more of whose readings than this the reader marked ``unsure`` is
      ``unreadable``: the players read it, the watcher does not guess.
    - ``max_aspect``: a settled box more elongated than this is reported ``cocked``: a die flat on the table
      looks about square from any angle it is read at; two dice merged into one box look like this too.
    - ``roll_with_issues``: False: a throw with an issue yields only the issues (the players re-throw, as the
      rules of most games ask for a cocked die or one off the table); True: the roll of the readable dice too.
    """

    settle_s: float = 0.7
    move_frac: float = 0.15
    diff_level: float = 12.0
    match_frac: float = 1.5
    rest_match_frac: float = 0.6
    speed_frac: float = 25.0
    confirm_frames: int = 2
    lost_s: float = 0.5
    missing_s: float | None = 4.0
    edge_frac: float = 0.6
    startup_s: float = 0.25
    min_read_confidence: float = 0.3
    min_agreement: float = 0.6
    max_unsure_share: float = 0.5
    max_aspect: float = 1.8
    roll_with_issues: bool = False

    def __post_init__(self) -> None:
        positive = ("settle_s", "move_frac", "match_frac", "rest_match_frac", "lost_s", "max_aspect")
        if self.missing_s is not None and self.missing_s < self.settle_s:
            raise ValueError(f"WatchConfig.missing_s must be at least settle_s (got {self.missing_s})")
        for name in positive:
            if not getattr(self, name) > 0:
                raise ValueError(f"WatchConfig.{name} must be > 0 (got {getattr(self, name)})")
        if self.confirm_frames < 1:
            raise ValueError(f"WatchConfig.confirm_frames must be at least 1 (got {self.confirm_frames})")
        for name in ("min_read_confidence", "min_agreement", "max_unsure_share"):
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError(f"WatchConfig.{name} must lie in [0, 1] (got {getattr(self, name)})")
        if self.diff_level < 0 or self.speed_frac < 0 or self.edge_frac < 0 or self.startup_s < 0:
            raise ValueError("WatchConfig.diff_level, speed_frac, edge_frac and startup_s must be >= 0")


@dataclass
class _Track:
    """One die followed across frames (internal: the watcher owns and mutates these)."""

    key: int
    centre: np.ndarray
    size: float
    box: tuple[float, float, float, float]
    born_t: float
    last_seen_t: float
    rest: np.ndarray  # where it lies: the mean of its positions since it last moved
    rest_n: int = 1  # positions in that mean
    first_centre: np.ndarray = field(default_factory=lambda: np.zeros(2))  # where it was first seen
    velocity: np.ndarray = field(default_factory=lambda: np.zeros(2))
    id: str | None = None  # given once confirmed
    hits: int = 1
    moved: bool = False  # since the last roll
    thrown_in: bool = False  # arrived during the throw now being watched
    continues: bool = False  # took up the path of a die that vanished (its track broken): no new die
    last_motion_t: float = -np.inf
    # t, value, confidence, aspect, unsure of the readings since it last moved (the latest ``READINGS_KEPT``)
    readings: deque[tuple[float, int | None, float, float, bool]] = field(
        default_factory=lambda: deque(maxlen=READINGS_KEPT)
    )


@dataclass(frozen=True)
class TrackedDie:
    """What the watcher knows about one die now (for overlays and logs)."""

    id: str
    box_px: tuple[float, float, float, float]
    value: int | None
    moving: bool


class ThrowWatcher:
    """Dice followed frame by frame; one ``Roll`` per settled throw (``update``).

    ``player_for`` is asked, when a throw settles, who threw it (the caller knows the turn order: the
    pipeline asks the rules engine). ``table_px`` is the table area as a polygon in pixels; without it the
    whole picture is table. ``frame_size`` (width, height) is needed to see a die leave by the picture's
    edge when no images are given to ``update``. Call ``update`` once per frame, even with no readings.
    """

    def __init__(
        self,
        player_for: Callable[[], str],
        config: WatchConfig | None = None,
        table_px: Sequence[tuple[float, float]] | None = None,
        frame_size: tuple[int, int] | None = None,
    ) -> None:
        self.config = config or WatchConfig()
        self.player_for = player_for
        self.table_px = None if table_px is None else np.asarray(table_px, dtype=np.float32).reshape(-1, 1, 2)
        if self.table_px is not None and len(self.table_px) < 3:
            raise ValueError("table_px must be a polygon of at least 3 points")
        self._tracks: list[_Track] = []
        self._next_key = 0
        self._first_t: float | None = None
        self._last_t: float | None = None
        self._last_activity_t = -np.inf
        self._gone: list[_Gone] = []  # dice gone in this throw
        self._hand: list[str] = []  # the ids of the last roll's dice (the hand the games know)
        self._left_at: dict[str, np.ndarray] = {}  # where each die that went out of sight was last seen
        self._prev_grey: np.ndarray | None = None
        self._size = frame_size  # image width, height: from the first image when not given
        self.rolls = 0

    # -- per frame ---------------------------------------------------------------------------------------

    def update(
        self,
        t: float,
        readings: Sequence[DieReading],
        image: np.ndarray | None = None,
        frame: int | None = None,
    ) -> list[Roll | DiceIssue]:
        """Take one frame's readings (and optionally the image, for motion by frame difference); return
        what the frame settled: nothing, or one throw's roll and/or issues."""
        if self._last_t is not None and t < self._last_t:
            raise ValueError(f"frame times must not go backwards ({t} after {self._last_t})")
        cfg = self.config
        if self._first_t is None:
            self._first_t = t
        self._last_t = t
        grey = None
        if image is not None:
            self._size = (image.shape[1], image.shape[0])
            if cfg.diff_level > 0:
                grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        matched = self._associate(t, readings)
        for track, reading in matched:
            self._observe(track, reading, t, grey)
        seen = {id(tr) for tr, _ in matched}
        taken = {id(r) for _, r in matched}
        for reading in readings:
            if id(reading) not in taken:
                self._birth(reading, t)
        self._forget(t, seen)
        self._prev_grey = grey
        return self._settle(t, frame)

    def dice(self) -> list[TrackedDie]:
        """The confirmed dice now, with their latest reading."""
        out = []
        for tr in self._tracks:
            if tr.id is None:
                continue
            value = tr.readings[-1][1] if tr.readings else None
            moving = self._last_t is not None and self._last_t - tr.last_motion_t < self.config.settle_s
            out.append(TrackedDie(tr.id, tr.box, value, moving))
        return sorted(out, key=lambda d: _id_number(d.id))

    # -- steps -------------------------------------------------------------------------------------------

    def _associate(self, t: float, readings: Sequence[DieReading]) -> list[tuple[_Track, DieReading]]:
        """Tracks and readings paired by least distance from where each track should be now, in die sizes,
        within a gate: tight round a die at rest (a die rolling past is not taken for it when it is missed for
        a frame), wide round a moving one and wider the longer it goes unseen."""
        if not self._tracks or not readings:
            return []
        from scipy.optimize import linear_sum_assignment

        cfg = self.config
        cost = np.full((len(self._tracks), len(readings)), np.inf)
        for i, tr in enumerate(self._tracks):
            unseen = t - tr.last_seen_t
            if tr.id is not None and t - tr.last_motion_t >= cfg.settle_s:  # at rest
                predicted, gate = tr.rest, cfg.rest_match_frac
            else:
                predicted = tr.centre + tr.velocity * min(unseen, cfg.lost_s)
                gate = cfg.match_frac + cfg.speed_frac * unseen
            for j, r in enumerate(readings):
                scale = max(tr.size, r.size_px, 1.0)
                d = float(np.hypot(*(np.asarray(r.centre_px) - predicted))) / scale
                if d <= gate:
                    cost[i, j] = d
        finite = np.isfinite(cost)
        if not finite.any():
            return []
        rows, cols = linear_sum_assignment(np.where(finite, cost, 1e9))
        return [(self._tracks[i], readings[j]) for i, j in zip(rows, cols, strict=True) if finite[i, j]]

    def _observe(self, tr: _Track, r: DieReading, t: float, grey: np.ndarray | None) -> None:
        cfg = self.config
        centre = np.asarray(r.centre_px, dtype=np.float64)
        elapsed = t - tr.last_seen_t
        if elapsed > 0:  # smoothed, and no faster than a die rolls: one wrong pairing cannot fling it away
            v = (centre - tr.centre) / elapsed
            top = cfg.speed_frac * max(tr.size, r.size_px)
            speed = float(np.hypot(*v))
            if speed > top:
                v *= top / speed
            tr.velocity = 0.5 * tr.velocity + 0.5 * v
        active = False
        if np.hypot(*(centre - tr.rest)) > cfg.move_frac * max(tr.size, r.size_px):
            active = True
            tr.rest, tr.rest_n = centre, 1
            if tr.id is not None:
                tr.moved = True
        else:  # still: the mean of its positions, so box jitter averages out instead of adding up
            tr.rest_n += 1
            tr.rest = tr.rest + (centre - tr.rest) / tr.rest_n
        if grey is not None and self._prev_grey is not None and self._box_changed(r.box_px, grey):
            active = True
        if active:
            tr.last_motion_t = t
            self._last_activity_t = t
            tr.readings.clear()  # readings before the die came to rest say nothing about where it lies
        tr.centre, tr.size, tr.box = centre, r.size_px, r.box_px
        tr.last_seen_t = t
        tr.hits += 1
        tr.readings.append((t, r.value, r.confidence, self._aspect(r), r.unsure))
        if tr.id is None and tr.hits >= cfg.confirm_frames:
            self._confirm(tr, t)

    def _aspect(self, r: DieReading) -> float:
        """The box's elongation, or NaN where the picture's edge cuts the box (and so its shape)."""
        if self._size is not None:
            w, h = self._size
            x0, y0, x1, y1 = r.box_px
            if x0 <= 1 or y0 <= 1 or x1 >= w - 1 or y1 >= h - 1:
                return float("nan")
        return r.aspect

    def _box_changed(self, box: tuple[float, float, float, float], grey: np.ndarray) -> bool:
        prev = self._prev_grey
        if prev is None or prev.shape != grey.shape:
            return False
        x0, y0, x1, y1 = (round(v) for v in box)
        a, b = grey[y0:y1, x0:x1], prev[y0:y1, x0:x1]
        if a.size == 0:
            return False
        return float(cv2.absdiff(a, b).mean()) > self.config.diff_level

    def _birth(self, r: DieReading, t: float) -> None:
        centre = np.asarray(r.centre_px, dtype=np.float64)
        tr = _Track(
            self._next_key, centre, r.size_px, r.box_px, t, t, centre.copy(), first_centre=centre.copy()
        )
        tr.readings.append((t, r.value, r.confidence, self._aspect(r), r.unsure))
        self._next_key += 1
        self._tracks.append(tr)
        if self.config.confirm_frames <= 1:
            self._confirm(tr, t)

    def _confirm(self, tr: _Track, t: float) -> None:
        """An id for ``tr``: the lowest free one that is no die of the hand's nor one reported gone (those
        come back only through ``_hand_over_ids``, to the die that is theirs)."""
        used = (
            {x.id for x in self._tracks if x.id is not None} | set(self._hand) | {g.die for g in self._gone}
        )
        n = 1
        while f"d{n}" in used:
            n += 1
        tr.id = f"d{n}"
        first = self._first_t if self._first_t is not None else t
        if tr.born_t - first > self.config.startup_s:
            tr.moved = tr.thrown_in = True  # confirmed after startup: it was thrown in
            tr.last_motion_t = t
            self._last_activity_t = t

    def _forget(self, t: float, seen: set[int]) -> None:
        """Drop dice unseen for ``lost_s``. One gone during a throw is remembered, unless it was at rest
        when last seen (picked up or covered where it lay), another die took up its path after it was last
        seen (the same die, its track broken by missed detections), or it was a second sighting of a rolling
        die (``_double``). What is left is accounted for when the throw settles (``_account_for_gone``)."""
        cfg = self.config
        keep, dropped = [], []
        for tr in self._tracks:
            if id(tr) in seen or t - tr.last_seen_t <= cfg.lost_s:
                keep.append(tr)
            elif tr.id is not None:  # never confirmed: a false detection, forgotten
                dropped.append(tr)
        self._tracks = keep
        for tr in dropped:
            self._left_at[str(tr.id)] = tr.centre.copy()
            resting = tr.last_seen_t - tr.last_motion_t >= cfg.settle_s  # picked up, or covered, where it lay
            if resting or not (tr.moved or self._throw_active()):
                continue
            follower = self._continued(tr)
            if follower is not None:
                follower.continues = True
                continue
            if self._double(tr, t):
                continue
            xy = (float(tr.centre[0]), float(tr.centre[1]))
            if self._by_edge(tr.centre, tr.size):
                kind, note = IssueKind.OFF_TABLE, "left the table during the throw"
            else:
                kind, note = IssueKind.LOST, "vanished during the throw"
            self._gone.append(_Gone(kind, str(tr.id), xy, note, tr.thrown_in, tr.first_centre.copy()))
            self._last_activity_t = max(self._last_activity_t, tr.last_seen_t)

    def _continued(self, gone: _Track) -> _Track | None:
        """The die born after ``gone`` was last seen that started where ``gone`` was heading, if any."""
        cfg = self.config
        for tr in self._tracks:
            gap = tr.born_t - gone.last_seen_t
            if gap < 0:
                continue
            predicted = gone.centre + gone.velocity * min(gap, cfg.lost_s)
            reach = (cfg.match_frac + cfg.speed_frac * gap) * max(gone.size, tr.size, 1.0)
            if min(np.hypot(*(tr.first_centre - p)) for p in (gone.centre, predicted)) <= reach:
                return tr
        return None

    def _double(self, gone: _Track, t: float) -> bool:
        """Whether ``gone`` was a second sighting of a die still followed (a rolling die, blurred, found
        twice): seen for less than ``settle_s``, away from the edge, while another die moved on from near
        where it was."""
        cfg = self.config
        if gone.last_seen_t - gone.born_t >= cfg.settle_s or self._by_edge(gone.centre, gone.size):
            return False
        for tr in self._tracks:
            if tr is gone or tr.id is None or t - tr.last_motion_t >= cfg.settle_s:
                continue
            reach = (cfg.match_frac + cfg.speed_frac * (t - gone.last_seen_t)) * max(gone.size, tr.size, 1.0)
            if np.hypot(*(tr.centre - gone.centre)) <= reach:
                return True
        return False

    def _throw_active(self) -> bool:
        return any(tr.moved for tr in self._tracks if tr.id is not None)

    def _by_edge(self, centre: np.ndarray, size: float) -> bool:
        margin = self.config.edge_frac * size
        if self.table_px is not None:
            return cv2.pointPolygonTest(self.table_px, (float(centre[0]), float(centre[1])), True) < margin
        if self._size is None:
            return False
        w, h = self._size
        x, y = centre
        return bool(x < margin or y < margin or x > w - margin or y > h - margin)

    def _off_table(self, centre: np.ndarray) -> bool:
        if self.table_px is None:
            return False
        return cv2.pointPolygonTest(self.table_px, (float(centre[0]), float(centre[1])), False) < 0

    # -- settling ----------------------------------------------------------------------------------------

    def _settle(self, t: float, frame: int | None) -> list[Roll | DiceIssue]:
        """The roll and issues of a throw that has just settled (or of dice out of sight too long)."""
        if not self._settled(t):
            return []
        player = self.player_for()
        threw = self._throw_active()
        self._account_for_gone()
        self._hand_over_ids()
        issues = [DiceIssue(t, g.kind, g.die, player, g.xy, g.note, frame) for g in self._gone]
        confirmed = sorted((x for x in self._tracks if x.id is not None), key=lambda x: _id_number(str(x.id)))
        dice, thrown = self._faces(confirmed, t, frame, player, issues) if threw else ([], [])
        for tr in self._tracks:
            tr.moved = tr.thrown_in = tr.continues = False
        self._gone = []
        out: list[Roll | DiceIssue] = []
        if dice and thrown and (self.config.roll_with_issues or not issues):
            self.rolls += 1
            out.append(Roll(t=t, frame=frame, player=player, dice=tuple(dice), thrown=tuple(thrown)))
        if out or (threw and not self._hand):  # a throw that gave only issues leaves the hand as it was
            self._hand = [str(tr.id) for tr in confirmed]
        return out + issues

    def _settled(self, t: float) -> bool:
        """Whether a throw (or dice gone with none thrown) is over: nothing moved for ``settle_s``, every
        die confirmed, every thrown die in sight."""
        off_table = any(g.kind is IssueKind.OFF_TABLE for g in self._gone)
        if not (self._throw_active() or off_table or self._missing_too_long(t)):
            return False
        if t - self._last_activity_t < self.config.settle_s:
            return False
        if any(tr.id is None for tr in self._tracks):
            return False  # a die still being confirmed
        return not any(t - tr.last_seen_t > 0 for tr in self._tracks if tr.moved)  # else perhaps rolling

    def _faces(
        self, confirmed: list[_Track], t: float, frame: int | None, player: str, issues: list[DiceIssue]
    ) -> tuple[list[Die], list[str]]:
        """Every die's face and the ids of those thrown; a die that cannot be called adds to ``issues``."""
        dice, thrown = [], []
        for tr in confirmed:
            die_id, xy = str(tr.id), (float(tr.centre[0]), float(tr.centre[1]))
            value, why, kind = self._verdict(tr)
            if self._off_table(tr.centre):
                kind, why, value = IssueKind.OFF_TABLE, "rests outside the table area", None
            if value is None:
                issues.append(DiceIssue(t, kind or IssueKind.UNREADABLE, die_id, player, xy, why, frame))
                tr.readings.clear()
                continue
            dice.append(Die(id=die_id, value=value))
            if tr.moved:
                thrown.append(die_id)
        return dice, thrown

    def _missing_too_long(self, t: float) -> bool:
        """Whether dice gone with no throw in sight have stayed out of sight for ``missing_s``."""
        wait = self.config.missing_s
        return bool(self._gone) and wait is not None and t - self._last_activity_t >= wait

    def _account_for_gone(self) -> None:
        """Dice gone in this throw that were picked up and thrown again are no issue. Each die thrown in and
        still here (not a broken track's continuation) accounts for one gone die that was there before the
        throw, whichever was seen first (a hand can bring the new dice in before the old ones are given up),
        those lost before those off the table. And while as many dice lie on the table as the last throw
        showed, none of the rest is lost: only as many as are missing stay lost."""
        arrivals = sum(tr.thrown_in and not tr.continues for tr in self._tracks if tr.id is not None)
        before = [g for g in self._gone if not g.thrown_in]
        replaceable = sorted(before, key=lambda g: g.kind is not IssueKind.LOST)
        for g in replaceable[:arrivals]:
            self._gone.remove(g)
        if not self._hand:
            return
        here = sum(tr.id is not None for tr in self._tracks)
        lost = [g for g in self._gone if g.kind is IssueKind.LOST]
        for g in lost[max(0, len(self._hand) - here) :]:
            self._gone.remove(g)

    def _hand_over_ids(self) -> None:
        """Dice seen in this throw under new ids take the ids of the hand's dice that are gone: a die picked
        up and thrown again is seen as a new die (its track ends where it was lifted), a rolling die the
        follower lost is seen again as a new die, and a new die can vanish in its turn (reported gone), but
        each is a die of the hand, and games check the hand by its dice's ids (a kept die keeps its own).
        Each gone id goes to the newcomer first seen nearest to where that die was last seen (the least
        total distance), which keeps a die missed where it lay apart from one slid across the table."""
        hand = set(self._hand)
        now = {tr.id for tr in self._tracks if tr.id is not None} | {g.die for g in self._gone}
        free = sorted(hand - now, key=_id_number)  # a die of the hand reported gone keeps its id
        tracks = [tr for tr in self._tracks if tr.moved and tr.id is not None and tr.id not in hand]
        gone = [g for g in self._gone if g.die not in hand]
        came = [(str(tr.id), tr.first_centre) for tr in tracks] + [(g.die, g.first_xy) for g in gone]
        came.sort(key=lambda c: _id_number(c[0]))
        if not free or not came:
            return
        from scipy.optimize import linear_sum_assignment

        def apart(r: int, i: int) -> float:  # a die last seen nobody knows where: after the others, in order
            at = self._left_at.get(free[i])
            return _UNKNOWN_PLACE + abs(r - i) if at is None else float(np.hypot(*(came[r][1] - at)))

        cost = np.array([[apart(r, i) for i in range(len(free))] for r in range(len(came))])
        given = {came[r][0]: free[c] for r, c in zip(*linear_sum_assignment(cost), strict=True)}
        for tr in tracks:
            tr.id = given.get(str(tr.id), tr.id)
        self._gone = [g._replace(die=given.get(g.die, g.die)) for g in self._gone]

    def _verdict(self, tr: _Track) -> tuple[int | None, str, IssueKind | None]:
        """The face of a settled die by confidence-weighted vote over its readings since it came to rest,
        or None with why and the kind of issue."""
        cfg = self.config
        if not tr.readings:
            return None, "no reading since it came to rest", IssueKind.UNREADABLE
        votes: dict[int | None, float] = {}
        for _, value, conf, _, _ in tr.readings:
            votes[value] = votes.get(value, 0.0) + conf
        total = sum(votes.values())
        value, weight = max(votes.items(), key=lambda kv: (kv[1], -(kv[0] or 0)))
        aspects = [a for _, _, _, a, _ in tr.readings if not np.isnan(a)]
        unsure = sum(u for *_, u in tr.readings) / len(tr.readings)
        aspect = float(np.median(aspects)) if aspects else 1.0
        confidence = total / len(tr.readings)
        if value is None:
            return None, "no face up: the network reads it as cocked", IssueKind.COCKED
        if aspect > cfg.max_aspect:
            return (
                None,
                f"its box is {aspect:.1f} times as long as wide: cocked or two dice",
                IssueKind.COCKED,
            )
        if confidence < cfg.min_read_confidence:
            return None, f"read {value} with confidence {confidence:.2f} only", IssueKind.UNREADABLE
        if unsure > cfg.max_unsure_share:
            return None, f"read {value}, but the reader is unsure of it ({unsure:.0%})", IssueKind.UNREADABLE
        if total > 0 and weight / total < cfg.min_agreement:
            shares = ", ".join(
                f"{v or 'cocked'}: {w / total:.0%}"
                for v, w in sorted(votes.items(), key=lambda kv: -kv[1])[:3]
            )
            return None, f"readings disagree ({shares})", IssueKind.UNREADABLE
        return value, "", None


def _id_number(die_id: str) -> int:
    return int(die_id[1:]) if die_id[1:].isdigit() else 0
