"""The demo booth: one local web page showing the live game, served by the standard library.

    GET  /            the page (package data: booth/static/index.html)
    GET  /state       JSON: the last announcement, the table (turn, scoreboard, prizes left), notices
    GET  /frame.jpg   the newest (annotated) picture; polled by the page, so nothing streams forever
    POST /action      {"action": "correct"|"void"|"throw"|"new_game", "faces": "444411"} with the operator
                      token in the X-Booth-Token header; without the right token: 403

The page polls; the server never pushes. Actions are queued to the capture loop, which owns the game.
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
from collections import deque
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any

import cv2
import numpy as np

from bobing_vision.errors import InvalidInput
from bobing_vision.live.announce import Announcement, TableView
from bobing_vision.live.events import announcement_json, view_json
from bobing_vision.live.loop import Command, CommandKind, LiveLoop
from bobing_vision.rules import Throw


@dataclass(frozen=True)
class BoothConfig:
    """The booth's limits and looks."""

    jpeg_quality: int = 80  # a 640x480 picture in ~40 KB: smooth on a laptop's own loopback and on wifi
    notices_kept: int = 6  # the page shows the latest few status lines, not a growing log
    max_body_bytes: int = 4096  # an action is a few dozen bytes; anything bigger is refused unread


class BoothState:
    """What the page shows, fed by the loop as an announcer; read by the HTTP threads."""

    def __init__(self, config: BoothConfig = BoothConfig()) -> None:
        self.config = config
        self._lock = threading.Lock()
        self._picture: np.ndarray | None = None
        self._jpeg: bytes | None = None
        self._last: dict[str, Any] | None = None
        self._table: dict[str, Any] | None = None
        self._notices: deque[str] = deque(maxlen=config.notices_kept)
        self.version = 0  # bumps on every announcement or notice, so the page knows to redraw

    # -- the Announcer protocol ------------------------------------------------------------------
    def announce(self, announcement: Announcement, table: TableView) -> None:
        with self._lock:
            self._last = announcement_json(announcement)
            self._table = view_json(table)
            self.version += 1

    def notice(self, message: str) -> None:
        with self._lock:
            self._notices.append(message)
            self.version += 1

    def frame(self, image: np.ndarray, table: TableView, last: Announcement | None) -> None:
        with self._lock:
            self._picture = image
            self._jpeg = None  # encoded when someone asks: no work while nobody watches
            self._table = view_json(table)
            if last is None:
                self._last = None

    def close(self) -> None:
        return None

    # -- for the HTTP side -----------------------------------------------------------------------
    def set_table(self, table: TableView) -> None:
        with self._lock:
            self._table = view_json(table)

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            return {"version": self.version, "last": self._last, "table": self._table, "notices": list(self._notices)}

    def jpeg(self) -> bytes | None:
        with self._lock:
            if self._jpeg is None and self._picture is not None:
                ok, data = cv2.imencode(".jpg", self._picture, [cv2.IMWRITE_JPEG_QUALITY, self.config.jpeg_quality])
                self._jpeg = data.tobytes() if ok else None
            return self._jpeg


def parse_action(body: dict[str, Any]) -> Command:
    """A posted action -> a loop command; InvalidInput says what was expected."""
    action = body.get("action")
    if action in ("correct", "throw"):
        faces = body.get("faces")
        if not isinstance(faces, str):
            raise InvalidInput(f"expected faces like \"444411\" with {action}, got {faces!r}")
        kind = CommandKind.CORRECT if action == "correct" else CommandKind.THROW
        return Command(kind, Throw.parse(faces).faces)
    if action == "void":
        return Command(CommandKind.VOID)
    if action == "new_game":
        return Command(CommandKind.NEW_GAME)
    raise InvalidInput(f"expected an action correct, void, throw or new_game, got {action!r}")


def page() -> bytes:
    return resources.files("bobing_vision.booth").joinpath("static/index.html").read_bytes()


class BoothServer(ThreadingHTTPServer):
    """The HTTP server; `token` guards the operator's actions."""

    daemon_threads = True

    def __init__(self, state: BoothState, loop: LiveLoop, host: str = "127.0.0.1", port: int = 8765, token: str | None = None) -> None:
        self.state = state
        self.loop = loop
        self.token = token or secrets.token_urlsafe(12)
        self.page = page()
        super().__init__((host, port), BoothHandler)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}/"

    def authorised(self, given: str | None) -> bool:
        return given is not None and hmac.compare_digest(given.encode(), self.token.encode())


class BoothHandler(BaseHTTPRequestHandler):
    server: BoothServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        return None  # the page polls several times a second: a line per request would bury the announcements

    def _send(self, status: HTTPStatus, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: HTTPStatus, data: dict[str, Any]) -> None:
        self._send(status, json.dumps(data, ensure_ascii=False).encode("utf-8"), "application/json; charset=utf-8")

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path in ("/", "/index.html"):
            self._send(HTTPStatus.OK, self.server.page, "text/html; charset=utf-8")
        elif path == "/state":
            self._json(HTTPStatus.OK, self.server.state.snapshot())
        elif path == "/frame.jpg":
            data = self.server.state.jpeg()
            if data is None:
                self._send(HTTPStatus.NO_CONTENT, b"", "image/jpeg")
            else:
                self._send(HTTPStatus.OK, data, "image/jpeg")
        else:
            self._json(HTTPStatus.NOT_FOUND, {"error": f"expected /, /state or /frame.jpg, got {path}"})

    def do_POST(self) -> None:
        if self.path.split("?", 1)[0] != "/action":
            self._json(HTTPStatus.NOT_FOUND, {"error": f"expected POST /action, got {self.path}"})
            return
        length = int(self.headers.get("Content-Length") or 0)
        if length > self.server.state.config.max_body_bytes:
            self.close_connection = True
            self._json(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, {"error": f"expected a small JSON action, got {length} bytes"})
            return
        raw = self.rfile.read(length) if length else b""
        if not self.server.authorised(self.headers.get("X-Booth-Token")):
            self._json(HTTPStatus.FORBIDDEN, {"error": "expected the operator token printed at start-up"})
            return
        try:
            body = json.loads(raw.decode("utf-8") or "{}")
            if not isinstance(body, dict):
                raise InvalidInput(f"expected a JSON object, got {type(body).__name__}")
            command = parse_action(body)
        except (ValueError, UnicodeDecodeError) as exc:  # InvalidInput and JSON errors are ValueErrors
            self._json(HTTPStatus.BAD_REQUEST, {"error": str(exc)})
            return
        self.server.loop.submit(command)
        self._json(HTTPStatus.ACCEPTED, {"queued": command.kind.name.lower()})
