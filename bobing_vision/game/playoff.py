"""状元王中王: the 状元 of several tables each throw once; the best 状元 of the round wins.

If nobody throws a 状元 in a round, everyone throws again (seed 000: 若一轮掷骰子结束，无状元产出，
则继续下一轮投掷). An exact tie goes to the earlier throw, as at the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bobing_vision.errors import InvalidInput
from bobing_vision.game.events import ThrowEvent
from bobing_vision.game.outcome import Claim
from bobing_vision.game.seating import validate_players
from bobing_vision.game.table import best_claim
from bobing_vision.rules import Award, RuleSet, classify


@dataclass(frozen=True)
class PlayoffOutcome:
    """One play-off throw: who threw (index into the champions), the award, and the round's result."""

    thrower: int
    award: Award | None  # None: out of the bowl, which counts as that champion's throw
    round_no: int  # 1-based round this throw belonged to
    round_over: bool
    winner: Claim | None  # set once the play-off is decided
    next_thrower: int | None


class Playoff:
    """The play-off between table champions, in the order given."""

    def __init__(self, champions: Sequence[str], rules: RuleSet | None = None) -> None:
        self.champions = validate_players(champions)
        self.rules = rules if rules is not None else RuleSet.preset(RuleSet.presets()[0])
        self._throws = 0
        self._round: list[Claim] = []  # this round's 状元 throws
        self.winner: Claim | None = None

    @property
    def round_no(self) -> int:
        return self._throws // len(self.champions) + 1

    @property
    def current(self) -> int | None:
        """Index of the champion to throw next; None once decided."""
        return None if self.winner is not None else self._throws % len(self.champions)

    def apply(self, event: ThrowEvent) -> PlayoffOutcome:
        if self.winner is not None:
            won = self.champions[self.winner.seat]
            raise InvalidInput(f"expected no more throws: {won} won the play-off, got {event}")
        thrower = self._throws % len(self.champions)
        round_no = self.round_no
        award = None if event.faces is None else classify(event.faces, self.rules)
        self._throws += 1
        if award is not None and award.is_zhuangyuan and event.faces is not None:
            self._round.append(Claim(thrower, self._throws, event.faces, award))
        round_over = self._throws % len(self.champions) == 0
        if round_over:
            self.winner = best_claim(self._round)
            self._round = []
        return PlayoffOutcome(thrower, award, round_no, round_over, self.winner, self.current)
