"""What a review shows at its end: one row per video (what the record holds of its match), each match's HTML
report (``record.export.report_html``) and an index page linking them all.

Files under the review's ``out`` folder: ``index.html`` and ``reports/match_<id>.html``. The index links
reports by relative paths, so the folder can be copied or served as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from html import escape
from pathlib import Path

from arbiter import contract as c
from record.export import report_html
from record.reviews import ReviewVideo
from record.store import CAMERA_TYPES, MatchRecord, RecordError

REPORTS = "reports"


@dataclass(frozen=True)
class VideoRow:
    """One video's line of the summary. ``earlier``: finished before this command (skipped now)."""

    position: int
    video: str
    game: str
    status: str  # done, failed
    frames: int | None = None
    events: int | None = None
    calls: int | None = None
    fouls: int | None = None
    work_s: float | None = None
    video_s: float | None = None
    match_id: int | None = None
    error: str | None = None
    earlier: bool = False

    @property
    def report(self) -> str | None:
        """The match report's path, relative to the review's folder."""
        return f"{REPORTS}/match_{self.match_id}.html" if self.match_id is not None else None


def video_row(record: MatchRecord, row: ReviewVideo, earlier: bool) -> VideoRow:
    """The summary line of ``row``, counting its match's events, calls (decisions) and fouls."""
    base = VideoRow(
        position=row.position,
        video=row.video,
        game=row.entry.game,
        status=row.status,
        frames=row.frames,
        work_s=row.work_s,
        video_s=row.video_s,
        match_id=row.match_id if row.status == "done" else None,
        error=row.error,
        earlier=earlier,
    )
    if base.match_id is None:
        return base
    try:
        lines = record.lines(base.match_id)
    except RecordError as exc:
        return replace(base, status="failed", match_id=None, error=str(exc))
    decisions = [ln for ln in lines if isinstance(ln, c.Decision)]
    return replace(
        base,
        events=sum(ln.TYPE in CAMERA_TYPES for ln in lines),
        calls=len(decisions),
        fouls=sum(d.foul is not None for d in decisions),
    )


def write_report(record: MatchRecord, match_id: int, out: Path) -> Path:
    """The match's one-page report under ``out/reports``."""
    path = out / REPORTS / f"match_{match_id}.html"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(report_html(record, match_id), encoding="utf-8")
    return path


def write_index(rows: Sequence[VideoRow], out: Path, title: str) -> Path:
    """``out/index.html``: the summary table, each finished video linked to its match's report."""
    out.mkdir(parents=True, exist_ok=True)
    done = sum(r.status == "done" for r in rows)
    failed = sum(r.status == "failed" for r in rows)
    body = "".join(_index_row(r) for r in rows)
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    page = (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>"
        f"<h1>{escape(title)}</h1><p class=meta>{len(rows)} videos: {done} done, {failed} failed, "
        f"{len(rows) - done - failed} still to do &middot; written {when}</p>"
        "<table><tr><th>#</th><th>video</th><th>game</th><th>frames</th><th>events</th><th>calls</th>"
        "<th>fouls</th><th>status</th><th>time</th><th>report</th></tr>"
        f"{body}</table></body></html>\n"
    )
    path = out / "index.html"
    path.write_text(page, encoding="utf-8")
    return path


def _index_row(r: VideoRow) -> str:
    def num(v: int | None) -> str:
        return "" if v is None else str(v)

    link = f'<a href="{escape(r.report)}">match {r.match_id}</a>' if r.report else ""
    status = escape(r.status) + (" (earlier)" if r.earlier and r.status == "done" else "")
    error = f'<div class="error">{escape(r.error)}</div>' if r.error and r.status == "failed" else ""
    cls = ' class="failed"' if r.status == "failed" else ""
    return (
        f"<tr{cls}><td class=num>{r.position}</td><td>{escape(r.video)}{error}</td><td>{escape(r.game)}</td>"
        + "".join(f"<td class=num>{num(v)}</td>" for v in (r.frames, r.events, r.calls, r.fouls))
        + f"<td>{status}</td>"
        + f"<td class=num>{'' if r.work_s is None else f'{r.work_s:.1f} s'}</td><td>{link}</td></tr>"
    )


_CSS = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2521; margin: 24px auto;
       max-width: 1200px; padding: 0 16px; }
h1 { font-size: 22px; margin: 0 0 4px; } .meta { color: #556; margin: 0 0 16px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #e3e6ea; vertical-align: top; }
th { background: #f2f4f6; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.failed td { background: #fff3f0; } .error { color: #b3261e; font-size: 12px; }
"""
