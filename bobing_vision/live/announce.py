"""Telling the table: the terminal (always), an overlay window (where a display exists), speech.

An announcer only shows what it is given (`Announcement`, `TableView`, a frame); what happened is
decided by the loop and the game. Every announcer must be cheap to call from the loop: slow work
(speech) happens in another process or thread.
"""

from __future__ import annotations

import enum
import os
import queue
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Protocol

import cv2
import numpy as np

from bobing_vision.rules import Award, Tier
from bobing_vision.vision.reading import ReadingStatus


class Outcome(enum.Enum):
    AWARD = "award"  # a scored throw, recorded for the player (it may win nothing)
    VOID = "void"  # a die out of the bowl: a void throw for the game
    LOOK = "look"  # a die could not be read: nothing recorded; correct it or throw again
    CORRECTED = "corrected"  # an operator replaced the last throw's faces
    VOIDED = "voided"  # an operator voided the last throw


@dataclass(frozen=True)
class ScoreRow:
    """One player's line of the scoreboard: prizes held per tier (best first), and the 状元 claim."""

    player: str
    prizes: tuple[tuple[Tier, int], ...]
    zhuangyuan: bool  # holds the provisional (or final) 状元


@dataclass(frozen=True)
class TableView:
    """What a display needs of the table game, as plain data."""

    players: tuple[str, ...]
    turn: str | None  # whose throw is next; None once the game is over
    scoreboard: tuple[ScoreRow, ...]
    prizes_left: tuple[tuple[Tier, int], ...]
    zhuangyuan: str | None  # the provisional 状元's holder and throw, in words
    over: str | None  # how the game ended, in words; None while it runs
    throws: int


@dataclass(frozen=True)
class Announcement:
    """One throw's result as people hear it; `text` is the full line."""

    outcome: Outcome
    player: str | None
    faces: tuple[int, ...]
    status: ReadingStatus
    award: Award | None
    prize: str | None  # what it won, in words ("一秀 (Xiucai) x1"); None when nothing
    text: str
    t: float


class Announcer(Protocol):
    def announce(self, announcement: Announcement, table: TableView) -> None: ...

    def notice(self, message: str) -> None: ...

    def frame(self, image: np.ndarray, table: TableView, last: Announcement | None) -> None: ...

    def close(self) -> None: ...


def award_words(award: Award) -> str:
    """'四红 Si Hong (four reds) + 一秀' — Chinese first, English after, bonuses appended."""
    extra = "".join(f" + {b.zh}" for b in award.bonus)
    return f"{award.category.zh} {award.category.en}{extra}"


def scoreboard_lines(table: TableView) -> list[str]:
    """The scoreboard as short text lines (terminal and overlay share it)."""
    lines = []
    for row in table.scoreboard:
        held = " ".join(f"{tier.zh}{count}" for tier, count in row.prizes if count) or "-"
        crown = " 👑状元" if row.zhuangyuan else ""
        lines.append(f"{row.player}: {held}{crown}")
    left = " ".join(f"{tier.zh}{count}" for tier, count in table.prizes_left)
    lines.append(f"left: {left}")
    if table.over:
        lines.append(f"game over: {table.over}")
    elif table.turn:
        lines.append(f"next: {table.turn}")
    return lines


class TerminalAnnouncer:
    """Plain lines to a text stream (the CLI passes stdout)."""

    def __init__(self, stream: IO[str], scoreboard: bool = True) -> None:
        self._out = stream
        self._scoreboard = scoreboard

    def _write(self, text: str) -> None:
        self._out.write(text + "\n")
        self._out.flush()

    def announce(self, announcement: Announcement, table: TableView) -> None:
        self._write(announcement.text)
        if self._scoreboard and announcement.outcome is not Outcome.LOOK:
            self._write("   " + " | ".join(scoreboard_lines(table)))

    def notice(self, message: str) -> None:
        self._write(f"[{message}]")

    def frame(self, image: np.ndarray, table: TableView, last: Announcement | None) -> None:
        return None

    def close(self) -> None:
        return None


def spoken_text(announcement: Announcement) -> str:
    """What speech says: English only (espeak's Mandarin voice reads names poorly), short."""
    who = f"{announcement.player}: " if announcement.player else ""
    if announcement.outcome in (Outcome.AWARD, Outcome.CORRECTED) and announcement.award is not None:
        tier = announcement.award.tier
        return f"{who}{announcement.award.category.en}" + (f", {tier.en.split(' (')[0]}" if tier else "")
    return f"{who}{announcement.text.split(': ', 1)[-1]}"


