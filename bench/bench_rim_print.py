"""Is the bowl still where it was? The rim's look (`RimPrint.matches`) against a refit (`still_there`).

    python bench/bench_rim_print.py [--count 120] [--seed 4242] [--out DIR]

On generated 640x480 scenes (bench_reader.py's, with the bowl found in each), each way of keeping a
bowl is asked about frames that show the same bowl (the frame itself; dimmer and brighter; sensor
noise; JPEG at quality 40; everything shifted by 0.4% of the radius, under `track_tol`) and frames
that do not (shifted by 2% or 4% of the radius; the next scene; a scene further on). Prints how many
answers are right in each case, and the median CPU time of a call.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent))


def shifted(image: np.ndarray, dx: float, dy: float) -> np.ndarray:
    return cv2.warpAffine(image, np.array([[1, 0, dx], [0, 1, dy]], np.float32), image.shape[1::-1], borderMode=cv2.BORDER_REFLECT)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=120)
    parser.add_argument("--seed", type=int, default=4242)
    parser.add_argument("--out", type=Path, help="keep the JPEGs here (default: a temporary folder)")
    args = parser.parse_args()

    from bench_reader import write_scenes
    from bobing_vision.vision.bowl import find_bowl, still_there
    from bobing_vision.vision.imageio import load_image
    from bobing_vision.vision.rim_print import RimPrint

    cv2.setNumThreads(1)
    with tempfile.TemporaryDirectory() as tmp:
        files, _ = write_scenes(args.out or Path(tmp) / "scenes", args.count, args.seed)
        frames = [load_image(f) for f in files]
    rng = np.random.default_rng(0)
    right: dict[str, list[int]] = {}
    seconds: dict[str, list[float]] = {"look": [], "refit": [], "take": []}
    for i, (frame, bowl) in enumerate(zip(frames, map(find_bowl, frames))):
        if bowl is None:
            continue
        start = time.process_time()
        look = RimPrint.take(frame, bowl)
        seconds["take"].append(time.process_time() - start)
        r = float(np.sqrt(bowl.rx * bowl.ry))
        cases: dict[str, tuple[np.ndarray, bool]] = {
            "itself": (frame, True),
            "dimmer, brighter": (cv2.convertScaleAbs(frame, alpha=0.7, beta=25), True),
            "noise": (np.clip(frame + rng.normal(0, 6, frame.shape), 0, 255).astype(np.uint8), True),
            "JPEG 40": (np.asarray(cv2.imdecode(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 40])[1], 1)), True),
            "shifted 0.4%": (shifted(frame, 0.004 * r, 0), True),
            "shifted 2%": (shifted(frame, 0.02 * r, 0), False),
            "shifted 4%": (shifted(frame, 0, 0.04 * r), False),
            "next scene": (frames[(i + 1) % len(frames)], False),
            "scene 7 on": (frames[(i + 7) % len(frames)], False),
        }
        for name, (image, same) in cases.items():
            start = time.process_time()
            by_look = look.matches(image)
            middle = time.process_time()
            by_refit = still_there(image, bowl)
            seconds["look"].append(middle - start)
            seconds["refit"].append(time.process_time() - middle)
            counts = right.setdefault(name, [0, 0, 0])
            counts[0] += by_look == same
            counts[1] += by_refit == same
            counts[2] += 1
    print(f"{'case':18s} {'same bowl':>9s} {'rim look':>9s} {'refit':>9s}")
    for name, (look_right, refit_right, n) in right.items():
        print(f"{name:18s} {str(cases[name][1]):>9s} {look_right:>5d}/{n:<3d} {refit_right:>5d}/{n:<3d}")
    print("median CPU time: " + ", ".join(f"{k} {statistics.median(v) * 1000:.2f} ms" for k, v in seconds.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
