"""A small hand-made labelled set and a fake reader that makes known mistakes on it.

Each image carries its own id in pixel (0, 0)'s blue value, so the fake reader knows which
image it is looking at and returns that image's scripted reading.

The script, image by image (boxes are 30 px, so the set's typical die width is 30):
- a_perfect.png: faces 1 and 2 by box; both found and read right; its bowl found 1 px off.
- b_mistakes.png: four dice by box; face 3 found but flagged out of the bowl (labelled in);
  face 4 missed; face 5 read as 6; face 6 (labelled out, leaning) found out but unreadable; one extra die;
  its bowl not found.
- c_centres.png: two dice by centre only; face 2 found 12 px off its centre (inside 15 px: a match),
  face 5 found 16 px off (outside: one missed and one extra).
- d_empty.png: no dice, none found.
- e_missing.png: labelled, no file.   f_corrupt.jpg: a text file.   z_extra.png: not labelled.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import cv2
import numpy as np
import pytest

from bobing_vision.vision.reading import Bowl, DieReading, Reading, ReadingStatus


def found(center: tuple[float, float], face: int | None, in_bowl: bool = True) -> DieReading:
    x, y = center
    return DieReading(center=center, box=(x - 15, y - 15, x + 15, y + 15), face=face, confidence=0.9, in_bowl=in_bowl)


def box(x: float, y: float) -> list[float]:
    return [x, y, x + 30, y + 30]


RIM = [100.0, 100.0, 90.0, 80.0, 0.0]  # the bowl of a and b, labelled

LABELS: dict[str, dict[str, Any]] = {
    "a_perfect.png": {
        "bowl": {"ellipse": RIM},
        "dice": [{"face": 1, "box": box(20, 20)}, {"face": 2, "box": box(100, 20)}],
    },
    "b_mistakes.png": {
        "bowl": {"ellipse": RIM},
        "dice": [
            {"face": 3, "box": box(20, 20), "in_bowl": True},
            {"face": 4, "box": box(100, 20)},
            {"face": 5, "box": box(20, 100)},
            {"face": 6, "box": box(100, 100), "in_bowl": False, "cocked": True},
        ]
    },
    "c_centres.png": {
        "dice": [{"face": 2, "center": [60, 60], "in_bowl": False}, {"face": 5, "center": [140, 140]}]
    },
    "d_empty.png": {"dice": []},
    "e_missing.png": {"dice": [{"face": 1, "box": box(20, 20)}]},
    "f_corrupt.jpg": {"dice": [{"face": 1, "box": box(20, 20)}]},
}

READINGS = {
    1: (found((35, 35), 1), found((115, 35), 2)),
    2: (
        found((36, 34), 3, in_bowl=False),
        found((35, 115), 6),
        found((115, 115), None, in_bowl=False),
        found((170, 170), 1),
    ),
    3: (found((72, 60), 2, in_bowl=False), found((156, 140), 5)),
    4: (),
}
BOWLS = {1: Bowl(101.0, 100.0, 90.0, 80.0, 0.0)}  # 1 px off: 1.1% of the radius at worst


@dataclass
class FakeReader:
    """Returns the scripted dice of the image whose id is in pixel (0, 0); counts its calls."""

    readings: dict[int, tuple[DieReading, ...]]
    bowls: dict[int, Bowl] = field(default_factory=dict)
    calls: int = 0

    def read(self, frame: np.ndarray) -> Reading:
        self.calls += 1
        image_id = int(frame[0, 0, 0])
        dice = self.readings[image_id]
        status = ReadingStatus.OK if len(dice) == 6 else ReadingStatus.WRONG_DICE_COUNT
        return Reading(dice=dice, bowl=self.bowls.get(image_id), status=status)


def draw_image(image_id: int, dice: list[dict]) -> np.ndarray:
    """A grey table with white squares where the labelled dice are; pixel (0, 0) holds the id."""
    image = np.full((200, 200, 3), 90, np.uint8)
    for die in dice:
        if "box" in die:
            x0, y0, x1, y1 = (int(v) for v in die["box"])
        else:
            cx, cy = die["center"]
            x0, y0, x1, y1 = cx - 15, cy - 15, cx + 15, cy + 15
        cv2.rectangle(image, (x0, y0), (x1, y1), (235, 235, 235), -1)
    image[0, 0] = (image_id, 0, 0)
    return image


@pytest.fixture
def labelled_set(tmp_path: Path) -> Path:
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "labels.json").write_text(json.dumps(LABELS))
    for image_id, name in enumerate(("a_perfect.png", "b_mistakes.png", "c_centres.png", "d_empty.png"), start=1):
        cv2.imwrite(str(folder / name), draw_image(image_id, LABELS[name]["dice"]))
    (folder / "f_corrupt.jpg").write_text("this is not a picture\n")
    cv2.imwrite(str(folder / "z_extra.png"), draw_image(9, []))
    return folder


@pytest.fixture
def fake_reader() -> FakeReader:
    return FakeReader(dict(READINGS), dict(BOWLS))


@pytest.fixture
def bench_script() -> Callable[[str], ModuleType]:
    """Loads a script of `bench/` (not a package) by its name, as a module."""

    def load(name: str) -> ModuleType:
        path = Path(__file__).resolve().parents[2] / "bench" / f"{name}.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # its dataclasses look their module up there
        spec.loader.exec_module(module)
        return module

    return load
