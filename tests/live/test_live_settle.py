"""The settle detector on synthetic sequences: numbers in, steps and verdicts out (no pixels)."""

from __future__ import annotations

import pytest

from bobing_vision.errors import InvalidInput
from bobing_vision.live.settle import Phase, SettleConfig, SettleDetector, Step, Verdict, VerdictKind
from bobing_vision.vision.reading import DieReading, Reading, ReadingStatus

FPS = 30.0
MOVING, STILL = 0.05, 0.0
# For tests about which still periods count as throws: no extra look at unsure readings.
NO_PATIENCE = SettleConfig(unsure_patience_s=0.0)


def reading(faces: str, status: ReadingStatus = ReadingStatus.OK, shift: float = 0.0, unread: int = -1) -> Reading:
    dice = tuple(
        DieReading(center=(100.0 + 40 * i + shift, 200.0), box=(0, 0, 1, 1), face=None if i == unread else int(f), confidence=0.9)
        for i, f in enumerate(faces)
    )
    return Reading(dice=dice, bowl=None, status=status)


def run(motions: list[float], reads: list[Reading] | None = None, config: SettleConfig = SettleConfig()) -> tuple[list[Step], list[Verdict]]:
    """Drive the detector at 30 fps; each READ takes the next reading of `reads` (the last repeats)."""
    detector = SettleDetector(config)
    steps, verdicts = [], []
    queue = list(reads or [reading("444411")])
    for i, motion in enumerate(motions):
        t = i / FPS
        step = detector.update(motion, t)
        steps.append(step)
        verdict = None
        if step is Step.READ:
            r = queue.pop(0) if len(queue) > 1 else queue[0]
            verdict = detector.observe(r, t)
        elif step is Step.DECIDE:
            verdict = detector.decide(t)
        if verdict is not None:
            verdicts.append(verdict)
    return steps, verdicts


def frames(seconds: float, motion: float) -> list[float]:
    return [motion] * round(seconds * FPS)


def test_one_result_per_throw_after_the_settle_time() -> None:
    steps, verdicts = run(frames(0.3, STILL) + frames(1.0, MOVING) + frames(2.0, STILL))
    assert [v.kind for v in verdicts] == [VerdictKind.RESULT]
    assert steps.count(Step.THROW_STARTED) == 1
    # announced at the first frame at least settle_seconds after the dice stopped, not before
    stopped = 1.3
    assert verdicts[0].t == pytest.approx(stopped + 0.5, abs=1.01 / FPS)


def test_dice_still_rolling_give_nothing() -> None:
    steps, verdicts = run(frames(0.2, STILL) + frames(3.0, MOVING))
    assert verdicts == []
    assert Step.READ not in steps


def test_dice_lying_still_at_start_up_are_not_a_throw() -> None:
    steps, verdicts = run(frames(3.0, STILL))
    assert verdicts == [] and set(steps) == {Step.NOTHING}


def test_a_pause_shorter_than_the_settle_time_is_not_settled() -> None:
    # a die stops for 0.3 s then rolls on: one result, after the real stop only
    seq = frames(0.5, MOVING) + frames(0.3, STILL) + frames(0.5, MOVING) + frames(1.0, STILL)
    _, verdicts = run(seq)
    assert len(verdicts) == 1 and verdicts[0].t >= 1.3 - 1 / FPS + 0.5 - 1e-9


def test_small_motion_below_the_start_threshold_does_not_start_a_throw() -> None:
    noise = SettleConfig().start_motion * 0.5
    _, verdicts = run(frames(3.0, noise))
    assert verdicts == []


def test_reading_starts_early_so_the_confirmation_is_ready_at_settle() -> None:
    steps, verdicts = run(frames(0.5, MOVING) + frames(1.0, STILL))
    first_read = steps.index(Step.READ) / FPS
    assert first_read < 0.5 + 0.5  # before the settle time is up
    assert verdicts[0].t == pytest.approx(1.0, abs=1.01 / FPS)


