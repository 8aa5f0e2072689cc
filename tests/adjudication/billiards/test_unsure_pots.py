"""A pot the camera marked unsure (architecture.md, ``pocket.unsure``): every engine counts it as a pot and
says so in the decision's notes, and a sure pot is decided byte for byte as before."""

from __future__ import annotations

import pytest

from adjudication.referee import referee
from arbiter.contract import BallBall, Decision, Match, Pot, ShotEnd, ShotStart, to_json

SHOTS = {
    # game: (cue ball, object ball, pocket, positions after)
    "snooker": ("white", "red:1", "tl", {"white": (900.0, 700.0)}),
    "pyramid": ("cue", "1", "tl", {"cue": (700.0, 700.0)}),
}


def decide(game: str, unsure: bool) -> Decision:
    cue, ball, pocket, positions = SHOTS[game]
    lines = [
        Match(game=game, players=("A", "B")),
        ShotStart(t=1.0, ball=cue),
        BallBall(t=1.2, balls=(cue, ball)),
        Pot(t=1.5, ball=ball, pocket=pocket, unsure=unsure),
        ShotEnd(t=3.0, positions=positions),
    ]
    (decision,) = [d for r in referee([to_json(x) for x in lines]) for d in r.decisions]
    return decision


@pytest.mark.parametrize("game", sorted(SHOTS))
def test_an_unsure_pot_counts_and_is_noted(game: str) -> None:
    sure, unsure = decide(game, False), decide(game, True)
    assert not any("unsure" in n for n in sure.notes)
    note = [n for n in unsure.notes if "unsure" in n]
    assert len(note) == 1 and SHOTS[game][1] in note[0] and "check it" in note[0]
    assert unsure.points == sure.points and unsure.score == sure.score and unsure.next == sure.next
    assert unsure.notes[: len(sure.notes)] == sure.notes
