"""Throw clips from the scene generator drive the whole loop, with a reader that answers from the
clip's own labels (exact on settled frames, nonsense while dice move, "not six dice" under a hand):
one announcement per throw with the right award, none while the dice move."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from live_clipkit import ListSource, Recorder

from bobing_vision.live.announce import Outcome
from bobing_vision.live.loop import LiveLoop
from bobing_vision.live.table import TableSetup, open_table
from bobing_vision.rules import classify
from bobing_vision.synth.clip import Clip, ClipSpec, render_clip
from bobing_vision.vision.reading import Bowl, DieReading, Reading, ReadingStatus


def _key(image: np.ndarray) -> str:
    return hashlib.sha1(image.tobytes()).hexdigest()


def truth(clip: Clip) -> Reading:
    label = clip.final_label
    dice = tuple(DieReading(center=d.center_xy, box=d.box, face=d.face, confidence=1.0, in_bowl=d.in_bowl is not False)
                 for d in label.dice)
    bowl = Bowl(*label.bowl) if label.bowl else None
    status = ReadingStatus.OK if all(d.in_bowl for d in dice) else ReadingStatus.OUT_OF_BOWL
    return Reading(dice=dice, bowl=bowl, status=status)


class LabelReader:
    """Reads a generated frame the way its labels say a perfect reader would."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.book: dict[str, Reading] = {}
        self.rng = rng
        self.settled_reads = self.moving_reads = 0

    def learn(self, clip: Clip) -> None:
        final = truth(clip)
        hand = Reading(dice=final.dice[:4], bowl=final.bowl, status=ReadingStatus.WRONG_DICE_COUNT)
        for frame, settled, hand_in in zip(clip.frames, clip.settled, clip.hand_in_bowl):
            self.book[_key(frame)] = final if settled else hand if hand_in else None  # type: ignore[assignment]

    def read(self, frame: np.ndarray) -> Reading:
        reading = self.book[_key(frame)]
        if reading is None:  # dice in motion: whatever a blurred frame reads as
            self.moving_reads += 1
            faces = self.rng.integers(1, 7, 6)
            dice = tuple(DieReading(center=(float(10 * i), 5.0), box=(0, 0, 1, 1), face=int(f), confidence=0.5) for i, f in enumerate(faces))
            return Reading(dice=dice, bowl=None, status=ReadingStatus.OK)
        self.settled_reads += 1
        return reading


@pytest.fixture(scope="module")
def clips() -> list[Clip]:
    rng = np.random.default_rng(8)  # three throws: one with a die over the rim, one with a hand resting in the bowl
    spec = ClipSpec(size=(320, 240), fps=20.0, jump_out_p=0.3, hand_rest_p=0.5)
    return [render_clip(rng, spec) for _ in range(3)]


def test_generated_throws_give_one_right_announcement_each(clips: list[Clip]) -> None:
    reader = LabelReader(np.random.default_rng(1))
    frames: list[np.ndarray] = []
    for clip in clips:
        reader.learn(clip)
        frames.extend(clip.frames)
    table, _ = open_table(TableSetup(players=("A", "B"), start_throw=(1, 2)))
    recorder = Recorder()
    LiveLoop(ListSource(frames, fps=20.0), reader, table, [recorder]).run()
    assert reader.moving_reads == 0, "the loop read a frame while the dice were moving"
    expected = [Outcome.VOID if not all(d.in_bowl is not False for d in c.final_label.dice) else Outcome.AWARD for c in clips]
    assert [a.outcome for a in recorder.announced] == expected
    for clip, announced in zip(clips, recorder.announced):
        if announced.outcome is Outcome.AWARD:
            assert announced.award is not None and announced.award.category is classify(clip.final_faces).category
            assert announced.faces == tuple(sorted(clip.final_faces))
