"""Whether a thing in the bowl is the bowl's own painting: its look recurs around the bowl.

A bowl's painting repeats around its centre: a ring of dots, scallops, a sprig drawn six or eight
times. A die lies in one place. So the look of a patch around a candidate is matched all the way
round its ring of the bowl, in the bowl's own frame (radius by angle about the rim's centre, the
camera's tilt undone by the rim's ellipse, so the ring is a straight strip and a motif drawn again
further round looks the same). Painting matches itself (normalised cross-correlation) at several
places round the ring; a die's pips and edges are nowhere else on it. What is the same all the way
round (a painted circle, the wall's shading) is taken out first, places as faint as a stain do not
count, and neither do the places of the other candidates: dice alike are not painting. Near the
centre, where a ring is too short to hold the patch a few times, and near the rim, nothing is said."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from bobing_vision.vision.bowl import outline
from bobing_vision.vision.reading import Bowl, Point

SAMPLES_PER_DIE = 10  # the patch is sampled this finely across a die's width: enough for its pips, and cheap
PATCH = 0.9  # the patch's side, in die widths: the die, hardly what it lies on (a line through it would be most of it)
SLACK = 0.3  # the ring's strip is this many die widths deeper on each side: a floor's motif and the
# rim's centre part a little when the camera leans (the rim's ellipse is not the floor's)
MIN_RING = 4.0  # the ring must be this many patches long, or it holds too little to repeat
INNER, OUTER = 0.2, 0.95  # the radii (shares of the rim's) between which a patch is matched
MIN_STRENGTH = 0.5  # a recurrence's spread of colour is at least this share of the patch's
MIN_SPREAD = 3.0  # a patch whose colour spreads less than this (0..255 levels) is plain
SELF_BAN = 1.5  # no recurrence within this many patches of itself: it would be the patch again, shifted
RECURRENCES = 2  # painting recurs at this many places round its ring at least: a motif is drawn again and again


def ring_repeats(image: np.ndarray, bowl: Bowl, centers: Sequence[Point],
                 widths: Sequence[float]) -> list[float | None]:
    """For each candidate (its centre and width in frame pixels), how well the look around it recurs
    elsewhere on its ring of the bowl, at `RECURRENCES` places or more (normalised cross-correlation,
    -1..1), away from it and from every other candidate; None where its ring is too short, it lies too
    near the rim, or the look is plain."""
    polar = [_polar(bowl, c) for c in centers]
    return [_repeat(image, bowl, polar, widths, k) for k in range(len(polar))]


def _repeat(image: np.ndarray, bowl: Bowl, polar: Sequence[tuple[float, float]], widths: Sequence[float],
            k: int) -> float | None:
    """`ring_repeats` for the `k`-th candidate."""
    (rho, angle), width = polar[k], widths[k]
    radius = (bowl.rx + bowl.ry) / 2  # frame pixels per rim unit, on average
    step = max(width, 1.0) / SAMPLES_PER_DIE  # frame pixels per sample, along and across the ring
    side = int(round(PATCH * SAMPLES_PER_DIE)) | 1  # odd: the patch has a middle sample
    ring = 2 * np.pi * rho * radius  # the ring's length in frame pixels
    if not INNER <= rho <= OUTER or ring < MIN_RING * side * step:
        return None
    columns = int(ring / step)
    depth = side + 2 * int(round(SLACK * SAMPLES_PER_DIE))
    strip = _strip(image, bowl, rho, radius, step, depth, columns)
    first = int(round(angle / (2 * np.pi) * columns)) - side // 2  # the patch's first column
    rows = slice((depth - side) // 2, (depth - side) // 2 + side)
    patch = np.take(strip[rows], np.arange(first, first + side), axis=1, mode="wrap")
    own = float(patch.std(axis=(0, 1)).mean())
    if own < MIN_SPREAD:  # a plain patch matches any plain stretch: nothing to say
        return None
    wrapped = np.concatenate([strip, strip[:, :side - 1]], axis=1)  # every start round the ring
    scores = cv2.matchTemplate(wrapped, patch, cv2.TM_CCOEFF_NORMED)
    # painting drawn again is as strong as here; a faint stain shaped alike is no recurrence
    scores[_spread(wrapped, side) < MIN_STRENGTH * own] = -1.0
    match = scores.max(axis=0)[:columns]
    # A start whose patch overlaps this candidate or another on the ring is no recurrence
    middles = np.arange(columns) + side // 2  # each start's middle column
    banned = _near(middles, first + side // 2, SELF_BAN * side, columns)
    for j, ((rho2, angle2), width2) in enumerate(zip(polar, widths)):
        if j != k and abs(rho2 - rho) * radius < (SLACK + PATCH / 2) * width + width2 / 2:
            reach = (PATCH * width + width2) / 2 / step
            banned |= _near(middles, angle2 / (2 * np.pi) * columns, reach, columns)
    # The look must recur at several places a patch apart: one look-alike somewhere is chance
    match[banned] = -1.0
    found = -1.0
    for _ in range(RECURRENCES):
        best = int(match.argmax())
        found = float(match[best])
        match[_near(middles, middles[best], side, columns)] = -1.0
    return found


def _polar(bowl: Bowl, point: Point) -> tuple[float, float]:
    """A frame point's radius (in rim units) and angle (0..2 pi) about the rim's centre."""
    u, v = bowl.rim_units(point[0] - bowl.cx, point[1] - bowl.cy)
    return float(np.hypot(u, v)), float(np.arctan2(v, u)) % (2 * np.pi)


def _strip(image: np.ndarray, bowl: Bowl, rho: float, radius: float, step: float, depth: int,
           columns: int) -> np.ndarray:
    """The ring of radius `rho` unrolled: `depth` rows across it, `columns` along it, `step` frame
    pixels apart, float BGR."""
    across = np.maximum(rho + (np.arange(depth) - (depth - 1) / 2) * step / radius, 0.0)
    points = np.stack([outline((bowl.cx, bowl.cy, r * bowl.rx, r * bowl.ry, bowl.angle_deg), columns) for r in across])
    sampled = cv2.remap(image, points[..., 0].astype(np.float32), points[..., 1].astype(np.float32),
                        cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    # What is the same all the way round (a painted ring, the wall's shading) recurs everywhere and says
    # nothing: only what varies along the ring is matched
    return sampled - np.median(sampled, axis=1, keepdims=True)


def _spread(strip: np.ndarray, side: int) -> np.ndarray:
    """Each `side` x `side` window's standard deviation (the mean of its channels'), laid out as
    `cv2.matchTemplate` lays out its starts."""
    mean = cv2.blur(strip, (side, side), borderType=cv2.BORDER_CONSTANT)
    square = cv2.blur(strip * strip, (side, side), borderType=cv2.BORDER_CONSTANT)
    spread = np.sqrt(np.maximum(square - mean * mean, 0.0)).mean(axis=2)
    half = side // 2
    return spread[half:strip.shape[0] - half, half:strip.shape[1] - half]


def _near(columns: np.ndarray, centre: float, reach: float, length: int) -> np.ndarray:
    """Which columns lie within `reach` of `centre` round a ring `length` columns long."""
    gap = np.abs(columns - centre) % length
    return np.minimum(gap, length - gap) < reach
