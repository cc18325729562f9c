"""Measure the detector alone on a labelled set: die recall/precision of the locator, face accuracy of
the reader on the found dice and on the labelled boxes (the reader alone). Matching follows DATA.md."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from bobing_vision.dataset.labels import DieLabel, load_labels
from bobing_vision.errors import InvalidInput
from bobing_vision.vision.detector import DiceDetector, DieCandidate, Located


@dataclass(frozen=True)
class EvalConfig:
    min_score: float = 0.5  # the pipeline's ReaderConfig.min_die_score: candidates below are dropped
    sure_prob: float = 0.8  # the pipeline's min_face_prob: below it a die is reported unreadable


@dataclass(frozen=True)
class SetScore:
    name: str
    images: int
    dice: int  # labelled
    found: int  # labelled dice matched by a candidate
    extra: int  # candidates matching no labelled die
    face_correct: int  # of the found dice
    unsure: int  # found dice whose best face probability is below sure_prob
    crop_correct: int  # the reader on the labelled boxes

    @property
    def recall(self) -> float:
        return self.found / max(1, self.dice)

    @property
    def precision(self) -> float:
        return self.found / max(1, self.found + self.extra)

    @property
    def face_accuracy(self) -> float:
        return self.face_correct / max(1, self.found)

    @property
    def crop_face_accuracy(self) -> float:
        return self.crop_correct / max(1, self.dice)

    def line(self) -> str:
        return (
            f"{self.name}: {self.images} images, {self.dice} dice | die recall {self.recall:.1%} "
            f"precision {self.precision:.1%} | face accuracy {self.face_accuracy:.1%} of found "
            f"({self.unsure} unsure) | reader on labelled boxes {self.crop_face_accuracy:.1%}"
        )


def match(centers: list[tuple[float, float]], dice: tuple[DieLabel, ...]) -> list[tuple[int, int]]:
    """One-to-one, nearest first: (found index, labelled index) pairs, as DATA.md defines a match."""
    sizes = [d.size for d in dice if d.size is not None]
    typical = float(np.median(sizes)) if sizes else 40.0
    pairs = []
    for i, (x, y) in enumerate(centers):
        for j, d in enumerate(dice):
            dist = float(np.hypot(x - d.center[0], y - d.center[1]))
            inside = d.box is not None and d.box[0] <= x <= d.box[2] and d.box[1] <= y <= d.box[3]
            if inside or dist <= typical / 2:
                pairs.append((dist, i, j))
    used_i: set[int] = set()
    used_j: set[int] = set()
    out = []
    for _, i, j in sorted(pairs):
        if i not in used_i and j not in used_j:
            used_i.add(i)
            used_j.add(j)
            out.append((i, j))
    return out


def score_set(detector: DiceDetector, folder: Path | str, config: EvalConfig = EvalConfig()) -> SetScore:
    folder = Path(folder)
    labels = load_labels(folder)
    n_dice = found = extra = correct = unsure = crop_correct = 0
    for name, label in sorted(labels.items()):
        image = cv2.imread(str(folder / name), cv2.IMREAD_COLOR)
        if image is None:
            raise InvalidInput(f"expected a readable image, got {folder / name}")
        dice = tuple(d for d in label.dice if d.size is not None)
        n_dice += len(dice)
        cands: list[DieCandidate] = [c for c in detector.detect(image) if c.score >= config.min_score]
        pairs = match([c.center for c in cands], dice)
        found += len(pairs)
        extra += len(cands) - len(pairs)
        for i, j in pairs:
            correct += cands[i].face == dice[j].face
            unsure += cands[i].face_confidence < config.sure_prob
        if dice:
            boxes = Located(
                centers=np.array([d.center for d in dice], np.float64),
                sizes=np.array([d.size for d in dice], np.float64),
                scores=np.ones(len(dice)),
            )
            crop_correct += sum(c.face == d.face for c, d in zip(detector.read(image, boxes), dice))
    return SetScore(folder.name, len(labels), n_dice, found, extra, correct, unsure, crop_correct)
