"""Whether the bowl found in an earlier frame of a camera is still where it was: the rim's look, compared.

A camera over a bowl that stays put sees the same pixels across the rim frame after frame. The look
of the rim is kept: the change of brightness along short lines across it (its normals) at places all
around, taken in the frame where the bowl was found. In a later frame each line is matched to its old
look (normalised cross-correlation, over shifts of a few per cent of the radius); where most lines
match, their shifts give the bowl's move (its centre's shift and its change of size, by least
squares), and the bowl is the same while it moved less than `BowlConfig.track_tol`. Another view
matches nowhere; lighting that brightens or dims the frame leaves the correlation as it was; a hand
over part of the rim spoils only its own lines. A line with no change of brightness along it is left
out of the look: a plain stretch correlates with any other plain stretch.

`bowl.still_there` refits the rim in a narrow ring instead: it checks that the rim lies on edges, at
a third of a search's cost; matching a look costs about a quarter of that (`bench/bench_rim_print.py`).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from bobing_vision.vision.bowl import outline, outward_normals, still_there
from bobing_vision.vision.config import BowlConfig
from bobing_vision.vision.reading import Bowl

_GRAY = np.array([0.114, 0.587, 0.299], np.float32)  # BGR weights of OpenCV's gray


@dataclass(frozen=True, eq=False)
class RimPrint:
    """The look of a bowl's rim in one frame: the brightness change along lines across it."""

    frame_size: tuple[int, int]  # width, height of the frame it was taken in
    points: np.ndarray  # (n, 2) places on the rim, frame pixels
    normals: np.ndarray  # (n, 2) the rim's outward unit normal at each
    radius: float  # the rim's mean radius, frame pixels
    looks: np.ndarray  # (n, 2 * half + 1) each line's brightness change, zero mean and unit norm
    usable: np.ndarray  # (n,) lines inside the frame with a change of brightness along them

    @classmethod
    def take(cls, frame: np.ndarray, bowl: Bowl, config: BowlConfig = BowlConfig()) -> RimPrint:
        points = outline(bowl.ellipse, config.print_lines)
        normals = outward_normals(points, bowl.ellipse)
        radius = float(np.sqrt(bowl.rx * bowl.ry))
        steps, inside = _line_steps(frame, points, normals, radius, config.print_half, config)
        usable = inside & (np.abs(steps).max(axis=1) >= config.print_min_step)
        return cls(frame_size=(frame.shape[1], frame.shape[0]), points=points, normals=normals, radius=radius,
                   looks=_zero_mean_unit(steps), usable=usable)

    def move(self, frame: np.ndarray, config: BowlConfig = BowlConfig()) -> tuple[float, float] | None:
        """How far the rim moved since the look was taken: its centre's shift and its change of size, as
        shares of the radius; None where the look is not found (another view, a frame of another size,
        a rim mostly hidden, or a look with too few lines to say)."""
        usable = int(self.usable.sum())
        if (frame.shape[1], frame.shape[0]) != self.frame_size or usable < config.print_min_share * len(self.usable):
            return None
        width = self.looks.shape[1]
        steps, _ = _line_steps(frame, self.points, self.normals, self.radius,
                               config.print_half + config.print_reach, config)
        windows = _zero_mean_unit(np.lib.stride_tricks.sliding_window_view(steps, width, axis=1))  # (n, shifts, width)
        correlation = np.matmul(windows, self.looks[:, :, None])[..., 0]  # (n, shifts)
        shift = _peak_positions(correlation) - config.print_reach
        matched = self.usable & (correlation.max(axis=1) >= config.print_min_correlation)
        if matched.sum() < config.print_min_share * usable:
            return None
        # A line's shift along its normal is the centre's shift projected on it plus the change of
        # size times how far out the line lies; lines that disagree with the first fit (a hand, a die
        # on the rim that correlates by chance) are dropped once.
        outward = np.sum((self.points - self.points.mean(axis=0)) * self.normals, axis=1) / self.radius
        design = np.stack([self.normals[:, 0], self.normals[:, 1], outward], axis=1)[matched]
        shifts = shift[matched]
        solution = np.linalg.lstsq(design, shifts, rcond=None)[0]
        misfit = np.abs(design @ solution - shifts)
        agree = misfit <= max(config.print_misfit, 3 * float(np.median(misfit)))
        solution = np.linalg.lstsq(design[agree], shifts[agree], rcond=None)[0]
        per_radius = 1.0 / config.print_samples_per_radius  # one sample, as a share of the radius
        return float(np.hypot(solution[0], solution[1])) * per_radius, abs(float(solution[2])) * per_radius

    def matches(self, frame: np.ndarray, config: BowlConfig = BowlConfig()) -> bool:
        """The rim's look is in this frame, moved less than `track_tol` of the radius."""
        moved = self.move(frame, config)
        return moved is not None and max(moved) < config.track_tol


