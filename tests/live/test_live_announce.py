"""Announcers: terminal lines, the overlay panel (drawn without a window), speech only where an engine exists."""

from __future__ import annotations

import io

import numpy as np
import pytest

from bobing_vision.live import announce
from bobing_vision.live.announce import (
    Announcement,
    Outcome,
    SpeechAnnouncer,
    TerminalAnnouncer,
    compose_overlay,
    spoken_text,
)
from bobing_vision.live.table import TableSetup, open_table
from bobing_vision.rules import classify
from bobing_vision.vision.reading import ReadingStatus


def zhuangyuan() -> Announcement:
    award = classify([4, 4, 4, 4, 1, 1])
    return Announcement(Outcome.AWARD, "Ann", award.faces, ReadingStatus.OK, award, "wins 榜眼 x2", "Ann: 114444 状元插金花", 2.0)


def view():  # type: ignore[no-untyped-def]
    table, _ = open_table(TableSetup(players=("Ann", "Bo"), start_throw=(1, 2)))
    table.throw((4, 4, 4, 4, 1, 1))
    return table.view()


def test_the_terminal_gets_the_line_and_the_scoreboard() -> None:
    out = io.StringIO()
    TerminalAnnouncer(out).announce(zhuangyuan(), view())
    lines = out.getvalue().splitlines()
    assert lines[0] == "Ann: 114444 状元插金花"
    assert "Ann: 榜眼2 👑状元" in lines[1] and "left: 状元1 榜眼0" in lines[1]


def test_the_overlay_panel_is_drawn_beside_the_picture() -> None:
    picture = np.zeros((480, 640, 3), np.uint8)
    panel = compose_overlay(picture, view(), zhuangyuan())
    assert panel.shape[0] == 480 and panel.shape[1] > 640
    assert panel[:, 640:].any() and not panel[:, :640].any()  # text on the panel, the picture untouched
    gold = np.all(panel[:, 640:] == (0, 215, 255), axis=-1)
    assert gold.any()  # a 状元 gets the gold frame


def test_no_window_without_a_gui_build_or_a_display(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert announce.display_available() is False
    assert announce.OverlayAnnouncer.available() is None


def test_speech_is_silently_off_where_no_engine_exists(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(announce.shutil, "which", lambda name: None)
    monkeypatch.setitem(__import__("sys").modules, "pyttsx3", None)  # import fails as when not installed
    assert SpeechAnnouncer.available() is None


def test_speech_uses_espeak_ng_when_present(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[list[str]] = []

    class Process:
        def __init__(self, args: list[str], **kwargs: object) -> None:
            calls.append(args)

        def poll(self) -> int:
            return 0

    monkeypatch.setattr(announce.shutil, "which", lambda name: "/usr/bin/espeak-ng" if name == "espeak-ng" else None)
    monkeypatch.setattr(announce.subprocess, "Popen", Process)
    speech = SpeechAnnouncer.available()
    assert speech is not None and speech.engine == "espeak-ng"
    speech.announce(zhuangyuan(), view())
    assert calls == [["espeak-ng", spoken_text(zhuangyuan())]]
    assert spoken_text(zhuangyuan()).startswith("Ann: Cha Jin Hua")
