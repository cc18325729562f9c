"""Measure the capture loop like a webcam feeds it: 640x480 frames at 30 fps, in real time.

    python bench/bench_live.py [--throws 4] [--seconds 20] [--seed 0] [--settle 0.5]

1. Latency: from the moment the dice have been still for the settle time (the clip's labels say
   which frame the dice stopped on; the feed notes the wall time it delivered that frame) to the
   loop's verdict and announcement. Target <= 100 ms.
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
    first_still: int  # index of the first frame of the final still run


def make_throws(count: int, seed: int) -> list[ThrowClip]:
    """Throw clips from the scene generator, each resized to 640x480."""
    from bobing_vision.synth import render_clip

    rng = np.random.default_rng(seed)
    clips = []
    for _ in range(count):
        clip = render_clip(rng)
        frames = [cv2.resize(f, SIZE, interpolation=cv2.INTER_AREA) for f in clip.frames]
        settled = list(clip.settled)
        first_still = len(settled)
        while first_still > 0 and settled[first_still - 1]:
            first_still -= 1
        clips.append(ThrowClip(frames, first_still))
    return clips


@dataclass
class Feed:
    """A 30 fps camera over a list of frames; remembers when it delivered each frame."""

    frames: list[np.ndarray]
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
        self.delivered[self.cursor] = time.perf_counter()
        self.cursor += 1
        return True, self.frames[self.cursor - 1]

    def release(self) -> None:
        return None


class Stopwatch:
    """An announcer and event sink that notes the wall time of each verdict and announcement."""

    def __init__(self) -> None:
        self.settled: list[float] = []
        self.announced: list[float] = []

    def emit(self, event: str, **fields: object) -> None:
        if event == "settled":
            self.settled.append(time.perf_counter())

    def announce(self, announcement: Announcement, table: TableView) -> None:
        self.announced.append(time.perf_counter())

    def notice(self, message: str) -> None:
        return None

    def frame(self, image: np.ndarray, table: TableView, last: Announcement | None) -> None:
        return None

    def close(self) -> None:
        return None


def run_feed(frames: list[np.ndarray], settle: float) -> tuple[Feed, Stopwatch, LiveLoop, float, float]:
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

    latencies, announce_latencies = [], []
    for clip in clips:
        feed, watch, _, _, _ = run_feed(clip.frames, args.settle)
        settled_at = feed.delivered[clip.first_still] + args.settle
        if watch.settled:
            latencies.append((watch.settled[0] - settled_at) * 1000)
        if watch.announced:
            announce_latencies.append((watch.announced[0] - settled_at) * 1000)
    print(f"latency, still for {args.settle:.2f} s -> verdict: " + _summary(latencies) + f" over {len(latencies)}/{len(clips)} throws")
    print(f"latency, still for {args.settle:.2f} s -> announcement: " + _summary(announce_latencies)
          + f" over {len(announce_latencies)}/{len(clips)} throws (the others were not six readable dice)")

    frames: list[np.ndarray] = []
    while len(frames) < args.seconds * FPS:
        for clip in clips:
            frames.extend(clip.frames)
    frames = frames[: int(args.seconds * FPS)]
    _, _, loop, cpu, wall = run_feed(frames, args.settle)
    stats = loop.stats
    print(f"cpu: {cpu / wall:.2f} cores over {wall:.1f} s of a 30 fps 640x480 feed "
          f"({stats.frames} frames seen, {loop.source.dropped} skipped, {stats.reads} reads, "  # type: ignore[attr-defined]
          f"{1000 * stats.read_seconds / max(1, stats.reads):.0f} ms per read)")
    return 0


def _summary(values: list[float]) -> str:
    if not values:
        return "no verdicts"
    return f"median {statistics.median(values):.0f} ms, max {max(values):.0f} ms"


if __name__ == "__main__":
    sys.exit(main())
