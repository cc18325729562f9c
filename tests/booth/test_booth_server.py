"""The booth's HTTP side: state and picture for anyone, actions only with the operator token."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

import pytest

from bobing_vision.booth.server import BoothServer


def get(server: BoothServer, path: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(server.url.rstrip("/") + path, timeout=5) as reply:
        return reply.status, reply.read()


def post(server: BoothServer, body: dict[str, object], token: str | None) -> tuple[int, dict[str, object]]:
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["X-Booth-Token"] = token
    request = urllib.request.Request(server.url + "action", json.dumps(body).encode(), headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=5) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def state(server: BoothServer) -> dict:  # type: ignore[type-arg]
    return json.loads(get(server, "/state")[1])


def test_the_page_state_and_picture_are_served(booth: BoothServer) -> None:
    status, page = get(booth, "/")
    assert status == 200 and b"<title>" in page and b"/state" in page
    data = state(booth)
    assert data["last"]["award"]["zh"] == "状元插金花" and data["last"]["player"] == "Ann"
    assert data["table"]["turn"] == "Bo" and data["table"]["zhuangyuan"].startswith("Ann 114444")
    status, jpeg = get(booth, "/frame.jpg")
    assert status == 200 and jpeg[:2] == b"\xff\xd8"


def test_the_server_listens_on_loopback_by_default(booth: BoothServer) -> None:
    assert booth.server_address[0] == "127.0.0.1"


@pytest.mark.parametrize(("case", "token"), [("no token", None), ("wrong token", "guess"), ("empty token", "")])
def test_actions_without_the_token_are_refused(booth: BoothServer, case: str, token: str | None) -> None:
    before = state(booth)
    status, reply = post(booth, {"action": "void"}, token)
    assert status == 403, case
    assert "token" in str(reply["error"])
    time.sleep(0.3)
    assert state(booth)["table"] == before["table"]


def test_a_correction_with_the_token_changes_the_game(booth: BoothServer) -> None:
    status, reply = post(booth, {"action": "correct", "faces": "444412"}, booth.token)
    assert status == 202 and reply["queued"] == "correct"
    deadline = time.monotonic() + 5
    while state(booth)["last"]["outcome"] != "corrected" and time.monotonic() < deadline:
        time.sleep(0.05)
    last = state(booth)["last"]
    assert last["outcome"] == "corrected" and last["award"]["zh"] == "四红"


@pytest.mark.parametrize(
    ("case", "body"),
    [("unknown action", {"action": "explode"}), ("bad faces", {"action": "correct", "faces": "44441"}), ("no faces", {"action": "correct"}), ("throw without faces", {"action": "throw"})],
)
def test_bad_actions_are_400_with_the_reason(booth: BoothServer, case: str, body: dict[str, object]) -> None:
    status, reply = post(booth, body, booth.token)
    assert status == 400 and "expected" in str(reply["error"]), case


def test_new_game_with_the_token_clears_the_table(booth: BoothServer) -> None:
    assert post(booth, {"action": "new_game"}, booth.token)[0] == 202
    deadline = time.monotonic() + 5
    while state(booth)["table"]["throws"] != 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert state(booth)["table"]["throws"] == 0 and state(booth)["table"]["zhuangyuan"] is None
