"""``arbiter review``: referee an archive of recorded videos, each as a match of its own in the record, on
this machine's cores or on Ray; and ``arbiter bench review``, its throughput.

A composition root only: the work is ``pipeline.review``'s (planning, workers, the driver) and
``evaluation.review_bench``'s.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated

import typer
from tqdm import tqdm

from cli.common import fail, game_spec, parse_size
from cli.evaluate import bench_app
from evaluation.review_bench import bench_review
from pipeline.review.driver import Planned, ReviewOptions, review
from pipeline.review.plan import Defaults, PlanError, gather
from pipeline.review.pools import PoolError
from pipeline.review.summary import VideoRow
from record.store import MatchRecord, RecordError
from vision.detectors import DETECTORS

app = typer.Typer()
FFMPEG_QUIET = -8  # AV_LOG_QUIET
BAR = "{l_bar}{bar}| {n_fmt}/{total_fmt} frames [{elapsed}<{remaining}, {rate_fmt}{postfix}]"


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


class _Progress:
    """One bar over the frames of every video (videos done, frames per second, time left), and a line per
    video as it finishes."""

    def __init__(self) -> None:
        self.bar: tqdm | None = None
        self.done = 0
        self.todo = 0

    def planned(self, plan: Planned) -> None:
        where = f"review {plan.review_id}: {plan.videos} videos"
        earlier = f", {plan.earlier} finished before (skipped)" if plan.earlier else ""
        typer.echo(f"{where}{earlier}; {plan.todo} to referee", err=True)
        self.todo = plan.todo
        if plan.todo:
            self.bar = tqdm(
                total=plan.frames or None, unit="frame", disable=None, file=sys.stderr, bar_format=BAR
            )
            self._videos()

    def _videos(self) -> None:
        if self.bar is not None:
            self.bar.set_postfix_str(f"videos {self.done}/{self.todo}")

    def frames(self, n: int) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def finished(self, row: VideoRow) -> None:
        self.done += 1
        self._videos()
        self._say(f"{row.status:<6} {self.done}/{self.todo}  {_line(row)}")

    def retrying(self, video: str, crash: str) -> None:
        self._say(f"retry  {Path(video).name}: {crash}")

    def _say(self, text: str) -> None:
        (self.bar.write if self.bar is not None else typer.echo)(text, file=sys.stderr)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _line(row: VideoRow) -> str:
    if row.status == "failed":
        return f"{row.video}: {row.error}"
    return (
        f"{row.video}: {row.frames} frames, {row.events} events, {row.calls} calls, {row.fouls} fouls, "
        f"{row.work_s or 0:.1f} s, match {row.match_id}"
    )


def _table(rows: tuple[VideoRow, ...]) -> str:
    """The summary: one row per video, its match's figures, its status and the worker's time."""
    head = ("video", "game", "frames", "events", "calls", "fouls", "status", "time")
    body = [
        (
            _short(r.video),
            r.game,
            *("" if v is None else str(v) for v in (r.frames, r.events, r.calls, r.fouls)),
            r.status + (" (earlier)" if r.earlier and r.status == "done" else ""),
            "" if r.work_s is None else f"{r.work_s:.1f} s",
        )
        for r in rows
    ]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body, strict=True)]
    right = {2, 3, 4, 5, 7}

    def fmt(cells: tuple[str, ...]) -> str:
        return "  ".join(
            c.rjust(w) if k in right else c.ljust(w)
            for k, (c, w) in enumerate(zip(cells, widths, strict=True))
        )

    return "\n".join([fmt(head), *(fmt(b) for b in body)])


def _short(video: str) -> str:
    """A video's path relative to here when it is below, else as it is."""
    try:
        return str(Path(video).relative_to(Path.cwd()))
    except ValueError:
        return video


