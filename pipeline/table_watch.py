"""The table of a run: found from the video itself (or taken from a profile or typed corners), and watched
for cuts to another camera.

``find_table`` tries frames spread over the first seconds of the video until a calibration is sure
(``vision.table_verdict``). None sure: the least doubted one (of those equally doubted, the one the frames
under the most lights agree on: a projector's changing light, ``pipeline.fixed_camera``) is used, never
silently: a notice says it is unsure, why, and what to do (type the corners with ``--corners``, or
``arbiter calibrate``). The size of the table is the one given (``--table``) or the one the calibration
chose; the profile records both it and the verdict.

``TableWatch`` runs beside the run's stages on every frame: a ``CutDetector`` in the table's region, and a
``StaticOverlay`` learning the graphics laid over a broadcast. A sudden change of the picture is a cut only
when the frame no longer fits the calibration: neither are the cushions where it puts them
(``check_calibration``) nor is the picture in register with the one the calibration was made on
(``vision.picture_print.same_camera``: its edges where they were, whatever the light; on real tables the
cushion check often finds no nose where the corners, at the bed's edge, put it), so a cue whipped away or a
player leaning in is none. On a cut the run pauses (no frame goes to the tracker, so no event is made across
the cut), and the watch tries to find the table again every ``refind_s``: the calibration it had, if the
frame still fits it (the main camera is back), else a new one that is sure or, unsure, puts the table where
the run had it (graphics masked); then the run resumes with fresh stages.

A camera that moves a little (a slow re-framing, a knock, a tripod settling) is no cut: every
``FOLLOW_EVERY_S`` the watch re-fits the camera to the cushion noses (``vision.camera_follow``), and where
the table has moved by ``FOLLOW_FROM`` of its length or more the run goes on with the calibration moved
with it (``followed``, and a ``moved`` notice); a sudden small move that the cut detector flags is followed
the same way rather than paused. A move the follower cannot follow (more than
``camera_follow.MOST_FOLLOWED``) is a cut once the frame no longer fits, though the cut detector saw none (a
dim real table knocked 3 % changes too few of its pixels); a new unsure table elsewhere then resumes the
run once the camera has settled there (``SETTLED_S``) and doubts nothing the run's calibration did not.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from arbiter.games import BilliardsSpec
from vision.broadcast import CutDetector, StaticOverlay
from vision.calibration import (
    CalibrationError,
    CameraMovedError,
    TableCalibration,
    calibrate_auto,
    calibrate_manual,
    check_calibration,
)
from vision.camera_follow import CameraFollower, corner_shift
from vision.picture_print import PicturePrint, picture_print, same_camera
from vision.types import Frame

from .fixed_camera import cloth_colour, length_px, lights_agreeing, same_table, same_view

XY = tuple[float, float]
CALIBRATION_SECONDS = 5.0  # how far into the video automatic calibration keeps looking for a sure frame
CALIBRATION_TRIES = 20  # frames tried, spread evenly over those seconds (each costs ~0.1-0.5 s)
REFIND_S = 0.25  # after a cut, video seconds between two tries to find the table again
# After a cut, a new unsure calibration elsewhere is taken once the picture has stayed still and every try
# has put the table there for this long (a camera knocked to a new place for good).
SETTLED_S = 1.0
# A camera that moves a little: looked at every FOLLOW_EVERY_S video seconds (a still camera: one look at
# the noses, ~15-40 ms: 0.1-0.3 ms a frame at 60 fps), every FOLLOW_MOVING_S while it moves (until
# MOVING_HOLD_S after it was last followed); followed once a corner has moved FOLLOW_FROM of the table's
# length (~1 px at 1280 px; a still camera's re-fits differ by under 0.02 %, a re-fit where balls lie on the
# cushions by up to 0.1 %). A move is said when it has grown to MOVE_SAID and when the camera is still again.
FOLLOW_EVERY_S = 2.0
# A view followed by the picture's shift (a broadcast's, fitted to its corners) is looked at this often: a
# look costs ~10 ms, and balls that jump with a tilted picture do not jump alike in millimetres, so a knock
# is not told by the balls there.
SHIFT_EVERY_S = 0.25
FOLLOW_MOVING_S = 0.2
MOVING_HOLD_S = 2.0
FOLLOW_FROM = 0.001
MOVE_SAID = 0.002  # a move is said once it has moved a corner this share of the table's length (~2 px)
OVERLAY_EVERY = 5  # frames between two lessons of the graphics mask (a graphic stays for seconds)
WATCH_PX = 480  # long side of the copy cuts and graphics are watched on (the overlay learns at 480 px)
TYPE_CORNERS = (
    "type the corners: arbiter run SOURCE --game GAME --corners 'bl=x,y;br=x,y;tl=x,y;tr=x,y' "
    "(or arbiter calibrate ... --points, then run with --calibration camera_profile.json)"
)


@dataclass(frozen=True)
class TableChoice:
    """What the run was told about the table: a saved profile, typed corner points (pixels, named as
    ``calibrate_manual`` takes them), a catalogue size (``table.sizes``); all None: found from the video."""

    profile: TableCalibration | None = None
    corners: Mapping[str, XY] | None = None
    size: str | None = None


@dataclass(frozen=True)
class Notice:
    """Something the run must say: an unsure calibration, a cut, the table found again, the camera moved
    a little and followed, pins it cannot watch, a photo with no table, a photo whose balls are too small
    to see."""

    t: float
    kind: str  # "calibration", "unsure", "cut", "resumed", "moved", "pins", "no_table", "too_small" (a photo)
    text: str

    def to_dict(self) -> dict[str, object]:
        return {"t": round(self.t, 3), "kind": self.kind, "text": self.text}


NOTICE_KINDS = ("calibration", "unsure", "cut", "resumed", "moved", "pins", "no_table", "too_small")


def read_notices(path: Path) -> list[Notice]:
    """The notices a run wrote (``notices.jsonl``), as far as they are written: a line being written this
    instant, or one this reader cannot use, is left out (the run's events never depend on them)."""
    if not path.is_file():
        return []
    notices = []
    for text in path.read_text(encoding="utf-8").splitlines():
        try:
            obj = json.loads(text)
            notice = Notice(float(obj["t"]), str(obj["kind"]), str(obj["text"]))
        except (ValueError, KeyError, TypeError):
            continue
        if notice.kind in NOTICE_KINDS:
            notices.append(notice)
    return notices


@dataclass(frozen=True)
class Found:
    """The table found: its calibration, the frame it was found on, and whether more frames than that one
    were read to find it (a file is then replayed from its start)."""

    calib: TableCalibration
    frame: Frame
    searched: bool
    graphics: StaticOverlay | None = None  # the graphics learnt while searching (``TableWatch`` goes on)
    # How many of how many photos of one camera calibrated put the table there (``fixed_camera.agreed_view``);
    # None: taken from one picture alone.
    agreed: tuple[int, int] | None = None


def find_table(frames: Iterator[Frame], spec: BilliardsSpec, choice: TableChoice, fps: float) -> Found:
    """The run's calibration: the profile given, the typed corners fitted on the first frame, or the first
    sure automatic calibration among frames spread over ``CALIBRATION_SECONDS`` (``_search``); when none
    is sure, the best unsure one (``notice`` says so). Raises CalibrationError when no frame shows a
    table."""
    first = next(frames, None)
    if first is None:
        raise CalibrationError("the source gave no frame")
    h, w = first.image.shape[:2]
    if choice.profile is not None:
        return Found(_checked_size(choice.profile, choice.size), first, False)
    table = spec.table.resized(choice.size) if choice.size else spec.table
    if choice.corners is not None:
        try:
            calib = calibrate_manual(choice.corners, table, (w, h), image=first.image)
        except (ValueError, KeyError) as exc:
            raise CalibrationError(f"the typed corners: {exc}") from exc
        return Found(calib, first, False)
    return _search(_chain([first], frames), spec, choice.size, fps)


def _search(frames: Iterator[Frame], spec: BilliardsSpec, size: str | None, fps: float) -> Found:
    """The first sure automatic calibration among frames spread over ``CALIBRATION_SECONDS``, else the
    best unsure one (``_best_unsure``). Every frame read also teaches a ``StaticOverlay`` the broadcast's
    graphics, and once it has learnt them (the picture changed under them: a cut in the first seconds)
    each try masks them, so a score bar over a cushion is not taken for it. A single view cannot teach it:
    a graphic that never sees the picture change under it is, to the eye of a still camera, part of the
    scene; the sides are then fitted robustly (``vision.table_lines``) and the verdict says when one runs
    along a graphic."""
    every = max(1, round(fps * CALIBRATION_SECONDS / CALIBRATION_TRIES))
    overlay = StaticOverlay()
    tried: list[_Tried] = []
    error: Exception | None = None
    first: Frame | None = None
    for k, frame in enumerate(frames):
        first = first or frame
        if k % OVERLAY_EVERY == 0 or k % every == 0:
            overlay.update(_shrunk(frame.image))
        if k % every:
            continue
        ignore = overlay.mask(frame.image.shape) if overlay.ready else None
        try:
            calib = calibrate_auto(frame.image, spec.table, size=size, ignore=ignore)
        except (CalibrationError, cv2.error) as exc:  # one frame that fails is no reason to stop trying
            error = exc
        else:
            if calib.sure:
                return Found(calib, frame, frame is not first, overlay)
            tried.append(_Tried(calib, frame, cloth_colour(frame.image, calib)))
        if k // every + 1 >= CALIBRATION_TRIES:
            break
    if not tried:
        raise CalibrationError(
            f"could not find the table in {CALIBRATION_TRIES} frames over the first "
            f"{CALIBRATION_SECONDS:.0f} s ({error}); {TYPE_CORNERS}"
        )
    best = _best_unsure(tried)
    return Found(best.calib, best.frame, True, overlay)


@dataclass(frozen=True)
class _Tried:
    """An unsure calibration of a frame the search tried, the frame (held until the search ends: at most
    CALIBRATION_TRIES of them, 124 MB at 1920x1080), and the light on the cloth where it puts the table
    (``fixed_camera.cloth_colour``)."""

    calib: TableCalibration
    frame: Frame
    light: np.ndarray


def _best_unsure(tried: list[_Tried]) -> _Tried:
    """Of the unsure calibrations of the frames tried, the least doubted; of those equally doubted, the one
    the frames under the most lights agree on (``fixed_camera.lights_agreeing``: a still camera under a
    projector's changing light, where one light leads its calibration astray with no more doubts than the
    others and a smaller residual), then the one whose table's size the most lights agree on too (one
    light's 7 ft table within 1 % of the corners of the others' 9 ft), then the smaller residual. Frames
    under one light are one look (on a broadcast most frames of a view can place an end alike and wrongly
    where the one that saw it right has the smaller residual), and agreement never outranks the doubts."""
    calibs, colours = [t.calib for t in tried], [t.light for t in tried]
    lights = lights_agreeing(calibs, colours)
    sized = lights_agreeing(calibs, colours, same_table)

    def rank(i: int) -> tuple[int, int, int, float]:
        return -len(calibs[i].verdict.doubts), lights[i], sized[i], -calibs[i].reprojection_error_px

    return tried[max(range(len(tried)), key=rank)]


def notice(found: Found, photo: str | None = None) -> Notice:
    """What the run says of its calibration: how it was made, the table, how many photos of its camera
    agree on it (``Found.agreed``), the verdict; an unsure one (``kind`` "unsure") is said loudly, with
    what to do. ``photo``: the file name of the photo it is first used on (``pipeline.photos``), named
    instead of the time, its annotated copy instead of the video."""
    calib = found.calib
    how = {"auto": "found automatically", "manual": "fitted to typed points"}[calib.method]
    where = f"{photo}: table {how}" if photo else f"table {how} at {found.frame.t:.2f} s"
    if found.agreed is not None:
        where += f", where {found.agreed[0]} of {found.agreed[1]} photos of its camera agree"
    text = f"{where}: {calib.table.name} ({calib.table.size or 'standard'}); "
    if calib.sure:
        return Notice(found.frame.t, "calibration", text + calib.verdict.message())
    why = "; ".join(r.detail for r in calib.verdict.doubts)
    drawn = f"annotated/{Path(photo).stem}.jpg" if photo else "annotated.mp4"
    searched = (
        f" (no frame of the first {CALIBRATION_SECONDS:.0f} s gave a sure one)" if found.searched else ""
    )
    return Notice(
        found.frame.t,
        "unsure",
        f"{text}the calibration is UNSURE{searched}: {why}. It is used, so balls and pockets may be placed "
        f"wrongly: check {drawn}, or {TYPE_CORNERS}",
    )


def _checked_size(calib: TableCalibration, size: str | None) -> TableCalibration:
    """A profile's calibration, refused when ``--table`` names another size than the one it records."""
    if size is not None and size != calib.table.size:
        raise CalibrationError(
            f"the camera profile was made for the {calib.table.size or 'standard'} table, not {size}: "
            "calibrate again with --table, or leave --table out"
        )
    return calib


@dataclass(frozen=True)
class _Settling:
    """A new unsure calibration found after a cut where the run had none (``TableWatch._settled``), the
    picture it was found in, and since when the tries have put the table there."""

    calib: TableCalibration
    picture: PicturePrint
    since: float


class TableWatch:
    """Cuts and graphics of one run. ``update(frame)`` before every frame is refereed: True while the run
    is paused (a cut was seen and the table is not found again yet); ``resumed`` then holds the
    calibration to go on with, once, when the table is found again."""

    def __init__(
        self,
        calib: TableCalibration,
        say: Callable[[Notice], None],
        fixed: bool,
        overlay: StaticOverlay | None = None,
        seen: Frame | None = None,
    ) -> None:
        """``overlay``: the graphics learnt while the table was searched for (``Found.graphics``); ``seen``:
        the frame the calibration was made on (``Found.frame``), where the camera followed starts from. A
        first frame other than ``seen`` (a file replayed from its start after a search) is checked as after a
        cut (the camera followed first, where it moved a little): a video that starts in another view (a
        close-up, the camera before a knock) is not refereed with a table found in a later one."""
        self.calib = calib
        self.say = say
        self.fixed = fixed  # a profile or typed corners: only that view can resume the run
        self.cuts = CutDetector(region=calib.table_mask(_shape(calib)))
        self.overlay = overlay or StaticOverlay()
        self.paused_at: float | None = None
        self._next_try = -math.inf
        self._frames = 0
        self._shape: tuple[int, ...] = _shape(
            calib
        )  # the last frame's (height, width): the calibration's at first
        self.resumed: TableCalibration | None = None
        self.followed: TableCalibration | None = None  # the calibration moved with the camera, once
        self._follower = _follower(calib, seen)
        # The picture the calibration was made on (or last followed to): a frame in register with it fits.
        self._print: PicturePrint | None = None
        if seen is not None and frame_size(seen.image) == tuple(calib.image_size):
            self._print = picture_print(seen.image)
        self._next_follow = -math.inf
        self._moving_until = -math.inf  # looked at every FOLLOW_MOVING_S until then: the camera moves
        self._move: tuple[float, TableCalibration] | None = None  # a move going on: since when, from what
        self._move_said = False  # whether it was said (it grew to MOVE_SAID)
        self._settling: _Settling | None = None  # a new unsure table found after a cut, not yet taken
        self._seen = seen

    def update(self, frame: Frame) -> bool:
        self._frames += 1
        small = _shrunk(frame.image)
        if self._frames % OVERLAY_EVERY == 1:
            self.overlay.update(small)
        # A picture of another size is another camera (a video's frames in a folder, from several), whatever
        # the shrunk copies say: two sizes of one aspect shrink alike.
        was, self._shape = self._shape, frame.image.shape[:2]
        sudden = self.cuts.update(small) or was != self._shape
        # The first frame of a file replayed after the search is checked as after a cut, but the camera may
        # have moved a little since the frame the table was found on: followed as a still camera is.
        first_unseen = self._frames == 1 and self._seen is not None and frame.index != self._seen.index
        cut = sudden or first_unseen
        lost = False  # the follower could not tell where the table is now (moved beyond it, or hidden)
        if self.paused_at is None and was == self._shape and (cut or frame.t >= self._next_follow):
            followed = self._follow(frame, sudden=sudden)
            if followed:
                self._moving_until = frame.t + MOVING_HOLD_S
            lost = followed is None
            moving = frame.t < self._moving_until
            if not moving and self._move is not None:
                self._end_move(frame.t)
            still_every = FOLLOW_EVERY_S if self._follower.by_noses is not False else SHIFT_EVERY_S
            self._next_follow = frame.t + (FOLLOW_MOVING_S if moving else still_every)
        # A knock too small or too dim for the cut detector that the follower cannot follow (beyond
        # camera_follow.MOST_FOLLOWED) is a cut all the same once the frame no longer fits.
        if self.paused_at is None and (cut or lost) and not self._fits(frame.image):
            calib = self._found_again(frame)
            if calib is not None and same_view(calib, self.calib):
                return False  # found again where it was: the picture changed over the table, no cut
            self.paused_at, self._next_try = frame.t, frame.t + REFIND_S
            self.cuts.set_region(None)
            resized = f" (the picture is {was[1]}x{was[0]} px -> {self._shape[1]}x{self._shape[0]})"
            what = "camera cut" + (resized if was != self._shape else "")
            if first_unseen and self._seen is not None:
                what = f"the video starts in another view than the table was found in at {self._seen.t:.2f} s"
            self.say(Notice(frame.t, "cut", f"{what}: events paused while the table is found again"))
            return self._resume(frame, calib)
        if self.paused_at is None:
            return False
        if frame.t < self._next_try:
            return True
        self._next_try = frame.t + REFIND_S
        return self._resume(frame, self._refind(frame))

    def _resume(self, frame: Frame, calib: TableCalibration | None) -> bool:
        """Go on with ``calib`` found on ``frame`` (False: not paused), or stay paused without one."""
        if calib is None or self.paused_at is None:
            return True
        away = frame.t - self.paused_at
        self.calib, self.resumed, self.paused_at, self._settling = calib, calib, None, None
        self._follower, self._move, self._move_said = _follower(calib, frame), None, False
        self._print = picture_print(frame.image)
        self.cuts.set_region(calib.table_mask(frame.image.shape))
        self.say(Notice(frame.t, "resumed", f"table found again after {away:.1f} s: events resumed"))
        return False

    def _follow(self, frame: Frame, sudden: bool) -> bool | None:
        """Re-fit the camera to the cushion noses and, where the table moved by ``FOLLOW_FROM`` or more
        (a sudden move: only if the moved calibration fits the frame), go on with the calibration moved
        with it (``followed``). Whether it was followed (None: the follower cannot tell where the table
        is now); the first follow of a move is said."""
        followed = self._follower.follow(frame.image)
        if followed is None:
            return None
        if corner_shift(self.calib, followed.calib) < FOLLOW_FROM:
            return False
        if sudden and not fits(followed.calib, frame.image):
            return False
        if self._move is None:
            self._move = (frame.t, self.calib)
        if not self._move_said and corner_shift(self._move[1], followed.calib) >= MOVE_SAID:
            self._move_said = True
            self._say_move(frame.t, "moves", followed.calib)
        self.calib = self.followed = followed.calib
        self.cuts.set_region(followed.calib.table_mask(frame.image.shape))
        self._print = picture_print(frame.image)
        return True

    def look_now(self) -> None:
        """Look for a camera move at the next frame (the balls all jumped at once)."""
        self._next_follow = -math.inf

    def finish(self, t: float) -> None:
        """The source ended: a move still going on is said, as far as it went."""
        self._end_move(t)

    def _end_move(self, t: float) -> None:
        """The camera is still again (or the source ended): how far it moved is said, if its move was."""
        if self._move_said:
            self._say_move(t, "moved", self.calib)
        self._move, self._move_said = None, False

    def _say_move(self, t: float, how: str, to: TableCalibration) -> None:
        """Say how far the camera moved since the move began (``_move``): while it ``moves``, or once it has
        ``moved`` and is still again."""
        if self._move is None:
            return
        since, start = self._move
        length = length_px(start)
        px = corner_shift(start, to) * length
        when = "" if how == "moves" else f" from {since:.2f} s to {t:.2f} s"
        self.say(
            Notice(
                t,
                "moved",
                f"the camera {how} ({px:.1f} px{when}, {px / length:.1%} of the table's length): the table "
                + ("is followed" if how == "moves" else "was followed")
                + " and the run goes on",
            )
        )

    def graphics(self, shape: tuple[int, ...]) -> np.ndarray | None:
        """The graphics over the picture (uint8, 255 = graphic) once learnt, else None."""
        return self.overlay.mask(shape) if self.overlay.ready else None

    def _fits(self, image: np.ndarray) -> bool:
        """Whether the frame still fits the run's calibration: the picture changed at once (a cue whipped
        away, a player's body, a flash) but the table is where it was: no cut. Its cushions where the
        calibration puts them, or the picture in register with the one the calibration was made on."""
        if fits(self.calib, image):
            return True
        return self._print is not None and same_camera(self._print, picture_print(image))

    def _refind(self, frame: Frame) -> TableCalibration | None:
        """The calibration to resume with: the one the run had if this frame fits it, else the one found
        again in it (``_found_again``); None while neither."""
        return self.calib if self._fits(frame.image) else self._found_again(frame)

    def _found_again(self, frame: Frame) -> TableCalibration | None:
        """The table found automatically in a frame that does not fit the run's calibration: a new sure
        calibration; the one the run had where a new unsure one puts the table where the run had it (a
        real table's calibration is often unsure: without this a player's body over it paused the run for
        good); a new unsure one elsewhere once the camera has settled there (``_settled``); None while
        none, and always for a profile or typed corners."""
        if self.fixed:
            return None
        try:
            table = self.calib.table  # the size stays the one the run chose
            image = frame.image
            calib = calibrate_auto(image, table, size=table.size or None, ignore=self.graphics(image.shape))
        except (CalibrationError, cv2.error):
            return None
        if calib.sure:
            return calib
        if same_view(calib, self.calib):
            return self.calib  # unsure, but where the run had it
        return self._settled(calib, frame)

    def _settled(self, calib: TableCalibration, frame: Frame) -> TableCalibration | None:
        """A new unsure calibration elsewhere, taken (and said unsure) once the picture has stayed still and
        every try has put the table there for ``SETTLED_S``: a real camera knocked to a new place for good
        (a real table's calibration is often unsure; without this the run stayed paused to its end). Only
        one that doubts nothing the run's calibration did not: the same table seen as well from a new
        place (a broadcast's close-up of the cloth runs off the frame; a real table calibrated wrong from a
        new place doubts its shape)."""
        doubts = calib.verdict.doubts
        if not {r.kind for r in doubts} <= {r.kind for r in self.calib.verdict.doubts}:
            self._settling = None
            return None
        picture = picture_print(frame.image)
        was = self._settling
        if was is None or not same_view(calib, was.calib) or not same_camera(was.picture, picture):
            self._settling = _Settling(calib, picture, frame.t)
            return None
        if frame.t - was.since < SETTLED_S:
            return None
        why = "; ".join(r.detail for r in doubts)
        self.say(
            Notice(
                frame.t,
                "unsure",
                f"the camera settled at a new place ({frame.t - was.since:.1f} s still, the table found "
                f"there on every try): its calibration is UNSURE: {why}. It is used, so balls and pockets "
                f"may be placed wrongly: check annotated.mp4, or {TYPE_CORNERS}",
            )
        )
        return calib


def _follower(calib: TableCalibration, seen: Frame | None) -> CameraFollower:
    """A follower of the camera of ``calib``, from the frame it was made on (where known and of its size):
    a camera that moved between that frame and the run's first is followed from where it was calibrated."""
    follower = CameraFollower(calib)
    if seen is not None and frame_size(seen.image) == tuple(calib.image_size):
        follower.follow(seen.image)
    return follower


def fits(calib: TableCalibration, image: np.ndarray) -> bool:
    """Whether an image still fits a calibration (``check_calibration``): the cushions where it puts them.
    An image of another size than the calibration's never fits."""
    if frame_size(image) != tuple(calib.image_size):
        return False
    try:
        check_calibration(calib, image)
    except CameraMovedError:
        return False
    return True


def _shrunk(image: np.ndarray) -> np.ndarray:
    """A copy of about ``WATCH_PX`` on its long side, by plain subsampling (0.02 ms at 1920 x 1080): the
    cut detector and the overlay blur and shrink it further, and at full size their own shrinking costs
    ~5 ms a frame, a third of the classical path's budget."""
    h, w = image.shape[:2]
    step = max(1, max(h, w) // WATCH_PX)
    if step == 1:
        return image
    return cv2.resize(image, (w // step, h // step), interpolation=cv2.INTER_NEAREST)


def frame_size(image: np.ndarray) -> tuple[int, int]:
    """An image's (width, height), as a calibration's ``image_size``."""
    return (image.shape[1], image.shape[0])


def _shape(calib: TableCalibration) -> tuple[int, int]:
    return (calib.image_size[1], calib.image_size[0])


def _chain(head: list[Frame], rest: Iterator[Frame]) -> Iterator[Frame]:
    yield from head
    yield from rest
