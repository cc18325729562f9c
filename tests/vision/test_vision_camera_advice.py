"""Dice seen too small to read well get advice, their size the median of the dice in the bowl; so does a
rim running off the frame."""

from __future__ import annotations

import pytest

from bobing_vision.errors import InvalidInput
from bobing_vision.vision.bowl import rim_in_view
from bobing_vision.vision.camera_advice import SizeAdvice, dice_width, rim_advice, size_advice
from bobing_vision.vision.reading import DieReading, Reading, ReadingStatus


def reading(widths: list[float], outside: tuple[float, ...] = ()) -> Reading:
    dice = [DieReading(center=(50.0 * i, 0.0), box=(50.0 * i, 0.0, 50.0 * i + w, w), face=3, confidence=0.9)
            for i, w in enumerate(widths)]
    dice += [DieReading(center=(0.0, 99.0), box=(0.0, 90.0, w, 90.0 + w), face=3, confidence=0.9, in_bowl=False)
             for w in outside]
    return Reading(dice=tuple(dice), bowl=None, status=ReadingStatus.OK)


def test_the_width_is_the_median_of_the_dice_in_the_bowl() -> None:
    assert dice_width(reading([10, 12, 30], outside=(40, 40, 40))) == 12
    assert dice_width(reading([10, 12])) is None  # two dice say too little


def test_advice_only_below_the_bar() -> None:
    assert size_advice(None) is None and size_advice(18.0) is None
    text = size_advice(17.4)
    assert text is not None and text.startswith("the dice are only 17 px wide") and "24 px or more" in text
    assert size_advice(20.0, SizeAdvice(too_small_px=22.0, good_px=30.0)) is not None


def test_a_bar_above_the_good_size_is_refused() -> None:
    with pytest.raises(InvalidInput):
        SizeAdvice(too_small_px=30.0, good_px=24.0)


def test_a_rim_cut_by_the_frame_gets_advice() -> None:
    whole = rim_in_view((320.0, 240.0, 200.0, 180.0, 0.0), 640, 480)
    half = rim_in_view((0.0, 240.0, 150.0, 150.0, 0.0), 640, 480)
    assert whole == 1.0 and half == pytest.approx(0.5, abs=0.02)
    assert rim_advice(whole) is None and rim_advice(0.95) is None
    text = rim_advice(half)
    assert text is not None and text.startswith("only 50% of the rim is in view") and "not seen" in text
