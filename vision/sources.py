"""Where frames come from: a video file, a camera index, an RTSP/HTTP stream or a folder of images.

Every source yields ``Frame``s and never stops a run for one bad frame: an unreadable frame is skipped and
counted; a live source that drops is reopened (with a pause that grows) until ``reconnect_s`` has passed.
What cannot be opened at all raises ``SourceError`` saying what was wrong and what to do.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from .types import Frame

READ_AHEAD = 8  # frames of a file decoded ahead of the run by default (8 frames of 1080p: 50 MB)
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")


class SourceError(RuntimeError):
    """A source that cannot be used; the message says why and what to do."""


@dataclass
class SourceStats:
    frames: int = 0
    bad_frames: int = 0
    reconnects: int = 0
    unreadable: list[str] = field(default_factory=list)  # an image folder's files that could not be read


class FrameSource:
    """Iterate ``Frame``s from ``spec``: a path to a video file, an image folder or one image, a camera
    index (``"0"``), or a stream URL (``rtsp://``, ``http://``)."""

    def __init__(
        self,
        spec: str | Path,
        folder_fps: float = 30.0,
        reconnect_s: float = 10.0,
        read_ahead: int = READ_AHEAD,
    ) -> None:
        """``read_ahead``: frames of a file or folder decoded ahead on a thread of their own (0: none)."""
        self.spec = str(spec)
        self.folder_fps = folder_fps
        self.reconnect_s = reconnect_s
        self.read_ahead = read_ahead
        self.stats = SourceStats()
        self.live = self.spec.isdigit() or "://" in self.spec
        path = Path(self.spec)
        if not self.live and not path.exists():
            raise SourceError(
                f"{self.spec}: no such file or folder; give a video file, an image folder, "
                "a camera index (0) or an rtsp:// URL"
            )
        self._folder = (
            sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if (not self.live and path.is_dir())
            else [path]
            if (not self.live and path.suffix.lower() in IMAGE_SUFFIXES)
            else None
        )
        if self._folder is not None and not self._folder:
            raise SourceError(f"{self.spec}: the folder holds no images ({', '.join(IMAGE_SUFFIXES)})")
        self.fps = folder_fps
        self.size: tuple[int, int] | None = None
        self.frame_count: int | None = len(self._folder) if self._folder is not None else None
        if self._folder is None:
            cap = self._open()
            self.fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
            self.size = (int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))
            count = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
            self.frame_count = count if count > 0 and not self.live else None
            cap.release()

    @property
    def photos(self) -> list[Path] | None:
        """The images of an image folder (or the one image file), in order: ``Frame.index`` is the index of
        its file here; None for a video, camera or stream."""
        return list(self._folder) if self._folder is not None else None

    def _open(self) -> cv2.VideoCapture:
        target: int | str = int(self.spec) if self.spec.isdigit() else self.spec
        cap = cv2.VideoCapture(target)
        if not cap.isOpened():
            what = "camera" if self.spec.isdigit() else "stream" if self.live else "video"
            raise SourceError(
                f"cannot open {what} {self.spec}: check that it exists and plays "
                "(a corrupt or unsupported file, a busy camera, a wrong URL)"
            )
        return cap

    def __iter__(self) -> Iterator[Frame]:
        if self.live or self.read_ahead <= 0:
            yield from self._frames(self.stats)
        else:
            yield from self._read_ahead()

    def _frames(self, stats: SourceStats) -> Generator[Frame]:
        """Every frame, read here; what was read and skipped counted in ``stats``."""
        if self._folder is not None:
            yield from self._images(stats)
        else:
            yield from self._video(stats)

    def _read_ahead(self) -> Iterator[Frame]:
        """The frames decoded on a thread of their own, up to ``read_ahead`` ahead of the one the run works
        on: OpenCV's decoder and most of the work on a frame let go of the interpreter, so two cores decode
        and referee side by side. ``stats`` says what was read up to the frame given, as without it; an
        error reading is raised here; a run that stops early stops the thread and releases the file."""
        before = _snapshot(self.stats)  # what earlier passes over the source read: counted on, as in line
        ahead = _ReadAhead(self, self.read_ahead)
        try:
            for frame, read in ahead:
                _add_stats(before, read, self.stats)
                if frame is not None:
                    yield frame
        finally:
            ahead.stop()

    def _images(self, stats: SourceStats) -> Iterator[Frame]:
        for i, path in enumerate(self._folder or []):
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                stats.bad_frames += 1
                stats.unreadable.append(path.name)
                continue
            stats.frames += 1
            yield Frame(i, i / self.folder_fps, image)

    def _video(self, stats: SourceStats) -> Iterator[Frame]:
        cap: cv2.VideoCapture | None = self._open()
        started = time.monotonic()
        index = 0
        failures = 0
        try:
            while cap is not None:
                ok, image = cap.read()
                if ok and isinstance(image, np.ndarray) and image.size:
                    failures = 0
                    t = (time.monotonic() - started) if self.live else cap.get(cv2.CAP_PROP_POS_MSEC) / 1000.0
                    if not self.live and t <= 0 and index > 0:
                        t = index / self.fps  # containers without timestamps
                    stats.frames += 1
                    yield Frame(index, t, image)
                    index += 1
                    continue
                if not self.live:
                    if (
                        self.frame_count is not None
                        and index < self.frame_count - 1
                        and failures < MAX_BAD_RUN
                    ):
                        # A damaged frame inside the file: skip it and carry on.
                        failures += 1
                        stats.bad_frames += 1
                        index += 1
                        cap.set(cv2.CAP_PROP_POS_FRAMES, index)
                        continue
                    return
                cap.release()
                cap = self._reconnect(started, stats)  # None: the source is gone for good
        finally:
            if cap is not None:
                cap.release()

    def _reconnect(self, started: float, stats: SourceStats) -> cv2.VideoCapture | None:
        """A live source dropped: try again, waiting longer each time, until ``reconnect_s``."""
        deadline = time.monotonic() + self.reconnect_s
        wait = 0.2
        while time.monotonic() < deadline:
            time.sleep(wait)
            wait = min(wait * 2, 2.0)
            try:
                cap = self._open()
            except SourceError:
                continue
            stats.reconnects += 1
            return cap
        return None


