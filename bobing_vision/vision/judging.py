"""What each candidate's read counts for: a face sure enough with pips that agree, the dice a Chinese set
or not, a die unlike the others in size or leaning, clutter beside six dice read, and a thing outside the
bowl that voids the throw or not (`read_frame`'s steps 3 to 7, `pipeline.py`). Plain geometry and
counting over the detector's figures: everything a person would argue about is decided here."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from bobing_vision.rules.throw import DICE
from bobing_vision.vision.candidates import Detector, dice_sized, typical_width, widths_in_bowl
from bobing_vision.vision.config import ReaderConfig
from bobing_vision.vision.detector import DieCandidate
from bobing_vision.vision.pip_layout import face_aspect, layout_pips
from bobing_vision.vision.reading import Bowl, box_width, dice_median_width


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
    detector scored `unread_clutter_margin` below all six (None: none for its score), or in which no pip is
    seen (`unread_clutter_without_pips`). A throw has six dice, and those read are clearly surer dice."""
    scores = [c.score for c, i, r in zip(candidates, inside, read) if i and r]
    if bowl is None or len(scores) != DICE:
        return [False] * len(candidates)
    # Two rules, each on or off by its own field: the score margin, and no pip seen.
    margin = config.unread_clutter_margin
    floor = -np.inf if margin is None else min(scores) - margin
    return [i and not r and (c.score <= floor or (config.unread_clutter_without_pips and not c.pips))
            for c, i, r in zip(candidates, inside, read)]


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
