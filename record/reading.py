"""Reading the record: the lines of a match as recorded, and where a video run goes on from.

``seq`` numbers the lines after the header from 1, so line ``seq`` is line ``seq + 1`` of the exported file.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from arbiter import contract as c
from record.database import Connection, RecordError

# Lines a camera sees: what a video run re-detects when it is run again, and what ``resume_point`` follows.
CAMERA_TYPES: frozenset[str] = frozenset(
    cls.TYPE for cls in (c.ShotStart, c.BallBall, c.Cushion, c.Pot, c.OffTable, c.PinDown, c.ShotEnd, c.Roll)
)


@dataclass(frozen=True)
class LineRow:
    """One recorded line with its bookkeeping: ``seq`` (1-based after the header) and when it was stored."""

    seq: int
    type: str
    t: float | None
    text: str
    recorded_at: datetime

    @property
    def line(self) -> c.JsonLine:
        return c.parse_line(self.text, self.seq + 1)


class Reading(Connection):
    """The lines of a match, as recorded."""

    def rows(self, match_id: int, after: int = 0) -> list[LineRow]:
        """The recorded lines with ``seq`` greater than ``after``, in order (a dashboard polls with it)."""
        self.header(match_id)  # raises for an unknown match
        return [
            LineRow(seq, type_, t, text, datetime.fromisoformat(at))
            for seq, type_, t, text, at in self._read(
                "SELECT seq, type, t, json, recorded_at FROM lines "
                "WHERE match_id = ? AND seq > ? ORDER BY seq",
                (match_id, after),
            )
        ]

    def lines(self, match_id: int, after: int = 0) -> list[c.JsonLine]:
        """The lines after the header (events, inputs, decisions), in the order recorded."""
        try:
            return [row.line for row in self.rows(match_id, after)]
        except c.ContractError as e:
            raise RecordError(f"{self.path}, match {match_id}: {e}") from None

    def texts(self, match_id: int) -> list[str]:
        """Every line of the match's stream as recorded, the header first: the JSON Lines export."""
        return [self.header_text(match_id), *(row.text for row in self.rows(match_id))]

    def resume_point(self, match_id: int) -> float | None:
        """The ``t`` of the last recorded camera event, or None before any: where a video run goes on from.

        Player inputs and decisions do not count: a camera run that resumes re-detects camera events only.
        """
        self.header(match_id)
        marks = ",".join("?" * len(CAMERA_TYPES))
        rows = self._read(
            f"SELECT t FROM lines WHERE match_id = ? AND type IN ({marks}) AND t IS NOT NULL "
            "ORDER BY seq DESC LIMIT 1",
            (match_id, *sorted(CAMERA_TYPES)),
        )
        return rows[0][0] if rows else None
