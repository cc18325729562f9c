"""Throw clips drawn here, and a reader that knows them, for driving the whole loop fast.

A `Script` is a list of throws; each throw is some frames of dice tumbling (every frame different)
then still frames. `FrameBook` remembers the reading each drawn frame stands for, so `BookReader`
answers exactly like a perfect reader would — the loop, settle detector and game are what is tested.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field

import cv2
import numpy as np

from bobing_vision.live.sources import Frame, NoticeKind, SourceNotice
from bobing_vision.vision.reading import Bowl, DieReading, Reading, ReadingStatus

W, H = 320, 240
BOWL = Bowl(cx=160, cy=120, rx=100, ry=100)
FPS = 30.0


@dataclass(frozen=True)
class Throw:
    faces: str  # six faces; "?" an unreadable die; "x" a die out of the bowl
    moving: int = 12  # frames of tumbling
    still: int = 30  # frames lying still afterwards
    hand: bool = False  # the still part has a hand covering two dice (four dice seen)
    jitter: bool = False  # the reader flips between two answers on still frames
    die_px: float = 24.0  # the width of the dice's boxes in the readings (drawn 12 px whatever it is)
    bowl: Bowl = BOWL  # the rim in the readings (drawn as BOWL whatever it is)
    porcelain: int = 235  # the bowl's grey level: 255 is a camera over-exposed to pure white


def _key(image: np.ndarray) -> str:
    return hashlib.sha1(image.tobytes()).hexdigest()


@dataclass
class FrameBook:
    readings: dict[str, list[Reading]] = field(default_factory=dict)

    def add(self, image: np.ndarray, readings: list[Reading]) -> None:
        self.readings[_key(image)] = readings


class BookReader:
    """A stand-in DiceReader: the reading recorded for this very frame (in turn, for jitter)."""

    def __init__(self, book: FrameBook) -> None:
        self.book = book
        self.calls = 0

    def read(self, frame: np.ndarray) -> Reading:
        self.calls += 1
        options = self.book.readings.get(_key(frame))
        if not options:
            return Reading(dice=(), bowl=None, status=ReadingStatus.NO_BOWL)
        return options[self.calls % len(options)]


def _draw(positions: list[tuple[float, float]], hand: bool, porcelain: int = 235) -> np.ndarray:
    img = np.full((H, W, 3), (90, 60, 40), np.uint8)
    cv2.circle(img, (160, 120), 100, (porcelain,) * 3, -1)
    for x, y in positions:
        cv2.rectangle(img, (int(x) - 6, int(y) - 6), (int(x) + 6, int(y) + 6), (250, 250, 250), -1)
        cv2.rectangle(img, (int(x) - 6, int(y) - 6), (int(x) + 6, int(y) + 6), (30, 30, 30), 1)
        cv2.circle(img, (int(x), int(y)), 2, (0, 0, 200), -1)
    if hand:
        cv2.ellipse(img, (150, 100), (45, 30), 20, 0, 360, (120, 150, 200), -1)
    return img


def _reading(faces: str, positions: list[tuple[float, float]], hand: bool, die_px: float = 24.0,
             bowl: Bowl = BOWL) -> Reading:
    dice, half = [], die_px / 2
    for i, (ch, (x, y)) in enumerate(zip(faces, positions)):
        if hand and i < 2:
            continue  # covered by the hand
        dice.append(DieReading(center=(x, y), box=(x - half, y - half, x + half, y + half),
                               face=None if ch == "?" else (1 if ch == "x" else int(ch)), confidence=0.9,
                               in_bowl=ch != "x"))
    in_bowl = [d for d in dice if d.in_bowl]
    if len(in_bowl) != 6 and not any(not d.in_bowl for d in dice):
        status = ReadingStatus.WRONG_DICE_COUNT
    elif any(not d.in_bowl for d in dice):
        status = ReadingStatus.OUT_OF_BOWL
    elif any(d.face is None for d in dice):
        status = ReadingStatus.UNREADABLE
    else:
        status = ReadingStatus.OK
    return Reading(dice=tuple(dice), bowl=bowl, status=status)


def render(script: list[Throw], rng: np.random.Generator, book: FrameBook, lead_in: int = 5) -> list[np.ndarray]:
    """Frames of the whole script; every frame's reading goes into `book`."""
    frames: list[np.ndarray] = []
    empty = _draw([], False)
    for _ in range(lead_in):
        frames.append(empty)
    book.add(empty, [Reading(dice=(), bowl=BOWL, status=ReadingStatus.WRONG_DICE_COUNT)])
    for throw in script:
        pos = [(160 + rng.uniform(-60, 60), 120 + rng.uniform(-60, 60)) for _ in range(6)]
        for _ in range(throw.moving):
            pos = [(min(300, max(20, x + rng.uniform(-12, 12))), min(220, max(20, y + rng.uniform(-12, 12)))) for x, y in pos]
            img = _draw(pos, False, throw.porcelain)
            frames.append(img)
            noisy = "".join(str(rng.integers(1, 7)) for _ in range(6))  # blur reads as nonsense
            book.add(img, [_reading(noisy, pos, False)])
        final = [(x, y) if ch != "x" else (300.0, 25.0 + 10 * i) for i, (ch, (x, y)) in enumerate(zip(throw.faces, pos))]
        still = _draw(final, throw.hand, throw.porcelain)
        options = [_reading(throw.faces, final, throw.hand, throw.die_px, throw.bowl)]
        if throw.jitter:
            flipped = throw.faces[:-1] + ("1" if throw.faces[-1] != "1" else "2")
            options.append(_reading(flipped, final, throw.hand, throw.die_px, throw.bowl))
        book.add(still, options)
        frames.extend([still] * throw.still)
    return frames


class ListSource:
    """Frames from a list, played like a file (every frame, video time)."""

    name = "test clip"

    def __init__(self, images: list[np.ndarray], fps: float = FPS) -> None:
        self.images = images
        self.fps = fps
        self.closed = False

    def items(self) -> Iterator[Frame | SourceNotice]:
        for i, img in enumerate(self.images):
            if self.closed:
                return
            yield Frame(image=img, t=i / self.fps, index=i)
        yield SourceNotice(NoticeKind.ENDED, "end of test clip")

    def close(self) -> None:
        self.closed = True




class Recorder:
    """An announcer that keeps what it is told."""

    def __init__(self) -> None:
        self.announced: list = []
        self.notices: list[str] = []
        self.frames = 0

    def announce(self, announcement, table) -> None:  # type: ignore[no-untyped-def]
        self.announced.append(announcement)

    def notice(self, message: str) -> None:
        self.notices.append(message)

    def frame(self, image, table, last) -> None:  # type: ignore[no-untyped-def]
        self.frames += 1

    def close(self) -> None:
        return None
