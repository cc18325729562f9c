"""`bobing COMMAND ...`: dispatches to bobing_vision.cli.<command>.main, importing only that module.

Each command module exposes `HELP` (one line) and `main(argv: list[str] | None) -> int`; heavy imports
(OpenCV, onnxruntime, torch) happen inside the command, so `bobing --version` stays instant.
"""

from __future__ import annotations

import importlib
import sys

from bobing_vision import __version__

# command name -> (module, one-line help). The module is imported only when its command runs.
COMMANDS: dict[str, tuple[str, str]] = {
    "classify": ("bobing_vision.cli.classify", "one throw's award from six faces"),
    "play": ("bobing_vision.cli.play", "a manual table: type each throw's faces"),
    "synth": ("bobing_vision.cli.synth", "generate labelled bowl scenes and throw clips"),
    "eval": ("bobing_vision.cli.eval", "score the dice reader on a labelled image set"),
    "score": ("bobing_vision.cli.score", "read and score photos: files or folders"),
    "train": ("bobing_vision.cli.train", "train the dice models and export ONNX (needs torch)"),
    "calibrate": ("bobing_vision.cli.calibrate", "find the bowl in a camera view and save it"),
    "live": ("bobing_vision.cli.live", "watch a camera over the bowl and run the table's game"),
    "booth": ("bobing_vision.cli.booth", "the demo booth: live game on a local web page"),
}


def _usage() -> str:
    width = max(len(name) for name in COMMANDS)
    lines = ["usage: bobing COMMAND [ARGS...]", "", "commands:"]
    lines += [f"  {name.ljust(width)}  {help_}" for name, (_, help_) in COMMANDS.items()]
    lines += ["", "`bobing COMMAND --help` for a command's options; `bobing --version`."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(_usage())
        return 0 if args else 2
    if args[0] == "--version":
        print(f"bobing_vision {__version__}")
        return 0
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(f"bobing: unknown command {name!r}; expected one of: {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    try:
        module = importlib.import_module(COMMANDS[name][0])
    except ModuleNotFoundError as exc:
        print(f"bobing {name}: not available ({exc})", file=sys.stderr)
        return 2
    try:
        return int(module.main(rest))
    except KeyboardInterrupt:
        print(f"\nbobing {name}: interrupted", file=sys.stderr)
        return 130
