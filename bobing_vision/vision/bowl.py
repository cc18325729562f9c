"""Find the bowl's rim as an ellipse in one frame, or say there is none.

The rim is the largest closed curve in view whose edge runs around most of it. Circle candidates come
from a Hough vote on a small copy of the frame; each is refined into an ellipse (a tilted camera) by a
RANSAC fit on the edge points near it whose gradient points across the rim, so blue pattern strokes,
glare spots and a hand over the rim are outvoted. A candidate is kept only when enough of its outline
lies on edges; the largest well-supported one wins, so the outer rim beats the floor ring inside.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from bobing_vision.errors import InvalidInput
from bobing_vision.vision.config import BowlConfig
from bobing_vision.vision.reading import Bowl

_OUTLINE_SAMPLES = 180  # points along an ellipse when measuring its edge support


@dataclass(frozen=True)
class _Fit:
    """An ellipse in work pixels with how well the edges support it."""

    cx: float
    cy: float
    rx: float
    ry: float
    angle_deg: float
    support: float

    @property
    def area(self) -> float:
        return self.rx * self.ry


def to_gray(frame: np.ndarray) -> np.ndarray:
    """A uint8 gray image from a gray, BGR or BGRA frame."""
    if not isinstance(frame, np.ndarray) or frame.size == 0:
        raise InvalidInput(f"expected a non-empty image array, got {type(frame).__name__}")
    if frame.ndim == 2:
        return frame if frame.dtype == np.uint8 else np.clip(frame, 0, 255).astype(np.uint8)
    if frame.ndim == 3 and frame.shape[2] in (3, 4):
        code = cv2.COLOR_BGR2GRAY if frame.shape[2] == 3 else cv2.COLOR_BGRA2GRAY
        return cv2.cvtColor(np.ascontiguousarray(frame, dtype=np.uint8), code)
    raise InvalidInput(f"expected an H x W, H x W x 3 or H x W x 4 image, got shape {frame.shape}")


def find_bowl(frame: np.ndarray, config: BowlConfig = BowlConfig()) -> Bowl | None:
    """The rim of the bowl in frame pixels, or None when no bowl is in view."""
    gray = to_gray(frame)
    height, width = gray.shape
    scale = min(1.0, config.work_size / max(height, width))
    small = cv2.resize(gray, (max(8, round(width * scale)), max(8, round(height * scale))),
                       interpolation=cv2.INTER_AREA) if scale < 1.0 else gray
    small = cv2.GaussianBlur(small, (0, 0), config.blur_sigma)
    fit = _find_rim(small, config)
    if fit is None:
        return None
    sx = width / small.shape[1]
    sy = height / small.shape[0]
    # Work pixels to frame pixels: the aspect is kept, so one scale per axis is the same number.
    s = (sx + sy) / 2
    return Bowl(cx=(fit.cx + 0.5) * sx - 0.5, cy=(fit.cy + 0.5) * sy - 0.5, rx=fit.rx * s, ry=fit.ry * s,
                angle_deg=fit.angle_deg)


def _find_rim(small: np.ndarray, config: BowlConfig) -> _Fit | None:
    h, w = small.shape
    gx = cv2.Sobel(small, cv2.CV_16S, 1, 0, ksize=3)
    gy = cv2.Sobel(small, cv2.CV_16S, 0, 1, ksize=3)
    mag = np.abs(gx.astype(np.float32)) + np.abs(gy.astype(np.float32))
    high = max(config.min_edge, float(np.percentile(mag, config.edge_percentile)))
    edges = cv2.Canny(gx, gy, high / 2, high)
    ys, xs = np.nonzero(edges)
    if xs.size < 20:
        return None
    points = np.stack([xs, ys], axis=1).astype(np.float32)
    grads = np.stack([gx[ys, xs], gy[ys, xs]], axis=1).astype(np.float32)
    grads /= np.linalg.norm(grads, axis=1, keepdims=True) + 1e-6

    short, long_ = min(h, w), max(h, w)
    min_r, max_r = config.min_radius_frac * short, config.max_radius_frac * long_
    circles = cv2.HoughCircles(small, cv2.HOUGH_GRADIENT, dp=1, minDist=min_r / 2, param1=high,
                               param2=config.hough_votes, minRadius=int(min_r), maxRadius=int(max_r))
    if circles is None:
        return None
    rng = np.random.default_rng(0)  # fixed: the same frame always gives the same bowl
    fits = []
    for cx, cy, r in circles[0][: config.max_candidates]:
        for fit in _fit_candidate(points, grads, (float(cx), float(cy), float(r)), config, rng, (w, h)):
            if _plausible(fit, w, h, min_r, max_r, config):
                fits.append(fit)
    if not fits:
        return None
    best = max(fits, key=lambda f: f.support)
    contenders = [f for f in fits if f.support >= config.outer_preference * best.support]
    return max(contenders, key=lambda f: f.area)


def _fit_candidate(points: np.ndarray, grads: np.ndarray, circle: tuple[float, float, float],
                   config: BowlConfig, rng: np.random.Generator, size: tuple[int, int]) -> list[_Fit]:
    """The ellipses near one circle candidate: one per contrast polarity (bowl lighter or darker)."""
    cx, cy, r = circle
    d = points - np.array([cx, cy], dtype=np.float32)
    dist = np.linalg.norm(d, axis=1) + 1e-6
    # Rim edges run around the centre, so their gradient points across the rim; its sign says
    # whether the rim's inner side is lighter or darker, and the whole rim shares that sign.
    radial = np.sum(d * grads, axis=1) / dist
    near = np.abs(dist - r) < config.seed_band_frac * r
    fits = []
    for polarity in (1.0, -1.0):
        band = points[near & (polarity * radial > config.min_alignment)]
        if len(band) < 12:
            continue
        ellipse = _ransac_ellipse(band, (cx, cy, r), config, rng)
        for _ in range(config.refine_passes):
            if ellipse is None:
                break
            close = np.abs(_norm_radius(band, ellipse) - 1.0) * min(ellipse[2], ellipse[3])
            ellipse = _fit(band[close < 2.0 * config.support_tol_px])
        if ellipse is not None:
            fits.append(_Fit(*ellipse, support=_support(ellipse, points, grads, polarity, config, size)))
    return fits


def _ransac_ellipse(band: np.ndarray, circle: tuple[float, float, float], config: BowlConfig,
                    rng: np.random.Generator) -> tuple[float, float, float, float, float] | None:
    """The conic through five edge points that most band points lie on, all hypotheses at once."""
    cx, cy, r = circle
    # Centred and scaled to the circle: the 5-point systems stay well conditioned.
    p = (band - np.array([cx, cy], dtype=np.float32)) / r
    angles = np.arctan2(p[:, 1], p[:, 0])
    sector = ((angles + np.pi) / (2 * np.pi) * 5).astype(int) % 5
    # One point from each of five sectors: a well-spread sample gives a well-posed ellipse.
    order = np.argsort(sector, kind="stable")
    counts = np.bincount(sector, minlength=5)
    if np.count_nonzero(counts) < 5:
        return _fit(band)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    picks = starts + (rng.random((config.ransac_iters, 5)) * counts).astype(int)
    sample = p[order[picks]]  # iters x 5 x 2
    x, y = sample[..., 0], sample[..., 1]
    design = np.stack([x * x, x * y, y * y, x, y, np.ones_like(x)], axis=-1)  # iters x 5 x 6
    conics = np.linalg.svd(design)[2][:, -1, :]  # the null vector of each 5 x 6 system
    a, b, c = conics[:, 0], conics[:, 1], conics[:, 2]
    is_ellipse = b * b - 4 * a * c < 0
    if not is_ellipse.any():
        return _fit(band)
    conics = conics[is_ellipse]
    px, py = p[:, 0][None, :], p[:, 1][None, :]
    k = [conics[:, i][:, None] for i in range(6)]
    value = k[0] * px * px + k[1] * px * py + k[2] * py * py + k[3] * px + k[4] * py + k[5]
    grad_x = 2 * k[0] * px + k[1] * py + k[3]
    grad_y = k[1] * px + 2 * k[2] * py + k[4]
    sampson = np.abs(value) / (np.hypot(grad_x, grad_y) + 1e-9)  # ~ distance in radii
    inliers = sampson * r < 2.0 * config.support_tol_px
    best = int(np.argmax(inliers.sum(axis=1)))
    return _fit(band[inliers[best]])


def _fit(points: np.ndarray) -> tuple[float, float, float, float, float] | None:
    if len(points) < 5:
        return None
    (cx, cy), (a, b), angle = cv2.fitEllipseDirect(points.reshape(-1, 1, 2))
    if not (np.isfinite([cx, cy, a, b, angle]).all() and a > 2 and b > 2):
        return None
    return (float(cx), float(cy), float(a) / 2, float(b) / 2, float(angle))


def _norm_radius(points: np.ndarray, ellipse: tuple[float, float, float, float, float]) -> np.ndarray:
    cx, cy, rx, ry, angle = ellipse
    t = np.deg2rad(angle)
    dx, dy = points[:, 0] - cx, points[:, 1] - cy
    u = dx * np.cos(t) + dy * np.sin(t)
    v = -dx * np.sin(t) + dy * np.cos(t)
    return np.hypot(u / rx, v / ry)


def outline(ellipse: tuple[float, float, float, float, float], samples: int = _OUTLINE_SAMPLES) -> np.ndarray:
    """Points along an ellipse (cx, cy, rx, ry, angle_deg), as an N x 2 float array."""
    cx, cy, rx, ry, angle = ellipse
    t = np.deg2rad(angle)
    phi = np.linspace(0, 2 * np.pi, samples, endpoint=False)
    u, v = rx * np.cos(phi), ry * np.sin(phi)
    return np.stack([cx + u * np.cos(t) - v * np.sin(t), cy + u * np.sin(t) + v * np.cos(t)], axis=1)


def _inside(pts: np.ndarray, width: int, height: int) -> np.ndarray:
    return (pts[:, 0] >= 0) & (pts[:, 0] <= width - 1) & (pts[:, 1] >= 0) & (pts[:, 1] <= height - 1)


def _support(ellipse: tuple[float, float, float, float, float], points: np.ndarray, grads: np.ndarray,
             polarity: float, config: BowlConfig, size: tuple[int, int]) -> float:
    """Share of the outline (inside the frame) that has an edge on it running along the outline.

    Each outline sample needs an edge point within tolerance whose gradient is normal to the ellipse,
    with the rim's polarity: texture and noise have edges everywhere, but they point every which way.
    """
    w, h = size
    cx, cy, rx, ry, angle = ellipse
    t = np.deg2rad(angle)
    dx, dy = points[:, 0] - cx, points[:, 1] - cy
    u = (dx * np.cos(t) + dy * np.sin(t)) / rx
    v = (-dx * np.sin(t) + dy * np.cos(t)) / ry
    rho = np.hypot(u, v) + 1e-9
    near = np.abs(rho - 1.0) * min(rx, ry) <= config.support_tol_px
    # The ellipse's normal at a point, in frame axes: the gradient of (u^2 + v^2).
    nu, nv = u / rx, v / ry
    nx, ny = nu * np.cos(t) - nv * np.sin(t), nu * np.sin(t) + nv * np.cos(t)
    align = polarity * (nx * grads[:, 0] + ny * grads[:, 1]) / (np.hypot(nx, ny) + 1e-9)
    on_rim = near & (align > config.min_alignment)
    bins = (np.mod(np.arctan2(v[on_rim], u[on_rim]), 2 * np.pi) / (2 * np.pi) * _OUTLINE_SAMPLES).astype(int)
    covered = np.zeros(_OUTLINE_SAMPLES, dtype=bool)
    covered[bins % _OUTLINE_SAMPLES] = True
    inside = _inside(outline(ellipse), w, h)  # outline() samples the same angles as the bins
    if not inside.any():
        return 0.0
    return float(np.count_nonzero(_long_runs(covered, config.min_run) & inside) / np.count_nonzero(inside))


def _long_runs(covered: np.ndarray, min_run: int) -> np.ndarray:
    """Covered bins that belong to a circular run of at least `min_run` covered bins."""
    n = len(covered)
    if covered.all():
        return covered
    start = int(np.argmin(covered))  # roll so that the sequence starts on an uncovered bin
    rolled = np.roll(covered, -start).astype(np.int8)
    edges = np.diff(np.concatenate([[0], rolled, [0]]))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    keep = np.zeros(n, dtype=bool)
    for a, b in zip(starts, ends):
        if b - a >= min_run:
            keep[a:b] = True
    return np.roll(keep, start)


def _plausible(fit: _Fit, width: int, height: int, min_r: float, max_r: float, config: BowlConfig) -> bool:
    small_axis, big_axis = min(fit.rx, fit.ry), max(fit.rx, fit.ry)
    if small_axis < min_r or big_axis > max_r or small_axis < config.min_axis_ratio * big_axis:
        return False
    if not (0 <= fit.cx < width and 0 <= fit.cy < height):
        return False
    pts = outline((fit.cx, fit.cy, fit.rx, fit.ry, fit.angle_deg))
    if np.mean(_inside(pts, width, height)) < config.min_inside_frac:
        return False
    return fit.support >= config.min_support
