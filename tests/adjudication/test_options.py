"""Options: the registry declares them, one reader checks them, and every engine accepts its declared ones."""

from __future__ import annotations

import pytest

from adjudication import options
from adjudication.engine import RuleError
from adjudication.engines import ENGINES, engine_for
from arbiter.contract import Match
from arbiter.games import GAMES, OptionKind, game

REFEREED = sorted(g for g in GAMES if g in ENGINES)
# An option that only means something beside another (buck dice: who throws first once the point is set).
NEEDS: dict[tuple[str, str], dict[str, object]] = {("buck-dice", "first"): {"point": 1}}


def _players(game_id: str) -> tuple[str, ...]:
    spec = game(game_id)
    return tuple("ABCD"[: max(spec.min_players, 2 if spec.max_players is None else spec.max_players)])


@pytest.mark.parametrize("game_id", REFEREED)
def test_every_engine_accepts_each_declared_option_at_its_default(game_id: str) -> None:
    spec = game(game_id)
    players = _players(game_id)
    for option in spec.options:
        value = players[0] if option.kind is OptionKind.PLAYER else option.default
        if value is None:
            continue
        given = {option.name: value, **NEEDS.get((game_id, option.name), {})}
        header = Match(game=game_id, players=players, options=given)
        engine_for(spec).start(header)  # raises if the engine does not know the option or its default


@pytest.mark.parametrize("game_id", REFEREED)
def test_every_engine_refuses_an_undeclared_option(game_id: str) -> None:
    header = Match(game=game_id, players=_players(game_id), options={"no_such_option": 1})
    with pytest.raises(ValueError, match="no_such_option"):
        engine_for(game(game_id)).start(header)


@pytest.mark.parametrize(
    ("game_id", "given", "message"),
    [
        ("pig", {"target": 0}, "pig option target must be an integer >= 1 .got 0."),
        ("pig", {"target": True}, "must be an integer"),
        ("pyramid", {"target": 9}, "an integer 1..8"),
        ("pyramid", {"variant": "moscow"}, "one of free, combined, dynamic"),
        ("five-pins", {"contact_mm": -1}, "a number >= 0"),
        ("poker-dice", {"straights": "yes"}, "true or false"),
        ("high-dice", {"banker": "Z"}, "one of the players A, B"),
        ("thirteen", {"shifted_die": ""}, "a non-empty string"),
        ("pig", {"colour": "red"}, "pig has no option 'colour'; its options: target"),
    ],
)
def test_a_bad_option_says_what_is_allowed(game_id: str, given: dict, message: str) -> None:
    header = Match(game=game_id, players=("A", "B"), options=given)
    with pytest.raises(RuleError, match=message):
        options.read_all(game(game_id), header)


def test_defaults_fill_what_is_not_given() -> None:
    header = Match(game="high-dice", players=("A", "B"))
    assert options.read_all(game("high-dice"), header) == {
        "banker": "A",
        "extra_throws": 0,
        "stake": 1,
        "rounds": None,
    }


@pytest.mark.parametrize(("game_id", "players"), [("four-dice", 3), ("liar", 1), ("snooker", 3)])
def test_the_number_of_players_is_checked(game_id: str, players: int) -> None:
    header = Match(game=game_id, players=tuple("ABCD"[:players]))
    with pytest.raises(RuleError, match="is played by"):
        options.check_players(game(game_id), header)