MAX_BAD_RUN = 25  # consecutive unreadable frames in a file before it is taken as ending there


class _ReadAhead:
    """A source's frames read on a thread of its own into a queue of ``size``: iterate it for (frame, what
    was read up to it), then (None, everything read) at the end; ``stop`` ends the thread early."""

    def __init__(self, source: FrameSource, size: int) -> None:
        self._queue: queue.Queue[tuple[Frame | None, SourceStats] | BaseException] = queue.Queue(size)
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._read, args=(source,), name="frame-reader", daemon=True)
        self._thread.start()

    def __iter__(self) -> Iterator[tuple[Frame | None, SourceStats]]:
        while True:
            item = self._queue.get()
            if isinstance(item, BaseException):
                raise item
            yield item
            if item[0] is None:
                return

    def _read(self, source: FrameSource) -> None:
        stats = SourceStats()
        frames = source._frames(stats)
        try:
            for frame in frames:
                if not self._put((frame, _snapshot(stats))):
                    return
            self._put((None, _snapshot(stats)))
        except Exception as exc:  # raised to the reader, in the run's own thread
            self._put(exc)
        finally:
            frames.close()  # the file released, on the thread that opened it

    def _put(self, item: tuple[Frame | None, SourceStats] | BaseException) -> bool:
        """Queue ``item`` as soon as there is room; False once stopped."""
        while not self._stopped.is_set():
            try:
                self._queue.put(item, timeout=0.05)
            except queue.Full:
                continue
            return True
        return False

    def stop(self) -> None:
        self._stopped.set()
        self._thread.join(timeout=5.0)


def _snapshot(stats: SourceStats) -> SourceStats:
    return replace(stats, unreadable=list(stats.unreadable))


def _add_stats(before: SourceStats, read: SourceStats, into: SourceStats) -> None:
    """``into`` made to say ``before`` and ``read`` together, kept the same object (callers hold it)."""
    into.frames = before.frames + read.frames
    into.bad_frames = before.bad_frames + read.bad_frames
    into.reconnects = before.reconnects + read.reconnects
    into.unreadable[:] = before.unreadable + read.unreadable
