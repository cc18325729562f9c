"""`bobing synth OUTDIR --count N --seed S [--clips K]`: generated bowl scenes and throw clips."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bobing_vision.synth.config import MAX_TILT_DEG, SceneSpec

HELP = "generate labelled bowl scenes and throw clips"


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number of 0 or more, got {text!r}")
    return value


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 640x480, got {text!r}") from None
    if not (64 <= w <= 4096 and 64 <= h <= 4096):
        raise argparse.ArgumentTypeError(f"expected 64..4096 pixels a side, got {text!r}")
    return (w, h)


def _range(text: str) -> tuple[float, float]:
    try:
        low, high = (float(v) for v in text.split("-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected LOW-HIGH such as 1.0-1.4, got {text!r}") from None
    return (low, high)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bobing synth", description=HELP)
    parser.add_argument("outdir", type=Path, help="folder for the images, labels.json and clips/")
    parser.add_argument("--count", type=_count, default=100, help="scenes to write (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="the same seed writes the same files")
    parser.add_argument("--clips", type=_count, default=0, help="throw clips to write under clips/")
    parser.add_argument("--clip-seed", type=int, help="seed of the clips (default: --seed)")
    parser.add_argument("--size", type=_size, help="frame size of every scene, e.g. 640x480 (default: mixed)")
    parser.add_argument("--clip-size", type=_size, help="frame size of the clips (default: mixed, <= 640x480)")
    parser.add_argument("--clip-fps", type=float, help="frames per second of the clips (default: 15..30)")
    parser.add_argument("--bowl-paint", metavar="PAINT",
                        help="paint every bowl: qinghua (blue) or youlihong (red), the scenes otherwise the same")
    parser.add_argument("--bowl-fill", type=_range, metavar="LOW-HIGH",
                        help="share of the frame height the rim spans, e.g. 1.0-1.4 for a camera close in "
                             "(default: the whole rim in view)")
    parser.add_argument("--floor-share", type=_range, default=SceneSpec.floor_share, metavar="LOW-HIGH",
                        help="the bowl's flat floor as a share of the rim's radius, e.g. 0.6-0.85 for wide floors "
                             f"where dice rest near the wall (default {SceneSpec.floor_share[0]:g}-"
                             f"{SceneSpec.floor_share[1]:g})")
    parser.add_argument("--max-tilt", type=float, default=SceneSpec.max_tilt_deg, metavar="DEG",
                        help=f"how far off vertical the camera may look, 0..{MAX_TILT_DEG:g} degrees (default "
                             f"{SceneSpec.max_tilt_deg:g}: a webcam over the bowl; 60: phone photos from the side)")
    parser.add_argument("--sheet", type=Path, metavar="JPG", help="also write a contact sheet of the first 48 scenes")
    parser.add_argument("--quiet", action="store_true", help="print only the summary")
    return parser


def _award_of(faces: Any) -> dict[str, Any] | None:
    from bobing_vision.rules import classify

    award = classify(tuple(faces))
    return {"category": award.category.name, "zh": award.category.zh, "en": award.category.en,
            "tier": None if award.tier is None else award.tier.name}


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    import cv2

    from bobing_vision.errors import BobingError
    from bobing_vision.synth import ClipSpec, SceneSpec, contact_sheet, generate

    cv2.setNumThreads(1)
    if args.outdir.exists() and not args.outdir.is_dir():
        print(f"bobing synth: expected a folder for OUTDIR, got the file {args.outdir}", file=sys.stderr)
        return 2
    try:
        clip_spec = ClipSpec(size=args.clip_size, fps=args.clip_fps)
        scene_spec = SceneSpec(size=args.size, bowl_paint=args.bowl_paint, bowl_fill=args.bowl_fill,
                               floor_share=args.floor_share, max_tilt_deg=args.max_tilt)
        labels = generate(args.outdir, args.count, args.seed, args.clips, scene_spec, clip_spec, _award_of,
                          None if args.quiet else (lambda name: print(f"  {name}")), args.clip_seed)
        if args.sheet is not None:
            names = sorted(labels)[:48]
            if not names:
                raise BobingError("expected at least one scene for --sheet, got --count 0")
            images = [image for n in names if (image := cv2.imread(str(args.outdir / n))) is not None]
            args.sheet.parent.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(args.sheet), contact_sheet(images), [cv2.IMWRITE_JPEG_QUALITY, 85])
    except (BobingError, OSError) as exc:
        print(f"bobing synth: {exc}", file=sys.stderr)
        return 1
    dice = sum(len(label.dice) for label in labels.values())
    print(f"bobing synth: {len(labels)} scenes ({dice} dice) and {args.clips} clips in {args.outdir}")
    return 0
