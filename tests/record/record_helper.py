"""Helpers of the match-record tests: a snooker match stream built from the bundled sample shot, and the
child process of the kill test (``python record_helper.py DB STREAM DELAY``).

Not a test module (no ``test_`` prefix); the tests import it from their own folder.

The match: the sample's break-off (A goes in off, a foul, from the physics engine's truth), B chooses to
play, then B pots a red and the black in turn, a declare before each black, and A concedes. Every later shot
is laid out by hand from the sample's final positions: the white, in hand, starts in the D and moves a little
each shot, the ball potted leaves ``shot_end``, the black is re-spotted on its spot by the engine.
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
IN_HAND = (800.0, 700.0)  # inside the D, behind the baulk line (737 mm)


def snooker_match(breaks: int = 3, concede: bool = True) -> tuple[c.Match, list[c.JsonLine]]:
    """The header and the lines (camera events and player inputs, no decisions) of a short snooker match."""
    header, first = c.read_stream(SAMPLE)
    end = first[-1]
    assert isinstance(end, c.ShotEnd)
    positions = dict(end.positions)
    positions.setdefault("white", IN_HAND)  # the sample's break went in-off: B plays from the D
    lines: list[c.JsonLine] = [*first, c.Choice(player="B", option="play")]
    t = _stream_time(end.t + 1.0)
    reds = sorted((b for b in positions if b.startswith("red:")), key=lambda b: int(b.split(":")[1]))
    for i in range(breaks):
        for target in (reds[i], "black"):
            if target == "black":
                lines.append(c.Declare(player="B", ball="black"))
            hit, cushion, pot, end_t = (_stream_time(t + dt) for dt in (0.3, 0.5, 0.8, 2.0))
            lines += [
                c.ShotStart(t=t, frame=round(t * FPS), ball="white"),
                c.BallBall(t=hit, frame=round(hit * FPS), balls=("white", target)),
                c.Cushion(t=cushion, frame=round(cushion * FPS), ball="white", side="left"),
                c.Pot(t=pot, frame=round(pot * FPS), ball=target, pocket=POCKETS[i % 4]),
            ]
            x, y = positions["white"]
            positions["white"] = (round(x + 37.5, 2), round(y + 101.25, 2))
            after = {b: xy for b, xy in positions.items() if b != target}
            if target != "black":
                del positions[target]
            lines.append(c.ShotEnd(t=end_t, frame=round(end_t * FPS), positions=after))
            t = _stream_time(t + 4.0)
    if concede:
        lines.append(c.Concede(player="A"))
    return header, lines


def _stream_time(t: float) -> float:
    """A time as the stream writes it (``TIME_PLACES``), so a line recorded and read back is the same line."""
    return round(t, c.TIME_PLACES)


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
