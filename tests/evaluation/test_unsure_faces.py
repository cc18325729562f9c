"""`bench/unsure_faces.py`: the best faces of the dice refused as too unsure, right or not, by tenths."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType


def test_each_tenth_counts_its_refused_dice_and_the_right_ones(bench_script: Callable[[str], ModuleType]) -> None:
    unsure = bench_script("unsure_faces")
    refused = [(0.25, False), (0.29, True), (0.61, True), (0.65, True), (0.69, False), (0.05, False)]
    lines = unsure.table("demo", refused, 0.7).splitlines()
    assert lines == ["demo: best face of the dice refused as under 0.7 sure", "  0.0-0.1 sure: 0 right of 1",
                     "  0.2-0.3 sure: 1 right of 2", "  0.6-0.7 sure: 2 right of 3"]
