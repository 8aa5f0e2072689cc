"""Small helpers shared by the dice engines: the rules they cite, turn order, the faces of a roll, and the
checks of a throw that a camera can see (who threw, how many dice lay on the table, which were thrown).

Options are not read here: the registry declares them (``arbiter.games``) and ``adjudication.options`` reads
them for every engine.

The throw checks return ``None`` when the throw is fine, or one sentence saying what was wrong and what the
rules ask. Each engine decides what a failed check costs (a foul decision that voids the throw, or
``RuleError``) and its game's page says so; the reason strings below keep the foul names the same across
engines.

Turn order: players sit in header order and play passes to the left, which is the next name in the header
(the texts' "по часовой стрелке"), wrapping round.

This module's API is read by every dice engine; keep it stable (add, do not change).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import Field, dataclass, replace
from typing import Any, ClassVar, Protocol, TypeVar

from adjudication.engine import RuleError
from arbiter.contract import Decision, Foul, JsonLine, Roll


class _Counted(Protocol):
    """An engine's state as ``void_throw`` sees it: a dataclass with a count of decisions and a score."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def shot(self) -> int: ...

    @property
    def score(self) -> Mapping[str, int]: ...


_State = TypeVar("_State", bound=_Counted)
_Reason = TypeVar("_Reason", bound=str)

# Reason strings (``Foul.reason``) of the throw fouls common to dice games.
OUT_OF_TURN = "out_of_turn"  # a roll by a player whose throw it is not
WRONG_DICE = "wrong_dice"  # the roll does not show the number of dice the game throws
DIE_NOT_THROWN = "die_not_thrown"  # a die that had to be thrown lay still
KEPT_DIE_THROWN = "kept_die_thrown"  # a die that had to stay kept was thrown again
EXTRA_THROW = "extra_throw"  # a throw beyond those the turn allows


