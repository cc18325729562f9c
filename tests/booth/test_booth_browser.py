"""End to end in a real headless browser: the booth's page shows the award of a clip played through it."""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from live_sampleclips import CLIPS, CLIPS_DIR, reads_right, video_of

from bobing_vision.booth.server import BoothServer, BoothState
from bobing_vision.live.loop import LiveLoop
from bobing_vision.live.sources import VideoFileSource
from bobing_vision.live.table import TableSetup, open_table

CHROMIUM = Path("/usr/bin/chromium")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium: apt-get install -y chromium"),
]


def dump_dom(url: str, profile: Path) -> str:
    command = [
        str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        f"--user-data-dir={profile}", "--virtual-time-budget=8000", "--dump-dom", url,
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=90, check=True).stdout


def test_the_page_shows_the_award_whose_turn_and_the_scoreboard(booth: BoothServer, tmp_path: Path) -> None:
    dom = dump_dom(booth.url, tmp_path / "profile")
    assert 'id="award-zh">状元插金花<' in dom  # the last throw's award, filled in by the page's script
    assert 'id="banner" class="zhuangyuan"' in dom  # a 状元 is celebrated
    assert "next 下一位: Bo" in dom
    # the scoreboard: Bo threw the first 对堂, Ann the 插金花 that takes the other and holds the 状元
    assert "<td>Ann 👑</td><td>榜眼×1</td>" in dom and "<td>Bo</td><td>榜眼×1</td>" in dom


@pytest.fixture
def real_booth() -> Iterator[tuple[BoothServer, LiveLoop]]:
    """The booth playing a bundled sample clip with the real ONNX reader."""
    from bobing_vision.vision.pipeline import OnnxDiceReader

    if not CLIPS:
        pytest.skip(f"no sample clips in {CLIPS_DIR} yet")
    reader = OnnxDiceReader()
    right = [p for p in CLIPS if reads_right(reader, p)]
    if not right:
        pytest.skip("the reader gets no sample clip right (tests/live/test_live_clips.py fails on that)")
    table, _ = open_table(TableSetup(players=("Ann", "Bo"), start_throw=(1, 1)))
    state = BoothState()
    loop = LiveLoop(VideoFileSource(video_of(right[0])), reader, table, [state])
    server = BoothServer(state, loop, "127.0.0.1", 0)
    state.set_table(table.view())
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    loop.run()  # the whole clip, then the page is asked
    yield server, loop
    server.shutdown()
    server.server_close()


def test_the_page_shows_the_award_of_a_sample_clip_read_by_the_real_reader(
    real_booth: tuple[BoothServer, LiveLoop], tmp_path: Path
) -> None:
    server, loop = real_booth
    assert loop.last is not None, "the clip was read right frame by frame, so the loop must announce it"
    dom = dump_dom(server.url, tmp_path / "profile")
    shown = loop.last.award.category.zh if loop.last.award is not None else "出碗"
    assert f'id="award-zh">{shown}' in dom
