"""One candidate per die: the detector's candidates merged, a closer look for dice pressed together, and
each placed in or out of the bowl by where it stands (`read_frame`'s steps 2 and 3, `pipeline.py`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from bobing_vision.rules.throw import DICE
from bobing_vision.vision.bowl import ellipse_box
from bobing_vision.vision.config import ReaderConfig
from bobing_vision.vision.detector import DieCandidate
from bobing_vision.vision.reading import Bowl, Box, Point, box_width, dice_median_width


class Detector(Protocol):
    """What the pipeline needs of `DiceDetector` (tests pass a stand-in)."""

    def detect(self, frame: np.ndarray, roi: Box | None = None, zoom: float | None = None) -> Sequence[DieCandidate]:
        """Candidates in the frame or its ROI; `zoom`: the ROI seen this many times as big as the whole
        frame is (None: the ROI fills the locator's input)."""
        ...

    def read_at(self, frame: np.ndarray, centers: Sequence[Point], size: float) -> Sequence[DieCandidate]:
        """The dice at `centers` read again as top faces `size` pixels wide, in the same order."""
        ...


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


def widths_in_bowl(candidates: Sequence[DieCandidate], inside: Sequence[bool]) -> list[float]:
    return [box_width(c.box) for c, i in zip(candidates, inside) if i]


def typical_width(candidates: Sequence[DieCandidate], inside: Sequence[bool]) -> float | None:
    """The median width of the dice in the bowl; None with fewer than three, too few to say."""
    return dice_median_width(widths_in_bowl(candidates, inside))


def dice_sized(width: float, typical: float, config: ReaderConfig) -> bool:
    """Whether a box `width` wide is one throw's die beside dice `typical` wide (`ReaderConfig.size_band`)."""
    low, high = config.size_band
    return low <= width / typical <= high


def merge_duplicates(candidates: Sequence[DieCandidate], config: ReaderConfig,
                     bowl: Bowl | None = None) -> list[DieCandidate]:
    """Strongest first, drop weak candidates and any whose centre is within a share of a kept die's width.

    Weak: below `min_die_score`; with six candidates at `strong_die_score` or more, below that too, and
    below both `sure_die_score` and the sixth strongest score (a throw has six dice: a less sure extra
    is clutter), unless `heap_extras` or more beyond six reach `strong_die_score`: a heap of dice, not
    one throw, where a less sure one is a die too. Only candidates whose best face is `min_face_prob`
    sure, or outside `bowl`, count among those six (`unread_counts_in_six`). One outside is held only to
    `outside_die_floor` (when set): the dice in the bowl do not make it clutter."""
    kept: list[DieCandidate] = []
    ranked = sorted(candidates, key=lambda c: -c.score)
    counted = ranked if config.unread_counts_in_six else [
        c for c in ranked if c.face_confidence >= config.min_face_prob or not in_bowl(c, bowl, config)]
    strong = sum(1 for c in counted if c.score >= config.strong_die_score)
    if strong < DICE:
        floor = config.min_die_score
    elif strong >= DICE + config.heap_extras:  # a heap of dice, not one throw of six
        floor = config.strong_die_score
    else:
        floor = max(config.strong_die_score, min(config.sure_die_score, counted[DICE - 1].score))
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


def bowl_roi(bowl: Bowl, margin: float, width: int, height: int) -> Box:
    """The bowl's bounding box grown by `margin` of its size, clipped to the frame."""
    x0, y0, x1, y1 = ellipse_box(bowl.ellipse, margin)
    return (max(0.0, x0), max(0.0, y0), min(float(width), x1), min(float(height), y1))


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
