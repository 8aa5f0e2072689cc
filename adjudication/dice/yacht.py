"""Yacht ("Морские кости", sea dice): five dice, up to three throws a turn, a score sheet of categories.

The rules this engine applies (the classic Yacht score sheet by default), its inputs, options and fouls, and
where it departs from the rules text are on the game's page, docs/games/yacht.md; decisions cite its rules as
"Yacht rule N".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from adjudication import options
from adjudication.dice import common, hands
from adjudication.dice.common import FoulRule, Rule
from adjudication.engine import Engine, RuleError
from arbiter.contract import Choose, Decision, FrozenMap, JsonLine, Match, Roll
from arbiter.games import dice

SPEC = dice("yacht")
GAME = SPEC.id
NAME = "Yacht"
MAX_THROWS = 3
ROUNDS = 12  # the text's twelve rounds: turns each player has when the sheet has as many categories
YACHT_POINTS = 50

# The rules as docs/games/yacht.md numbers them.
IN_TURN = Rule(NAME, 1, "players play in turn")
FIVE_DICE = Rule(NAME, 2, "five dice")
FIRST_THROW = Rule(NAME, 2, "a turn starts with all five dice")
KEPT_STAY = Rule(NAME, 2, "kept dice stay as they lay")
THREE_THROWS = Rule(NAME, 2, "one to three throws a turn")
CLASSIC_SCORES = Rule(NAME, 4, "the score of each category", "classic Yacht (Hoyle)")
YACHT_RULE = Rule(NAME, 5, "a yacht scores 50, a value that never changes")
OWN_VALUES = Rule(NAME, 6, "the text's own combinations, at the values the players set")
HIGHEST = Rule(NAME, 7, "the highest total wins")
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
        Reason.OUT_OF_TURN: FoulRule(0, IN_TURN),
        Reason.EXTRA_THROW: FoulRule(0, THREE_THROWS),
        Reason.WRONG_DICE: FoulRule(0, FIVE_DICE),
        Reason.DIE_NOT_THROWN: FoulRule(0, FIRST_THROW),
        Reason.KEPT_DIE_TURNED: FoulRule(0, KEPT_STAY),
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


def _categories(raw: object) -> tuple[Category, ...]:
    """The score sheet of the ``categories`` option (None: the classic twelve)."""
    if raw is None:
        return CLASSIC
    names = {c.value for c in Category}
    if (
        not isinstance(raw, list | tuple)
        or not raw
        or not all(isinstance(c, str) and c in names for c in raw)
    ):
        raise RuleError(
            f"yacht option categories must be a non-empty list of: {', '.join(Category)} (got {raw!r})"
        )
    if len(set(raw)) != len(raw):
        raise RuleError(f"yacht option categories must name each category once (got {list(raw)!r})")
    return tuple(Category(c) for c in raw)


def _scores(raw: object) -> Mapping[Category, int | str]:
    """The score table with the ``scores`` option's values (None: the defaults)."""
    if raw is None:
        return DEFAULT_SCORES
    if not isinstance(raw, Mapping):
        raise RuleError(f"yacht option scores must be an object {{category: points}} (got {raw!r})")
    table = dict(DEFAULT_SCORES)
    for name, value in raw.items():
        if name == Category.YACHT:
            raise RuleError(
                f"a yacht always scores {YACHT_POINTS}: its value never changes ({YACHT_RULE.ref})"
            )
        if name not in PATTERN:
            raise RuleError(
                f"yacht option scores may set {', '.join(PATTERN)}; {name!r} has no other reading"
            )
        fixed = isinstance(value, int) and not isinstance(value, bool) and value >= 0
        if not fixed and value not in (SUM, MATCHED):
            raise RuleError(
                f'yacht option scores[{name!r}] must be an integer >= 0, "{SUM}" or "{MATCHED}" '
                f"(got {value!r})"
            )
        table[Category(name)] = value
    return MappingProxyType(table)


def start(match: Match) -> State:
    chosen = options.read_all(SPEC, match)
    options.check_players(SPEC, match)
    categories = _categories(chosen["categories"])
    rounds = chosen["rounds"]
    if rounds is None:
        rounds = min(ROUNDS, len(categories))
    elif rounds > len(categories):  # a turn scores one category: no more turns than the sheet has
        raise RuleError(f"yacht option rounds must be an integer 1..{len(categories)} (got {rounds!r})")
    n = len(match.players)
    return State(
        players=match.players,
        categories=categories,
        rounds=rounds,
        scores=_scores(chosen["scores"]),
        turn=match.players.index(chosen["first"]),
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
        on_sheet = choose.category in state.categories
        why = "is already used" if on_sheet else "is not on the score sheet"
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
    notes = [
        f"{category} with {'-'.join(map(str, sorted(faces)))}: {points} ({_scored_by(state, category).ref})"
    ]
    if turns_done == state.rounds * len(state.players):
        best = max(totals)
        leaders = [p for p, t in zip(state.players, totals, strict=True) if t == best]
        winner = leaders[0] if len(leaders) == 1 else None
        new = replace(new, over=True, winner=winner)
        result = f"{winner} has the highest total" if winner else f"tie at {best}: {', '.join(leaders)}"
        notes.append(f"{result} ({HIGHEST.ref})")
    decision = common.turn_decision(new, player, notes, {player: points})
    return new, (decision,)


def _scored_by(state: State, category: Category) -> Rule:
    """The rule that gave ``category`` its score: the yacht's own, the classic sheet's, or the values the
    players set (and the text's categories that classic Yacht does not have)."""
    if category is Category.YACHT:
        return YACHT_RULE
    if category in PATTERN and (
        category not in CLASSIC or state.scores[category] != DEFAULT_SCORES[category]
    ):
        return OWN_VALUES
    return CLASSIC_SCORES


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    return hands.turn_step(GAME, state, event, on_roll=_roll, end=Choose, on_end=_choose)


ENGINE = Engine(game=GAME, start=start, step=step)
