"""The pipeline's decisions from detector candidates: a stand-in detector returns chosen candidates."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from bobing_vision.dataset.labels import ImageLabel
from bobing_vision.errors import InvalidInput
from bobing_vision.rules import Award, Category, RuleSet
from bobing_vision.vision.calibration import Calibration
from bobing_vision.vision.config import ReaderConfig
from bobing_vision.vision.detector import DieCandidate, Pip
from bobing_vision.vision.pipeline import normalize_frame, read_frame
from bobing_vision.vision.reading import Bowl, Box, Reading, ReadingStatus

BOWL = Bowl(cx=320.0, cy=240.0, rx=200.0, ry=180.0, angle_deg=0.0)
FRAME = np.full((480, 640, 3), 128, np.uint8)
DIE = 24.0  # die top-face width in pixels


def nearest(candidates: Sequence[DieCandidate], centers: Sequence[tuple[float, float]]) -> list[DieCandidate]:
    """For each centre, the candidate closest to it: a detector that reads a die the same at any size."""
    return [min(candidates, key=lambda c: np.hypot(c.center[0] - x, c.center[1] - y)) for x, y in centers]


class FixedDetector:
    """Returns the same candidates for every frame and remembers what it was asked. `again`: what a
    die reads when read again at another size (default: the same)."""

    def __init__(self, candidates: Sequence[DieCandidate], again: Sequence[DieCandidate] = ()) -> None:
        self.candidates = list(candidates)
        self.again = list(again)
        self.calls: list[tuple[tuple[int, ...], Box | None]] = []
        self.read_again: list[tuple[float, float]] = []
        self.zooms: list[float | None] = []

    def detect(self, frame: np.ndarray, roi: Box | None = None, zoom: float | None = None) -> list[DieCandidate]:
        self.calls.append((frame.shape, roi))
        self.zooms.append(zoom)
        return list(self.candidates)

    def read_at(self, frame: np.ndarray, centers: Sequence[tuple[float, float]], size: float) -> list[DieCandidate]:
        self.read_again += list(centers)
        return nearest(self.again or self.candidates, centers)


def die(x: float, y: float, face: int, prob: float = 0.98, pips: int | None = None, red: int | None = None,
        score: float = 0.9) -> DieCandidate:
    """A candidate showing `face`; pips default to what a Chinese die shows (red on the 1 and 4)."""
    count = face if pips is None else pips
    n_red = (count if face in (1, 4) else 0) if red is None else red
    probs = [(1 - prob) / 5] * 6
    probs[face - 1] = prob
    return DieCandidate(
        center=(x, y), box=(x - DIE / 2, y - DIE / 2, x + DIE / 2, y + DIE / 2), score=score,
        face_probs=tuple(probs),  # type: ignore[arg-type]
        pips=tuple(Pip(center=(x, y), red=k < n_red) for k in range(count)),
    )


def six(faces: str = "444411") -> list[DieCandidate]:
    return [die(250 + 30 * i, 240, int(f)) for i, f in enumerate(faces)]


def less_sure(candidates: list[DieCandidate], score: float) -> list[DieCandidate]:
    """The dice scored `score` as dice: a thing outside as sure as they are is not dropped as clutter."""
    return [replace(c, score=score) for c in candidates]


def read(candidates: Sequence[DieCandidate], **kwargs: Any) -> Reading:
    kwargs.setdefault("bowl", BOWL)
    return read_frame(FRAME, FixedDetector(candidates), **kwargs)


def test_six_readable_dice_in_the_bowl_give_the_award() -> None:
    reading = read(six("444411"))
    assert reading.status is ReadingStatus.OK
    assert reading.faces == (1, 1, 4, 4, 4, 4)
    assert isinstance(reading.award, Award) and reading.award.category is Category.CHA_JIN_HUA


def test_the_rules_passed_in_are_used() -> None:
    rules = RuleSet.preset("competition")
    award = read(six("444411"), rules=rules).award
    assert isinstance(award, Award) and award.rules == rules


@pytest.mark.parametrize(
    ("case", "candidates", "status", "message"),
    [
        ("five dice", six("44441")[:5], ReadingStatus.WRONG_DICE_COUNT, "5 dice seen"),
        ("seven dice", six("444411") + [die(320, 300, 2)], ReadingStatus.WRONG_DICE_COUNT, "7 dice seen"),
        ("one on the table", six("44441") + [die(600, 40, 3)], ReadingStatus.OUT_OF_BOWL,
         "void: die out of the bowl"),
        ("six in, and a pattern on the table read as dice", six("444411") + [die(600, 40, 2), die(40, 40, 2)],
         ReadingStatus.WRONG_DICE_COUNT, "6 dice seen and 2 outside the bowl — please look"),
        ("four in, two out: still a void", six("4444") + [die(600, 40, 3), die(40, 40, 2)],
         ReadingStatus.OUT_OF_BOWL, "void: die out of the bowl"),
        ("one unsure", six("44441") + [die(320, 300, 2, prob=0.5)], ReadingStatus.UNREADABLE, "can't read die"),
        ("pips one off, face not sure enough", six("44441") + [die(320, 300, 6, prob=0.75, pips=5)],
         ReadingStatus.UNREADABLE, "can't read die"),
        ("no pips found, face not certain", six("44441") + [die(320, 300, 5, prob=0.93, pips=0)],
         ReadingStatus.UNREADABLE, "can't read die"),
        ("pips two off, face sure", six("44441") + [die(320, 300, 5, prob=0.93, pips=3)], ReadingStatus.UNREADABLE,
         "can't read die"),
        ("a 6 with four pips found, not sure enough to have lost its middle pair",
         six("44441") + [die(320, 300, 6, prob=0.82, pips=4)], ReadingStatus.UNREADABLE, "can't read die"),
        ("a sure 6 with two pips found", six("44441") + [die(320, 300, 6, prob=0.93, pips=2)],
         ReadingStatus.UNREADABLE, "can't read die"),
        ("red pips on a 3", six("44441") + [die(320, 300, 3, prob=0.93, red=1)], ReadingStatus.UNREADABLE,
         "can't read die"),
        ("a leaning Chinese die: a sure 4 with red and black pips, one too many",
         six("44441") + [die(320, 300, 4, prob=0.93, pips=5, red=3)], ReadingStatus.UNREADABLE, "can't read die"),
        ("a leaning Chinese die, however sure: a red 4 and a black 5 in view",
         six("44441") + [die(320, 300, 4, prob=0.97, pips=9, red=4)], ReadingStatus.UNREADABLE, "can't read die"),
        ("a Chinese 4 with no red, however sure", six("44441") + [die(320, 300, 4, prob=0.99, red=0)],
         ReadingStatus.UNREADABLE, "can't read die"),
    ],
)
def test_frames_that_give_no_award(case: str, candidates: list[DieCandidate], status: ReadingStatus,
                                   message: str) -> None:
    reading = read(candidates)
    assert reading.status is status, case
    assert reading.award is None
    assert reading.message.startswith(message)


class CloserDetector(FixedDetector):
    """Finds `closer` only when asked to look at a ROI zoomed in: dice the whole frame's scale merged."""

    def __init__(self, candidates: Sequence[DieCandidate], closer: Sequence[DieCandidate]) -> None:
        super().__init__(candidates)
        self.closer = list(closer)

    def detect(self, frame: np.ndarray, roi: Box | None = None, zoom: float | None = None) -> list[DieCandidate]:
        found = super().detect(frame, roi, zoom)
        return found + self.closer if zoom is not None else found