@pytest.mark.parametrize(
    ("case", "reads", "kind"),
    [
        ("steady read", [reading("444411")], VerdictKind.RESULT),
        ("jitter: reads never agree twice running", [reading("444411"), reading("444412")] * 10, VerdictKind.UNSTEADY),
        ("hand resting in the bowl: not six dice", [reading("4441", ReadingStatus.WRONG_DICE_COUNT)], VerdictKind.NOT_DICE),
        ("no bowl in view", [Reading(dice=(), bowl=None, status=ReadingStatus.NO_BOWL)], VerdictKind.NOT_DICE),
        ("die out of the bowl is a result (void)", [reading("444411", ReadingStatus.OUT_OF_BOWL)], VerdictKind.RESULT),
        ("unreadable die is a result (please look)", [reading("444411", ReadingStatus.UNREADABLE, unread=2)], VerdictKind.RESULT),
    ],
)
def test_verdicts(case: str, reads: list[Reading], kind: VerdictKind) -> None:
    _, verdicts = run(frames(0.5, MOVING) + frames(1.5, STILL), reads)
    assert [v.kind for v in verdicts] == [kind], case


def test_a_flicker_then_agreement_is_announced_once_with_the_agreed_faces() -> None:
    reads = [reading("444412"), reading("444411"), reading("444411")]
    _, verdicts = run(frames(0.5, MOVING) + frames(1.5, STILL), reads)
    assert len(verdicts) == 1 and verdicts[0].reading.faces == (1, 1, 4, 4, 4, 4)


def test_an_unreadable_die_that_reads_on_a_later_still_frame_gives_the_award() -> None:
    unsure = reading("444411", ReadingStatus.UNREADABLE, unread=2)
    reads = [unsure, unsure, unsure, reading("444411"), reading("444411")]
    _, verdicts = run(frames(0.5, MOVING) + frames(1.5, STILL), reads)
    assert [(v.kind, v.reading.status) for v in verdicts] == [(VerdictKind.RESULT, ReadingStatus.OK)]


def test_a_die_that_stays_unreadable_is_announced_once_the_patience_is_spent() -> None:
    unsure = reading("444411", ReadingStatus.UNREADABLE, unread=2)
    _, verdicts = run(frames(0.5, MOVING) + frames(2.0, STILL), [unsure])
    config = SettleConfig()
    assert [(v.kind, v.reading.status) for v in verdicts] == [(VerdictKind.RESULT, ReadingStatus.UNREADABLE)]
    assert verdicts[0].t == pytest.approx(0.5 + config.settle_seconds + config.unsure_patience_s, abs=1.01 / FPS)


def test_two_throws_give_two_results() -> None:
    seq = frames(0.5, MOVING) + frames(1.0, STILL) + frames(0.5, MOVING) + frames(1.0, STILL)
    _, verdicts = run(seq, [reading("444411")] * 3 + [reading("123456", shift=30.0)])
    assert [v.kind for v in verdicts] == [VerdictKind.RESULT, VerdictKind.RESULT]
    assert verdicts[1].reading.faces == (1, 2, 3, 4, 5, 6)


def test_a_bump_that_leaves_the_same_dice_in_place_is_not_a_new_throw() -> None:
    seq = frames(0.5, MOVING) + frames(1.0, STILL) + frames(0.1, MOVING) + frames(1.0, STILL)
    _, verdicts = run(seq, [reading("444411")] * 3 + [reading("444411", shift=1.5)])
    assert [v.kind for v in verdicts] == [VerdictKind.RESULT, VerdictKind.SAME_DICE]


def test_a_die_put_back_after_a_void_throw_is_not_a_new_throw() -> None:
    out = reading("444411", ReadingStatus.OUT_OF_BOWL)
    back = Reading(dice=out.dice[:5] + (DieReading(center=(300.0, 120.0), box=(0, 0, 1, 1), face=3, confidence=0.9),),
                   bowl=None, status=ReadingStatus.OK)
    seq = frames(0.5, MOVING) + frames(1.0, STILL) + frames(0.3, MOVING) + frames(1.0, STILL)
    _, verdicts = run(seq, [out] * 3 + [back])
    assert [v.kind for v in verdicts] == [VerdictKind.RESULT, VerdictKind.SAME_DICE]


