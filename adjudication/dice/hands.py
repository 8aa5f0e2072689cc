"""Poker hands of five dice, ranked and compared: the one table behind poker dice, Indian dice, liar dice and
bluff (each game's page, docs/games/<id>.md, gives the ranking as that game uses it).

Ranks, lowest first: nothing, one pair, two pairs, three of a kind, straight (only where a game counts
straights; Hoyle places it between three of a kind and a full house), full house, four of a kind, five of a
kind. The Russian poker-dice text's list leaves out three of a kind; it is ranked as in every poker game (see
docs/games/poker-dice.md).

Comparison (the poker-dice text): a higher hand wins; between equal hands the one whose *combination* shows
more points wins ("four queens beat four tens"); between two hands with no combination the higher sum of all
five dice wins. Odd dice beside the combination (kickers) are not compared: the text says that players whose
combinations are equal on points play a game between themselves, so two such hands tie. How "more points"
reads for hands of two parts follows the poker convention, since the text gives only the one-part example: a
full house by its three then its pair, two pairs by the higher pair then the lower.

Faces 1..6 stand for the six faces of poker dice, nine to ace, in the same order.

``throw_problem`` checks the throws that build a five-dice hand over several throws (poker dice, Indian dice,
yacht): the first throw is all five dice, a later one moves some of the same five and leaves the others as
they lay. ``turn_step`` and ``check_turn_end`` are the step those games share: a turn of rolls ended by one
line of the player on turn (a stop, a choose).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any, TypeVar

from adjudication.dice import common
from adjudication.engine import RuleError
from arbiter.contract import Decision, JsonLine, Roll

_State = TypeVar("_State")
_End = TypeVar("_End", bound=JsonLine)

DICE_IN_HAND = 5
KEPT_DIE_TURNED = "kept_die_turned"  # foul reason: a die that was not thrown shows another face


class Hand(StrEnum):
    NOTHING = "nothing"
    PAIR = "pair"
    TWO_PAIRS = "two_pairs"
    THREE_OF_A_KIND = "three_of_a_kind"
    STRAIGHT = "straight"
    FULL_HOUSE = "full_house"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FIVE_OF_A_KIND = "five_of_a_kind"


# Hand -> rank, higher beats lower (Hoyle places a straight between three of a kind and a full house).
RANK: Mapping[Hand, int] = MappingProxyType({hand: i for i, hand in enumerate(Hand)})

# The two runs of five faces that make a straight where a game counts them: little (1-5) and big (2-6).
STRAIGHTS: frozenset[tuple[int, ...]] = frozenset({(1, 2, 3, 4, 5), (2, 3, 4, 5, 6)})


@dataclass(frozen=True, order=True)
class Ranked:
    """A hand's rank and the points compared between equal hands; ordered so that ``max`` is the best."""

    rank: int
    points: tuple[int, ...]
    hand: Hand

    def describe(self) -> str:
        """Short human text such as ``full_house 5-2`` or ``nothing (sum 17)``."""
        if self.hand is Hand.NOTHING:
            return f"nothing (sum {self.points[0]})"
        return f"{self.hand} {'-'.join(str(p) for p in self.points)}"


def rank_hand(values: Sequence[int], *, straights: bool = False) -> Ranked:
    """The hand five dice make. ``straights``: whether 1-5 and 2-6 count (otherwise they are nothing)."""
    if len(values) != DICE_IN_HAND or not all(isinstance(v, int) and 1 <= v <= 6 for v in values):
        raise ValueError(f"a hand is five dice with faces 1..6 (got {list(values)!r})")
    counts = Counter(values)
    # faces grouped by how many show them, most first, higher face first within a group
    groups = sorted(counts.items(), key=lambda fc: (fc[1], fc[0]), reverse=True)
    shape = tuple(c for _, c in groups)
    faces = tuple(f for f, _ in groups)
    if shape == (5,):
        hand, points = Hand.FIVE_OF_A_KIND, faces[:1]
    elif shape == (4, 1):
        hand, points = Hand.FOUR_OF_A_KIND, faces[:1]
    elif shape == (3, 2):
        hand, points = Hand.FULL_HOUSE, faces[:2]
    elif straights and tuple(sorted(values)) in STRAIGHTS:
        hand, points = Hand.STRAIGHT, (max(values),)
    elif shape == (3, 1, 1):
        hand, points = Hand.THREE_OF_A_KIND, faces[:1]
    elif shape == (2, 2, 1):
        hand, points = Hand.TWO_PAIRS, faces[:2]
    elif shape == (2, 1, 1, 1):
        hand, points = Hand.PAIR, faces[:1]
    else:
        hand, points = Hand.NOTHING, (sum(values),)
    return Ranked(RANK[hand], points, hand)


