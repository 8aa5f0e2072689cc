"""``arbiter dashboard``: serve the Streamlit desk (``dashboard/app.py``) on this machine only.

A composition root like the rest of ``cli``: it checks the arguments, imports a run folder when asked,
and starts Streamlit on 127.0.0.1 with telemetry off.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Annotated

import typer

from cli.common import fail
from dashboard.session import Desk, DeskError

app = typer.Typer()
APP = Path(__file__).resolve().parents[1] / "dashboard" / "app.py"
HOST = "127.0.0.1"  # never another interface: the desk has no login
DEFAULT_PORT = 8501
DEFAULT_DB = Path("out/arbiter.db")
STOP_WAIT_S = 10.0


def port_free(port: int, host: str = HOST) -> bool:
    """Whether ``host:port`` can be listened on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def streamlit_command(port: int) -> list[str]:
    """The ``streamlit run`` line: local address only, no browser opened, no usage statistics sent."""
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(APP),
        "--server.address",
        HOST,
        "--server.port",
        str(port),
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
        "--server.fileWatcherType",
        "none",
        "--server.runOnSave",
        "false",
        "--server.maxUploadSize",
        "4096",
        "--global.developmentMode",
        "false",
        "--theme.base",
        "light",
        "--client.toolbarMode",
        "viewer",
    ]


@app.command()
def dashboard(
    port: Annotated[int, typer.Option(help="Port on 127.0.0.1 to serve the page on.")] = DEFAULT_PORT,
    db: Annotated[Path, typer.Option(help="The match record (SQLite), created if absent.")] = DEFAULT_DB,
    match: Annotated[int | None, typer.Option(help="A match of the record to show first.")] = None,
    open_: Annotated[
        Path | None,
        typer.Option(
            "--open",
            help="A run folder (arbiter run / arbiter demo output) to add to the record and show first.",
        ),
    ] = None,
) -> None:
    """Serve the dashboard (Streamlit) on 127.0.0.1: run a video or camera through the pipeline, see the
    scoreboard, timeline and shot diagrams live, enter what the camera cannot see, correct calls, export."""
    if not 1 <= port <= 65535:
        fail(f"--port must be 1..65535 (got {port})")
    if not port_free(port):
        fail(f"port {port} on {HOST} is in use (another dashboard?); choose another with --port")
    try:
        desk = Desk(db)
    except DeskError as exc:
        fail(str(exc))
    try:
        if open_ is not None:
            match = desk.open_folder(open_)
        elif match is not None:
            desk.info(match)
    except DeskError as exc:
        fail(str(exc))
    finally:
        desk.close()
    env = {**os.environ, "ARBITER_DB": str(db.resolve())}
    env.pop("ARBITER_MATCH", None)
    if match is not None:
        env["ARBITER_MATCH"] = str(match)
    address = f"http://{HOST}:{port}"
    shown = f", showing match {match}" if match is not None else ""
    typer.echo(f"Arbiter dashboard: {address}{shown} (record {db}); Ctrl-C stops it")
    command = streamlit_command(port)
    if hasattr(os, "execve"):  # become the server: a signal to this process reaches Streamlit itself
        sys.stdout.flush()
        sys.stderr.flush()
        os.execve(sys.executable, command, env)
    proc = subprocess.Popen(command, env=env)
    try:
        code = proc.wait()
    except KeyboardInterrupt:
        proc.terminate()
        try:
            proc.wait(STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
        code = 0
    if code:
        raise typer.Exit(code)
