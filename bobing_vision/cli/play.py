"""`bobing play`: a manual table for when there is no camera - type each throw, see the prizes move.

    bobing play [--players A,B,C] [--rules R] [--prizes cakes|goods|N1,..,N6]
                [--journal FILE | --resume FILE] [--start-throw D1 D2]
    bobing play --playoff A,B,C [--rules R]     (状元王中王 between table champions)

Every event goes to a journal (one fsync'd JSON line each), so a crashed or quit game resumes with
`--resume FILE`. End of input (Ctrl-D) leaves the journal complete and resumable.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TypeVar

# The game and the rules core are standard library only, so importing them here keeps `bobing` instant.
from bobing_vision.cli.arguments import add_table_arguments
from bobing_vision.errors import BobingError, InvalidInput
from bobing_vision.game import (
    Correction,
    Game,
    Journal,
    Outcome,
    Playoff,
    PrizeNames,
    StartThrow,
    ThrowEvent,
    resume,
)
from bobing_vision.game.seating import validate_start_dice
from bobing_vision.game.text import award_text, outcome_text, remaining_text, result_text, status_text
from bobing_vision.rules import RuleSet

T = TypeVar("T")

HELP = "a manual table: type each throw's faces"

COMMANDS = (
    "  444411 or 4 4 4 4 1 1   the six faces of this throw",
    "  out                     a die left the bowl: the throw is void",
    "  fix 444412 | fix out    correct the last throw",
    "  void                    cancel the last throw: that player throws again",
    "  status                  prizes left and who holds what",
    "  help                    this list",
    "  quit                    stop here; resume later with --resume",
)
QUIT_WORDS = ("quit", "q", "exit")
JOURNAL_PATTERN = "bobing-game-%Y%m%d-%H%M%S.jsonl"  # the default journal, in the current folder


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bobing play", description=HELP)
    add_table_arguments(
        parser, players_default="asked if omitted", journal_default="timestamped, here", start_default="asked if omitted"
    )
    parser.add_argument("--playoff", metavar="A,B,C", help="状元王中王: these table champions throw until a 状元 wins")
    return parser


def _say(lines: str | list[str]) -> None:
    print(lines if isinstance(lines, str) else "\n".join(lines), flush=True)


def _ask(prompt: str) -> str | None:
    """One line from stdin after a prompt; None at end of input."""
    print(prompt, end="", flush=True)
    line = sys.stdin.readline()
    if not line:
        print(flush=True)
        return None
    if not sys.stdin.isatty():  # typed input is echoed by the terminal; scripted input is not
        print(line.rstrip("\n"), flush=True)
    return line.strip()


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.playoff is not None:
            return _playoff(args)
        if args.start_throw is not None:  # checked before any journal file is made
            try:
                validate_start_dice(args.start_throw)
            except InvalidInput as exc:
                raise InvalidInput(f"--start-throw: {exc}") from None
        journal = _resume(args) if args.resume is not None else _new(args)
    except BobingError as exc:
        print(f"bobing play: {exc}", file=sys.stderr)
        return 2
    if journal is None:
        _say("no game started")
        return 0
    with journal:
        return _play(journal, args.start_throw)


def _new(args: argparse.Namespace) -> Journal | None:
    rules = RuleSet.load(args.rules) if args.rules else None
    prizes = PrizeNames.parse(args.prizes) if args.prizes else None
    if args.players is not None:
        game = Game(args.players.split(","), rules, prizes)
    else:
        asked = _until_valid(
            "players, clockwise, comma-separated (e.g. A,B,C): ", lambda text: Game(text.split(","), rules, prizes)
        )
        if asked is None:
            return None
        game = asked
    path = args.journal if args.journal is not None else Path(datetime.now().strftime(JOURNAL_PATTERN))
    journal = Journal.create(path, game)
    _say(f"journal: {path}   (resume with: bobing play --resume {path})")
    direction = game.rules.direction.value
    _say(f"seats, clockwise: {', '.join(game.players)}; rules: {game.rules.name}; play goes {direction}")
    return journal


def _resume(args: argparse.Namespace) -> Journal:
    options = (("--players", args.players), ("--rules", args.rules), ("--prizes", args.prizes))
    given = [flag for flag, value in options if value]
    if given:
        raise InvalidInput(f"expected --resume alone (the journal holds players, rules, prizes), got {given[0]} too")
    journal, torn = resume(args.resume)
    if torn is not None:
        _say(f"warning: {torn}")
    throws = journal.game.state.throws
    _say(f"resumed {args.resume}: {len(journal.game.log)} events, {throws} throws replayed")
    return journal


def _until_valid(prompt: str, make: Callable[[str], T]) -> T | None:
    """Ask until `make(answer)` accepts it; wrong input gets its message and the prompt again."""
    while True:
        answer = _ask(prompt)
        if answer is None:
            return None
        try:
            return make(answer)
        except InvalidInput as exc:
            _say(f"  {exc}")


def _play(journal: Journal, start_dice: list[int] | None) -> int:
    game = journal.game
    if journal.ended:
        _say(result_text(game))
        return 0
    if not game.started:
        thrower = game.players[0]
        if start_dice is not None:
            _show(journal, journal.apply(StartThrow(0, tuple(start_dice))))
        else:
            outcome = _until_valid(
                f"start throw: {thrower} throws two dice (e.g. 3 5): ",
                lambda text: journal.apply(StartThrow(0, _dice(text))),
            )
            if outcome is None:
                return _leave(journal)
            _show(journal, outcome)
    else:
        if start_dice is not None:
            _say("note: --start-throw ignored, the resumed game has already started")
        _say(status_text(game))
    while True:
        line = _ask(_prompt(journal))
        if line is None or line.lower() in QUIT_WORDS or (game.over and not line):
            return _leave(journal)
        try:
            _command(journal, line)
        except InvalidInput as exc:
            _say(f"  {exc}")


def _prompt(journal: Journal) -> str:
    game = journal.game
    if game.over:
        return "game over - 'fix'/'void' corrects the last throw; Enter or quit ends: "
    final = " final" if game.in_final_round else ""
    return f"[round {game.round}{final}] {game.current_player} throws: "


def _dice(text: str) -> tuple[int, ...]:
    digits = text.replace(",", " ").split()
    if len(digits) == 1:
        digits = list(digits[0])
    if not all(d.isascii() and d.isdigit() for d in digits):
        raise InvalidInput(f"expected two dice like '3 5', got {text!r}")
    return tuple(int(d) for d in digits)


def _command(journal: Journal, line: str) -> None:
    """One typed line: a throw, a correction, or a table command. Bad input raises InvalidInput."""
    word, _, rest = line.partition(" ")
    word = word.lower()
    if not line:
        return
    if word in ("status", "s"):
        _say(status_text(journal.game))
    elif word in ("help", "?", "h"):
        _say(["commands:", *COMMANDS])
    elif word == "void" and not rest:
        _show(journal, journal.apply(Correction.void()))
    elif word == "fix":
        if not rest.strip():
            raise InvalidInput("expected 'fix' followed by six faces or 'out', got nothing after it")
        _show(journal, journal.apply(Correction.fix(rest)))
    else:
        try:
            event = ThrowEvent.of(line)
        except InvalidInput as exc:
            raise InvalidInput(f"{exc} (or a command: out, fix, void, status, help, quit)") from None
        _show(journal, journal.apply(event))


def _show(journal: Journal, outcome: Outcome) -> None:
    game = journal.game
    _say(["  " + line for line in outcome_text(game, outcome)])
    _say(result_text(game) if game.over else "  " + remaining_text(game))


def _leave(journal: Journal) -> int:
    """End of input or quit: close a finished game's journal with its result, else say how to resume."""
    if journal.game.over:
        journal.end()
        _say(f"game closed; journal complete: {journal.path}")
    else:
        _say(f"game saved: {journal.path}   (resume with: bobing play --resume {journal.path})")
    return 0


