"""One frame in, one `Reading` out: the bowl, the dice, each die read or marked unreadable, the status.

The detector only proposes die top faces with face probabilities and pips; everything a person would
argue about is decided in plain geometry: which candidates are the same die and whether a die lies in
the bowl (`candidates.py`), whether its face is certain enough to score, a confident face AND pips that
agree with it (`judging.py`). This module runs those stages in order and says whether the frame gives
an award at all.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from bobing_vision.errors import InvalidInput
from bobing_vision.rules.throw import DICE
from bobing_vision.vision.bowl import find_bowl
from bobing_vision.vision.calibration import Calibration
from bobing_vision.vision.candidates import Detector, find_candidates, in_bowl
from bobing_vision.vision.config import ReaderConfig
from bobing_vision.vision.detector import DieCandidate
from bobing_vision.vision.judging import (ChineseSet, check_lean, check_sizes, chinese_set, judge_face, judge_outside,
                                          read_unread_again, top_face_pips, unread_clutter)
from bobing_vision.vision.painting import ring_repeats
from bobing_vision.vision.reading import Bowl, DieReading, Reading, ReadingStatus, box_width
from bobing_vision.vision.rim_print import BowlTracker

MIN_SIDE = 8  # the detector's own minimum; a smaller frame cannot hold a die


def normalize_frame(frame: object) -> np.ndarray:
    """A contiguous BGR uint8 frame from a BGR, gray (H x W or H x W x 1) or BGRA one."""
    if not isinstance(frame, np.ndarray):
        raise InvalidInput(f"expected an image as a numpy array, got {type(frame).__name__}")
    if frame.size == 0:
        raise InvalidInput(f"expected a non-empty image, got shape {frame.shape}")
    if frame.dtype != np.uint8:
        raise InvalidInput(f"expected uint8 pixels, got {frame.dtype}")
    if frame.ndim == 3 and frame.shape[2] == 1:
        frame = frame[:, :, 0]
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    elif frame.ndim == 3 and frame.shape[2] == 4:
        frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    elif not (frame.ndim == 3 and frame.shape[2] == 3):
        raise InvalidInput(f"expected an H x W, H x W x 3 or H x W x 4 image, got shape {frame.shape}")
    if min(frame.shape[:2]) < MIN_SIDE:
        raise InvalidInput(f"expected a frame at least {MIN_SIDE}x{MIN_SIDE}, got {frame.shape[1]}x{frame.shape[0]}")
    return np.ascontiguousarray(frame)


def judge_frame(dice: Sequence[DieReading], bowl: Bowl | None, voiding: Sequence[bool]) -> ReadingStatus:
    """The frame's status; OK only with exactly six readable dice, all in the bowl. `voiding`: per die,
    whether it is a die out of the bowl (`judge_outside` decides)."""
    if bowl is None:
        return ReadingStatus.NO_BOWL
    # An unread thing outside kept only as a seventh die that may be one voids nothing: seven seen.
    if any(voiding):
        # A die out of the bowl voids the throw only while the dice read for certain, in and out,
        # are at most six; more, and something read as a die is not one (a tablecloth's pattern, a
        # coin in the bowl), so no verdict: a false void loses a throw as surely as a wrong award.
        if sum(1 for d, out in zip(dice, voiding) if d.readable or out) <= DICE:
            return ReadingStatus.OUT_OF_BOWL
        return ReadingStatus.WRONG_DICE_COUNT
    if len(dice) != DICE:
        return ReadingStatus.WRONG_DICE_COUNT
    if any(not d.readable for d in dice):
        return ReadingStatus.UNREADABLE
    return ReadingStatus.OK


def frame_bowl(image: np.ndarray, bowl: Bowl | Calibration | None, config: ReaderConfig,
               notes: list[str]) -> Bowl | None:
    """The bowl to read `image` by: the rim given, a calibration scaled to this frame, or a search (also
    when the calibration is for another frame size, with a note saying so)."""
    height, width = image.shape[:2]
    if isinstance(bowl, Calibration):
        if bowl.fits(width, height):
            return bowl.bowl_for(width, height)
        notes.append(f"calibration is for {bowl.width}x{bowl.height} frames, not {width}x{height}: searched")
        bowl = None
    return bowl if bowl is not None else find_bowl(image, config.bowl)


def without_painting(image: np.ndarray, candidates: Sequence[DieCandidate], bowl: Bowl | None, config: ReaderConfig,
                     notes: list[str]) -> list[DieCandidate]:
    """The candidates less those whose look recurs around the bowl at least `ReaderConfig.paint_repeat`
    (`painting.ring_repeats`): the bowl's painting, whatever the reader made of it; each one left out
    gets a note."""
    if bowl is None or config.paint_repeat is None or not candidates:
        return list(candidates)
    repeats = ring_repeats(image, bowl, [c.center for c in candidates], [box_width(c.box) for c in candidates])
    kept = []
    for c, repeat in zip(candidates, repeats):
        if repeat is not None and repeat >= config.paint_repeat:
            notes.append(f"ignored at ({c.center[0]:.0f}, {c.center[1]:.0f}): its look recurs around the bowl "
                         f"({repeat:.2f} alike), the bowl's painting")
        else:
            kept.append(c)
    return kept


@dataclass(frozen=True)
class Judgement:
    """What the pipeline decided about one candidate, before it becomes a `DieReading` or a note."""

    candidate: DieCandidate  # with its top face's pips told from the rest (`top_face_pips`)
    inside: bool
    face: int | None
    why: str | None  # why it is not read (a face check, or a size or lean check), or None
    fits: bool  # no size or lean check against it
    clutter: bool  # an unread thing beside six dice read: left out


def judge_candidates(image: np.ndarray, detector: Detector, candidates: Sequence[DieCandidate],
                     bowl: Bowl | None, config: ReaderConfig) -> list[Judgement]:
    """Each candidate placed in or out of the bowl, its top face's pips told from the rest, its face
    read or refused, and the checks across dice (sizes, lean, clutter) applied."""
    inside = [in_bowl(c, bowl, config) for c in candidates]
    fitted = [top_face_pips(c, config) for c in candidates]
    chinese_dice = chinese_set([c for c, i in zip(fitted, inside) if i], config)
    # The set known, a Chinese face showing pips of both colours is fitted by its own colour; a face of
    # one colour fits as it did.
    if chinese_dice is not ChineseSet.NO:
        fitted = [top_face_pips(c, config, chinese_dice) if c.two_colours else f
                  for c, f in zip(candidates, fitted)]
    judged = [judge_face(c, config, chinese_dice) for c in fitted]
    fitted, judged = read_unread_again(image, detector, fitted, inside, judged, chinese_dice, config)
    read = [f is not None for f, _ in judged]
    misfits = [size or lean for size, lean in zip(check_sizes(image, detector, fitted, inside, read, config),
                                                  check_lean(fitted, inside, read, bowl, config))]
    scored = [f is not None and m is None for (f, _), m in zip(judged, misfits)]  # read, no check against it
    clutter = unread_clutter(fitted, inside, scored, bowl, config)
    judgements = []
    for c, i, (face, why), misfit, extra in zip(fitted, inside, judged, misfits, clutter):
        if misfit is not None:  # a face read but against the other dice's size or lean: not read, and why
            face, why = None, misfit
        judgements.append(Judgement(c, i, face, why, fits=misfit is None, clutter=extra))
    return judgements


def reading_dice(judgements: Sequence[Judgement], config: ReaderConfig,
                 notes: list[str]) -> tuple[list[DieReading], list[bool]]:
    """The dice of the reading, and for each whether it voids the throw (a die out of the bowl); what is
    left out (clutter, a coin on the table) and why a die is not read go to `notes`."""
    bowl_full = sum(j.inside for j in judgements) >= DICE
    dice: list[DieReading] = []
    voiding: list[bool] = []
    for j in judgements:
        c, face, why = j.candidate, j.face, j.why
        x, y = float(c.center[0]), float(c.center[1])
        if j.clutter:
            notes.append(f"ignored at ({x:.0f}, {y:.0f}): {why}, beside six dice read that are clearly surer dice")
            continue
        kept, voids = True, False
        if not j.inside:
            outside = judge_outside(c, face, why, bowl_full, j.fits, config)
            face, why, kept, voids = outside.face, outside.why, outside.kept, outside.voids
        if not kept:
            notes.append(f"ignored at ({x:.0f}, {y:.0f}), outside the bowl: {why}")
            continue
        if why is not None:
            notes.append(f"die {len(dice) + 1}: {why}")
        dice.append(DieReading(center=(x, y), box=tuple(float(v) for v in c.box),  # type: ignore[arg-type]
                               face=face, confidence=float(np.clip(max(c.face_probs), 0.0, 1.0)), in_bowl=j.inside))
        voiding.append(voids)
    return dice, voiding


def read_frame(frame: np.ndarray, detector: Detector, *, bowl: Bowl | Calibration | None = None,
               rules: object | None = None, config: ReaderConfig = ReaderConfig()) -> Reading:
    """Read one frame. `bowl`: a known rim (or a calibration, scaled to this frame); None: find it.

    `rules` is a `bobing_vision.rules.RuleSet` (None: the default preset) used for the award.
    """
    start = time.perf_counter()
    image = normalize_frame(frame)
    notes: list[str] = []
    found = frame_bowl(image, bowl, config, notes)
    candidates = without_painting(image, find_candidates(image, detector, found, config), found, config, notes)
    dice, voiding = reading_dice(judge_candidates(image, detector, candidates, found, config), config, notes)
    status = judge_frame(dice, found, voiding)
    award = None
    if status is ReadingStatus.OK:
        from bobing_vision.rules import classify

        faces = [d.face for d in dice if d.face is not None]
        award = classify(faces) if rules is None else classify(faces, rules)  # type: ignore[arg-type]
    return Reading(dice=tuple(dice), bowl=found, status=status, award=award,
                   seconds=time.perf_counter() - start, notes=tuple(notes))


class OnnxDiceReader:
    """The product's `DiceReader`: the ONNX detector in `models_dir` plus the pipeline above.

    `bowl` is a fixed rim, a `Calibration` (scaled to each frame's size) or a calibration file's
    path; None finds the bowl. With `track_bowl` (a camera, or photos taken by one: the bowl stays
    put) a bowl found in one frame is kept while the next frame's rim looks as it did
    (`rim_print.BowlTracker`, a fraction of a search); set it False for unrelated photos.
    """

    def __init__(self, models_dir: Path | str | None = None, bowl: Bowl | Calibration | Path | str | None = None,
                 rules: object | None = None, config: ReaderConfig = ReaderConfig(), track_bowl: bool = True) -> None:
        from bobing_vision.vision.calibration import load_calibration
        from bobing_vision.vision.detector import DEFAULT_MODELS_DIR, DetectorConfig, DiceDetector

        # The detector looks twice only at dice this pipeline will keep.
        looks = DetectorConfig(second_look_min_score=config.min_die_score)
        self.detector = DiceDetector(DEFAULT_MODELS_DIR if models_dir is None else Path(models_dir), looks)
        self.bowl = load_calibration(bowl) if isinstance(bowl, (str, Path)) else bowl
        self.rules = rules
        self.config = config
        self.tracker = BowlTracker(config.bowl) if track_bowl else None

    def read(self, frame: np.ndarray) -> Reading:
        if self.bowl is not None or self.tracker is None:
            return read_frame(frame, self.detector, bowl=self.bowl, rules=self.rules, config=self.config)
        image = normalize_frame(frame)
        reading = read_frame(image, self.detector, bowl=self.tracker.recall(image), rules=self.rules,
                             config=self.config)
        self.tracker.saw(image, reading.bowl)
        return reading

    def forget_bowl(self) -> None:
        """The next frame is another camera's, or an unrelated photo: its bowl is searched."""
        if self.tracker is not None:
            self.tracker.forget()
