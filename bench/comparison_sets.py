"""The sets a candidate model is compared on, made again in one command on a new machine.

    python bench/comparison_sets.py OUT [--workers 2]
    python bench/compare_models.py --models models CANDIDATE --workers 2 --sets OUT/* sample_images ../shared/data/*

`models/HISTORY.md` judges every candidate on the same 77 sets: 71 made by `bobing synth` (OUT/sS: `bobing
synth OUT/sS --count 200 --seed S`), three drawn by the second renderer (OUT/rtN: `python
bench/raytraced_bowls.py OUT/rtN --count 100 --seed N`), `sample_images` and the two real sets. A new machine
starts with none of them, and each session used to make them again seed by seed from the history. The same
seeds give the same files, so the committed models' figures on them are those in `models/HISTORY.md`.

A set whose `labels.json` is written (both makers write it last) is kept, so a stopped run continues.
All 74 in 1226 s with 2 workers (fifty-second session; byte for byte the sets that session compared on).
"""

from __future__ import annotations

import argparse
import enum
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bobing_vision.dataset.labels import is_labelled_set  # noqa: E402

# The thirty-sixth session's 69 seeds (the generated sets of the comparisons before it, without their camera
# variants and steep sets) and 9807, 9918 after them.
GENERATED_SEEDS = (
    2323, 3434, 4545, 5353, 5656, 6464, 6767, 7575, 8686, 9797, 2718, 3829, 4930, 6041, 6791, 7802, 8913, 9024,
    3691, 4702, 5813, 6924, 1482, 2593, 3604, 4715, 5151, 5262, 6373, 7484, 8595, 9706, 1817, 2928, 3039, 4140,
    5251, 6362, 7473, 8642, 9753, 1864, 2975, 3197, 4208, 5319, 6420, 1975, 2086, 3108, 7531, 8753, 9864, 7102,
    7213, 7324, 7435, 8111, 8222, 8333, 9417, 9528, 9639, 9751, 9862, 9973, 1642, 2753, 3864, 9807, 9918,
)
RAYTRACED_SEEDS = (1, 2, 3)
GENERATED_COUNT = 200
RAYTRACED_COUNT = 100


class Maker(enum.Enum):
    """What draws a set: `bobing synth`, or the second renderer (`bench/raytraced_bowls.py`)."""

    GENERATED = "generated"
    RAYTRACED = "raytraced"


@dataclass(frozen=True)
class SetJob:
    """One set to make, by its maker."""

    maker: Maker
    seed: int
    count: int
    folder: Path

    def made(self) -> bool:
        return is_labelled_set(self.folder)


def jobs(out: Path, generated: Sequence[int] = GENERATED_SEEDS, raytraced: Sequence[int] = RAYTRACED_SEEDS,
         generated_count: int = GENERATED_COUNT, raytraced_count: int = RAYTRACED_COUNT) -> list[SetJob]:
    """The sets under `out`, the slow rendered ones first so that the workers finish together."""
    return ([SetJob(Maker.RAYTRACED, s, raytraced_count, out / f"rt{s}") for s in raytraced]
            + [SetJob(Maker.GENERATED, s, generated_count, out / f"s{s}") for s in generated])


def make(job: SetJob) -> SetJob:
    if job.maker is Maker.RAYTRACED:
        import raytraced_bowls

        raytraced_bowls.write_set(job.folder, job.count, job.seed)
    else:
        from bobing_vision.cli.synth import main as synth

        # The command itself, so the set is the one its line in the history names, byte for byte.
        if synth([str(job.folder), "--count", str(job.count), "--seed", str(job.seed), "--quiet"]) != 0:
            raise RuntimeError(f"bobing synth failed for {job.folder}")
    return job


def make_all(todo: Sequence[SetJob], workers: int) -> list[SetJob]:
    """Makes the sets not made yet; returns those it made."""
    missing = [job for job in todo if not job.made()]
    if workers <= 1:
        return [make(job) for job in missing]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(make, missing))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder for the sets (OUT/sS, OUT/rtN)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    todo = jobs(args.out)
    made = make_all(todo, args.workers)
    print(f"{args.out}: {len(made)} sets made, {len(todo) - len(made)} already there")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
