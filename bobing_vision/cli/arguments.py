"""argparse value types shared by the commands."""

from __future__ import annotations

import argparse
from pathlib import Path


def positive_int(text: str) -> int:
    """argparse type: a whole number >= 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return value


def add_table_arguments(
    parser: argparse.ArgumentParser, *, players_default: str, journal_default: str, start_default: str
) -> argparse._MutuallyExclusiveGroup:
    """The table's options, the same for `play`, `live` and `booth`; the defaults differ by command.

    Returns the journal group, so a command can add another way of keeping (or not keeping) one.
    """
    parser.add_argument("--players", help=f"names, comma-separated, clockwise round the table ({players_default})")
    parser.add_argument("--rules", help="a rule preset or a rule-set TOML file (default: golden-flower-first)")
    parser.add_argument("--prizes", help="prize names: cakes (default), goods, or six names best first, comma-separated")
    journal = parser.add_mutually_exclusive_group()
    journal.add_argument("--journal", type=Path, help=f"journal file for a new game (default: {journal_default})")
    journal.add_argument("--resume", type=Path, help="carry on the game in this journal")
    parser.add_argument("--start-throw", nargs=2, type=int, metavar=("D1", "D2"), help=f"the two start dice ({start_default})")
    return journal
