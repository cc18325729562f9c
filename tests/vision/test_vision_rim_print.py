"""A bowl kept from frame to frame by its rim's look: found in its own frame after changes of light, noise
and compression, measured when it moved, never found in another scene."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from bobing_vision.synth import render_scene
from bobing_vision.vision.bowl import find_bowl
from bobing_vision.vision.reading import Bowl
from bobing_vision.vision.rim_print import BowlTracker, RimPrint

TEST_SEED = 2031  # the thresholds were chosen on bench/bench_reader.py's scenes (seed 4242)


@pytest.fixture(scope="module")
def views() -> list[tuple[np.ndarray, Bowl]]:
    rng = np.random.default_rng(TEST_SEED)
    out = []
    while len(out) < 4:
        image, _ = render_scene(rng)
        bowl = find_bowl(image)
        if bowl is not None:
            out.append((image, bowl))
    return out


def moved(image: np.ndarray, dx: float, dy: float, scale: float = 1.0, about: tuple[float, float] = (0, 0)) -> np.ndarray:
    """The frame with everything in it shifted by (dx, dy) and grown by `scale` about `about`."""
    cx, cy = about
    matrix = np.float32([[scale, 0, cx - scale * cx + dx], [0, scale, cy - scale * cy + dy]])
    return cv2.warpAffine(image, matrix, image.shape[1::-1], flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def test_the_look_is_found_in_its_own_frame_whatever_the_light_noise_or_compression(views: list) -> None:
    rng = np.random.default_rng(1)
    for image, bowl in views:
        look = RimPrint.take(image, bowl)
        dimmer = cv2.convertScaleAbs(image, alpha=0.7, beta=25)
        noisy = np.clip(image + rng.normal(0, 6, image.shape), 0, 255).astype(np.uint8)
        squeezed = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 40])[1], cv2.IMREAD_COLOR)
        for frame in (image, dimmer, noisy, squeezed):
            move = look.move(frame)
            assert move is not None and max(move) < 0.003
            assert look.matches(frame)


def test_a_moved_bowl_is_measured_and_not_kept(views: list) -> None:
    for image, bowl in views:
        look = RimPrint.take(image, bowl)
        r = float(np.sqrt(bowl.rx * bowl.ry))
        shift = look.move(moved(image, 0.012 * r, -0.016 * r))  # 2% of the radius
        assert shift is not None and shift[0] == pytest.approx(0.02, abs=0.003) and shift[1] < 0.003
        grown = look.move(moved(image, 0, 0, scale=1.02, about=(bowl.cx, bowl.cy)))
        assert grown is not None and grown[1] == pytest.approx(0.02, abs=0.004) and grown[0] < 0.003
        assert look.matches(moved(image, 0.004 * r, 0))  # less than track_tol (1%)
        assert not look.matches(moved(image, 0.02 * r, 0))


def test_another_scene_or_size_or_a_plain_frame_is_not_the_same_view(views: list) -> None:
    for (image, bowl), (other, _) in zip(views, views[1:] + views[:1]):
        look = RimPrint.take(image, bowl)
        assert look.move(other) is None
        assert look.move(cv2.resize(image, None, fx=0.5, fy=0.5)) is None
        assert look.move(np.full_like(image, 128)) is None
    plain = np.full((240, 320, 3), 128, np.uint8)
    look = RimPrint.take(plain, Bowl(160, 120, 90, 80))
    assert not look.usable.any() and look.move(plain) is None  # no line to match


def test_a_gray_or_bgra_frame_has_the_same_look_as_its_colour_one(views: list) -> None:
    image, bowl = views[0]
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    colour = RimPrint.take(image, bowl)
    same = np.sum(RimPrint.take(gray, bowl).looks * colour.looks, axis=1)[colour.usable]  # per line correlation
    assert np.median(same) > 0.99
    assert colour.matches(cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR)) and RimPrint.take(gray, bowl).matches(image)
    assert colour.matches(cv2.cvtColor(image, cv2.COLOR_BGR2BGRA))


def test_the_tracker_keeps_a_bowl_only_once_its_rim_was_seen_on_edges(views: list) -> None:
    image, bowl = views[0]
    tracker = BowlTracker()
    assert tracker.recall(image) is None  # nothing seen yet
    tracker.saw(image, bowl)
    assert tracker.recall(image) is bowl
    assert tracker.recall(views[1][0]) is None
    # A bowl that a search got wrong (4% off the rim) matches its own look but not the rim's edges.
    r = float(np.sqrt(bowl.rx * bowl.ry))
    wrong = Bowl(bowl.cx + 0.04 * r, bowl.cy, bowl.rx, bowl.ry, bowl.angle_deg)
    tracker.saw(image, wrong)
    assert tracker.recall(image) is None
    tracker.saw(image, bowl)
    tracker.forget()
    assert tracker.recall(image) is None
    tracker.saw(image, None)
    assert tracker.recall(image) is None


def test_a_bowl_pushed_a_little_at_a_time_is_let_go_once_the_pushes_add_up(views: list) -> None:
    image, bowl = views[0]
    r = float(np.sqrt(bowl.rx * bowl.ry))
    tracker = BowlTracker()
    tracker.saw(image, bowl)
    assert tracker.recall(image) is bowl
    nudged = moved(image, 0.006 * r, 0)
    assert tracker.recall(nudged) is bowl
    tracker.saw(nudged, bowl)  # the reading used the bowl kept: the look stays the first frame's
    assert tracker.recall(moved(image, 0.012 * r, 0)) is None
