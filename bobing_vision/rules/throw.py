"""Six dice faces, validated; round-trips as text ("444411")."""

from __future__ import annotations

import operator
from collections.abc import Iterable
from dataclasses import dataclass

from bobing_vision.errors import InvalidInput

DICE = 6  # a Bobing throw is always six dice
FACES = range(1, 7)  # a die shows 1..6
_SEPARATORS = " ,\t"  # allowed between faces in text: "4 4 4 4 1 1", "4,4,4,4,1,1"


def validate_faces(faces: object) -> tuple[int, ...]:
    """Six ints in 1..6 in any order (numpy ints too), or InvalidInput saying what was wrong."""
    if isinstance(faces, Throw):
        return faces.faces
    if isinstance(faces, (str, bytes)):
        raise InvalidInput(f"expected six integer faces, got the text {faces!r} (use Throw.parse for text)")
    if not isinstance(faces, Iterable):
        raise InvalidInput(f"expected six integer faces, got {type(faces).__name__} {faces!r}")
    items = list(faces)
    if len(items) != DICE:
        raise InvalidInput(f"expected {DICE} faces, got {len(items)}: {items!r}")
    values = tuple(_face(item) for item in items)
    bad = [value for value in values if value not in FACES]
    if bad:
        raise InvalidInput(f"expected faces in 1..6, got {bad[0]} in {list(values)!r}")
    return values


def _face(item: object) -> int:
    # bool is an int subclass but never a die face; operator.index admits numpy ints, refuses floats.
    if isinstance(item, bool):
        raise InvalidInput(f"expected an integer face, got bool {item!r}")
    try:
        return operator.index(item)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidInput(f"expected an integer face, got {type(item).__name__} {item!r}") from None


@dataclass(frozen=True)
class Throw:
    """Six faces in the order given; `str()` gives "444411" and `Throw.parse` reads it back."""

    faces: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "faces", validate_faces(self.faces))

    @classmethod
    def parse(cls, text: str) -> Throw:
        """Text like "444411", "4 4 4 4 1 1" or "4,4,4,4,1,1" -> Throw; anything else raises InvalidInput."""
        if not isinstance(text, str):
            raise InvalidInput(f"expected text like '444411', got {type(text).__name__} {text!r}")
        digits = "".join(ch for ch in text if ch not in _SEPARATORS)
        if not digits.isdigit() or not digits.isascii():
            raise InvalidInput(f"expected six faces 1..6 like '444411', got {text!r}")
        if len(digits) != DICE:
            raise InvalidInput(f"expected {DICE} faces like '444411', got {len(digits)} in {text!r}")
        return cls(tuple(int(ch) for ch in digits))

    def __str__(self) -> str:
        return "".join(str(face) for face in self.faces)
