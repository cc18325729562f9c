"""What a reader got right and wrong: per image, then over a whole labelled set (DATA.md scores).

A ratio with nothing to count (precision when nothing was found, in-bowl accuracy when no paired die
has `in_bowl` labelled, rim accuracy when no image has its bowl labelled) is None, not 0 or 1: it is
not known, and a report must say so.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from bobing_vision.dataset.labels import DieLabel
from bobing_vision.evaluation.matching import Match
from bobing_vision.evaluation.verdicts import WRONG_VERDICTS, Verdict, judge
from bobing_vision.geometry import Ellipse
from bobing_vision.vision.bowl import rim_error as rim_error_between
from bobing_vision.vision.reading import Bowl, DieReading, Reading

FACES = (1, 2, 3, 4, 5, 6)
UNREADABLE = "unreadable"  # the confusion matrix's last column: found, but no face read
# A rim found within this share of the radius (worst point) of the labelled one is right: the label
# is the middle of the lip and the finder takes its outer edge, ~2% out.
RIM_TOLERANCE = 0.05
# Labelled top-face widths (pixels) where the reader's share of faces read changes most: on generated
# sets, a third of the dice under 14 px are not read, one in thirty-five over 24 px (models/HISTORY.md).
WIDTH_EDGES = (14.0, 18.0, 24.0, 32.0)
# CIELAB distances between a die's pips and its face in the photo (`evaluation.pip_contrast`): under 10
# a person barely sees the pips; over 45 they stand out as a die's are made to.
CONTRAST_EDGES = (10.0, 20.0, 30.0, 45.0)


@dataclass(frozen=True)
class DiePair:
    """A labelled die and the found die paired with it."""

    label: DieLabel
    found: DieReading

    @property
    def face_right(self) -> bool:
        """An unreadable die (face None) was found, but its face is wrong."""
        return self.found.face == self.label.face

    @property
    def in_bowl_scored(self) -> bool:
        return self.label.in_bowl is not None

    @property
    def in_bowl_right(self) -> bool:
        return self.found.in_bowl == self.label.in_bowl

    @property
    def misplaced(self) -> bool:
        """Labelled in or out of the bowl, and found on the other side of the rim."""
        return self.in_bowl_scored and not self.in_bowl_right


@dataclass(frozen=True)
class Band:
    """The dice lying flat whose measure (labelled top-face width in px, pip contrast) is `low` to
    `high`, and what became of them."""

    low: float
    high: float  # math.inf for the last band
    dice: int
    found: int
    read_right: int
    unreadable: int  # found, no face read

    @property
    def read_wrong(self) -> int:
        return self.found - self.read_right - self.unreadable

    @property
    def read_share(self) -> float | None:
        """Share of the labelled dice read with their right face (missed ones count as not read)."""
        return ratio(self.read_right, self.dice)

    def __add__(self, other: Band) -> Band:
        """The same band over two sets."""
        if (self.low, self.high) != (other.low, other.high):
            raise ValueError(f"expected the same band, got {self.low}-{self.high} and {other.low}-{other.high}")
        return Band(self.low, self.high, self.dice + other.dice, self.found + other.found,
                         self.read_right + other.read_right, self.unreadable + other.unreadable)


@dataclass(frozen=True)
class ImageResult:
    """One image scored: its labels, what the reader said, how they paired, how long it took."""

    file: str
    labels: tuple[DieLabel, ...]
    reading: Reading
    match: Match
    seconds: float
    rim: Ellipse | None = None  # the labelled bowl ellipse, if any
    dice_kind: str | None = None  # `ImageLabel.dice_kind`: which dice a generated scene shows
    # Per labelled die, how much its pips stand out in the photo (`evaluation.pip_contrast`): None where
    # its pips are not labelled (real sets); () when not measured.
    pip_contrasts: tuple[float | None, ...] = ()

    @property
    def rim_error(self) -> float | None:
        """How far the rim found strays from the labelled one, as a share of its radius (worst point):
        None when no rim is labelled, infinity when no bowl was found."""
        if self.rim is None:
            return None
        return math.inf if self.reading.bowl is None else rim_error_between(self.reading.bowl, Bowl(*self.rim))

    @property
    def pairs(self) -> tuple[DiePair, ...]:
        return tuple(DiePair(self.labels[li], self.reading.dice[fi]) for li, fi in self.match.pairs)

    @property
    def missed(self) -> tuple[DieLabel, ...]:
        return tuple(self.labels[i] for i in self.match.missed)

    @property
    def extra(self) -> tuple[DieReading, ...]:
        return tuple(self.reading.dice[i] for i in self.match.extra)

    @property
    def wrong_faces(self) -> tuple[DiePair, ...]:
        return tuple(p for p in self.pairs if not p.face_right)

    @property
    def wrong_in_bowl(self) -> tuple[DiePair, ...]:
        return tuple(p for p in self.pairs if p.misplaced)

    @property
    def errors(self) -> int:
        """Every mistake counted once: missed, extra, wrong face, wrong in/out flag."""
        return len(self.missed) + len(self.extra) + len(self.wrong_faces) + len(self.wrong_in_bowl)

    @property
    def verdict(self) -> Verdict | None:
        """What the table would have heard for this throw (None: not an image of one throw)."""
        return judge(self.labels, self.reading)

    @property
    def all_right(self) -> bool:
        """DATA.md's image accuracy: every die found, with the right face, and nothing extra."""
        return not (self.missed or self.extra or self.wrong_faces)


