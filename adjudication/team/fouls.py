"""Futsal fouls: which free kick a foul gives, and where (Law 12-15 with the accumulated fouls of Law 14).

Accumulated fouls are the direct-free-kick offences of Law 12 (``foul.kind`` ``direct`` and ``handling``),
counted per team and period. The first five of a period give a direct free kick at the place of the foul
(a wall allowed); from the sixth on, a direct free kick without a wall from the second penalty mark, or,
for a foul in the offender's own half nearer its goal line than the 10 m line, from the second penalty
mark or the place of the foul, as the kicking team chooses (Law 14). A direct-free-kick offence inside the
offender's own penalty area is a penalty whatever the count (Law 12, 15). In extra time the count of the
second half goes on (Law 14).
"""

from __future__ import annotations

from collections.abc import Mapping

from adjudication.team import laws
from adjudication.team.pitch import SECOND_MARK_M, XY, Pitch
from adjudication.team.restarts import Ruling, indirect, other_team
from arbiter.contract import FoulLine, RestartDue, TeamCall

ACCUMULATED_KINDS: frozenset[str] = frozenset({"direct", "handling"})
WALL_FOULS = 5  # accumulated fouls per period with a wall; the sixth and later have none (Law 14)


def counts(kind: str) -> bool:
    return kind in ACCUMULATED_KINDS


def direct_free_kick(pitch: Pitch, ends: Mapping[str, int], foul: FoulLine, xy: XY, count: int) -> Ruling:
    """The kick for an accumulated foul, ``count`` being the offender's accumulated fouls with this one."""
    kicker = other_team(ends, foul.team)
    own_end = ends[foul.team]
    if pitch.in_area(xy, own_end):
        why = f"{foul.team}'s accumulated foul {count}, inside its own penalty area"
        restart = RestartDue("penalty", kicker, pitch.penalty_mark(own_end))
        return Ruling(TeamCall.PENALTY, laws.futsal(15), restart, foul.kind, notes=(why,), added_time=True)
    if count > WALL_FOULS:
        return _sixth_foul(pitch, foul, kicker, own_end, xy, count)
    notes = [f"{foul.team}'s accumulated foul {count} of the period"]
    if count == WALL_FOULS:
        notes.append("fifth accumulated foul: the timekeeper signals it; the next is a kick without a wall")
    if pitch.in_area(xy, 1 - own_end):
        notes.append("from anywhere inside the kicking team's penalty area (clarification 2006 to Law 9)")
    restart = RestartDue("free_kick_direct", kicker, xy)
    return Ruling(TeamCall.FOUL, laws.futsal(12), restart, foul.kind, notes=tuple(notes))


def _sixth_foul(pitch: Pitch, foul: FoulLine, kicker: str, own_end: int, xy: XY, count: int) -> Ruling:
    mark = RestartDue("second_penalty_mark", kicker, pitch.second_mark(own_end))
    notes = [f"{foul.team}'s accumulated foul {count} of the period: a direct free kick without a wall"]
    also: tuple[RestartDue, ...] = ()
    if pitch.depth(xy, own_end) < SECOND_MARK_M:
        also = (RestartDue("free_kick_direct", kicker, xy),)
        notes.append(f"{kicker} may take it from the second penalty mark or from the place of the foul")
    return Ruling(TeamCall.SIXTH_FOUL, laws.futsal(14), mark, foul.kind, also, tuple(notes), added_time=True)


def indirect_free_kick(pitch: Pitch, ends: Mapping[str, int], foul: FoulLine, xy: XY) -> Ruling:
    """An indirect free kick to the other team (Law 12: the goalkeeper's offences, dangerous play,
    obstruction, play stopped only for a card; Law 13 with the four seconds of a goalkeeper in possession)."""
    kicker = other_team(ends, foul.team)
    call = TeamCall.FOUR_SECONDS if foul.kind == "four_seconds" else TeamCall.FOUL
    if foul.kind == "misconduct":
        call = TeamCall.MISCONDUCT
    return indirect(pitch, ends, kicker, xy, call, laws.futsal(12), foul.kind)
