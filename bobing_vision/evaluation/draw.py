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
    missed_radius: float = 0.02  # a missed die labelled by centre only: half its square, share of the shorter side


def _draw_reading(frame: np.ndarray, reading: Reading, style: MistakeStyle) -> np.ndarray:
    """The reading as vision.draw draws it, or plain boxes and faces until that module exists."""
    try:
        from bobing_vision.vision.draw import annotate
    except ImportError:
        out = frame.copy()
        for die in reading.dice:
            x0, y0, x1, y1 = (round(v) for v in die.box)
            cv2.rectangle(out, (x0, y0), (x1, y1), style.found, _scale(out, style)[1])
            _text(out, "?" if die.face is None else str(die.face), (x0, y0 - 3), style.found, style)
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


def _notes(image: np.ndarray, box: Box, colour: Colour, notes: list[str], style: MistakeStyle) -> None:
    """Outline `box` and write `notes` beside it, one a line: the reading's own labels sit above and below."""
    font_scale, thickness = _scale(image, style)
    x0, y0, x1, y1 = (round(v) for v in box)
    cv2.rectangle(image, (x0, y0), (x1, y1), colour, thickness)
    line = round(26 * font_scale)
    for k, note in enumerate(notes):
        (width, _), _ = cv2.getTextSize(note, cv2.FONT_HERSHEY_SIMPLEX, font_scale, thickness + 2)
        gap = thickness + 2
        x = x1 + gap if x1 + gap + width <= image.shape[1] else x0 - gap - width  # left of it at the edge
        _text(image, note, (x, y0 + line * (k + 1)), colour, style)


def _found_notes(result: ImageResult, style: MistakeStyle) -> dict[int, tuple[Colour, list[str]]]:
    """Per found die (by index) with a mistake: the first mistake's colour and every mistake's note."""
    notes: dict[int, tuple[Colour, list[str]]] = {i: (style.extra, ["extra"]) for i in result.match.extra}
    for (_, fi), pair in zip(result.match.pairs, result.pairs):
        face, in_bowl = pair.found.face, pair.found.in_bowl
        lines: list[str] = []
        if not pair.face_right:
            lines.append(f"read {'?' if face is None else face}, is {pair.label.face}")
        if pair.misplaced:
            lines.append(f"said {'in' if in_bowl else 'out'}, is {'out' if in_bowl else 'in'}")
        if lines:
            notes[fi] = (style.wrong_face if not pair.face_right else style.wrong_in_bowl, lines)
    return notes


def annotate_mistakes(frame: np.ndarray, result: ImageResult, style: MistakeStyle = MistakeStyle()) -> np.ndarray:
    """A copy of `frame` with the reading and every mistake against the labels drawn on it.

    Missed dice in red (their labelled box, or a square at the labelled centre), extra dice in magenta,
    wrong faces in orange, wrong in/out flags in cyan, the file's mistake count at the bottom.
    """
    out = _draw_reading(frame, result.reading, style)
    for label in result.missed:
        if label.box is not None:
            box = label.box
        else:  # labelled by centre only: a square of a typical die's size around it
            r = min(out.shape[:2]) * style.missed_radius
            cx, cy = label.center
            box = (cx - r, cy - r, cx + r, cy + r)
        _notes(out, box, style.missed, [f"missed {label.face}"], style)
    for fi, (colour, notes) in _found_notes(result, style).items():
        _notes(out, result.reading.dice[fi].box, colour, notes, style)
    colour = style.missed if result.errors else style.found
    _text(out, f"{result.file}: {result.errors} mistakes", (5, out.shape[0] - 8), colour, style)
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