@dataclass(frozen=True)
class FailedFile:
    """A labelled image that could not be scored, and why (missing, truncated, ...)."""

    file: str
    reason: str


def ratio(count: int, total: int) -> float | None:
    return count / total if total else None


@dataclass(frozen=True)
class Evaluation:
    """A reader's scores on one labelled set; failed files are named and left out of the ratios."""

    results: tuple[ImageResult, ...]
    failed: tuple[FailedFile, ...] = ()
    unlabelled: tuple[str, ...] = ()  # image files in the folder that labels.json does not mention

    @property
    def images(self) -> int:
        return len(self.results)

    @property
    def dice(self) -> int:
        return sum(len(r.labels) for r in self.results)

    @property
    def found(self) -> int:
        return sum(len(r.reading.dice) for r in self.results)

    @property
    def matched(self) -> int:
        return sum(len(r.match.pairs) for r in self.results)

    @property
    def die_recall(self) -> float | None:
        return ratio(self.matched, self.dice)

    @property
    def die_precision(self) -> float | None:
        return ratio(self.matched, self.found)

    @property
    def face_accuracy(self) -> float | None:
        return ratio(sum(len(r.pairs) - len(r.wrong_faces) for r in self.results), self.matched)

    @property
    def image_accuracy(self) -> float | None:
        return ratio(sum(r.all_right for r in self.results), self.images)

    def _pairs(self, leaning: bool) -> list[DiePair]:
        return [p for r in self.results for p in r.pairs if p.label.cocked is leaning]

    @property
    def flat_face_accuracy(self) -> float | None:
        """Face accuracy of the matched dice lying flat. DATA.md's face accuracy also counts a leaning
        die called unreadable as wrong, though that is what the reader must say of it (issue 4)."""
        flat = self._pairs(leaning=False)
        return ratio(sum(p.face_right for p in flat), len(flat))

    @property
    def leaning(self) -> dict[str, int]:
        """What became of the matched dice labelled `cocked`: called unreadable, read as labelled
        (the face most nearly up), or read as another face."""
        pairs = self._pairs(leaning=True)
        unreadable = sum(p.found.face is None for p in pairs)
        right = sum(p.face_right for p in pairs)
        return {"dice": len(pairs), "unreadable": unreadable, "read_as_labelled": right,
                "read_otherwise": len(pairs) - unreadable - right}

    @property
    def in_bowl_dice(self) -> int:
        """Paired dice whose `in_bowl` is labelled: the in/out accuracy's denominator."""
        return sum(p.in_bowl_scored for r in self.results for p in r.pairs)

    @property
    def in_bowl_accuracy(self) -> float | None:
        wrong = sum(len(r.wrong_in_bowl) for r in self.results)
        return ratio(self.in_bowl_dice - wrong, self.in_bowl_dice)

    @property
    def rims_labelled(self) -> int:
        return sum(r.rim is not None for r in self.results)

    @property
    def rims_not_found(self) -> int:
        return sum(r.rim is not None and r.reading.bowl is None for r in self.results)

    @property
    def rim_accuracy(self) -> float | None:
        """Share of the labelled rims found within RIM_TOLERANCE of the radius."""
        errors = (r.rim_error for r in self.results)  # each rim measured once
        return ratio(sum(e is not None and e <= RIM_TOLERANCE for e in errors), self.rims_labelled)

    @property
    def seconds_per_image(self) -> float | None:
        return statistics.fmean(r.seconds for r in self.results) if self.results else None

    @property
    def confusion(self) -> tuple[tuple[int, ...], ...]:
        """Rows: labelled face 1..6; columns: read face 1..6, then unreadable. Paired dice only."""
        counts = [[0] * (len(FACES) + 1) for _ in FACES]
        for r in self.results:
            for p in r.pairs:
                column = len(FACES) if p.found.face is None else p.found.face - 1
                counts[p.label.face - 1][column] += 1
        return tuple(tuple(row) for row in counts)

    @property
    def verdicts(self) -> dict[Verdict, int]:
        """How many throws got each verdict, every kind listed (images of one throw only)."""
        counts = Counter(r.verdict for r in self.results if r.verdict is not None)
        return {kind: counts[kind] for kind in Verdict}

    @property
    def dice_kinds(self) -> tuple[str, ...]:
        """The kinds of dice the images are labelled with (generated sets), sorted; () for other sets."""
        return tuple(sorted({r.dice_kind for r in self.results if r.dice_kind is not None}))

    def by_width(self, edges: tuple[float, ...] = WIDTH_EDGES, kind: str | None = None) -> tuple[Band, ...]:
        """The dice lying flat with a labelled box, by the box's width: how small a die the reader reads.
        Leaning dice are left out (they must be called unreadable), as are dice labelled by centre only.
        `kind`: only the images of that kind of dice (`dice_kinds`); None: every image."""
        return self._bands(lambda r, i: r.labels[i].size, edges, kind)

    def by_contrast(self, edges: tuple[float, ...] = CONTRAST_EDGES, kind: str | None = None) -> tuple[Band, ...]:
        """The dice lying flat with labelled pips, by how much their pips stand out in the photo: which
        faces a person could have read. `kind` as for `by_width`."""
        return self._bands(lambda r, i: r.pip_contrasts[i] if r.pip_contrasts else None, edges, kind)

    def _bands(self, measure: Callable[[ImageResult, int], float | None], edges: tuple[float, ...],
               kind: str | None) -> tuple[Band, ...]:
        """The dice lying flat that `measure` (image, label index) gives a value, banded by it."""
        bounds = (0.0, *edges, math.inf)
        counts = [[0, 0, 0, 0] for _ in bounds[1:]]  # dice, found, right, unreadable
        for r in self.results:
            if kind is not None and r.dice_kind != kind:
                continue
            found = dict(r.match.pairs)
            for index, label in enumerate(r.labels):
                value = None if label.cocked else measure(r, index)
                if value is None:
                    continue
                row = counts[sum(value >= edge for edge in edges)]
                row[0] += 1
                if index in found:
                    face = r.reading.dice[found[index]].face
                    row[1] += 1
                    row[2] += face == label.face
                    row[3] += face is None
        return tuple(Band(bounds[k], bounds[k + 1], *row) for k, row in enumerate(counts))

    def worst(self, count: int) -> tuple[ImageResult, ...]:
        """Images with mistakes, most mistakes first (ties by name), at most `count`."""
        bad = sorted((r for r in self.results if r.errors), key=lambda r: (-r.errors, r.file))
        return tuple(bad[:count])

    @property
    def scored_wrong(self) -> tuple[ImageResult, ...]:
        """The throws the table would have scored wrong (a wrong award or a false void), by name."""
        return tuple(sorted((r for r in self.results if r.verdict in WRONG_VERDICTS), key=lambda r: r.file))
