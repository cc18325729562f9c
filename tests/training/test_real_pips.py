"""Pip labels fitted to real dice whose labels give only a face."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from bobing_vision.cli.train import main as train_main
from bobing_vision.dataset.labels import DieLabel, ImageLabel, PipLabel, save_labels
from bobing_vision.die_faces import PIP_LAYOUT
from bobing_vision.training.real_pips import die_pips, label_real_pips
from bobing_vision.training.scenes import UNREADABLE, DieTarget, Scene, load_real_set

BLACK, RED, IVORY = (25, 25, 25), (40, 40, 200), (225, 235, 240)
ORANGE_RED = (70, 100, 180)  # between red and not: neither label of the red heat would be sure


def photo_of_a_die(shown: int, turn_deg: float = 20.0, side: float = 48.0, pip: tuple = BLACK) -> tuple[np.ndarray, DieTarget, np.ndarray]:
    """An ivory die showing `shown`, turned on a grey table, labelled like a real photo: its axis-aligned
    box, a face (here `shown`) and no pips. Returns the image, the label and the true pip centres."""
    image = np.full((200, 240, 3), 120, np.uint8)
    cx, cy, t = 117.0, 97.0, math.radians(turn_deg)
    turn = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    corners = (turn @ (np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * side / 2).T).T + (cx, cy)
    cv2.fillPoly(image, [np.round(corners * 16).astype(np.int32)], IVORY, cv2.LINE_AA, shift=4)
    true = (turn @ (np.array(PIP_LAYOUT[shown]) * side / 2).T).T + (cx, cy)
    for x, y in true:
        cv2.circle(image, (round(x * 16), round(y * 16)), round(side * 0.09 * 16), pip, -1, cv2.LINE_AA, shift=4)
    box = side * (abs(math.cos(t)) + abs(math.sin(t)))
    # pixel-centre coordinates, as labels are: pixel (i, j) is the square from i to i + 1
    label = DieTarget(center=(cx + 0.5, cy + 0.5), size=box, face=shown, pips=None)
    return image, label, true + 0.5


@pytest.mark.parametrize("shown", range(1, 7))
@pytest.mark.parametrize("turn_deg", [0.0, 20.0, 45.0])
def test_each_face_gets_its_pips_where_they_are(shown: int, turn_deg: float) -> None:
    image, label, true = photo_of_a_die(shown, turn_deg)
    pips = die_pips(image, label)
    assert pips is not None and len(pips) == shown
    distance = np.hypot(*(pips[:, None, :2] - true[None]).transpose(2, 0, 1))
    assert sorted(distance.argmin(axis=1).tolist()) == list(range(shown))  # one fitted pip per true pip
    assert distance.min(axis=1).max() < 2.0  # pixels, on a face 48 wide
    assert not pips[:, 2].any()


@pytest.mark.parametrize(("shown", "labelled"), [(5, 3), (5, 4), (6, 4), (3, 2), (4, 1)])
def test_a_label_the_pips_do_not_fit_gets_no_pips(shown: int, labelled: int) -> None:
    # a 3 fits on three of a 5's pips, a 4 on four of them; the pips left over must stop it
    image, label, _ = photo_of_a_die(shown)
    assert die_pips(image, DieTarget(label.center, label.size, labelled, None)) is None


def test_red_pips_are_labelled_red() -> None:
    image, label, _ = photo_of_a_die(4, pip=RED)
    pips = die_pips(image, label)
    assert pips is not None and pips[:, 2].all()


@pytest.mark.parametrize("case", ["cocked", "tiny", "blank", "pips between red and not"])
def test_no_pips_for_a_die_that_cannot_show_them(case: str) -> None:
    pip = ORANGE_RED if case == "pips between red and not" else BLACK
    image, label, _ = photo_of_a_die(5, side=12.0 if case == "tiny" else 48.0, pip=pip)
    if case == "cocked":
        label = DieTarget(label.center, label.size, UNREADABLE, None)
    if case == "blank":
        image[:] = 120
    assert die_pips(image, label) is None


def test_labelled_pips_are_kept_and_missing_ones_fitted() -> None:
    image, fitted, _ = photo_of_a_die(6)
    known = DieTarget(center=(20.0, 20.0), size=30.0, face=2, pips=np.array([[10, 10, 0], [30, 30, 0]], np.float32))
    scene = label_real_pips(Scene(image=image, dice=(known, fitted), source="photos"))
    assert scene.dice[0] is known
    assert scene.dice[1].pips is not None and len(scene.dice[1].pips) == 6


@pytest.mark.parametrize(("labelled", "kept"), [((6, 2), (6, 2)), ((6, 0), (None, None)), ((0, 0), (None, None))])
def test_a_set_that_labels_every_dies_pips_keeps_them(labelled: tuple[int, int], kept: tuple, tmp_path: Path) -> None:
    """A renderer's set labels each die's pips and they are trained on; photos labelled by hand have none,
    and an image with one die's pips missing keeps none (a die without its pips is no pip target)."""
    image, die, true = photo_of_a_die(6)
    cv2.imwrite(str(tmp_path / "one.png"), image)
    (cx, cy), half = die.center, die.size / 2
    box = (cx - half, cy - half, cx + half, cy + half)
    pips = tuple(PipLabel((float(x), float(y)), red=False) for x, y in true)
    dice = tuple(DieLabel(face=6, box=box, pips=pips[:n]) for n in labelled)
    save_labels(tmp_path, {"one.png": ImageLabel(file="one.png", dice=dice)})
    (scene,) = load_real_set(tmp_path)
    assert tuple(None if d.pips is None else len(d.pips) for d in scene.dice) == kept
    if kept[0] is not None:
        assert scene.dice[0].pips is not None
        np.testing.assert_allclose(scene.dice[0].pips[:, :2], true, atol=0.1)
        assert not scene.dice[0].pips[:, 2].any()  # black pips stay black


@pytest.mark.parametrize(("flag", "fitted"), [(["--real-pips"], 6), ([], None)])
def test_bobing_train_fits_the_pips_of_real_sets(
    flag: list[str], fitted: int | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("torch")
    image, die, _ = photo_of_a_die(6)
    folder = tmp_path / "photos"
    folder.mkdir()
    cv2.imwrite(str(folder / "one.png"), image)
    (cx, cy), half = die.center, die.size / 2
    save_labels(folder, {"one.png": ImageLabel(file="one.png", dice=(DieLabel(face=6, box=(cx - half, cy - half, cx + half, cy + half)),))})
    seen: list[list[Scene]] = []

    def record(scenes: list[Scene], *args: object, **kwargs: object) -> None:
        seen.append(scenes)
        raise FileNotFoundError("recorded")  # stop before any training: main reports it and returns 2

    monkeypatch.setattr("bobing_vision.training.train.train", record)
    assert train_main(["--out", str(tmp_path / "models"), "--synth", "0", "--real", str(folder), *flag]) == 2
    (scene,) = seen[0]
    pips = scene.dice[0].pips
    assert (None if pips is None else len(pips)) == fitted
