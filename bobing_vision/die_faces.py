"""Where the pips of each face of a die lie: shared by the scene generator, training and the reader."""

from __future__ import annotations

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
