"""What a review is asked to referee: the videos named by files, folders, globs and manifests, each with its
game, players and camera profile.

A manifest is a CSV file with a header row: ``video`` (required; relative to the manifest's folder), and
optionally ``game``, ``players`` (turn order, separated by ``;``) and ``calibration`` (a camera profile made
by ``arbiter calibrate``). An empty cell takes the command's ``--game``, ``--players`` or ``--calibration``.

Games are resolved here, once, at the boundary (``arbiter.games.game``); the spec travels on with each video.
Bad input raises ``PlanError`` with what was wrong and what to do, before anything is refereed.
"""

from __future__ import annotations

import csv
import glob
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from arbiter.games import BilliardsSpec, DiceSpec, GameSpec, UnknownGameError, game
from record.reviews import VideoEntry
from vision.sources import FrameSource, SourceError

VIDEO_SUFFIXES = (".mp4", ".mov", ".avi", ".mkv", ".m4v", ".webm", ".mpg", ".mpeg", ".ts", ".wmv")
MANIFEST_SUFFIX = ".csv"
MANIFEST_COLUMNS = ("video", "game", "players", "calibration")
_GLOB_MARKS = ("*", "?", "[")


class PlanError(ValueError):
    """The sources of a review cannot be used as given: what was wrong, and what to do."""


@dataclass(frozen=True)
class Defaults:
    """What the command line gives every video that its manifest row does not override."""

    spec: GameSpec | None = None
    players: tuple[str, ...] = ("A", "B")
    calibration: Path | None = None


@dataclass(frozen=True)
class ReviewItem:
    """One video to referee, resolved: its absolute path, game spec, players and camera profile, and what a
    look at the file told (its size in bytes; frames and frame rate, None when it cannot be opened: its
    worker then reports why)."""

    video: Path
    spec: GameSpec
    players: tuple[str, ...]
    calibration: Path | None
    size: int
    frames: int | None
    fps: float | None

    @property
    def entry(self) -> VideoEntry:
        """How the review's bookkeeping knows this video."""
        return VideoEntry(str(self.video), self.size, self.spec.id, self.players)


@dataclass(frozen=True)
class ItemRequest:
    """A video and what was asked for it, before the file is looked at."""

    video: Path
    spec: GameSpec
    players: tuple[str, ...]
    calibration: Path | None


def gather(sources: Sequence[str], defaults: Defaults) -> list[ReviewItem]:
    """Every video the sources name, in the order given (a folder's and a glob's sorted), each once."""
    if not sources:
        raise PlanError("give at least one video, folder, glob or manifest (.csv) to review")
    specs: dict[str, GameSpec] = {}
    seen: set[Path] = set()
    items: list[ItemRequest] = []
    for source in sources:
        for request in _expand(source, defaults, specs):
            if request.video not in seen:
                seen.add(request.video)
                items.append(request)
    if not items:
        raise PlanError(f"no video found in {' '.join(sources)} ({', '.join(VIDEO_SUFFIXES)})")
    return [_probe(r) for r in items]


def _expand(source: str, defaults: Defaults, specs: dict[str, GameSpec]) -> Iterator[ItemRequest]:
    if any(mark in source for mark in _GLOB_MARKS):
        found = sorted(Path(p) for p in glob.glob(source, recursive=True))
        if not found:
            raise PlanError(f"{source}: no file matches this pattern")
        for path in found:
            if path.is_dir():
                yield from (_request(v, defaults) for v in _videos_in(path))
            elif path.suffix.lower() in VIDEO_SUFFIXES:
                yield _request(path, defaults)
        return
    path = Path(source)
    if not path.exists():
        raise PlanError(f"{source}: no such file or folder; give videos, folders, globs or a manifest (.csv)")
    if path.is_dir():
        videos = _videos_in(path)
        if not videos:
            raise PlanError(f"{source}: the folder holds no video ({', '.join(VIDEO_SUFFIXES)})")
        yield from (_request(v, defaults) for v in videos)
    elif path.suffix.lower() == MANIFEST_SUFFIX:
        yield from _manifest(path, defaults, specs)
    else:
        yield _request(path, defaults)


