"""What every command shares: failing with a clear message, and reading sizes, points and streams."""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn

import typer

from arbiter import contract
from arbiter.games import BilliardsSpec, DiceSpec, GameSpec, UnknownGameError, billiards, dice, game
from arbiter.tables import own_size

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
SAMPLE_SHOT = SAMPLES / "billiards" / "snooker" / "shot_000"


def fail(message: str) -> NoReturn:
    """Stop the command with ``error: message`` on stderr and exit status 2."""
    typer.secho(f"error: {message}", fg=typer.colors.RED, err=True)
    raise typer.Exit(2)


def parse_size(size: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in size.lower().split("x"))
    except ValueError:
        fail(f"--size must look like 1920x1080 (got {size!r})")
    return w, h


def read_stream(path: Path, hint: str) -> tuple[contract.Match, list[contract.JsonLine]]:
    """A whole event file, or a clean exit naming the file, the bad line and why."""
    if not path.exists():
        fail(f"{path} not found: {hint}")
    try:
        return contract.read_stream(path.read_text().splitlines())
    except contract.ContractError as exc:
        fail(f"{path}: {exc}")


def parse_points(text: str) -> dict[str, tuple[float, float]]:
    """``bl=102,88;br=1190,95;tl=98,640;tr=1185,650`` -> named pixel points."""
    points = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        try:
            name, xy = part.split("=")
            x, y = (float(v) for v in xy.split(","))
        except ValueError:
            fail(f"--points must look like 'bl=102,88;br=1190,95;tl=98,640;tr=1185,650' (got {part!r})")
        points[name.strip()] = (x, y)
    return points


def table_size(spec: BilliardsSpec, size: str | None) -> str | None:
    """``--table``: a size of the game's catalogue (``spec.table.sizes``) or a table's own playing area in
    millimetres (``arbiter.tables.own_size``: "1575x700"), or a clean exit saying what is accepted; None
    (not given) leaves the size to the calibration."""
    if size is None or size in [s.name for s in spec.table.sizes]:
        return size
    try:
        own = own_size(size)
    except ValueError as exc:
        fail(f"--table {size!r}: {exc}")
    if own is None:
        listed = ", ".join(f"{s.name} ({s.length_mm:.0f} x {s.width_mm:.0f} mm)" for s in spec.table.sizes)
        fail(
            f"--table {size!r}: {spec.title} is played here on {listed or 'its one table'}, or give the "
            "table's own playing area in millimetres between the cushion noses, length x width (1575x700)"
        )
    return size


def game_spec(game_id: str) -> GameSpec:
    """The registry's spec of ``--game``, or a clean exit naming the games."""
    try:
        return game(game_id)
    except UnknownGameError as exc:
        fail(str(exc))


def billiards_spec(game_id: str) -> BilliardsSpec:
    """The spec of a billiards ``--game``, or a clean exit naming the billiards games."""
    try:
        return billiards(game_id)
    except UnknownGameError as exc:
        fail(str(exc))


def dice_spec(game_id: str) -> DiceSpec:
    """The spec of a dice ``--game``, or a clean exit naming the dice games."""
    try:
        return dice(game_id)
    except UnknownGameError as exc:
        fail(str(exc))
