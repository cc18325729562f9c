"""`bobing live` and `bobing booth` on wrong input: one clear line and a non-zero exit, never a traceback."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bobing_vision.cli import booth, live


@pytest.mark.parametrize(
    ("case", "argv", "message"),
    [
        ("missing file", ["--source", "no/such/clip.mp4", "--no-journal"], "expected a camera index, a stream URL"),
        ("not a video", ["--source", __file__, "--no-journal"], "expected a video file"),
        ("settle time of zero", ["--source", __file__, "--no-journal", "--settle", "0"], "expected a settle time"),
        ("unknown rules", ["--source", "{frames}", "--no-journal", "--rules", "nope"], "expected a rule preset"),
        ("empty folder", ["--source", "{empty}", "--no-journal"], "expected a folder with images"),
    ],
)
@pytest.mark.parametrize("command", [live, booth], ids=["live", "booth"])
def test_wrong_input_is_one_line_and_exit_2(
    case: str, argv: list[str], message: str, command: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frames, empty = tmp_path / "frames", tmp_path / "empty"
    frames.mkdir(), empty.mkdir()
    cv2.imwrite(str(frames / "f000.png"), np.zeros((48, 64, 3), np.uint8))
    argv = [a.format(frames=frames, empty=empty) for a in argv]
    assert command.main(argv) == 2, case  # type: ignore[attr-defined]
    err = capsys.readouterr().err.strip()
    assert message in err and "Traceback" not in err and len(err.splitlines()) == 1, err