def read_closer(candidates: Sequence[DieCandidate], closer: Sequence[DieCandidate],
                **kwargs: Any) -> tuple[Reading, CloserDetector]:
    detector = CloserDetector(candidates, closer)
    return read_frame(FRAME, detector, **{"bowl": BOWL, **kwargs}), detector


def test_a_die_missed_among_the_others_is_found_by_a_closer_look() -> None:
    reading, detector = read_closer(six("44441"), [die(265, 262, 1)])
    assert reading.status is ReadingStatus.OK and reading.faces == (1, 1, 4, 4, 4, 4)
    (roi,) = [roi for _, roi in detector.calls[1:]]
    assert detector.zooms == [None, ReaderConfig().closer_zoom]
    assert roi is not None and roi[0] < 250 < 370 < roi[2] and roi[1] < 240 < roi[3]  # around the five dice


@pytest.mark.parametrize(
    ("case", "width", "parts", "split"),
    [
        ("two touching dice under one box 1.7 times the others", 40.0, [(360, 252), (382, 252)], True),
        ("found closer 0.6 of a die apart: one jumble, not two dice", 40.0, [(364, 252), (378, 252)], False),
        ("a box only 1.1 times the others: one die", 26.0, [(360, 252), (382, 252)], False),
    ],
)
def test_a_box_over_two_touching_dice_is_split_by_the_closer_look(case: str, width: float,
                                                                    parts: list[tuple[int, int]], split: bool) -> None:
    merged = sized(die(370, 252, 5, prob=0.3), width)
    (x1, y1), (x2, y2) = parts
    reading, _ = read_closer(six("4444") + [merged], [die(x1, y1, 1), die(x2, y2, 4)])
    assert (reading.status is ReadingStatus.OK) == split, (case, reading.notes)
    assert len(reading.dice) == (6 if split else 5)


def test_without_the_closer_look_five_dice_are_a_status() -> None:
    reading, detector = read_closer(six("44441"), [die(265, 262, 1)], config=ReaderConfig(closer_zoom=None))
    assert reading.message.startswith("5 dice seen") and detector.zooms == [None]


@pytest.mark.parametrize(("case", "candidates", "bowl"), [
    ("six dice already", six("444411"), BOWL),
    ("five in and one out: six found, the throw is void", six("44441") + [die(600, 40, 3)], BOWL),
    ("no bowl in view: no throw to complete", six("44441"), None),
    ("two dice: a hand, not a settled throw", six("44"), BOWL),
])
def test_no_closer_look_where_no_die_is_missing_from_a_throw(case: str, candidates: list[DieCandidate],
                                                             bowl: Bowl | None) -> None:
    _, detector = read_closer(candidates, [die(265, 262, 1)], bowl=bowl)
    assert detector.zooms == [None], case


def test_the_closer_look_adds_only_a_strong_candidate() -> None:
    """Zoomed in, the bowl's painting scores higher too: a blob at 0.44 read as a sure 1 beside five
    dice gave an award while the sixth die lay unseen on the table (generated seed 1248 scene 151)."""
    painted = die(265, 262, 1, score=0.44)
    reading, _ = read_closer(six("44441"), [painted])
    assert reading.message.startswith("5 dice seen") and reading.award is None
    reading, _ = read_closer(six("44441"), [painted], config=ReaderConfig(closer_min_score=None))
    assert reading.status is ReadingStatus.OK  # the blob's award, as before


def test_a_closer_look_keeps_the_reads_of_the_dice_already_found() -> None:
    # The zoomed look sees the first 4 again, surer and as a 6: the die keeps its first read.
    again = replace(die(250, 240, 6), score=0.99)
    reading, _ = read_closer(six("44441"), [again, die(265, 262, 1)])
    assert reading.faces == (1, 1, 4, 4, 4, 4)


@pytest.mark.parametrize(
    ("case", "candidate"),
    [
        ("ordinary dice: black 1 and 4", die(320, 300, 4, red=0)),
        ("a certain face whose pips are not found at all", die(320, 300, 5, pips=0)),
        ("red 1", die(320, 300, 1)),
        ("a sure 6 with one pip missed", die(320, 300, 6, pips=5)),
        ("a 0.85-sure 6 with one pip missed (the pip reader's usual slip)", die(320, 300, 6, prob=0.85, pips=5)),
        ("a sure red 1 seen as two pips", die(320, 300, 1, pips=2, red=1)),
        ("a red 4 with some pips taken for black", die(320, 300, 4, red=2)),
        ("a certain 6 whose pips the pip reader miscounts", die(320, 300, 6, prob=0.98, pips=3)),
        ("a sure 6 whose middle pair merged into its corners", die(320, 300, 6, prob=0.88, pips=4)),
        ("a certain 3 with one pip taken for red", die(320, 300, 3, prob=0.98, red=1)),
        ("a sure 3 with one pip taken for red, among ordinary dice", die(320, 300, 3, prob=0.93, red=1)),
    ],
)
def test_faces_that_are_read(case: str, candidate: DieCandidate) -> None:
    reading = read(six("22222") + [candidate])
    assert reading.status is ReadingStatus.OK, (case, reading.notes)


