"""How often the pip head counts the labelled face's pips: each labelled die read at its labelled box.

The pipeline trusts a face only when the pips agree with it, so this count is what stands between a
die's face read right and a die refused as unreadable.

    python bench/bench_pips.py --models models ../shared/data/byler-d6-train ../shared/data/dice3-boardgame
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from bobing_vision.training.scenes import UNREADABLE, load_real_set
from bobing_vision.vision.detector import DEFAULT_MODELS_DIR, DiceDetector, Located


def count_errors(detector: DiceDetector, folder: Path) -> Counter[int]:
    """pips found minus the labelled face, over every readable labelled die of a DATA.md folder."""
    errors: Counter[int] = Counter()
    for scene in load_real_set(folder):
        dice = [d for d in scene.dice if d.face != UNREADABLE]
        if not dice:
            continue
        located = Located(
            centers=np.array([d.center for d in dice], np.float64),
            sizes=np.array([d.size for d in dice], np.float64),
            scores=np.ones(len(dice)),
        )
        for die, read in zip(dice, detector.read(scene.image, located)):
            errors[read.pip_count - die.face] += 1
    return errors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", type=Path, help="DATA.md folders")
    parser.add_argument("--models", type=Path, default=DEFAULT_MODELS_DIR)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    detector = DiceDetector(args.models)
    print("| set | dice | pips = face | one short | one over | further off |")
    print("|---|---|---|---|---|---|")
    for folder in args.sets:
        errors = count_errors(detector, folder)
        n = sum(errors.values())
        share = {k: errors[k] / max(n, 1) for k in (0, -1, 1)}
        further = 1 - sum(share.values())
        print(f"| {folder.name} | {n} | {share[0]:.1%} | {share[-1]:.1%} | {share[1]:.1%} | {further:.1%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
