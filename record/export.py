"""Exports of a recorded match: JSON Lines (the contract, exactly as recorded), CSV, a one-page HTML report.

- ``export_jsonl``: the header and every line byte for byte as recorded; ``MatchRecord.import_jsonl`` of the
  file gives the same lines back, and ``arbiter referee`` reads it like any stream.
- ``export_csv``: one row per line (the header is row ``seq`` 0), with the line in words (``narrate``) and a
  decision's fields in columns, for a spreadsheet.
- ``export_report``: one self-contained HTML page (inline CSS and SVG, no scripts, no external assets): who
  played what and when, the final score and winner, every decision with the rule it applied, a diagram of each
  billiards shot (``diagram``), and the timeline of the match in words.

Each ``*_text`` function returns the text; each ``export_*`` writes it to a file and returns the path.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path

from arbiter import contract as c
from arbiter import narrate
from arbiter.games import BilliardsSpec, game
from record.diagram import TrackFrame, read_tracks, shot_svg, split_shots
from record.store import MatchInfo, MatchRecord

CSV_COLUMNS = (
    "seq",
    "type",
    "t",
    "frame",
    "player",
    "summary",
    "foul_reason",
    "penalty",
    "rule",
    "points",
    "score",
    "next",
    "on",
    "over",
    "winner",
    "notes",
)
DIAGRAM_PX = 420  # width of each shot diagram on the page; two fit side by side on a laptop screen
_STAMP = re.compile(r"^\s*(\d+\.\d+ s)?\s*")


def _write(path: str | os.PathLike[str], text: str) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as fh:
        fh.write(text)
    return path


# --- JSON Lines ------------------------------------------------------------------------------------------


def jsonl_text(record: MatchRecord, match_id: int) -> str:
    """The match's stream, header first, each line exactly as recorded, ``\\n`` after each."""
    return "".join(text + "\n" for text in record.texts(match_id))


def export_jsonl(record: MatchRecord, match_id: int, path: str | os.PathLike[str]) -> Path:
    """Write the match as JSON Lines (UTF-8): byte-identical to the lines recorded."""
    return _write(path, jsonl_text(record, match_id))


# --- CSV -------------------------------------------------------------------------------------------------


def words(line: c.JsonLine) -> str:
    """A line in words without its time stamp (a decision: its first line, without the notes)."""
    if isinstance(line, c.Decision):
        return narrate.describe_decision(line).splitlines()[0]
    return _STAMP.sub("", narrate.describe(line), count=1).strip()


def _row(seq: int, line: c.JsonLine) -> dict[str, object]:
    t = getattr(line, "t", None)
    frame = getattr(line, "frame", None)
    row: dict[str, object] = {
        "seq": seq,
        "type": line.TYPE,
        "t": "" if t is None else f"{t:.6f}".rstrip("0").rstrip("."),
        "frame": "" if frame is None else frame,
        "player": getattr(line, "player", None) or "",
        "summary": words(line),
    }
    if isinstance(line, c.Decision):
        row |= {
            "foul_reason": line.foul.reason if line.foul else "",
            "penalty": line.foul.penalty if line.foul else "",
            "rule": line.foul.rule if line.foul else "",
            "points": narrate.scores(line.points),
            "score": narrate.scores(line.score),
            "next": line.next or "",
            "on": line.on or "",
            "over": "yes" if line.over else "no",
            "winner": line.winner or "",
            "notes": "; ".join(line.notes),
        }
    return row


def csv_text(record: MatchRecord, match_id: int) -> str:
    """One row per line of the stream (``CSV_COLUMNS``); empty cells where a field does not apply."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, restval="", lineterminator="\r\n")
    writer.writeheader()
    writer.writerow(_row(0, record.header(match_id)))
    for row in record.rows(match_id):
        writer.writerow(_row(row.seq, row.line))
    return out.getvalue()


def export_csv(record: MatchRecord, match_id: int, path: str | os.PathLike[str]) -> Path:
    """Write the match as CSV (UTF-8, RFC 4180 line ends)."""
    return _write(path, csv_text(record, match_id))


# --- HTML report -----------------------------------------------------------------------------------------

_CSS = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2521; margin: 24px auto;
       max-width: 1100px; padding: 0 16px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #ccd; }
.meta { color: #556; margin: 0; } .result { font-size: 18px; margin: 10px 0 0; }
.result strong { font-size: 20px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #e3e6ea; vertical-align: top; }
th { background: #f2f4f6; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.foul td { background: #fff3f0; } .foul-word { color: #b3261e; font-weight: 600; }
.notes { color: #556; font-size: 12px; margin: 2px 0 0; padding-left: 16px; }
.shots { display: flex; flex-wrap: wrap; gap: 16px; }
figure { margin: 0; width: 420px; } figcaption { font-size: 12px; color: #334; margin-top: 4px; }
figure svg { max-width: 100%; height: auto; }
ol.timeline { font-size: 13px; columns: 2; column-gap: 32px; padding-left: 24px; }
ol.timeline li.decision { font-weight: 600; }
.t { color: #778; font-variant-numeric: tabular-nums; }
@media print { body { margin: 0; max-width: none; } figure { width: 45%; } h2 { break-after: avoid; } }
"""


def _final(info: MatchInfo) -> str:
    if info.score is None:
        return "no decision recorded"
    score = ", ".join(f"{escape(p)} {v}" for p, v in info.score.items())
    if info.winner:
        tail = f"{escape(info.winner)} wins"
    elif info.over:
        tail = "a draw"
    else:
        tail = {"running": "in play", "interrupted": "interrupted", "finished": "not over"}[info.status]
    return f"Final score: <strong>{score}</strong> &mdash; {tail}"


