"""`bobing train` on a tiny run (needs torch) and its refusal of a crop the reader cannot pool (torch or not)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bobing_vision.cli.train import main


@pytest.mark.parametrize("crop", ["20", "44"])
def test_a_crop_the_reader_cannot_pool_is_refused(crop: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--out", str(tmp_path), "--synth", "1", "--real", "--crop", crop]) == 2
    assert "--crop a multiple of 8" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())  # refused before any scene is rendered or file written


def test_the_crop_trained_is_the_crop_the_detector_cuts(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from bobing_vision.vision.detector import DiceDetector

    out = tmp_path / "models"
    assert main(["--out", str(out), "--synth", "2", "--real", "--epochs", "1", "--max-steps", "1", "--crop", "48"]) == 0
    assert DiceDetector(out).crop == 48
