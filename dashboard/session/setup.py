"""A new match: the game and its options as the game's own registry declares them, the players, the source.

The options form is built from ``GameSpec.options`` (``arbiter.games.OptionSpec``: kind, default, range,
choices, help), so a referee picks values from widgets instead of typing JSON; what the widgets hold comes
back here (``options_from_form``) to be checked against the same specs, and only what differs from the rules'
default goes into the header, so a form left alone starts the match exactly as ``arbiter referee`` would.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjudication.engines import refereed
from adjudication.referee import Referee
from arbiter import contract as c
from arbiter.games import (
    GAME_IDS,
    BilliardsSpec,
    DiceSpec,
    GameSpec,
    OptionKind,
    OptionSpec,
    UnknownGameError,
    game,
)

DEFAULT_DB = Path("out/arbiter.db")
SAMPLE_SHOT = Path(__file__).resolve().parents[2] / "samples" / "billiards" / "snooker" / "shot_000"
SAMPLE_VIDEO = SAMPLE_SHOT / "video.mp4"
SOURCE_KINDS: Mapping[str, str] = {
    "sample": "the bundled sample clip",
    "upload": "upload a video",
    "file": "a video file on this machine",
    "camera": "a camera (index)",
    "rtsp": "a stream (rtsp:// URL)",
    "folder": "a folder of a video's frames",
    "manual": "no video: enter the events by hand",
}


class DeskError(ValueError):
    """Something the page asked that cannot be done: the message says what was wrong and what to do."""


def games() -> tuple[str, ...]:
    """Every game Arbiter referees (a rule engine exists), billiards first, in the contract's order."""
    return tuple(g for g in GAME_IDS if refereed(game(g)))


def spec_of(game_id: str) -> GameSpec:
    """The registry's spec of a game the desk referees; ``DeskError`` naming them for any other id."""
    try:
        spec = game(game_id)
    except UnknownGameError:
        spec = None
    if spec is None or not refereed(spec):
        raise DeskError(f"unknown game {game_id!r}; choose one of {', '.join(games())}")
    return spec


def is_billiards(game_id: str) -> bool:
    return isinstance(game(game_id), BilliardsSpec)


def dice_video_available() -> bool:
    """Whether this installation reads dice from video (``pipeline.dice``, as ``arbiter dice run``)."""
    return True


def game_options(game_id: str) -> tuple[OptionSpec, ...]:
    """The header options the game's engine reads, as the registry declares them (the form's widgets)."""
    return game(game_id).options


def parse_players(text: str) -> tuple[str, ...]:
    players = tuple(p.strip() for p in text.replace(";", ",").split(",") if p.strip())
    if not players:
        raise DeskError("name the players, in turn order, separated by commas (A, B)")
    if len(set(players)) != len(players):
        raise DeskError(f"each player's name must differ (got {', '.join(players)})")
    return players


# --- the options form ------------------------------------------------------------------------------------


def option_default(option: OptionSpec, players: Sequence[str]) -> Any:
    """What the rules use when the option is not given (a ``player`` option: the first player)."""
    if option.kind is OptionKind.PLAYER and option.default is None:
        return players[0] if players else None
    return option.default


def _plain(value: Any) -> Any:
    """JSON's view of a value, so that a default tuple equals the list a JSON box gives back."""
    return json.loads(json.dumps(value)) if value is not None else None


def _in_range(option: OptionSpec, number: float) -> None:
    low, high = option.minimum, option.maximum
    if (low is not None and number < low) or (high is not None and number > high):
        if low is not None and high is not None:
            span = f"{low:g}..{high:g}"
        else:
            span = f"at least {low:g}" if low is not None else f"at most {high:g}"
        raise DeskError(f"{option.name} must be {span} (got {number:g}): {option.help}")


def _number(option: OptionSpec, raw: Any) -> int | float:
    try:
        number = float(raw)
    except (TypeError, ValueError):
        raise DeskError(f"{option.name} must be a number (got {raw!r}): {option.help}") from None
    if not math.isfinite(number):
        raise DeskError(f"{option.name} must be a finite number (got {raw!r})")
    if option.kind is OptionKind.INT and not number.is_integer():
        raise DeskError(f"{option.name} must be a whole number (got {raw!r}): {option.help}")
    _in_range(option, number)
    return int(number) if option.kind is OptionKind.INT else number


def _json(option: OptionSpec, text: str) -> Any:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DeskError(f"{option.name} must be a JSON list or object ({exc.msg}): {option.help}") from None
    if not isinstance(value, list | dict):
        raise DeskError(f"{option.name} must be a JSON list or object (got {text.strip()}): {option.help}")
    return value


