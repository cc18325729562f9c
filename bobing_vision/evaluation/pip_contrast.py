"""How much a labelled die's pips stand out in the photo itself, after the light, the blur and the JPEG.

A generated die's colours are drawn far enough apart (`synth.dice.pips_stand_out`), but glare, an
exposure that clips, soft focus or a small die can still wash its pips out until a person could not
count them either. The CIELAB distance between the pips' median colour and the median colour of the
face around them says which faces a reader can fairly be asked to read: on the generated sets, faces
whose pips stand out by under 20 are read right about half as often (models/HISTORY.md).
"""

from __future__ import annotations

import numpy as np

from bobing_vision.dataset.labels import DieLabel

# Shares of the labelled top-face box's width (a face turned 45 degrees has a box 1.41 times its side).
PIP_CORE = 0.045  # the middle of every pip: inside the smallest pip drawn, whatever the turn
PIP_CLEARANCE = 0.15  # the face's own colour is taken this far from every pip centre, or more...
BIG_PIP_CLEARANCE = 0.27  # ...from a lone 1, which Chinese dice paint big
FACE_REACH = 0.32  # ...and this near the face's centre: on its top face, clear of its edges and sides


def pip_contrast(image: np.ndarray, die: DieLabel) -> float | None:
    """The CIELAB distance (0..~150) between the die's pips and its face in `image` (BGR uint8), or None
    when the label has no pips or no box, or the face lies off the image."""
    import cv2

    if not die.pips or die.box is None:
        return None
    x0, y0, x1, y1 = die.box
    width = ((x1 - x0) + (y1 - y0)) / 2
    cx, cy = die.center
    reach = int(np.ceil(FACE_REACH * width)) + 1
    left, top = max(0, int(cx) - reach), max(0, int(cy) - reach)
    patch = image[top : int(cy) + reach + 1, left : int(cx) + reach + 1]
    if patch.size == 0:
        return None
    lab = cv2.cvtColor(patch.astype(np.float32) * np.float32(1 / 255), cv2.COLOR_BGR2Lab)
    yy, xx = np.mgrid[top : top + patch.shape[0], left : left + patch.shape[1]]
    nearest = np.full(patch.shape[:2], np.inf)
    for pip in die.pips:
        nearest = np.minimum(nearest, np.hypot(xx - pip.center[0], yy - pip.center[1]))
    pips = nearest <= max(PIP_CORE * width, 0.5)
    clearance = (BIG_PIP_CLEARANCE if len(die.pips) == 1 else PIP_CLEARANCE) * width
    face = (np.hypot(xx - cx, yy - cy) <= FACE_REACH * width) & (nearest >= clearance)
    if not pips.any() or not face.any():
        return None
    return float(np.linalg.norm(np.median(lab[pips], axis=0) - np.median(lab[face], axis=0)))
