"""How much of the bowl is pure white, throw by throw, and what the table hears there: the figures behind
`camera_advice.WASHED_OUT`, the share from which `bobing calibrate`, `bobing live` and `bobing score`
advise less exposure.

    python bench/exposure_check.py --sets DIR [DIR ...] [--workers 2]

For each labelled throw with a labelled rim: `camera_advice.washed_out_share` inside that rim and the
verdict of the committed pipeline (`bobing eval`'s own run, `evaluation.evaluate`). Printed per set and over all sets: the
throws by share band, with the right awards, refusals and wrong verdicts in each, and how many reach the
advice's bar. `bench/camera_variants.py SET OUT --variants bright` writes a set over-exposed by half.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

BANDS = (0.0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 1.01)  # shares of the bowl pure white
Throw = tuple[float, str]  # (share, verdict name)


def judge_set(folder: str) -> list[Throw]:
    import numpy as np

    from bobing_vision.evaluation import evaluate
    from bobing_vision.evaluation.scoring import ImageResult
    from bobing_vision.vision.camera_advice import washed_out_share
    from bobing_vision.vision.pipeline import OnnxDiceReader

    throws = []

    def measure(frame: np.ndarray, result: ImageResult) -> None:
        if result.rim is not None and result.verdict is not None:
            throws.append((washed_out_share(frame, result.rim), result.verdict.value))

    evaluate(folder, OnnxDiceReader(track_bowl=False), on_image=measure)  # a labelled set: unrelated photos
    return throws


def table(title: str, throws: Sequence[Throw], bar: float) -> str:
    lines = [f"{title}: {len(throws)} throws, {sum(s >= bar for s, _ in throws)} at {bar:.0%} or more pure white",
             "  share of the bowl   throws  right awards  refused  wrong verdicts"]
    for low, high in zip(BANDS, BANDS[1:]):
        verdicts = [v for s, v in throws if low <= s < high]
        if verdicts:
            right = sum(v == "right_award" for v in verdicts) / len(verdicts)
            refused = sum(v == "refused" for v in verdicts) / len(verdicts)
            wrong = sum(v in ("wrong_award", "false_void") for v in verdicts)
            lines.append(f"  {low:4.0%} - {min(high, 1.0):4.0%}      {len(verdicts):6d}  {right:11.1%}  {refused:7.1%}"
                         f"  {wrong:14d}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from bobing_vision.vision.camera_advice import WASHED_OUT

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", nargs="+", required=True, metavar="DIR", help="labelled sets (DATA.md folders)")
    parser.add_argument("--workers", type=int, default=1, metavar="N", help="sets read in parallel")
    args = parser.parse_args(argv)
    with ProcessPoolExecutor(args.workers) as pool:
        per_set = list(pool.map(judge_set, args.sets))
    for folder, throws in zip(args.sets, per_set):
        print(table(folder, throws, WASHED_OUT))
    if len(per_set) > 1:
        print(table("all sets", [t for throws in per_set for t in throws], WASHED_OUT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
