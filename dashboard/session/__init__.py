"""The dashboard's controller: everything the page does, without Streamlit.

The page (``dashboard/app.py``) lays out what this package returns and calls what it offers; nothing here
imports Streamlit, so it is tested directly. It holds no vision and no rules either (docs/style.md, point 9):
it calls what the command line calls. One module per part of the desk:

- ``setup``: a new match: the game and its options as typed widgets from the registry's ``OptionSpec``s,
  the players, the source;
- ``calibration``: the table found on the first frame (``vision.calibration.calibrate_auto``) or fitted to
  corners clicked on the frame or typed (``calibrate_manual``), as ``arbiter calibrate``;
- ``inputs``: what a camera cannot see (a nominated ball, a called pocket, a choice, a dice claim), a line
  of the contract tried on the engine before it is recorded;
- ``run``: a video run in a background thread (``pipeline.billiards.referee_video``, as ``arbiter run``, or
  ``pipeline.dice.referee_dice_video``), recorded as it goes, so a stopped run keeps what it recorded;
- ``team``: the timekeeper's desk of a team match: the lines its buttons record, its board at a moment;
- ``view``: the match as the page shows it: the timeline with each call and its rule, the scoreboard;
- ``corrections``: the correction form, a line's fields from the game's own vocabulary;
- ``override_store``: the corrections kept beside the record, in its own file;
- ``desk``: the ``Desk`` that composes them: one record, its runs, inputs, corrections and exports.
"""

from __future__ import annotations

from dashboard.session.calibration import (
    CORNER_NAMES,
    CORNERS,
    CalibrationPreview,
    CornerClicks,
    calibrate,
    first_frame,
    mark_corners,
    parse_point,
    table_sizes,
    table_spec,
)
from dashboard.session.corrections import FieldKind, LineField, line_fields, line_from_fields, line_types
from dashboard.session.desk import BOOT_S, Desk
from dashboard.session.inputs import input_kinds, make_input, parse_input_line
from dashboard.session.override_store import OverrideStore
from dashboard.session.run import FRAME_EVERY_S, READER_DOUBT, PipelineRun, Progress
from dashboard.session.setup import (
    DEFAULT_DB,
    SAMPLE_SHOT,
    SAMPLE_VIDEO,
    SOURCE_KINDS,
    DeskError,
    Setup,
    dice_video_available,
    game_options,
    games,
    is_billiards,
    option_default,
    option_value,
    options_from_form,
    parse_players,
    source_spec,
    spec_of,
)
from dashboard.session.team import (
    OUT_PLACES,
    T_PLACES,
    DeskState,
    TeamRow,
    desk_state,
    is_team,
    out_xy,
    pitch_m,
    refusals,
    stamp,
    team_line,
)
from dashboard.session.view import DecisionRow, MatchView, Scoreboard, TimelineRow, build_view, rules_text
from pipeline.table_watch import Notice
from record.store import RecordError

__all__ = [
    "BOOT_S",
    "CORNERS",
    "CORNER_NAMES",
    "DEFAULT_DB",
    "FRAME_EVERY_S",
    "OUT_PLACES",
    "READER_DOUBT",
    "SAMPLE_SHOT",
    "SAMPLE_VIDEO",
    "SOURCE_KINDS",
    "T_PLACES",
    "CalibrationPreview",
    "CornerClicks",
    "DecisionRow",
    "Desk",
    "DeskError",
    "DeskState",
    "FieldKind",
    "LineField",
    "MatchView",
    "Notice",
    "OverrideStore",
    "PipelineRun",
    "Progress",
    "RecordError",
    "Scoreboard",
    "Setup",
    "TeamRow",
    "TimelineRow",
    "build_view",
    "calibrate",
    "desk_state",
    "dice_video_available",
    "first_frame",
    "game_options",
    "games",
    "input_kinds",
    "is_billiards",
    "is_team",
    "line_fields",
    "line_from_fields",
    "line_types",
    "make_input",
    "mark_corners",
    "option_default",
    "option_value",
    "options_from_form",
    "out_xy",
    "parse_input_line",
    "parse_players",
    "parse_point",
    "pitch_m",
    "refusals",
    "rules_text",
    "source_spec",
    "spec_of",
    "stamp",
    "table_sizes",
    "table_spec",
    "team_line",
]
