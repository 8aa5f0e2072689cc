"""The verdict every calibration carries: sure, or unsure with its reasons, through the camera profile."""

from __future__ import annotations

import pytest

from vision.table_verdict import CalibrationVerdict, Doubt, Note, Reason

HIDDEN = Reason(Doubt.HIDDEN_BY_GRAPHIC, "the side at the image's bottom runs along a graphic")
CONVENTION = Reason(Note.BOTTOM_BY_CONVENTION, "no one-ended marking")


def test_a_verdict_is_sure_unless_it_holds_a_doubt() -> None:
    assert CalibrationVerdict().sure
    assert CalibrationVerdict(notes=(CONVENTION,)).sure
    assert not CalibrationVerdict(doubts=(HIDDEN,)).sure


def test_doubts_and_notes_are_sorted_out_once_each() -> None:
    verdict = CalibrationVerdict.of([CONVENTION, HIDDEN, HIDDEN])
    assert verdict.doubts == (HIDDEN,) and verdict.notes == (CONVENTION,)


@pytest.mark.parametrize(("doubts", "notes"), [((CONVENTION,), ()), ((), (HIDDEN,))])
def test_a_note_is_no_doubt_and_a_doubt_no_note(doubts, notes) -> None:
    with pytest.raises(ValueError, match="holds"):
        CalibrationVerdict(doubts, notes)


def test_the_message_says_why_and_what_to_do() -> None:
    message = CalibrationVerdict(doubts=(HIDDEN,)).message()
    assert "UNSURE" in message and HIDDEN.detail in message and "--points" in message
    assert CalibrationVerdict(notes=(CONVENTION,)).message().startswith("the calibration is sure")


def test_a_verdict_round_trips_through_its_dict() -> None:
    verdict = CalibrationVerdict((HIDDEN,), (CONVENTION,))
    assert CalibrationVerdict.from_dict(verdict.to_dict()) == verdict
    assert verdict.to_dict()["sure"] is False


def test_a_kind_that_is_both_a_doubt_and_a_note_round_trips_as_what_it_was() -> None:
    """An end placed from a marking is a note where the middle pockets confirm it, else a doubt: the
    same name, kept apart by where the profile holds it."""
    for verdict in (
        CalibrationVerdict(notes=(Reason(Note.END_FROM_MARKING, "confirmed"),)),
        CalibrationVerdict(doubts=(Reason(Doubt.END_FROM_MARKING, "not confirmed"),)),
    ):
        assert CalibrationVerdict.from_dict(verdict.to_dict()) == verdict
