"""The table game as the capture loop uses it: events in (journalled first), words and views out.

Everything that changes the game goes through `TableSession`, so the journal holds every throw and
every correction in the order they happened, and `--resume` replays to the same table.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from bobing_vision.game.events import Correction, Event, StartThrow, ThrowEvent
from bobing_vision.game.journal import Journal, resume
from bobing_vision.game.outcome import Outcome as GameOutcome
from bobing_vision.game.prizes import TIERS, PrizeNames
from bobing_vision.game.table import Game
from bobing_vision.live.announce import ScoreRow, TableView, award_words
from bobing_vision.rules import RuleSet, Tier


def tier_words(tier: Tier, count: int) -> str:
    return f"{tier.zh} ({tier.en.split(' (')[0]}) x{count}"


class TableSession:
    """A `Game` and its journal (when there is one): `throw`, `correct`, `view`, words for outcomes."""

    def __init__(self, game: Game, journal: Journal | None = None, rng: random.Random | None = None) -> None:
        if journal is not None and journal.game is not game:
            raise ValueError("expected the journal of this game, got another game's journal")
        self.game = game
        self.journal = journal
        self.games = 1  # games played at this table in this session (the booth can start new ones)
        self._rng = rng if rng is not None else random.Random()

    def ensure_started(self, start: tuple[int, ...] | None = None, thrower: int = 0) -> None:
        """The start throw (who begins), unless the game (a resumed one) has had it.

        Without given dice the two start dice are rolled here: the ritual is a random throw, and it
        is journalled like any other event, so a resumed game keeps the same starting player.
        """
        if self.game.started:
            return
        dice = start if start is not None else (self._rng.randint(1, 6), self._rng.randint(1, 6))
        self.apply(StartThrow(thrower=thrower, dice=tuple(dice)))

    def apply(self, event: Event) -> GameOutcome:
        """Apply and journal (fsync'd); a refused event (InvalidInput) changes and writes nothing."""
        if self.journal is None:
            return self.game.apply(event)
        outcome = self.journal.apply(event)
        if self.game.over:
            self.journal.end()
        return outcome

    def new_game(self) -> None:
        """The same players and rules, prizes back on the table; a journalled table gets a new file."""
        old = self.game
        self.game = Game(old.players, old.rules, old.prizes)
        self.games += 1
        if self.journal is not None:
            self.journal.close()
            path = self.journal.path
            fresh = path.with_name(f"{path.stem}.game{self.games}{path.suffix}")
            self.journal = Journal.create(_unused(fresh), self.game)
        self.ensure_started()

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()

    def throw(self, faces: tuple[int, ...] | None) -> GameOutcome:
        """A throw for whoever's turn it is; None is a void throw (a die out of the bowl)."""
        return self.apply(ThrowEvent(faces))

    def correct(self, faces: tuple[int, ...] | None) -> GameOutcome:
        """Replace the last standing throw's faces, or void it (None)."""
        return self.apply(Correction(None if faces is None else ThrowEvent(faces)))

    @property
    def turn(self) -> str | None:
        return self.game.current_player

    def prize_words(self, outcome: GameOutcome) -> str | None:
        """What the thrower won (or took, 追), in words; None when nothing moved to them."""
        if outcome.seat is None:
            return None
        players = self.game.players
        parts = []
        for transfer in outcome.transfers:
            if transfer.target != outcome.seat or transfer.tier is Tier.ZHUANGYUAN:
                continue
            words = f"wins {tier_words(transfer.tier, transfer.count)}, {self.game.prizes.of(transfer.tier)}"
            if transfer.source is not None:
                words += f", taken from {players[transfer.source]}"
            parts.append(words)
        if outcome.new_champion:
            parts.append(f"holds {Tier.ZHUANGYUAN.zh} (provisional)")
        return "; ".join(parts) or None

    def view(self) -> TableView:
        game = self.game
        champion = game.champion
        rows = tuple(
            ScoreRow(
                player=name,
                prizes=tuple(game.holdings(seat).items()),
                zhuangyuan=champion is not None and champion.seat == seat,
            )
            for seat, name in enumerate(game.players)
        )
        remaining = game.remaining
        zhuangyuan = None
        if champion is not None:
            faces = "".join(map(str, champion.faces))
            zhuangyuan = f"{game.players[champion.seat]} {faces} {award_words(champion.award)}"
        ending = game.ending
        return TableView(
            players=game.players,
            turn=game.current_player,
            scoreboard=rows,
            prizes_left=tuple((tier, remaining[tier]) for tier in TIERS),
            zhuangyuan=zhuangyuan,
            over=None if ending is None else f"{ending.zh} — {ending.en}",
            throws=game.state.throws,
        )


def _unused(path: Path) -> Path:
    """`path`, or the first `path.N` that does not exist yet (a journal is never overwritten)."""
    candidate, n = path, 1
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{path.stem}.{n}{path.suffix}")
    return candidate


@dataclass(frozen=True)
class TableSetup:
    """How to seat a table: a new game (players, rules, prizes, journal) or a resumed journal."""

    players: tuple[str, ...] = ("A", "B", "C")
    rules: str | None = None  # a preset name or a TOML file; None: the default preset
    prizes: str | None = None  # cakes, goods, or six names
    journal: Path | None = None  # a new game's journal; None: no journal
    resume: Path | None = None  # carry on this journal instead of a new game
    start_throw: tuple[int, ...] | None = None  # the two start dice; None: rolled


def open_table(setup: TableSetup, rng: random.Random | None = None) -> tuple[TableSession, list[str]]:
    """The table to play at, started, and lines worth telling the operator (torn journal, resumed)."""
    messages: list[str] = []
    journal: Journal | None = None
    if setup.resume is not None:
        journal, torn = resume(setup.resume)
        if torn is not None:
            messages.append(f"warning: {torn}")
        game = journal.game
        messages.append(f"resumed {setup.resume}: {game.state.throws} throws replayed; {game.current_player} to throw")
        if setup.start_throw is not None and game.started:
            messages.append("note: the start throw is ignored, the resumed game has already started")
    else:
        rules = RuleSet.load(setup.rules) if setup.rules else None
        prizes = PrizeNames.parse(setup.prizes) if setup.prizes else None
        game = Game(setup.players, rules, prizes)
        journal = Journal.create(setup.journal, game) if setup.journal is not None else None
        if journal is not None:
            messages.append(f"journal: {setup.journal} (carry on later with --resume {setup.journal})")
    table = TableSession(game, journal, rng)
    table.ensure_started(setup.start_throw)
    if setup.resume is None:
        messages.append(f"seats: {', '.join(game.players)}; rules: {game.rules.name}; {table.turn} throws first")
    return table, messages
