"""Pictures of an evaluation: what the reader found, and every mistake against the labels on top.

The reading itself is drawn by `bobing_vision.vision.draw.annotate` when that exists (one look for
readings everywhere); this module adds only what a label can tell: missed dice, extra dice, wrong
faces and wrong in/out-of-bowl flags.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from bobing_vision.errors import InvalidInput
from bobing_vision.evaluation.harness import image_path
from bobing_vision.evaluation.scoring import ImageResult
from bobing_vision.vision.reading import Box, Reading

Colour = tuple[int, int, int]  # BGR


@dataclass(frozen=True)
class MistakeStyle:
    found: Colour = (60, 200, 60)  # green: a found die, only when vision.draw is not there to draw it
    missed: Colour = (0, 0, 255)  # red: the loudest colour for the worst mistake
    extra: Colour = (255, 0, 255)  # magenta: stands out on white dice, grey trays and blue glaze
    wrong_face: Colour = (0, 165, 255)  # orange: found, but read wrong
    wrong_in_bowl: Colour = (255, 255, 0)  # cyan: right die, wrong side of the rim
    text_height: float = 0.025  # text height as a share of the image's shorter side: readable at 640 px
    line_share: float = 0.004  # line width as a share of the shorter side, at least 1 px
    missed_radius: float = 0.02  # a missed die labelled by centre only: ring radius, share of the shorter side


def _draw_reading(frame: np.ndarray, reading: Reading, style: MistakeStyle) -> np.ndarray:
    """The reading as vision.draw draws it, or plain boxes and faces until that module exists."""
    try:
        from bobing_vision.vision.draw import annotate
    except ImportError:
        out = frame.copy()
        for die in reading.dice:
            _box(out, die.box, style.found, str(die.face) if die.face is not None else "?", style)
        return out
    return np.asarray(annotate(frame.copy(), reading))


def _scale(image: np.ndarray, style: MistakeStyle) -> tuple[float, int]:
    side = min(image.shape[:2])
    font_scale = side * style.text_height / 22  # Hershey simplex is ~22 px tall at scale 1
    return font_scale, max(1, round(side * style.line_share))


def _text(image: np.ndarray, text: str, org: tuple[int, int], colour: Colour, style: MistakeStyle) -> None:
    font_scale, thickness = _scale(image, style)
    x, y = max(0, org[0]), max(int(22 * font_scale), org[1])
    for ink, extra in (((0, 0, 0), 2), (colour, 0)):  # dark outline first: readable on any background
        cv2.putText(image, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, font_scale, ink, thickness + extra, cv2.LINE_AA)


def _box(image: np.ndarray, box: Box, colour: Colour, text: str, style: MistakeStyle) -> None:
    _, thickness = _scale(image, style)
    x0, y0, x1, y1 = (round(v) for v in box)
    cv2.rectangle(image, (x0, y0), (x1, y1), colour, thickness)
    _text(image, text, (x0, y0 - 3), colour, style)


def annotate_mistakes(frame: np.ndarray, result: ImageResult, style: MistakeStyle = MistakeStyle()) -> np.ndarray:
    """A copy of `frame` with the reading and every mistake against the labels drawn on it."""
    out = _draw_reading(frame, result.reading, style)
    _, thickness = _scale(out, style)
    for label in result.missed:
        text = f"missed {label.face}"
        if label.box is not None:
            _box(out, label.box, style.missed, text, style)
        else:
            cx, cy = (round(v) for v in label.center)
            cv2.circle(out, (cx, cy), round(min(out.shape[:2]) * style.missed_radius), style.missed, thickness)
            _text(out, text, (cx, cy), style.missed, style)
    for die in result.extra:
        _box(out, die.box, style.extra, "extra", style)
    for pair in result.wrong_faces:
        read = "?" if pair.found.face is None else str(pair.found.face)
        _box(out, pair.found.box, style.wrong_face, f"read {read}, is {pair.label.face}", style)
    for pair in result.wrong_in_bowl:
        said, truth = ("in", "out") if pair.found.in_bowl else ("out", "in")
        x0, _, _, y1 = pair.found.box
        _text(out, f"said {said}, is {truth}", (round(x0), round(y1) + int(30 * _scale(out, style)[0])),
              style.wrong_in_bowl, style)
    colour = style.missed if result.errors else style.found
    _text(out, f"{result.file}: {result.errors} mistakes", (5, 5), colour, style)
    return out


def write_annotation(outdir: Path | str, result: ImageResult, image: np.ndarray) -> Path:
    """Save `image` under `outdir` with the labelled file's name (JPEG when OpenCV cannot write the kind)."""
    path = image_path(Path(outdir), result.file)
    if not cv2.haveImageWriter(str(path)):
        path = path.with_suffix(".jpg")
    ok, encoded = cv2.imencode(path.suffix, image)
    try:
        if not ok:
            raise OSError("the encoder refused the picture")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(encoded.tobytes())  # not cv2.imwrite: that fails silently on non-ASCII paths
    except OSError as exc:
        raise InvalidInput(f"expected a writable output folder, got {path}: {exc}") from None
    return path