def best_of(hands: Mapping[str, Ranked]) -> tuple[str, ...]:
    """The players holding the best hand, in the mapping's order (more than one: a tie)."""
    top = max(hands.values())
    return tuple(p for p, r in hands.items() if r == top)


def worst_of(hands: Mapping[str, Ranked]) -> tuple[str, ...]:
    """The players holding the worst hand, in the mapping's order (more than one: a tie)."""
    bottom = min(hands.values())
    return tuple(p for p, r in hands.items() if r == bottom)


def throw_problem(roll: Roll, held: Iterable[tuple[str, int]]) -> tuple[str, str] | None:
    """Why ``roll`` cannot be the next throw of a hand, as ``(foul reason, sentence)``; None when it can.

    ``held`` is the hand before this throw, ``(die id, face)`` each, empty before the hand's first throw.
    Which dice a game lets the player throw again is the game's own check.
    """
    before = dict(held)
    if not before:
        return common.whole_throw_problem(roll, DICE_IN_HAND)
    shown = {d.id for d in roll.dice}
    if shown != set(before):
        return (
            common.WRONG_DICE,
            f"the hand is {', '.join(sorted(before))}; the roll shows {', '.join(sorted(shown))}",
        )
    turned = [d.id for d in roll.dice if d.id not in roll.thrown and d.value != before[d.id]]
    if turned:
        return KEPT_DIE_TURNED, f"{', '.join(turned)} was not thrown but shows another face"
    return None


def throws_text(n: int | None) -> str:
    """A count of throws for a note: ``1 throw``, ``3 throws``."""
    return f"{n} throw" + ("" if n == 1 else "s")


def check_turn_end(game: str, line: JsonLine, player: str, throws: int, doing: str) -> None:
    """``RuleError`` unless ``line``, the line that ends a turn (a stop, a choose), is by ``player``, who is
    on turn, after at least one throw of the turn (``throws``); ``doing`` says what the line does once the
    player has thrown ("stands on a hand after throwing it")."""
    if getattr(line, "player", None) != player:
        raise common.not_now(game, line, f"a roll or {line.TYPE} by {player}")
    if throws == 0:
        raise RuleError(f"{game}: {player} {doing} (0 throws so far); accepted: a roll")


def turn_step(
    game: str,
    state: _State,
    event: JsonLine,
    *,
    on_roll: Callable[[_State, Roll], tuple[_State, tuple[Decision, ...]]],
    end: type[_End],
    on_end: Callable[[_State, _End], tuple[_State, tuple[Decision, ...]]],
) -> tuple[_State, tuple[Decision, ...]]:
    """The step of a game whose turns are rolls of a hand ended by an ``end`` line (a stop, a choose):
    ``RuleError`` once the game is over or for a line of another type, else ``on_roll`` or ``on_end``.

    ``state`` has ``over``, ``winner``, ``players``, ``on_turn`` and ``throws`` (made this turn)."""
    st: Any = state
    if st.over:
        raise common.game_over(game, event, st.winner)
    common.check_player(game, st.players, event)
    if isinstance(event, Roll):
        return on_roll(state, event)
    if isinstance(event, end):
        return on_end(state, event)
    raise common.not_now(
        game, event, f"a roll by {st.on_turn}" + (f" or its {end.TYPE}" if st.throws else "")
    )


__all__ = [
    "DICE_IN_HAND",
    "KEPT_DIE_TURNED",
    "RANK",
    "STRAIGHTS",
    "Hand",
    "Ranked",
    "best_of",
    "check_turn_end",
    "rank_hand",
    "throw_problem",
    "throws_text",
    "turn_step",
    "worst_of",
]