def test_unreadable_die_keeps_its_place_and_is_not_guessed() -> None:
    reading = read(six("44441") + [die(320, 300, 2, prob=0.55)])
    (bad,) = [d for d in reading.dice if not d.readable]
    assert bad.face is None and bad.center == (320.0, 300.0)
    assert reading.faces == (1, 4, 4, 4, 4)
    assert any("0.55" in note for note in reading.notes)


def test_a_chinese_one_beside_a_neighbours_black_pips_is_read_by_its_red_pip() -> None:
    """A 1 read 0.85 sure whose box holds a touching die's two black pips: red and black on one face is
    refused in a Chinese set; its own colour alone is a 1's layout, so the throw is scored."""
    one = die(400, 240, 1, prob=0.85)
    neighbours = tuple(Pip(center=(400 + 0.3 * DIE, 240 + dy * DIE), red=False) for dy in (-0.1, 0.2))
    candidates = six("44441") + [replace(one, pips=one.pips + neighbours)]
    reading = read(candidates)
    assert reading.status is ReadingStatus.OK
    assert reading.faces == (1, 1, 4, 4, 4, 4)
    refused = read(candidates, config=replace(ReaderConfig(), one_colour_faces=False))
    assert refused.status is ReadingStatus.UNREADABLE
    assert any("3 pips seen on a 1" in note for note in refused.notes)


def test_ordinary_dice_with_red_pips_on_every_face_are_not_a_chinese_set() -> None:
    red_set = [die(250 + 30 * k, 240, f, prob=0.93, red=f) for k, f in enumerate((2, 3, 4, 5, 6))]
    reading = read(red_set + [die(320, 330, 1, prob=0.93, red=1)])
    assert reading.status is ReadingStatus.OK, reading.notes
    assert reading.faces == (1, 2, 3, 4, 5, 6)


def test_small_dice_with_red_pips_on_every_face_some_taken_for_black_are_not_a_chinese_set() -> None:
    # Dark dice ~20 px wide with red pips on every face: the pip reader takes a few red pips for black,
    # so no 2, 3, 5 or 6 is all red, but mostly red is still no Chinese die (generated clip, seed 99).
    mixed = [die(250, 240, 6, prob=0.93, red=4), die(280, 240, 5, prob=0.93, red=3),
             die(310, 240, 6, prob=0.93, red=5), die(340, 240, 3, prob=0.93, red=2)]
    reading = read(mixed + [die(300, 300, 1), die(340, 300, 4)])
    assert reading.status is ReadingStatus.OK, reading.notes
    assert reading.faces == (1, 3, 4, 5, 6, 6)


def test_a_certain_face_with_mostly_red_pips_that_do_not_count_it_is_no_witness_and_no_read() -> None:
    # Generated seed 1313, scene 37: a Chinese 4 half under another die, read 2 at 0.95 with 3 pips,
    # 2 of them red. Its red pips called the set ordinary, so nothing checked it: a wrong award.
    misread = die(340, 300, 2, prob=0.951, pips=3, red=2)
    reading = read(six("2656") + [die(250, 300, 4), misread])
    assert reading.status is not ReadingStatus.OK and reading.award is None
    assert [d.center for d in reading.dice if not d.readable] == [(340.0, 300.0)]
    assert any("red pips on a 2" in note for note in reading.notes), reading.notes


def test_an_unsure_face_with_red_pips_is_no_witness_that_the_dice_are_ordinary() -> None:
    # Generated seed 1111, scene 129: a Chinese 4 half under another die, read 2 at 0.76 with its two
    # visible pips, both red. As a red 2 it called the set ordinary, so nothing checked it: a wrong award.
    misread = die(340, 300, 2, prob=0.76, red=2)
    reading = read(six("3214") + [die(250, 300, 1), misread])
    assert reading.status is ReadingStatus.UNREADABLE and reading.award is None
    assert [d.center for d in reading.dice if not d.readable] == [(340.0, 300.0)]
    assert any("red pips on a 2" in note for note in reading.notes), reading.notes


def small(candidate: DieCandidate, width: float) -> DieCandidate:
    """The candidate with its box shrunk to `width` about its centre (the locator's size error)."""
    x, y = candidate.center
    return replace(candidate, box=(x - width / 2, y - width / 2, x + width / 2, y + width / 2))


@pytest.mark.parametrize(
    ("case", "width", "again", "readable"),
    [
        ("a small box that reads the same at the others' size", 0.75 * DIE, die(320, 300, 1), True),
        ("one pip of a 2 in a small box, a 2 at the others' size", 0.75 * DIE, die(320, 300, 2), False),
        ("...or not surely a 1 at their size", 0.75 * DIE, die(320, 300, 1, prob=0.7), False),
        ("a box nearly the others' size is not read again", 0.85 * DIE, die(320, 300, 2), True),
    ],
)
def test_a_one_in_a_smaller_box_is_read_again_at_the_others_size(case, width, again, readable) -> None:
    detector = FixedDetector(six("22222") + [small(die(320, 300, 1, prob=0.99), width)], again=[again])
    reading = read_frame(FRAME, detector, bowl=BOWL)
    assert reading.dice[-1].readable is readable, (case, reading.notes)
    assert detector.read_again == ([(320.0, 300.0)] if width < 0.8 * DIE else []), case
    assert (reading.status is ReadingStatus.OK) is readable


@pytest.mark.parametrize(
    ("case", "again", "readable"),
    [
        ("sure at the others' size, the same face", die(320, 300, 2, prob=0.95), True),
        ("sure at the others' size, but another face", die(320, 300, 3, prob=0.95), False),
        ("the same face, not sure enough", die(320, 300, 2, prob=0.85), False),
        ("sure, but its pips do not count it", die(320, 300, 2, prob=0.92, pips=4), False),
    ],
)
def test_a_die_not_read_is_read_again_at_the_others_size(case: str, again: DieCandidate, readable: bool) -> None:
    unsure = small(die(320, 300, 2, prob=0.6), 1.3 * DIE)  # the locator's box too big: its crop too
    detector = FixedDetector(six("44441") + [unsure], again=[again])
    reading = read_frame(FRAME, detector, bowl=BOWL)
    assert detector.read_again == [(320.0, 300.0)]
    (that,) = [d for d in reading.dice if d.center == (320.0, 300.0)]
    assert that.readable is readable, (case, reading.notes)
    assert (reading.status is ReadingStatus.OK) is readable, case


