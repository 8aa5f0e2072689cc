"""Following throws: the watcher fed the truth of scripted throw clips (as a good reader would see them) and
hand-made frames. One roll per settled throw, with the right faces, stable ids, kept dice not thrown; a die
off the table, cocked or unreadable reported instead of read. Then the whole dice pipeline on a rendered
clip, refereed as Pig."""

from __future__ import annotations

import json

import numpy as np
import pytest

from arbiter.contract import Roll
from arbiter.games import dice
from datasets.dice.render import ThrowRecipe, throw_clip, truth_readings, write_throw_clip
from tracking.throws import DiceIssue, IssueKind, ThrowWatcher, WatchConfig
from vision.dice import DieReading


def _centre(box):
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def watch(clip, config=None, miss=0.0, seed=0):
    """Run a watcher over a clip's truth; returns [(frame, output, {watcher id: truth key})]."""
    rng = np.random.default_rng(seed)
    w = ThrowWatcher(lambda: "A", config, clip.table_px, clip.recipe.size)
    out = []
    for frame in clip.frames:
        for item in w.update(frame.t, truth_readings(frame, rng, miss=miss), frame=frame.index):
            ids = {}
            for d in w.dice():
                cx, cy = _centre(d.box_px)
                key, *_ = min(
                    frame.dice, key=lambda x: np.hypot(cx - _centre(x[1])[0], cy - _centre(x[1])[1])
                )
                ids[d.id] = key
            out.append((frame, item, ids))
    return out


@pytest.mark.parametrize(("seed", "miss"), [(1, 0.0), (4, 0.0), (8, 0.1)])
def test_one_roll_per_settled_throw_with_the_faces_and_the_dice_thrown(seed, miss):
    clip = throw_clip(ThrowRecipe(dice=4, throws=4, seed=seed), render=False)
    outputs = watch(clip, miss=miss)
    rolls = [(f, r, ids) for f, r, ids in outputs if isinstance(r, Roll)]
    assert len(rolls) == len(clip.throws) == len(outputs)  # and no issue
    settle_s = WatchConfig().settle_s
    kept_ids: dict[str, str] = {}
    for (_, roll, ids), truth in zip(rolls, clip.throws, strict=True):
        # The last creep of a stopping die is below the motion threshold: it may settle a little early.
        assert truth.t_settled <= roll.t < truth.t_settled + settle_s + 0.3
        assert {ids[d.id]: d.value for d in roll.dice} == truth.values
        assert sorted(ids[i] for i in roll.thrown) == sorted(truth.thrown)
        for die_id, key in ids.items():  # a die not thrown keeps its id
            if key not in truth.thrown and key in kept_ids:
                assert kept_ids[key] == die_id
        kept_ids = {key: die_id for die_id, key in ids.items()}
        assert sorted(ids) == [f"d{i}" for i in range(1, len(ids) + 1)]


def test_a_die_that_leaves_the_table_is_reported_not_rolled():
    clip = throw_clip(ThrowRecipe(dice=3, throws=3, seed=6, off_table_share=1.0), render=False)
    outputs = watch(clip)
    for truth in clip.throws:
        during = [
            (f, item, ids) for f, item, ids in outputs if truth.t_settled <= f.t < truth.t_settled + 1.5
        ]
        assert truth.off_table
        assert not any(isinstance(item, Roll) for _, item, _ in during)
        issues = [item for _, item, _ in during if isinstance(item, DiceIssue)]
        assert [i.kind for i in issues] == [IssueKind.OFF_TABLE] * len(truth.off_table)


