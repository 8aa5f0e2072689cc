"""``arbiter matches``, ``arbiter export``, ``arbiter record import``: the match record on the command line.

The
database is ``out/arbiter.db`` unless ``--db`` or the ``ARBITER_DB`` environment variable names another
file (docs/architecture.md, Record). A composition root only: the work is ``record.store`` and
``record.export``'s.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from arbiter import narrate
from cli.common import fail
from record import export
from record.recorder import import_refereed
from record.store import MatchInfo, MatchRecord, RecordError

DEFAULT_DB = Path("out/arbiter.db")
FORMATS = ("jsonl", "csv", "html")
SUFFIXES = {".jsonl": "jsonl", ".json": "jsonl", ".csv": "csv", ".html": "html", ".htm": "html"}

app = typer.Typer()
record_app = typer.Typer(help="The match record: import streams into it.", no_args_is_help=True)

DbOption = Annotated[
    Path,
    typer.Option(
        "--db",
        envvar="ARBITER_DB",
        help="The match database (SQLite); default out/arbiter.db or $ARBITER_DB.",
    ),
]


def _open(db: Path) -> MatchRecord:
    """The record at ``db``, created when absent, or a clean exit saying why it cannot be used."""
    try:
        return MatchRecord.open(db)
    except RecordError as exc:
        fail(str(exc))


def _open_existing(db: Path) -> MatchRecord | None:
    """The record at ``db``; None when there is no such file."""
    return _open(db) if db.exists() else None


def _score(info: MatchInfo) -> str:
    if info.score is None:
        return "-"
    text = narrate.scores(info.score)
    return text + (f"; {info.winner} wins" if info.winner else "; over" if info.over else "")


@app.command("matches")
def matches_cmd(
    db: DbOption = DEFAULT_DB,
    import_: Annotated[
        Path | None,
        typer.Option("--import", help="First import this match stream (JSON Lines) as a new match."),
    ] = None,
) -> None:
    """List the recorded matches: id, date, game, players, status (running, finished, interrupted), score.
    An interrupted match (its recording process is gone) keeps every line written before, and can resume."""
    if import_ is not None:
        record_import(import_, db, referee=False)
    record = _open_existing(db)
    if record is None:
        typer.echo(f"no matches: {db} does not exist yet ('arbiter run ... --db {db}' records into it)")
        return
    with record:
        infos = record.matches()
    if not infos:
        typer.echo(f"no matches in {db}")
        return
    rows = [("id", "started (UTC)", "game", "players", "status", "lines", "score")]
    rows += [
        (
            str(i.id),
            i.started_at.strftime("%Y-%m-%d %H:%M"),
            i.game,
            ", ".join(i.players),
            i.status,
            str(i.lines),
            _score(i),
        )
        for i in infos
    ]
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]) - 1)]
    for r in rows:
        typer.echo("  ".join(cell.ljust(w) for cell, w in zip(r[:-1], widths, strict=True)) + "  " + r[-1])


@app.command("export")
def export_cmd(
    match: Annotated[int, typer.Argument(help="The match id ('arbiter matches' lists them).")],
    db: DbOption = DEFAULT_DB,
    format_: Annotated[
        str | None,
        typer.Option(
            "--format",
            help="jsonl (the event stream, exactly as recorded), csv, or html (one-page report); "
            "default from --out's suffix, else jsonl.",
        ),
    ] = None,
    out: Annotated[Path | None, typer.Option(help="The file to write; default standard output.")] = None,
    tracks: Annotated[
        Path | None,
        typer.Option(help="html: the run's tracks.jsonl, to draw each ball's path in the diagrams."),
    ] = None,
) -> None:
    """Export a recorded match as JSON Lines, CSV or a one-page HTML report with a diagram of each shot."""
    fmt = format_ or (SUFFIXES.get(out.suffix.lower(), "jsonl") if out is not None else "jsonl")
    if fmt not in FORMATS:
        fail(f"--format must be one of {', '.join(FORMATS)} (got {fmt!r})")
    if tracks is not None and not tracks.is_file():
        fail(f"{tracks} not found: give the tracks.jsonl that 'arbiter run' wrote beside events.jsonl")
    record = _open_existing(db)
    if record is None:
        fail(f"{db} does not exist: give the match database with --db")
    with record:
        try:
            if fmt == "html":
                text = export.report_html(record, match, tracks)
            else:
                text = export.FORMATS[fmt](record, match)
        except RecordError as exc:
            fail(str(exc))
        except ValueError as exc:  # a tracks file that is not one
            fail(str(exc))
    if out is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("w", encoding="utf-8", newline="") as fh:
            fh.write(text)
    except OSError as exc:
        fail(f"{out}: cannot be written ({exc.strerror})")
    typer.echo(f"match {match} written to {out} ({fmt})", err=True)


@record_app.command("import")
def record_import(
    stream: Annotated[
        Path, typer.Argument(help="A match stream (JSON Lines): an export, or a run's events.jsonl.")
    ],
    db: DbOption = DEFAULT_DB,
    referee: Annotated[
        bool, typer.Option(help="Add the rule engine's decisions, each after the line that settled it.")
    ] = False,
) -> None:
    """Import a match stream as a new finished match; its lines are kept exactly, so it exports back as is."""
    if not stream.is_file():
        fail(f"{stream} not found: give a match stream (JSON Lines) starting with a match header")
    record = _open(db)
    with record:
        try:
            match_id = import_refereed(record, stream) if referee else record.import_jsonl(stream)
        except RecordError as exc:
            fail(str(exc))
        info = record.info(match_id)
    typer.echo(f"imported {stream} as match {match_id} ({info.game}, {info.lines} lines) into {db}")