def _videos_in(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in VIDEO_SUFFIXES)


def _request(video: Path, defaults: Defaults, where: str = "") -> ItemRequest:
    if defaults.spec is None:
        raise PlanError(
            f"{where or video}: no game given; pass --game, or a manifest with a game column "
            f"({','.join(MANIFEST_COLUMNS)})"
        )
    return _checked(video.resolve(), defaults.spec, defaults.players, defaults.calibration, where)


def _checked(video: Path, spec: GameSpec, players: tuple[str, ...], calibration: Path | None,
             where: str) -> ItemRequest:  # fmt: skip
    """The request, after what a video of ``spec`` needs: a camera pipeline, enough players, a profile."""
    where = where or str(video)
    if not isinstance(spec, BilliardsSpec | DiceSpec):
        raise PlanError(f"{where}: {spec.id} has no camera pipeline yet; referee its event stream instead")
    top = spec.max_players
    if len(players) < spec.min_players or (top is not None and len(players) > top):
        wanted = f"{spec.min_players}" + ("" if top == spec.min_players else f" to {top or 'any number'}")
        raise PlanError(f"{where}: {spec.id} is played by {wanted} players, not {len(players)}")
    if calibration is not None:
        if isinstance(spec, DiceSpec):
            raise PlanError(f"{where}: dice games take no camera profile; leave calibration empty")
        if not calibration.is_file():
            raise PlanError(f"{where}: camera profile {calibration} not found (make one: arbiter calibrate)")
        calibration = calibration.resolve()
    return ItemRequest(video, spec, players, calibration)


def _manifest(path: Path, defaults: Defaults, specs: dict[str, GameSpec]) -> Iterator[ItemRequest]:
    """The rows of a manifest, each checked, naming the line of any that cannot be used."""
    try:
        rows = list(csv.DictReader(path.read_text(encoding="utf-8-sig").splitlines()))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise PlanError(f"{path}: cannot be read as a CSV manifest ({e})") from None
    if not rows or "video" not in rows[0]:
        raise PlanError(
            f"{path}: a manifest needs a header row with a video column ({','.join(MANIFEST_COLUMNS)})"
        )
    for line, row in enumerate(rows, start=2):
        where = f"{path}: line {line}"
        cell = {k.strip().lower(): (v or "").strip() for k, v in row.items() if k is not None}
        if not cell.get("video"):
            raise PlanError(f"{where}: the video cell is empty")
        video = (path.parent / cell["video"]).resolve()
        if not video.is_file():
            raise PlanError(f"{where}: video {video} not found")
        spec = defaults.spec
        if cell.get("game"):
            spec = specs.get(cell["game"]) or _game(cell["game"], where)
            specs[spec.id] = spec
        if spec is None:
            raise PlanError(f"{where}: no game; fill the game column or pass --game")
        players = defaults.players
        if cell.get("players"):
            players = tuple(p.strip() for p in cell["players"].split(";") if p.strip())
        calibration = (path.parent / cell["calibration"]) if cell.get("calibration") else defaults.calibration
        yield _checked(video, spec, players, calibration, where)


def _game(game_id: str, where: str) -> GameSpec:
    try:
        return game(game_id)
    except UnknownGameError as e:
        raise PlanError(f"{where}: {e}") from None


def _probe(request: ItemRequest) -> ReviewItem:
    """The item, with what a quick look at the file says (a file that cannot be opened is left to its
    worker, which reports it as that video's failure)."""
    try:
        source = FrameSource(request.video)
        frames, fps = source.frame_count, source.fps
    except SourceError:
        frames, fps = None, None
    return ReviewItem(
        request.video,
        request.spec,
        request.players,
        request.calibration,
        request.video.stat().st_size,
        frames,
        fps,
    )
