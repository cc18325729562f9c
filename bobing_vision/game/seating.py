"""Who sits where, who starts, and whose turn the k-th turn is.

Players are listed clockwise around the table. Turns go round in the rule set's direction; the
start throw counts n seats from the thrower, the thrower being the first (RULES.md: "count n seats").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bobing_vision.errors import InvalidInput

START_DICE = (2, 3)  # two dice by most sheets; seed 000's contest throws three


def validate_players(players: Sequence[str]) -> tuple[str, ...]:
    """Non-empty, unique, trimmed names in clockwise seat order, or InvalidInput."""
    if isinstance(players, str):
        raise InvalidInput(f"expected a list of player names, got the text {players!r}")
    names = tuple(str(name).strip() for name in players)
    if not names:
        raise InvalidInput("expected at least one player, got none")
    if any(not name for name in names):
        raise InvalidInput(f"expected every player to have a name, got {list(players)!r}")
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise InvalidInput(f"expected unique player names, got {', '.join(repeated)} more than once")
    return names


def validate_start_dice(dice: Sequence[int]) -> tuple[int, ...]:
    """Two (or three) dice in 1..6 for the start throw, or InvalidInput."""
    values = tuple(dice)
    if len(values) not in START_DICE:
        raise InvalidInput(f"expected 2 or 3 dice for the start throw, got {len(values)}: {list(values)!r}")
    bad = [value for value in values if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6]
    if bad:
        raise InvalidInput(f"expected start dice in 1..6, got {bad[0]!r} in {list(values)!r}")
    return values


@dataclass(frozen=True)
class Seating:
    """The table's seats: `step` is +1 when play goes clockwise (the listed order), -1 otherwise."""

    players: tuple[str, ...]
    step: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", validate_players(self.players))
        if self.step not in (1, -1):
            raise InvalidInput(f"expected a step of +1 or -1, got {self.step!r}")

    @property
    def size(self) -> int:
        return len(self.players)

    def seat_of(self, name: str) -> int:
        """The seat of a player by name, or InvalidInput listing the players."""
        try:
            return self.players.index(name)
        except ValueError:
            raise InvalidInput(f"expected one of {', '.join(self.players)}, got {name!r}") from None

    def validate_seat(self, seat: int) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.size:
            raise InvalidInput(f"expected a seat in 0..{self.size - 1}, got {seat!r}")
        return seat

    def starting_seat(self, thrower: int, dice: Sequence[int]) -> int:
        """Count sum(dice) seats in the direction of play, the thrower being the first."""
        count = sum(validate_start_dice(dice))
        return (self.validate_seat(thrower) + self.step * (count - 1)) % self.size

    def seat_at(self, start: int, turn: int) -> int:
        """The seat whose turn the `turn`-th turn (0 = the starting player's first) is."""
        return (start + self.step * turn) % self.size

    def round_of(self, turn: int) -> int:
        """0-based round of a turn: a round is one turn for every seat, beginning at the starting seat."""
        return turn // self.size

    def behind(self, seat: int) -> tuple[int, ...]:
        """The other seats counting backwards (against the direction of play) from `seat`, nearest first."""
        return tuple((seat - self.step * offset) % self.size for offset in range(1, self.size))
