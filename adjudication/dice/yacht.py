"""Yacht, "Морские кости" (seed 000 line 97; rules-notes section 6 for the score table the text leaves out).

Five dice, twelve rounds (the text). On a turn the player has up to three throws: the first throws all five
dice, each later one throws any of them again and leaves the rest lying (the text: keep the good part, throw
the others; it does not forbid throwing again a die kept earlier, and Hoyle allows it). After one, two or
three throws the player scores the dice in a category not yet used (``choose``); a category whose pattern the
dice do not make scores 0. After every player has had ``rounds`` turns the highest total wins; a tie leaves
``winner`` null.

The text names the combinations (Яхта, Каре, Фул, Большой/Малый спринт, Тройка, Пара) and says players may set
their values as they like, except the yacht's, which never changes, but it gives no table. The default game is
therefore the classic twelve-category Yacht of Hoyle (rules-notes 6), whose twelve categories match the text's
twelve rounds: ``ones`` .. ``sixes`` (the face times how many show it), ``full_house`` (3 + 2, a yacht is not
one; the sum of the dice), ``four_of_a_kind`` (the four matching dice), ``little_straight`` 1-5 (30),
``big_straight`` 2-6 (30), ``choice`` (the sum) and ``yacht`` (five alike, 50). The text's ``three_of_a_kind``
(the three matching dice) and ``pair`` (the highest pair) can be added through ``categories``.

Inputs: ``roll`` (the throws) and ``choose`` (``{"type":"choose","player":"A","category":"full_house"}``).

Options:
- ``first`` (a player, default the first in the header): who plays first.
- ``categories`` (list of category names, default the classic twelve above): the score sheet.
- ``rounds`` (int, default 12 from the text, or the number of categories when there are fewer): turns each
  player has; at most the number of categories.
- ``scores`` (object, default none): the players' own values, the text's "players may change the values":
  ``{category: points}`` where points is an integer (a fixed score when the pattern is made), ``"sum"`` (the
  sum of all five dice) or ``"matched"`` (the sum of the dice that make the pattern), for ``pair``,
  ``three_of_a_kind``, ``four_of_a_kind``, ``full_house``, ``little_straight`` and ``big_straight``. The yacht
  stays 50 (the text); the number categories and ``choice`` have no other reading.

Decisions: one per ``choose`` (``points`` the category's score, ``score`` the totals), and one per void throw.

Fouls: a void throw, penalty 0 (the text names none): a roll by a player not on turn (``out_of_turn``), a
fourth throw (``extra_throw``), a first throw that is not five dice all thrown (``wrong_dice``,
``die_not_thrown``), a later throw that shows other dice than the turn's five (``wrong_dice``) or a kept die
on another face (``kept_die_turned``). ``RuleError``: a ``choose`` by a player not on turn, before any throw,
of a category not on the sheet or already used, and lines of any other type.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from adjudication.dice import common, hands
from adjudication.dice.common import FoulRule
from adjudication.engine import Engine, RuleError
from arbiter.contract import Choose, Decision, FrozenMap, JsonLine, Match, Roll

GAME = "yacht"
RULE = "seed 000 Морские кости (l.97)"
TABLE_RULE = "rules-notes 6 (Hoyle, exercism yacht)"
MAX_THROWS = 3
DEFAULT_ROUNDS = 12
YACHT_POINTS = 50
SUM = "sum"
MATCHED = "matched"


class Category(StrEnum):
    ONES = "ones"
    TWOS = "twos"
    THREES = "threes"
    FOURS = "fours"
    FIVES = "fives"
    SIXES = "sixes"
    PAIR = "pair"
    THREE_OF_A_KIND = "three_of_a_kind"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    LITTLE_STRAIGHT = "little_straight"
    BIG_STRAIGHT = "big_straight"
    CHOICE = "choice"
    YACHT = "yacht"


# the number categories: category -> the face it counts
FACE: Mapping[Category, int] = MappingProxyType(
    {
        Category.ONES: 1,
        Category.TWOS: 2,
        Category.THREES: 3,
        Category.FOURS: 4,
        Category.FIVES: 5,
        Category.SIXES: 6,
    }
)
CLASSIC: tuple[Category, ...] = (
    *FACE,
    Category.FULL_HOUSE,
    Category.FOUR_OF_A_KIND,
    Category.LITTLE_STRAIGHT,
    Category.BIG_STRAIGHT,
    Category.CHOICE,
    Category.YACHT,
)


def _of_a_kind(n: int) -> Callable[[Sequence[int]], tuple[int, ...] | None]:
    def match(dice: Sequence[int]) -> tuple[int, ...] | None:
        faces = [f for f, c in Counter(dice).items() if c >= n]
        return (max(faces),) * n if faces else None

    return match


def _full_house(dice: Sequence[int]) -> tuple[int, ...] | None:
    return tuple(dice) if sorted(Counter(dice).values()) == [2, 3] else None


def _run(faces: tuple[int, ...]) -> Callable[[Sequence[int]], tuple[int, ...] | None]:
    def match(dice: Sequence[int]) -> tuple[int, ...] | None:
        return tuple(dice) if tuple(sorted(dice)) == faces else None

    return match


# the pattern categories: category -> the dice that make the pattern, or None when the dice do not
PATTERN: Mapping[Category, Callable[[Sequence[int]], tuple[int, ...] | None]] = MappingProxyType(
    {
        Category.PAIR: _of_a_kind(2),
        Category.THREE_OF_A_KIND: _of_a_kind(3),
        Category.FOUR_OF_A_KIND: _of_a_kind(4),
        Category.FULL_HOUSE: _full_house,
        Category.LITTLE_STRAIGHT: _run((1, 2, 3, 4, 5)),
        Category.BIG_STRAIGHT: _run((2, 3, 4, 5, 6)),
    }
)
# what a made pattern scores by default (the ``scores`` option replaces entries)
DEFAULT_SCORES: Mapping[Category, int | str] = MappingProxyType(
    {
        Category.PAIR: MATCHED,
        Category.THREE_OF_A_KIND: MATCHED,
        Category.FOUR_OF_A_KIND: MATCHED,
        Category.FULL_HOUSE: SUM,
        Category.LITTLE_STRAIGHT: 30,
        Category.BIG_STRAIGHT: 30,
    }
)

OPTIONS: Mapping[str, str] = MappingProxyType(
    {
        "first": "the player who plays first",
        "categories": f"the score sheet, a list of: {', '.join(Category)}",
        "rounds": "turns each player has (1 .. the number of categories)",
        "scores": f'{{category: integer | "{SUM}" | "{MATCHED}"}} for {", ".join(PATTERN)}',
    }
)


def score(dice: Sequence[int], category: str, scores: Mapping[Category, int | str] = DEFAULT_SCORES) -> int:
    """What five dice score in ``category`` under the score table ``scores`` (the pattern categories)."""
    cat = Category(category)
    if cat in FACE:
        return FACE[cat] * sum(1 for d in dice if d == FACE[cat])
    if cat is Category.CHOICE:
        return sum(dice)
    if cat is Category.YACHT:
        return YACHT_POINTS if len(set(dice)) == 1 else 0
    made = PATTERN[cat](dice)
    if made is None:
        return 0
    value = scores[cat]
    if value == SUM:
        return sum(dice)
    if value == MATCHED:
        return sum(made)
    return int(value)


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    EXTRA_THROW = common.EXTRA_THROW
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN
    KEPT_DIE_TURNED = hands.KEPT_DIE_TURNED


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, RULE + ": players play in turn"),
        Reason.EXTRA_THROW: FoulRule(0, RULE + ": one to three throws a turn"),
        Reason.WRONG_DICE: FoulRule(0, RULE + ": five dice"),
        Reason.DIE_NOT_THROWN: FoulRule(0, RULE + ": a turn starts with all five dice"),
        Reason.KEPT_DIE_TURNED: FoulRule(0, RULE + ": kept dice stay as they lay"),
    }
)


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    categories: tuple[Category, ...]
    rounds: int
    scores: Mapping[Category, int | str]
    turn: int  # seat of the player on turn
    totals: tuple[int, ...]
    used: tuple[frozenset[Category], ...]  # by seat
    throws: int = 0  # throws made this turn
    dice: tuple[tuple[str, int], ...] = ()  # the turn's dice (id, face) after its last throw
    turns_done: int = 0
    shot: int = 0
    over: bool = False
    winner: str | None = None

    @property
    def score(self) -> Mapping[str, int]:
        return FrozenMap(zip(self.players, self.totals, strict=True))

    @property
    def on_turn(self) -> str | None:
        return None if self.over else self.players[self.turn]


def _categories(match: Match) -> tuple[Category, ...]:
    raw = match.options.get("categories", [c.value for c in CLASSIC])
    names = {c.value for c in Category}
    if (
        not isinstance(raw, list | tuple)
        or not raw
        or not all(isinstance(c, str) and c in names for c in raw)
    ):
        raise ValueError(
            f"yacht option categories must be a non-empty list of: {', '.join(Category)} (got {raw!r})"
        )
    if len(set(raw)) != len(raw):
        raise ValueError(f"yacht option categories must name each category once (got {list(raw)!r})")
    return tuple(Category(c) for c in raw)


def _scores(match: Match) -> Mapping[Category, int | str]:
    raw = match.options.get("scores", {})
    if not isinstance(raw, Mapping):
        raise ValueError(f"yacht option scores must be an object {{category: points}} (got {raw!r})")
    table = dict(DEFAULT_SCORES)
    for name, value in raw.items():
        if name == Category.YACHT:
            raise ValueError(f"a yacht always scores {YACHT_POINTS}: the text says its value never changes")
        if name not in PATTERN:
            raise ValueError(
                f"yacht option scores may set {', '.join(PATTERN)}; {name!r} has no other reading"
            )
        fixed = isinstance(value, int) and not isinstance(value, bool) and value >= 0
        if not fixed and value not in (SUM, MATCHED):
            raise ValueError(
                f'yacht option scores[{name!r}] must be an integer >= 0, "{SUM}" or "{MATCHED}" '
                f"(got {value!r})"
            )
        table[Category(name)] = value
    return MappingProxyType(table)


def start(match: Match) -> State:
    common.check_options(GAME, match, OPTIONS)
    first = common.player_option(GAME, match, "first")
    categories = _categories(match)
    rounds = common.int_option(
        GAME, match, "rounds", min(DEFAULT_ROUNDS, len(categories)), minimum=1, maximum=len(categories)
    )
    n = len(match.players)
    return State(
        players=match.players,
        categories=categories,
        rounds=rounds,
        scores=_scores(match),
        turn=match.players.index(first),
        totals=(0,) * n,
        used=(frozenset(),) * n,
    )


def _foul(state: State, roll: Roll, reason: Reason, why: str) -> tuple[State, tuple[Decision, ...]]:
    return common.void_throw(state, roll, reason, FOULS[reason], why, next_player=state.on_turn)


def _roll(state: State, roll: Roll) -> tuple[State, tuple[Decision, ...]]:
    player = state.players[state.turn]
    why = common.wrong_thrower(roll, player)
    if why is not None:
        return _foul(state, roll, Reason.OUT_OF_TURN, why)
    if state.throws == MAX_THROWS:
        why = f"{player} has thrown {MAX_THROWS} times and must choose a category"
        return _foul(state, roll, Reason.EXTRA_THROW, why)
    problem = hands.throw_problem(roll, state.dice)
    if problem is not None:
        reason, why = problem
        return _foul(state, roll, Reason(reason), why)
    dice = tuple((d.id, d.value) for d in roll.dice)
    return replace(state, dice=dice, throws=state.throws + 1, shot=state.shot + 1), ()


def _choose(state: State, choose: Choose) -> tuple[State, tuple[Decision, ...]]:
    player = state.players[state.turn]
    hands.check_turn_end(GAME, choose, player, state.throws, "chooses a category after throwing")
    open_ = [c for c in state.categories if c not in state.used[state.turn]]
    if choose.category not in open_:
        used = choose.category in state.categories
        why = "is already used" if used else "is not on the score sheet"
        raise RuleError(f"yacht: category {choose.category!r} {why}; {player} may choose: {', '.join(open_)}")
    category = Category(choose.category)
    faces = [f for _, f in state.dice]
    points = score(faces, category, state.scores)
    totals = tuple(t + points if i == state.turn else t for i, t in enumerate(state.totals))
    used = tuple(u | {category} if i == state.turn else u for i, u in enumerate(state.used))
    turns_done = state.turns_done + 1
    new = replace(
        state,
        totals=totals,
        used=used,
        throws=0,
        dice=(),
        turns_done=turns_done,
        turn=(state.turn + 1) % len(state.players),
        shot=state.shot + 1,
    )
    if category is Category.YACHT:
        rule = RULE
    elif category in PATTERN and state.scores[category] != DEFAULT_SCORES[category]:
        rule = "the match's scores option (" + RULE + ": players set the values)"
    else:
        rule = TABLE_RULE
    notes = [f"{category} with {'-'.join(map(str, sorted(faces)))}: {points} ({rule})"]
    if turns_done == state.rounds * len(state.players):
        best = max(totals)
        leaders = [p for p, t in zip(state.players, totals, strict=True) if t == best]
        winner = leaders[0] if len(leaders) == 1 else None
        new = replace(new, over=True, winner=winner)
        notes.append(f"{winner} has the highest total" if winner else f"tie at {best}: {', '.join(leaders)}")
    decision = common.turn_decision(new, player, notes, {player: points})
    return new, (decision,)


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    return hands.turn_step(GAME, state, event, on_roll=_roll, end=Choose, on_end=_choose)


ENGINE = Engine(game=GAME, start=start, step=step)
