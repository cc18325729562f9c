"""The game journal: one JSON line per event, flushed and fsync'd, so a crashed game can be resumed.

    {"event": "new", "version": 1, "players": [...], "rules": {...every RuleSet field...}, "prizes": [...]}
    {"event": "start", "thrower": 0, "dice": [3, 5]}
    {"event": "throw", "no": 1, "player": "A", "faces": "444411"}       ("faces": "out" for 出碗)
    {"event": "fix", "faces": "444412"}   /   {"event": "void"}
    {"event": "end", "ending": "round-finished", "champion": "A", "held": {...}}

The rule set is stored whole, so a resumed game does not depend on a rules file that may have changed.
`replay` reads a journal back into the identical `Game`; a torn last line (a crash mid-write) is
reported and dropped; anything else unreadable is a JournalError naming the line.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any

from bobing_vision.errors import BobingError, InvalidInput, JournalError
from bobing_vision.game.events import Correction, Event, StartThrow, ThrowEvent
from bobing_vision.game.outcome import Outcome
from bobing_vision.game.prizes import TIERS, PrizeNames
from bobing_vision.game.table import Game
from bobing_vision.rules import RuleSet
from bobing_vision.rules.ruleset_file import from_mapping, to_mapping

VERSION = 1  # bump when a record's meaning changes; older journals are refused, not misread
PREVIEW = 60  # characters of a bad line quoted in a message


@dataclass(frozen=True)
class TornLine:
    """A last line cut short by a crash mid-write: dropped, and everything before it kept."""

    path: str
    line_no: int
    text: str

    def __str__(self) -> str:
        return f"{self.path}: line {self.line_no} was cut short (torn write) and is dropped: {self.text[:PREVIEW]!r}"


# --- encoding ------------------------------------------------------------------------------------


def header(game: Game) -> dict[str, Any]:
    return {
        "event": "new",
        "version": VERSION,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "players": list(game.players),
        "rules": to_mapping(game.rules),
        "prizes": list(game.prizes.names),
    }


def encode(event: Event, game: Game) -> dict[str, Any]:
    """The record of `event`, made before `game` applies it (a throw names whose turn it is)."""
    if isinstance(event, StartThrow):
        return {"event": "start", "thrower": event.thrower, "dice": list(event.dice)}
    if isinstance(event, ThrowEvent):
        return {"event": "throw", "no": game.state.throws + 1, "player": game.current_player, "faces": str(event)}
    if event.replacement is None:
        return {"event": "void"}
    return {"event": "fix", "faces": str(event.replacement)}


def end_record(game: Game) -> dict[str, Any]:
    champion = game.champion
    return {
        "event": "end",
        "ending": None if game.ending is None else game.ending.value,
        "champion": None if champion is None else game.players[champion.seat],
        "held": {name: _held(game.holdings(seat)) for seat, name in enumerate(game.players)},
        "shared": _held(game.shared),
    }


def _held(counts: Mapping[Any, int]) -> dict[str, int]:
    return {tier.value: counts[tier] for tier in TIERS if counts[tier]}


# --- decoding ------------------------------------------------------------------------------------


def _field(record: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = record.get(key)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise InvalidInput(f"expected {key!r} of type {getattr(kind, '__name__', kind)}, got {value!r}")
    return value


def decode(record: Mapping[str, Any], game: Game) -> Event:
    """The event a record stands for, checked against `game` (whose turn, which throw) before it applies."""
    kind = record.get("event")
    if kind == "start":
        return StartThrow(_field(record, "thrower", int), tuple(_field(record, "dice", list)))
    if kind == "throw":
        player, no = record.get("player"), record.get("no")
        if player != game.current_player or no != game.state.throws + 1:
            raise InvalidInput(
                f"expected throw {game.state.throws + 1} by {game.current_player}, got throw {no} by {player}"
            )
        return ThrowEvent.of(_field(record, "faces", str))
    if kind == "fix":
        return Correction.fix(_field(record, "faces", str))
    if kind == "void":
        return Correction.void()
    raise InvalidInput(f"expected an event start, throw, fix, void or end, got {kind!r}")


def game_from_header(record: Mapping[str, Any], source: str) -> Game:
    if record.get("event") != "new":
        raise InvalidInput(f"expected the 'new' game record first, got {record.get('event')!r}")
    if record.get("version") != VERSION:
        raise InvalidInput(f"expected journal version {VERSION}, got {record.get('version')!r}")
    rules = from_mapping(_field(record, "rules", dict), source=f"{source} rules")
    return Game(_field(record, "players", list), rules, PrizeNames(tuple(_field(record, "prizes", list))))


# --- reading -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Replayed:
    """A journal read back: the game, a torn last line if there was one, and whether it was closed."""

    game: Game
    torn: TornLine | None
    ended: bool
    good_bytes: int  # length of the file's intact part


def replay(path: str | Path) -> Replayed:
    """Read a journal into the identical Game. Raises JournalError naming the bad line."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise JournalError(f"expected a readable journal file, got {str(path)!r} ({exc.strerror})") from None
    lines = data.split(b"\n")  # the piece after the last newline is b"" in an intact file
    game: Game | None = None
    ended = False
    offset = 0
    for index, raw in enumerate(lines):
        line_no = index + 1
        last = index == len(lines) - 1 or (index == len(lines) - 2 and lines[-1] == b"")
        if raw == b"" and index == len(lines) - 1:
            break
        try:
            record = json.loads(raw.decode("utf-8"))
            if not isinstance(record, dict):
                raise ValueError(f"expected a JSON object, got {type(record).__name__}")
        except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
            text = raw.decode("utf-8", errors="replace")
            if last and game is not None:
                return Replayed(game, TornLine(str(path), line_no, text), ended, offset)
            raise JournalError(f"{path}: line {line_no} is not a journal record ({exc}): {text[:PREVIEW]!r}") from None
        try:
            if ended:
                raise InvalidInput(f"expected nothing after the 'end' record, got {record.get('event')!r}")
            if game is None:
                game = game_from_header(record, f"{path} line {line_no}")
            elif record.get("event") == "end":
                if not game.over:
                    raise InvalidInput("expected an 'end' record only after the game is over, got one mid-game")
                ended = True
            else:
                game.apply(decode(record, game))
        except BobingError as exc:
            raise JournalError(f"{path}: line {line_no}: {exc}") from None
        offset += len(raw) + 1
    if game is None:
        raise JournalError(f"{path}: expected a journal starting with a 'new' game record, got an empty file")
    return Replayed(game, None, ended, min(offset, len(data)))


