"""Measure the capture loop like a webcam feeds it: 640x480 frames at 30 fps, in real time.

    python bench/bench_live.py [--throws 4] [--seconds 20] [--seed 0] [--settle 0.5]

1. Latency: from the moment the dice have been still for the settle time to the verdict (and the
   announcement, when the reader saw six dice). "Still for the settle time" is the delivery of the
   frame on which the settle detector's still period reached the settle time (the feed notes when
   it handed out each frame). Target <= 100 ms. Also shown: when that happened against the clip's
   own label of the dice coming to rest (negative: the loop saw the dice as still a little before
   the generator's last sub-pixel drift ended).
2. CPU: process CPU seconds per wall second while the loop watches a 30 fps feed of throws, the
   real ONNX reader included. Target <= 1.0 (one core).

The feed is a `LiveSource` over a capture that hands out generated frames at 30 fps, so the grabber
thread, the newest-frame mailbox, motion, settle, reader, game and announcers all run as they do live.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field

import cv2
import numpy as np

from bobing_vision.live.announce import Announcement, TableView
from bobing_vision.live.loop import LiveLoop, LoopConfig
from bobing_vision.live.settle import SettleConfig
from bobing_vision.live.sources import LiveSource
from bobing_vision.live.table import TableSetup, open_table
from bobing_vision.vision.pipeline import OnnxDiceReader

FPS = 30.0
SIZE = (640, 480)


@dataclass
class ThrowClip:
    frames: list[np.ndarray]
    at_rest: int  # the label's first frame with every die at rest and no hand over the bowl


def make_throws(count: int, seed: int) -> list[ThrowClip]:
    """640x480, 30 fps throw clips from the scene generator (hands and dice over the rim included)."""
    from bobing_vision.synth.clip import ClipSpec, render_clip

    rng = np.random.default_rng(seed)
    clips = []
    for _ in range(count):
        clip = render_clip(rng, ClipSpec(size=SIZE, fps=FPS))
        at_rest = next((i for i, still in enumerate(clip.settled) if still), len(clip.frames) - 1)
        clips.append(ThrowClip(list(clip.frames), at_rest))
    return clips


@dataclass
class Feed:
    """A 30 fps MJPEG camera over a list of frames (each decoded as it is read, as OpenCV decodes a
    webcam's MJPEG); remembers when it delivered each frame."""

    frames: list[bytes]
    delivered: dict[int, float] = field(default_factory=dict)
    cursor: int = 0
    start: float | None = None

    def open(self) -> Feed:
        return self

    def isOpened(self) -> bool:
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.cursor >= len(self.frames):
            time.sleep(1 / FPS)
            return False, None
        now = time.monotonic()
        if self.start is None:
            self.start = now
        due = self.start + self.cursor / FPS
        if due > now:
            time.sleep(due - now)
        image = cv2.imdecode(np.frombuffer(self.frames[self.cursor], np.uint8), cv2.IMREAD_COLOR)
        self.delivered[self.cursor] = time.perf_counter()
        self.cursor += 1
        return True, image

    def release(self) -> None:
        return None


class Stopwatch:
    """An announcer and event sink that notes the wall time of each verdict and announcement."""

    def __init__(self) -> None:
        self.settled: list[tuple[int, float]] = []  # (frame index, wall time)
        self.announced: list[float] = []

    def emit(self, event: str, **fields: object) -> None:
        if event == "settled":
            self.settled.append((int(fields["frame"]), time.perf_counter()))  # type: ignore[call-overload]

    def announce(self, announcement: Announcement, table: TableView) -> None:
        self.announced.append(time.perf_counter())

    def notice(self, message: str) -> None:
        return None

    def frame(self, image: np.ndarray, table: TableView, last: Announcement | None) -> None:
        return None

    def close(self) -> None:
        return None


def as_jpeg(frames: list[np.ndarray]) -> list[bytes]:
    """What a webcam sends: each frame as a JPEG."""
    return [cv2.imencode(".jpg", f, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes() for f in frames]


def run_feed(frames: list[bytes], settle: float) -> tuple[Feed, Stopwatch, LiveLoop, float, float]:
    feed = Feed(frames)
    watch = Stopwatch()
    table, _ = open_table(TableSetup(start_throw=(1, 2)))
    loop = LiveLoop(LiveSource("bench feed", feed.open), OnnxDiceReader(rules=table.game.rules), table, [watch],
                    watch, LoopConfig(settle=SettleConfig(settle_seconds=settle)))  # type: ignore[arg-type]
    runner = threading.Thread(target=loop.run)
    cpu0, wall0 = _cpu(), time.perf_counter()
    runner.start()
    while feed.cursor < len(frames):
        time.sleep(0.05)
    time.sleep(0.3)  # the last frames through the loop
    loop.stop()
    runner.join()
    return feed, watch, loop, _cpu() - cpu0, time.perf_counter() - wall0


def _rss_mb() -> float:
    """Resident memory now (Linux /proc), in MB."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 1e6


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--throws", type=int, default=4, help="throw clips for the latency figure")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the CPU run")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--settle", type=float, default=0.5)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    clips = make_throws(args.throws, args.seed)

    verdict_ms, announce_ms, label_ms = [], [], []
    for clip in clips:
        feed, watch, _, _, _ = run_feed(as_jpeg(clip.frames), args.settle)
        if not watch.settled:
            continue
        frame, wall = watch.settled[0]
        verdict_ms.append((wall - feed.delivered[frame]) * 1000)
        label_ms.append((wall - feed.delivered[clip.at_rest] - args.settle) * 1000)
        if watch.announced:
            announce_ms.append((watch.announced[0] - feed.delivered[frame]) * 1000)
    print(f"latency, still for {args.settle:.2f} s -> verdict: {_summary(verdict_ms)} over {len(verdict_ms)}/{len(clips)} throws")
    print(f"latency, still for {args.settle:.2f} s -> announcement: {_summary(announce_ms)} over {len(announce_ms)} "
          f"throws (the others: the reader did not see six dice)")
    print(f"first verdict against the clip label's dice-at-rest + settle time: {_summary(label_ms)}")

    frames: list[np.ndarray] = []
    while len(frames) < args.seconds * FPS:
        for clip in clips:
            frames.extend(clip.frames)
    jpegs = as_jpeg(frames[: int(args.seconds * FPS)])
    del frames
    rss_before = _rss_mb()
    _, _, loop, cpu, wall = run_feed(jpegs, args.settle)
    rss_after = _rss_mb()
    stats = loop.stats
    print(f"cpu: {cpu / wall:.2f} cores over {wall:.1f} s of a 30 fps 640x480 feed "
          f"({stats.frames} frames seen, {loop.source.dropped} skipped, {stats.reads} reads, "  # type: ignore[attr-defined]
          f"{1000 * stats.read_seconds / max(1, stats.reads):.0f} ms per read)")
    print(f"memory: {rss_before:.0f} MB resident before the CPU run, {rss_after:.0f} MB after")
    return 0


def _summary(values: list[float]) -> str:
    if not values:
        return "none"
    return f"median {statistics.median(values):.0f} ms, min {min(values):.0f} ms, max {max(values):.0f} ms"


if __name__ == "__main__":
    sys.exit(main())
