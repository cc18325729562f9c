"""`bobing eval DIR`: score the dice reader on a labelled image set (DATA.md format)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bobing_vision.cli.arguments import positive_int

if TYPE_CHECKING:
    from bobing_vision.vision.reading import DiceReader

HELP = "score the dice reader on a labelled image set"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bobing eval", description=HELP)
    parser.add_argument("folder", type=Path, help="a folder of images with its labels.json")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument("--annotate", type=Path, metavar="OUTDIR", help="draw found dice and every mistake here")
    parser.add_argument("--limit", type=positive_int, metavar="N", help="only the first N labelled images by name")
    parser.add_argument("--worst", type=positive_int, default=10, metavar="N", help="how many worst images to name")
    parser.add_argument("--models", type=Path, metavar="DIR", help="the ONNX models (default: models/)")
    return parser


def _default_reader(models: Path | None = None) -> DiceReader | str:
    """The real reader, or a one-line reason it cannot be had."""
    try:
        from bobing_vision.vision.pipeline import OnnxDiceReader
    except ImportError as exc:
        return f"the dice reader (bobing_vision.vision.pipeline.OnnxDiceReader) is not available: {exc}"
    from bobing_vision.errors import BobingError

    try:
        return OnnxDiceReader(models_dir=models, track_bowl=False)  # a labelled set is unrelated photos, not one camera
    except (BobingError, OSError) as exc:
        return f"the dice reader cannot start: {exc}"


def main(argv: list[str] | None = None, *, reader: DiceReader | None = None) -> int:
    """`reader` replaces the ONNX reader (tests pass a fake)."""
    args = _parser().parse_args(argv)
    import json

    import cv2
    import numpy as np

    from bobing_vision.dataset.labels import LABELS_FILE, is_labelled_set
    from bobing_vision.errors import InvalidInput
    from bobing_vision.evaluation import evaluate, format_table, to_json
    from bobing_vision.evaluation.draw import annotate_mistakes, write_annotation
    from bobing_vision.evaluation.scoring import ImageResult

    cv2.setNumThreads(1)  # one core: the machine is shared, and timings stay comparable run to run
    if args.annotate is not None and args.annotate.resolve() == args.folder.resolve():
        print("bobing eval: expected an --annotate folder other than the set's own, got the same", file=sys.stderr)
        return 2
    if not is_labelled_set(args.folder):  # before the reader: its models take a while to load
        print(f"bobing eval: expected a labelled set (a folder with {LABELS_FILE}), got {args.folder}", file=sys.stderr)
        return 2
    if reader is None:
        found = _default_reader(args.models)
        if isinstance(found, str):
            print(f"bobing eval: {found}", file=sys.stderr)
            return 2
        reader = found

    def draw(frame: np.ndarray, result: ImageResult) -> None:
        write_annotation(args.annotate, result, annotate_mistakes(frame, result))

    try:
        evaluation = evaluate(args.folder, reader, limit=args.limit, on_image=draw if args.annotate else None)
    except InvalidInput as exc:
        print(f"bobing eval: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(to_json(evaluation, args.worst), ensure_ascii=False))
    else:
        print(format_table(evaluation, args.worst))
    return 0