# --- writing -------------------------------------------------------------------------------------


class Journal:
    """A game bound to its journal file: `apply` applies an event, then appends and fsyncs its record."""

    def __init__(self, path: Path, game: Game, handle: IO[bytes]) -> None:
        self.path = path
        self.game = game
        self._handle = handle
        self.ended = False

    @classmethod
    def create(cls, path: str | Path, game: Game) -> Journal:
        """Start a new journal for a game; refuses a file that already holds something."""
        path = Path(path)
        if path.exists() and path.stat().st_size > 0:
            raise InvalidInput(f"expected a new journal file, got {str(path)!r} which already holds a game")
        try:
            handle = path.open("ab")
        except OSError as exc:
            raise InvalidInput(f"expected a writable journal file, got {str(path)!r} ({exc.strerror})") from None
        journal = cls(path, game, handle)
        journal._write(header(game))
        _sync_folder(path)
        shadow = Game(game.players, game.rules, game.prizes)
        for event in game.log:  # events applied before the journal existed, each encoded in its context
            journal._write(encode(event, shadow))
            shadow.apply(event)
        return journal

    def apply(self, event: Event) -> Outcome:
        """Apply to the game (bad events raise InvalidInput and write nothing), then record it."""
        if self.ended:
            raise InvalidInput(f"expected an open game, got one whose journal {self.path} is closed")
        record = encode(event, self.game)
        outcome = self.game.apply(event)
        self._write(record)
        return outcome

    def end(self) -> None:
        """Close a finished game's journal with its result (once); later corrections are refused."""
        if not self.game.over:
            raise InvalidInput("expected a finished game to end the journal, got one still in play")
        if not self.ended:
            self._write(end_record(self.game))
            self.ended = True

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self, record: Mapping[str, Any]) -> None:
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
        self._handle.write(line.encode("utf-8"))
        self._handle.flush()
        os.fsync(self._handle.fileno())


def resume(path: str | Path) -> tuple[Journal, TornLine | None]:
    """Reopen a journal to play on: replays it, cuts a torn last line off the file, appends from there."""
    path = Path(path)
    replayed = replay(path)
    try:
        handle = path.open("r+b")
    except OSError as exc:
        raise JournalError(f"expected a writable journal file, got {str(path)!r} ({exc.strerror})") from None
    handle.truncate(replayed.good_bytes)
    handle.seek(replayed.good_bytes)
    if replayed.good_bytes and _last_byte(handle, replayed.good_bytes) != b"\n":
        handle.write(b"\n")  # an intact last record that lost only its newline
    handle.flush()
    os.fsync(handle.fileno())
    journal = Journal(path, replayed.game, handle)
    journal.ended = replayed.ended
    return journal, replayed.torn


def _last_byte(handle: IO[bytes], size: int) -> bytes:
    handle.seek(size - 1)
    byte = handle.read(1)
    handle.seek(size)
    return byte


def _sync_folder(path: Path) -> None:
    """Make the new file's directory entry durable too (POSIX; elsewhere there is nothing to do)."""
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(path.parent if str(path.parent) else ".", os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