def test_dice_of_many_sizes_in_view_are_not_read_again_at_one_size() -> None:
    # An oblique photo: the near dice are bigger, so the others' size says nothing of this one's.
    spread = [small(d, w * DIE) for d, w in zip(six("44441"), (0.6, 0.8, 1.0, 1.2, 1.45))]
    detector = FixedDetector(spread + [die(320, 300, 2, prob=0.6)], again=[die(320, 300, 2, prob=0.99)])
    reading = read_frame(FRAME, detector, bowl=BOWL)
    (that,) = [d for d in reading.dice if d.center == (320.0, 300.0)]
    assert detector.read_again == [] and not that.readable


def test_only_a_one_is_read_again_for_a_smaller_box() -> None:
    # The far dice of an oblique view are small too: a 5 is no single pip, so its box is not doubted.
    detector = FixedDetector(six("22222") + [small(die(320, 300, 5, prob=0.99), 0.75 * DIE)],
                             again=[die(320, 300, 3)])
    assert read_frame(FRAME, detector, bowl=BOWL).status is ReadingStatus.OK
    assert detector.read_again == []


def test_certain_black_fours_beside_a_red_one_are_a_mixed_heap_not_a_chinese_set() -> None:
    heap = [die(250, 240, 4), die(280, 240, 1, prob=0.99, red=0), die(310, 240, 4, prob=0.99, red=0),
            die(340, 240, 2), die(370, 240, 3), die(320, 300, 5)]
    reading = read(heap)
    assert reading.status is ReadingStatus.OK, reading.notes
    assert reading.faces == (1, 2, 3, 4, 4, 5)


@pytest.mark.parametrize(
    ("case", "others", "prob", "readable"),
    [
        ("among Chinese dice (red 4s)", "44441", 0.93, False),
        ("among Chinese dice, however sure the face head is", "44441", 0.99, False),
        ("among ordinary dice (black pips only)", "22356", 0.93, True),
    ],
)
def test_a_black_one_is_read_only_among_ordinary_dice(case: str, others: str, prob: float, readable: bool) -> None:
    reading = read(six(others)[:5] + [die(320, 300, 1, prob=prob, red=0)])
    assert reading.dice[-1].readable is readable, (case, reading.notes)


@pytest.mark.parametrize(("case", "width"), [("a pip taken for a die", 11.0), ("a coin", 40.0)])
def test_a_die_unlike_the_others_in_size_is_not_read(case: str, width: float) -> None:
    odd = DieCandidate(center=(320.0, 300.0), box=(320 - width / 2, 300 - width / 2, 320 + width / 2, 300 + width / 2),
                       score=0.9, face_probs=(1.0, 0.0, 0.0, 0.0, 0.0, 0.0))
    reading = read(six("22222")[:5] + [odd])
    assert reading.status is ReadingStatus.UNREADABLE, case
    assert any("px wide" in note for note in reading.notes)


def laid_out(candidate: DieCandidate, squeeze: float) -> DieCandidate:
    """The candidate with its face's pips laid out on its box, squeezed across by `squeeze` (1: flat)."""
    x, y = candidate.center
    half = 0.25 * DIE
    spots = [(-1, -1), (1, -1), (-1, 1), (1, 1), (0, 0)][:candidate.face]
    return replace(candidate, pips=tuple(Pip(center=(x + u * half * squeeze, y + v * half), red=p.red)
                                         for (u, v), p in zip(spots, candidate.pips)))


@pytest.mark.parametrize(
    ("case", "face", "squeeze", "aspect", "readable"),
    [
        # Generated seed 1482 scene 187: a leaning 1's side read as a certain 4, its pips 0.51 as wide as long.
        ("a leaning die's side read as a 4", 4, 0.5, 0.7, False),
        ("a 5 lying flat", 5, 0.95, 0.7, True),
        ("the check off", 4, 0.5, None, True),
    ],
)
def test_a_face_whose_pips_lie_squeezed_on_the_table_is_not_read(case: str, face: int, squeeze: float,
                                                                  aspect: float | None, readable: bool) -> None:
    leaning = laid_out(die(320, 300, face), squeeze)
    reading = read(six("22222")[:5] + [leaning], config=ReaderConfig(lean_min_aspect=aspect))
    assert reading.dice[-1].readable is readable, (case, reading.notes)
    assert (reading.status is ReadingStatus.OK) is readable


def test_by_default_a_face_squeezed_beyond_the_rims_tilt_is_not_read() -> None:
    reading = read(six("22222")[:5] + [laid_out(die(320, 300, 4), 0.6)])
    assert reading.status is ReadingStatus.UNREADABLE and "a leaning die's side" in reading.notes[-1]


def test_small_dice_are_not_judged_by_their_pips_lie() -> None:
    small = [sized(laid_out(c, 0.5 if c.face == 4 else 1.0), 14.0) for c in six("222224")]
    reading = read(small, config=ReaderConfig(lean_min_aspect=0.7, lean_min_width=18.0))
    assert reading.status is ReadingStatus.OK


@pytest.mark.parametrize(
    ("case", "scale", "status"),
    [
        # A generated clip's hand resting on the rim read as a certain 6, 2.3x the dice's width.
        ("a hand on the rim read as a 6", 2.3, ReadingStatus.WRONG_DICE_COUNT),
        # Dice out on the table reached 1.81x the bowl's dice over 16 generated sets.
        ("a die out, nearer an oblique camera", 1.8, ReadingStatus.OUT_OF_BOWL),
    ],
)
def test_a_thing_outside_far_bigger_than_the_dice_does_not_void_the_throw(case: str, scale: float,
                                                                          status: ReadingStatus) -> None:
    half = scale * DIE / 2
    outside = replace(die(560, 400, 6), box=(560 - half, 400 - half, 560 + half, 400 + half))
    reading = read(six("44441") + [outside])
    assert reading.status is status, (case, reading.notes)


