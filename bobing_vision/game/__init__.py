"""The table's game: seats, turns, the 63 prizes, the provisional 状元, endings, and its journal.

    >>> from bobing_vision.game import Game, StartThrow, ThrowEvent
    >>> game = Game(["A", "B", "C"])
    >>> game.apply(StartThrow(thrower=0, dice=(1, 1))).next_seat   # count 2 from A, counter-clockwise
    2
    >>> outcome = game.apply(ThrowEvent.of("444463"))
    >>> outcome.award.category.zh, game.players[outcome.champion.seat], game.current_player
    ('四红', 'C', 'B')
"""

from bobing_vision.game.events import Correction, Event, StartThrow, ThrowEvent
from bobing_vision.game.journal import Journal, Replayed, TornLine, replay, resume
from bobing_vision.game.outcome import Claim, Ending, Outcome
from bobing_vision.game.playoff import Playoff, PlayoffOutcome
from bobing_vision.game.prizes import PrizeNames, Transfer
from bobing_vision.game.table import Game, TableState

__all__ = [
    "Claim",
    "Correction",
    "Ending",
    "Event",
    "Game",
    "Journal",
    "Playoff",
    "PlayoffOutcome",
    "PrizeNames",
    "Replayed",
    "StartThrow",
    "TableState",
    "ThrowEvent",
    "TornLine",
    "Transfer",
    "replay",
    "resume",
]
