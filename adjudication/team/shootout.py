"""Futsal kicks from the penalty mark (procedures to determine the winner; FIFA 2021/22 Law 10).

The teams kick alternately, the first kick's team first (the coin toss is before the stream). Five kicks
each, stopped as soon as one team has scored more than the other could with all its remaining kicks; then
one kick each until one team has scored and the other not, from the same number of kicks. Goals here do
not count in the match score.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from adjudication.engine import RuleError
from arbiter.contract import FrozenMap

ROUNDS = 5


@dataclass(frozen=True, slots=True)
class Shootout:
    teams: tuple[str, str]
    first: str | None = None
    kicks: FrozenMap[str, int] = field(default_factory=FrozenMap)
    goals: FrozenMap[str, int] = field(default_factory=FrozenMap)

    def due(self) -> str | None:
        """The team to kick next (None: either, before the first kick)."""
        if self.first is None:
            return None
        second = self.teams[1] if self.first == self.teams[0] else self.teams[0]
        return self.first if self.kicks.get(self.first, 0) == self.kicks.get(second, 0) else second

    def kick(self, team: str, good: bool) -> Shootout:
        due = self.due()
        if due is not None and team != due:
            raise RuleError(
                f"futsal: it is {due}'s kick from the penalty mark, not {team}'s (kicks alternate)"
            )
        first = self.first or team
        kicks = FrozenMap({t: self.kicks.get(t, 0) + (t == team) for t in self.teams})
        goals = FrozenMap({t: self.goals.get(t, 0) + (t == team and good) for t in self.teams})
        return replace(self, first=first, kicks=kicks, goals=goals)

    def winner(self) -> str | None:
        a, b = self.teams
        ka, kb = self.kicks.get(a, 0), self.kicks.get(b, 0)
        ga, gb = self.goals.get(a, 0), self.goals.get(b, 0)
        if ka <= ROUNDS and kb <= ROUNDS:
            if ga > gb + (ROUNDS - kb):
                return a
            if gb > ga + (ROUNDS - ka):
                return b
            return None
        if ka == kb and ga != gb:
            return a if ga > gb else b
        return None