def test_a_cocked_die_is_reported_and_the_rest_rolled_when_asked():
    clip = throw_clip(ThrowRecipe(dice=3, throws=4, seed=3, cocked_share=1.0), render=False)
    assert any(t.cocked for t in clip.throws)
    strict = watch(clip)
    lenient = watch(clip, WatchConfig(roll_with_issues=True))
    for truth in clip.throws:

        def in_window(outs, truth=truth):
            return [(item, ids) for f, item, ids in outs if truth.t_settled <= f.t < truth.t_settled + 1.5]

        issues = [i for i, _ in in_window(strict) if isinstance(i, DiceIssue)]
        assert sorted(i.kind for i in issues) == [IssueKind.COCKED] * len(truth.cocked)
        rolls = [(r, ids) for r, ids in in_window(lenient) if isinstance(r, Roll)]
        if truth.cocked:
            assert not any(isinstance(i, Roll) for i, _ in in_window(strict))
        if any(k not in truth.cocked for k in truth.thrown):  # a readable die was thrown: a roll of those
            ((roll, ids),) = rolls
            assert {ids[d.id] for d in roll.dice} == {k for k, v in truth.values.items() if v is not None}
        else:  # every thrown die is cocked: nothing thrown can be read, so no roll even when asked
            assert rolls == []


def _still(x, y, value=3, size=40.0, conf=0.95):
    return DieReading((x, y, x + size, y + size), value, conf)


def test_dice_lying_from_the_start_are_kept_until_they_move():
    w = ThrowWatcher(lambda: "B", WatchConfig(settle_s=0.5), frame_size=(640, 480))
    out = []
    t = 0.0
    for _ in range(30):  # two dice lying there: nothing was thrown
        out += w.update(t, [_still(100, 100, 2), _still(300, 100, 5)])
        t += 1 / 30
    assert out == [] and [d.id for d in w.dice()] == ["d1", "d2"]
    for k in range(20):  # the second one slides away and stops
        out += w.update(t, [_still(100, 100, 2), _still(300 + 8 * k, 100, 5 if k < 19 else 6)])
        t += 1 / 30
    settle_frames = []
    for k in range(30):
        got = w.update(t, [_still(100, 100, 2), _still(452, 100, 6)])
        settle_frames += [k] * len(got)
        out += got
        t += 1 / 30
    (roll,) = out
    assert roll.player == "B" and roll.thrown == ("d2",)
    assert [(d.id, d.value) for d in roll.dice] == [("d1", 2), ("d2", 6)]
    assert settle_frames[0] >= 14  # 0.5 s of stillness at 30 fps after the last move


def test_a_one_frame_false_detection_gets_no_id_and_causes_no_roll():
    w = ThrowWatcher(lambda: "A", frame_size=(640, 480))
    out = []
    for k in range(60):
        readings = [_still(100, 100)] + ([_still(400, 300)] if k == 20 else [])
        out += w.update(k / 30, readings)
    assert out == [] and [d.id for d in w.dice()] == ["d1"]


def test_a_settled_die_read_without_confidence_is_unreadable():
    w = ThrowWatcher(lambda: "A", WatchConfig(settle_s=0.3), frame_size=(640, 480))
    out = []
    for k in range(40):  # thrown in after the start, then lies still, read at 0.2
        if k >= 10:
            out += w.update(k / 30, [_still(200, 200, 4, conf=0.2)])
        else:
            out += w.update(k / 30, [])
    (issue,) = out
    assert isinstance(issue, DiceIssue) and issue.kind is IssueKind.UNREADABLE and issue.die == "d1"
    assert "confidence" in issue.note and issue.to_dict()["type"] == "dice_issue"


def test_a_settled_die_the_reader_is_unsure_of_is_unreadable_not_guessed():
    w = ThrowWatcher(lambda: "A", WatchConfig(settle_s=0.3), frame_size=(640, 480))
    out = []
    for k in range(40):
        unsure = DieReading((190, 190, 210, 210), 4, 0.8, unsure=True)
        out += w.update(k / 30, [unsure] if k >= 10 else [])
    (issue,) = out
    assert issue.kind is IssueKind.UNREADABLE and "unsure" in issue.note


def test_a_die_picked_up_and_thrown_again_is_not_reported_lost():
    clip = throw_clip(ThrowRecipe(dice=2, throws=3, seed=2, pickup_s=0.9), render=False)
    outputs = watch(clip)
    assert [type(item) for _, item, _ in outputs] == [Roll] * 3


