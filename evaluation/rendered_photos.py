"""Rendered photos refereed as ``arbiter run FOLDER`` referees a folder: the hidden overhead set's form.

The hidden overhead set is photos, not video: a small snooker table under a projector, seen from a fixed
camera. This takes a synthetic clip set (``arbiter synth billiards``, e.g. ``--table 6ft --variety
projector``), writes the first and the last frame of every shot (the balls at rest before the strike and
once they stop) as a folder of photos, referees the folder photo by photo (``pipeline.photos``: each
photo's table found on its own, or agreed by the photos of its camera, its size from the balls, never
given), and scores each photo's balls against the renderer's truth in table millimetres: a ball is found
when a ball of the run lies within a ball's radius of its true place (each run ball used once, nearest
first), named right when the two are of one look (a red is any red), and a run ball that is no ball is
false.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import cv2

from arbiter.games import billiards
from pipeline.billiards import RunOptions
from pipeline.photos import referee_photos
from vision.sources import FrameSource

XY = tuple[float, float]
STILLS = ("first", "last")  # the frames of each shot written as photos: before the strike, once all rest


@dataclass(frozen=True)
class PhotoScore:
    """One photo's balls against the truth."""

    clips: str  # the clip set's folder name
    photo: str
    truth: int
    found: int
    named: int  # of the found, named by their own look
    false: int  # run balls that are no ball
    missed: tuple[str, ...]
    misnamed: tuple[str, ...]  # "true -> named"


def look(ball: str) -> str:
    """A ball id's look: every red is a red (``red:3`` -> ``red``)."""
    return ball.split(":")[0]


def score_photo(
    clips: str, photo: str, truth: dict[str, XY], run: dict[str, XY], radius_mm: float
) -> PhotoScore:
    """``run``'s balls (id -> table mm) against ``truth``'s, nearest pairs first within ``radius_mm``."""
    pairs = sorted(
        (math.dist(t, r), tb, rb)
        for tb, t in truth.items()
        for rb, r in run.items()
        if math.dist(t, r) <= radius_mm
    )
    matched: dict[str, str] = {}
    used: set[str] = set()
    for _, tb, rb in pairs:
        if tb not in matched and rb not in used:
            matched[tb] = rb
            used.add(rb)
    misnamed = tuple(f"{tb} -> {rb}" for tb, rb in matched.items() if look(tb) != look(rb))
    return PhotoScore(
        clips,
        photo,
        len(truth),
        len(matched),
        len(matched) - len(misnamed),
        len(run) - len(used),
        tuple(tb for tb in truth if tb not in matched),
        misnamed,
    )


def write_stills(shots_dir: Path, folder: Path) -> tuple[str, dict[str, dict[str, XY]]]:
    """The first and last frame of every shot of ``shots_dir`` as PNG photos in ``folder``; the game and each
    photo's balls on the table (id -> table mm, from ``frames.jsonl``)."""
    shots = sorted(p for p in shots_dir.glob("shot_*") if (p / "video.mp4").exists())
    if not shots:
        raise FileNotFoundError(f"{shots_dir}: no shot_*/video.mp4; make one with 'arbiter synth billiards'")
    folder.mkdir(parents=True, exist_ok=True)
    game = json.loads((shots[0] / "shot.json").read_text())["game"]
    truth: dict[str, dict[str, XY]] = {}
    for shot in shots:
        frames = [json.loads(line) for line in (shot / "frames.jsonl").read_text().splitlines() if line]
        wanted = {0: STILLS[0], len(frames) - 1: STILLS[1]}
        capture = cv2.VideoCapture(str(shot / "video.mp4"))
        try:
            for index in range(len(frames)):
                ok, image = capture.read()
                if not ok:
                    break
                if index in wanted:
                    name = f"{shot.name}_{wanted[index]}.png"
                    cv2.imwrite(str(folder / name), image)
                    balls = frames[index]["balls"]
                    truth[name] = {
                        b: (float(s["xy_mm"][0]), float(s["xy_mm"][1]))
                        for b, s in balls.items()
                        if not s["pocketed"] and not s["hidden"]
                    }
        finally:
            capture.release()
    return game, truth


def run_balls(tracks: Path) -> dict[str, dict[str, XY]]:
    """Each photo's balls as the run wrote them (``tracks.jsonl``: photo name -> id -> table mm)."""
    out: dict[str, dict[str, XY]] = {}
    for line in tracks.read_text().splitlines():
        row = json.loads(line)
        out[row["image"]] = {b: (float(xy[0]), float(xy[1])) for b, xy in row["balls"].items()}
    return out


def evaluate_rendered_photos(
    shots_dirs: Iterable[Path], work: Path, on_set: Callable[[str, list[PhotoScore]], None] | None = None
) -> list[PhotoScore]:
    """Every clip set's stills refereed as one folder of photos (``work/NAME/photos``, the run's files in
    ``work/NAME/run``) and scored photo by photo."""
    rows: list[PhotoScore] = []
    for shots_dir in shots_dirs:
        name = shots_dir.name
        game, truth = write_stills(shots_dir, work / name / "photos")
        spec = billiards(game)
        run = work / name / "run"
        referee_photos(FrameSource(work / name / "photos"), RunOptions(spec=spec, annotate=False), run)
        found = run_balls(run / "tracks.jsonl")
        radius = (
            spec.table.ball_radius_mm
        )  # the truth is in the rendered table's millimetres: the game's size
        size = json.loads(next(shots_dir.glob("shot_*/shot.json")).read_text()).get("table")
        if size:
            radius = spec.resized(size).table.ball_radius_mm
        scored = [
            score_photo(name, photo, balls, found.get(photo, {}), radius) for photo, balls in truth.items()
        ]
        rows.extend(scored)
        if on_set is not None:
            on_set(name, scored)
    return rows


def totals(rows: Iterable[PhotoScore]) -> dict[str, Any]:
    rows = list(rows)
    truth, found = sum(r.truth for r in rows), sum(r.found for r in rows)
    named, false = sum(r.named for r in rows), sum(r.false for r in rows)
    return {
        "photos": len(rows),
        "balls": truth,
        "found": found,
        "named": named,
        "false": false,
        "recall": found / truth if truth else float("nan"),
        "named_right": named / found if found else float("nan"),
    }


def to_dict(rows: list[PhotoScore]) -> dict[str, Any]:
    sets = sorted({r.clips for r in rows})
    return {
        "total": totals(rows),
        "sets": {s: totals(r for r in rows if r.clips == s) for s in sets},
        "photos": [asdict(r) for r in rows],
    }


def format_report(rows: list[PhotoScore]) -> str:
    """A line per clip set and the total, then every photo with a ball missed, misnamed or false."""
    out = [
        "| clip set | photos | balls | found | named right (of found) | false |",
        "|---|---|---|---|---|---|",
    ]
    sets = sorted({r.clips for r in rows})
    for name, t in [*((s, totals(r for r in rows if r.clips == s)) for s in sets), ("all", totals(rows))]:
        out.append(
            f"| {name} | {t['photos']} | {t['balls']} | {t['found']} ({100 * t['recall']:.1f} %) | "
            f"{t['named']} ({100 * t['named_right']:.1f} %) | {t['false']} |"
        )
    odd = [r for r in rows if r.missed or r.misnamed or r.false]
    if odd:
        out.append("")
        out.extend(
            f"- {r.clips}/{r.photo}: missed {', '.join(r.missed) or '-'}; "
            f"misnamed {', '.join(r.misnamed) or '-'}; false {r.false}"
            for r in odd
        )
    return "\n".join(out)