def option_value(option: OptionSpec, raw: Any, players: Sequence[str]) -> Any:
    """The header value of what the option's widget holds; None for a widget left empty."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    kind = option.kind
    if kind in (OptionKind.INT, OptionKind.NUMBER):
        return _number(option, raw)
    if kind is OptionKind.BOOL:
        return bool(raw)
    if kind is OptionKind.CHOICE and raw not in option.choices:
        raise DeskError(f"{option.name} must be one of {', '.join(map(str, option.choices))} (got {raw!r})")
    if kind is OptionKind.PLAYER and raw not in players:
        raise DeskError(f"{option.name} must be one of the players {', '.join(players)} (got {raw!r})")
    if kind is OptionKind.JSON:
        return _json(option, str(raw))
    return str(raw).strip() if kind is OptionKind.TEXT else raw


def options_from_form(spec: GameSpec, values: Mapping[str, Any], players: Sequence[str]) -> dict[str, Any]:
    """The header options of what the form's widgets hold (``{name: widget value}``), each checked against
    its ``OptionSpec``; only values that differ from the rules' default are kept."""
    out: dict[str, Any] = {}
    for option in spec.options:
        value = option_value(option, values.get(option.name), players)
        if value is not None and _plain(value) != _plain(option_default(option, players)):
            out[option.name] = value
    return out


@dataclass(frozen=True)
class Setup:
    """What a new match is: the game, the players in turn order, the header options, and for a video run
    the detector, the camera profile (None: found automatically) and whether to write ``annotated.mp4``.

    ``table_size`` is ``arbiter run --table`` (a size of the game's catalogue; None: the run tells it from
    the balls), ``corners`` is ``--corners`` (the four playing-area corners in frame pixels, clicked or
    typed; None: the table is found automatically or from ``calibration``). ``unsure_below`` is ``arbiter dice
    run --unsure-below`` (a dice reading whose face holds less of the six faces' chance is unsure, and its
    throw reported instead of rolled; None: the reader's default)."""

    game: str
    players: tuple[str, ...] = ("A", "B")
    options: Mapping[str, Any] = field(default_factory=dict)
    detector: str = "classical"
    annotate: bool = True
    calibration: Path | None = None
    max_frames: int | None = None
    table_size: str | None = None
    corners: Mapping[str, tuple[float, float]] | None = None
    unsure_below: float | None = None

    def header(self) -> c.Match:
        """The match header, checked by the game's engine (unknown or bad options are refused here)."""
        spec = spec_of(self.game)
        if self.corners is not None and self.calibration is not None:
            raise DeskError("give either the corners or a camera profile, not both")
        if self.table_size is not None and not isinstance(spec, BilliardsSpec):
            raise DeskError(f"{self.game} is not played on a billiard table: it has no table size")
        if self.unsure_below is not None and not isinstance(spec, DiceSpec):
            raise DeskError(f"{self.game} has no dice to read: it has no reader's doubt")
        try:
            header = c.Match(
                game=self.game, players=self.players, options=dict(self.options), table=self.table_size
            )
            Referee(header)
        except ValueError as exc:  # RuleError included
            raise DeskError(f"{self.game}: {exc}") from None
        return header


def source_spec(kind: str, value: str = "") -> str | None:
    """The ``FrameSource`` spec for a choice of the page's source box; None for a match typed by hand."""
    value = value.strip()
    if kind == "sample":
        return str(SAMPLE_VIDEO)
    if kind == "manual":
        return None
    if kind == "camera":
        if not value.isdigit():
            raise DeskError(f"a camera is given by its index, 0 for the first (got {value!r})")
        return value
    if kind == "rtsp":
        if "://" not in value:
            raise DeskError(f"a stream is given by its URL, such as rtsp://host:554/stream (got {value!r})")
        return value
    if kind in ("file", "upload", "folder"):
        return _local_source(kind, value)
    raise DeskError(f"unknown source kind {kind!r}; one of {', '.join(SOURCE_KINDS)}")


def _local_source(kind: str, value: str) -> str:
    if not value:
        raise DeskError("give the path of the video file or image folder")
    path = Path(value).expanduser()
    if not path.exists():
        raise DeskError(f"{path}: no such file or folder on this machine")
    if kind == "folder" and not path.is_dir():
        raise DeskError(f"{path} is not a folder; choose 'a video file' for a file")
    return str(path)
