"""The bundled throw clips (sample_images/clips, from the scene generator) through the whole loop
with the real ONNX reader: never a verdict while the dice move, at most one announcement per throw,
and wherever the reader reads the still dice right, the announcement is that throw's award."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from live_clipkit import Recorder
from live_sampleclips import CLIPS, CLIPS_DIR, meta_of, reads_right, truth, video_of

from bobing_vision.live.announce import Outcome
from bobing_vision.live.events import EventSink
from bobing_vision.live.loop import LiveLoop
from bobing_vision.live.sources import VideoFileSource
from bobing_vision.live.table import TableSetup, open_table
from bobing_vision.rules import classify
from bobing_vision.vision.reading import ReadingStatus

pytestmark = pytest.mark.skipif(not CLIPS, reason=f"no sample clips in {CLIPS_DIR} yet")


@pytest.fixture(scope="module")
def reader() -> Any:
    from bobing_vision.vision.pipeline import OnnxDiceReader

    return OnnxDiceReader()


def play(reader: Any, video: Path) -> tuple[Recorder, list[dict[str, Any]]]:
    table, _ = open_table(TableSetup(start_throw=(1, 2)))
    recorder, out = Recorder(), io.StringIO()
    LiveLoop(VideoFileSource(video), reader, table, [recorder], EventSink(out)).run()
    return recorder, [json.loads(line) for line in out.getvalue().splitlines()]


def announced_right(recorder: Recorder, meta: dict[str, Any]) -> bool:
    """The clip's one announcement is its true result: the award of its faces, or void."""
    if len(recorder.announced) != 1:
        return False
    announced = recorder.announced[0]
    status, faces = truth(meta)
    if status is ReadingStatus.OUT_OF_BOWL:
        return announced.outcome is Outcome.VOID
    return (
        announced.outcome is Outcome.AWARD
        and announced.award is not None
        and announced.award.category is classify(faces).category
        and announced.faces == faces
    )


@pytest.fixture(scope="module")
def played(reader: Any) -> dict[str, tuple[Recorder, list[dict[str, Any]]]]:
    return {p.stem: play(reader, video_of(p)) for p in CLIPS}


@pytest.mark.parametrize("sidecar", CLIPS, ids=[p.stem for p in CLIPS])
def test_a_sample_clip_through_the_loop(sidecar: Path, reader: Any, played: dict[str, Any]) -> None:
    meta = meta_of(sidecar)
    recorder, events = played[sidecar.stem]
    at_rest = next(i for i, still in enumerate(meta["settled"]) if still)
    verdicts = [e for e in events if e["event"] == "settled"]
    assert all(v["frame"] >= at_rest for v in verdicts), "a verdict while the dice were still moving"
    assert len(recorder.announced) <= 1
    if not reads_right(reader, sidecar):
        return  # the reader's accuracy is measured by `bobing eval`; the loop must just not invent a result
    assert len(recorder.announced) == 1, [e for e in events if e["event"] in ("settled", "notice")]
    # The loop reads at the settle time, a few frames before the clip's last one: it may honestly
    # say "can't read" there, but any award or void it gives must be the throw's.
    if recorder.announced[0].outcome is not Outcome.LOOK:
        assert announced_right(recorder, meta), recorder.announced[0]


def test_the_sample_clips_are_not_all_beyond_the_reader(played: dict[str, Any]) -> None:
    """Guard against the test above passing vacuously: some clip must be announced right by the loop."""
    right = [p.stem for p in CLIPS if announced_right(played[p.stem][0], meta_of(p))]
    assert right, "the loop announces no sample clip right: the clip test checks only the negatives"