# --- the rules a decision cites ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    """A rule a decision cites: the game by its own name and the rule's number on the game's page
    (docs/games/<id>.md, where a referee at the table can read it), with a few words saying what it is.
    ``standard`` names the governing or standard text the page's rule is taken from, where there is one
    (the casino pass line, classic Yacht), so that the citation names it too.
    """

    game: str
    number: int
    gist: str
    standard: str = ""

    @property
    def ref(self) -> str:
        """``Pig rule 4``, or ``Craps rule 2, the casino pass line``: for a note that says what happened."""
        ref = f"{self.game} rule {self.number}"
        return f"{ref}, {self.standard}" if self.standard else ref

    def __str__(self) -> str:
        """``Pig rule 4 (a one loses the turn's total)``: a foul's ``rule``."""
        return f"{self.ref} ({self.gist})"


# --- turn order ------------------------------------------------------------------------------------------


def left_of(players: Sequence[str], player: str, *, out: Collection[str] = ()) -> str:
    """The next player to the left of ``player`` (header order, wrapping) who is not ``out``.

    ``player`` itself comes last, so with everyone else out it is the answer; ``ValueError`` when everyone,
    ``player`` included, is out.
    """
    i = players.index(player)
    n = len(players)
    for k in range(1, n + 1):
        p = players[(i + k) % n]
        if p not in out:
            return p
    raise ValueError(f"every player is out ({', '.join(players)})")


def rotated(players: Sequence[str], first: str) -> tuple[str, ...]:
    """The players in turn order starting from ``first``."""
    i = players.index(first)
    return (*players[i:], *players[:i])


def nearest_to(players: Sequence[str], after: str, among: Collection[str]) -> str:
    """Of ``among``, the player nearest to the left of ``after`` (``after`` itself last)."""
    for p in (*rotated(players, after)[1:], after):
        if p in among:
            return p
    raise ValueError(f"none of {', '.join(among)} is a player")


# --- a roll ----------------------------------------------------------------------------------------------


def faces(roll: Roll) -> tuple[int, ...]:
    """The face of every die on the table, in the roll's order."""
    return tuple(d.value for d in roll.dice)


def face_of(roll: Roll) -> dict[str, int]:
    """Die id -> face."""
    return {d.id: d.value for d in roll.dice}


def kept_ids(roll: Roll) -> tuple[str, ...]:
    """The dice on the table that this throw did not move."""
    return tuple(d.id for d in roll.dice if d.id not in roll.thrown)


# --- checks of a throw (None: fine; else what was wrong) -------------------------------------------------


def wrong_thrower(roll: Roll, expected: str) -> str | None:
    if roll.player == expected:
        return None
    return f"{roll.player} threw out of turn: the throw is {expected}'s"


def wrong_count(roll: Roll, count: int) -> str | None:
    """The roll must show exactly ``count`` dice."""
    if len(roll.dice) == count:
        return None
    return f"the game throws {count} dice, the roll shows {len(roll.dice)}"


def not_all_thrown(roll: Roll) -> str | None:
    """Every die on the table must have been thrown."""
    still = kept_ids(roll)
    if not still:
        return None
    return f"all {len(roll.dice)} dice are thrown together; {', '.join(still)} did not move"


def kept_rethrown(roll: Roll, kept: Collection[str]) -> str | None:
    """No die of ``kept`` (dice the player set aside) may have been thrown."""
    again = [d for d in roll.thrown if d in kept]
    if not again:
        return None
    return f"kept dice may not be thrown again; {', '.join(again)} moved"


def first_problem(checks: Iterable[tuple[_Reason, str | None]]) -> tuple[_Reason, str] | None:
    """The first ``(reason, why)`` of ``checks`` whose check failed (``why`` not None), or None when all
    passed; ``checks`` pairs each foul reason with the result of its check above."""
    for reason, why in checks:
        if why is not None:
            return reason, why
    return None


def whole_throw_problem(roll: Roll, count: int, thrower: str | None = None) -> tuple[str, str] | None:
    """Why ``roll`` cannot be a throw of all ``count`` dice together (by ``thrower``, when given), as
    ``(foul reason, sentence)``: ``OUT_OF_TURN``, ``WRONG_DICE`` or ``DIE_NOT_THROWN``, checked in that
    order; None when it can."""
    checks = [] if thrower is None else [(OUT_OF_TURN, wrong_thrower(roll, thrower))]
    checks += [(WRONG_DICE, wrong_count(roll, count)), (DIE_NOT_THROWN, not_all_thrown(roll))]
    return first_problem(checks)


# --- a void throw ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FoulRule:
    """What a throw foul costs (``penalty``; 0 where the rules name none) and the rule it breaks (``rule``),
    as an engine's ``FOULS`` table maps each foul reason."""

    penalty: int
    rule: Rule


def void_throw(
    state: _State,
    roll: Roll,
    reason: str,
    rule: FoulRule,
    why: str,
    *,
    next_player: str | None,
    note: str = "throw void",
    **fields: Any,
) -> tuple[_State, tuple[Decision, ...]]:
    """A throw voided by a foul: the engine's ``state`` (a dataclass with ``shot`` and ``score``) with the
    shot counted and nothing else changed, and the one decision saying so.

    The decision names ``roll.player``, the foul (``reason`` with ``rule``'s penalty and rule), the unchanged
    score, ``next_player`` and the note ``"{note}: {why}"``; ``fields`` sets any other decision field the
    engine shows on every decision (``on``, ``awaiting``).
    """
    state = replace(state, shot=state.shot + 1)
    decision = Decision(
        shot=state.shot,
        player=roll.player,
        foul=Foul(reason=str(reason), penalty=rule.penalty, rule=str(rule.rule)),
        score=state.score,
        next=next_player,
        notes=(f"{note}: {why}",),
        **fields,
    )
    return state, (decision,)


def turn_decision(
    state: Any, player: str, notes: Iterable[str], points: Mapping[str, int] | None = None, **fields: Any
) -> Decision:
    """The decision on a legal throw or turn, read from the engine's ``state`` after it: its ``shot``,
    ``score``, ``on_turn`` (as ``next``), ``over`` and ``winner``; ``points`` when the step scored, and
    ``fields`` for any other decision field (``on``)."""
    if points is not None:
        fields["points"] = points
    return Decision(
        shot=state.shot,
        player=player,
        score=state.score,
        next=state.on_turn,
        over=state.over,
        winner=state.winner,
        notes=tuple(notes),
        **fields,
    )


# --- lines an engine cannot use --------------------------------------------------------------------------


def check_player(game: str, players: Sequence[str], event: JsonLine) -> None:
    """``RuleError`` when the line's ``player`` is not in the match (the stream reader checks this too)."""
    player = getattr(event, "player", None)
    if player is not None and player not in players:
        raise RuleError(f"{game}: {event.TYPE}.player {player!r} is not a player ({', '.join(players)})")


def not_now(game: str, event: JsonLine, accepted: str) -> RuleError:
    """The error for a line that cannot be used at this point: what came and what would be accepted."""
    who = getattr(event, "player", None)
    by = f" by {who}" if who else ""
    return RuleError(f"{game}: a {event.TYPE!r} line{by} cannot be used now; accepted now: {accepted}")


def game_over(game: str, event: JsonLine, winner: str | None) -> RuleError:
    result = f"{winner} won" if winner else "it ended"
    return RuleError(f"{game}: the game is over ({result}); the {event.TYPE!r} line after it cannot be used")


__all__ = [
    "DIE_NOT_THROWN",
    "EXTRA_THROW",
    "KEPT_DIE_THROWN",
    "OUT_OF_TURN",
    "WRONG_DICE",
    "FoulRule",
    "Rule",
    "check_player",
    "face_of",
    "faces",
    "first_problem",
    "game_over",
    "kept_ids",
    "kept_rethrown",
    "left_of",
    "nearest_to",
    "not_all_thrown",
    "not_now",
    "rotated",
    "turn_decision",
    "void_throw",
    "whole_throw_problem",
    "wrong_count",
    "wrong_thrower",
]