@app.command("review")
def review_cmd(
    sources: Annotated[
        list[str],
        typer.Argument(
            help="Videos, folders (searched for videos), globs ('archive/**/*.mp4', quoted) or manifest CSV "
            "files (columns video, game, players separated by ';', calibration)."
        ),
    ],
    game: Annotated[
        str | None, typer.Option(help="The game of every video a manifest does not name.")
    ] = None,
    db: Annotated[
        Path, typer.Option(envvar="ARBITER_DB", help="The record: every video becomes a match here.")
    ] = Path("out/arbiter.db"),
    workers: Annotated[
        int | None, typer.Option(help="Videos refereed at once; default one per core (--ray auto: its CPUs).")
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            help="auto: a local Ray instance; HOST:6379 or ray://HOST:10001: a running Ray cluster."
        ),
    ] = None,
    out: Annotated[Path, typer.Option(help="Where index.html and each match's report go.")] = Path(
        "out/review"
    ),
    players: Annotated[str, typer.Option(help="Players in turn order, comma separated.")] = "A,B",
    calibration: Annotated[
        Path | None, typer.Option(help="A camera profile for every billiards video a manifest gives none.")
    ] = None,
    detector: Annotated[
        str, typer.Option(help="classical (fast) or yolo (the trained network).")
    ] = "classical",
    model: Annotated[
        Path | None, typer.Option(help="The network for --detector yolo, or the dice reader's.")
    ] = None,
    retry_failed: Annotated[bool, typer.Option(help="Referee again the videos that failed before.")] = False,
) -> None:
    """Referee many recorded videos, each recorded as its own match: resumable (run the same command again
    after a stop and what is finished is skipped), on this machine's cores or on a Ray cluster. Ends with a
    summary table and an HTML index linking each match's report."""
    if detector not in DETECTORS:
        fail(f"--detector must be one of {', '.join(DETECTORS)} (got {detector!r})")
    # FFmpeg's own complaints about a corrupt file would break the progress bar; each video's line says
    # why it failed. Set before any video is opened here or in a worker (workers inherit it).
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", str(FFMPEG_QUIET))
    names = tuple(p.strip() for p in players.split(",") if p.strip())
    defaults = Defaults(game_spec(game) if game else None, names, calibration)
    options = ReviewOptions(
        out=out, workers=workers or _cores(), ray=ray, detector=detector, model=model,
        retry_failed=retry_failed, sources=tuple(sources),
    )  # fmt: skip
    _run(sources, defaults, options, db)


def _run(sources: list[str], defaults: Defaults, options: ReviewOptions, db: Path) -> None:
    """The review with its progress shown, then its summary; a clean exit for bad input or a stop."""
    progress = _Progress()
    try:
        items = gather(sources, defaults)
        with MatchRecord.open(db) as record:
            report = review(items, record, options, progress)
    except (PlanError, PoolError, RecordError) as exc:
        progress.close()
        fail(str(exc))
    except KeyboardInterrupt:
        progress.close()
        typer.secho("stopped; run the same command again to resume (finished videos are kept)", err=True)
        raise typer.Exit(130) from None
    progress.close()
    typer.echo(_table(report.rows))
    for row in report.rows:
        if row.status == "failed":
            typer.echo(f"failed: {_short(row.video)}: {row.error}")
    done = len(report.rows) - report.failed
    typer.echo(
        f"{done} of {len(report.rows)} videos recorded in {db}"
        + (f", {report.failed} failed" if report.failed else "")
        + f" ({report.wall_s:.1f} s, {report.workers} worker{'s' if report.workers != 1 else ''}); "
        f"index: {report.index}"
    )


@bench_app.command("review")
def bench_review_cmd(
    clips: Annotated[int, typer.Option(help="Clips in the reviewed archive (generated once, cached).")] = 8,
    size: Annotated[str, typer.Option(help="Frame size WIDTHxHEIGHT of the clips.")] = "1280x720",
    ray: Annotated[bool, typer.Option(help="Also on a local Ray instance, beside the embedded pool.")] = True,
    rounds: Annotated[int, typer.Option(help="Runs of each configuration; the fastest is kept.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Throughput of 'arbiter review' with 1 and 2 workers, embedded and on local Ray, in one run: videos per
    minute, multiple of real time, the 2/1 scaling and Ray's overhead beside the embedded pool."""
    width, height = parse_size(size)
    if clips < 1 or rounds < 1:
        fail(f"--clips and --rounds must be at least 1 (got {clips} and {rounds})")
    figures = bench_review(
        clips, width, height, with_ray=ray, rounds=rounds, log=lambda m: typer.echo(m, err=True)
    )
    typer.echo(json.dumps(figures, indent=None if as_json else 1))
