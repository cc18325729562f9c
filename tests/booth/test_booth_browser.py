"""End to end in a real headless browser: the booth's page shows the award of a clip played through it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bobing_vision.booth.server import BoothServer

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
