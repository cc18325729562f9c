"""What the table would hear for a throw, against its labels: the costly error is a wrong award."""

from __future__ import annotations

import pytest

from bobing_vision.dataset.labels import DieLabel
from bobing_vision.evaluation import Evaluation, ImageResult, Match
from bobing_vision.evaluation.verdicts import Verdict, judge
from bobing_vision.rules import RuleSet, classify
from bobing_vision.vision.reading import DieReading, Reading, ReadingStatus


def labels(faces: str, out: int = -1) -> tuple[DieLabel, ...]:
    return tuple(
        DieLabel(face=int(f), center_xy=(40.0 * i, 0.0), in_bowl=False if i == out else True) for i, f in enumerate(faces)
    )


def reading(faces: str, status: ReadingStatus = ReadingStatus.OK, rules: RuleSet | None = None) -> Reading:
    dice = tuple(DieReading(center=(40.0 * i, 0.0), box=(0, 0, 1, 1), face=int(f), confidence=0.9) for i, f in enumerate(faces))
    award = classify([int(f) for f in faces], rules or RuleSet.preset("golden-flower-first")) if status is ReadingStatus.OK else None
    return Reading(dice=dice, bowl=None, status=status, award=award)


@pytest.mark.parametrize(
    ("case", "truth", "read", "expected"),
    [
        ("same faces", labels("444411"), reading("444411"), Verdict.RIGHT_AWARD),
        ("an exact tie under the rules is the same award", labels("444433"), reading("444415"), Verdict.RIGHT_AWARD),
        ("same tier below 状元 is the same prize", labels("412235"), reading("412255"), Verdict.RIGHT_AWARD),
        ("one die misread changes the award", labels("444412"), reading("444411"), Verdict.WRONG_AWARD),
        ("an award for a void throw", labels("444412", out=5), reading("444412"), Verdict.WRONG_AWARD),
        ("void called right", labels("444412", out=0), reading("44412", ReadingStatus.OUT_OF_BOWL), Verdict.RIGHT_VOID),
        ("void called on dice all in the bowl", labels("444412"), reading("444412", ReadingStatus.OUT_OF_BOWL), Verdict.FALSE_VOID),
        ("a die that cannot be read", labels("444412"), reading("44441", ReadingStatus.UNREADABLE), Verdict.REFUSED),
        ("five dice seen", labels("444412"), reading("44441", ReadingStatus.WRONG_DICE_COUNT), Verdict.REFUSED),
        ("five dice seen on a void throw is no verdict either", labels("444412", out=1), reading("44441", ReadingStatus.WRONG_DICE_COUNT), Verdict.REFUSED),
    ],
)
def test_judge(case: str, truth: tuple[DieLabel, ...], read: Reading, expected: Verdict) -> None:
    assert judge(truth, read) is expected, case


def test_a_photo_of_more_or_fewer_dice_than_a_throw_is_not_judged() -> None:
    assert judge(labels("12345"), reading("12345", ReadingStatus.WRONG_DICE_COUNT)) is None
    assert judge(labels("1234561"), reading("1234561", ReadingStatus.WRONG_DICE_COUNT)) is None


def test_the_award_is_judged_under_the_readers_rule_set() -> None:
    # 111111 and 666666 are different awards by default, but tie where 黑六勃 is not compared by face
    # and 遍地锦 is folded into it
    flat = RuleSet(name="flat", bian_di_jin_separate=False, black_six_by_face=False)
    assert judge(labels("111111"), reading("666666")) is Verdict.WRONG_AWARD
    assert judge(labels("111111"), reading("666666", rules=flat)) is Verdict.RIGHT_AWARD


def test_an_evaluation_counts_every_verdict_kind() -> None:
    results = tuple(
        ImageResult(file=f"{i}.jpg", labels=truth, reading=read, match=Match(pairs=(), missed=(), extra=()), seconds=0.01)
        for i, (truth, read) in enumerate(
            [(labels("444411"), reading("444411")), (labels("444412"), reading("444411")), (labels("12345"), reading("12345", ReadingStatus.WRONG_DICE_COUNT))]
        )
    )
    counts = Evaluation(results=results).verdicts
    assert counts[Verdict.RIGHT_AWARD] == 1 and counts[Verdict.WRONG_AWARD] == 1
    assert sum(counts.values()) == 2 and set(counts) == set(Verdict)
