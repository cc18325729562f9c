"""What a throw did: the award, prizes moved, whose turn is next, whether the game is over."""

from __future__ import annotations

from dataclasses import dataclass, field

from bobing_vision.game.prizes import Transfer
from bobing_vision.rules import Award
from bobing_vision.rules.categories import BilingualEnum


class Ending(BilingualEnum):
    """How a game ended, with its Chinese and English description."""

    ROUND_FINISHED = ("round-finished", "一轮博完", "every prize gone and the last round finished")
    RED_SIX = ("red-six", "红六勃", "a 红六勃 ended the game at once")
    LIGHTS_OUT = ("lights-out", "黑六勃熄灯", "a 黑六勃 ended the game: lights out, the rest is shared")


@dataclass(frozen=True)
class Claim:
    """A player's counted 状元: the award and the throw number (1-based) that made it; earlier wins ties."""

    seat: int
    throw_no: int
    faces: tuple[int, ...]
    award: Award = field(compare=False)  # follows from faces under the game's rules


@dataclass(frozen=True)
class Outcome:
    """The result of applying one event. Seats are ints; `Game.players[seat]` names them."""

    seat: int | None  # who threw (None for the start throw)
    award: Award | None  # None: the start throw, an out-of-bowl throw, or a voided throw
    out_of_bowl: bool = False
    transfers: tuple[Transfer, ...] = ()
    champion: Claim | None = None  # the provisional (or, when over, final) 状元 after this event
    new_champion: bool = False  # this throw made the thrower the provisional 状元
    skipped: tuple[int, ...] = ()  # seats whose turn was skipped (out of bowl earlier)
    next_seat: int | None = None  # None when the game is over
    final_round: bool = False  # the game is in its last round (every prize below 状元 gone, a 状元 exists)
    ending: Ending | None = None  # set when the game is over
    corrected: bool = False  # this outcome replaces (or voids) the previous throw
    voided: bool = False

    @property
    def over(self) -> bool:
        return self.ending is not None
