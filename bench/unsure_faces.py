"""How often the reader's best face is right on the labelled dice it is not sure enough to read.

    python bench/unsure_faces.py ../shared/data/dice3-boardgame [--models DIR]

For every labelled die matched to a candidate that the pipeline refuses because its best face is below
`ReaderConfig.min_face_prob`, the best face is compared with the label; the counts are printed by how
sure that face was, in tenths. If they are seldom right, no lower bar reads them: the reader must be surer.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

import numpy as np

from bobing_vision.dataset.labels import load_labels
from bobing_vision.evaluation.harness import image_path
from bobing_vision.evaluation.matching import match_dice, median_width, typical_width
from bobing_vision.vision.candidates import find_candidates
from bobing_vision.vision.config import ReaderConfig
from bobing_vision.vision.detector import DEFAULT_MODELS_DIR, DetectorConfig, DiceDetector
from bobing_vision.vision.imageio import load_image
from bobing_vision.vision.pipeline import frame_bowl, judge_candidates, normalize_frame
from bobing_vision.vision.reading import DieReading


def table(name: str, refused: list[tuple[float, bool]], bar: float) -> str:
    """Lines of the report: `refused` holds (how sure the best face was, whether it was right) per die."""
    seen: Counter[int] = Counter(min(int(sure * 10), 9) for sure, _ in refused)
    right: Counter[int] = Counter(min(int(sure * 10), 9) for sure, ok in refused if ok)
    lines = [f"{name}: best face of the dice refused as under {bar} sure"]
    lines += [f"  {t / 10:.1f}-{(t + 1) / 10:.1f} sure: {right[t]} right of {seen[t]}" for t in sorted(seen)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="a labelled set (DATA.md)")
    parser.add_argument("--models", type=Path, default=DEFAULT_MODELS_DIR)
    args = parser.parse_args(argv)
    config = ReaderConfig()
    detector = DiceDetector(args.models, DetectorConfig(second_look_min_score=config.min_die_score))
    labels = load_labels(args.folder)
    set_width = median_width(d.size for label in labels.values() for d in label.dice)
    refused: list[tuple[float, bool]] = []
    for name, label in sorted(labels.items()):
        image = normalize_frame(load_image(image_path(args.folder, name)))
        bowl = frame_bowl(image, None, config, [])
        judged = judge_candidates(image, detector, find_candidates(image, detector, bowl, config), bowl, config)
        dice = [DieReading(center=j.candidate.center, box=j.candidate.box, face=j.face, confidence=0.0)
                for j in judged]
        match = match_dice(label.dice, dice, typical_width(label.dice, dice, set_width))
        for li, fi in match.pairs:
            probs = np.asarray(judged[fi].candidate.face_probs)
            sure = float(probs.max())  # as `judging.judge_face` takes it
            if judged[fi].face is None and sure < config.min_face_prob:
                refused.append((sure, int(np.argmax(probs)) + 1 == label.dice[li].face))
    print(table(args.folder.name, refused, config.min_face_prob))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
