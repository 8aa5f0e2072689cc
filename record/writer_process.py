"""The process that writes a match, and whether it still lives: how a running match whose writer was killed
reads as ``interrupted`` (and can resume) while one written by a live process elsewhere is left alone.

The writer is stored with the match as host, pid and process start time (so a reused pid is told apart).
Linux and macOS see dead processes; a writer on another host cannot be checked and is taken as alive.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def _process_start(pid: int) -> str | None:
    """The start time of process ``pid`` in clock ticks since boot (Linux), so a reused pid is told apart."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rfind(")") + 2 :].split()  # after "pid (comm) ": field 3 onwards
    return fields[19] if len(fields) > 19 else None


def _process_state(pid: int) -> str | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat[stat.rfind(")") + 2 :].split()[0]


def this_writer() -> dict[str, Any]:
    pid = os.getpid()
    return {"host": socket.gethostname(), "pid": pid, "start": _process_start(pid)}


def writer_alive(writer: Mapping[str, Any] | None) -> bool:
    """Whether the recorded writer process still runs. A writer on another host cannot be checked: alive."""
    if not writer:
        return False
    if writer.get("host") != socket.gethostname():
        return True
    pid = writer.get("pid")
    if not isinstance(pid, int) or pid <= 0:
        return False
    if Path("/proc").is_dir():
        state = _process_state(pid)
        if state is None or state in ("Z", "X"):  # gone, or a zombie: killed, not yet reaped
            return False
        return writer.get("start") is None or _process_start(pid) == writer.get("start")
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
