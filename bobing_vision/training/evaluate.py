"""Measure the detector alone on labelled images: die recall/precision of the locator, face accuracy of
the reader on the found dice and on the labelled boxes (the reader alone), and whether the pips agree.
Matching follows DATA.md. Cocked dice count for recall; their face should be reported as unsure."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from bobing_vision.dataset.labels import DieLabel, ImageLabel, load_labels
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
    dice: int  # labelled flat dice
    cocked: int  # labelled cocked dice
    found: int  # labelled dice (flat and cocked) matched by a candidate
    extra: int  # candidates matching no labelled die
    face_found: int  # flat dice found
    face_correct: int  # of the flat dice found, face right
    unsure: int  # of the flat dice found, best face probability below sure_prob
    sure_wrong: int  # of the flat dice found, face wrong with probability >= sure_prob (the costly error)
    pips_agree: int  # of the flat dice found with the right face, pip count equals the face
    cocked_unsure: int  # cocked dice found and reported below sure_prob (as they should be)
    crop_correct: int  # the reader on the labelled boxes of flat dice

    @property
    def recall(self) -> float:
        return self.found / max(1, self.dice + self.cocked)

    @property
    def precision(self) -> float:
        return self.found / max(1, self.found + self.extra)

    @property
    def face_accuracy(self) -> float:
        return self.face_correct / max(1, self.face_found)

    @property
    def crop_face_accuracy(self) -> float:
        return self.crop_correct / max(1, self.dice)

    def line(self) -> str:
        text = (
            f"{self.name}: {self.images} images, {self.dice + self.cocked} dice | die recall {self.recall:.1%} "
            f"precision {self.precision:.1%} | face accuracy {self.face_accuracy:.1%} of {self.face_found} found "
            f"flat dice ({self.unsure} unsure, {self.sure_wrong} sure but wrong) | reader on labelled boxes "
            f"{self.crop_face_accuracy:.1%} | pips = face on {self.pips_agree / max(1, self.face_correct):.1%}"
        )
        if self.cocked:
            text += f" | cocked dice unsure {self.cocked_unsure}/{self.cocked}"
        return text


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


def read_folder(folder: Path | str) -> Iterator[tuple[np.ndarray, ImageLabel]]:
    folder = Path(folder)
    for name, label in sorted(load_labels(folder).items()):
        image = cv2.imread(str(folder / name), cv2.IMREAD_COLOR)
        if image is None:
            raise InvalidInput(f"expected a readable image, got {folder / name}")
        yield image, label


def score_images(
    detector: DiceDetector, name: str, items: Iterable[tuple[np.ndarray, ImageLabel]], config: EvalConfig = EvalConfig()
) -> SetScore:
    counts = dict.fromkeys(
        ("images", "dice", "cocked", "found", "extra", "face_found", "face_correct", "unsure", "sure_wrong",
         "pips_agree", "cocked_unsure", "crop_correct"), 0,
    )
    for image, label in items:
        counts["images"] += 1
        dice = tuple(d for d in label.dice if d.size is not None)
        counts["dice"] += sum(not d.cocked for d in dice)
        counts["cocked"] += sum(d.cocked for d in dice)
        cands: list[DieCandidate] = [c for c in detector.detect(image) if c.score >= config.min_score]
        pairs = match([c.center for c in cands], dice)
        counts["found"] += len(pairs)
        counts["extra"] += len(cands) - len(pairs)
        for i, j in pairs:
            c, d = cands[i], dice[j]
            sure = c.face_confidence >= config.sure_prob
            if d.cocked:
                counts["cocked_unsure"] += not sure
                continue
            counts["face_found"] += 1
            right = c.face == d.face
            counts["face_correct"] += right
            counts["unsure"] += not sure
            counts["sure_wrong"] += sure and not right
            counts["pips_agree"] += right and c.pip_count == d.face
        flat = tuple(d for d in dice if not d.cocked)
        if flat:
            boxes = Located(
                centers=np.array([d.center for d in flat], np.float64),
                sizes=np.array([d.size for d in flat], np.float64),
                scores=np.ones(len(flat)),
            )
            counts["crop_correct"] += sum(c.face == d.face for c, d in zip(detector.read(image, boxes), flat))
    return SetScore(name=name, **counts)


def score_set(detector: DiceDetector, folder: Path | str, config: EvalConfig = EvalConfig()) -> SetScore:
    return score_images(detector, Path(folder).name, read_folder(folder), config)


def synth_items(count: int, seed: int) -> Iterator[tuple[np.ndarray, ImageLabel]]:
    """Generated scenes from a seed training never used (training renders from seed + 1000)."""
    from bobing_vision.synth import render_scene

    rng = np.random.default_rng(seed)
    for _ in range(count):
        yield render_scene(rng)
