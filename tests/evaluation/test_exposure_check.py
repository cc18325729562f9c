"""`bench/exposure_check.py`: throws sorted by how much of the bowl is pure white, with what the table heard."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType


def test_the_table_counts_each_band_and_the_throws_at_the_bar(bench_script: Callable[[str], ModuleType]) -> None:
    check = bench_script("exposure_check")
    throws = [(0.0, "right_award"), (0.01, "refused"), (0.35, "right_award"), (0.5, "wrong_award"),
              (1.0, "false_void"), (0.45, "right_award")]
    lines = check.table("demo", throws, bar=0.3).splitlines()
    assert lines[0] == "demo: 6 throws, 4 at 30% or more pure white"
    rows = {line.split()[0]: line.split()[3:] for line in lines[2:]}
    assert rows == {"0%": ["2", "50.0%", "50.0%", "0"], "30%": ["1", "100.0%", "0.0%", "0"],
                    "40%": ["3", "33.3%", "0.0%", "2"]}