def test_an_unreadable_die_made_readable_in_place_is_that_throw_resolved() -> None:
    seq = frames(0.5, MOVING) + frames(1.0, STILL) + frames(0.1, MOVING) + frames(1.0, STILL)
    unread = reading("444411", ReadingStatus.UNREADABLE, unread=2)
    _, verdicts = run(seq, [unread] * 3 + [reading("444411", shift=2.0)], NO_PATIENCE)
    assert [v.kind for v in verdicts] == [VerdictKind.RESULT, VerdictKind.RESULT]


def test_an_unreadable_throw_entered_by_hand_is_not_counted_again_when_read() -> None:
    detector = SettleDetector(NO_PATIENCE)
    unread, fixed = reading("444411", ReadingStatus.UNREADABLE, unread=2), reading("444411", shift=2.0)
    verdicts = []
    for i, (motion, r) in enumerate([(MOVING, unread)] + [(STILL, unread)] * 20 + [(MOVING, fixed)] + [(STILL, fixed)] * 20):
        step = detector.update(motion, i / FPS)
        verdict = detector.observe(r, i / FPS) if step is Step.READ else detector.decide(i / FPS) if step is Step.DECIDE else None
        if verdict is not None:
            verdicts.append(verdict.kind)
            detector.settled_by_hand()  # the operator typed the faces at once
    assert verdicts == [VerdictKind.RESULT, VerdictKind.SAME_DICE]


def test_same_faces_but_dice_moved_is_a_new_throw() -> None:
    seq = frames(0.5, MOVING) + frames(1.0, STILL) + frames(0.5, MOVING) + frames(1.0, STILL)
    _, verdicts = run(seq, [reading("444411")] * 3 + [reading("444411", shift=30.0)])
    assert [v.kind for v in verdicts] == [VerdictKind.RESULT, VerdictKind.RESULT]


def test_a_hand_lifted_after_resting_lets_the_next_still_period_count() -> None:
    hand = reading("44", ReadingStatus.WRONG_DICE_COUNT)
    seq = frames(0.5, MOVING) + frames(1.0, STILL) + frames(0.3, MOVING) + frames(1.0, STILL)
    _, verdicts = run(seq, [hand] * 3 + [reading("111111")], NO_PATIENCE)
    assert [v.kind for v in verdicts] == [VerdictKind.NOT_DICE, VerdictKind.RESULT]


def test_a_settle_time_setting_is_honoured() -> None:
    _, verdicts = run(frames(0.5, MOVING) + frames(2.0, STILL), config=SettleConfig(settle_seconds=1.2))
    assert verdicts[0].t == pytest.approx(0.5 + 1.2, abs=1.01 / FPS)


def test_a_reading_out_of_turn_is_refused() -> None:
    detector = SettleDetector()
    assert detector.phase is Phase.WAITING
    with pytest.raises(InvalidInput, match="expected a reading only after"):
        detector.observe(reading("444411"), 0.0)


@pytest.mark.parametrize(
    ("case", "kwargs"),
    [("settle time of zero", {"settle_seconds": 0.0}), ("still above start", {"still_motion": 0.5, "start_motion": 0.1}), ("one read", {"max_reads": 1}), ("negative patience", {"unsure_patience_s": -0.1})],
)
def test_bad_config_is_refused(case: str, kwargs: dict[str, float]) -> None:
    with pytest.raises(InvalidInput, match="expected"):
        SettleConfig(**kwargs)  # type: ignore[arg-type]


def test_two_agreeing_reads_before_the_settle_time_decide_it_without_another_read() -> None:
    steps, verdicts = run(frames(0.5, MOVING) + frames(1.0, STILL))
    assert steps.count(Step.READ) == 2 and steps.count(Step.DECIDE) == 1
    decided = steps.index(Step.DECIDE) / FPS
    assert verdicts[0].t == pytest.approx(decided) and decided == pytest.approx(1.0, abs=1.01 / FPS)
