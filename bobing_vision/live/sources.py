"""Where frames come from: a webcam index, a video file, an RTSP/HTTP stream, or a folder of images.

Every source yields `Frame`s and, for devices and streams, `SourceNotice`s ("camera lost, retrying
in 2 s", "camera back") so the loop can tell people without losing the game. Two policies:

- Live devices and streams: a grabber thread reads as fast as the camera delivers and keeps only the
  NEWEST frame (a one-slot mailbox, never a queue), so a slow reader skips frames instead of falling
  behind: latency stays flat and memory stays flat over an evening.
- Files (a video, a folder of images): every frame is played, in order, as fast as the consumer
  takes them, with timestamps from the file's frame rate. They are tests and demos: skipping frames
  there would make results depend on machine speed, and playing faster than real time keeps the
  README's demo quick.
"""

from __future__ import annotations

import enum
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from bobing_vision.errors import InvalidInput, SourceError
from bobing_vision.vision.imageio import iter_image_files, load_image

VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".webm", ".m4v", ".mpg", ".mpeg", ".mjpeg", ".mjpg")
STREAM_SCHEMES = ("rtsp://", "rtsps://", "http://", "https://", "rtmp://", "udp://", "tcp://")


@dataclass(frozen=True)
class SourceConfig:
    """How sources pace and recover; each value with the reason it is what it is."""

    folder_fps: float = 30.0  # a folder of images has no frame rate of its own: play it as a 30 fps webcam
    fallback_video_fps: float = 30.0  # some containers report 0 fps; webcams and our clips are 30 fps
    reconnect_first_s: float = 0.5  # a USB camera re-enumerates in well under a second
    reconnect_max_s: float = 8.0  # back off to this so a missing camera does not spin a core
    stall_s: float = 3.0  # no frame for this long from a live source means it is gone (a frozen stream)
    wait_slice_s: float = 0.25  # how often the consumer wakes while waiting, to notice a stop request
    realtime: bool = False  # play files at their own speed (the booth, for people watching) instead of at once


@dataclass(frozen=True)
class Frame:
    """One picture and when it was taken (seconds: video time for files, monotonic for live)."""

    image: np.ndarray
    t: float
    index: int


class NoticeKind(enum.Enum):
    LOST = "lost"
    RECONNECTING = "reconnecting"
    RECONNECTED = "reconnected"
    ENDED = "ended"


@dataclass(frozen=True)
class SourceNotice:
    """Something people should know about the source; `message` is the sentence to show."""

    kind: NoticeKind
    message: str


SourceItem = Frame | SourceNotice


class Capture(Protocol):
    """The part of cv2.VideoCapture a live source uses (tests pass a capture that dies on purpose)."""

    def isOpened(self) -> bool: ...

    def read(self) -> tuple[bool, np.ndarray | None]: ...

    def release(self) -> None: ...


class FrameSource(Protocol):
    """Frames (and notices) until the source ends or `close()` is called."""

    name: str

    def items(self) -> Iterator[SourceItem]: ...

    def close(self) -> None: ...


class Pacer:
    """Holds a file's frames back to their own time when playing in real time; a no-op otherwise."""

    def __init__(self, realtime: bool, stop: threading.Event) -> None:
        self._realtime = realtime
        self._stop = stop
        self._start: float | None = None

    def wait(self, t: float) -> None:
        if not self._realtime:
            return
        now = time.monotonic()
        if self._start is None:
            self._start = now - t
        self._stop.wait(max(0.0, self._start + t - now))


class VideoFileSource:
    """Every frame of a video file, in order, timed by the file's frame rate."""

    def __init__(self, path: Path, config: SourceConfig = SourceConfig()) -> None:
        self.name = str(path)
        self._path = path
        self._config = config
        self._closed = threading.Event()

    def items(self) -> Iterator[SourceItem]:
        cap = cv2.VideoCapture(str(self._path))
        if not cap.isOpened():
            raise SourceError(f"expected a readable video file, got {self._path}")
        fps = cap.get(cv2.CAP_PROP_FPS) or 0.0
        fps = fps if 1.0 <= fps <= 240.0 else self._config.fallback_video_fps
        index = 0
        pacer = Pacer(self._config.realtime, self._closed)
        try:
            while not self._closed.is_set():
                ok, image = cap.read()
                if not ok or image is None:
                    break
                pacer.wait(index / fps)
                yield Frame(image=image, t=index / fps, index=index)
                index += 1
        finally:
            cap.release()
        if index == 0:
            raise SourceError(f"expected a video with frames, got none in {self._path}")
        yield SourceNotice(NoticeKind.ENDED, f"end of video {self._path.name} ({index} frames)")

    def close(self) -> None:
        self._closed.set()


class ImageFolderSource:
    """The images of a folder, sorted by name, played as frames at `folder_fps`."""

    def __init__(self, folder: Path, config: SourceConfig = SourceConfig()) -> None:
        self.name = str(folder)
        self._files = list(iter_image_files([folder]))
        if not self._files:
            raise SourceError(f"expected a folder with images, got none in {folder}")
        self._files.sort(key=lambda p: str(p))
        self._fps = config.folder_fps
        self._realtime = config.realtime
        self._closed = threading.Event()

    def items(self) -> Iterator[SourceItem]:
        pacer = Pacer(self._realtime, self._closed)
        for index, path in enumerate(self._files):
            if self._closed.is_set():
                return
            image = load_image(path)
            pacer.wait(index / self._fps)
            yield Frame(image=image, t=index / self._fps, index=index)
        yield SourceNotice(NoticeKind.ENDED, f"end of image folder ({len(self._files)} frames)")

    def close(self) -> None:
        self._closed.set()


