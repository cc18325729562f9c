"""Speed and memory of the dice reader on generated 640x480 scenes.

    python bench/bench_reader.py [--count 200] [--seed 4242] [--many 2000] [--out DIR] [--models DIR]

Prints:
1. per-frame time on one thread, whole pipeline (`OnnxDiceReader.read` on decoded frames), median and
   p95: for unrelated photos (the bowl searched in each) and for a camera (the bowl kept from the
   earlier frames of the same view), with the bowl search and the detector timed on their own;
2. `bobing score` throughput in images/s on the JPEGs with 1 and 2 workers (wall clock, incl. start);
0. the bowl finder's rim against the labelled one (accuracy, not speed; the scenes are at hand);
3. peak RSS of `bobing score` (one worker) over `count` and over `many` images (hard links to the same
   JPEGs under other names): flat memory means the two peaks match; then the throughput with 2 workers
   over the `many` images, where the start weighs less.
Targets (issue 4): <= 15 ms median per frame, >= 80 images/s with 2 workers, flat memory.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def write_scenes(folder: Path, count: int, seed: int) -> tuple[list[Path], list[list[float]]]:
    """The JPEGs (written once, reused) and each one's labelled rim [cx, cy, rx, ry, angle]."""
    import json

    import cv2
    import numpy as np

    from bobing_vision.synth import SceneSpec, render_scene

    folder.mkdir(parents=True, exist_ok=True)
    rims_file = folder / "rims.json"
    rims: dict[str, list[float]] = json.loads(rims_file.read_text()) if rims_file.exists() else {}
    rng = np.random.default_rng(seed)
    files = []
    for i in range(count):
        path = folder / f"scene_{i:05d}.jpg"
        if path.name not in rims:
            image, label = render_scene(rng, SceneSpec(size=(640, 480)))
            cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
            rims[path.name] = list(label.bowl or ())
        files.append(path)
    rims_file.write_text(json.dumps(rims))
    return files, [rims[f.name] for f in files]


def rim_accuracy(files: list[Path], rims: list[list[float]]) -> None:
    """The bowl finder against the labelled rims (the label is the lip's middle, the finder its edge)."""
    import statistics

    from bobing_vision.evaluation.scoring import RIM_TOLERANCE
    from bobing_vision.vision.bowl import find_bowl, rim_error
    from bobing_vision.vision.imageio import load_image
    from bobing_vision.vision.reading import Bowl

    errors = []
    for path, rim in zip(files, rims):
        found = find_bowl(load_image(path))
        errors.append(1.0 if found is None else rim_error(found, Bowl(*rim)))
    # `bobing eval`'s tolerance, and a tighter one that shows a finder drifting before eval's figure moves.
    within = {limit: sum(e <= limit for e in errors) / len(errors) for limit in (0.03, RIM_TOLERANCE)}
    print(f"bowl rim vs label over {len(errors)} scenes: median error {statistics.median(errors):.1%} of the "
          f"radius, " + ", ".join(f"within {limit:.0%}: {share:.0%}" for limit, share in within.items())
          + f", none found: {errors.count(1.0)}")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def time_frames(files: list[Path], limit: int, models: Path | None) -> None:
    import cv2

    from bobing_vision.vision.bowl import find_bowl
    from bobing_vision.vision.imageio import load_image
    from bobing_vision.vision.pipeline import OnnxDiceReader

    cv2.setNumThreads(1)
    frames = [load_image(f) for f in files[:limit]]
    photos = OnnxDiceReader(models_dir=models, track_bowl=False)  # every frame searched: unrelated photos
    camera = OnnxDiceReader(models_dir=models)  # bowl tracked: a camera over a bowl that stays put
    photos.read(frames[0])  # warm-up: the first session run allocates
    whole, tracked, bowl, detect = [], [], [], []
    for frame in frames:
        t0 = time.process_time()
        photos.read(frame)
        t1 = time.process_time()
        find_bowl(frame)
        t2 = time.process_time()
        photos.detector.detect(frame)
        t3 = time.process_time()
        camera.read(frame)  # finds the bowl of this scene (its rim's look differs from the last scene's)...
        camera.read(frame)  # ...the next frame of the same view confirms it on the rim's edges once...
        t4 = time.process_time()
        camera.read(frame)  # ...and every frame after that keeps it while the rim looks the same
        t5 = time.process_time()
        whole.append((t1 - t0) * 1000)
        bowl.append((t2 - t1) * 1000)
        detect.append((t3 - t2) * 1000)
        tracked.append((t5 - t4) * 1000)
    print(f"frames timed: {len(frames)} (640x480, one thread, CPU time per frame)")
    for name, values in (("whole pipeline, photos (bowl searched)", whole),
                         ("whole pipeline, camera (bowl kept)", tracked),
                         ("  bowl search alone", bowl), ("  detector alone", detect)):
        print(f"{name:40s} median {statistics.median(values):6.1f} ms   p95 {percentile(values, 95):6.1f} ms")


# Runs a command and prints the peak RSS (KiB) of its largest process: a fresh parent per run, so
# RUSAGE_CHILDREN holds that run alone.
_PEAK = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
         "stderr=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def run_score(folder: Path, workers: int, models: Path | None) -> tuple[float, int]:
    """(seconds, peak RSS in MiB of its largest process) of `bobing score folder --json --workers N`."""
    start = time.perf_counter()
    chosen = [] if models is None else ["--models", str(models)]
    done = subprocess.run([sys.executable, "-c", _PEAK, sys.executable, "-m", "bobing_vision", "score",
                           str(folder), "--json", "--workers", str(workers), *chosen], capture_output=True,
                          text=True, check=True)
    return time.perf_counter() - start, int(done.stdout.strip()) // 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200, help="generated JPEGs (default 200)")
    parser.add_argument("--seed", type=int, default=4242)
    parser.add_argument("--frames", type=int, default=100, help="frames timed one by one (default 100)")
    parser.add_argument("--many", type=int, default=2000, help="images for the memory run (default 2000)")
    parser.add_argument("--out", type=Path, help="keep the JPEGs here (default: a temporary folder)")
    parser.add_argument("--models", type=Path, help="the ONNX models timed (default: the committed models/)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.out or Path(tmp) / "scenes"
        files, rims = write_scenes(folder, args.count, args.seed)
        rim_accuracy(files, rims)
        time_frames(files, args.frames, args.models)
        for workers in (1, 2):
            seconds, _ = run_score(folder, workers, args.models)
            print(f"bobing score, {workers} worker(s): {len(files)} images in {seconds:.2f} s = "
                  f"{len(files) / seconds:.1f} images/s")
        many = Path(tmp) / "many"
        many.mkdir()
        for i in range(args.many):
            os.link(files[i % len(files)], many / f"img_{i:06d}.jpg")
        _, small_peak = run_score(folder, 1, args.models)
        seconds, big_peak = run_score(many, 1, args.models)
        print(f"peak RSS, bobing score 1 worker: {small_peak} MiB over {len(files)} images, "
              f"{big_peak} MiB over {args.many} images ({args.many / seconds:.1f} images/s)")
        # A folder of thousands is the batch use: there the start is a small share of the wall clock.
        seconds, _ = run_score(many, 2, args.models)
        print(f"bobing score, 2 workers: {args.many} images in {seconds:.2f} s = {args.many / seconds:.1f} images/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
