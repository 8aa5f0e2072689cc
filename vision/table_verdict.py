"""Whether an automatic calibration can be trusted, and why not: a verdict travels with every calibration.

A calibration that is wrong by a few percent puts every ball in the wrong place and every pot in the wrong
pocket, so the finder never guesses silently. Each doubt is a ``Doubt`` (what went wrong, as an enum a
caller can switch on) with a sentence saying where and by how much; one doubt makes the calibration unsure.
Notes (``Note``) say what was assumed without making it unsure: the bottom end by convention, the game's
own table size when the balls could not be measured. An unsure calibration is used only with a loud warning
(``vision.calibration.warn_if_unsure``); typed points (``calibrate_manual``) are the way round it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Doubt(StrEnum):
    """Why a calibration is unsure."""

    LITTLE_CLOTH = "little_cloth"  # the cloth covers too little of the frame to be the table in view
    SIDE_UNSUPPORTED = "side_unsupported"  # too little of a side's outline lies on its line: hidden or bent
    CORNER_OUTSIDE = "corner_outside"  # a corner lies well outside the frame: it is extrapolated
    CUT_BY_FRAME = "cut_by_frame"  # a side runs along the frame's edge: the table may go on beyond it
    HIDDEN_BY_GRAPHIC = "hidden_by_graphic"  # a side runs along a graphic (score bar, logo) over the view
    NOSES_NOT_SEEN = "noses_not_seen"  # the cushion noses were seen on fewer than two sides
    ASPECT = "aspect"  # the table's measured shape is not a billiard table's
    SHAPE = "shape"  # the catalogue table's shape does not fit the corners found (another table?)
    EDGES_DISAGREE = "edges_disagree"  # the cushion edges pull the camera far from the corners found
    FAR_END = "far_end"  # a corner is seen too small (px per share of the length) to be placed well enough
    MIDDLE_POCKETS = "middle_pockets"  # the middle pockets are not half-way between the corners found
    # An end not seen (cut by the frame, under a graphic) placed from the middle pockets: a pocket's middle
    # is read to ~0.5 % of the length, which the placed end's corners carry two to three times over.
    END_FROM_POCKETS = "end_from_pockets"
    # An end not seen placed from a one-ended marking (snooker's baulk line) that the middle pockets do not
    # confirm (not seen, or not half-way); or such a marking nearer its end than the corners put it.
    END_FROM_MARKING = "end_from_marking"
    MARKING_OFF = "marking_off"
    # The balls measure a catalogue size other than the game's own but too near it to tell them apart
    # (``table_geometry.TELL_APART``): the game's own size is taken, and a wrong one would misplace
    # every ball and spot by the sizes' ratio.
    SIZE_TOO_CLOSE = "size_too_close"
    # No balls could be measured in a view that would show their size (an empty table, a rack of touching
    # balls) and the game is played on tables of several sizes: the game's own is taken, and a wrong one
    # would misplace every ball and spot. A video is calibrated again on later frames, where balls are.
    SIZE_UNMEASURED = "size_unmeasured"
    # The balls measure no catalogue size (``table_geometry.SIZE_MISFIT`` from the nearest): a ball misread
    # (a cue ball 27 % small under a cue's tip, the rack unmeasurable beside it) or a table of no catalogue
    # size; the nearest is taken, its spots and pockets off by as much.
    SIZE_NEAREST = "size_nearest"
    # No catalogue table's shape fits the corners found from above (``calibration.SURE_WITHIN``): the table
    # is taken as one of its own shape, as long as the balls' size says and as wide as the corners (a toy
    # or home table; or corners misfound, which its own shape then fits: said, never sure).
    OWN_SHAPE = "own_shape"
    # From above, one side lies far less inside the cloth's outline than the others (its cushion top's or a
    # rail's edge taken for the nose): the four cushions of a table are one width.
    SHORT_INSET = "short_inset"


class Note(StrEnum):
    """What a calibration assumed, without being unsure of it."""

    BOTTOM_BY_CONVENTION = "bottom_by_convention"  # no one-ended marking told the ends apart
    SIZE_ASSUMED = "size_assumed"  # a view too oblique to measure balls in: the game's own (match) size taken
    SIZE_NEAREST = "size_nearest"  # the balls fit no catalogue size: a doubt now; read in older profiles
    EDGE_FIT_SKIPPED = "edge_fit_skipped"  # the cushion edges could not refine the corners' camera
    EDGES_CORRECTED = "edges_corrected"  # the cushion edges moved the corners, for a reason the finder knew
    TYPED_POINTS = "typed_points"  # fitted to points a person typed
    END_FROM_MARKING = (
        "end_from_marking"  # an end not seen placed from a marking, the middle pockets agreeing
    )


@dataclass(frozen=True)
class Reason:
    """One doubt or note: what, and a sentence with the figures."""

    kind: Doubt | Note
    detail: str

    def to_dict(self) -> dict[str, str]:
        return {"kind": str(self.kind), "detail": self.detail}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], kinds: type[Doubt] | type[Note]) -> Reason:
        """``kinds``: whether ``d`` was kept as a doubt or a note (some kinds are both, e.g. an end placed
        from a marking: a note where the middle pockets confirm it, a doubt where they do not)."""
        return cls(kinds(str(d["kind"])), str(d.get("detail", "")))


@dataclass(frozen=True)
class CalibrationVerdict:
    """Sure unless it holds a doubt."""

    doubts: tuple[Reason, ...] = ()
    notes: tuple[Reason, ...] = ()

    def __post_init__(self) -> None:
        if any(not isinstance(r.kind, Doubt) for r in self.doubts):
            raise ValueError("CalibrationVerdict.doubts holds Doubt reasons only")
        if any(not isinstance(r.kind, Note) for r in self.notes):
            raise ValueError("CalibrationVerdict.notes holds Note reasons only")

    @property
    def sure(self) -> bool:
        return not self.doubts

    @classmethod
    def of(cls, reasons: Iterable[Reason]) -> CalibrationVerdict:
        """Doubts and notes sorted out of one list, each reason once."""
        seen: dict[tuple[str, str], Reason] = {}
        for r in reasons:
            seen.setdefault((str(r.kind), r.detail), r)
        found = list(seen.values())
        return cls(
            tuple(r for r in found if isinstance(r.kind, Doubt)),
            tuple(r for r in found if isinstance(r.kind, Note)),
        )

    def message(self) -> str:
        """One paragraph for a person: sure or not, and why."""
        if self.sure:
            head = "the calibration is sure"
            return head + (f" ({'; '.join(r.detail for r in self.notes)})" if self.notes else "")
        why = "; ".join(r.detail for r in self.doubts)
        return (
            f"the calibration is UNSURE: {why}. Check the drawn table (arbiter calibrate writes it) or type "
            "the corners: arbiter calibrate SOURCE --game GAME --points 'bl=x,y;br=x,y;tl=x,y;tr=x,y'"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "sure": self.sure,
            "doubts": [r.to_dict() for r in self.doubts],
            "notes": [r.to_dict() for r in self.notes],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> CalibrationVerdict:
        return cls(
            tuple(Reason.from_dict(r, Doubt) for r in d.get("doubts", ())),
            tuple(Reason.from_dict(r, Note) for r in d.get("notes", ())),
        )
