"""Where the pips of each face of a die lie, and a turned face's geometry seen from above: shared by the
scene generator, training and the reader."""

from __future__ import annotations

import numpy as np

# Pip centres in face coordinates (u, v in -1..1 of the half side). 2, 3 and 6 are not symmetric under a
# quarter turn, so they turn with the die.
PIP_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.0, 0.0),),
    2: ((-0.5, -0.5), (0.5, 0.5)),
    3: ((-0.52, -0.52), (0.0, 0.0), (0.52, 0.52)),
    4: ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)),
    5: ((-0.52, -0.52), (0.52, -0.52), (0.0, 0.0), (-0.52, 0.52), (0.52, 0.52)),
    6: ((-0.48, -0.56), (-0.48, 0.0), (-0.48, 0.56), (0.48, -0.56), (0.48, 0.0), (0.48, 0.56)),
}


def turned_half(box_side: float, turn: np.ndarray | float) -> np.ndarray | float:
    """Half the side of a face turned by `turn` that just fills a box of `box_side`: the box is
    (|cos t| + |sin t|) times the face's side."""
    return box_side / 2 / (np.abs(np.cos(turn)) + np.abs(np.sin(turn)))


def face_reach(offsets: np.ndarray, turn: np.ndarray | float) -> np.ndarray:
    """How far each (x, y) offset (last axis) from a face's centre reaches along the axes of the face
    turned by `turn` (the larger); `turn` broadcasts against the offsets' other axes."""
    u = offsets[..., 0] * np.cos(turn) + offsets[..., 1] * np.sin(turn)
    v = -offsets[..., 0] * np.sin(turn) + offsets[..., 1] * np.cos(turn)
    return np.maximum(np.abs(u), np.abs(v))
