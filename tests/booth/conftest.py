"""A booth serving a drawn clip played through the whole loop (stand-in reader until the real one lands)."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "live"))
from live_clipkit import BookReader, FrameBook, ListSource, Throw, render  # noqa: E402  (tests/live's clip kit)

from bobing_vision.booth.server import BoothServer, BoothState  # noqa: E402
from bobing_vision.live.loop import LiveLoop  # noqa: E402
from bobing_vision.live.table import TableSetup, open_table  # noqa: E402

TOKEN = "sesame-123"


@pytest.fixture
def booth() -> Iterator[BoothServer]:
    """A booth on a free port that has played a clip with a 对堂 then a 状元插金花."""
    book = FrameBook()
    frames = render([Throw("123456"), Throw("444411")], np.random.default_rng(5), book)
    table, _ = open_table(TableSetup(players=("Ann", "Bo"), start_throw=(1, 1)))
    state = BoothState()
    loop = LiveLoop(ListSource(frames), BookReader(book), table, [state])
    server = BoothServer(state, loop, "127.0.0.1", 0, TOKEN)
    state.set_table(table.view())
    runner = threading.Thread(target=loop.run, kwargs={"linger": True}, daemon=True)
    runner.start()
    serving = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    serving.start()
    while loop.stats.announcements < 2 and runner.is_alive():
        threading.Event().wait(0.02)
    yield server
    loop.stop()
    server.shutdown()
    server.server_close()
    runner.join(5)
