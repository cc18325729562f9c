"""Which of the pips found are the top face's: a face's pip layout fitted to them.

The pip reader also finds the pips of a side face that a tilted camera sees, and of a neighbour that
touches the die. Counted with the top face's, they make a die the face head reads right look misread:
on 14 generated sets, 2 in 3 of the dice refused for "N pips seen on a F" had the right face. A face's
pips have a fixed layout, so pips that fit face F's layout, with no other pip on the face that fit
describes, are F's pips; the others lie off the top face.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bobing_vision.die_faces import PIP_LAYOUT, face_reach, turned_half
from bobing_vision.vision.config import LayoutConfig
from bobing_vision.vision.detector import Pip, Point
from bobing_vision.vision.reading import Bowl


def layout_pips(pips: Sequence[Pip], center: Point, box_side: float, face: int,
                config: LayoutConfig) -> tuple[Pip, ...] | None:
    """The pips that show `face`, in their order, or None when no placement of its layout fits.

    `center` and `box_side` are the detector's axis-aligned box of the top face: a face turned by an
    angle fills (|cos| + |sin|) times its side of that box. The layout is tried at every turn and at
    a few sizes; each placement is shifted onto its nearest pips (`config.refits` times) and fits when
    every place has a pip within the tolerance (less than half the closest places' spacing, so each
    its own), its centre stays near the box's, and no other pip lies on the face.
    """
    layout = np.asarray(PIP_LAYOUT[face]) / 2  # in face sides
    if len(pips) < len(layout) or box_side <= 0:
        return None
    found = (np.asarray([p.center for p in pips], np.float64) - np.asarray(center)) / box_side  # (n, 2)
    # Every layout repeats in half a turn. A lone pip shows no turn at all: a 1 is taken square to its
    # box, the biggest face the box allows, or it could clear any neighbour's pip by claiming to be turned.
    step = config.angle_step_deg if len(layout) > 1 else 180.0
    angles = np.deg2rad(np.arange(0.0, 180.0, step))
    sides = 2 * turned_half(1.0, angles[:, None]) * np.asarray(config.scales)  # (A, S) face side in box sides
    cos, sin = np.cos(angles)[:, None, None], np.sin(angles)[:, None, None]  # (A, 1, 1), against the layout's (F,)
    lx, ly = layout[:, 0], layout[:, 1]
    places = np.stack([cos * lx - sin * ly, sin * lx + cos * ly], -1) * sides[:, :, None, None]  # (A, S, F, 2)

    def gaps(shift: np.ndarray) -> np.ndarray:  # (A, S, F, n): every place's distance to every pip
        return np.linalg.norm(places[:, :, :, None] + shift[:, :, None, None] - found, axis=-1)

    shift = np.zeros(sides.shape + (2,))
    for _ in range(config.refits + 1):
        shift = (found[gaps(shift).argmin(-1)] - places).mean(axis=2)
    distance = gaps(shift)
    nearest = distance.argmin(-1)
    close = (distance.min(-1) <= config.tolerance * sides[:, :, None]).all(-1)
    # Every pip in the fitted face's own frame, in face sides: on the face when within `clear` per axis.
    on_face = face_reach(found - shift[:, :, None], angles[:, None, None]) <= config.clear * sides[:, :, None]
    matched = (nearest[..., None] == np.arange(len(found))).any(axis=2)  # (A, S, n)
    centred = np.linalg.norm(shift, axis=-1) <= config.max_shift
    fits = close & centred & ~(on_face & ~matched).any(-1)
    if not fits.any():
        return None
    residual = np.where(fits, distance.min(-1).mean(-1), np.inf)
    best = np.unravel_index(int(residual.argmin()), residual.shape)
    keep = set(nearest[best].tolist())
    return tuple(p for i, p in enumerate(pips) if i in keep)


def face_aspect(pips: Sequence[Pip], bowl: Bowl) -> float | None:
    """How square the pips of a 4, 5 or 6 lie on the table: the narrower spread of their centres over
    the wider, after undoing the camera's tilt as the bowl's rim shows it (a circle seen as an ellipse:
    a face lying flat is foreshortened as the rim is). About 1 for a face lying flat; a leaning die's
    side, tilted towards the camera, is squeezed further. None for fewer than four pips: a 2 or a 3
    lies on a line and a 1 is one pip."""
    if len(pips) < 4:
        return None
    points = np.asarray([p.center for p in pips], np.float64)
    points -= points.mean(axis=0)
    spread = np.linalg.eigvalsh(np.cov(np.stack(bowl.rim_units(points[:, 0], points[:, 1]))))
    return float(np.sqrt(max(spread[0], 0.0) / spread[1])) if spread[1] > 0 else None