class BowlTracker:
    """The bowl of one camera from frame to frame, for the frames whose rim still looks the same.

    A bowl found by a search is taken on trust in no later frame until `still_there` has seen its rim
    on that frame's edges once: a search thrown off by a hand over the rim gives a bowl that later
    frames do not confirm, and those frames are searched again. From then on the rim's look alone
    keeps it (`RimPrint`), compared always with the frame where the bowl was found, so that a bowl
    pushed a little at a time is noticed once the pushes add up.
    """

    def __init__(self, config: BowlConfig = BowlConfig()) -> None:
        self.config = config
        self._kept: tuple[Bowl, RimPrint] | None = None  # the bowl last used, and its look in that frame
        self._confirmed = False

    def recall(self, frame: np.ndarray) -> Bowl | None:
        """The bowl of the earlier frames when it is still where it was in this one, else None."""
        if self._kept is None or not self._kept[1].matches(frame, self.config):
            return None
        bowl = self._kept[0]
        if not self._confirmed:
            self._confirmed = still_there(frame, bowl, self.config)
        return bowl if self._confirmed else None

    def saw(self, frame: np.ndarray, bowl: Bowl | None) -> None:
        """The bowl a reading of `frame` used (recalled, searched, or None: no bowl in view)."""
        if bowl is None:
            self.forget()
        elif self._kept is None or bowl is not self._kept[0]:
            self._kept, self._confirmed = (bowl, RimPrint.take(frame, bowl, self.config)), False

    def forget(self) -> None:
        """Start afresh: the next frame is searched."""
        self._kept, self._confirmed = None, False


def _line_steps(frame: np.ndarray, points: np.ndarray, normals: np.ndarray, radius: float, half: int,
                config: BowlConfig) -> tuple[np.ndarray, np.ndarray]:
    """(n, 2 * half + 1) the brightness change along each line across the rim (a central difference
    over two samples), and (n,) whether each line lies inside the frame."""
    offsets = np.arange(-half - 1, half + 2) * (radius / config.print_samples_per_radius)
    map_x = (points[:, :1] + normals[:, :1] * offsets).astype(np.float32)
    map_y = (points[:, 1:] + normals[:, 1:] * offsets).astype(np.float32)
    samples = cv2.remap(frame, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    if samples.ndim == 3:  # BGR(A): gray from the few samples, not the whole frame
        samples = samples[..., :3] @ _GRAY
    height, width = frame.shape[:2]
    inside = ((map_x >= 0) & (map_y >= 0) & (map_x <= width - 1) & (map_y <= height - 1)).all(axis=1)
    return samples[:, 2:] - samples[:, :-2], inside


def _zero_mean_unit(rows: np.ndarray) -> np.ndarray:
    """Each row (last axis) less its mean, scaled to unit length (an all-flat row stays zero)."""
    centred = rows - rows.mean(axis=-1, keepdims=True)
    return centred / np.maximum(np.linalg.norm(centred, axis=-1, keepdims=True), 1e-6)


def _peak_positions(scores: np.ndarray) -> np.ndarray:
    """Each row's best position, to a fraction by a parabola through the best score and its neighbours."""
    rows = np.arange(len(scores))
    best = scores.argmax(axis=1)
    at = scores[rows, best]
    before = scores[rows, np.maximum(best - 1, 0)]
    after = scores[rows, np.minimum(best + 1, scores.shape[1] - 1)]
    curve = before - 2 * at + after
    interior = (best > 0) & (best < scores.shape[1] - 1) & (curve < 0)
    return best + np.where(interior, 0.5 * (before - after) / np.where(interior, curve, -1.0), 0.0)
