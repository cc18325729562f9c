"""The loop's events as JSON: one line per event for `--events`, and the same shapes for the booth.

    {"event": "throw_started", "t": 1.23, "frame": 37}
    {"event": "settled", "t": 2.1, "frame": 63, "verdict": "result", "status": "ok", "faces": [1,1,4,4,4,4]}
    {"event": "announced", "outcome": "award", "player": "A", "faces": [...], "status": "ok",
     "award": {"category": "CHA_JIN_HUA", "zh": "状元插金花", "en": "...", "tier": "zhuangyuan", ...},
     "prize": "...", "turn": "B", "text": "...", "latency_ms": 41.0}
    {"event": "source", "kind": "lost", "message": "..."}   {"event": "notice", "message": "..."}
"""

from __future__ import annotations

import json
import threading
from typing import IO, Any

from bobing_vision.live.announce import Announcement, TableView
from bobing_vision.rules import Award


def award_json(award: Award | None) -> dict[str, Any] | None:
    if award is None:
        return None
    tier = award.tier
    return {
        "category": award.category.name,
        "zh": award.category.zh,
        "en": award.category.en,
        "bonus": [b.zh for b in award.bonus],
        "tier": None if tier is None else tier.value,
        "tier_zh": None if tier is None else tier.zh,
        "zhuangyuan": award.is_zhuangyuan,
    }


def announcement_json(a: Announcement) -> dict[str, Any]:
    return {
        "outcome": a.outcome.value,
        "player": a.player,
        "faces": list(a.faces),
        "status": a.status.name.lower(),
        "message": a.status.value,
        "award": award_json(a.award),
        "prize": a.prize,
        "text": a.text,
        "t": round(a.t, 3),
    }


def view_json(v: TableView) -> dict[str, Any]:
    return {
        "players": list(v.players),
        "turn": v.turn,
        "scoreboard": [
            {
                "player": row.player,
                "zhuangyuan": row.zhuangyuan,
                "prizes": [{"tier": t.value, "zh": t.zh, "count": n} for t, n in row.prizes if n],
            }
            for row in v.scoreboard
        ],
        "left": [{"tier": t.value, "zh": t.zh, "count": n} for t, n in v.prizes_left],
        "zhuangyuan": v.zhuangyuan,
        "over": v.over,
        "throws": v.throws,
    }


class EventSink:
    """Writes one JSON object per line to a text stream, flushed at once (a pipe reader sees it live)."""

    def __init__(self, stream: IO[str]) -> None:
        self._out = stream
        self._lock = threading.Lock()

    def emit(self, event: str, **fields: Any) -> None:
        line = json.dumps({"event": event, **fields}, ensure_ascii=False, separators=(",", ":"))
        with self._lock:
            self._out.write(line + "\n")
            self._out.flush()
