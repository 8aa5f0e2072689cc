"""The run's notices and the table's size and corners on the page (issue 10), driven by Streamlit's AppTest:
an unsure calibration is a warning seen before any call, camera cuts stand on the timeline at their times,
and a video match is started on the table size chosen and the corners typed, as ``arbiter run --table
--corners`` does."""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path
from typing import Any

from arbiter import contract as c
from dashboard import session as s
from dashboard.session import run as session_run
from pipeline.billiards import RunOptions, RunResult
from tests.dashboard import apptest

SAMPLE_CORNERS = {"bl": "86, 74", "br": "86, 628", "tl": "1219, 82", "tr": "1204, 649"}
NOTICES = (
    {"t": 0.0, "kind": "unsure", "text": "the calibration is UNSURE: a cushion is hidden by a score bar"},
    {"t": 2.1, "kind": "cut", "text": "camera cut at 2.10 s: events paused until the table is found again"},
    {"t": 3.4, "kind": "resumed", "text": "table found again at 3.40 s: events resumed"},
)


def _run_folder(tmp_path: Path, notices: tuple[dict[str, Any], ...]) -> Path:
    """A run folder as ``arbiter run`` leaves it: the sample shot's events, and what the run said."""
    folder = tmp_path / "run"
    folder.mkdir()
    shutil.copy(s.SAMPLE_SHOT / "truth.jsonl", folder / "events.jsonl")
    (folder / "notices.jsonl").write_text("".join(json.dumps(n) + "\n" for n in notices))
    return folder


def _opened(db: Path, folder: Path) -> int:
    desk = s.Desk(db)
    try:
        return desk.open_folder(folder)
    finally:
        desk.close()


def test_an_unsure_calibration_is_a_warning_and_cuts_stand_on_the_timeline(db, tmp_path, monkeypatch):
    monkeypatch.setenv("ARBITER_MATCH", str(_opened(db, _run_folder(tmp_path, NOTICES))))
    at = apptest.app()
    (warning,) = [w.value for w in at.warning if "UNSURE" in w.value]
    assert "before trusting any call" in warning and "a cushion is hidden by a score bar" in warning
    assert any("2.10 s: camera cut" in i.value and "3.40 s: table found again" in i.value for i in at.info)
    html = apptest.html(at)
    assert '<tr class="notice cut">' in html and '<tr class="notice resumed">' in html
    # The cut stands between the lines before and after it in time.
    timeline = html[html.rindex('<table class="arbiter-timeline">') :]
    cut = timeline.index('class="notice cut"')
    before, after = (
        [float(t) for t in re.findall(r'<td class="num">([0-9.]+) s</td>', part)]
        for part in (timeline[:cut], timeline[cut:])
    )
    assert before and after and max(before) <= 2.1 <= min(after)


def test_a_sure_run_says_nothing_loud(db, tmp_path, monkeypatch):
    sure = ({"t": 0.0, "kind": "calibration", "text": "table found at 0.00 s: Snooker, 12 ft (12ft); sure"},)
    monkeypatch.setenv("ARBITER_MATCH", str(_opened(db, _run_folder(tmp_path, sure))))
    at = apptest.app()
    assert not [w for w in at.warning if "UNSURE" in w.value]
    assert '<tr class="notice calibration">' in apptest.html(at)


def test_a_video_match_starts_on_the_table_size_chosen_and_the_corners_typed(db, monkeypatch):
    """The run gets ``--table`` and ``--corners`` from the page, and the match its header's table."""
    seen: list[RunOptions] = []

    def referee_video(source: Any, options: RunOptions, out: Path, **hooks: Any) -> RunResult:
        hooks["on_header"](c.Match(game="snooker", players=options.players, table=options.table_size))
        seen.append(options)  # after the header: once seen, the match has it
        return RunResult()

    monkeypatch.setattr(session_run, "referee_video", referee_video)
    at = apptest.page()
    at.run()
    at.sidebar.radio(key="page").set_value("New match").run()
    at.radio(key="source_kind").set_value("sample").run()
    assert at.selectbox(key="table_size").options[0] == "found from the balls"
    at.selectbox(key="table_size").set_value("10ft").run()
    for name, xy in SAMPLE_CORNERS.items():
        at.text_input(key=f"corner_{name}").set_value(xy)
    next(b for b in at.button if b.label == "Fit the table to these corners").click().run()
    assert any("on the 10ft table" in m.value for m in at.success), [m.value for m in at.success]
    at.button(key="start").click().run()
    assert not at.exception, at.exception
    match_id = at.session_state["match"]
    deadline = time.monotonic() + 30  # the run goes on a thread of the page's own desk: waited for here
    while not seen and time.monotonic() < deadline:
        time.sleep(0.05)
    desk = s.Desk(db)
    try:
        (options,) = seen
        assert options.table_size == "10ft" and options.calibration is None
        typed = {k: tuple(float(v) for v in xy.split(",")) for k, xy in SAMPLE_CORNERS.items()}
        assert options.corners == typed
        assert desk.record.header(match_id).table == "10ft"
    finally:
        desk.close()