def sized(candidate: DieCandidate, width: float) -> DieCandidate:
    x, y = candidate.center
    return replace(candidate, box=(x - width / 2, y - width / 2, x + width / 2, y + width / 2))


@pytest.mark.parametrize(
    ("case", "dice_width", "outside_face", "status"),
    [
        # Generated seeds 4156 and 3356: coins on the table read as 1s beside 11 and 13 px dice.
        ("a 1 beside dice too small to tell a pip from a coin", 12.0, 1, ReadingStatus.WRONG_DICE_COUNT),
        ("another face beside them", 12.0, 3, ReadingStatus.OUT_OF_BOWL),
        ("a 1 beside dice big enough", 16.0, 1, ReadingStatus.OUT_OF_BOWL),
    ],
)
def test_a_1_on_the_table_beside_tiny_dice_does_not_void_the_throw(case: str, dice_width: float, outside_face: int,
                                                                 status: ReadingStatus) -> None:
    dice = [sized(c, dice_width) for c in six("44441")]
    reading = read(dice + [sized(die(600, 40, outside_face), 1.2 * dice_width)])
    assert reading.status is status, (case, reading.notes)
    assert any("perhaps a coin" in note for note in reading.notes) is (status is ReadingStatus.WRONG_DICE_COUNT)


def test_an_unreadable_thing_on_the_table_does_not_void_the_throw() -> None:
    coin = die(600, 40, 3, prob=0.3)
    reading = read(six("444411") + [coin])
    assert reading.status is ReadingStatus.OK and len(reading.dice) == 6
    assert any("outside the bowl" in note for note in reading.notes)


@pytest.mark.parametrize(("case", "thing", "config", "status"), [
    ("a die surely, face unread", die(600, 40, 5, prob=0.5, score=0.9), ReaderConfig(), ReadingStatus.OUT_OF_BOWL),
    ("a die fairly surely, its pips in view", die(600, 40, 5, prob=0.5, score=0.72), ReaderConfig(),
     ReadingStatus.OUT_OF_BOWL),
    ("perhaps a die", die(600, 40, 5, prob=0.5, score=0.65), ReaderConfig(), ReadingStatus.WRONG_DICE_COUNT),
    # Generated seeds 4208 (scene 179) and 1482 (scene 189): a flower printed on the cloth and a coin,
    # 0.73 and 0.75 sure, beside five dice in the bowl whose sixth went unfound.
    ("one pip in view: a coin's hole, a printed flower", die(600, 40, 5, prob=0.5, score=0.9, pips=1),
     ReaderConfig(), ReadingStatus.WRONG_DICE_COUNT),
    ("no pip in view", die(600, 40, 5, prob=0.5, score=0.9, pips=0), ReaderConfig(), ReadingStatus.WRONG_DICE_COUNT),
    ("a die surely, twice the dice's size: a hand on the rim",
     replace(die(600, 40, 5, prob=0.5, score=0.9), box=(570.0, 10.0, 630.0, 70.0)), ReaderConfig(),
     ReadingStatus.WRONG_DICE_COUNT),
    ("a die surely, with only read dice voiding", die(600, 40, 5, prob=0.5, score=0.9),
     replace(ReaderConfig(), void_unread_outside_score=None), ReadingStatus.WRONG_DICE_COUNT),
])
def test_a_die_out_of_the_bowl_voids_the_throw_whatever_it_shows(case: str, thing: DieCandidate,
                                                                  config: ReaderConfig, status: ReadingStatus) -> None:
    """Five dice in the bowl and, on the table, a thing the detector is sure is a die whose face is not
    read: the throw is void all the same. Less sure, not the dice's size, or showing fewer than two pips,
    it is left out: 5 dice seen."""
    reading = read(six("44441") + [thing], config=config)
    assert reading.status is status, case
    assert reading.award is None
    if status is ReadingStatus.OUT_OF_BOWL:
        outside = [d for d in reading.dice if not d.in_bowl]
        assert len(outside) == 1 and outside[0].face is None
        assert any(f"a die all the same ({thing.score:.2f} sure)" in note for note in reading.notes)
    else:
        assert reading.message == "5 dice seen"
        assert any("outside the bowl" in note for note in reading.notes)


def test_a_certain_read_on_the_table_with_no_pips_found_does_not_void_the_throw() -> None:
    coin = die(600, 40, 1, prob=0.99, pips=0)
    reading = read(six("44441") + [coin])
    assert reading.status is ReadingStatus.WRONG_DICE_COUNT and len(reading.dice) == 5
    assert any("no pips seen" in note for note in reading.notes)
    assert read(six("44441") + [die(600, 40, 1, prob=0.99)]).status is ReadingStatus.OUT_OF_BOWL


@pytest.mark.parametrize(
    ("case", "blurred_sixth", "score", "status"),
    [
        ("a seventh thing, weak: a coin whose hole reads as a 1", True, 0.55, ReadingStatus.WRONG_DICE_COUNT),
        # Generated coins outside a full bowl scored up to 0.63 as a die (fifteenth session).
        ("a seventh thing, a copper coin read as a red 1", True, 0.63, ReadingStatus.WRONG_DICE_COUNT),
        ("a seventh thing, surely a die", True, 0.7, ReadingStatus.OUT_OF_BOWL),
        ("the sixth die, weak", False, 0.55, ReadingStatus.OUT_OF_BOWL),
    ],
)
def test_a_weak_die_outside_voids_the_throw_only_while_the_bowl_lacks_one(
        case: str, blurred_sixth: bool, score: float, status: ReadingStatus) -> None:
    in_bowl = less_sure(six("44441") + ([die(320, 300, 2, prob=0.3)] if blurred_sixth else []), 0.5)
    reading = read(in_bowl + [die(600, 40, 1, prob=0.99, score=score)])
    assert reading.status is status, (case, reading.notes)
    outside = [d for d in reading.dice if not d.in_bowl]
    assert len(outside) == 1 and outside[0].readable is (status is ReadingStatus.OUT_OF_BOWL), case