def _die(x, y, value=4, side=20.0, conf=0.8):
    return DieReading((x - side / 2, y - side / 2, x + side / 2, y + side / 2), value, conf)


def test_a_rolling_die_found_twice_is_one_die_not_one_lost():
    w = ThrowWatcher(lambda: "A", WatchConfig(settle_s=0.3), frame_size=(640, 480))
    out = []
    for k in range(60):  # rolls in from the left from frame 10, rests at x=300 from frame 30
        x = 100 + 10 * min(k - 10, 20)
        seen = [] if k < 10 else [_die(x, 200)]
        if k in (14, 15):  # blurred: found twice, the second box beside the first
            seen.append(_die(x + 12, 205, value=2))
        out += w.update(k / 30, seen)
    assert [type(o) for o in out] == [Roll] and out[0].dice[0].value == 4


def test_a_die_at_rest_picked_up_while_another_rolls_is_not_lost():
    w = ThrowWatcher(lambda: "A", WatchConfig(settle_s=0.3), frame_size=(640, 480))
    out = []
    for k in range(90):
        seen = [_die(500, 100, value=6)] if k < 40 else []  # lies there, then is picked up
        if k >= 30:  # another rolls in, then rests
            seen.append(_die(100 + 10 * min(k - 30, 20), 300, value=3))
        out += w.update(k / 30, seen)
    assert [type(o) for o in out] == [Roll] and out[0].dice[-1].value == 3  # no issue: not lost


def _frames(w, scenes, fps=30):
    """Feed ``scenes`` ([(frames, readings)]) to ``w`` in turn; everything it said, in order."""
    out, k = [], 0
    for n, readings in scenes:
        for _ in range(n):
            out += w.update(k / fps, readings)
            k += 1
    return out


def _shaken(dice, k, amp=8):
    """``dice`` ((x, y, value) each) shaken by a hand: moved ``amp`` px one way or the other."""
    return [_die(x + (amp if k % 2 else -amp), y, v) for x, y, v in dice]


def test_a_throw_whose_new_dice_are_seen_before_the_old_are_given_up_loses_none():
    """A hand sweeps two dice up while the two thrown land (the new ones seen first): none is lost, and the
    roll keeps the hand's ids."""
    w = ThrowWatcher(lambda: "A", WatchConfig(settle_s=0.3), frame_size=(640, 480))
    old, new = [(100, 100, 2), (300, 100, 5)], [_die(200, 350, 6), _die(450, 300, 1)]
    scenes = [(10, []), (30, [_die(x, y, v) for x, y, v in old])]  # thrown in, settled
    scenes += [(1, _shaken(old, k) + (new if k >= 2 else [])) for k in range(6)] + [(40, new)]
    out = _frames(w, scenes)
    assert [type(o) for o in out] == [Roll, Roll]  # nothing lost: the old dice were thrown again
    assert [d.id for d in out[0].dice] == ["d1", "d2"]
    assert [(d.id, d.value) for d in out[1].dice] == [("d1", 6), ("d2", 1)] and out[1].thrown == ("d1", "d2")


def test_a_die_picked_up_and_thrown_again_keeps_its_id_while_the_kept_one_keeps_its_own():
    w = ThrowWatcher(lambda: "A", WatchConfig(settle_s=0.3), frame_size=(640, 480))
    kept, lifted = _die(100, 100, 2), (400, 300, 5)
    scenes = [(10, []), (30, [kept, _die(*lifted[:2], 5)])]
    scenes += [(1, [kept, *_shaken([lifted], k)]) for k in range(3)] + [(5, [kept])]  # in the hand, briefly
    scenes += [(1, [kept, _die(60 + 10 * k, 420, 3)]) for k in range(10)] + [(30, [kept, _die(150, 420, 3)])]
    out = _frames(w, scenes)
    assert [type(o) for o in out] == [Roll, Roll]
    assert [(d.id, d.value) for d in out[1].dice] == [("d1", 2), ("d2", 3)] and out[1].thrown == ("d2",)