def _decision_rows(decisions: Sequence[c.Decision]) -> str:
    rows = []
    for d in decisions:
        if d.foul is not None:
            call = f'<span class="foul-word">Foul</span>: {escape(d.foul.reason.replace("_", " "))}'
            penalty, rule = str(d.foul.penalty), escape(d.foul.rule)
        else:
            call, penalty, rule = "legal", "", ""
        notes = "".join(f"<li>{escape(n)}</li>" for n in d.notes)
        gained = ", ".join(f"{escape(p)} {v:+d}" for p, v in d.points.items() if v)
        after = (
            "over"
            if d.over
            else ", ".join(x for x in (d.next and f"next {d.next}", d.on and f"on {d.on}") if x)
        )
        kind = "foul" if d.foul else "legal"
        rows.append(
            f'<tr class="{kind}"><td class=num>{d.shot}</td><td>{escape(d.player)}</td>'
            f"<td>{call}{f'<ul class=notes>{notes}</ul>' if notes else ''}</td><td class=num>{penalty}</td>"
            f"<td>{rule}</td><td>{gained}</td><td>{escape(narrate.scores(d.score))}</td><td>{escape(after)}</td></tr>"
        )
    return (
        "<table><thead><tr><th>Shot</th><th>Player</th><th>Call, and the rule in words</th><th>Penalty</th>"
        "<th>Rule</th><th>Points</th><th>Score</th><th>Then</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def _caption(number: int, shot: Sequence[c.JsonLine]) -> str:
    decisions = [x for x in shot if isinstance(x, c.Decision)]
    events: list[object] = [x for x in shot if not isinstance(x, c.Decision)]
    summary = "; ".join(narrate.summarise(events))
    call = " ".join(escape(words(d)) for d in decisions) or "not decided"
    return f"<strong>Shot {number}</strong>: {call}<br>{escape(summary)}"


def _timeline(lines: Sequence[c.JsonLine]) -> str:
    items = []
    for line in lines:
        t = getattr(line, "t", None)
        stamp = f'<span class="t">{t:.2f} s</span> ' if t is not None else ""
        cls = ' class="decision"' if isinstance(line, c.Decision) else ""
        items.append(f"<li{cls}>{stamp}{escape(words(line))}</li>")
    return f'<ol class="timeline">{"".join(items)}</ol>'


def _plain(value: object) -> str:
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {_plain(v)}" for k, v in value.items()) + "}"
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_plain(v) for v in value) + "]"
    return str(value)


def report_html(
    record: MatchRecord,
    match_id: int,
    tracks: str | os.PathLike[str] | Sequence[TrackFrame] | None = None,
) -> str:
    """The one-page report of a match (see the module docstring); ``tracks`` adds ball paths to diagrams."""
    info = record.info(match_id)
    header = record.header(match_id)
    lines = record.lines(match_id)
    decisions = [x for x in lines if isinstance(x, c.Decision)]
    players = " v ".join(escape(p) for p in header.players)
    title = f"{escape(header.game)}: {players}"
    when = info.started_at.strftime("%Y-%m-%d %H:%M UTC")
    meta = [f"Match {info.id}", when, f"status {info.status}", f"{info.lines} lines"]
    if info.source:
        meta.append(f"source {escape(info.source)}")
    options = ", ".join(f"{escape(k)} {escape(_plain(v))}" for k, v in header.options.items())
    if options:
        meta.append(f"options: {options}")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Arbiter report: {title}, {when}</title><style>{_CSS}</style></head><body>",
        f"<header><h1>{title}</h1><p class=meta>{' &middot; '.join(meta)}</p>",
        f'<p class="result">{_final(info)}</p></header>',
        f"<section><h2>Decisions ({len(decisions)})</h2>",
        _decision_rows(decisions) if decisions else "<p>No decisions recorded.</p>",
        "</section>",
    ]
    spec = game(header.game, header.table)  # a billiards game on the table played: diagrams to its scale
    if isinstance(spec, BilliardsSpec):
        frames = read_tracks(tracks) if isinstance(tracks, str | os.PathLike) else tracks
        shots = split_shots(lines)
        parts.append(f'<section><h2>Shots ({len(shots)})</h2><div class="shots">')
        for number, shot in enumerate(shots, start=1):
            svg = shot_svg(spec, shot, frames, DIAGRAM_PX, title=f"shot {number}")
            parts.append(f"<figure>{svg}<figcaption>{_caption(number, shot)}</figcaption></figure>")
        parts.append("</div></section>")
    parts += [
        f"<section><h2>Timeline ({len(lines)} lines)</h2>",
        _timeline(lines),
        "</section>",
        "<footer><p class=meta>Written by Arbiter from the match record; the event stream is in the "
        "contract of docs/architecture.md (export it with --format jsonl).</p></footer>",
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def export_report(
    record: MatchRecord,
    match_id: int,
    path: str | os.PathLike[str],
    tracks: str | os.PathLike[str] | Sequence[TrackFrame] | None = None,
) -> Path:
    """Write the one-page HTML report of a match."""
    return _write(path, report_html(record, match_id, tracks))


FORMATS = {"jsonl": jsonl_text, "csv": csv_text, "html": report_html}

__all__ = [
    "CSV_COLUMNS",
    "FORMATS",
    "csv_text",
    "export_csv",
    "export_jsonl",
    "export_report",
    "jsonl_text",
    "report_html",
    "words",
]
