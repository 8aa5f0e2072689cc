"""``EventScore``'s whole-shot pot verdict: potted or not, and which ball in which pocket, right per shot."""

from __future__ import annotations

from arbiter import contract as c
from evaluation.scoring import EventScore

POT = c.Pot(t=2.0, ball="red:1", pocket="tl")


def _shots_pots_right(*shots: tuple[list[object], list[object]]) -> float:
    score = EventScore.new()
    for truth, found in shots:
        score.add(truth, found)
    return score.as_dict()["shots_pots_right"]


def test_a_shot_is_right_only_when_its_pots_are_exactly_the_true_ones() -> None:
    assert _shots_pots_right(([POT], [POT])) == 1.0
    assert _shots_pots_right(([], [])) == 1.0  # nothing potted, nothing called
    assert _shots_pots_right(([POT], [])) == 0.0  # missed
    assert _shots_pots_right(([], [POT])) == 0.0  # a false pot
    assert _shots_pots_right(([POT], [c.Pot(t=2.0, ball="red:1", pocket="tr")])) == 0.0  # wrong pocket
    assert _shots_pots_right(([POT], [POT, c.Pot(t=3.0, ball="blue", pocket="bl")])) == 0.0  # one too many
    assert _shots_pots_right(([POT], [POT]), ([], [POT])) == 0.5


def test_a_pot_is_judged_by_the_ball_s_kind_and_the_pocket() -> None:
    """A red potted is a red potted, whichever red the tracker's numbering followed; another colour or
    another pocket is not the true pot."""
    assert _shots_pots_right(([POT], [c.Pot(t=2.0, ball="red:7", pocket="tl")])) == 1.0
    assert _shots_pots_right(([POT], [c.Pot(t=2.0, ball="pink", pocket="tl")])) == 0.0
    assert (
        _shots_pots_right(([c.Pot(t=2.0, ball="9", pocket="tl")], [c.Pot(t=2.0, ball="1", pocket="tl")]))
        == 0.0
    )
    score = EventScore.new()
    score.add([POT], [c.Pot(t=2.1, ball="red:3", pocket="tl")])
    assert score.as_dict()["events"]["pocket"]["precision"] == 1.0
