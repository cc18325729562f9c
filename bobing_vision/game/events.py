"""What can happen at the table: immutable events that the game applies and the journal records."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bobing_vision.errors import InvalidInput
from bobing_vision.game.seating import validate_start_dice
from bobing_vision.rules import Throw

OUT_WORD = "out"  # how an out-of-bowl throw is written in text and in the journal


@dataclass(frozen=True)
class StartThrow:
    """Who throws the start dice (a seat) and what they show; decides the starting player."""

    thrower: int
    dice: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", validate_start_dice(self.dice))


@dataclass(frozen=True)
class ThrowEvent:
    """One throw by whoever's turn it is: six faces, or void because a die left the bowl (出碗)."""

    faces: tuple[int, ...] | None

    def __post_init__(self) -> None:
        if self.faces is not None:
            object.__setattr__(self, "faces", Throw(self.faces).faces)

    @classmethod
    def of(cls, faces: Sequence[int] | str) -> ThrowEvent:
        """From six faces or text: "444411", "4 4 4 4 1 1", or "out"."""
        if isinstance(faces, str):
            text = faces.strip().lower()
            return cls.out() if text == OUT_WORD else cls(Throw.parse(text).faces)
        return cls(tuple(faces))

    @classmethod
    def out(cls) -> ThrowEvent:
        return cls(None)

    @property
    def out_of_bowl(self) -> bool:
        return self.faces is None

    def __str__(self) -> str:
        return OUT_WORD if self.faces is None else "".join(map(str, self.faces))


@dataclass(frozen=True)
class Correction:
    """Fix the last throw (a misread): replace it with `replacement`, or void it when None."""

    replacement: ThrowEvent | None

    def __post_init__(self) -> None:
        if self.replacement is not None and not isinstance(self.replacement, ThrowEvent):
            raise InvalidInput(f"expected a ThrowEvent or None, got {type(self.replacement).__name__}")

    @classmethod
    def void(cls) -> Correction:
        return cls(None)

    @classmethod
    def fix(cls, faces: Sequence[int] | str) -> Correction:
        return cls(ThrowEvent.of(faces))


Event = StartThrow | ThrowEvent | Correction
