"""Frame sources: files play every frame in order; a live feed keeps only the newest frame and
reconnects after it drops, while the loop's game carries on."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import cv2
import numpy as np
import pytest
from live_clipkit import FPS, BookReader, FrameBook, Recorder, Throw, render

from bobing_vision.errors import InvalidInput, SourceError
from bobing_vision.live.loop import LiveLoop
from bobing_vision.live.sources import (
    Frame,
    ImageFolderSource,
    LiveSource,
    NoticeKind,
    SourceConfig,
    SourceNotice,
    VideoFileSource,
    open_source,
)
from bobing_vision.live.table import TableSetup, open_table

FAST_RETRY = SourceConfig(reconnect_first_s=0.01, reconnect_max_s=0.05)


def numbered(i: int) -> np.ndarray:
    img = np.zeros((48, 64, 3), np.uint8)
    cv2.putText(img, str(i), (5, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (255, 255, 255), 2)
    return img


def test_a_video_file_plays_every_frame_in_order_with_video_time(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 25.0, (64, 48))
    for i in range(12):
        writer.write(numbered(i))
    writer.release()
    items = list(open_source(str(path)).items())
    frames = [f for f in items if isinstance(f, Frame)]
    assert len(frames) == 12 and [f.index for f in frames] == list(range(12))
    assert frames[5].t == pytest.approx(5 / 25.0)
    assert isinstance(items[-1], SourceNotice) and items[-1].kind is NoticeKind.ENDED


def test_an_image_folder_plays_in_name_order(tmp_path: Path) -> None:
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"f{i:03d}.png"), numbered(i))
    frames = [f for f in ImageFolderSource(tmp_path).items() if isinstance(f, Frame)]
    assert [int(f.image[:, :, 0].sum()) for f in frames] == [int(numbered(i)[:, :, 0].sum()) for i in range(3)]
    assert frames[2].t == pytest.approx(2 / 30.0)


@pytest.mark.parametrize(
    ("case", "spec", "error"),
    [("missing path", "no/such/thing.mp4", InvalidInput), ("not a video", __file__, InvalidInput)],
)
def test_bad_sources_are_clear_errors(case: str, spec: str, error: type[Exception]) -> None:
    with pytest.raises(error, match="expected"):
        open_source(spec)


def test_an_empty_folder_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="expected a folder with images"):
        open_source(str(tmp_path))


class Feed:
    """A camera over a list of frames: delivers at `pace` seconds a frame, drops at `die_at`,
    refuses the first reconnect, then carries on where it was. `clock` is the feed's own time."""

    def __init__(self, images: list[np.ndarray], die_at: int | None = None, pace: float = 1 / 120) -> None:
        self.images, self.die_at, self.pace = images, die_at, pace
        self.cursor = 0
        self.opens = 0
        self.dead = False

    def clock(self) -> float:
        return max(0, self.cursor - 1) / FPS

    def open(self) -> Feed.Capture:
        self.opens += 1
        return Feed.Capture(self, ok=self.opens != 2)  # the first reconnect attempt fails

    class Capture:
        def __init__(self, feed: Feed, ok: bool) -> None:
            self.feed, self.ok = feed, ok

        def isOpened(self) -> bool:
            return self.ok

        def read(self) -> tuple[bool, np.ndarray | None]:
            feed = self.feed
            time.sleep(feed.pace)
            if feed.cursor == feed.die_at and not feed.dead:
                feed.dead = True  # the cable is pulled once
                return False, None
            if feed.cursor >= len(feed.images):
                return False, None
            feed.cursor += 1
            return True, feed.images[feed.cursor - 1]

        def release(self) -> None:
            return None

    @property
    def exhausted(self) -> bool:
        return self.cursor >= len(self.images)


def test_a_live_feed_keeps_only_the_newest_frame() -> None:
    feed = Feed([numbered(i) for i in range(60)], pace=0.002)
    source = LiveSource("cam", feed.open, FAST_RETRY, clock=feed.clock)
    seen = []
    for item in source.items():
        if isinstance(item, Frame):
            seen.append(item.index)
            time.sleep(0.02)  # a slow reader
        if feed.exhausted and len(seen) > 2:
            break
    source.close()
    assert source.dropped > 0 and len(seen) < 60  # skipped, not queued
    assert seen == sorted(seen)  # never an older frame after a newer one


def test_a_feed_that_dies_midway_reconnects_and_the_game_stays_intact(rng: np.random.Generator) -> None:
    book = FrameBook()
    images = render([Throw("444411"), Throw("123456"), Throw("222333")], rng, book)
    feed = Feed(images, die_at=len(images) // 2)
    source = LiveSource("camera 0", feed.open, FAST_RETRY, clock=feed.clock)
    table, _ = open_table(TableSetup(start_throw=(1, 3)))
    recorder = Recorder()
    loop = LiveLoop(source, BookReader(book), table, [recorder])
    runner = threading.Thread(target=loop.run)
    runner.start()
    deadline = time.monotonic() + 20
    while not feed.exhausted and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.2)
    loop.stop()
    runner.join(5)
    assert not runner.is_alive()
    assert any("feed lost" in n for n in recorder.notices)
    assert any("reconnecting" in n for n in recorder.notices)
    assert any("back after" in n for n in recorder.notices)
    assert [a.award.category.name for a in recorder.announced] == ["CHA_JIN_HUA", "DUI_TANG", "NONE"]
    assert table.game.state.throws == 3


class MjpegServer(ThreadingHTTPServer):
    """A camera's MJPEG stream over HTTP that drops the connection after `per_connection` frames."""

    daemon_threads = True

    def __init__(self, per_connection: int) -> None:
        self.per_connection = per_connection
        self.sent = 0
        self.connections = 0
        super().__init__(("127.0.0.1", 0), MjpegHandler)


class MjpegHandler(BaseHTTPRequestHandler):
    server: MjpegServer

    def log_message(self, format: str, *args: object) -> None:
        return None

    def do_GET(self) -> None:
        self.server.connections += 1
        self.send_response(200)
        self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
        self.end_headers()
        for _ in range(self.server.per_connection):
            data = cv2.imencode(".jpg", numbered(self.server.sent))[1].tobytes()
            try:
                self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n%s\r\n" % (len(data), data))
                self.wfile.flush()
            except OSError:
                return
            self.server.sent += 1
            time.sleep(0.01)
        # returning closes the connection: the stream "drops"


def test_an_http_stream_that_drops_is_reopened_through_opencv() -> None:
    server = MjpegServer(per_connection=15)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    source = open_source(f"http://127.0.0.1:{server.server_address[1]}/video.mjpg", FAST_RETRY)
    assert isinstance(source, LiveSource)
    frames, notices = 0, []
    deadline = time.monotonic() + 30
    for item in source.items():
        if isinstance(item, Frame):
            frames += 1
        else:
            notices.append(item.kind)
        if NoticeKind.RECONNECTED in notices and frames > 15 or time.monotonic() > deadline:
            break
    source.close()
    server.shutdown()
    assert server.connections >= 2 and frames > 15
    assert NoticeKind.LOST in notices and NoticeKind.RECONNECTED in notices
