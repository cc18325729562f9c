"""Pairing found dice with labelled dice, as DATA.md defines it.

One to one, nearest first: a found die may pair with a labelled die when its centre lies inside the
labelled box, or within half the typical die width of the labelled centre. Candidate pairs are taken
in order of centre distance, each die used at most once.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bobing_vision.dataset.labels import DieLabel
from bobing_vision.vision.reading import Box, DieReading, box_width


@dataclass(frozen=True)
class MatchConfig:
    # DATA.md: "within half the typical die width of the labelled centre".
    reach_of_width: float = 0.5


@dataclass(frozen=True)
class Match:
    """Indices into the labelled dice and the found dice of one image."""

    pairs: tuple[tuple[int, int], ...]  # (labelled index, found index)
    missed: tuple[int, ...]  # labelled dice nothing was paired with
    extra: tuple[int, ...]  # found dice paired with no labelled die


def median_width(widths: Iterable[float | None]) -> float | None:
    known = [w for w in widths if w is not None and w > 0]
    return statistics.median(known) if known else None


def typical_width(
    labels: Sequence[DieLabel], found: Sequence[DieReading], set_width: float | None
) -> float | None:
    """The image's labelled box sizes, else the whole set's, else the found dice' boxes (DATA.md order)."""
    own = median_width(d.size for d in labels)
    if own is not None:
        return own
    if set_width is not None:
        return set_width
    return median_width(box_width(d.box) for d in found)


def _inside(point: tuple[float, float], box: Box | None) -> bool:
    if box is None:
        return False
    x0, y0, x1, y1 = box
    return x0 <= point[0] <= x1 and y0 <= point[1] <= y1


def match_dice(
    labels: Sequence[DieLabel],
    found: Sequence[DieReading],
    width: float | None,
    config: MatchConfig = MatchConfig(),
) -> Match:
    """Pair found dice with labelled ones; `width` None means only 'inside the box' can pair."""
    reach = None if width is None else width * config.reach_of_width
    candidates: list[tuple[float, int, int]] = []
    for li, label in enumerate(labels):
        lx, ly = label.center
        for fi, die in enumerate(found):
            distance = math.hypot(die.center[0] - lx, die.center[1] - ly)
            if _inside(die.center, label.box) or (reach is not None and distance <= reach):
                candidates.append((distance, li, fi))
    candidates.sort()
    used_labels: set[int] = set()
    used_found: set[int] = set()
    pairs: list[tuple[int, int]] = []
    for _, li, fi in candidates:
        if li not in used_labels and fi not in used_found:
            used_labels.add(li)
            used_found.add(fi)
            pairs.append((li, fi))
    return Match(
        pairs=tuple(sorted(pairs)),
        missed=tuple(i for i in range(len(labels)) if i not in used_labels),
        extra=tuple(i for i in range(len(found)) if i not in used_found),
    )
