"""Mini-rugby's settings and state, and what the rules text fixes for each game (``Variant``, given by
``rugby_5`` and ``rugby_7``); the line handlers are in ``rugby``."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from adjudication.team import common
from adjudication.team.clock import Clock
from adjudication.team.discipline import Discipline
from arbiter.contract import FrozenMap, RestartDue


@dataclass(frozen=True, slots=True)
class Variant:
    """What the rules text fixes for one game beyond its options (the registry's, ``arbiter.games``)."""

    players: int  # on the ground for each team
    bench: int  # substitutes
    distance_m: float  # how far the opponents stand at a kick-off or restart kick
    restart_place: str  # where the restart kick after a score is taken, in the text's words


class Phase(StrEnum):
    BEFORE = "before"  # a half's kick-off is due (before the match, at the break)
    PLAY = "play"
    DEAD = "dead"  # the ball is dead: ``State.due`` is how play restarts
    CONVERSION = "conversion"  # after a try: the scoring team's conversion kick is due
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Settings:
    """The match options, read and checked, with the game's fixed ``Variant``."""

    game: str
    variant: Variant
    half_us: int
    break_min: float
    restart_by: str
    pitch_m: tuple[float, float]
    tolerance_us: int


@dataclass(frozen=True)
class State:
    teams: tuple[str, str]
    settings: Settings
    score: FrozenMap[str, int]
    clock: Clock
    period: int = 0
    phase: Phase = Phase.BEFORE
    played_us: int = 0
    due: RestartDue | None = None
    kick: RestartDue | None = None  # the kick-off or restart kick just taken (its rules still apply)
    scorer: str | None = None  # the team whose conversion is due
    kickers: tuple[str, ...] = ()
    discipline: Discipline = field(default_factory=Discipline)
    came_on: FrozenMap[str, frozenset[str]] = field(default_factory=FrozenMap)  # replacements used
    went_off: FrozenMap[str, frozenset[str]] = field(default_factory=FrozenMap)
    shots: int = 0
    winner: str | None = None

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def game(self) -> str:
        return self.settings.game

    def other(self, team: str) -> str:
        return common.other(self.teams, team)

    def on_court(self) -> FrozenMap[str, int]:
        return self.discipline.on_court(self.teams, self.settings.variant.players)

    def match_us(self, t: float) -> int:
        """Playing time of the whole match; between halves the first half's is already in ``played_us``."""
        between = self.phase in (Phase.BEFORE, Phase.OVER)
        return self.played_us + (0 if between else self.clock.at_us(t))
