"""Whole synthetic futsal matches (``datasets.team.futsal_stream``), refereed through the stream reader:
the score, the accumulated fouls and the clock at every stoppage against the generator's truth, and the
time it takes (``evaluation.referee_bench``)."""

from __future__ import annotations

import pytest

from adjudication.referee import referee
from adjudication.team import futsal
from arbiter.contract import to_json
from datasets.team.futsal_stream import futsal_match
from evaluation import referee_bench as bench

SEEDS = range(8)


def stream_text(seed: int) -> list[str]:
    m = futsal_match(seed)
    return [to_json(m.header), *(to_json(line) for line in m.lines)]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_whole_match_agrees_with_the_truth(seed: int) -> None:
    m = futsal_match(seed)
    assert 150 <= len(m.lines) <= 600  # two halves, a few hundred lines
    stops = {round(t, 6): clock for t, clock in m.truth.stops}  # as the stream writes its times
    refereed = list(referee(stream_text(seed), engine=futsal.ENGINE))
    checked = 0
    for r in refereed:
        t = round(getattr(r.event, "t", -1.0), 6)
        if r.decisions and t in stops:
            assert r.decisions[0].clock == pytest.approx(stops[t], abs=1e-6), f"line {r.line_no}"
            checked += 1
    assert checked == len(stops)
    decisions = [d for r in refereed for d in r.decisions]
    ends = [d for d in decisions if d.call in ("period_end", "match_end")]
    assert [d.clock for d in ends] == [1200.0, 1200.0]
    assert [dict(d.fouls) for d in ends] == m.truth.fouls
    last = decisions[-1]
    assert last.over and dict(last.score) == m.truth.score
    a, b = m.truth.score.values()
    assert last.winner == (None if a == b else max(m.truth.score, key=m.truth.score.__getitem__))
    assert [d.shot for d in decisions] == list(range(1, len(decisions) + 1))
    assert not any(d.call in ("four_seconds", "goal_disallowed", "timeout_refused") for d in decisions)


@pytest.mark.parametrize("seed", [1, 5])
def test_refereeing_a_whole_match_takes_under_a_fifth_of_a_second(seed: int) -> None:
    timing = bench.time_referee(stream_text(seed), futsal.ENGINE)
    print(f"\n{timing}")
    assert timing.cpu_s < bench.BUDGET_S, str(timing)  # CPU time: other jobs on the machine do not count


def test_the_generator_is_a_function_of_its_seed() -> None:
    assert stream_text(3) == stream_text(3)
    assert stream_text(3) != stream_text(4)
