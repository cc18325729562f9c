"""`bobing calibrate --source SRC`: find the bowl once, save it, and write a picture to check it by eye.

SRC is an image file, a video file, a folder of images, a stream URL or a camera index. Several frames
are searched and the bowl most like the others is kept, so a hand over the rim in one frame is outvoted.
With dice in the bowl, it also says whether the camera sees them big enough to read.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import deque
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bobing_vision.cli.arguments import positive_int

if TYPE_CHECKING:
    import numpy as np

    from bobing_vision.vision.reading import Bowl

HELP = "find the bowl in a camera view and save it"
# The dice are measured in the last few frames, in the one showing most of them: a hand reaching in to
# set the dice down covers them in some frames, not in all.
DICE_CHECK_FRAMES = 5


def _parser() -> argparse.ArgumentParser:
    from bobing_vision.vision.calibration import DEFAULT_PATH

    parser = argparse.ArgumentParser(prog="bobing calibrate", description=HELP)
    parser.add_argument("--source", required=True, metavar="SRC",
                        help="an image, a video, a folder of images, a stream URL or a camera index (0)")
    parser.add_argument("--out", type=Path, default=DEFAULT_PATH, metavar="FILE",
                        help=f"where to save the bowl (default {DEFAULT_PATH})")
    parser.add_argument("--frames", type=positive_int, default=15, metavar="N", help="frames to search (default 15)")
    parser.add_argument("--seconds", type=float, default=15.0, metavar="S",
                        help="give up on a camera or stream after this long (default 15)")
    parser.add_argument("--models", type=Path, metavar="DIR", help="the ONNX models for the dice check (default: models/)")
    return parser


def check_path(out: Path) -> Path:
    """The check picture sits next to the calibration file: bowl.json -> bowl.check.jpg."""
    return out.with_name(out.stem + ".check.jpg")


def frames(source: str, count: int, seconds: float) -> Iterator[np.ndarray]:
    """Up to `count` frames of the source, within `seconds` for live sources."""
    from bobing_vision.live.sources import Frame, open_source
    from bobing_vision.vision.imageio import is_image_name, load_image

    path = Path(source)
    if path.is_file() and is_image_name(path):
        yield load_image(path)
        return
    feed = open_source(source)
    deadline = time.monotonic() + seconds
    taken = 0
    try:
        for item in feed.items():
            if isinstance(item, Frame):
                yield item.image
                taken += 1
            if taken >= count or time.monotonic() > deadline:
                return
    finally:
        feed.close()


def dice_check(views: Sequence[np.ndarray], bowl: Bowl, models: Path | None) -> str:
    """One line on the dice in the bowl: their size in pixels, and what to change if they are too small.
    Measured in the frame with the most dice in the bowl (the latest of those)."""
    from bobing_vision.errors import BobingError
    from bobing_vision.vision.camera_advice import dice_width, size_advice
    from bobing_vision.vision.pipeline import OnnxDiceReader

    try:
        reader = OnnxDiceReader(models_dir=models, bowl=bowl, track_bowl=False)
        readings = [reader.read(view) for view in views]
    except (BobingError, OSError) as exc:
        return f"dice not checked: {exc}"
    fullest = max(reversed(readings), key=lambda r: sum(d.in_bowl for d in r.dice))
    width = dice_width(fullest)
    if width is None:
        return "no dice seen in the bowl: put the six dice in and calibrate again to check the camera sees them big enough"
    return size_advice(width) or f"dice seen {width:.0f} px wide: big enough to read"


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    import cv2

    from bobing_vision.errors import BobingError
    from bobing_vision.vision.bowl import find_bowl, rim_in_view
    from bobing_vision.vision.calibration import Calibration, consensus, save_calibration
    from bobing_vision.vision.camera_advice import (
        camera_tilt, exposure_advice, rim_advice, tilt_advice, washed_out_share,
    )
    from bobing_vision.vision.config import BowlConfig
    from bobing_vision.vision.draw import draw_bowl

    found, last, seen = [], None, 0
    recent: deque[np.ndarray] = deque(maxlen=DICE_CHECK_FRAMES)
    try:
        for frame in frames(args.source, args.frames, args.seconds):
            seen += 1
            last = frame
            recent.append(frame)
            bowl = find_bowl(frame)
            if bowl is not None:
                found.append(bowl)
    except BobingError as exc:
        print(f"bobing calibrate: {exc}", file=sys.stderr)
        return 2
    if last is None:
        print(f"bobing calibrate: expected frames from {args.source}, got none in {args.seconds:g} s", file=sys.stderr)
        return 1
    bowl = consensus(found)
    height, width = last.shape[:2]
    picture = check_path(args.out)
    try:
        picture.parent.mkdir(parents=True, exist_ok=True)
        if bowl is None:
            cv2.imwrite(str(picture), draw_bowl(last, None, "no bowl found: show the whole rim"))
            print(f"bobing calibrate: no bowl found in {seen} frame(s) of {args.source}; show the whole rim (at "
                  f"least {BowlConfig().min_inside_frac:.0%} of it must be in view; see {picture})", file=sys.stderr)
            return 1
        saved = save_calibration(args.out, Calibration(bowl=bowl, width=width, height=height), source=args.source)
        cv2.imwrite(str(picture), draw_bowl(last, bowl, "yellow line on the rim? then calibrated"))
    except OSError as exc:
        print(f"bobing calibrate: cannot write {args.out}: {exc}", file=sys.stderr)
        return 2
    print(f"bowl found in {len(found)} of {seen} frame(s): centre ({bowl.cx:.0f}, {bowl.cy:.0f}), "
          f"radii {bowl.rx:.0f} x {bowl.ry:.0f} px at {bowl.angle_deg:.0f} deg in {width}x{height} frames")
    print(f"saved {saved}; check the picture {picture}")
    for advice in (rim_advice(rim_in_view(bowl.ellipse, width, height)),
                   exposure_advice(washed_out_share(last, bowl.ellipse)), tilt_advice(camera_tilt(bowl.ellipse))):
        if advice is not None:
            print(advice)
    print(dice_check(recent, bowl, args.models))
    return 0
