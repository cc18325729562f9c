"""DATA.md's matching rule: one to one, nearest first, inside the box or within half a die width."""

from __future__ import annotations

import pytest

from bobing_vision.dataset.labels import DieLabel
from bobing_vision.evaluation.matching import match_dice, typical_width
from bobing_vision.vision.reading import DieReading


def found(x: float, y: float, size: float = 30) -> DieReading:
    h = size / 2
    return DieReading(center=(x, y), box=(x - h, y - h, x + h, y + h), face=1, confidence=1.0)


def by_box(x0: float, y0: float, x1: float, y1: float) -> DieLabel:
    return DieLabel(face=1, box=(x0, y0, x1, y1))


def by_centre(x: float, y: float) -> DieLabel:
    return DieLabel(face=1, center_xy=(x, y))


@pytest.mark.parametrize(
    "labels, dice, width, pairs, missed, extra",
    [
        pytest.param([by_box(0, 0, 30, 30)], [found(29, 1)], None, ((0, 0),), (), (), id="corner-inside-box-no-width"),
        pytest.param([by_box(0, 0, 30, 30)], [found(31, 15)], None, (), (0,), (0,), id="just-outside-box-no-width"),
        pytest.param([by_box(0, 0, 30, 30)], [found(31, 15)], 40, ((0, 0),), (), (), id="outside-box-within-half-width"),
        pytest.param([by_centre(50, 50)], [found(65, 50)], 30, ((0, 0),), (), (), id="centre-exactly-half-width"),
        pytest.param([by_centre(50, 50)], [found(65.1, 50)], 30, (), (0,), (0,), id="centre-beyond-half-width"),
        pytest.param([by_centre(50, 50)], [found(51, 50)], None, (), (0,), (0,), id="centre-label-no-width-cannot-match"),
        pytest.param([by_box(0, 0, 30, 30)], [found(20, 15), found(14, 16)], 30, ((0, 1),), (), (0,), id="two-found-nearest-wins"),
        pytest.param(
            [by_box(0, 0, 30, 30), by_box(28, 0, 58, 30)], [found(30, 15)], 30, ((1, 0),), (0,), (), id="one-found-two-labels-nearest"
        ),
        pytest.param(
            # greedy by distance: found 0 is nearest to label 1, so label 0 gets found 1
            [by_centre(0, 0), by_centre(20, 0)], [found(12, 0), found(-5, 0)], 30, ((0, 1), (1, 0)), (), (), id="one-to-one"
        ),
        pytest.param([], [found(5, 5)], 30, (), (), (0,), id="nothing-labelled"),
        pytest.param([by_centre(5, 5)], [], 30, (), (0,), (), id="nothing-found"),
    ],
)
def test_match_dice(labels, dice, width, pairs, missed, extra) -> None:
    match = match_dice(labels, dice, width)
    assert (match.pairs, match.missed, match.extra) == (pairs, missed, extra)


@pytest.mark.parametrize(
    "labels, dice, set_width, expected",
    [
        pytest.param([by_box(0, 0, 20, 20), by_box(0, 0, 40, 40), by_box(0, 0, 44, 44)], [], 99, 40, id="image-median"),
        pytest.param([by_box(0, 0, 20, 30)], [], 99, 25, id="box-size-is-mean-of-sides"),
        pytest.param([by_centre(1, 1)], [found(0, 0, 12)], 33, 33, id="else-the-set"),
        pytest.param([by_centre(1, 1)], [found(0, 0, 12), found(0, 0, 16), found(0, 0, 50)], None, 16, id="else-found-dice"),
        pytest.param([by_centre(1, 1)], [], None, None, id="nothing-to-go-by"),
    ],
)
def test_typical_width_fallbacks(labels, dice, set_width, expected) -> None:
    assert typical_width(labels, dice, set_width) == expected
