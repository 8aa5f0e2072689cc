"""Compile and cache pooltool's numba physics once (``python -m datasets.billiards.warmup``)."""

from __future__ import annotations

import time

from arbiter.games import billiards

from .physics import Strike, simulate


def main() -> None:
    started = time.perf_counter()
    table = billiards("straight-pool").table
    layout = {"cue": (635.0, 500.0), "1": (635.0, 1500.0), "2": (300.0, 2000.0)}
    simulate(table, layout, Strike("cue", 2.0, 90.0))
    print(f"pooltool physics ready ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
