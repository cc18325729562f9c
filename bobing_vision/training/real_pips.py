"""Pip labels for real photos, whose labels give each die's face but not its pips.

The face's pip layout is fitted to the pip-like blobs of the die's crop (turn, spacing and shift
searched), and the fitted pips are kept only where the fit is clear: every pip a blob, every empty
place of the 3x3 grid empty, no other blob on the face. On 100 generated scenes (seed 777): 349 of
575 dice fitted, 2 of them wrong, the red flag right on 347; byler's photos 913 of 1487, dice3's
(oblique) 84 of 627. Off by default (`bobing train --real-pips`): trained with them, the pip head
agreed with the face no more often on the very photos fitted (models/HISTORY.md, twelfth session).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from bobing_vision.die_faces import PIP_LAYOUT, face_reach, turned_half
from bobing_vision.synth.dice import is_red, reddish
from bobing_vision.training.scenes import UNREADABLE, DieTarget, Scene
from bobing_vision.vision.detector import cut_crops

GRID = tuple((u, v) for v in (-0.5, 0.0, 0.5) for u in (-0.5, 0.0, 0.5))  # where a die's pips can be


@dataclass(frozen=True)
class PipFitConfig:
    crop: int = 80  # the die's crop side for fitting
    face_fraction: float = 0.6  # the labelled box fills this share of the crop's side
    # The top face's side as a share of the labelled box's (before a turned face's shrink): labelled
    # boxes run from tight to a third loose.
    face_shares: tuple[float, ...] = (0.6, 0.72, 0.84, 0.96, 1.08, 1.2)
    turn_step_deg: float = 5.0
    shifts: tuple[float, ...] = (-0.15, -0.1, -0.05, 0.0, 0.05, 0.1, 0.15)  # of the box side, each axis
    pip_radius: float = 0.06  # of the box side
    # The weakest fitted pip's response (1: the crop's strongest blobs), and its margin over the strongest
    # empty place of the grid. Seed 777, dice of 16 px and more, before the stray and colour checks:
    # from 0.5, 74% of dice fitted and 1.7% of the fits wrong; from 0.3, 77% and 4.7%.
    min_pip: float = 0.5
    min_margin: float = 0.15
    # A blob on the face as strong as this share of the weakest pip, and no pip: pips the layout left
    # out, a side face's pips (an oblique photo), a logo; the blobs do not make the face clear.
    max_stray: float = 0.8
    min_box_px: float = 16.0  # smaller dice: a wrong fit one time in five

    @property
    def box_side(self) -> float:
        """The labelled box's side in crop pixels."""
        return self.crop * self.face_fraction


@dataclass(frozen=True)
class LayoutFit:
    points: np.ndarray  # (P, 2) pip centres in crop pixel indices (a pixel's centre at its index)
    weakest_pip: float
    strongest_empty: float
    strongest_stray: float  # the strongest blob on the face that is none of the fitted pips

    def clear(self, cfg: PipFitConfig) -> bool:
        return (self.weakest_pip >= cfg.min_pip and self.weakest_pip - self.strongest_empty >= cfg.min_margin
                and self.strongest_stray < cfg.max_stray * self.weakest_pip)


