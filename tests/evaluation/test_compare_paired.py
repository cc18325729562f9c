"""`bench/compare_models.py`: two readers paired throw by throw, with an exact sign test."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import pytest

from bobing_vision.dataset.labels import DieLabel
from bobing_vision.evaluation import ImageResult
from bobing_vision.evaluation.matching import match_dice
from bobing_vision.evaluation.verdicts import WRONG_VERDICTS, Verdict
from bobing_vision.vision.reading import DieReading, Reading, ReadingStatus


@pytest.fixture
def compare_models(bench_script: Callable[[str], ModuleType]) -> ModuleType:
    return bench_script("compare_models")


RIGHT, WRONG, VOID, FALSE, REFUSED = (Verdict.RIGHT_AWARD, Verdict.WRONG_AWARD, Verdict.RIGHT_VOID,
                                      Verdict.FALSE_VOID, Verdict.REFUSED)


def test_only_the_throws_the_two_readers_score_differently_count(compare_models: ModuleType) -> None:
    first = {"a": RIGHT, "b": RIGHT, "c": REFUSED, "d": WRONG, "e": VOID, "only_first": RIGHT}
    second = {"a": RIGHT, "b": REFUSED, "c": RIGHT, "d": FALSE, "e": RIGHT, "only_second": RIGHT}
    right = compare_models.paired(first, second, frozenset({RIGHT}))
    assert (right.only_first, right.only_second) == (1, 2)  # b; c and e. A throw one reader lacks is not paired
    wrong = compare_models.paired(first, second, WRONG_VERDICTS)
    assert (wrong.only_first, wrong.only_second) == (0, 0)  # d: wrong with both, if not the same way


@pytest.mark.parametrize(("only_first", "only_second", "p"), [
    (0, 0, 1.0),  # never differ: nothing to tell
    (3, 3, 1.0),
    (0, 5, 2 / 32),  # five of five the same way: 2 * (1/2)^5
    (1, 9, 2 * 11 / 1024),  # 2 * (C(10,0) + C(10,1)) / 2^10
    (9, 1, 2 * 11 / 1024),  # two-sided: the order of the readers does not matter
])
def test_the_sign_test_gives_the_exact_two_sided_chance_of_so_uneven_a_split(
        compare_models: ModuleType, only_first: int, only_second: int, p: float) -> None:
    assert compare_models.Paired(only_first, only_second).p_value == pytest.approx(p)


def test_sixteen_against_nineteen_wrong_verdicts_is_no_difference(compare_models: ModuleType) -> None:
    # The size of the figures a retrain is judged by: 3 throws apart out of 35 is chance (p ~ 0.7).
    assert compare_models.Paired(16, 19).p_value > 0.5
    assert compare_models.Paired(100, 160).p_value < 0.001


def test_each_labelled_die_is_right_wrong_unreadable_or_missed(compare_models: ModuleType) -> None:
    truth = tuple(DieLabel(face=f, center_xy=(40.0 * i, 0.0), in_bowl=True) for i, f in enumerate((1, 2, 3, 4)))
    # found: die 0 read right, die 1 read as a 5, die 2 not read; die 3 not found; a stray die far away
    found = tuple(DieReading(center=(40.0 * i, 0.0), box=(0, 0, 1, 1), face=f, confidence=0.9)
                  for i, f in ((0, 1), (1, 5), (2, None), (9, 6)))
    result = ImageResult(file="a.jpg", labels=truth, reading=Reading(found, None, ReadingStatus.UNREADABLE),
                         match=match_dice(truth, found, 40.0), seconds=0.01)
    assert compare_models.die_states(result) == {
        "a.jpg#0": compare_models.RIGHT_FACE, "a.jpg#1": compare_models.WRONG_FACE,
        "a.jpg#2": compare_models.UNREADABLE, "a.jpg#3": compare_models.MISSED}


def test_the_outcomes_that_moved_are_grouped_by_move_commonest_first(compare_models: ModuleType) -> None:
    first = {"s/a": RIGHT, "s/b": RIGHT, "s/c": REFUSED, "s/d": WRONG, "s/e": RIGHT, "only_first": RIGHT}
    second = {"s/a": RIGHT, "s/b": REFUSED, "s/c": RIGHT, "s/d": FALSE, "s/e": REFUSED, "only_second": RIGHT}
    moved = compare_models.transitions(first, second)
    assert list(moved.items()) == [((RIGHT, REFUSED), ["s/b", "s/e"]), ((REFUSED, RIGHT), ["s/c"]),
                                   ((WRONG, FALSE), ["s/d"])]
    assert compare_models.transitions(first, first) == {}
    assert compare_models.outcome_name(Verdict.RIGHT_AWARD) == "right award"
    assert compare_models.outcome_name(compare_models.UNREADABLE) == "unreadable"
