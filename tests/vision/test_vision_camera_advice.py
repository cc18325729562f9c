"""Dice seen too small to read well get advice, their size the median of the dice in the bowl; so do a
rim running off the frame and a bowl washed out to white."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from bobing_vision.errors import InvalidInput
from bobing_vision.vision.bowl import rim_in_view
from bobing_vision.synth import render_scene
from bobing_vision.vision.camera_advice import (
    SizeAdvice, camera_tilt, dice_width, exposure_advice, rim_advice, size_advice, tilt_advice, washed_out_share,
)
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


def test_the_washed_out_share_counts_pure_white_inside_the_rim_only() -> None:
    image = np.full((240, 320, 3), 255, np.uint8)  # a white table: outside the rim, not counted
    rim = (160.0, 120.0, 100.0, 60.0, 30.0)
    cv2.ellipse(image, ((160, 120), (200, 120), 30), (200, 210, 220), -1)
    assert washed_out_share(image, rim) == pytest.approx(0.0, abs=0.02)
    image[:, :160] = (252, 255, 251)  # the left half clipped in every channel
    assert washed_out_share(image, rim) == pytest.approx(0.5, abs=0.02)
    image[:, :160, 0] = 200  # bright but not clipped in blue: a colour, not pure white
    assert washed_out_share(image, rim) == pytest.approx(0.0, abs=0.02)
    grey = np.full((240, 320), 255, np.uint8)
    assert washed_out_share(grey, (0.0, 120.0, 100.0, 100.0, 0.0)) == pytest.approx(1.0)  # half off the frame
    assert washed_out_share(grey, (-300.0, -300.0, 50.0, 50.0, 0.0)) == 0.0  # wholly off it


def test_advice_past_the_bar_only() -> None:
    assert exposure_advice(0.0) is None and exposure_advice(0.29) is None
    text = exposure_advice(0.62)
    assert text is not None and text.startswith("62% of the bowl is pure white") and "exposure" in text


def test_generated_bowls_over_exposed_get_advice_and_as_rendered_do_not() -> None:
    advised = {"as rendered": 0, "over-exposed by half": 0}
    for seed in range(3000, 3012):
        image, label = render_scene(np.random.default_rng(seed))
        assert label.bowl is not None
        bright = np.clip(image.astype(np.float32) * 1.5, 0, 255).astype(np.uint8)
        advised["as rendered"] += exposure_advice(washed_out_share(image, label.bowl)) is not None
        advised["over-exposed by half"] += exposure_advice(washed_out_share(bright, label.bowl)) is not None
    assert advised["as rendered"] <= 1 and advised["over-exposed by half"] >= 8


def test_the_tilt_is_read_from_how_flat_the_rim_is() -> None:
    assert camera_tilt((100.0, 100.0, 80.0, 80.0, 0.0)) == pytest.approx(0.0)
    assert camera_tilt((100.0, 100.0, 40.0, 80.0, 30.0)) == pytest.approx(60.0)  # either axis the short one
    assert camera_tilt((100.0, 100.0, 80.0, 40.0, 120.0)) == pytest.approx(60.0)


def test_a_camera_too_far_off_vertical_is_advised_to_look_down_more() -> None:
    assert tilt_advice(0.0) is None and tilt_advice(44.0) is None
    text = tilt_advice(52.4)
    assert text is not None and text.startswith("the camera looks at the bowl 52 degrees off vertical")


def test_generated_rims_tell_how_steeply_the_camera_looks() -> None:
    """The labelled rim of generated scenes gives back the camera's tilt the generator drew, within the
    few degrees perspective bends it; the advice follows the steep ones."""
    from bobing_vision.synth import SceneSpec

    for seed in range(3000, 3006):
        _, label = render_scene(np.random.default_rng(seed), SceneSpec(size=(160, 120), max_tilt_deg=60.0))
        assert label.bowl is not None
        drawn = label.extra["synth"]["tilt_deg"]
        assert camera_tilt(label.bowl) == pytest.approx(drawn, abs=8.0), seed
        if drawn < 35 or drawn > 55:
            assert (tilt_advice(camera_tilt(label.bowl)) is not None) == (drawn > 55), seed
