"""Throw: six validated faces that round-trip as text."""

from __future__ import annotations

import pytest

from bobing_vision.errors import InvalidInput
from bobing_vision.rules import Throw


@pytest.mark.parametrize(
    "text", [pytest.param("444411", id="digits"), pytest.param("4 4 4 4 1 1", id="spaces"), pytest.param("4,4,4,4,1,1", id="commas")]
)
def test_parse_keeps_the_order_given(text: str) -> None:
    throw = Throw.parse(text)
    assert throw.faces == (4, 4, 4, 4, 1, 1)
    assert str(throw) == "444411" and Throw.parse(str(throw)) == throw


def test_constructor_validates_and_stores_a_tuple() -> None:
    assert Throw([6, 5, 4, 3, 2, 1]).faces == (6, 5, 4, 3, 2, 1)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="expected faces in 1..6, got 7"):
        Throw((1, 2, 3, 4, 5, 7))


BAD_TEXT = [
    ("too_short", "44441", "expected 6 faces like '444411', got 5"),
    ("too_long", "4444111", "got 7"),
    ("letters", "4444a1", "expected six faces 1..6 like '444411', got '4444a1'"),
    ("seven", "444417", "expected faces in 1..6, got 7"),
    ("empty", "", "expected six faces 1..6"),
    ("full_width_digits", "４４４４１１", "expected six faces 1..6"),
]


@pytest.mark.parametrize(("text", "message"), [r[1:] for r in BAD_TEXT], ids=[r[0] for r in BAD_TEXT])
def test_parse_errors(text: str, message: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        Throw.parse(text)
    assert message in str(caught.value)


def test_parse_refuses_non_text() -> None:
    with pytest.raises(InvalidInput, match="expected text like '444411', got int"):
        Throw.parse(444411)  # type: ignore[arg-type]
