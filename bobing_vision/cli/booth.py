"""`bobing booth --source ...`: the live game on a local web page, for a demo booth.

    bobing booth --source 0 --players A,B,C [--host 127.0.0.1] [--port 8765] [live's table options]

The page is served on 127.0.0.1 unless another address is asked for. Correcting, voiding and new
games from the page need the operator token printed at start-up.
"""

from __future__ import annotations

import argparse
import ipaddress
import sys
import threading

from bobing_vision.cli.live import add_source_and_table_arguments

HELP = "the demo booth: live game on a local web page"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bobing booth", description=HELP)
    add_source_and_table_arguments(parser)
    parser.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 picks a free one)")
    parser.add_argument("--token", help="the operator token (default: a new random one, printed)")
    parser.add_argument("--fast", action="store_true", help="play a video or folder at once instead of at its own speed")
    return parser


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    from bobing_vision.booth.server import BoothServer, BoothState
    from bobing_vision.cli.live import build_loop
    from bobing_vision.errors import BobingError
    from bobing_vision.live.announce import TerminalAnnouncer

    state = BoothState()
    try:
        loop, table, messages = build_loop(args, [TerminalAnnouncer(sys.stdout), state], None, realtime=not args.fast)
    except BobingError as exc:
        print(f"bobing booth: {exc}", file=sys.stderr)
        return 2
    try:
        server = BoothServer(state, loop, args.host, args.port, args.token)
    except OSError as exc:
        print(f"bobing booth: expected a free address to serve on, got {args.host}:{args.port} ({exc.strerror})", file=sys.stderr)
        table.close()
        return 2
    state.set_table(table.view())
    for line in messages:
        print(line, flush=True)
    if not _is_loopback(args.host):
        print(f"note: serving on {args.host}: anyone on that network can watch (actions still need the token)", flush=True)
    print(f"booth: {server.url}", flush=True)
    print(f"operator: {server.url}#token={server.token}   (token: {server.token})", flush=True)
    runner = threading.Thread(target=loop.run, kwargs={"linger": True}, name="capture-loop", daemon=True)
    runner.start()
    try:
        server.serve_forever(poll_interval=0.25)
    except KeyboardInterrupt:
        print("\nstopped; every throw so far is in the journal", flush=True)
    finally:
        loop.stop()
        runner.join(timeout=5)
        server.server_close()
        table.close()
    return 0
