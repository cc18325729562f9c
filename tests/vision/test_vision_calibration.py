"""Calibration files: round trip, scaling to other frame sizes, clear errors, a consensus of frames."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bobing_vision.errors import InvalidInput
from bobing_vision.vision.calibration import Calibration, consensus, load_calibration, save_calibration
from bobing_vision.vision.reading import Bowl

CAL = Calibration(bowl=Bowl(320.0, 240.0, 200.0, 150.0, 30.0), width=640, height=480)


def test_round_trip(tmp_path: Path) -> None:
    path = save_calibration(tmp_path / "sub" / "bowl.json", CAL, source="camera 0")
    assert load_calibration(path) == CAL
    assert json.loads(path.read_text())["source"] == "camera 0"


@pytest.mark.parametrize(
    ("case", "size", "expected"),
    [
        ("same size", (640, 480), (320.0, 240.0, 200.0, 150.0, 30.0)),
        ("double", (1280, 960), (640.5, 480.5, 400.0, 300.0, 30.0)),
        ("half", (320, 240), (159.75, 119.75, 100.0, 75.0, 30.0)),
    ],
)
def test_scaled_to_the_frame_size(case: str, size: tuple[int, int], expected: tuple[float, ...]) -> None:
    assert CAL.bowl_for(*size).ellipse == pytest.approx(expected), case


def test_another_aspect_is_another_view() -> None:
    assert not CAL.fits(1280, 720)
    with pytest.raises(InvalidInput, match="got 1280x720"):
        CAL.bowl_for(1280, 720)


@pytest.mark.parametrize(
    ("case", "text", "words"),
    [
        ("not json", "{", "expected a JSON calibration"),
        ("no frame size", '{"bowl": {"ellipse": [1, 2, 3, 4, 5]}}', "frame_size"),
        ("short ellipse", '{"bowl": {"ellipse": [1, 2]}, "frame_size": [640, 480]}', "ellipse"),
        ("zero radius", '{"bowl": {"ellipse": [1, 2, 0, 4, 5]}, "frame_size": [640, 480]}', "radii"),
    ],
)
def test_bad_files_are_invalid_input(tmp_path: Path, case: str, text: str, words: str) -> None:
    path = tmp_path / "bowl.json"
    path.write_text(text)
    with pytest.raises(InvalidInput, match=words):
        load_calibration(path)


def test_missing_file_is_invalid_input(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="no such file"):
        load_calibration(tmp_path / "nope.json")


def test_consensus_outvotes_a_frame_with_a_hand_over_the_rim() -> None:
    good = [Bowl(320.0 + d, 240.0, 200.0, 150.0) for d in (-1, 0, 1, 2)]
    bad = Bowl(280.0, 230.0, 150.0, 120.0)
    assert consensus(good + [bad]) in good
    assert consensus([]) is None
