"""How much a labelled die's pips stand out in the photo, and the evaluation's faces by that measure."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from bobing_vision.dataset.labels import DieLabel, PipLabel
from bobing_vision.die_faces import PIP_LAYOUT
from bobing_vision.evaluation import evaluate, format_table, to_json
from bobing_vision.evaluation.pip_contrast import pip_contrast
from bobing_vision.vision.reading import DieReading, Reading, ReadingStatus

SIDE = 40


def drawn_die(face: int, body: tuple[int, int, int], pip: tuple[int, int, int], at: tuple[int, int] = (60, 60),
              size: tuple[int, int] = (120, 120)) -> tuple[np.ndarray, DieLabel]:
    """A flat die seen from above on a grey table: a square face with round pips, and its label."""
    image = np.full((size[1], size[0], 3), 128, np.uint8)
    x, y = at
    cv2.rectangle(image, (x - SIDE // 2, y - SIDE // 2), (x + SIDE // 2, y + SIDE // 2), body, -1)
    pips = []
    for u, v in PIP_LAYOUT[face]:
        centre = (x + u * SIDE / 2, y + v * SIDE / 2)
        cv2.circle(image, (round(centre[0]), round(centre[1])), 4, pip, -1, cv2.LINE_AA)
        pips.append(PipLabel(center=centre, red=False))
    box = (x - SIDE / 2, y - SIDE / 2, x + SIDE / 2, y + SIDE / 2)
    return image, DieLabel(face=face, box=box, pips=tuple(pips))


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_black_pips_on_white_stand_out_and_pips_of_the_body_colour_do_not(face: int) -> None:
    image, die = drawn_die(face, (235, 235, 235), (25, 25, 25))
    assert pip_contrast(image, die) > 80  # CIELAB lightness alone differs by ~83
    faint, die = drawn_die(face, (235, 235, 235), (226, 226, 226))
    assert pip_contrast(faint, die) < 5


def test_blur_and_a_washed_out_exposure_lower_it() -> None:
    image, die = drawn_die(5, (235, 235, 235), (25, 25, 25))
    sharp = pip_contrast(image, die)
    blurred = pip_contrast(cv2.GaussianBlur(image, (0, 0), 3.0), die)
    washed = pip_contrast(cv2.convertScaleAbs(image, alpha=1.0, beta=200), die)  # clipped towards white
    assert sharp > blurred + 15 and sharp > washed + 40


def test_red_pips_stand_out_by_colour_not_lightness() -> None:
    image, die = drawn_die(4, (60, 60, 60), (40, 40, 200))  # red on dark grey: much the same lightness
    assert pip_contrast(image, die) > 45


def test_no_pips_no_box_or_off_the_image_is_not_measured() -> None:
    image, die = drawn_die(3, (235, 235, 235), (25, 25, 25))
    assert pip_contrast(image, DieLabel(face=3, box=die.box)) is None
    assert pip_contrast(image, DieLabel(face=3, center_xy=(60.0, 60.0), pips=die.pips)) is None
    far = DieLabel(face=3, box=(500.0, 500.0, 540.0, 540.0), pips=die.pips)
    assert pip_contrast(image, far) is None


def test_the_evaluation_counts_faces_by_how_much_their_pips_stand_out(tmp_path: Path) -> None:
    """Three generated-style images (pips labelled): pips clear, faint and invisible; the reader reads the
    clear one and calls the other two unreadable. A set without pips (a real one) has no such table."""
    labels = {}
    for name, pip in (("clear.png", (25, 25, 25)), ("faint.png", (200, 200, 200)), ("gone.png", (233, 233, 233))):
        image, die = drawn_die(6, (235, 235, 235), pip)
        cv2.imwrite(str(tmp_path / name), image)
        labels[name] = {"dice": [{"face": 6, "box": list(die.box),
                                  "pips": [{"center": list(p.center), "red": False} for p in die.pips]}]}
    (tmp_path / "labels.json").write_text(json.dumps(labels))

    class ReadsWhatStandsOut:
        def read(self, frame: np.ndarray) -> Reading:
            clear = frame[60, 60 - 10].max() < 100  # a pip of the 6 is drawn there
            die = DieReading(center=(60.0, 60.0), box=(40.0, 40.0, 80.0, 80.0), face=6 if clear else None,
                             confidence=0.9)
            return Reading((die,), None, ReadingStatus.NO_BOWL)

    evaluation = evaluate(tmp_path, ReadsWhatStandsOut())
    bands = [(b.low, b.dice, b.read_right, b.unreadable) for b in evaluation.by_contrast() if b.dice]
    assert bands == [(0.0, 1, 0, 1), (10.0, 1, 0, 1), (45.0, 1, 1, 0)]
    text = format_table(evaluation)
    assert "faces by pip contrast" in text and "  under 10 ΔE" in text and "45 ΔE and over" in text
    data = to_json(evaluation)["faces_by_pip_contrast"]
    assert data[0] == {"low_delta_e": 0.0, "high_delta_e": 10.0, "dice": 1, "found": 1, "read_right": 0,
                       "unreadable": 1, "read_wrong": 0, "read_share": 0.0}

    (tmp_path / "labels.json").write_text(json.dumps({n: {"dice": [{k: v for k, v in d["dice"][0].items()
                                                                    if k != "pips"}]} for n, d in labels.items()}))
    real = evaluate(tmp_path, ReadsWhatStandsOut())
    assert not any(b.dice for b in real.by_contrast()) and "pip contrast" not in format_table(real)
