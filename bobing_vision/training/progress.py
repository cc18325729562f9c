"""A training run's progress, saved every so many steps: a run stopped part way (a closed laptop, a
killed session, a power cut) continues where it stopped with `bobing train --resume`, instead of
spending its hour again. The continued run trains on the very batches the whole run would have.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from bobing_vision.errors import InvalidInput
from bobing_vision.training.scenes import Scene

PROGRESS_FILE = "progress.pt"  # in the run's --out folder, removed once the run has exported its models


@dataclass(frozen=True)
class Progress:
    """Where a run stood after `step` steps, beside the weights and optimiser saved with it."""

    step: int
    batch_state: dict[str, Any] | None  # the batch generator's state before the next batch; None: its seed's
    seconds: float  # training time spent, before the stop
    running: dict[str, float]  # the logged losses' running means


def fingerprint(scenes: Sequence[Scene], settings: Sequence[object]) -> str:
    """A digest of what a run trains on and how: a saved run is continued only by the same run. Each
    scene counts by a coarse grid of its pixels and its labels, which is cheap for thousands of scenes
    and still tells two generator seeds or two real sets apart."""
    digest = hashlib.sha1(repr(tuple(settings)).encode())
    for scene in scenes:
        digest.update(scene.source.encode())
        digest.update(repr(scene.image.shape).encode())
        digest.update(np.ascontiguousarray(scene.image[::16, ::16]).tobytes())
        labels = [(*d.center, d.size, d.face) for d in scene.dice]
        # rounded: mining the same models again may move a spot by a rounding error, not by a pixel
        for values in (labels, scene.negatives, scene.leaning_spots):
            digest.update(np.round(np.asarray(values, np.float64)).astype(np.int64).tobytes())
    return digest.hexdigest()


def save_progress(path: Path, digest: str, progress: Progress, states: dict[str, Any]) -> None:
    """Write the progress and the `states` (each a `state_dict()`) so that a stop mid-write loses nothing:
    the new file replaces the old one only once it is whole."""
    partial = path.with_name(path.name + ".partial")
    torch.save({"fingerprint": digest, "progress": asdict(progress), "states": states}, partial)
    os.replace(partial, path)


def load_progress(path: Path, digest: str) -> tuple[Progress, dict[str, Any]]:
    """The progress saved in `path` and its states; InvalidInput when it is not this run's or not whole."""
    try:
        saved = torch.load(path, map_location="cpu", weights_only=True)
        progress = Progress(**saved["progress"])
        states = saved["states"]
        saved_digest = saved["fingerprint"]
    except (RuntimeError, EOFError, KeyError, TypeError, pickle.UnpicklingError) as exc:
        why = (str(exc).splitlines() or [type(exc).__name__])[0][:100]  # torch's own messages run to pages
        raise InvalidInput(f"expected {path} to hold a saved `bobing train` run, got an unreadable file ({why}); "
                           "delete it to start over") from exc
    if saved_digest != digest:
        raise InvalidInput(f"expected the settings and scenes of the run saved in {path}, got others; give that "
                           "run's command again to continue it, or leave out --resume to start over")
    return progress, states
