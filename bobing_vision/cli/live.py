"""`bobing live --source 0|VIDEO|DIR|URL`: watch the bowl, announce each throw, keep the table's game.

    bobing live --source 0 --players A,B,C [--rules R] [--journal FILE | --resume FILE]
                [--settle SECONDS] [--events FILE|-] [--no-speech] [--no-window]

While it runs, type `c 444411` (correct the last throw, or enter one the reader could not read),
`v` (void it), `t 444411` (a throw the camera missed), `n` (new game) or `q`.
Every throw is journalled as it happens (fsync'd), so Ctrl-C leaves a journal `--resume` continues.
"""

from __future__ import annotations

import argparse
import sys
import threading
from datetime import datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING

from bobing_vision.cli.arguments import add_table_arguments

if TYPE_CHECKING:
    from bobing_vision.live.announce import Announcer
    from bobing_vision.live.loop import LiveLoop
    from bobing_vision.live.table import TableSession

HELP = "watch a camera over the bowl and run the table's game"
JOURNAL_PATTERN = "bobing-live-%Y%m%d-%H%M%S.jsonl"  # the default journal, in the current folder


def add_source_and_table_arguments(parser: argparse.ArgumentParser) -> None:
    """The options `live` and `booth` share: where frames come from, and the table."""
    parser.add_argument("--source", required=True, help="webcam index (0), video file, image folder, or rtsp/http URL")
    journal = add_table_arguments(
        parser, players_default="default A,B,C", journal_default="bobing-live-DATE-TIME.jsonl here",
        start_default="default: rolled",
    )
    journal.add_argument("--no-journal", action="store_true", help="keep no journal (demos)")
    parser.add_argument("--settle", type=float, default=0.5, metavar="SECONDS", help="how long the dice must lie still (default 0.5)")
    parser.add_argument("--models", type=Path, help="folder with the dice model (default: the bundled models/)")
    parser.add_argument("--bowl", type=Path, help="a calibration file from `bobing calibrate` (default: find the bowl)")
    parser.add_argument("--events", metavar="FILE|-", help="write one JSON line per event to FILE, or - for stdout")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bobing live", description=HELP)
    add_source_and_table_arguments(parser)
    parser.add_argument("--no-speech", action="store_true", help="do not speak announcements")
    parser.add_argument("--no-window", action="store_true", help="no overlay window even where a display exists")
    return parser


def build_loop(
    args: argparse.Namespace, announcers: list[Announcer], events_out: IO[str] | None, realtime: bool = False
) -> tuple[LiveLoop, TableSession, list[str]]:
    """Table, reader, source and loop from the shared options; raises BobingError on bad input."""
    import cv2

    from bobing_vision.errors import InvalidInput
    from bobing_vision.live.events import EventSink
    from bobing_vision.live.loop import LiveLoop, LoopConfig
    from bobing_vision.live.settle import SettleConfig
    from bobing_vision.live.sources import SourceConfig, open_source
    from bobing_vision.live.table import TableSetup, open_table
    from bobing_vision.vision.pipeline import OnnxDiceReader

    cv2.setNumThreads(1)  # the loop is one thread's work; the ONNX session has its own setting
    given = [flag for flag, value in (("--players", args.players), ("--rules", args.rules), ("--prizes", args.prizes)) if value]
    if args.resume is not None and given:
        raise InvalidInput(f"expected --resume alone (the journal holds the players, rules and prizes), got {given[0]} too")
    config = LoopConfig(settle=SettleConfig(settle_seconds=args.settle))
    journal = None
    if args.resume is None and not args.no_journal:
        journal = args.journal or Path(datetime.now().strftime(JOURNAL_PATTERN))
    setup = TableSetup(
        players=tuple((args.players or "A,B,C").split(",")),
        rules=args.rules,
        prizes=args.prizes,
        journal=journal,
        resume=args.resume,
        start_throw=tuple(args.start_throw) if args.start_throw else None,
    )
    source = open_source(args.source, SourceConfig(realtime=realtime))
    table, messages = open_table(setup)
    reader = OnnxDiceReader(models_dir=args.models, bowl=args.bowl, rules=table.game.rules)
    sink = EventSink(events_out) if events_out is not None else None
    return LiveLoop(source, reader, table, announcers, sink, config), table, messages


def read_commands(loop: LiveLoop, stream: IO[str], errors: IO[str]) -> threading.Thread:
    """A daemon thread turning typed lines into loop commands; a bad line gets a one-line answer."""
    from bobing_vision.errors import InvalidInput
    from bobing_vision.live.loop import parse_command

    def work() -> None:
        for line in stream:
            if not line.strip():
                continue
            try:
                loop.submit(parse_command(line))
            except InvalidInput as exc:
                print(f"  {exc}", file=errors, flush=True)

    thread = threading.Thread(target=work, name="stdin-commands", daemon=True)
    thread.start()
    return thread


def _window_key(loop: LiveLoop, key: str) -> None:
    """Single keys in the overlay window: v (void), n (new game), q (quit); faces are typed in the terminal."""
    from bobing_vision.live.loop import Command, CommandKind

    if key in ("v", "n", "q"):
        loop.submit(Command(CommandKind(key)))


def _open_events(spec: str | None) -> tuple[IO[str] | None, bool]:
    if spec is None:
        return None, False
    if spec == "-":
        return sys.stdout, False
    return open(spec, "a", encoding="utf-8"), True


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    from bobing_vision.errors import BobingError
    from bobing_vision.live.announce import OverlayAnnouncer, SpeechAnnouncer, TerminalAnnouncer
    from bobing_vision.live.loop import COMMAND_HELP

    # With --events - the JSON lines own stdout; people's lines go to stderr then.
    people = sys.stderr if args.events == "-" else sys.stdout
    announcers: list[Announcer] = [TerminalAnnouncer(people)]
    try:
        events_out, close_events = _open_events(args.events)
    except OSError as exc:
        print(f"bobing live: expected a writable events file, got {args.events} ({exc.strerror})", file=sys.stderr)
        return 2
    try:
        loop, table, messages = build_loop(args, announcers, events_out)
    except BobingError as exc:
        print(f"bobing live: {exc}", file=sys.stderr)
        return 2
    window = None if args.no_window else OverlayAnnouncer.available(lambda key: _window_key(loop, key))
    speech = None if args.no_speech else SpeechAnnouncer.available()
    loop.announcers += tuple(a for a in (window, speech) if a is not None)
    for line in messages + [f"watching {loop.source.name}; {COMMAND_HELP}"]:
        print(line, file=people, flush=True)
    if sys.stdin is not None and not sys.stdin.closed:
        read_commands(loop, sys.stdin, sys.stderr)
    try:
        stats = loop.run()
    except KeyboardInterrupt:
        loop.stop()
        print("\nstopped; every throw so far is in the journal", file=people, flush=True)
        return 130
    except BobingError as exc:
        print(f"bobing live: {exc}", file=sys.stderr)
        return 2
    finally:
        for announcer in loop.announcers:
            announcer.close()
        table.close()
        if close_events and events_out is not None:
            events_out.close()
    print(f"{stats.frames} frames, {stats.reads} reads, {stats.announcements} announcements", file=people, flush=True)
    if table.journal is not None and not table.game.over:
        print(f"carry on with: bobing live --source ... --resume {table.journal.path}", file=people, flush=True)
    return 0
