"""The second renderer (`bench/raytraced_bowls.py`): its labels say what its pixels show."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from bobing_vision.dataset.labels import DieLabel, load_labels
from bobing_vision.vision.reading import Bowl


@pytest.fixture
def raytraced(bench_script: Callable[[str], ModuleType]) -> ModuleType:
    return bench_script("raytraced_bowls")


@pytest.mark.parametrize("face", range(1, 7))
def test_a_die_turned_to_show_a_face_shows_it_on_a_sloping_wall(raytraced: ModuleType, face: int) -> None:
    wall = raytraced.rotation_to(raytraced.unit(np.array([0.4, -0.3, 1.0])))
    look = raytraced.DiceLook("ordinary", np.ones(3), np.zeros(3), None, 0.17, 0.3)
    die = raytraced.Die(np.zeros(3), wall @ raytraced.face_up(face), 8.0, 2.0, look, True)
    assert die.top == face


def bare_spots(die: DieLabel) -> list[tuple[float, float]]:
    """Points of the face with no pip whatever the face: halfway from its middle to each pip off the middle
    (pips lie half a half side apart; their radius is at most 0.2 of a half side)."""
    cx, cy = die.center
    return [((cx + x) / 2, (cy + y) / 2) for x, y in (p.center for p in die.pips) if np.hypot(x - cx, y - cy) > 1]


def pixel(image: np.ndarray, point: tuple[float, float]) -> np.ndarray:
    return image[int(round(point[1])), int(round(point[0]))].astype(float)


def test_every_labelled_pip_shows_a_pip_and_the_face_between_them_shows_none(raytraced: ModuleType) -> None:
    image, label = raytraced.render(np.random.default_rng([3, 0]), size=(640, 480))
    checked = 0
    for die in label.dice:
        assert die.box is not None and len(die.pips) == die.face
        if die.size < 18 or die.face == 1:  # a 1 has no bare spot on its diagonals to compare with
            continue
        body = np.median([pixel(image, p) for p in bare_spots(die)], axis=0)
        for pip in die.pips:
            colour = pixel(image, pip.center)
            if pip.red:  # red on a white face: the red stays, blue and green drop
                assert colour[2] - colour[0] > 40, (die, colour, body)
            else:  # dark on a light face or light on a dark one, and not red
                assert np.abs(colour - body).sum() > 90 and colour[2] - colour[0] < 40, (die, colour, body)
        checked += 1
    assert checked >= 3


def test_a_die_on_the_table_lies_outside_the_labelled_rim_and_the_others_inside(raytraced: ModuleType) -> None:
    outside = 0
    for seed in range(30):
        throw = raytraced.draw_throw(np.random.default_rng([seed, 0]))
        label = raytraced.label_of(throw)
        rim = Bowl(*label.bowl)
        for die in label.dice:
            assert (rim.normalized_radius(die.center) < 1.0) == die.in_bowl
            w, h = throw.camera.size
            assert 0 < die.center[0] < w and 0 < die.center[1] < h  # in view
            outside += not die.in_bowl
    assert 2 <= outside <= 15  # one in five throws has a die out


def test_a_set_is_written_as_labelled_images_and_the_same_seed_draws_the_same_throws(raytraced: ModuleType,
                                                                                       tmp_path: Path) -> None:
    raytraced.SIZES = ((160, 120),)  # small frames: this is about the files, not the pixels
    assert raytraced.write_set(tmp_path / "a", 2, seed=7) == 2
    raytraced.write_set(tmp_path / "b", 2, seed=7)
    labels = load_labels(tmp_path / "a")
    assert sorted(labels) == ["throw_0000.jpg", "throw_0001.jpg"]
    assert labels == load_labels(tmp_path / "b")
    assert (tmp_path / "a" / "throw_0001.jpg").read_bytes() == (tmp_path / "b" / "throw_0001.jpg").read_bytes()
    assert all(label.dice_kind in ("chinese", "ordinary") and len(label.dice) == 6 for label in labels.values())
