"""Where a review's videos are refereed: local worker processes (embedded, the default) or Ray tasks.

Both pools take ``VideoTask``s and hand back ``Finished`` ones, with the frames counted as workers go, through
the same three calls (``submit``, ``wait``, ``close``), so the driver does not know which one it drives.

``LocalPool``: N processes of this machine, started once (``spawn``: a clean interpreter each, whatever
threads the driver has), one video at a time each, over a pipe of its own. A worker that dies (killed, out
of memory, a crash in native code) is seen at once by its pipe and its process sentinel, its video is
reported as a crash and a fresh worker takes its place. Workers ignore Ctrl-C (the driver stops them) and
exit by themselves when the driver is gone, even after a ``kill -9``.

``RayPool`` is in ``pipeline.review.ray_pool``.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import signal
import traceback
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Protocol

from pipeline.review.work import Models, VideoOutcome, VideoTask, one_core, referee_task

STOP_WAIT_S = 5.0  # how long a worker is given to leave before it is terminated
START_WAIT_S = 300.0  # how long a worker may take to load the pipeline (seconds on a busy machine)


class PoolError(RuntimeError):
    """A pool that cannot start (Ray missing, a cluster that cannot be reached): what to do."""


@dataclass(frozen=True)
class Finished:
    """A task back from a worker: its outcome, or ``crash``, what went wrong with the worker."""

    task: VideoTask
    outcome: VideoOutcome | None = None
    crash: str | None = None


@dataclass(frozen=True)
class Waited:
    """What one ``wait`` saw: tasks finished, and ``(position, frames so far)`` of videos in progress."""

    finished: Sequence[Finished] = ()
    frames: Sequence[tuple[int, int]] = ()


class Pool(Protocol):
    """What the driver needs of a pool."""

    @property
    def workers(self) -> int:
        """How many videos it referees at once."""
        ...

    def submit(self, task: VideoTask) -> None: ...

    def wait(self, timeout_s: float) -> Waited:
        """What happened within ``timeout_s`` (returns as soon as something has)."""
        ...

    def close(self) -> None: ...


def _serve(conn: Connection, driver_pid: int, models: Models) -> None:
    """A local worker: referee the tasks its pipe brings until told to stop or the driver is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the driver's to handle
    one_core()
    conn.send(("ready", 0, None))  # the pipeline is loaded (importing this module did it)

    def report(position: int, frames: int) -> None:
        if os.getppid() != driver_pid:  # the driver was killed: stop, nobody will record this
            os._exit(3)
        conn.send(("frames", position, frames))

    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            outcome = referee_task(task, models, report)
        except Exception as exc:  # a crash of this video: the driver retries it once
            message = "".join(traceback.format_exception_only(exc)).strip()
            conn.send(("crash", task.position, message))
        else:
            conn.send(("done", task.position, outcome))


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    task: VideoTask | None = None
    frames: int = 0


class LocalPool:
    """``workers`` local processes (see the module docstring)."""

    def __init__(self, workers: int, models: Models) -> None:
        if workers < 1:
            raise PoolError(f"a review needs at least one worker (got {workers})")
        self._context = mp.get_context("spawn")
        self._models = models
        self._backlog: deque[VideoTask] = deque()
        self._workers = [self._start() for _ in range(workers)]
        for worker in self._workers:
            self._ready(worker)

    @property
    def workers(self) -> int:
        return len(self._workers)

    def _start(self) -> _Worker:
        mine, theirs = self._context.Pipe()
        process = self._context.Process(
            target=_serve, args=(theirs, os.getpid(), self._models), name="arbiter-review-worker", daemon=True
        )
        process.start()
        theirs.close()
        return _Worker(process, mine)

    def _ready(self, worker: _Worker) -> None:
        """Wait for a new worker to say it has loaded the pipeline, so that starting is not timed as work."""
        try:
            if worker.conn.poll(START_WAIT_S) and worker.conn.recv()[0] == "ready":
                return
        except (EOFError, OSError):
            pass
        self.close()
        raise PoolError(
            f"a review worker did not start (exit code {worker.process.exitcode}); "
            "check that 'arbiter run' works on one video"
        )

    def submit(self, task: VideoTask) -> None:
        self._backlog.append(task)
        self._dispatch()

    def _dispatch(self) -> None:
        for worker in self._workers:
            if worker.task is None and self._backlog:
                worker.task, worker.frames = self._backlog.popleft(), 0
                worker.conn.send(worker.task)

    def wait(self, timeout_s: float) -> Waited:
        busy = [w for w in self._workers if w.task is not None]
        if not busy:
            return Waited()
        wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout_s)
        finished: list[Finished] = []
        frames: list[tuple[int, int]] = []
        for k, worker in enumerate(self._workers):
            if worker.task is None:
                continue
            done = self._read(worker, worker.task, frames)
            if done is None and not worker.process.is_alive():
                done = Finished(worker.task, crash=f"its worker died (exit code {worker.process.exitcode})")
                worker.conn.close()
                self._workers[k] = self._start()
            elif done is not None:
                worker.task = None
            if done is not None:
                finished.append(done)
        self._dispatch()
        return Waited(finished, frames)

    @staticmethod
    def _read(worker: _Worker, task: VideoTask, frames: list[tuple[int, int]]) -> Finished | None:
        """The messages waiting on a busy worker's pipe: frame counts, then maybe its result."""
        try:
            while worker.conn.poll():
                kind, _, payload = worker.conn.recv()
                if kind == "ready":  # a fresh worker, started in place of a lost one
                    continue
                if kind == "frames":
                    frames.append((task.position, payload))
                elif kind == "crash":
                    return Finished(task, crash=payload)
                else:
                    return Finished(task, outcome=payload)
        except (EOFError, OSError):
            worker.process.join(STOP_WAIT_S)  # the pipe broke: the process is gone or going
        return None

    def close(self) -> None:
        """Stop every worker: asked first, terminated if it does not leave (one busy on a video)."""
        for worker in self._workers:
            with contextlib.suppress(OSError, ValueError):  # a worker already gone
                worker.conn.send(None)
        for worker in self._workers:
            if worker.task is not None:
                worker.process.terminate()
            worker.process.join(STOP_WAIT_S)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.conn.close()
        self._workers = []
