"""What the page shows, as plain values and HTML text: the scoreboard, the timeline, images for display.

No Streamlit here and no rules or vision: the numbers come from the engines through ``dashboard.session``;
these functions only lay them out, so that they are tested without a browser (and the browser test finds
their class names in the page).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import cv2
import numpy as np

from arbiter.games import GameSpec
from dashboard.session.run import Progress
from dashboard.session.view import DecisionRow, Scoreboard, TimelineRow
from pipeline.table_watch import Notice

NOTICE_LABELS = {
    "calibration": "table found",
    "unsure": "UNSURE table",
    "cut": "camera cut",
    "resumed": "resumed",
    "moved": "camera moved",
    "pins": "pins not watched",
    "no_table": "no table",
    "too_small": "balls too small",
}

CSS = """
<style>
.arbiter-scoreboard { display: flex; gap: 12px; flex-wrap: wrap; margin: 4px 0 8px; }
.arbiter-player { border: 1px solid #d0d7de; border-radius: 8px; padding: 8px 16px; min-width: 120px; }
.arbiter-player.next { border: 2px solid #1f6f43; background: #eef7f1; }
.arbiter-player.winner { border: 2px solid #b8860b; background: #fff8e1; }
.arbiter-player .name { font-size: 14px; color: #445; }
.arbiter-player .score { font-size: 34px; font-weight: 700; font-variant-numeric: tabular-nums; }
.arbiter-status { font-size: 15px; margin: 2px 0 6px; }
table.arbiter-timeline { border-collapse: collapse; width: 100%; font-size: 13px; }
table.arbiter-timeline th, table.arbiter-timeline td { text-align: left; padding: 3px 8px;
  border-bottom: 1px solid #e3e6ea; vertical-align: top; }
table.arbiter-timeline tr.decision td { background: #f3f8f5; }
table.arbiter-timeline tr.foul td { background: #fff3f0; }
table.arbiter-timeline tr.corrected td.text { font-style: italic; }
table.arbiter-timeline tr.stopped td { background: #fde7e9; }
table.arbiter-timeline tr.notice td { background: #fff8e1; color: #5a4500; }
table.arbiter-timeline tr.notice.unsure td { background: #fdecc8; font-weight: 600; }
table.arbiter-timeline td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums;
  color: #667; }
.arbiter-notes { color: #556; font-size: 12px; margin: 0; padding-left: 16px; }
.arbiter-rule { color: #334; font-size: 12px; }
.arbiter-rule a { color: #1f6f43; }
</style>
"""


def scoreboard_html(board: Scoreboard) -> str:
    """The players with their scores, the one to play next marked; then whose turn, what is on, what the
    engine is waiting for."""
    cards = []
    for player in board.players:
        cls = "arbiter-player"
        if board.winner == player:
            cls += " winner"
        elif not board.over and board.next == player:
            cls += " next"
        score = board.score.get(player, 0)
        cards.append(
            f'<div class="{cls}" data-player="{escape(player)}"><div class="name">{escape(player)}</div>'
            f'<div class="score">{score}</div></div>'
        )
    return (
        f'<div class="arbiter-scoreboard">{"".join(cards)}</div>'
        f'<div class="arbiter-status">{escape(status_line(board))}</div>'
    )


def status_line(board: Scoreboard) -> str:
    """Whose turn and what is on, in words."""
    if board.over:
        return f"Over: {board.winner} wins" if board.winner else "Over: a draw"
    parts = []
    if board.next:
        parts.append(f"{board.next} to play")
    if board.on:
        parts.append(f"on: {board.on}")
    if board.awaiting:
        parts.append(f"waiting for: {', '.join(board.awaiting)}")
    if board.since:
        parts.append(f"then: {'; '.join(board.since)}")
    if not parts:
        parts.append("waiting for the first shot")
    return " · ".join(parts)


def rules_href(spec: GameSpec) -> str:
    """The page's own address of the game's rules page (``app.py`` shows ``spec.rules_page`` for it)."""
    return f"?rules={spec.id}"


def rule_html(d: DecisionRow, spec: GameSpec | None) -> str:
    """The rule behind a call, and a link to the rules the engine applies."""
    said = f"rule {escape(d.rule)}" if d.rule else "no foul"
    if spec is None:
        return f'<div class="arbiter-rule">{said}</div>'
    link = f'<a href="{escape(rules_href(spec))}" target="_blank">the rules of {escape(spec.title)}</a>'
    return f'<div class="arbiter-rule">{said} · {link}</div>'


def unsure_warning(notices: Sequence[Notice]) -> str | None:
    """What the page says above everything when the run's calibration was unsure: the calls rest on a table
    that may be wrong, so they are not to be trusted before the drawn table is checked. None when sure."""
    unsure = [n for n in notices if n.kind == "unsure"]
    if not unsure:
        return None
    said = " ".join(n.text for n in unsure)
    return (
        f"**The table was found UNSURE**: check the table drawn on the annotated video before trusting any "
        f"call, and start the match again with the corners clicked or typed (New match, table calibration) "
        f"if it is wrong. {said}"
    )


def pauses(notices: Sequence[Notice]) -> list[str]:
    """Each camera cut and the table found again, with its time: the run made no event in between."""
    return [f"{n.t:.2f} s: {n.text}" for n in notices if n.kind in ("cut", "resumed")]


def _notice_row(notice: Notice) -> str:
    label = NOTICE_LABELS.get(notice.kind, notice.kind)
    return (
        f'<tr class="notice {escape(notice.kind)}"><td></td><td class="num">{notice.t:.3f} s</td>'
        f"<td>{escape(label)}</td><td>{escape(notice.text)}</td></tr>"
    )


def timeline_html(
    rows: Sequence[TimelineRow],
    limit: int | None = None,
    spec: GameSpec | None = None,
    notices: Sequence[Notice] = (),
) -> str:
    """The event timeline: one row per line of the (corrected) stream, each decision under the line that
    settled it, with the rule it applied and a link to the game's rules; the run's notices (the calibration,
    each camera cut and the table found again) at their times between them. ``limit`` keeps the last rows
    only (the live view)."""
    shown = rows[-limit:] if limit else rows
    since = next((r.t for r in shown if r.t is not None), None) if limit else None
    waiting = sorted((n for n in notices if since is None or n.t >= since), key=lambda n: n.t)
    body = []
    for row in shown:
        while waiting and row.t is not None and waiting[0].t <= row.t:
            body.append(_notice_row(waiting.pop(0)))
        cls = ["event"]
        if row.corrected:
            cls.append("corrected")
        if row.stopped:
            cls.append("stopped")
        t = "" if row.t is None else f"{row.t:.3f} s"
        mark = " (corrected)" if row.corrected else ""
        body.append(
            f'<tr class="{" ".join(cls)}" data-line="{row.line_no}"><td class="num">{row.line_no}</td>'
            f'<td class="num">{t}</td><td>{escape(row.type)}</td>'
            f'<td class="text">{escape(row.text)}{mark}</td></tr>'
        )
        if row.stopped:
            body.append(
                f'<tr class="stopped"><td></td><td></td><td>stopped</td>'
                f"<td>the rules stop here: {escape(row.stopped)}</td></tr>"
            )
        for d in row.decisions:
            notes = "".join(f"<li>{escape(n)}</li>" for n in d.notes)
            body.append(
                f'<tr class="decision{" foul" if d.foul else ""}"><td></td><td></td><td>decision</td>'
                f"<td><strong>{escape(d.text)}</strong>{rule_html(d, spec)}"
                f"{f'<ul class=arbiter-notes>{notes}</ul>' if notes else ''}</td></tr>"
            )
    body.extend(_notice_row(n) for n in waiting)
    return (
        '<table class="arbiter-timeline"><thead><tr><th>Line</th><th>Time</th><th>Type</th>'
        f"<th>What happened</th></tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


def progress_text(progress: Progress) -> str:
    """``frames 120 of 365 · 33.9 fps · 7 s left`` for a ``session.Progress``."""
    parts = [progress.status]
    if progress.total:
        parts.append(f"frame {progress.frames} of {progress.total}")
    else:
        parts.append(f"frame {progress.frames}")
    if progress.fps:
        parts.append(f"{progress.fps:.1f} fps")
    eta = progress.eta_s
    if eta is not None and progress.status == "running":
        parts.append(f"{eta:.0f} s left")
    return " · ".join(parts)


def rgb(image_bgr: np.ndarray) -> np.ndarray:
    """OpenCV's BGR as the RGB a browser shows."""
    return cv2.cvtColor(image_bgr, cv2.COLOR_BGR2RGB)


def read_frame(video: str, index: int) -> np.ndarray | None:
    """Frame ``index`` of a video file (the annotated run, for review), or None past its end."""
    cap = cv2.VideoCapture(video)
    try:
        if index > 0:
            cap.set(cv2.CAP_PROP_POS_FRAMES, index)
        ok, image = cap.read()
    finally:
        cap.release()
    return image if ok else None


def frame_index_at(video: str, t: float) -> int:
    """The index of the frame a video file shows at ``t`` seconds."""
    cap = cv2.VideoCapture(video)
    try:
        fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
    finally:
        cap.release()
    return max(round(t * fps), 0)


def read_frame_at(video: str, t: float) -> np.ndarray | None:
    """The frame of a video file shown at ``t`` seconds, or None past its end."""
    return read_frame(video, frame_index_at(video, t))


def frame_count(video: str) -> int:
    cap = cv2.VideoCapture(video)
    try:
        return max(int(cap.get(cv2.CAP_PROP_FRAME_COUNT)), 0)
    finally:
        cap.release()
