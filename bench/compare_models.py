"""Compare dice models set by set, wrong verdicts first: the figures a retrained model is adopted by.

    python bench/compare_models.py --models models /tmp/candidate --sets DIR [DIR ...] [--workers 2]

For each set and model, `bobing eval`'s figures: right awards, wrong awards, false voids, right voids,
refused throws, face accuracy, wrong faces and generated coins read as dice (sets made by `bobing synth`
label their coins); then each model's totals over the sets. A wrong award or a false void is a throw
scored wrong at the table, so a candidate replaces the committed models only with no more of them,
whatever it gains in right awards.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, fields
from pathlib import Path


@dataclass(frozen=True)
class Row:
    right_award: int
    wrong_award: int
    false_void: int
    right_void: int
    refused: int
    faces: int  # labelled dice found, whose face is scored
    faces_right: int
    faces_wrong: int  # read as another face (unreadable ones are neither right nor wrong)
    coins_read: int  # generated coins (labelled under synth.coins) read as a die with a face

    @property
    def wrong_verdicts(self) -> int:
        return self.wrong_award + self.false_void

    def __add__(self, other: Row) -> Row:
        return Row(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))


def measure(models: Path, folder: Path) -> Row:
    import cv2

    import numpy as np

    from bobing_vision.dataset.labels import load_labels
    from bobing_vision.evaluation import ImageResult, evaluate
    from bobing_vision.evaluation.verdicts import Verdict
    from bobing_vision.vision.pipeline import OnnxDiceReader

    cv2.setNumThreads(1)
    coins = {name: label.extra.get("synth", {}).get("coins", []) for name, label in load_labels(folder).items()}
    coins_read = 0

    def count_coins(_frame: object, result: ImageResult) -> None:
        nonlocal coins_read
        coins_read += sum(
            any(np.hypot(d.center[0] - x, d.center[1] - y) < diameter / 2 for x, y, diameter in coins.get(result.file, []))
            for d in result.extra if d.readable)

    ev = evaluate(folder, OnnxDiceReader(models_dir=models, track_bowl=False), on_image=count_coins)
    verdicts = ev.verdicts
    confusion = ev.confusion
    faces_right = sum(confusion[i][i] for i in range(6))
    faces_wrong = sum(confusion[i][j] for i in range(6) for j in range(6) if i != j)
    return Row(verdicts[Verdict.RIGHT_AWARD], verdicts[Verdict.WRONG_AWARD], verdicts[Verdict.FALSE_VOID],
               verdicts[Verdict.RIGHT_VOID], verdicts[Verdict.REFUSED], ev.matched, faces_right, faces_wrong, coins_read)


def line(label: str, row: Row) -> str:
    face = f"{row.faces_right / row.faces:6.1%}" if row.faces else "     -"
    return (f"{label:<40} {row.right_award:>6} {row.wrong_award:>6} {row.false_void:>6} {row.right_void:>6} "
            f"{row.refused:>7} {face} {row.faces_wrong:>6} {row.coins_read:>6}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, nargs="+", required=True, help="model folders, the committed first")
    parser.add_argument("--sets", type=Path, nargs="+", required=True, help="labelled sets (DATA.md folders)")
    parser.add_argument("--workers", type=int, default=2, help="processes, one (model, set) pair each")
    args = parser.parse_args(argv)
    jobs = [(m, s) for m in args.models for s in args.sets]
    with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
        rows = dict(zip(jobs, pool.map(measure, *zip(*jobs))))
    print(f"{'set / model':<40} {'right':>6} {'wrong':>6} {'f.void':>6} {'void':>6} {'refused':>7} "
          f"{'faces':>6} {'wrongF':>6} {'coins':>6}")
    for s in args.sets:
        for m in args.models:
            print(line(f"{s.name[:18]} / {m}", rows[(m, s)]))
    print()
    for m in args.models:
        total = sum((rows[(m, s)] for s in args.sets), Row(*([0] * len(fields(Row)))))
        print(line(f"all {len(args.sets)} sets / {m}", total) + f"   wrong verdicts {total.wrong_verdicts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
