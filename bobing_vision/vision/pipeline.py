"""One frame in, one `Reading` out: the bowl, the dice, each die read or marked unreadable, the status.

The detector only proposes die top faces with face probabilities and pips; everything a person
would argue about is decided here, in plain geometry: which candidates are the same die, whether a
die lies in the bowl, whether its face is certain enough to score (a confident face AND pips that
agree with it), and whether the frame gives an award at all.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from bobing_vision.errors import InvalidInput
from bobing_vision.rules.throw import DICE
from bobing_vision.vision.bowl import ellipse_box, find_bowl
from bobing_vision.vision.calibration import Calibration
from bobing_vision.vision.config import ReaderConfig
from bobing_vision.vision.detector import DieCandidate
from bobing_vision.vision.pip_layout import face_aspect, layout_pips
from bobing_vision.vision.reading import (Bowl, Box, DieReading, Point, Reading, ReadingStatus, box_width,
                                         dice_median_width)
from bobing_vision.vision.rim_print import BowlTracker

MIN_SIDE = 8  # the detector's own minimum; a smaller frame cannot hold a die


class Detector(Protocol):
    """What the pipeline needs of `DiceDetector` (tests pass a stand-in)."""

    def detect(self, frame: np.ndarray, roi: Box | None = None, zoom: float | None = None) -> Sequence[DieCandidate]:
        """Candidates in the frame or its ROI; `zoom`: the ROI seen this many times as big as the whole
        frame is (None: the ROI fills the locator's input)."""
        ...

    def read_at(self, frame: np.ndarray, centers: Sequence[Point], size: float) -> Sequence[DieCandidate]:
        """The dice at `centers` read again as top faces `size` pixels wide, in the same order."""
        ...


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


def merge_duplicates(candidates: Sequence[DieCandidate], config: ReaderConfig,
                     bowl: Bowl | None = None) -> list[DieCandidate]:
    """Strongest first, drop weak candidates and any whose centre is within a share of a kept die's width.

    Weak: below `min_die_score`; with six candidates at `strong_die_score` or more, below that too, and
    below both `sure_die_score` and the sixth strongest score (a throw has six dice: a less sure extra
    is clutter), unless `heap_extras` or more beyond six reach `strong_die_score`: a heap of dice, not
    one throw, where a less sure one is a die too. A candidate outside `bowl` is held only to
    `outside_die_floor` (when set): the dice in the bowl do not make it clutter."""
    kept: list[DieCandidate] = []
    ranked = sorted(candidates, key=lambda c: -c.score)
    strong = sum(1 for c in ranked if c.score >= config.strong_die_score)
    if strong < DICE:
        floor = config.min_die_score
    elif strong >= DICE + config.heap_extras:  # a heap of dice, not one throw of six
        floor = config.strong_die_score
    else:
        floor = max(config.strong_die_score, min(config.sure_die_score, ranked[DICE - 1].score))
    outside_floor = floor if config.outside_die_floor is None else min(
        floor, max(config.min_die_score, config.outside_die_floor))
    for c in ranked:
        least = floor if outside_floor >= floor or in_bowl(c, bowl, config) else outside_floor
        if c.score >= least and not any(same_die(c, k, config) for k in kept):
            kept.append(c)
    return kept


def same_die(a: DieCandidate, b: DieCandidate, config: ReaderConfig) -> bool:
    """Two candidates closer than a share of the larger one's width are one die."""
    return _distance(a.center, b.center) < config.duplicate_frac * max(box_width(a.box), box_width(b.box))


def look_closer(image: np.ndarray, detector: Detector, candidates: Sequence[DieCandidate], bowl: Bowl | None,
                config: ReaderConfig) -> list[DieCandidate]:
    """The candidates, and the dice a closer look finds: with a bowl in view, three to five dice in it
    and fewer than six in all, the locator looks again around the dice in the bowl,
    `ReaderConfig.closer_zoom` times as big. Dice pressed together can leave one peak for two at the
    whole frame's scale. Only candidates where no die was found yet, and at `closer_min_score`, are
    added: the dice already found keep their reads, except a box in the bowl well over the dice's size,
    which may hold two touching dice: the dice found under it replace it (`split_touching`). A die
    found outside makes six: the throw is void, nothing is missing."""
    if config.closer_zoom is None or bowl is None or len(candidates) >= DICE:
        return list(candidates)
    inside = [in_bowl(c, bowl, config) for c in candidates]
    typical = typical_width(candidates, inside)
    if typical is None:
        return list(candidates)
    centres = np.array([c.center for c, i in zip(candidates, inside) if i])
    (x0, y0), (x1, y1) = centres.min(axis=0), centres.max(axis=0)
    grow = config.closer_margin * typical
    roi = (float(x0) - grow, float(y0) - grow, float(x1) + grow, float(y1) + grow)
    least = config.min_die_score if config.closer_min_score is None else config.closer_min_score
    closer = [c for c in detector.detect(image, roi=roi, zoom=config.closer_zoom) if c.score >= least]
    new = [c for c in closer if not any(same_die(c, k, config) for k in candidates)]
    kept = []
    for c, i in zip(candidates, inside):
        parts = split_touching(c, closer, typical, config) if i else []
        new += parts
        if not parts:
            kept.append(c)
    return merge_duplicates([*kept, *new], config, bowl) if new else kept


def dice_sized(width: float, typical: float, config: ReaderConfig) -> bool:
    """Whether a box `width` wide is one throw's die beside dice `typical` wide (`ReaderConfig.size_band`)."""
    low, high = config.size_band
    return low <= width / typical <= high


def split_touching(candidate: DieCandidate, closer: Sequence[DieCandidate], typical: float,
                   config: ReaderConfig) -> list[DieCandidate]:
    """The dice the closer look found under a box well over the dice's width `typical`
    (`ReaderConfig.split_min_ratio`): two or more of the dice's size, lying as far apart as touching dice
    (`split_min_gap`); otherwise none, and the box stays one die."""
    if config.split_min_ratio is None or box_width(candidate.box) < config.split_min_ratio * typical:
        return []
    parts = merge_duplicates([c for c in closer if same_die(c, candidate, config)
                              and dice_sized(box_width(c.box), typical, config)], config)
    gaps = [_distance(a.center, b.center) for n, a in enumerate(parts) for b in parts[n + 1:]]
    return parts if gaps and min(gaps) >= config.split_min_gap * typical else []


class ChineseSet(enum.Enum):
    """How surely the dice in view are a Chinese set (red 1 and 4, black 2, 3, 5 and 6)."""

    NO = "no"  # no sure 1 or 4 all red, or a sure 2, 3, 5 or 6 mostly red (ordinary dice with red pips)
    LIKELY = "likely"  # some sure 1 or 4 all red
    SURE = "sure"  # ...and the sure 1s and 4s all red outnumber those all black (not a mixed heap)


def top_face_pips(candidate: DieCandidate, config: ReaderConfig,
                  chinese_dice: ChineseSet = ChineseSet.NO) -> DieCandidate:
    """The candidate with only its top face's pips, when it has more pips than the face it is read as
    and some of them are that face's layout (`pip_layout`); otherwise as it is.

    `bench/compare_models.py`, 14 generated sets it was tuned on: right awards 1729 -> 1798 of 2800,
    wrong verdicts 3 both ways; 7 sets made before it and not looked at until after (seeds 1919-9696):
    right awards 886 -> 916 of 1400, wrong verdicts 3 both ways, wrong faces 7 -> 10.

    In a Chinese set (`chinese_dice`) the layout is fitted to the pips of the face's own colour alone:
    a Chinese face's pips are all red (the 1 and the 4) or all black, so a pip of the other colour is a
    side's or a neighbour's, wherever it lies (the big red pip of a 1 leaves a neighbour's black pips
    inside its box). Only for dice the lean check guards (`lean_min_width`): a small leaning 5 read as
    the red 4 of its side would otherwise be scored. When that fit fails, the colour-blind one is tried;
    for a face at least `sure_face_prob` sure, both are tried again with the face's centre up to
    `sure_face_shift` off the box's centre (the box took in a side or a touching die)."""
    face = candidate.face
    if candidate.pip_count <= face or candidate.face_confidence < config.min_face_prob:
        return candidate
    box_side = box_width(candidate.box)
    guarded = box_side >= config.lean_min_width
    layout = config.layout
    if config.oblique_scales and guarded:
        layout = replace(layout, scales=(*config.oblique_scales, *layout.scales))
    pip_sets = [candidate.pips]  # tried in order, the first fit wins
    if config.one_colour_faces and guarded and chinese_dice is not ChineseSet.NO:
        own = tuple(p for p in candidate.pips if p.red == (face in config.red_faces))
        if len(own) < candidate.pip_count:
            pip_sets.insert(0, own)
    layouts = [layout]
    if config.sure_face_shift is not None and candidate.face_confidence >= config.sure_face_prob:
        layouts.append(replace(layout, max_shift=config.sure_face_shift))
    for fit in layouts:
        for pips in pip_sets:
            shown = layout_pips(pips, candidate.center, box_side, face, fit)
            if shown is not None:
                return replace(candidate, pips=shown)
    return candidate


def _distance(a: Point, b: Point) -> float:
    return float(np.hypot(a[0] - b[0], a[1] - b[1]))


def base_point(center: Point, width: float, bowl: Bowl, config: ReaderConfig) -> Point:
    """Where the die stands: its top face seen from above lies outward of its base by about its height."""
    dx, dy = bowl.cx - center[0], bowl.cy - center[1]
    dist = float(np.hypot(dx, dy))
    if dist < 1e-6:
        return center
    # A die is 12-20 mm and a Bobing bowl 18-32 cm across: half a die is at most ~11% of the radius,
    # so a box the detector drew too big cannot pull a die on the table into the bowl.
    step = min(dist, config.base_shift_frac * width, config.max_base_shift * float(np.sqrt(bowl.rx * bowl.ry)))
    return (center[0] + dx / dist * step, center[1] + dy / dist * step)


def in_bowl(candidate: DieCandidate, bowl: Bowl | None, config: ReaderConfig) -> bool:
    """With no bowl in view there is no rim to be outside of: every die counts as in."""
    if bowl is None:
        return True
    base = base_point(candidate.center, box_width(candidate.box), bowl, config)
    return bowl.normalized_radius(base) <= config.in_bowl_radius


def judge_face(candidate: DieCandidate, config: ReaderConfig,
               chinese_dice: ChineseSet = ChineseSet.NO) -> tuple[int | None, str | None]:
    """The face when the model is confident and the pips agree; otherwise None and why not.

    `chinese_dice`: whether the frame's dice are a Chinese set (red pips on a sure 1 or 4, black on the
    others), so a 1 or a 4 must show red pips and the others none: a black 4 is a coin, a crumb or
    a misread, a red 5 a misread. Ordinary dice may have pips of any colour, red on every face too.
    """
    chinese = chinese_dice is not ChineseSet.NO
    probs = candidate.face_probs
    face = int(np.argmax(probs)) + 1
    confidence = float(probs[face - 1])
    if confidence < config.min_face_prob:
        return None, f"face {face} only {confidence:.2f} sure"
    pips, red = candidate.pip_count, candidate.red_pips
    # Red and black pips together on a Chinese die: two faces in view (a leaning die shows its side) or
    # a misread; a Chinese 1 or 4 with no red at all: a leaning die's side, a coin or a misread.
    mixed = chinese and candidate.two_colours
    black_one_or_four = chinese and pips and not red and face in config.red_faces
    certain = confidence >= config.certain_face_prob
    if certain and chinese_dice is not ChineseSet.SURE:
        # The face head outranks the pip head's slips (see ReaderConfig.certain_face_prob), not the
        # signs of a leaning die in a sure Chinese set (generated seeds 6060 and 31337: one wrong award
        # each); in a heap of mixed dice (byler photos) a black 4 beside a red one is no sign at all.
        return face, None
    if black_one_or_four:
        return None, f"a black {face} among Chinese dice"
    if certain:
        if mixed and abs(pips - face) > config.pip_slack:
            return None, f"{pips} red and black pips seen on a {face}"
        if candidate.mostly_red and face not in config.red_faces:
            return None, f"red pips on a {face}"
        return face, None
    # Pips found must count the face; a near-certain face may be off by the pip reader's usual slip,
    # but not when red and black pips are seen together. No pips found is no count: on byler's photos
    # never seen in training, reads below 0.95 with no pips were right 5 times in 11.
    slack = config.pip_slack if confidence >= config.sure_face_prob and not mixed else 0
    # A 6's middle pair lies closest to the rest: blurred or small, it is the first to merge.
    middle_lost = (face == 6 and pips == 4 and config.six_four_pips_prob is not None
                   and confidence >= config.six_four_pips_prob)
    if abs(pips - face) > slack and not middle_lost:
        return None, f"{pips} pips seen on a {face}"
    if chinese and red and face not in config.red_faces:
        return None, f"red pips on a {face}"
    return face, None


@dataclass(frozen=True)
class OutsideJudgement:
    """What becomes of a thing found outside the bowl."""

    face: int | None
    why: str | None  # why it is not read, or None
    kept: bool  # in the reading at all: a coin or a crumb on the table is left out
    voids: bool  # a die out of the bowl: the throw is void


def judge_outside(candidate: DieCandidate, face: int | None, why: str | None, bowl_full: bool, fits: bool,
                  config: ReaderConfig) -> OutsideJudgement:
    """A candidate outside the bowl, read as `face` (None: not read, for reason `why`; `fits`: False
    when a size or lean check refused it).

    A die read for certain voids the throw. The table has coins, crumbs and chopsticks, and a die
    missed out there still leaves "5 dice seen", so a thing outside that is not read is left out,
    unless the detector is sure it is a die (`void_unread_outside_score`), it shows pips
    (`void_unread_outside_pips`), it is the dice's size and fewer than six things lie in the bowl: a die
    out of the bowl voids the throw whatever face it shows.
    """
    if face is not None and not candidate.pips:
        # A coin's dark centre reads as a certain 1 with no pip found; over 12 generated sets (3
        # models) 8 reads outside the bowl found no pip and none was a die: one false void saved.
        return OutsideJudgement(None, f"face {face} with no pips seen", kept=False, voids=False)
    if face is not None and bowl_full and candidate.score < config.sure_outside_score:
        # Kept, unread: neither a void nor an award while it may be a die (see sure_outside_score).
        return OutsideJudgement(None, f"a seventh die outside the bowl, only {candidate.score:.2f} sure it is one",
                                kept=True, voids=False)
    if face is not None:
        return OutsideJudgement(face, why, kept=True, voids=True)
    sure = config.void_unread_outside_score
    if (fits and not bowl_full and sure is not None and candidate.score >= sure
            and candidate.pip_count >= config.void_unread_outside_pips):
        return OutsideJudgement(None, f"{why}; a die all the same ({candidate.score:.2f} sure)", kept=True, voids=True)
    return OutsideJudgement(None, why, kept=False, voids=False)


def chinese_set(candidates: Sequence[DieCandidate], config: ReaderConfig) -> ChineseSet:
    """Whether the dice are a Chinese set, from the pips of the dice whose face is sure."""
    red_ones = black_ones = red_others = 0
    for c in candidates:
        face, _ = judge_face(c, config)
        # Only a face its pips count speaks for the set: a certain misread (a Chinese 4 half hidden,
        # read 2 with 2 red pips of 3) would otherwise call the set ordinary and escape the red check.
        if face is None or c.pip_count != face:
            continue
        if face in config.red_faces:
            red_ones += c.red_pips == c.pip_count
            black_ones += c.red_pips == 0
        else:
            # Mostly red, not all (a generated clip of dark dice with red pips everywhere, some read
            # black, went silent for "red pips on a 6"); and a sure face only: a Chinese 4 half hidden,
            # read 2 at 0.76 with its two red pips in view, called the set ordinary (generated seed 1111).
            red_others += c.mostly_red and c.face_confidence >= config.sure_face_prob
    if red_ones == 0 or red_others:
        return ChineseSet.NO
    return ChineseSet.SURE if red_ones > black_ones else ChineseSet.LIKELY


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


def widths_in_bowl(candidates: Sequence[DieCandidate], inside: Sequence[bool]) -> list[float]:
    return [box_width(c.box) for c, i in zip(candidates, inside) if i]


def typical_width(candidates: Sequence[DieCandidate], inside: Sequence[bool]) -> float | None:
    """The median width of the dice in the bowl; None with fewer than three, too few to say."""
    return dice_median_width(widths_in_bowl(candidates, inside))


Judged = tuple[int | None, str | None]  # judge_face's answer: the face or None, and why not


def read_unread_again(image: np.ndarray, detector: Detector, candidates: Sequence[DieCandidate],
                      inside: Sequence[bool], judged: Sequence[Judged], chinese_dice: ChineseSet,
                      config: ReaderConfig) -> tuple[list[DieCandidate], list[Judged]]:
    """The candidates and their judgements after a second look: each die in the bowl that was not read
    is read at the bowl's typical die width, and that read is taken when it is sure
    (`ReaderConfig.reread_face_prob`), names the face first thought likeliest and passes `judge_face`.
    Only for dice of one size in view (`ReaderConfig.max_size_spread`)."""
    candidates, judged = list(candidates), list(judged)
    widths = widths_in_bowl(candidates, inside)
    typical = dice_median_width(widths)
    if typical is None or np.subtract(*np.percentile(widths, [75, 25])) > config.max_size_spread * typical:
        return candidates, judged
    unread = [k for k, (face, _) in enumerate(judged) if face is None and inside[k]]
    again = detector.read_at(image, [candidates[k].center for k in unread], typical) if unread else []
    for k, second in zip(unread, again):
        second = replace(top_face_pips(second, config, chinese_dice), score=candidates[k].score)
        face, _ = judge_face(second, config, chinese_dice)
        if face is not None and face == candidates[k].face and second.face_confidence >= config.reread_face_prob:
            candidates[k], judged[k] = second, (face, None)
    return candidates, judged


def check_sizes(image: np.ndarray, detector: Detector, candidates: Sequence[DieCandidate], inside: Sequence[bool],
                read: Sequence[bool], config: ReaderConfig) -> list[str | None]:
    """Why each die read (`read`), and each thing outside the bowl read or not (it may void the throw
    as a die, `judge_outside`), must not be scored for its size, or None.

    One throw's dice are one size. A "die" half or twice the others' size is a pip, a coin or a
    pattern dot; outside the bowl (`inside` False) only one far bigger than the dice in it is refused
    (a hand on the rim), since a die out on the table may look bigger to an oblique camera, and a 1
    beside dice too small to tell a lone pip from a coin's centre (`outside_one_min_width`).
    A 1 a little smaller may be one pip of a bigger face that the locator's box shrank onto (a 2 read
    as a certain 1 gave a wrong award on generated ordinary dice, seed 5151): it is read again at the
    others' size and must surely read 1 again. Over 7 generated sets and both real
    sets, small boxes held 8 of the 11 wrong 1s; this refuses 7 of those 8 and 4 of 52 right ones.
    (Other faces: 1 wrong in ~120 small boxes, while the far dice of an oblique photo are small too:
    re-reading every face lost 12 right faces on dice3 for none wrong.)
    """
    widths = [box_width(c.box) for c in candidates]
    typical = typical_width(candidates, inside)
    why: list[str | None] = [None] * len(candidates)
    if typical is None or typical <= 0:
        return why
    small = []  # read as 1s: perhaps one pip of a bigger face
    for k, w in enumerate(widths):
        if not read[k] and inside[k]:
            continue
        if not inside[k]:
            if w / typical > config.outside_size_max:
                why[k] = f"{w:.0f} px wide, the dice in the bowl {typical:.0f}"
            elif candidates[k].face == 1 and typical < config.outside_one_min_width:
                why[k] = f"a 1 beside dice {typical:.0f} px wide: perhaps a coin"
            continue
        if not dice_sized(w, typical, config):
            why[k] = f"{w:.0f} px wide, the others {typical:.0f}"
        elif w < config.small_die_frac * typical and candidates[k].face == 1:
            small.append(k)
    if small:
        again = detector.read_at(image, [candidates[k].center for k in small], typical)
        for k, second in zip(small, again):
            if second.face != 1 or second.face_confidence < config.sure_face_prob:
                why[k] = (f"{widths[k]:.0f} px wide, the others {typical:.0f}: read at their size, "
                          f"face {second.face} {second.face_confidence:.2f} sure")
    return why


SQUARE_FACES = (4, 5)  # faces whose pips lie on a square on every die (a 6's grid differs by maker)


def check_lean(candidates: Sequence[DieCandidate], inside: Sequence[bool], read: Sequence[bool], bowl: Bowl | None,
               config: ReaderConfig) -> list[str | None]:
    """Why each die read (`read`) in the bowl must not be scored as leaning, or None: a 4 or a 5 whose
    pips lie less square on the table than `ReaderConfig.lean_min_aspect` (`pip_layout.face_aspect`)."""
    why: list[str | None] = [None] * len(candidates)
    if config.lean_min_aspect is None or bowl is None:
        return why
    for k, c in enumerate(candidates):
        if not (read[k] and inside[k] and c.face in SQUARE_FACES and c.pip_count == c.face
                and box_width(c.box) >= config.lean_min_width):
            continue
        aspect = face_aspect(c.pips, bowl)
        if aspect is not None and aspect < config.lean_min_aspect:
            why[k] = f"its pips lie {aspect:.2f} as wide as long: a leaning die's side?"
    return why


def unread_clutter(candidates: Sequence[DieCandidate], inside: Sequence[bool], read: Sequence[bool],
                   bowl: Bowl | None, config: ReaderConfig) -> list[bool]:
    """Which candidates are clutter beside six dice read (`read`: a face read and no size or lean check
    against it): with a bowl in view and exactly six dice in it read, each unread thing in it that the
    detector scored `unread_clutter_margin` below all six. A throw has six dice, and those read are
    clearly surer dice."""
    scores = [c.score for c, i, r in zip(candidates, inside, read) if i and r]
    if config.unread_clutter_margin is None or bowl is None or len(scores) != DICE:
        return [False] * len(candidates)
    floor = min(scores) - config.unread_clutter_margin
    return [i and not r and c.score <= floor for c, i, r in zip(candidates, inside, read)]


def bowl_roi(bowl: Bowl, margin: float, width: int, height: int) -> Box:
    """The bowl's bounding box grown by `margin` of its size, clipped to the frame."""
    x0, y0, x1, y1 = ellipse_box(bowl.ellipse, margin)
    return (max(0.0, x0), max(0.0, y0), min(float(width), x1), min(float(height), y1))


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


def find_candidates(image: np.ndarray, detector: Detector, bowl: Bowl | None,
                    config: ReaderConfig) -> list[DieCandidate]:
    """Every possible die top face, one per die, in reading order."""
    height, width = image.shape[:2]
    roi = None if bowl is None or config.roi_margin is None else bowl_roi(bowl, config.roi_margin, width, height)
    candidates = merge_duplicates(detector.detect(image, roi=roi), config, bowl)
    candidates = look_closer(image, detector, candidates, bowl, config)
    # Top to bottom, then left to right: "die 3" means the same die to a person reading the picture.
    candidates.sort(key=lambda c: (round(c.center[1] / max(8.0, box_width(c.box))), c.center[0]))
    return candidates


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
    candidates = find_candidates(image, detector, found, config)
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