def test_a_die_lost_in_a_throw_that_gave_no_roll_takes_its_id_back_when_it_comes_again():
    """The games know the hand of the last roll. A throw that gave only issues (a die lost, another unsure)
    changes no hand. Then one die is picked up and slid elsewhere while the lost one is found again where
    it lay: each takes its own id back, by where it was last seen (the real tray clip's Yacht game called
    'wrong dice' when the lost d5 came back as d6)."""
    w = ThrowWatcher(lambda: "A", WatchConfig(settle_s=0.3), frame_size=(640, 480))
    a, b, c = (100, 100, 2), (300, 100, 5), (500, 100, 3)
    a_unsure = DieReading((140, 290, 160, 310), 4, 0.8, unsure=True)
    a_sure, b_lies, c_lies = _die(150, 300, 4), _die(400, 300, 6), _die(500, 150, 3)
    scenes = [(10, []), (30, [_die(*a), _die(*b), _die(*c)])]  # thrown in and settled: the hand d1, d2, d3
    scenes += [
        (1, [_die(100 + 5 * k, 100 + 20 * k), _die(300 + 10 * k, 100 + 20 * k), _die(500, 100 + 5 * k)])
        for k in range(10)
    ]  # all thrown again, rolling to where they lie...
    scenes += [(3, [a_unsure, b_lies, c_lies]), (40, [a_unsure, c_lies])]  # b missed, a unsure: no roll
    scenes += [(1, [a_sure, _die(500 + (8 if k % 2 else -8), 150, 3)]) for k in range(3)]  # c picked up
    scenes += [(5, [a_sure])]
    scenes += [(1, [a_sure, b_lies, _die(480 - 20 * k, 170 + 5 * k, 1)]) for k in range(10)]  # slid; b seen
    scenes += [(30, [a_sure, b_lies, _die(280, 215, 1)])]
    out = _frames(w, scenes)
    assert [type(o) for o in out] == [Roll, DiceIssue, DiceIssue, Roll]
    assert {(o.kind, o.die) for o in out[1:3]} == {(IssueKind.LOST, "d2"), (IssueKind.UNREADABLE, "d1")}
    assert [(d.id, d.value) for d in out[3].dice] == [("d1", 4), ("d2", 6), ("d3", 1)]
    assert out[3].thrown == ("d2", "d3")


def test_a_thrown_die_the_reader_never_sees_again_is_reported_not_held_forever():
    """One die, thrown and settled; picked up (it moves, then vanishes) and thrown where the reader does
    not see it: once nothing has been seen for ``missing_s`` it is reported lost. Held for less, then
    thrown where it is seen, it is no issue."""
    cfg = WatchConfig(settle_s=0.3, missing_s=2.0)
    w = ThrowWatcher(lambda: "A", cfg, frame_size=(640, 480))
    lifted = [(1, _shaken([(300, 200, 4)], k)) for k in range(3)]
    out = _frames(w, [(10, []), (30, [_die(300, 200, 4)]), *lifted, (100, [])])
    assert [type(o) for o in out] == [Roll, DiceIssue]
    assert out[1].kind is IssueKind.LOST and out[1].die == "d1" and out[1].t >= 1.3 + cfg.missing_s
    w = ThrowWatcher(lambda: "A", cfg, frame_size=(640, 480))
    out = _frames(w, [(10, []), (30, [_die(300, 200, 4)]), *lifted, (45, []), (30, [_die(150, 350, 2)])])
    assert [type(o) for o in out] == [Roll, Roll] and out[1].dice[0].id == "d1"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("settle_s", 0.0),
        ("move_frac", -1.0),
        ("confirm_frames", 0),
        ("min_agreement", 1.5),
        ("diff_level", -1.0),
    ],
)
def test_bad_settings_are_refused_when_built(field, value):
    with pytest.raises(ValueError, match=field):
        WatchConfig(**{field: value})


