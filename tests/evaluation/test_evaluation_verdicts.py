"""What the table would hear for a throw, against its labels: the costly error is a wrong award."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bobing_vision.dataset.labels import DieLabel
from bobing_vision.evaluation import Evaluation, ImageResult, Match, format_table, to_json
from bobing_vision.evaluation.matching import match_dice
from bobing_vision.evaluation.report import throw_faults
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


def scored(file: str, truth: tuple[DieLabel, ...], read: Reading) -> ImageResult:
    return ImageResult(file=file, labels=truth, reading=read, match=match_dice(truth, read.dice, 40.0), seconds=0.01)


def test_the_throws_scored_wrong_are_listed_with_the_dice_at_fault() -> None:
    misread = scored("b.jpg", labels("444412"), reading("444411"))
    # the die out of the bowl was not found; a painted dot in the bowl was read as a 1 in its place
    void = labels("444412", out=5)
    dot = DieReading(center=(500.0, 0.0), box=(0, 0, 1, 1), face=1, confidence=0.96)
    five = reading("44441", ReadingStatus.WRONG_DICE_COUNT).dice
    unseen = scored("a.jpg", void, replace(reading("444411"), dice=(*five, dot)))
    right = scored("c.jpg", labels("444411"), reading("444411"))
    evaluation = Evaluation(results=(misread, right, unseen))
    assert [r.file for r in evaluation.scored_wrong] == ["a.jpg", "b.jpg"]
    assert throw_faults(misread) == ["a 2 read 1, 0.90 sure"]
    assert throw_faults(unseen) == ["a 2 (out of the bowl) not found",
                                    "a 1 read in the bowl at (500, 0), where no die is labelled, 0.96 sure"]
    text = format_table(evaluation)
    assert "throws scored wrong (2 shown of 2: wrong awards and false voids)" in text
    assert "a.jpg: wrong award; labelled 1 2(out) 4 4 4 4, read 1 1 4 4 4 4 (ok)" in text
    assert to_json(evaluation)["scored_wrong"][1] == {"file": "b.jpg", "verdict": "wrong_award",
                                                      "faces_read": [1, 1, 4, 4, 4, 4], "status": "ok",
                                                      "faults": ["a 2 read 1, 0.90 sure"]}


def test_a_false_void_names_the_die_placed_out_of_the_bowl() -> None:
    read = reading("444412")
    placed_out = replace(read, status=ReadingStatus.OUT_OF_BOWL, award=None,
                         dice=(*read.dice[:5], replace(read.dice[5], in_bowl=False)))
    result = scored("v.jpg", labels("444412"), placed_out)
    assert result.verdict is Verdict.FALSE_VOID
    assert throw_faults(result) == ["a 2 read 2 and placed out of the bowl, 0.90 sure"]