def test_a_doubtful_die_outside_asks_a_person_to_look() -> None:
    in_bowl = less_sure(six("44441") + [die(320, 300, 2, prob=0.3)], 0.5)
    reading = read(in_bowl + [die(600, 40, 1, prob=0.99, score=0.55)])
    assert reading.award is None
    assert reading.message == "6 dice seen and 1 outside the bowl — please look"
    assert any("outside the bowl, only 0.55 sure" in note for note in reading.notes)


def test_duplicate_candidates_of_one_die_are_merged_keeping_the_strongest() -> None:
    dupes = [die(320, 300, 2, score=0.7), die(323, 302, 5, score=0.95)]
    reading = read(six("44441") + dupes)
    assert len(reading.dice) == 6
    assert reading.faces == (1, 4, 4, 4, 4, 5)


def test_weak_candidates_are_dropped() -> None:
    reading = read(six("444411") + [die(320, 300, 2, score=0.1)])
    assert reading.status is ReadingStatus.OK


def test_a_weak_die_counts_only_while_six_strong_ones_are_not_found() -> None:
    """Between min_die_score and strong_die_score: a seventh is clutter, a sixth is the missing die."""
    weak = die(320, 300, 2, score=0.45, prob=0.5)
    assert read(six("444411") + [weak]).status is ReadingStatus.OK
    assert read(six("44441") + [weak]).status is ReadingStatus.UNREADABLE


def test_an_unread_thing_in_the_bowl_does_not_make_a_die_read_below_it_clutter() -> None:
    """A blob of the bowl's painting on its wall, scored a die but showing no face, took the sixth place
    among the strong candidates, and a die read sure just below it was dropped as clutter (the second
    renderer's throws). Only a face read counts among the six: the die is kept, and with seven things in
    the bowl a person looks instead of being told a die cannot be read."""
    blob = die(320, 300, 3, prob=0.3, score=0.6)
    below_it = die(400, 300, 2, score=0.45)
    reading = read(six("44441") + [blob, below_it])
    assert reading.status is ReadingStatus.WRONG_DICE_COUNT and reading.faces == (1, 2, 4, 4, 4, 4), reading.notes
    before = read(six("44441") + [blob, below_it], config=ReaderConfig(unread_counts_in_six=True))
    assert before.status is ReadingStatus.UNREADABLE and before.faces == (1, 4, 4, 4, 4)


def test_an_unread_thing_outside_the_bowl_still_counts_among_the_six() -> None:
    """It may be the die that jumped out (generated seed 6924, scene 189): not counted, a painted 1 in
    the bowl, weaker than the six, was kept and read beside the five dice as the sixth: a wrong award."""
    jumped_out = die(600, 40, 6, prob=0.5, score=0.65)
    painted_one = die(320, 300, 1, score=0.41)
    reading = read(six("44441") + [jumped_out, painted_one])
    assert reading.award is None and reading.faces == (1, 4, 4, 4, 4), reading.notes


@pytest.mark.parametrize(
    ("extra_score", "status"),
    [
        (0.6, ReadingStatus.OK),  # a painted dot read as a sure 1, less sure a die than the six dice
        (0.75, ReadingStatus.WRONG_DICE_COUNT),  # sure enough to be a seventh die: a person must look
    ],
)
def test_beside_six_surer_dice_a_seventh_below_the_sure_score_is_clutter(extra_score: float,
                                                                         status: ReadingStatus) -> None:
    reading = read(six("444411") + [die(320, 300, 1, score=extra_score)])
    assert reading.status is status, reading.notes


def test_a_seventh_as_sure_as_the_sixth_die_is_not_dropped() -> None:
    """The floor is never above the sixth strongest: of two things at 0.6, neither is the clutter."""
    dice = six("44441") + [die(400, 300, 2, score=0.6)]
    reading = read(dice + [die(320, 300, 1, score=0.6)])
    assert reading.status is ReadingStatus.WRONG_DICE_COUNT and len(reading.dice) == 7


@pytest.mark.parametrize(
    ("case", "seventh", "faces", "status"),
    [
        ("clearly less sure it is a die than the six read: clutter", die(320, 300, 2, prob=0.5, score=0.75),
         (1, 1, 4, 4, 4, 4), ReadingStatus.OK),
        ("a little less sure than the six read: perhaps a die", die(320, 300, 2, prob=0.5, score=0.85),
         (1, 1, 4, 4, 4, 4), ReadingStatus.WRONG_DICE_COUNT),
        ("surer it is a die than one of the six: perhaps a die", die(320, 300, 2, prob=0.5, score=0.95),
         (1, 1, 4, 4, 4, 4), ReadingStatus.WRONG_DICE_COUNT),
        ("read itself: seven dice", die(320, 300, 2, score=0.8), (1, 1, 2, 4, 4, 4, 4), ReadingStatus.WRONG_DICE_COUNT),
    ],
)
def test_an_unread_thing_beside_six_dice_read_is_clutter_only_when_clearly_less_sure(
        case: str, seventh: DieCandidate, faces: tuple[int, ...], status: ReadingStatus) -> None:
    reading = read(six("444411") + [seventh])
    assert reading.status is status, (case, reading.notes)
    assert reading.faces == faces
    assert any("ignored at (320, 300)" in note for note in reading.notes) == (status is ReadingStatus.OK)


def test_an_unread_thing_showing_no_pip_beside_six_dice_read_is_clutter() -> None:
    """A blob of the bowl's painting, read no face and with no pip in it, is clutter beside six dice read
    however sure the detector is that it is a die: a die shows a pip at least (a leaning one its sides')."""
    blob = die(320, 300, 2, prob=0.5, pips=0, score=0.95)
    reading = read(six("444411") + [blob])
    assert reading.status is ReadingStatus.OK and reading.faces == (1, 1, 4, 4, 4, 4), reading.notes
    assert any("ignored at (320, 300)" in note for note in reading.notes)
    leaning = die(320, 300, 2, prob=0.5, pips=1, score=0.95)  # one pip seen: perhaps a die, a person looks
    assert read(six("444411") + [leaning]).status is ReadingStatus.WRONG_DICE_COUNT
    # Beside five dice read, a thing without pips is no clutter either: the sixth die may be unread.
    assert read(six("44441") + [blob]).status is ReadingStatus.UNREADABLE
    # Each rule is its own setting: without the score margin the pipless blob is still clutter, and with the
    # pip rule off only the margin speaks (0.95 is no less sure than the six).
    no_margin = read(six("444411") + [blob], config=ReaderConfig(unread_clutter_margin=None))
    assert no_margin.status is ReadingStatus.OK, no_margin.notes
    no_pip_rule = ReaderConfig(unread_clutter_without_pips=False)
    assert read(six("444411") + [blob], config=no_pip_rule).status is ReadingStatus.WRONG_DICE_COUNT


