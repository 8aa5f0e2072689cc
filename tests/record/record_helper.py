"""Helpers of the match-record tests: a snooker match stream built from the bundled sample shot, and the
child process of the kill test (``python record_helper.py DB STREAM DELAY``).

Not a test module (no ``test_`` prefix); the tests import it from their own folder.

The match: the sample's opening shot (a foul by A, from the physics engine's truth), B chooses to play,
then B pots a red and the black in turn, a declare before each black, and A concedes. Every later shot is
laid out by hand from the sample's final positions: the white moves a little, the ball potted leaves
``shot_end``, the black is re-spotted on its spot by the engine.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script by the kill test
    sys.path.insert(0, str(ROOT))

from arbiter import contract as c  # noqa: E402

SAMPLE = ROOT / "samples" / "billiards" / "snooker" / "shot_000" / "truth.jsonl"
POCKETS = ("tl", "tr", "bl", "br")
FPS = 60


def snooker_match(breaks: int = 3, concede: bool = True) -> tuple[c.Match, list[c.JsonLine]]:
    """The header and the lines (camera events and player inputs, no decisions) of a short snooker match."""
    header, first = c.read_stream(SAMPLE)
    end = first[-1]
    assert isinstance(end, c.ShotEnd)
    positions = dict(end.positions)
    lines: list[c.JsonLine] = [*first, c.Choice(player="B", option="play")]
    t = end.t + 1.0
    reds = sorted((b for b in positions if b.startswith("red:")), key=lambda b: int(b.split(":")[1]))
    for i in range(breaks):
        for target in (reds[i], "black"):
            if target == "black":
                lines.append(c.Declare(player="B", ball="black"))
            lines += [
                c.ShotStart(t=t, frame=round(t * FPS), ball="white"),
                c.BallBall(t=t + 0.3, frame=round((t + 0.3) * FPS), balls=("white", target)),
                c.Cushion(t=t + 0.5, frame=round((t + 0.5) * FPS), ball="white", side="left"),
                c.Pot(t=t + 0.8, frame=round((t + 0.8) * FPS), ball=target, pocket=POCKETS[i % 4]),
            ]
            x, y = positions["white"]
            positions["white"] = (round(x + 37.5, 2), round(y + 101.25, 2))
            after = {b: xy for b, xy in positions.items() if b != target}
            if target != "black":
                del positions[target]
            lines.append(c.ShotEnd(t=t + 2.0, frame=round((t + 2.0) * FPS), positions=after))
            t += 4.0
    if concede:
        lines.append(c.Concede(player="A"))
    return header, lines


def write_stream(path: Path, header: c.Match, lines: list[c.JsonLine]) -> Path:
    c.write_events(path, [header, *lines])
    return path


def child(db: str, stream: str, delay: float) -> None:
    """Record ``stream`` into ``db`` line by line as a live run would, printing each committed seq."""
    from record.recorder import recording
    from record.store import MatchRecord

    header, lines = c.read_stream(stream)
    record = MatchRecord.open(db)
    match_id = record.start_match(header, source=stream)
    print(f"match {match_id}", flush=True)
    on_event = recording(record, match_id)
    for line in lines:
        for seq in on_event(line):
            print(seq, flush=True)  # printed only after the transaction committed
        time.sleep(delay)
    record.finish(match_id)
    print("finished", flush=True)


if __name__ == "__main__":
    child(sys.argv[1], sys.argv[2], float(sys.argv[3]))
