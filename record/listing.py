"""Listing the record's matches, as ``arbiter matches`` and the dashboard's history show them.

Status: a match is ``running`` from ``start_match`` until ``finish``; a running match whose writer process
no longer exists is listed as ``interrupted`` (``record.writer_process``). ``score`` and ``winner`` come from
the last decision recorded.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from arbiter import contract as c
from record.database import Connection, parse_time
from record.writer_process import writer_alive

Status = Literal["running", "finished", "interrupted"]


@dataclass(frozen=True)
class MatchInfo:
    """One match of the record, as ``arbiter matches`` lists it.

    ``score`` and ``winner`` come from the last decision recorded (None before any); ``lines`` counts the
    lines after the header, events, inputs and decisions alike.
    """

    id: int
    game: str
    players: tuple[str, ...]
    source: str | None
    started_at: datetime
    status: Status
    lines: int
    score: Mapping[str, int] | None
    winner: str | None
    over: bool = False
    finished_at: datetime | None = None
    updated_at: datetime | None = None


class Listing(Connection):
    """The matches of the record, with their status and last score."""

    def info(self, match_id: int) -> MatchInfo:
        """One match as ``matches()`` lists it."""
        found = self._infos("WHERE m.id = ?", (match_id,))
        if not found:
            raise self._no_match(match_id)
        return found[0]

    def matches(self) -> list[MatchInfo]:
        """Every match, oldest first."""
        return self._infos("", ())

    def _infos(self, where: str, params: tuple[Any, ...]) -> list[MatchInfo]:
        rows = self._read(
            "SELECT m.id, m.game, m.players, m.source, m.started_at, m.updated_at, m.finished_at, m.status, "
            "m.writer, (SELECT count(*) FROM lines l WHERE l.match_id = m.id), "
            "(SELECT json FROM lines l WHERE l.match_id = m.id AND l.type = 'decision' "
            f"ORDER BY l.seq DESC LIMIT 1) FROM matches m {where} ORDER BY m.id",
            params,
        )
        out: list[MatchInfo] = []
        for mid, game, players, source, started, updated, finished, status, writer, n, last in rows:
            if (
                status == "running"
                and mid not in self._writing
                and not writer_alive(json.loads(writer) if writer else None)
            ):
                status = "interrupted"
            decision = json.loads(last) if last else {}
            score = decision.get("score")
            out.append(
                MatchInfo(
                    id=mid,
                    game=game,
                    players=tuple(json.loads(players)),
                    source=source,
                    started_at=datetime.fromisoformat(started),
                    status=status,
                    lines=n,
                    score=c.FrozenMap(score) if isinstance(score, dict) else None,
                    winner=decision.get("winner"),
                    over=bool(decision.get("over", False)),
                    finished_at=parse_time(finished),
                    updated_at=parse_time(updated),
                )
            )
        return out