def test_beside_five_dice_read_an_unread_thing_is_no_clutter() -> None:
    """Only six dice read make the rest clutter: with one of them unread too, no die is dropped."""
    reading = read(six("44441") + [die(280, 300, 3, prob=0.5), die(320, 300, 2, prob=0.5, score=0.75)])
    assert reading.status is ReadingStatus.WRONG_DICE_COUNT and len(reading.dice) == 7


def test_a_die_outside_is_not_clutter_for_a_painted_blob_in_the_bowl() -> None:
    """Five dice and a blob of the bowl's painting outrank a die that jumped out (generated seed 3604,
    scene 4): the clutter floor of the six strongest dropped the die and the blob's award was
    announced. Held to `outside_die_floor` instead, the die is kept: seven things read, no award."""
    blob = die(320, 300, 1, score=0.75)
    jumped_out = die(600, 40, 3, score=0.66)
    reading = read(six("44441") + [blob, jumped_out])
    assert reading.award is None and reading.status is ReadingStatus.WRONG_DICE_COUNT, reading.notes
    assert [d.face for d in reading.dice if not d.in_bowl] == [3]
    before = read(six("44441") + [blob, jumped_out], config=ReaderConfig(outside_die_floor=None))
    assert before.status is ReadingStatus.OK  # the blob's award
    # The six strongest still make a weaker thing in the bowl clutter, and one outside below the floor.
    assert read(six("444411") + [die(320, 300, 1, score=0.6)]).status is ReadingStatus.OK
    assert read(six("444411") + [die(600, 40, 3, score=0.6)]).status is ReadingStatus.OK


@pytest.mark.parametrize("seventh_score", [0.9, 0.6])  # a seventh as sure as the six, or less sure
def test_two_extras_beside_six_sure_dice_make_a_heap_not_clutter(seventh_score: float) -> None:
    """A heap of dice is no throw of six, so the six-dice prior does not make the less sure ones
    clutter (real photos of heaps: byler lost 62 of its 1487 dice to it)."""
    dice = six("444411") + [die(250, 300, 2, score=seventh_score)]
    reading = read(dice + [die(320, 300, 3, score=0.6)])
    assert reading.status is ReadingStatus.WRONG_DICE_COUNT and len(reading.dice) == 8, reading.notes


@pytest.mark.parametrize(
    ("case", "x", "inside"),
    [
        ("centre", 320.0, True),
        ("against the wall: top face just inside the rim, base further in", 320 + 200 - 0.2 * DIE, True),
        # Generated dice on the table beside the bowl had their base 1.6-3% of the radius past the rim.
        ("on the table against the bowl: base 2% past the rim", 320 + 200 + 0.5 * DIE + 4, False),
        ("on the table beyond the rim", 320 + 200 + 1.5 * DIE, False),
    ],
)
def test_in_bowl_uses_the_die_base(case: str, x: float, inside: bool) -> None:
    reading = read([die(x, 240, 3)])
    assert reading.dice[0].in_bowl is inside, case


def test_an_oversized_box_cannot_pull_a_die_on_the_table_into_the_bowl() -> None:
    x = 320 + 200 + 30.0  # 30 px past the rim: a die's width and more
    big = DieCandidate(center=(x, 240.0), box=(x - 60, 180.0, x + 60, 300.0), score=0.9,
                       face_probs=(0.0, 0.0, 1.0, 0.0, 0.0, 0.0), pips=(Pip(center=(x, 240.0), red=False),) * 3)
    assert read([big]).dice[0].in_bowl is False


def test_no_bowl_is_a_status_and_dice_are_still_reported() -> None:
    reading = read(six("444411"), bowl=None)  # a flat grey frame has no rim
    assert reading.status is ReadingStatus.NO_BOWL
    assert reading.bowl is None and reading.award is None
    assert len(reading.dice) == 6


def test_calibration_is_scaled_to_the_frame() -> None:
    calibration = Calibration(bowl=Bowl(160.0, 120.0, 100.0, 90.0, 10.0), width=320, height=240)
    reading = read(six("444411"), bowl=calibration)
    assert reading.bowl is not None
    assert reading.bowl.cx == pytest.approx(320.5, abs=0.01) and reading.bowl.rx == pytest.approx(200.0)
    assert reading.status is ReadingStatus.OK


def test_calibration_for_another_view_falls_back_to_searching() -> None:
    calibration = Calibration(bowl=Bowl(160.0, 90.0, 80.0, 80.0), width=320, height=180)
    reading = read(six("444411"), bowl=calibration)
    assert reading.status is ReadingStatus.NO_BOWL
    assert any("calibration" in note for note in reading.notes)


def test_roi_is_the_bowl_box_grown_when_configured() -> None:
    detector = FixedDetector(six())
    read_frame(FRAME, detector, bowl=BOWL, config=ReaderConfig(roi_margin=0.1))
    (_, roi), = detector.calls
    assert roi == pytest.approx((100.0, 42.0, 540.0, 438.0))


@pytest.mark.parametrize(
    ("case", "frame"),
    [
        ("gray", np.full((480, 640), 128, np.uint8)),
        ("gray with a channel axis", np.full((480, 640, 1), 128, np.uint8)),
        ("BGRA", np.full((480, 640, 4), 128, np.uint8)),
        ("odd size", np.full((97, 1203, 3), 128, np.uint8)),
    ],
)
def test_frames_are_normalised_to_bgr(case: str, frame: np.ndarray) -> None:
    out = normalize_frame(frame)
    assert out.shape == frame.shape[:2] + (3,) and out.dtype == np.uint8, case
    detector = FixedDetector(six())
    assert read_frame(frame, detector, bowl=BOWL).status is ReadingStatus.OK
    assert detector.calls[0][0] == frame.shape[:2] + (3,)