def pip_response(crop: np.ndarray, cfg: PipFitConfig) -> np.ndarray:
    """Blob-ness of each crop pixel: colour distance from the face's body colour (the median of its
    middle, mostly body even on a 6), centre minus surround at pip size, scaled to the crop's
    strongest blobs. Dark pips on light dice and light on dark alike."""
    side = cfg.box_side
    lab = cv2.cvtColor(cv2.GaussianBlur(crop, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    lo, hi = int(cfg.crop / 2 - side / 4), int(cfg.crop / 2 + side / 4)
    body = np.median(lab[lo:hi, lo:hi].reshape(-1, 3), axis=0)
    distance = np.linalg.norm(lab - body, axis=2)
    radius = cfg.pip_radius * side
    response = cv2.GaussianBlur(distance, (0, 0), 0.6 * radius) - cv2.GaussianBlur(distance, (0, 0), 1.8 * radius)
    return response / (np.percentile(np.abs(response[lo:hi, lo:hi]), 99) + 1e-3)


def bilinear(image: np.ndarray, points: np.ndarray) -> np.ndarray:
    """`image` at (..., 2) x, y points, clamped to its edge."""
    h, w = image.shape
    x = np.clip(points[..., 0], 0, w - 1.001)
    y = np.clip(points[..., 1], 0, h - 1.001)
    x0, y0 = x.astype(int), y.astype(int)
    fx, fy = x - x0, y - y0
    return (image[y0, x0] * (1 - fx) * (1 - fy) + image[y0, x0 + 1] * fx * (1 - fy)
            + image[y0 + 1, x0] * (1 - fx) * fy + image[y0 + 1, x0 + 1] * fx * fy)


def poses(cfg: PipFitConfig) -> np.ndarray:
    """(K, 4) turn, half side, shift x, shift y of every layout pose tried, in crop pixels."""
    turns = np.deg2rad(np.arange(0.0, 180.0, cfg.turn_step_deg))
    shifts = np.array(cfg.shifts) * cfg.box_side
    turn, share, dx, dy = (a.ravel() for a in np.meshgrid(turns, cfg.face_shares, shifts, shifts, indexing="ij"))
    half = share * turned_half(cfg.box_side, turn)
    return np.stack([turn, half, dx, dy], axis=1)


def place(units: np.ndarray, pose: np.ndarray, crop: int) -> np.ndarray:
    """(K, P, 2) crop pixels of the face-unit points (P, 2) at each pose (K, 4)."""
    cos, sin = np.cos(pose[:, :1]), np.sin(pose[:, :1])
    half, mid = pose[:, 1:2], (crop - 1) / 2
    x = mid + pose[:, 2:3] + half * (cos * units[:, 0] - sin * units[:, 1])
    y = mid + pose[:, 3:4] + half * (sin * units[:, 0] + cos * units[:, 1])
    return np.stack([x, y], axis=-1)


def fit_layout(crop: np.ndarray, face: int, cfg: PipFitConfig = PipFitConfig()) -> LayoutFit:
    """The pose of `face`'s pip layout whose weakest pip stands highest over the grid's empty places."""
    response = pip_response(crop, cfg)
    layout = np.array(PIP_LAYOUT[face])
    empty = np.array([g for g in GRID if np.hypot(*(layout - g).T).min() > 0.25]).reshape(-1, 2)
    tried = poses(cfg)
    on = bilinear(response, place(layout, tried, cfg.crop)).min(axis=1)
    off = bilinear(response, place(empty, tried, cfg.crop)).max(axis=1) if len(empty) else np.zeros(len(tried))
    best = int(np.argmax(on - off))
    points = refine(response, place(layout, tried[best : best + 1], cfg.crop)[0], cfg)
    return LayoutFit(points=points, weakest_pip=float(on[best]), strongest_empty=float(off[best]),
                     strongest_stray=strongest_stray(response, points, tried[best], cfg))


def strongest_stray(response: np.ndarray, points: np.ndarray, pose: np.ndarray, cfg: PipFitConfig) -> float:
    """The highest local maximum of the response on the fitted face, short of its edge (corners and
    edges are blobs too), or in the middle of the box (where a layout fitted small on part of the
    pips, a 2 on a 3's corner and centre, left the others), that is none of the fitted pips."""
    peaks = (response >= cv2.dilate(response, np.ones((3, 3), np.uint8))) & (response > 0)
    rows, cols = np.nonzero(peaks)
    spots = np.stack([cols, rows], axis=1).astype(np.float64)
    turn, half, dx, dy = pose
    tight = turned_half(cfg.box_side, turn)  # the face a tight box would hold
    mid = (cfg.crop - 1) / 2
    on_face = (face_reach(spots - (mid + dx, mid + dy), turn) <= 0.8 * half) | (face_reach(spots - mid, turn) <= 0.6 * tight)
    reach = 0.3 * half  # a pip's own peak strays a little from the refined centre
    at_pip = np.hypot(*(spots[:, None, :] - points[None]).transpose(2, 0, 1)).min(axis=1) <= reach
    values = response[rows, cols][on_face & ~at_pip]
    return float(values.max()) if len(values) else 0.0


def refine(response: np.ndarray, points: np.ndarray, cfg: PipFitConfig) -> np.ndarray:
    """Each fitted pip moved to the response's centroid around it (the pose grid is coarse)."""
    reach = max(1, int(round(cfg.pip_radius * cfg.box_side)))
    dy, dx = np.mgrid[-reach : reach + 1, -reach : reach + 1]
    out = points.copy()
    for i, (x, y) in enumerate(points):
        weights = np.maximum(bilinear(response, np.stack([x + dx, y + dy], axis=-1)), 0.0)
        if weights.sum() > 0:
            out[i] = (x + (weights * dx).sum() / weights.sum(), y + (weights * dy).sum() / weights.sum())
    return out


def pip_colours(crop: np.ndarray, points: np.ndarray, cfg: PipFitConfig) -> list[tuple[float, float, float]]:
    """The mean BGR of a small disc at each pip."""
    radius = max(1, int(round(0.6 * cfg.pip_radius * cfg.box_side)))
    out = []
    for x, y in points:
        mask = np.zeros(crop.shape[:2], np.uint8)
        cv2.circle(mask, (int(round(x)), int(round(y))), radius, 255, -1)
        b, g, r = cv2.mean(crop, mask=mask)[:3]
        out.append((b, g, r))
    return out


def die_pips(image: np.ndarray, die: DieTarget, cfg: PipFitConfig = PipFitConfig()) -> np.ndarray | None:
    """(P, 3) x, y, red of a labelled die's pips in image pixels, or None where the fit is not clear
    or the pips' colour is between red and not (the red heat's label would be a guess)."""
    if die.face == UNREADABLE or die.size < cfg.min_box_px:
        return None
    crops, tf = cut_crops(image, np.array([die.center], np.float64), np.array([die.size]), cfg.crop, cfg.face_fraction)
    fit = fit_layout(crops[0], die.face, cfg)
    if not fit.clear(cfg):
        return None
    colours = pip_colours(crops[0], fit.points, cfg)
    b, g, r = np.mean(colours, axis=0)
    colour = (float(b), float(g), float(r))
    if reddish(colour):
        return None
    red = is_red(colour)
    xy = tf.origins[0] + (fit.points + 0.5) * tf.scales[0]  # crop pixel centres -> image pixels
    return np.hstack([xy, np.full((len(xy), 1), float(red))]).astype(np.float32)


def label_real_pips(scene: Scene, cfg: PipFitConfig = PipFitConfig()) -> Scene:
    """`scene` with pips for each die whose labels lack them and whose layout fits clearly."""
    dice = tuple(d if d.pips is not None else replace(d, pips=die_pips(scene.image, d, cfg)) for d in scene.dice)
    return replace(scene, dice=dice)
