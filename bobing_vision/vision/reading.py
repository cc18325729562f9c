"""What the dice reader says about one frame: plain frozen data, no OpenCV.

A frame that cannot be scored is data, not an exception: most live frames are mid-roll, so a
`Reading` always carries a `ReadingStatus` and an award only when six readable dice are in the bowl.
"""

from __future__ import annotations

import enum
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

import numpy as np

from bobing_vision.errors import InvalidInput
from bobing_vision.geometry import Ellipse

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in pixels of the frame as given


Offset = TypeVar("Offset", float, np.ndarray)


@dataclass(frozen=True)
class Bowl:
    """The bowl's rim as an ellipse, in frame pixels (angle in degrees, OpenCV's convention)."""

    cx: float
    cy: float
    rx: float
    ry: float
    angle_deg: float = 0.0

    def __post_init__(self) -> None:
        if not (self.rx > 0 and self.ry > 0):
            raise InvalidInput(f"bowl radii must be positive, got rx={self.rx}, ry={self.ry}")

    @property
    def ellipse(self) -> Ellipse:
        """As DATA.md writes it: [cx, cy, rx, ry, angle_deg]."""
        return (self.cx, self.cy, self.rx, self.ry, self.angle_deg)

    def rim_units(self, dx: Offset, dy: Offset) -> tuple[Offset, Offset]:
        """Offsets in frame pixels (numbers or arrays) along the rim's own axes, in its radii: the
        camera's tilt undone, as a circle is the ellipse seen."""
        t = math.radians(self.angle_deg)
        cos, sin = math.cos(t), math.sin(t)
        return (dx * cos + dy * sin) / self.rx, (-dx * sin + dy * cos) / self.ry

    def normalized_radius(self, point: Point) -> float:
        """0 at the centre, 1 on the rim, >1 outside: the ellipse's own distance of a point."""
        return math.hypot(*self.rim_units(point[0] - self.cx, point[1] - self.cy))

    def contains(self, point: Point) -> bool:
        return self.normalized_radius(point) <= 1.0


def box_width(box: Box) -> float:
    """A die's width in pixels from its box (x0, y0, x1, y1): the mean of the box's sides."""
    x0, y0, x1, y1 = box
    return ((x1 - x0) + (y1 - y0)) / 2


MIN_DICE_FOR_WIDTH = 3  # fewer dice say too little about their size (one may be a coin or a pip)


def dice_median_width(widths: Sequence[float]) -> float | None:
    """The median of a throw's die widths; None with fewer than MIN_DICE_FOR_WIDTH, too few to say."""
    return statistics.median(widths) if len(widths) >= MIN_DICE_FOR_WIDTH else None


@dataclass(frozen=True)
class DieReading:
    """One die found in a frame. `face` is None exactly when the die could not be read."""

    center: Point
    box: Box
    face: int | None
    confidence: float
    in_bowl: bool = True

    def __post_init__(self) -> None:
        if self.face is not None and not (isinstance(self.face, int) and 1 <= self.face <= 6):
            raise InvalidInput(f"a die's face must be an int 1..6 or None, got {self.face!r}")
        if not 0.0 <= self.confidence <= 1.0:
            raise InvalidInput(f"confidence must be in [0, 1], got {self.confidence}")

    @property
    def readable(self) -> bool:
        return self.face is not None

    @property
    def width(self) -> float:
        return box_width(self.box)


class ReadingStatus(enum.Enum):
    """Why a frame does or does not give an award; the value is the message a person sees."""

    OK = "ok"
    NO_BOWL = "no bowl in view"
    WRONG_DICE_COUNT = "dice seen is not six"
    OUT_OF_BOWL = "void: die out of the bowl"
    UNREADABLE = "can't read a die"


@dataclass(frozen=True)
class Reading:
    """The reader's verdict on one frame.

    `award` is a `bobing_vision.rules.Award` when status is OK, otherwise None. It is typed loosely
    here so that this module does not depend on the rules core's internals.
    """

    dice: tuple[DieReading, ...]
    bowl: Bowl | None
    status: ReadingStatus
    award: object | None = None
    seconds: float = 0.0
    notes: tuple[str, ...] = field(default=())

    @property
    def faces(self) -> tuple[int, ...]:
        """The in-bowl faces that were read, sorted."""
        return tuple(sorted(d.face for d in self.dice if d.in_bowl and d.face is not None))

    @property
    def message(self) -> str:
        """A person's sentence for the status: '5 dice seen', 'can't read die 3 — please look'."""
        if self.status is ReadingStatus.WRONG_DICE_COUNT:
            n = sum(1 for d in self.dice if d.in_bowl)
            out = len(self.dice) - n
            return f"{n} dice seen" + (f" and {out} outside the bowl — please look" if out else "")
        if self.status is ReadingStatus.UNREADABLE:
            bad = [i + 1 for i, d in enumerate(self.dice) if not d.readable]
            which = ", ".join(str(i) for i in bad) or "?"
            return f"can't read die {which} — please look"
        return self.status.value


class DiceReader(Protocol):
    """Anything that turns one BGR frame (H x W x 3, uint8) into a Reading."""

    def read(self, frame: np.ndarray) -> Reading: ...
