"""A training run stopped part way continues where it stopped (`bobing train --resume`), and only the same run
continues a saved one (needs torch)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bobing_vision.errors import InvalidInput
from bobing_vision.training.augment import AugmentConfig
from bobing_vision.training.samples import SampleConfig
from bobing_vision.training.scenes import Scene
from tests.training.test_training_samples import one_die_scene

torch = pytest.importorskip("torch")

from bobing_vision.training.nets import ReaderNet  # noqa: E402
from bobing_vision.training.progress import PROGRESS_FILE  # noqa: E402
from bobing_vision.training.train import BATCH_THREAD, CHECKPOINT_FILE, TrainConfig, run_digest, train  # noqa: E402

SMALL = TrainConfig(epochs=16, locator_batch=2, reader_batch=8, ema_decay=0.9)  # 16 steps on two scenes


class Stopped(Exception):
    """The power cut of these tests."""


def stop_after_saving(step: int) -> Callable[[str], None]:
    def log(text: str) -> None:
        if text.startswith(f"saved progress at step {step} "):
            raise Stopped(text)
    return log


def scenes() -> list[Scene]:
    return [one_die_scene(face=f) for f in (1, 4)]


def stopped_run(out: Path) -> None:
    with pytest.raises(Stopped):
        train(scenes(), out, SMALL, save_every=2, log=stop_after_saving(4))
    assert (out / PROGRESS_FILE).is_file() and not (out / CHECKPOINT_FILE).exists()
    # the thread making batches ends with the training, not waits for ever to hand over the next one
    deadline = time.monotonic() + 5
    while BATCH_THREAD in {t.name for t in threading.enumerate()} and time.monotonic() < deadline:
        time.sleep(0.05)
    assert BATCH_THREAD not in {t.name for t in threading.enumerate()}


def test_a_run_stopped_part_way_and_continued_ends_with_the_weights_of_a_run_never_stopped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a reader with a random layer: torch's own draws must go on as they were too
    monkeypatch.setattr("bobing_vision.training.train.reader_net", lambda cfg: ReaderNet(mixstyle_p=0.5))
    whole = train(scenes(), tmp_path / "whole", SMALL)
    stopped_run(tmp_path / "stopped")
    said: list[str] = []
    continued = train(scenes(), tmp_path / "stopped", SMALL, save_every=2, resume=True, log=said.append)
    assert said[0].startswith("continuing from step 4 of 16")
    assert continued.steps == whole.steps == 16
    # the same batches, moments, schedule and moving averages: the very same weights, to the bit
    expected = torch.load(tmp_path / "whole" / CHECKPOINT_FILE, weights_only=True)
    got = torch.load(tmp_path / "stopped" / CHECKPOINT_FILE, weights_only=True)
    for part in ("locator", "reader"):
        for name, tensor in expected[part].items():
            assert torch.equal(got[part][name], tensor), f"{part}.{name}"
        for name, tensor in expected["last_step"][part].items():
            assert torch.equal(got["last_step"][part][name], tensor), f"last step {part}.{name}"
    assert not (tmp_path / "stopped" / PROGRESS_FILE).exists()  # a whole run leaves nothing to continue


def test_a_saved_run_is_continued_only_by_the_same_settings_and_scenes(tmp_path: Path) -> None:
    stopped_run(tmp_path)
    with pytest.raises(InvalidInput, match="expected the settings and scenes of the run saved in"):
        train(scenes(), tmp_path, TrainConfig(epochs=16, locator_batch=2, reader_batch=8, seed=1), resume=True)
    with pytest.raises(InvalidInput, match="expected the settings and scenes of the run saved in"):
        train([one_die_scene(face=f) for f in (2, 4)], tmp_path, SMALL, resume=True)
    assert (tmp_path / PROGRESS_FILE).is_file()  # refused: the saved run is still there to continue


def test_a_run_is_known_again_by_another_process_and_with_other_threads() -> None:
    """A saved run is continued by a new process: its digest must hold no memory address or other
    per-process value, or every continuation would be refused."""
    code = ("from bobing_vision.training.train import TrainConfig, run_digest\n"
            "from bobing_vision.training.samples import SampleConfig\n"
            "from bobing_vision.training.augment import AugmentConfig\n"
            "from tests.training.test_training_samples import one_die_scene\n"
            "print(run_digest([one_die_scene()], TrainConfig(threads=2), SampleConfig(), AugmentConfig(), 6))")
    root = Path(__file__).resolve().parents[2]
    other = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    here = run_digest([one_die_scene()], TrainConfig(), SampleConfig(), AugmentConfig(), 6)
    assert other.stdout.strip() == here
    assert run_digest([one_die_scene()], TrainConfig(), SampleConfig(), AugmentConfig(), 7) != here


@pytest.mark.parametrize("spoil", ["torn", "text"])
def test_a_torn_progress_file_is_a_clear_error_and_is_left_for_the_user(spoil: str, tmp_path: Path) -> None:
    stopped_run(tmp_path)
    saved = tmp_path / PROGRESS_FILE
    spoilt = saved.read_bytes()[:200] if spoil == "torn" else b"not a saved run\n"
    saved.write_bytes(spoilt)
    with pytest.raises(InvalidInput, match="unreadable file .* delete it to start over"):
        train(scenes(), tmp_path, SMALL, resume=True)
    assert saved.read_bytes() == spoilt


def test_resume_with_nothing_saved_starts_from_the_first_step(tmp_path: Path) -> None:
    said: list[str] = []
    result = train(scenes(), tmp_path, SMALL, resume=True, log=said.append)
    assert said[0] == f"no progress saved in {tmp_path}: starting from the first step"
    assert result.steps == 16 and (tmp_path / CHECKPOINT_FILE).is_file()
