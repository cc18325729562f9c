"""Draw a reading onto a copy of its frame: pure, it only shows what the reading says.

Colours: green a die read in the bowl, orange a die in the bowl that could not be read (a "?"), red a
die outside the bowl; the rim in yellow; a bar on top with the status and, when there is one, the
award. OpenCV's Hershey fonts have no Chinese glyphs, so the text is the English names.
"""

from __future__ import annotations

import cv2
import numpy as np

from bobing_vision.vision.pipeline import normalize_frame
from bobing_vision.vision.reading import Bowl, DieReading, Reading, ReadingStatus

Color = tuple[int, int, int]
READ: Color = (60, 200, 60)
UNREADABLE: Color = (0, 150, 255)
OUTSIDE: Color = (40, 40, 230)
RIM: Color = (0, 220, 240)
BAR: Color = (30, 30, 30)
TEXT: Color = (255, 255, 255)
FONT = cv2.FONT_HERSHEY_SIMPLEX


def die_color(die: DieReading) -> Color:
    if not die.in_bowl:
        return OUTSIDE
    return READ if die.readable else UNREADABLE


def headline(reading: Reading) -> str:
    """The bar's text: the status message, and the award's English name when there is one."""
    award = reading.award
    if reading.status is ReadingStatus.OK and award is not None:
        category = getattr(award, "category", None)
        name = getattr(category, "en", str(category))
        faces = "".join(str(f) for f in reading.faces)
        bonus = getattr(award, "bonus", ())
        extra = " + " + ", ".join(getattr(b, "en", str(b)) for b in bonus) if bonus else ""
        return f"{faces}: {name}{extra}"
    return reading.message


def annotate(frame: np.ndarray, reading: Reading) -> np.ndarray:
    """A new BGR frame with the bowl, each die and the status drawn on it; `frame` is not changed."""
    out = normalize_frame(frame).copy()
    unit = max(out.shape[:2]) / 640  # line widths and text sizes follow the frame size
    thick = max(1, round(2 * unit))
    if reading.bowl is not None:
        _rim(out, reading.bowl, thick)
    for number, die in enumerate(reading.dice, start=1):
        color = die_color(die)
        x0, y0, x1, y1 = (round(v) for v in die.box)
        cv2.rectangle(out, (x0, y0), (x1, y1), color, thick, cv2.LINE_AA)
        label = f"{die.face if die.readable else '?'}" + ("" if die.in_bowl else " out")
        _text(out, label, (x0, y0 - round(4 * unit)), 0.6 * unit, color, thick)
        _text(out, f"#{number}", (x0, y1 + round(16 * unit)), 0.45 * unit, color, max(1, thick - 1))
    _bar(out, headline(reading), READ if reading.status is ReadingStatus.OK else UNREADABLE)
    return out


def draw_bowl(frame: np.ndarray, bowl: Bowl | None, caption: str) -> np.ndarray:
    """A new frame with only the rim and a caption: the picture `bobing calibrate` asks a person to check."""
    out = normalize_frame(frame).copy()
    if bowl is not None:
        _rim(out, bowl, max(1, round(2 * max(out.shape[:2]) / 640)))
    _bar(out, caption, READ if bowl is not None else UNREADABLE)
    return out


def _rim(image: np.ndarray, bowl: Bowl, thick: int) -> None:
    center = (round(bowl.cx), round(bowl.cy))
    cv2.ellipse(image, center, (round(bowl.rx), round(bowl.ry)), bowl.angle_deg, 0, 360, RIM, thick, cv2.LINE_AA)
    cv2.drawMarker(image, center, RIM, cv2.MARKER_CROSS, 4 * thick + 8, thick)


def _bar(image: np.ndarray, text: str, color: Color) -> None:
    unit = max(image.shape[:2]) / 640
    cv2.rectangle(image, (0, 0), (image.shape[1], round(30 * unit)), BAR, -1)
    _text(image, text, (round(8 * unit), round(21 * unit)), 0.65 * unit, color, max(1, round(2 * unit)))


def ascii_text(text: str) -> str:
    """Hershey fonts are ASCII only: a dash for the em dash, anything else non-ASCII left out."""
    return text.replace("\u2014", "-").encode("ascii", "ignore").decode()


def _text(image: np.ndarray, text: str, origin: tuple[int, int], scale: float, color: Color, thick: int) -> None:
    """Text with a dark outline, readable on white porcelain and on a dark table alike."""
    text = ascii_text(text)
    x, y = origin
    y = max(y, round(12 * scale / 0.45))  # keep labels of dice at the top edge inside the frame
    cv2.putText(image, text, (x, y), FONT, scale, (0, 0, 0), thick + 2, cv2.LINE_AA)
    cv2.putText(image, text, (x, y), FONT, scale, color, thick, cv2.LINE_AA)
