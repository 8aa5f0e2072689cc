"""Futsal restarts: what the ball going out gives, which restarts may score directly, the four seconds.

Pure functions of the pitch and the ends: each returns a ``Ruling`` (the restart due, the law, what the
decision calls it) for the engine to apply. ``ends`` maps each team to the end it defends this period.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from adjudication.team import laws
from adjudication.team.pitch import XY, Pitch
from arbiter.contract import BallOut, RestartDue, TeamCall

FOUR_SECONDS_S = 4.0  # Law 12, 13, 16, 17, 18: the ball must be played within four seconds

# Restarts from which a goal may be scored directly against the opponents (an own goal never counts
# directly: a corner to the opponents). the rules text: kick-off Правило 8, kick-in 16, goal clearance 17,
# corner 18, free kicks 12/13, penalty 15, second penalty mark 14. The text is silent on a dropped ball;
# FIFA 2021/22 Law 8: it must touch two players, else a goal clearance (or a corner for an own goal).
SCORES_DIRECTLY: Mapping[str, bool] = MappingProxyType(
    {
        "kick_off": True,
        "kick_in": False,
        "corner": True,
        "goal_clearance": False,
        "free_kick_direct": True,
        "free_kick_indirect": False,
        "penalty": True,
        "second_penalty_mark": True,
        "dropped_ball": False,
    }
)
DIRECT_GOAL_LAW: Mapping[str, str] = MappingProxyType(
    {
        "kick_off": laws.FUTSAL_KICK_OFF,
        "kick_in": laws.futsal(16),
        "corner": laws.futsal(18),
        "goal_clearance": laws.futsal(17),
        "free_kick_direct": laws.futsal(12),
        "free_kick_indirect": laws.futsal(12),
        "penalty": laws.futsal(15),
        "second_penalty_mark": laws.futsal(14),
        "dropped_ball": laws.futsal(9, fifa_only=True),
    }
)
# Restarts taken because the ball went over a line: the four seconds count from then when the stream gives
# no ``ready_t``. Free kicks are counted from ``ready_t`` only (placing the ball takes longer than that).
COUNTED_FROM_OUT: frozenset[str] = frozenset({"kick_in", "corner", "goal_clearance"})
FOUR_SECOND_LAW: Mapping[str, str] = MappingProxyType(
    {
        "kick_in": laws.futsal(16),
        "goal_clearance": laws.futsal(17),
        "corner": laws.futsal(18),
        "free_kick_direct": laws.futsal(13),
        "free_kick_indirect": laws.futsal(13),
        "second_penalty_mark": laws.futsal(13),
    }
)


@dataclass(frozen=True, slots=True)
class Ruling:
    """A restart the law gives, why, and the other restarts the kicking team may choose instead."""

    call: TeamCall
    law: str
    restart: RestartDue
    reason: str = ""  # the ``Foul.reason`` when a foul gave it
    also: tuple[RestartDue, ...] = ()
    notes: tuple[str, ...] = ()
    added_time: bool = False  # a kick for which the period is extended (Law 14, 15)


def other_team(ends: Mapping[str, int], team: str) -> str:
    return next(t for t in ends if t != team)


def defender_of(ends: Mapping[str, int], end: int) -> str:
    return next(t for t, e in ends.items() if e == end)


def indirect_place(pitch: Pitch, xy: XY, kicker_end: int) -> tuple[XY, str | None]:
    """Where an indirect free kick to the team defending ``kicker_end`` is taken (Law 12, 13)."""
    attacked = 1 - kicker_end
    if pitch.in_area(xy, attacked):
        return pitch.area_line_point(xy, attacked), "on the penalty-area line nearest the offence"
    if pitch.in_area(xy, kicker_end):
        return xy, "from anywhere inside its own penalty area (clarification 2006 to Law 9)"
    return xy, None


def indirect(
    pitch: Pitch, ends: Mapping[str, int], kicker: str, xy: XY, call: TeamCall, law: str, reason: str
) -> Ruling:
    place, note = indirect_place(pitch, xy, ends[kicker])
    return Ruling(
        call, law, RestartDue("free_kick_indirect", kicker, place), reason, notes=(note,) if note else ()
    )


def ball_out(pitch: Pitch, ends: Mapping[str, int], line: BallOut) -> Ruling:
    """Law 16-18 (and Law 10 for the ceiling): a kick-in, a goal clearance or a corner."""
    other = other_team(ends, line.last)
    if line.line == "touch":
        return Ruling(
            TeamCall.RESTART, laws.futsal(16), RestartDue("kick_in", other, pitch.touch_point(line.xy_m))
        )
    if line.line == "ceiling":
        restart = RestartDue("kick_in", other, pitch.touch_point(line.xy_m))
        return Ruling(TeamCall.RESTART, laws.futsal(10), restart, notes=("the ball hit the ceiling",))
    end = pitch.end_of(line.xy_m)
    defender = defender_of(ends, end)
    if line.last == defender:
        corner = RestartDue("corner", other_team(ends, defender), pitch.corner(line.xy_m, end))
        return Ruling(TeamCall.RESTART, laws.futsal(18), corner)
    return Ruling(TeamCall.RESTART, laws.futsal(17), RestartDue("goal_clearance", defender))


def direct_goal(ends: Mapping[str, int], taken: RestartDue, credited: str) -> Ruling | None:
    """None when a goal straight from ``taken`` counts; else the restart instead (Law 11 with 8, 16-18)."""
    law = DIRECT_GOAL_LAW[taken.kind]
    if taken.team is not None and credited != taken.team:
        why = f"an own goal straight from a {taken.kind} does not count: a corner to {credited}"
        return Ruling(TeamCall.GOAL_DISALLOWED, law, RestartDue("corner", credited), notes=(why,))
    if SCORES_DIRECTLY[taken.kind]:
        return None
    defender = other_team(ends, credited)
    why = f"no goal may be scored directly from a {taken.kind}: a goal clearance to {defender}"
    return Ruling(TeamCall.GOAL_DISALLOWED, law, RestartDue("goal_clearance", defender), notes=(why,))


def four_seconds(pitch: Pitch, ends: Mapping[str, int], due: RestartDue, taker: str) -> Ruling:
    """The sanction when ``taker`` does not play ``due`` within four seconds (Law 13, 16, 17, 18)."""
    other = other_team(ends, taker)
    law = FOUR_SECOND_LAW[due.kind]
    why = f"{taker} took more than {FOUR_SECONDS_S:g} s over the {due.kind}"
    if due.kind == "kick_in":
        return Ruling(
            TeamCall.FOUR_SECONDS, law, RestartDue("kick_in", other, due.xy_m), "four_seconds", notes=(why,)
        )
    if due.kind == "goal_clearance":
        own_end = ends[taker]
        place = None if due.xy_m is None else pitch.area_line_point(due.xy_m, own_end)
        restart = RestartDue("free_kick_indirect", other, place)
        return Ruling(TeamCall.FOUR_SECONDS, law, restart, "four_seconds", notes=(why,))
    if due.kind == "corner":
        # the rules text Правило 18: a free kick from the corner arc (FIFA 2021/22: a goal clearance)
        restart = RestartDue("free_kick_indirect", other, due.xy_m)
        return Ruling(TeamCall.FOUR_SECONDS, law, restart, "four_seconds", notes=(why,))
    if due.xy_m is None:
        return Ruling(
            TeamCall.FOUR_SECONDS, law, RestartDue("free_kick_indirect", other), "four_seconds", notes=(why,)
        )
    ruling = indirect(pitch, ends, other, due.xy_m, TeamCall.FOUR_SECONDS, law, "four_seconds")
    return Ruling(ruling.call, law, ruling.restart, "four_seconds", notes=(why, *ruling.notes))


def dropped_ball(pitch: Pitch, xy: XY | None) -> RestartDue:
    """Law 9: where the ball was, or on the penalty-area line nearest it when it was inside an area."""
    if xy is None:
        return RestartDue("dropped_ball", None)
    for end in (0, 1):
        if pitch.in_area(xy, end):
            return RestartDue("dropped_ball", None, pitch.area_line_point(xy, end))
    return RestartDue("dropped_ball", None, pitch.clamp(xy))
