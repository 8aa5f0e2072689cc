"""A review's videos as Ray tasks: on a local Ray instance (``auto``) or an existing cluster (its address).

Each video is one task of one CPU (``max_retries=0``: the driver retries a crashed video itself, once, and
records why). The detector networks are put in Ray's object store once and every task reads them from
there; the camera profile travels inside the task. Workers report their frame counts to a small actor the
driver reads as it waits. Results come back to the driver, the one process that writes the record.

Ray is optional (``pip install -e '.[cluster]'``) and heavy to import, so it is imported when a Ray pool is
made, not when the command line starts.
"""

from __future__ import annotations

import importlib
import logging
import os
import time
from pathlib import Path
from typing import Any

from pipeline.review.pools import Finished, PoolError, Waited
from pipeline.review.work import Models, VideoOutcome, VideoTask, one_core, referee_task

# The folder that holds Arbiter's packages: a local Ray instance's workers import this very code.
CODE_ROOT = Path(__file__).resolve().parents[2]
LOCAL_OBJECT_STORE_BYTES = 256 * 2**20  # the networks and the results; a local instance needs no more
WARM_HOLD_S = 0.5
# Ray starts its workers at niceness 15, below everything else on the machine; a local instance shares this
# machine with the driver and whatever else the user runs, so its workers run at the priority the embedded
# pool's do (measured: at 15 a review took 10-12 % longer on a machine with a load of 1.5-2).
WORKER_NICENESS = 0


class ProgressBoard:
    """A Ray actor: the latest frame count of each video in progress, taken by the driver as it waits."""

    def __init__(self) -> None:
        self.frames: dict[int, int] = {}

    def add(self, position: int, frames: int) -> None:
        self.frames[position] = frames

    def drain(self) -> list[tuple[int, int]]:
        out, self.frames = list(self.frames.items()), {}
        return out


class BoardSink:
    """A task's ``report``: sends its frame counts to the board, without waiting for an answer."""

    def __init__(self, board: Any) -> None:
        self.board = board

    def __call__(self, position: int, frames: int) -> None:
        self.board.add.remote(position, frames)


def ray_task(task: VideoTask, models: Models, sink: BoardSink) -> VideoOutcome:
    """What runs on a Ray worker: one video, on one core."""
    one_core()
    return referee_task(task, models, sink)


def warm_up() -> int:
    """Loads the pipeline in a Ray worker (importing this module did), holding its CPU a moment so that
    each warm-up lands on a worker of its own; its process id."""
    time.sleep(WARM_HOLD_S)
    return os.getpid()


def _ray() -> Any:
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise PoolError(
            "--ray needs Ray, which is not installed; install it with: pip install -e '.[cluster]' "
            "(or review without --ray, on this machine's cores)"
        ) from None


def _connect(ray: Any, address: str, workers: int) -> None:
    """Start a local instance of ``workers`` CPUs (``auto``), or join the cluster at ``address``."""
    if address == "auto":
        try:
            ray.init(
                address="local",  # a new instance, even where another runs on this machine
                num_cpus=workers,
                include_dashboard=False,
                object_store_memory=LOCAL_OBJECT_STORE_BYTES,
                runtime_env={"env_vars": {"PYTHONPATH": str(CODE_ROOT)}},
                _system_config={"worker_niceness": WORKER_NICENESS},
                logging_level=logging.WARNING,
                log_to_driver=False,
            )
        except (ConnectionError, RuntimeError) as exc:  # not ValueError: bad arguments are a bug here
            ray.shutdown()
            raise PoolError(f"cannot start a local Ray instance ({exc})") from None
        return
    try:
        ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        ray.shutdown()
        raise PoolError(
            f"cannot reach the Ray cluster at {address} ({exc}); is it started ('ray start --head' on its "
            "head node)? A cluster that checks tokens needs RAY_AUTH_MODE=token and its token "
            "(RAY_AUTH_TOKEN) here too: see docs/review.md"
        ) from None


class RayPool:
    """Videos as Ray tasks. ``address``: ``auto`` starts a local instance of ``workers`` CPUs (stopped on
    ``close``); anything else is the address of a running cluster (``HOST:6379``, ``ray://HOST:10001``),
    whose CPUs decide how many videos run at once."""

    def __init__(self, address: str, workers: int, models: Models) -> None:
        ray = self._ray = _ray()
        if ray.is_initialized():
            raise PoolError("Ray is already running in this process; one review at a time")
        _connect(ray, address, workers)
        try:
            cpus = int(ray.cluster_resources().get("CPU", 1))
            self._workers = workers if address == "auto" else max(1, cpus)
            self._models = ray.put(models)
            self._remote = ray.remote(num_cpus=1, max_retries=0)(ray_task)
            self._board = ray.remote(num_cpus=0)(ProgressBoard).remote()
            self._running: dict[Any, VideoTask] = {}
            # Every worker loads the pipeline before the first video, and so does the board's own process
            # (its class lives beside the pipeline's tasks): starting is neither timed as work nor run
            # beside the first videos, taking their cores (about 3 s of a core).
            warm = [ray.remote(num_cpus=1)(warm_up).remote() for _ in range(self._workers)]
            ray.get([*warm, self._board.drain.remote()])
        except BaseException:
            ray.shutdown()
            raise

    @property
    def workers(self) -> int:
        return self._workers

    def submit(self, task: VideoTask) -> None:
        ref = self._remote.remote(task, self._models, BoardSink(self._board))
        self._running[ref] = task

    def wait(self, timeout_s: float) -> Waited:
        ray = self._ray
        refs = list(self._running)
        if not refs:
            return Waited()
        ready, rest = ray.wait(refs, num_returns=1, timeout=timeout_s)
        if ready and rest:
            ready += ray.wait(rest, num_returns=len(rest), timeout=0)[0]
        finished = [self._finished(ref, self._running.pop(ref)) for ref in ready]
        return Waited(finished, ray.get(self._board.drain.remote()))

    def _finished(self, ref: Any, task: VideoTask) -> Finished:
        try:
            return Finished(task, outcome=self._ray.get(ref))
        except self._ray.exceptions.RayError as exc:  # the task raised, or its worker or node was lost
            cause = getattr(exc, "cause", None)
            what = f"{type(cause).__name__}: {cause}" if cause is not None else f"{type(exc).__name__}: {exc}"
            return Finished(task, crash=what.strip().splitlines()[0])

    def close(self) -> None:
        """Cancel what still runs and leave Ray (a local instance stops)."""
        for ref in self._running:
            self._ray.cancel(ref, force=True)
        self._running = {}
        self._ray.shutdown()
