"""状元王中王: table champions throw once each; the best 状元 of the round wins, else another round."""

import random

import pytest

from bobing_vision.errors import InvalidInput
from bobing_vision.game import Playoff, ThrowEvent
from bobing_vision.rules import RuleSet

CHAMPIONS = ["table 1", "table 2", "table 3"]


@pytest.mark.parametrize(
    ("case", "throws", "winner", "rounds"),
    [
        ("the best 状元 of the round wins", ["444423", "111112", "444466"], "table 2", 1),
        ("an exact tie goes to the earlier throw", ["112233", "444433", "444415"], "table 2", 1),
        ("nobody: another round, until someone", ["112233", "out", "123456", "112233", "444463", "112233"], "table 2", 2),
        ("the last thrower of the round can still win", ["444423", "112233", "444441"], "table 3", 1),
    ],
)
def test_playoff(case: str, throws: list, winner: str, rounds: int) -> None:
    playoff = Playoff(CHAMPIONS)
    for number, text in enumerate(throws, start=1):
        assert playoff.winner is None, f"decided before throw {number}"
        assert playoff.current == (number - 1) % len(CHAMPIONS)
        outcome = playoff.apply(ThrowEvent.of(text))
    assert outcome.round_over and outcome.round_no == rounds and outcome.next_thrower is None
    assert playoff.winner is not None and CHAMPIONS[playoff.winner.seat] == winner
    with pytest.raises(InvalidInput, match=f"{winner} won the play-off"):
        playoff.apply(ThrowEvent.of("444444"))


def test_the_winner_is_decided_only_when_the_round_is_over() -> None:
    playoff = Playoff(CHAMPIONS)
    outcome = playoff.apply(ThrowEvent.of("444444"))
    assert not outcome.round_over and outcome.winner is None and outcome.next_thrower == 1


def test_a_seeded_playoff_always_ends_with_a_zhuangyuan() -> None:
    rng = random.Random(2026)
    playoff = Playoff(CHAMPIONS, RuleSet.preset("competition"))
    rounds = 0
    while playoff.winner is None:
        outcome = playoff.apply(ThrowEvent(tuple(rng.randint(1, 6) for _ in range(6))))
        rounds = outcome.round_no
    assert playoff.winner.award.is_zhuangyuan
    assert rounds > 1  # a 状元 is rare (~1 throw in 80): this seed needs several rounds
