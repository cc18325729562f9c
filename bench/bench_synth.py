"""Scenes per second of `render_scene` on one core: `python bench/bench_synth.py [--count N] [--size WxH]`."""

from __future__ import annotations

import argparse
import os
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core: before numpy loads its BLAS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=200, help="scenes to time (after 5 warm-up scenes)")
    parser.add_argument("--size", default="640x480", help="frame size, WIDTHxHEIGHT")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--clips", type=int, default=0, help="also time this many throw clips")
    args = parser.parse_args()
    import cv2
    import numpy as np

    cv2.setNumThreads(1)  # one core, as the issue asks
    from bobing_vision.synth import ClipSpec, SceneSpec, render_clip, render_scene

    w, h = (int(v) for v in args.size.split("x"))
    spec = SceneSpec(size=(w, h))
    rng = np.random.default_rng(args.seed)
    for _ in range(5):
        render_scene(rng, spec)
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(args.count):
        render_scene(rng, spec)
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    # CPU seconds are what one core spends; on a shared machine wall time is longer
    print(f"render_scene {w}x{h}: {args.count} scenes in {took:.2f} s wall = {args.count / took:.1f} scenes/s; "
          f"{cpu:.2f} s CPU = {args.count / cpu:.1f} scenes/s on one core ({1000 * cpu / args.count:.1f} ms each)")
    if args.clips:
        start = time.perf_counter()
        frames = sum(len(render_clip(rng, ClipSpec(size=(w, h))).frames) for _ in range(args.clips))
        took = time.perf_counter() - start
        print(f"render_clip {w}x{h}: {args.clips} clips, {frames} frames in {took:.2f} s = {frames / took:.1f} frames/s")


if __name__ == "__main__":
    main()
