"""Measure the ONNX dice detector: accuracy per labelled set and speed on a 640x480 frame, one thread.

    python bench/bench_model.py --models models /work/shared/data/dice3-boardgame --speed
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from bobing_vision.training.evaluate import EvalConfig, score_images, score_set, synth_items
from bobing_vision.vision.detector import DEFAULT_MODELS_DIR, DiceDetector


def speed_frame(seed: int) -> np.ndarray:
    """A 640x480 generated bowl scene with six dice."""
    from bobing_vision.synth import SceneSpec, render_scene

    image, _ = render_scene(np.random.default_rng(seed), SceneSpec(size=(640, 480)))
    return image


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", type=Path, help="DATA.md folders to score")
    parser.add_argument("--models", type=Path, default=DEFAULT_MODELS_DIR)
    parser.add_argument("--synth", type=int, default=0, help="also score this many generated scenes")
    parser.add_argument("--synth-seed", type=int, default=777, help="a seed training never used")
    parser.add_argument("--speed", action="store_true", help="time detect() on a 640x480 frame")
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--min-score", type=float, default=EvalConfig().min_score)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    detector = DiceDetector(args.models)
    for folder in args.sets:
        print(score_set(detector, folder, EvalConfig(min_score=args.min_score)).line(), flush=True)
    if args.synth:
        items = synth_items(args.synth, args.synth_seed)
        name = f"generated (seed {args.synth_seed})"
        print(score_images(detector, name, items, EvalConfig(min_score=args.min_score)).line(), flush=True)
    if args.speed:
        frame = speed_frame(seed=12345)
        n = len(detector.detect(frame))
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            detector.detect(frame)
            times.append(time.perf_counter() - start)
        sizes = sum(p.stat().st_size for p in args.models.glob("*.onnx"))
        print(
            f"speed: detect() on 640x480 with {n} candidates: median {statistics.median(times) * 1000:.2f} ms, "
            f"p90 {np.percentile(times, 90) * 1000:.2f} ms (one thread); model files {sizes / 1e6:.2f} MB"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
