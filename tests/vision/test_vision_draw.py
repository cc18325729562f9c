"""Drawing a reading: a new picture, the original untouched, each die in the colour of its verdict."""

from __future__ import annotations

import numpy as np
import pytest

from bobing_vision.rules import classify
from bobing_vision.vision.draw import OUTSIDE, READ, UNREADABLE, annotate, ascii_text, headline
from bobing_vision.vision.reading import Bowl, DieReading, Reading, ReadingStatus

BOWL = Bowl(320.0, 240.0, 200.0, 180.0, 15.0)


def die(x: float, face: int | None, in_bowl: bool = True) -> DieReading:
    return DieReading(center=(x, 300.0), box=(x - 15, 285.0, x + 15, 315.0), face=face, confidence=0.9,
                      in_bowl=in_bowl)


@pytest.mark.parametrize(
    ("case", "reading_die", "color"),
    [
        ("read in the bowl", die(200, 4), READ),
        ("unreadable", die(200, None), UNREADABLE),
        ("outside", die(200, 3, in_bowl=False), OUTSIDE),
    ],
)
def test_each_die_is_boxed_in_the_colour_of_its_verdict(case: str, reading_die: DieReading,
                                                         color: tuple[int, int, int]) -> None:
    frame = np.full((480, 640, 3), 128, np.uint8)
    reading = Reading(dice=(reading_die,), bowl=BOWL, status=ReadingStatus.WRONG_DICE_COUNT)
    out = annotate(frame, reading)
    assert out is not frame and out.shape == frame.shape
    assert (frame == 128).all(), "the input frame must not be drawn on"
    # The middle of the box's bottom edge lies on the drawn line.
    assert tuple(int(v) for v in out[315, 200]) == color, case


@pytest.mark.parametrize(
    ("case", "frame"),
    [("gray", np.zeros((240, 320), np.uint8)), ("BGRA", np.zeros((960, 1280, 4), np.uint8))],
)
def test_any_frame_comes_back_bgr_with_a_status_bar(case: str, frame: np.ndarray) -> None:
    reading = Reading(dice=(), bowl=None, status=ReadingStatus.NO_BOWL)
    out = annotate(frame, reading)
    assert out.shape == frame.shape[:2] + (3,), case
    assert out[: out.shape[0] // 20].any(), "status bar text"


def test_headline_names_the_award_or_says_the_status() -> None:
    dice = tuple(die(100 + 40 * i, f) for i, f in enumerate((4, 4, 4, 4, 1, 1)))
    ok = Reading(dice=dice, bowl=BOWL, status=ReadingStatus.OK, award=classify([4, 4, 4, 4, 1, 1]))
    assert headline(ok).startswith("114444: Cha Jin Hua")
    five = Reading(dice=dice[:5], bowl=BOWL, status=ReadingStatus.WRONG_DICE_COUNT)
    assert headline(five) == "5 dice seen"


def test_text_is_drawn_as_ascii() -> None:
    unreadable = Reading(dice=(die(200, None),), bowl=BOWL, status=ReadingStatus.UNREADABLE)
    assert ascii_text(headline(unreadable)) == "can't read die 1 - please look"
    assert ascii_text("四红 Si Hong") == " Si Hong"
