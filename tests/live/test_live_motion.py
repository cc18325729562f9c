"""The motion meter on synthetic frames: moving squares count, sensor noise and the world outside the bowl do not."""

from __future__ import annotations

import numpy as np

from bobing_vision.live.motion import MotionMeter
from bobing_vision.live.settle import SettleConfig
from bobing_vision.vision.reading import Bowl

START = SettleConfig().start_motion
STILL = SettleConfig().still_motion


def scene(die_x: int, rng: np.random.Generator | None = None, noise: float = 0.0, hand_x: int | None = None) -> np.ndarray:
    img = np.full((480, 640, 3), 200, np.uint8)
    img[220:244, die_x : die_x + 24] = 250  # a 24 px die
    img[226:230, die_x + 10 : die_x + 14] = 20
    if hand_x is not None:
        img[0:120, hand_x : hand_x + 80] = 120  # something moving far outside the bowl
    if rng is not None and noise:
        img = np.clip(img + rng.normal(0, noise, img.shape), 0, 255).astype(np.uint8)
    return img


def test_a_moving_die_is_motion_and_a_still_one_is_not() -> None:
    meter = MotionMeter()
    assert meter.measure(scene(300)) == 0.0  # first frame: nothing to compare with
    assert meter.measure(scene(330)) > START
    assert meter.measure(scene(330)) <= STILL


def test_webcam_noise_is_not_motion() -> None:
    rng = np.random.default_rng(7)
    meter = MotionMeter()
    values = [meter.measure(scene(300, rng, noise=4.0)) for _ in range(5)]
    assert max(values[1:]) <= STILL


def test_once_the_bowl_is_known_motion_outside_it_is_ignored() -> None:
    meter = MotionMeter()
    meter.watch_bowl(Bowl(cx=320, cy=240, rx=120, ry=120))
    meter.measure(scene(300, hand_x=0))
    assert meter.measure(scene(300, hand_x=60)) <= STILL
    assert meter.measure(scene(330, hand_x=60)) > START


def test_without_a_bowl_the_whole_frame_is_watched() -> None:
    meter = MotionMeter()
    meter.measure(scene(300, hand_x=0))
    assert meter.measure(scene(300, hand_x=60)) > START


def test_a_slow_creep_adds_up_against_the_anchor() -> None:
    # 1 px a frame is too little to see between two frames at the meter's scale, but not over several
    meter = MotionMeter()
    values = [meter.measure(scene(300 + i)) for i in range(12)]
    assert max(values) > STILL