class LiveSource:
    """A camera or stream: a grabber thread keeps the newest frame; reconnects with backoff.

    `open_capture` makes a fresh capture each (re)connection, so a camera unplugged and plugged back
    in, or a stream that drops, comes back without the loop (or the game) noticing more than a pause.
    """

    def __init__(
        self,
        name: str,
        open_capture: Callable[[], Capture],
        config: SourceConfig = SourceConfig(),
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], object] | None = None,
    ) -> None:
        self.name = name
        self._open = open_capture
        self._config = config
        self._clock = clock
        self._stop = threading.Event()
        self._sleep = sleep or (lambda s: self._stop.wait(s))
        self._cond = threading.Condition()
        self._latest: Frame | None = None  # the one-slot mailbox: a new frame replaces an unread one
        self._notices: list[SourceNotice] = []
        self._thread: threading.Thread | None = None
        self.dropped = 0  # frames replaced before the consumer took them: how far behind the reader is

    # -- grabber thread ------------------------------------------------------------------------
    def _post(self, frame: Frame | None = None, notice: SourceNotice | None = None) -> None:
        with self._cond:
            if frame is not None:
                if self._latest is not None:
                    self.dropped += 1
                self._latest = frame
            if notice is not None:
                self._notices.append(notice)
            self._cond.notify_all()

    def _try_open(self) -> Capture | None:
        """An opened capture, or None: a device that is gone and a driver error both mean "try later"."""
        try:
            cap = self._open()
        except (cv2.error, OSError, SourceError):
            return None
        if cap.isOpened():
            return cap
        cap.release()
        return None

    def _connect(self, first: bool) -> Capture | None:
        delay = self._config.reconnect_first_s
        attempt = 0
        while not self._stop.is_set():
            attempt += 1
            cap = self._try_open()
            if cap is not None:
                if not first or attempt > 1:
                    self._post(notice=SourceNotice(NoticeKind.RECONNECTED, f"{self.name}: back after {attempt} attempt(s)"))
                return cap
            if first and attempt == 1:
                self._post(notice=SourceNotice(NoticeKind.LOST, f"{self.name}: cannot open; retrying"))
            self._post(notice=SourceNotice(NoticeKind.RECONNECTING, f"{self.name}: reconnecting in {delay:.1f} s (attempt {attempt})"))
            self._sleep(delay)
            delay = min(delay * 2.0, self._config.reconnect_max_s)
        return None

    def _grab(self) -> None:
        index = 0
        cap = self._connect(first=True)
        while cap is not None and not self._stop.is_set():
            ok, image = cap.read()
            if ok and image is not None:
                self._post(frame=Frame(image=image, t=self._clock(), index=index))
                index += 1
                continue
            cap.release()
            self._post(notice=SourceNotice(NoticeKind.LOST, f"{self.name}: feed lost (no frame); the game is kept"))
            cap = self._connect(first=False)
        if cap is not None:
            cap.release()

    # -- consumer ------------------------------------------------------------------------------
    def items(self) -> Iterator[SourceItem]:
        if self._thread is None:
            self._thread = threading.Thread(target=self._grab, name=f"grab:{self.name}", daemon=True)
            self._thread.start()
        last_frame_at = self._clock()
        stalled = False
        while not self._stop.is_set():
            with self._cond:
                if self._latest is None and not self._notices:
                    self._cond.wait(self._config.wait_slice_s)
                notices, self._notices = self._notices, []
                frame, self._latest = self._latest, None
            yield from notices
            if frame is not None:
                last_frame_at, stalled = self._clock(), False
                yield frame
            elif not stalled and self._clock() - last_frame_at > self._config.stall_s:
                # A stream can hang inside read() without failing; say so once, keep waiting.
                stalled = True
                yield SourceNotice(NoticeKind.LOST, f"{self.name}: no picture for {self._config.stall_s:.0f} s; waiting")

    def close(self) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=2.0)


def is_stream_url(text: str) -> bool:
    return text.lower().startswith(STREAM_SCHEMES)


def open_source(spec: str, config: SourceConfig = SourceConfig()) -> FrameSource:
    """`0` (webcam index), a stream URL, a video file or a folder of images -> a frame source."""
    text = spec.strip()
    if text.isdigit():
        index = int(text)
        return LiveSource(f"camera {index}", lambda: cv2.VideoCapture(index), config)
    if is_stream_url(text):
        return LiveSource(text, lambda: cv2.VideoCapture(text), config)
    path = Path(text)
    if path.is_dir():
        return ImageFolderSource(path, config)
    if path.is_file():
        if path.suffix.lower() not in VIDEO_SUFFIXES:
            raise InvalidInput(f"expected a video file ({', '.join(VIDEO_SUFFIXES)}), got {path.name}")
        return VideoFileSource(path, config)
    raise InvalidInput(f"expected a camera index, a stream URL, a video file or an image folder, got {spec!r}")