def test_frame_times_must_not_go_back():
    w = ThrowWatcher(lambda: "A")
    w.update(1.0, [])
    with pytest.raises(ValueError, match="backwards"):
        w.update(0.5, [])


@pytest.mark.slow
def test_a_rendered_throw_clip_is_refereed_as_pig(tmp_path):
    from adjudication.referee import referee
    from pipeline.dice import DiceRunOptions, referee_dice_video
    from vision.sources import FrameSource

    clip = throw_clip(ThrowRecipe(dice=1, throws=3, seed=3, size=(320, 240), die_px=28.0, fps=15.0))
    video = write_throw_clip(clip, tmp_path / "clip")
    truth = json.loads((tmp_path / "clip" / "truth.json").read_text())
    assert len(truth["frames"]) == len(clip.frames)
    rng = np.random.default_rng(0)
    result = referee_dice_video(
        FrameSource(video),
        dice("pig"),
        ["A", "B"],
        tmp_path / "run",
        DiceRunOptions(annotate=True, table_px=tuple(clip.table_px)),
        read_frame=lambda f: truth_readings(clip.frames[f.index], rng),
    )
    faces = [t.values["die0"] for t in clip.throws]
    assert [r.dice[0].value for r in result.rolls] == faces
    assert len(result.decisions) == len(faces) and result.issues == []
    expected = sum(faces[len(faces) - faces[::-1].index(1) :] if 1 in faces else faces)  # a one ends a turn
    assert result.state.turn_total == expected
    replayed = [d for step in referee(tmp_path / "run" / "events.jsonl") for d in step.decisions]
    assert replayed == result.decisions
    assert (tmp_path / "run" / "annotated.mp4").stat().st_size > 0


def test_network_output_becomes_readings_clipped_to_the_picture():
    from vision.dice import COCKED_CLASS, NOT_A_DIE, READER_CLASSES, DiceReaderConfig, readings_from

    boxes = np.array([[-5.0, 10.0, 40.0, 50.0], [600.0, 400.0, 700.0, 500.0], [10.0, 10.0, 10.5, 30.0]])
    probs = np.zeros((3, len(READER_CLASSES)))
    probs[0, 4], probs[1, COCKED_CLASS], probs[2, 2] = 0.95, 0.7, 0.9
    probs[0, NOT_A_DIE], probs[1, 3], probs[2, NOT_A_DIE] = 0.05, 0.3, 0.1
    readings = readings_from(boxes, np.array([0.9, 0.9, 0.8]), probs, (640, 480))
    assert [r.box_px for r in readings] == [(0.0, 10.0, 40.0, 50.0), (600.0, 400.0, 640.0, 480.0)]
    assert [r.value for r in readings] == [5, None]
    # the finder's score times the face's probability, times the chance it is a die to the default power
    die = 1.0 - probs[0, NOT_A_DIE]
    assert readings[0].confidence == pytest.approx(0.9 * 0.95 * die ** DiceReaderConfig().die_power)
    assert not readings[0].unsure
    assert readings[1].unsure and readings[1].probs[COCKED_CLASS] == pytest.approx(0.7)
    assert readings[1].to_dict()["cocked"] is True and readings[1].to_dict()["unsure"] is True


def test_a_reading_must_be_a_face_and_a_box():
    with pytest.raises(ValueError, match=r"1\.\.6"):
        DieReading((0, 0, 10, 10), 7, 0.9)
    with pytest.raises(ValueError, match="x0 < x1"):
        DieReading((10, 0, 5, 10), 3, 0.9)


def test_a_missing_dice_model_says_how_to_make_one(tmp_path):
    from vision.dice import DiceReader, DiceReaderConfig
    from vision.yolo import ModelError

    with pytest.raises(ModelError, match="arbiter dice train"):
        DiceReader(tmp_path / "none.json")
    with pytest.raises(ModelError, match="arbiter dice train"):
        DiceReader(tmp_path)
    with pytest.raises(ValueError, match="multiple of 32"):
        DiceReaderConfig(long_side=600)
