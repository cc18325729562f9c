"""`bobing live` and `bobing booth` on wrong input: one clear line and a non-zero exit, never a traceback."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
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


@pytest.mark.parametrize("command", [live, booth], ids=["live", "booth"])
def test_help_lists_the_options(command: object, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        command.main(["--help"])  # type: ignore[attr-defined]
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert all(flag in out for flag in ("--source", "--players", "--resume", "--settle", "--events"))


def _bobing(*args: str) -> list[str]:
    return [sys.executable, "-m", "bobing_vision", *args]


def test_ctrl_c_leaves_a_journal_that_resume_continues(tmp_path: Path) -> None:
    """A stream that is down: the loop retries, Ctrl-C stops it, the journal resumes the same game."""
    journal = tmp_path / "game.jsonl"
    down = "http://127.0.0.1:9/no-camera.mjpg"  # the discard port: nothing serves video there
    proc = subprocess.Popen(
        _bobing("live", "--source", down, "--players", "Ann,Bo", "--journal", str(journal), "--start-throw", "1", "1", "--no-speech"),
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        # A shell runs a background job with Ctrl-C ignored, and the child would inherit that (Python then
        # never raises KeyboardInterrupt): give it the default a person's terminal gives.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    lines: list[str] = []
    assert proc.stdout is not None
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)  # type: ignore[arg-type]
    reader.start()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not any("reconnecting" in line for line in lines):
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=20)
    reader.join(5)
    err = proc.stderr.read() if proc.stderr else ""
    out = "".join(lines)
    assert proc.returncode == 130, err
    assert "reconnecting" in out and "every throw so far is in the journal" in out
    assert "Traceback" not in err
    events = [json.loads(line)["event"] for line in journal.read_text().splitlines()]
    assert events == ["new", "start"]
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "f000.png"), np.zeros((48, 64, 3), np.uint8))
    again = subprocess.run(
        _bobing("live", "--source", str(frames), "--resume", str(journal), "--no-speech"),
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
    )
    assert again.returncode == 0, again.stderr
    assert "resumed" in again.stdout and "Bo to throw" in again.stdout
