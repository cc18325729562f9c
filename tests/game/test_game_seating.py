"""Seats, the start throw's count, turn order and who sits behind whom."""

import pytest

from bobing_vision.errors import InvalidInput
from bobing_vision.game.seating import Seating

CLOCKWISE, COUNTER = 1, -1


@pytest.mark.parametrize(
    ("case", "step", "thrower", "dice", "starter"),
    [
        ("clockwise, 1+1: the thrower counts as one, so the next seat", CLOCKWISE, 0, (1, 1), 1),
        ("counter-clockwise, 1+1: the seat before", COUNTER, 0, (1, 1), 3),
        ("clockwise, 3+5=8 goes round twice", CLOCKWISE, 0, (3, 5), 3),
        ("counter-clockwise, 3+5=8 goes round twice", COUNTER, 0, (3, 5), 1),
        ("clockwise from another thrower", CLOCKWISE, 2, (2, 3), 2),
        ("counter-clockwise, 6+6=12 lands on the seat before the thrower", COUNTER, 1, (6, 6), 2),
        ("three dice (seed 000's contest)", CLOCKWISE, 0, (1, 1, 1), 2),
    ],
)
def test_start_throw_counts_seats_from_the_thrower(case: str, step: int, thrower: int, dice: tuple, starter: int) -> None:
    seating = Seating(("A", "B", "C", "D"), step)
    assert seating.starting_seat(thrower, dice) == starter


@pytest.mark.parametrize(
    ("case", "step", "order", "behind_c"),
    [
        ("clockwise goes in the listed order", CLOCKWISE, [2, 3, 0, 1, 2], (1, 0, 3)),
        ("counter-clockwise goes against it", COUNTER, [2, 1, 0, 3, 2], (3, 0, 1)),
    ],
)
def test_turn_order_and_counting_backwards(case: str, step: int, order: list, behind_c: tuple) -> None:
    seating = Seating(("A", "B", "C", "D"), step)
    assert [seating.seat_at(2, turn) for turn in range(5)] == order
    assert seating.behind(2) == behind_c
    assert [seating.round_of(turn) for turn in (0, 3, 4, 8)] == [0, 0, 1, 2]


@pytest.mark.parametrize(
    ("case", "players", "message"),
    [
        ("nobody", [], "at least one player"),
        ("a blank name", ["A", " "], "every player to have a name"),
        ("a name twice", ["A", "B", "A"], "A more than once"),
        ("one string, not a list", "ABC", "list of player names"),
    ],
)
def test_bad_players_are_refused(case: str, players: object, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        Seating(players, CLOCKWISE)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("case", "dice", "message"),
    [
        ("one die", (3,), "2 or 3 dice"),
        ("a seven", (3, 7), "in 1..6"),
        ("a zero", (0, 2), "in 1..6"),
    ],
)
def test_bad_start_dice_are_refused(case: str, dice: tuple, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        Seating(("A", "B"), CLOCKWISE).starting_seat(0, dice)


def test_a_seat_outside_the_table_is_refused() -> None:
    with pytest.raises(InvalidInput, match="seat in 0..1"):
        Seating(("A", "B"), CLOCKWISE).starting_seat(2, (1, 1))