class SpeechAnnouncer:
    """Speaks each announcement through espeak-ng (a process) or pyttsx3 (a thread); never blocks."""

    def __init__(self, engine: str) -> None:
        self.engine = engine
        self._process: subprocess.Popen[bytes] | None = None
        self._pending: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        if engine == "pyttsx3":
            self._thread = threading.Thread(target=self._pyttsx3_worker, daemon=True)
            self._thread.start()

    @classmethod
    def available(cls) -> SpeechAnnouncer | None:
        """The first speech engine installed here, or None (then speech is silently off)."""
        for exe in ("espeak-ng", "espeak"):
            if shutil.which(exe):
                return cls(exe)
        try:
            import pyttsx3  # noqa: F401  (optional: only present where someone installed it)
        except Exception:  # pyttsx3 raises assorted errors when no audio driver loads
            return None
        return cls("pyttsx3")

    def _pyttsx3_worker(self) -> None:
        import pyttsx3

        engine = pyttsx3.init()
        while True:
            text = self._pending.get()
            while not self._pending.empty():
                text = self._pending.get()  # only the newest: an old result read late is misleading
            engine.say(text)
            engine.runAndWait()

    def say(self, text: str) -> None:
        if self.engine == "pyttsx3":
            self._pending.put(text)
            return
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()  # a new result interrupts the old one rather than queueing behind it
        self._process = subprocess.Popen(
            [self.engine, text], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

    def announce(self, announcement: Announcement, table: TableView) -> None:
        self.say(spoken_text(announcement))

    def notice(self, message: str) -> None:
        return None

    def frame(self, image: np.ndarray, table: TableView, last: Announcement | None) -> None:
        return None

    def close(self) -> None:
        """Let the last sentence finish (a few seconds at most), then stop the speech process."""
        if self._process is not None and self._process.poll() is None:
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._process.terminate()


def display_available() -> bool:
    """True where an OpenCV window can open: a GUI build of OpenCV and a display to put it on."""
    if "NONE" in _gui_line():  # opencv-python-headless: no highgui backend at all
        return False
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    return True


def _gui_line() -> str:
    for line in cv2.getBuildInformation().splitlines():
        if line.strip().startswith("GUI:"):
            return line
    return ""


@dataclass(frozen=True)
class OverlayStyle:
    """The overlay panel's look; sizes are for a 640 px wide frame and scale with it."""

    panel_width: int = 300  # room for the scoreboard beside the picture, not over the dice
    banner_scale: float = 1.0  # Hershey font scale of the award line
    line_scale: float = 0.5  # the scoreboard lines
    zhuangyuan_colour: tuple[int, int, int] = (0, 215, 255)  # gold (BGR) for a 状元
    text_colour: tuple[int, int, int] = (255, 255, 255)


def compose_overlay(
    annotated: np.ndarray, table: TableView, last: Announcement | None, style: OverlayStyle = OverlayStyle()
) -> np.ndarray:
    """The annotated frame with a side panel: last award, prize, whose turn, scoreboard.

    OpenCV's built-in fonts have no Chinese glyphs, so the panel spells awards in English; the
    booth page (a browser) shows the Chinese.
    """
    h, w = annotated.shape[:2]
    panel = np.zeros((h, style.panel_width, 3), np.uint8)
    y = 30
    if last is not None:
        gold = last.award is not None and last.award.is_zhuangyuan
        colour = style.zhuangyuan_colour if gold else style.text_colour
        title = last.award.category.en.split(" (")[0] if last.award is not None else last.outcome.value
        for text, scale in ((title, style.banner_scale), (last.player or "", style.line_scale), (last.prize or "", style.line_scale)):
            if text:
                cv2.putText(panel, _ascii(text), (10, y), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 2 if scale > 0.7 else 1, cv2.LINE_AA)
                y += int(34 * scale) + 8
        if gold:
            cv2.rectangle(panel, (2, 2), (style.panel_width - 3, y), colour, 3)
    y += 10
    for line in _board_ascii(table):
        cv2.putText(panel, line, (10, y), cv2.FONT_HERSHEY_SIMPLEX, style.line_scale, style.text_colour, 1, cv2.LINE_AA)
        y += 22
        if y > h - 10:
            break
    return np.hstack([annotated, panel])


def _ascii(text: str) -> str:
    return text.encode("ascii", "replace").decode("ascii")


def _tier_short(tier: Tier) -> str:
    return tier.en.split(" (")[0]


def _board_ascii(table: TableView) -> list[str]:
    lines = []
    for row in table.scoreboard:
        held = ", ".join(f"{_tier_short(t)} {n}" for t, n in row.prizes if n) or "-"
        lines.append(_ascii(f"{row.player}{' *ZY*' if row.zhuangyuan else ''}: {held}"))
    lines.append("over" if table.over else _ascii(f"next: {table.turn}"))
    return lines


class OverlayAnnouncer:
    """An OpenCV window with the annotated frame and the panel; a key pressed in it goes to `on_key`."""

    WINDOW = "bobing live"

    def __init__(self, on_key: Callable[[str], None] | None = None) -> None:
        self._on_key = on_key
        cv2.namedWindow(self.WINDOW, cv2.WINDOW_NORMAL)

    @classmethod
    def available(cls, on_key: Callable[[str], None] | None = None) -> OverlayAnnouncer | None:
        if not display_available():
            return None
        try:
            return cls(on_key)
        except cv2.error:  # a GUI build with no usable display after all
            return None

    def announce(self, announcement: Announcement, table: TableView) -> None:
        return None  # the next frame() draws it

    def notice(self, message: str) -> None:
        return None

    def frame(self, image: np.ndarray, table: TableView, last: Announcement | None) -> None:
        cv2.imshow(self.WINDOW, compose_overlay(image, table, last))
        key = cv2.waitKey(1) & 0xFF
        if key not in (0xFF, 0) and self._on_key is not None:
            self._on_key(chr(key))

    def close(self) -> None:
        cv2.destroyWindow(self.WINDOW)
