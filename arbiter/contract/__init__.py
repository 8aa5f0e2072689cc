"""The event and decision contract (docs/architecture.md, schema v1): value types and their JSON Lines form.

Every stage boundary after tracking speaks this contract, so it is the one place where untrusted text becomes
typed values. Three layers, each stricter than the last:

- a value type checks its own fields when it is built (``Cushion(side="up")`` raises ``ValueError``), so
  whatever an engine or tracker builds can be written and read back; ``to_json`` never writes a line that
  ``parse_line`` rejects;
- ``parse_line`` turns one line of text into one value and reports anything wrong as ``ContractError`` with
  the line number, what was wrong and what was expected; unknown extra fields are ignored so that older
  readers keep working on newer writers' output;
- ``iter_stream`` / ``read_stream`` add the rules of a whole stream: a match header first (and only there),
  times that never go backwards, player names from the header.

Writing: one compact line per value, keys in the order of architecture.md, optional fields omitted when
empty. Floats are rounded so files are stable and diffable: times to 1e-6 s (``TIME_PLACES``), which is far
below a frame (about 1e-2 s at 100 fps); millimetres to 0.01 mm (``MM_PLACES``), far below calibration error;
pitch metres to 0.01 m (``M_PLACES``).
So ``from_json(to_json(v)) == v`` holds for every value given at that precision, and
``to_json(from_json(to_json(v))) == to_json(v)`` for every value.

The package, by what it holds: ``fields`` (errors, frozen containers, field checks, ``Record`` and
``JsonLine``), ``match`` (the header), ``billiards``, ``dice``, ``team`` (their events and inputs),
``decision``, ``stream`` (``LINE_TYPES``, reading and writing). A new line type is a frozen dataclass
subclassing ``JsonLine`` with a ``TYPE``, in the module of its family, listed in ``stream.LINE_TYPES``.
"""

from __future__ import annotations

from arbiter.contract.billiards import (
    CHOICE_OPTIONS,
    BallBall,
    Call,
    Choice,
    Concede,
    Cushion,
    Declare,
    OffTable,
    PinDown,
    Pot,
    ShotEnd,
    ShotStart,
)
from arbiter.contract.decision import (
    Decision,
    Foul,
    Respot,
)
from arbiter.contract.dice import (
    DIE_FACES,
    HAND_DICE,
    Bet,
    Challenge,
    Choose,
    Claim,
    Die,
    Op,
    Operation,
    Roll,
    Stop,
)
from arbiter.contract.fields import (
    M_PLACES,
    MM_PLACES,
    OMIT_EMPTY,
    OPTIONAL_SECONDS,
    SCHEMA_VERSION,
    SECONDS,
    TIME_PLACES,
    ContractError,
    Fields,
    FrozenMap,
    JsonLine,
    Record,
    freeze,
)
from arbiter.contract.match import (
    Match,
)
from arbiter.contract.stream import (
    LINE_TYPES,
    Event,
    append_event,
    from_json,
    iter_numbered,
    iter_stream,
    parse_line,
    read_events,
    read_stream,
    to_json,
    write_events,
)
from arbiter.contract.team import (
    CARDS,
    FOUL_KINDS,
    FUTSAL_RESTARTS,
    KICK_KINDS,
    OUT_LINES,
    RESTART_KINDS,
    RUGBY_RESTARTS,
    TEAM_CALLS,
    TEAM_LINES,
    WHISTLE_REASONS,
    BallOut,
    FoulLine,
    Goal,
    KickAtGoal,
    Kickoff,
    Restart,
    RestartDue,
    Substitution,
    TeamCall,
    Timeout,
    Try,
    Whistle,
    player_team,
)

__all__ = [
    "CARDS",
    "CHOICE_OPTIONS",
    "DIE_FACES",
    "FOUL_KINDS",
    "FUTSAL_RESTARTS",
    "HAND_DICE",
    "KICK_KINDS",
    "LINE_TYPES",
    "MM_PLACES",
    "M_PLACES",
    "OMIT_EMPTY",
    "OPTIONAL_SECONDS",
    "OUT_LINES",
    "RESTART_KINDS",
    "RUGBY_RESTARTS",
    "SCHEMA_VERSION",
    "SECONDS",
    "TEAM_CALLS",
    "TEAM_LINES",
    "TIME_PLACES",
    "WHISTLE_REASONS",
    "BallBall",
    "BallOut",
    "Bet",
    "Call",
    "Challenge",
    "Choice",
    "Choose",
    "Claim",
    "Concede",
    "ContractError",
    "Cushion",
    "Decision",
    "Declare",
    "Die",
    "Event",
    "Fields",
    "Foul",
    "FoulLine",
    "FrozenMap",
    "Goal",
    "JsonLine",
    "KickAtGoal",
    "Kickoff",
    "Match",
    "OffTable",
    "Op",
    "Operation",
    "PinDown",
    "Pot",
    "Record",
    "Respot",
    "Restart",
    "RestartDue",
    "Roll",
    "ShotEnd",
    "ShotStart",
    "Stop",
    "Substitution",
    "TeamCall",
    "Timeout",
    "Try",
    "Whistle",
    "append_event",
    "freeze",
    "from_json",
    "iter_numbered",
    "iter_stream",
    "parse_line",
    "player_team",
    "read_events",
    "read_stream",
    "to_json",
    "write_events",
]