def _playoff(args: argparse.Namespace) -> int:
    """状元王中王: each champion throws once a round; the round's best 状元 wins, else another round."""
    options = (("--players", args.players), ("--journal", args.journal), ("--resume", args.resume),
               ("--start-throw", args.start_throw), ("--prizes", args.prizes))  # fmt: skip
    given = [flag for flag, value in options if value is not None]
    if given:
        raise InvalidInput(f"expected --playoff with --rules only, got {given[0]} too")
    playoff = Playoff(args.playoff.split(","), RuleSet.load(args.rules) if args.rules else None)
    _say(f"状元王中王: {', '.join(playoff.champions)} throw once each; the best 状元 of a round wins")
    while playoff.winner is None and playoff.current is not None:
        thrower = playoff.champions[playoff.current]
        line = _ask(f"[play-off round {playoff.round_no}] {thrower} throws: ")
        if line is None or line.lower() in QUIT_WORDS:
            _say("play-off stopped without a winner")
            return 0
        if not line:
            continue
        try:
            outcome = playoff.apply(ThrowEvent.of(line))
        except InvalidInput as exc:
            _say(f"  {exc}")
            continue
        _say(f"  {thrower}: {'out of the bowl - no 状元' if outcome.award is None else award_text(outcome.award)}")
        if outcome.round_over and outcome.winner is None:
            _say("  no 状元 this round: everyone throws again")
    winner = playoff.winner
    assert winner is not None, "the loop runs until there is a winner"
    faces, category = "".join(map(str, winner.faces)), winner.award.category
    _say(f"状元王中王: {playoff.champions[winner.seat]} with {faces} {category.zh} {category.en}")
    return 0
