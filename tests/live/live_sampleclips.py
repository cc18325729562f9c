"""The bundled sample clips (sample_images/clips: MJPG video + JSON sidecar) and what is true of them."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from bobing_vision.live.sources import Frame, VideoFileSource
from bobing_vision.vision.reading import DiceReader, ReadingStatus

ROOT = Path(__file__).resolve().parents[2]
# BOBING_CLIPS points the tests at another folder of generated clips (`bobing synth OUT --clips K`).
CLIPS_DIR = Path(os.environ.get("BOBING_CLIPS", ROOT / "sample_images" / "clips"))
CLIPS = sorted(CLIPS_DIR.glob("*.json"))


def meta_of(sidecar: Path) -> dict[str, Any]:
    return json.loads(sidecar.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def video_of(sidecar: Path) -> Path:
    return sidecar.with_name(meta_of(sidecar)["video"])


def truth(meta: dict[str, Any]) -> tuple[ReadingStatus, tuple[int, ...]]:
    """The throw's result as the generator made it: (OK, sorted faces) or (OUT_OF_BOWL, ())."""
    final = meta["final"]
    if not all(final["in_bowl"]):
        return ReadingStatus.OUT_OF_BOWL, ()
    return ReadingStatus.OK, tuple(sorted(final["faces"]))


def reads_right(reader: DiceReader, sidecar: Path) -> bool:
    """Does the reader, given the clip's last (still) frame alone, get the throw right?"""
    *_, last = (f for f in VideoFileSource(video_of(sidecar)).items() if isinstance(f, Frame))
    reading = reader.read(last.image)
    status, faces = truth(meta_of(sidecar))
    return reading.status is status and (status is not ReadingStatus.OK or reading.faces == faces)