@pytest.mark.parametrize(
    ("case", "frame", "words"),
    [
        ("None", None, "got NoneType"),
        ("empty", np.zeros((0, 0, 3), np.uint8), "non-empty"),
        ("float pixels", np.zeros((48, 64, 3), np.float32), "got float32"),
        ("two channels", np.zeros((48, 64, 2), np.uint8), "got shape"),
        ("tiny", np.zeros((4, 4, 3), np.uint8), "at least"),
    ],
)
def test_bad_frames_are_invalid_input(case: str, frame: object, words: str) -> None:
    with pytest.raises(InvalidInput, match=words):
        read_frame(frame, FixedDetector([]), bowl=BOWL)  # type: ignore[arg-type]


def test_the_onnx_reader_reads_a_generated_scene(tmp_path: Path) -> None:
    from bobing_vision.synth import render_scene
    from bobing_vision.vision.calibration import save_calibration
    from bobing_vision.vision.pipeline import OnnxDiceReader

    image, label = render_scene(np.random.default_rng(11))
    assert label.bowl is not None
    reading = OnnxDiceReader().read(image)
    assert reading.bowl is not None and reading.bowl.contains(label.bowl[:2])
    assert all(0 <= d.center[0] < image.shape[1] and 0 <= d.center[1] < image.shape[0] for d in reading.dice)
    # A calibration file replaces the search: its bowl is used as given.
    fixed = Bowl(*label.bowl)
    path = save_calibration(tmp_path / "bowl.json", Calibration(fixed, image.shape[1], image.shape[0]))
    used = OnnxDiceReader(bowl=path).read(image).bowl
    assert used is not None and used.ellipse == pytest.approx(fixed.ellipse, abs=0.01)


def test_the_onnx_reader_tracks_the_bowl_of_a_camera() -> None:
    from bobing_vision.synth import render_scene
    from bobing_vision.vision.pipeline import OnnxDiceReader

    rng = np.random.default_rng(12)
    first, _ = render_scene(rng)
    second, _ = render_scene(rng)
    reader = OnnxDiceReader()
    bowl = reader.read(first).bowl
    assert bowl is not None and reader.read(first).bowl == bowl  # kept, not searched again
    other = reader.read(second).bowl
    assert other is not None and other != bowl and other == OnnxDiceReader(track_bowl=False).read(second).bowl


def test_the_onnx_reader_without_models_is_invalid_input(tmp_path: Path) -> None:
    from bobing_vision.vision.pipeline import OnnxDiceReader

    with pytest.raises(InvalidInput, match="ONNX"):
        OnnxDiceReader(models_dir=tmp_path)


class LabelDetector:
    """A perfect detector for generated scenes: their labelled dice, as candidates (a test double)."""

    def __init__(self, label: ImageLabel) -> None:
        self.label = label

    def read_at(self, frame: np.ndarray, centers: Sequence[tuple[float, float]], size: float) -> list[DieCandidate]:
        return nearest(self.detect(frame), centers)

    def detect(self, frame: np.ndarray, roi: Box | None = None, zoom: float | None = None) -> list[DieCandidate]:
        out = []
        for d in self.label.dice:
            assert d.box is not None
            x, y = d.center
            probs = [0.0] * 6
            probs[d.face - 1] = 0.5 if d.cocked else 1.0  # a leaning die is not read with confidence
            face_probs = tuple(probs)
            pips = tuple(Pip(center=p.center, red=p.red) for p in d.pips)
            out.append(DieCandidate(center=(x, y), box=d.box, score=1.0,
                                    face_probs=face_probs, pips=pips))  # type: ignore[arg-type]
        return out


def test_generated_scenes_with_a_perfect_detector_get_the_right_status() -> None:
    """Bowl finding, in/out geometry and the status on generated scenes, the detector taken out."""
    from bobing_vision.synth import SceneSpec, render_scene

    rng = np.random.default_rng(2025)
    flags = wrong_flags = 0
    for _ in range(10):
        image, label = render_scene(rng, SceneSpec(out_of_bowl_p=0.5, distractors=False))
        reading = read_frame(image, LabelDetector(label))
        out = any(d.in_bowl is False for d in label.dice)
        expected = (ReadingStatus.OUT_OF_BOWL if out else ReadingStatus.UNREADABLE
                    if any(d.cocked for d in label.dice) else ReadingStatus.OK)
        assert reading.status is expected, (label.extra, reading.notes)
        for die, truth in zip(sorted(reading.dice, key=lambda d: d.center),
                              sorted(label.dice, key=lambda d: d.center)):
            flags += 1
            wrong_flags += die.in_bowl != (truth.in_bowl is not False)
        if expected is ReadingStatus.OK:
            assert isinstance(reading.award, Award) and reading.award.faces == tuple(sorted(d.face for d in label.dice))
    assert wrong_flags == 0 and flags == 60


def test_a_dot_of_the_bowls_painted_ring_read_as_a_one_is_left_out() -> None:
    """Six dice and a red dot of a ring painted round the bowl, which the reader took for a 1: seven
    things seen, unless the check is on and knows the dot for painting by its look recurring round the ring."""
    frame = FRAME.copy()
    ring = [(BOWL.cx + 0.7 * BOWL.rx * np.cos(a), BOWL.cy + 0.7 * BOWL.ry * np.sin(a))
            for a in np.linspace(0, 2 * np.pi, 10, endpoint=False)]
    for x, y in ring:
        cv2.circle(frame, (round(x), round(y)), 5, (40, 40, 200), -1, cv2.LINE_AA)
    dot = die(*ring[2], face=1)
    detector = FixedDetector([*six("444411"), dot])
    reading = read_frame(frame, detector, bowl=BOWL, config=ReaderConfig(paint_repeat=0.8))
    assert reading.status is ReadingStatus.OK and len(reading.dice) == 6, reading.notes
    assert any("the bowl's painting" in note for note in reading.notes)
    by_default = read_frame(frame, detector, bowl=BOWL)  # the check is off: not kept (models/HISTORY.md)
    assert by_default.status is ReadingStatus.WRONG_DICE_COUNT and len(by_default.dice) == 7
