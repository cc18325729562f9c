"""The rim found on generated scenes against their labelled ellipse; nothing found where there is no bowl."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from bobing_vision.errors import InvalidInput
from bobing_vision.synth import SceneSpec, render_scene
from bobing_vision.vision.bowl import _long_runs, _percentile, find_bowl, rim_in_view, still_there
from bobing_vision.vision.bowl import rim_error as bowl_rim_error
from bobing_vision.vision.reading import Bowl

TEST_SEED = 2024  # tuned on seeds 1000, 1001 and 7; this one is only ever tested
SCENES = 16
# Generated scenes (with their labels) where the finder once took another curve for the rim.
RIMS = Path(__file__).with_name("rims")
HARD_RIMS = json.loads((RIMS / "labels.json").read_text())


def rim_error(found: Bowl, label: tuple[float, float, float, float, float]) -> float:
    """How far the found rim strays from the labelled one, as a share of the radius (worst point)."""
    return bowl_rim_error(found, Bowl(*label))


@pytest.fixture(scope="module")
def scenes() -> list[tuple[np.ndarray, tuple[float, float, float, float, float]]]:
    rng = np.random.default_rng(TEST_SEED)
    out = []
    for _ in range(SCENES):
        image, label = render_scene(rng)
        assert label.bowl is not None
        out.append((image, label.bowl))
    return out


def test_rims_of_generated_scenes_match_their_labels(scenes: list) -> None:
    errors = []
    for image, label in scenes:
        found = find_bowl(image)
        errors.append(1.0 if found is None else rim_error(found, label))
    errors_arr = np.array(errors)
    # The label is the middle of the lip; the finder takes the lip's outer edge (~2% out).
    assert np.median(errors_arr) < 0.035, errors
    assert np.mean(errors_arr < 0.06) >= 0.8, errors


@pytest.mark.parametrize("name", sorted(HARD_RIMS))
def test_the_rim_is_found_where_other_curves_once_won(name: str) -> None:
    """Each of these was off by 25-52% of the radius (the floor ring, a painted ring, or an ellipse
    along the rim on one side and along a shadow or inside the bowl on the other), or by 8.5%: a band
    painted inside a faint lip, a die's width inside, where a die on the wall would be called out; or by
    18-20% (drawn by the second renderer, `bench/raytraced_bowls.py`): a band painted a fifth of the radius
    inside a plain lip."""
    found = find_bowl(cv2.imread(str(RIMS / name)))
    assert found is not None, HARD_RIMS[name]["why"]
    assert rim_error(found, tuple(HARD_RIMS[name]["bowl"]["ellipse"])) < 0.06, HARD_RIMS[name]["why"]


def test_a_tilted_camera_gives_an_ellipse() -> None:
    seed = TEST_SEED
    while True:  # the first generated scene whose rim is clearly an ellipse, not a circle
        seed += 1
        image, label = render_scene(np.random.default_rng(seed), SceneSpec(max_tilt_deg=30.0, distractors=False))
        assert label.bowl is not None
        if min(label.bowl[2:4]) < 0.9 * max(label.bowl[2:4]):
            break
    found = find_bowl(image)
    assert found is not None
    assert min(found.rx, found.ry) < 0.93 * max(found.rx, found.ry)
    assert rim_error(found, label.bowl) < 0.06


@pytest.mark.parametrize("case", ["gray", "BGRA"])
def test_other_channel_layouts_give_the_same_rim(scenes: list, case: str) -> None:
    image, _ = scenes[0]
    converted = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY if case == "gray" else cv2.COLOR_BGR2BGRA)
    assert find_bowl(converted) == find_bowl(image)


def test_the_same_frame_always_gives_the_same_rim(scenes: list) -> None:
    image, _ = scenes[1]
    assert find_bowl(image) == find_bowl(image.copy())


def closer_in(image: np.ndarray, rim: tuple[float, ...], zoom: float) -> tuple[np.ndarray, tuple[float, ...]]:
    """The frame of a camera `zoom` times closer (its middle, enlarged), and the rim moved with it."""
    h, w = image.shape[:2]
    big = cv2.resize(image, (round(w * zoom), round(h * zoom)), interpolation=cv2.INTER_CUBIC)
    left, top = (big.shape[1] - w) // 2, (big.shape[0] - h) // 2
    cx, cy, rx, ry, angle = rim
    return big[top:top + h, left:left + w], (cx * zoom - left, cy * zoom - top, rx * zoom, ry * zoom, angle)


def test_a_rim_half_cut_by_the_frame_is_found_not_a_curve_inside_it() -> None:
    """A camera close over a big bowl sees half its rim; an arc inside the bowl (a highlight, the
    floor) once won, and the dice beyond that arc were called out of the bowl."""
    found_rims = 0
    for seed in range(TEST_SEED, TEST_SEED + 40):
        image, label = render_scene(np.random.default_rng(seed), SceneSpec(size=(640, 480), max_tilt_deg=10.0))
        assert label.bowl is not None
        close, rim = closer_in(image, label.bowl, 1.35)
        if not 0.48 <= rim_in_view(rim, 640, 480) <= 0.58:
            continue
        found = find_bowl(close)
        assert found is not None and rim_error(found, rim) < 0.06, seed
        found_rims += 1
        if found_rims == 3:
            return
    pytest.fail(f"only {found_rims} scenes with the rim half in view")


def test_a_rim_mostly_off_the_frame_is_found() -> None:
    """A webcam close over a big bowl (`bobing synth --bowl-fill`) sees a third of its rim: a rim that
    big and that far out of view was refused, and an arc inside the bowl won or no bowl was found."""
    errors = []
    spec = SceneSpec(size=(640, 480), bowl_fill=(1.25, 1.4), max_tilt_deg=10.0)
    for seed in range(TEST_SEED, TEST_SEED + 60):
        image, label = render_scene(np.random.default_rng(seed), spec)
        assert label.bowl is not None
        if not 0.27 <= rim_in_view(label.bowl, 640, 480) <= 0.44:
            continue
        found = find_bowl(image)
        errors.append(1.0 if found is None else rim_error(found, label.bowl))
        if len(errors) == 15:
            break
    assert len(errors) == 15
    # Before: 5 of these 15 within 6% of the radius, 6 missed or off by a third (a curve inside the rim).
    assert sum(e < 0.06 for e in errors) >= 10 and sum(e > 0.3 for e in errors) <= 2, np.round(errors, 3)


@pytest.mark.parametrize(
    ("case", "image"),
    [
        ("plain table", np.full((480, 640, 3), (60, 90, 140), np.uint8)),
        ("noise", np.random.default_rng(2).integers(0, 256, (480, 640, 3), dtype=np.uint8)),
        ("stripes", np.tile(np.repeat(np.array([40, 200], np.uint8), 16), 20)[None, :640, None].repeat(480, 0)
         .repeat(3, 2)),
        ("a small cup", cv2.circle(np.full((480, 640, 3), 60, np.uint8), (320, 240), 30, (230, 230, 230), -1)),
    ],
)
def test_no_bowl_is_none(case: str, image: np.ndarray) -> None:
    assert find_bowl(image) is None, case


def test_bad_input_is_invalid_input() -> None:
    with pytest.raises(InvalidInput, match="uint8"):
        find_bowl(np.zeros((48, 64, 3), np.float32))


def test_a_tracked_bowl_is_kept_only_while_it_has_not_moved(scenes: list) -> None:
    image, _ = scenes[0]
    found = find_bowl(image)
    assert found is not None
    assert still_there(image, found)
    bumped = Bowl(found.cx + 0.04 * found.rx, found.cy, found.rx, found.ry, found.angle_deg)
    assert not still_there(image, bumped)
    assert not still_there(np.full_like(image, 128), found)
    # A bowl from a bigger camera frame lies wholly outside this one.
    assert not still_there(image, Bowl(found.cx + 3000, found.cy + 3000, found.rx, found.ry, found.angle_deg))


@pytest.mark.parametrize("size", [1, 2, 7, 43_200])
def test_counted_percentile_is_numpys(size: int) -> None:
    values = np.random.default_rng(size).integers(0, 2041, size)  # |gx| + |gy| of a 3x3 Sobel
    for q in (0.0, 50.0, 95.0, 99.9, 100.0):
        assert _percentile(values, q) == pytest.approx(np.percentile(values, q), abs=1e-9)


@pytest.mark.parametrize("min_run", [1, 2, 4, 7])
def test_long_runs_keep_exactly_the_bins_of_long_circular_runs(min_run: int) -> None:
    rng = np.random.default_rng(min_run)
    for _ in range(200):
        covered = rng.random(60) < rng.uniform(0.1, 0.95)
        n = len(covered)
        # a bin is kept when some window of min_run bins around the circle holds it and is all covered
        expected = np.zeros(n, dtype=bool)
        for start in range(n):
            window = [(start + i) % n for i in range(min_run)]
            if covered[window].all():
                expected[window] = True
        assert (_long_runs(covered, min_run) == expected).all()


def test_a_rim_seen_from_a_phone_held_60_degrees_off_vertical_is_found() -> None:
    """A phone photo of the bowl on the table: the rim an ellipse half as tall as wide. A floor on the
    axes' ratio at 0.55 refused most rims seen 55 degrees or more off vertical."""
    from bobing_vision.synth.scene import sample_setup

    spec = SceneSpec(size=(640, 480), max_tilt_deg=60.0)
    # Only the first draws of a scene set its camera: the steep scenes are picked without drawing them.
    steep = [seed for seed in range(TEST_SEED, TEST_SEED + 200)
             if sample_setup(np.random.default_rng(seed), spec).tilt_deg >= 54.0][:4]
    errors = []
    for seed in steep:
        image, label = render_scene(np.random.default_rng(seed), spec)
        assert label.bowl is not None
        found = find_bowl(image)
        errors.append(1.0 if found is None else rim_error(found, label.bowl))
    assert sum(e < 0.06 for e in errors) >= 3, errors
