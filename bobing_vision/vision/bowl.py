"""Find the bowl's rim as an ellipse in one frame, or say there is none.

Two passes over edge points (Canny) with their gradient directions:
1. Search, on a 200 px copy: circle candidates from a Hough vote, and the curves running around each
   farther out (the vote keeps one circle per centre, often the floor ring); around each, the edge
   points whose gradient points across the candidate's outline, split by contrast polarity, give an
   ellipse by RANSAC (five points, one per sector; the hypothesis whose inliers reach farthest around
   wins) and least-squares refits, and the circle itself competes with them. Blue pattern strokes,
   glare spots and a hand over the rim point every which way or sit off the curve, so they are outvoted.
2. Refine, on a 480 px copy, the best two: every curve concentric with the candidate, from a little
   inside to well outside, is a peak in the histogram of the edge points' normalised radius; the
   outermost that runs (nearly) all around is the rim — the lip's outer edge, not a painted ring, the
   inner wall or the floor (a curve outside it that runs well part way around is a faint lip, and
   wins). A best rim that does not run nearly all around is fitted once more, freely, over a wide band
   around it.
A fit counts by its support: the share of its outline inside the frame covered by long runs of
edges running along it. A rim too weakly supported, too small, too flat or mostly out of view is no
bowl. `still_there` re-checks a known bowl in a new frame of the same camera for a fraction of that.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

import cv2
import numpy as np

from bobing_vision.errors import InvalidInput
from bobing_vision.geometry import Ellipse
from bobing_vision.vision.config import BowlConfig
from bobing_vision.vision.reading import Bowl

_OUTLINE_SAMPLES = 180  # points along an ellipse when measuring its edge support (2 degrees each)


@dataclass(frozen=True)
class _Fit:
    """An ellipse in the pixels of one working copy, with how well the edges support it."""

    ellipse: Ellipse
    support: float

    @property
    def area(self) -> float:
        return self.ellipse[2] * self.ellipse[3]


@dataclass(frozen=True)
class _Edges:
    """Edge points of a working copy and their unit gradients."""

    points: np.ndarray  # (N, 2) x, y
    grads: np.ndarray  # (N, 2)
    size: tuple[int, int]  # width, height of the copy
    high: float = 0.0  # Canny's upper threshold used


def to_gray(frame: np.ndarray) -> np.ndarray:
    """A uint8 gray image from a gray, BGR or BGRA frame."""
    if not isinstance(frame, np.ndarray) or frame.size == 0:
        raise InvalidInput(f"expected a non-empty image array, got {type(frame).__name__}")
    if frame.dtype != np.uint8:
        raise InvalidInput(f"expected uint8 pixels, got {frame.dtype}")
    if frame.ndim == 2:
        return frame
    if frame.ndim == 3 and frame.shape[2] in (1, 3, 4):
        if frame.shape[2] == 1:
            return frame[:, :, 0]
        code = cv2.COLOR_BGR2GRAY if frame.shape[2] == 3 else cv2.COLOR_BGRA2GRAY
        return cv2.cvtColor(frame, code)
    raise InvalidInput(f"expected an H x W, H x W x 3 or H x W x 4 image, got shape {frame.shape}")


def find_bowl(frame: np.ndarray, config: BowlConfig = BowlConfig()) -> Bowl | None:
    """The rim of the bowl in frame pixels, or None when no bowl is in view."""
    gray = to_gray(frame)
    big, s_big = _copy(gray, config.refine_size)
    small, s_small = _copy(big, config.work_size)
    small = cv2.GaussianBlur(small, (0, 0), config.blur_sigma)
    big = cv2.GaussianBlur(big, (0, 0), config.blur_sigma)
    fit = _find(small, big, config, 1 / s_small)
    if fit is None or fit.support < config.refine_accept:
        # A busy tablecloth (stripes, checks, printed stars) raises the edge threshold above a soft
        # rim: where no rim runs all around, look again among weaker edges. Among those, only a rim
        # running nearly all around counts: the cloth's own pattern makes curves too.
        retry = _find(small, big, replace(config, edge_percentile=config.retry_edge_percentile), 1 / s_small)
        if retry is not None and retry.support >= config.refine_accept:
            fit = retry if fit is None or retry.support > fit.support else fit
    return None if fit is None else Bowl(*_rescale(fit.ellipse, 1 / s_big))


def _find(small: np.ndarray, big: np.ndarray, config: BowlConfig, to_big: float) -> _Fit | None:
    """The rim on the big copy, searched for on the small one (`to_big`: their scale), or None."""
    rng = np.random.default_rng(0)  # fixed: the same frame always gives the same bowl
    coarse = _search(small, config, rng)
    if not coarse:
        return None
    big_edges = _edges(big, config)  # once: every candidate is refined on the same edges
    good: list[_Fit] = []
    for candidate in coarse:
        fine = _refine(big_edges, _rescale(candidate.ellipse, to_big), config)
        if fine is not None and fine.support >= config.min_refined_support:
            good.append(fine)
            if fine.support >= config.refine_accept:
                break  # runs nearly all around: the next candidate cannot do better
    if not good:
        return None
    # Each refinement already took the outermost concentric rim; between rims around different
    # centres, the one the sharper copy supports best wins.
    best = max(good, key=lambda f: f.support)
    if best.support < config.refine_accept:
        # Not all around: often a curve that shares one side with the rim and cuts inside it on the
        # other (a shadow, the lip's inner edge). A free fit over a wide band around it on the sharper
        # copy finds the rim itself; it must do clearly better.
        freer = _fits_near(big_edges, best.ellipse, config.refit_band, config.refine_tol_px, config, rng)
        best = max([best, *(f for f in freer if f.support >= best.support + config.refit_gain)],
                   key=lambda f: f.support)
    return best


def rim_error(found: Bowl, truth: Bowl) -> float:
    """How far a found rim strays from the true one: the worst point, as a share of the radius."""
    pts = outline(found.ellipse, 90)
    return float(np.max(np.abs(_rho(pts, truth.ellipse) - 1.0)))


def still_there(frame: np.ndarray, bowl: Bowl, config: BowlConfig = BowlConfig()) -> bool:
    """Whether `bowl` (found in an earlier frame) is still where it was in this frame.

    A fraction of a search's cost: the rim is refitted in a narrow ring around the old one and must
    come back well supported and within `track_tol` of the radius. A bowl that was bumped, or
    another view, fails and is searched for afresh.
    """
    big, scale = _copy(to_gray(frame), config.refine_size)
    seed = _rescale(bowl.ellipse, scale)
    r = float(np.sqrt(seed[2] * seed[3]))
    band = 3 * config.refine_tol_px / r
    big = cv2.GaussianBlur(big, (0, 0), config.blur_sigma)
    edges = _edges(big, config, pixel_box(seed, band, big.shape))
    fits = [f for f in _fits_near(edges, seed, band, config.refine_tol_px, config, None)
            if f.support >= config.min_refined_support]
    return any(np.hypot(f.ellipse[0] - seed[0], f.ellipse[1] - seed[1]) < config.track_tol * r
               and abs(np.sqrt(f.ellipse[2] * f.ellipse[3]) / r - 1) < config.track_tol for f in fits)


def _refine(all_edges: _Edges, seed: Ellipse, config: BowlConfig) -> _Fit | None:
    """The outermost well-supported ellipse concentric with `seed`, fitted on the larger copy.

    The search may have locked onto a painted ring or the inner edge of the lip; every concentric
    curve from a little inside to well outside is a peak in the histogram of edge points' normalised
    radius, and the rim is the outermost one that runs around the bowl.
    """
    x0, y0, x1, y1 = pixel_box(seed, config.refine_outward, all_edges.size[::-1])
    pts = all_edges.points
    box = (pts[:, 0] >= x0) & (pts[:, 0] < x1) & (pts[:, 1] >= y0) & (pts[:, 1] < y1)
    edges = _Edges(pts[box], all_edges.grads[box], all_edges.size)
    if len(edges.points) < 12:
        return None
    rho, align = _radius_and_alignment(edges, seed)
    r = float(np.sqrt(seed[2] * seed[3]))
    step = config.refine_tol_px / r  # one histogram bin: the tolerance, in normalised radius
    lo, hi = 1.0 - config.refine_band, 1.0 + config.refine_outward
    peaks = _concentric_peaks(rho, align, r, lo, hi, step, config)
    # Outermost first: a curve that runs nearly all around is the rim, and the rest need no fit.
    fits: list[_Fit] = []
    for scale, polarity in sorted(peaks, reverse=True):
        ring = (seed[0], seed[1], seed[2] * scale, seed[3] * scale, seed[4])
        # A concentric ring's normals are the seed's and its radii the seed's scaled: nothing to recompute.
        known = (rho / scale, align)
        for f in _fits_near(edges, ring, 2 * step, config.refine_tol_px, config, None, (polarity,), known):
            if _close(f.ellipse, seed, config):
                if f.support >= config.refine_accept:
                    return _outermost(f, fits, config)
                fits.append(f)
    # Otherwise the largest nearly as well supported as the best: not the rim plus its cast shadow
    # (an ellipse through half of each), not a painted ring inside.
    return _best([f for f in fits if f.support >= config.min_support], config) or (
        max(fits, key=lambda f: f.support) if fits else None)


def _outermost(accepted: _Fit, outer: list[_Fit], config: BowlConfig) -> _Fit:
    """`accepted`, or the largest ring outside it (`outer`: tried first, not all around) at least
    `outer_ring_share` as well supported, which then counts as all around: the ring inside it is."""
    if config.outer_ring_share is None:
        return accepted
    bigger = [f for f in outer if f.area > accepted.area and f.support >= config.outer_ring_share * accepted.support]
    return replace(max(bigger, key=lambda f: f.area), support=accepted.support) if bigger else accepted


def _concentric_peaks(rho: np.ndarray, align: np.ndarray, r: float, lo: float, hi: float, step: float,
                      config: BowlConfig) -> list[tuple[float, float]]:
    """(scale, polarity) of the curves concentric with a ring of radius `r`, lo..hi times as big: peaks
    of the histogram of the edge points' normalised radius `rho`, by contrast polarity, whose pixels
    make at least `refine_peak` of the curve's outline."""
    bins = np.arange(lo, hi + step, step)
    centres = bins[:-1] + step / 2
    peaks: list[tuple[float, float]] = []
    if len(centres) < 3:
        return peaks
    for polarity in (1.0, -1.0):
        counts, _ = np.histogram(rho[polarity * align > config.min_alignment], bins=bins)
        counts = np.convolve(counts, np.ones(3), mode="same")  # a curve's pixels straddle two bins
        share = counts / (2 * np.pi * r * centres)
        found = np.flatnonzero((share >= config.refine_peak) & (counts >= np.roll(counts, 1))
                               & (counts > np.roll(counts, -1)))
        strongest = found[np.argsort(-share[found])][: config.refine_peaks]
        peaks += [(float(centres[k]), polarity) for k in strongest]
    return peaks


def _copy(gray: np.ndarray, size: int) -> tuple[np.ndarray, float]:
    """A copy whose longer side is at most `size`, and its scale from the original."""
    h, w = gray.shape
    scale = min(1.0, size / max(h, w))
    if scale < 1.0:
        w2, h2 = max(8, round(w * scale)), max(8, round(h * scale))
        # Strong shrinking needs smoothing first, or thin rims break up: halve with a Gaussian (pyrDown,
        # 6x faster than area averaging at a non-integer factor) while that stays above the target;
        # the mild shrink left is linear, and the blur that follows hides the difference.
        while gray.shape[1] >= 2 * w2 and gray.shape[0] >= 2 * h2:
            gray = cv2.pyrDown(gray)
        gray = cv2.resize(gray, (w2, h2), interpolation=cv2.INTER_LINEAR)
        scale = w2 / w  # the exact scale after rounding
    return gray, scale


def _rescale(e: Ellipse, s: float) -> Ellipse:
    """Between two copies: pixel centres scale about the corner at -0.5."""
    return ((e[0] + 0.5) * s - 0.5, (e[1] + 0.5) * s - 0.5, e[2] * s, e[3] * s, e[4])


def ellipse_box(e: Ellipse, grow: float = 0.0) -> tuple[float, float, float, float]:
    """The bounding box x0, y0, x1, y1 of an ellipse grown by `grow` of its size (not clipped)."""
    t = np.deg2rad(e[4])
    half_w = float(np.hypot(e[2] * np.cos(t), e[3] * np.sin(t))) * (1.0 + grow)
    half_h = float(np.hypot(e[2] * np.sin(t), e[3] * np.cos(t))) * (1.0 + grow)
    return (e[0] - half_w, e[1] - half_h, e[0] + half_w, e[1] + half_h)


def pixel_box(e: Ellipse, band: float, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """Whole pixels x0, y0, x1, y1 of an image of `shape` around the ellipse grown by `band` (and 2 pixels
    more, for the Sobel), clipped to the image."""
    x0, y0, x1, y1 = ellipse_box(e, band)
    h, w = shape[:2]
    return (max(0, int(x0) - 2), max(0, int(y0) - 2), min(w, int(x1) + 3), min(h, int(y1) + 3))


def _edges(image: np.ndarray, config: BowlConfig, box: tuple[int, int, int, int] | None = None) -> _Edges:
    x0, y0, x1, y1 = box if box is not None else (0, 0, image.shape[1], image.shape[0])
    part = image[y0:y1, x0:x1]
    if min(part.shape[:2]) < 3:  # a ring wholly outside this image (a bowl from another view)
        return _Edges(np.zeros((0, 2), np.float32), np.zeros((0, 2), np.float32), (image.shape[1], image.shape[0]))
    gx = cv2.Sobel(part, cv2.CV_16S, 1, 0, ksize=3)
    gy = cv2.Sobel(part, cv2.CV_16S, 0, 1, ksize=3)
    high = _edge_threshold(gx, gy, config)
    found = cv2.findNonZero(cv2.Canny(gx, gy, high / 2, high))  # 5x faster than np.nonzero
    xy = np.zeros((0, 2), np.int32) if found is None else found.reshape(-1, 2)
    xs, ys = xy[:, 0], xy[:, 1]
    grads = np.stack([gx[ys, xs], gy[ys, xs]], axis=1).astype(np.float32)
    grads /= np.linalg.norm(grads, axis=1, keepdims=True) + 1e-6
    points = np.stack([xs + x0, ys + y0], axis=1).astype(np.float32)
    return _Edges(points=points, grads=grads, size=(image.shape[1], image.shape[0]), high=high)


def _edge_threshold(gx: np.ndarray, gy: np.ndarray, config: BowlConfig) -> float:
    """Canny's upper threshold from the gradient's percentile (on one pixel in 4: it is a statistic)."""
    mag = np.abs(gx[::2, ::2].astype(np.int32)) + np.abs(gy[::2, ::2].astype(np.int32))
    return max(config.min_edge, _percentile(mag, config.edge_percentile))


def _percentile(values: np.ndarray, q: float) -> float:
    """np.percentile (linear interpolation) of non-negative integers, by counting: 5x faster."""
    rank = np.cumsum(np.bincount(values.ravel()))
    at = q / 100 * (values.size - 1)
    below = int(at)
    lo, hi = np.searchsorted(rank, [below, min(below + 1, values.size - 1)], side="right")
    return float(lo + (at - below) * (hi - lo))


def _search(small: np.ndarray, config: BowlConfig, rng: np.random.Generator) -> list[_Fit]:
    """The few most plausible, distinct rims on the small copy, best first."""
    h, w = small.shape
    edges = _edges(small, config)
    if len(edges.points) < 20:
        return []
    min_r, max_r = config.min_radius_frac * min(h, w), config.max_radius_frac * min(h, w)
    # The vote sees the same edges (its own Canny, at the same threshold) as the fits.
    circles = cv2.HoughCircles(small, cv2.HOUGH_GRADIENT, dp=config.hough_dp, minDist=min_r / 2,
                               param1=edges.high, param2=config.hough_votes, minRadius=int(min_r),
                               maxRadius=int(max_r))
    if circles is None:
        return []
    fits = []
    for cx, cy, r in circles[0][: config.max_candidates]:
        vote = (float(cx), float(cy), float(r), float(r), 0.0)
        at_vote = _radius_and_alignment(edges, vote)  # shared by the vote's circle, its fits and its rings
        for seed in [vote, *_outer_rings(vote, at_vote, max_r, config)]:
            known = at_vote if seed is vote else None
            # The circle competes with the ellipses fitted near it: where a shadow or the lip runs
            # beside the rim, the fit may follow them off it while the circle stays on it (seed 8282, 121).
            circle = _Fit(seed, _support(seed, edges, config.support_tol_px, config, known))
            near = _fits_near(edges, seed, config.seed_band_frac, config.support_tol_px, config, rng, known=known)
            fits += [f for f in [circle, *near] if _plausible(f, w, h, min_r, max_r, config)]
        if any(f.support >= config.search_accept for f in fits):
            break  # a rim in full view, from the strongest vote: the weaker votes cannot beat it
    chosen: list[_Fit] = []
    for f in sorted(fits, key=lambda f: -f.support):
        if len(chosen) < config.refine_candidates and all(_distinct(f.ellipse, c.ellipse) for c in chosen):
            chosen.append(f)
    return chosen


def _outer_rings(vote: Ellipse, at_vote: tuple[np.ndarray, np.ndarray], max_r: float,
                 config: BowlConfig) -> list[Ellipse]:
    """Circles concentric with the vote's, farther out, along which edges run: the vote keeps one circle
    per centre, and that is often the floor ring, with the rim around it (seeds 2027 and 1313).
    `at_vote`: the edge points' normalised radius and alignment with the vote's circle."""
    cx, cy, r, _, _ = vote
    lo = 1.0 + 2 * config.seed_band_frac  # beyond the band the circle's own fit already covers
    peaks = _concentric_peaks(*at_vote, r, lo, max_r / r, config.support_tol_px / r, config)
    return [(cx, cy, r * s, r * s, 0.0) for s in sorted({s for s, _ in peaks})]


def _distinct(a: Ellipse, b: Ellipse) -> bool:
    """Two rims that the refinement would not turn into the same one."""
    r = float(np.sqrt(b[2] * b[3]))
    return bool(np.hypot(a[0] - b[0], a[1] - b[1]) > 0.05 * r or abs(np.sqrt(a[2] * a[3]) / r - 1) > 0.05)


def _best(fits: list[_Fit], config: BowlConfig) -> _Fit | None:
    """The largest of the fits nearly as well supported as the best: the outer rim beats inner rings."""
    if not fits:
        return None
    top = max(f.support for f in fits)
    return max((f for f in fits if f.support >= config.outer_preference * top), key=lambda f: f.area)


def _fits_near(edges: _Edges, seed: Ellipse, band: float, tol: float, config: BowlConfig,
               rng: np.random.Generator | None, polarities: tuple[float, ...] = (1.0, -1.0),
               known: tuple[np.ndarray, np.ndarray] | None = None) -> list[_Fit]:
    """Ellipses through the edge points near `seed`, one per contrast polarity (inner side lighter/darker).

    Rim edges run along the seed, so their gradient is normal to it; its sign says whether the rim's
    inner side is lighter or darker, and the whole rim shares that sign. With `rng` None the band is
    taken to be clean (a narrow ring on the refined copy) and fitted by trimmed least squares alone.
    `known`: each edge point's normalised radius and gradient alignment with `seed`, when the caller has them.
    """
    if len(edges.points) < 12:
        return []
    rho, align = known if known is not None else _radius_and_alignment(edges, seed)
    # Support is measured on the points around the band only: a fit never strays far from its seed.
    around = np.abs(rho - 1.0) < band + config.refine_band
    nearby = _Edges(edges.points[around], edges.grads[around], edges.size)
    near, align = np.abs(rho[around] - 1.0) < band, align[around]
    fits = []
    for polarity in polarities:
        band_pts = nearby.points[near & (polarity * align > config.min_alignment)]
        if len(band_pts) < 12:
            continue
        ellipse = _fit(band_pts) if rng is None else _ransac(band_pts, seed, tol, config, rng)
        for _ in range(config.refine_passes):
            if ellipse is None:
                break
            off = np.abs(_rho(band_pts, ellipse) - 1.0) * min(ellipse[2], ellipse[3])
            ellipse = _fit(band_pts[off < tol])
        if ellipse is not None:
            fits.append(_Fit(ellipse, _support(ellipse, nearby, tol, config)))
    return fits


def _radius_and_alignment(edges: _Edges, e: Ellipse) -> tuple[np.ndarray, np.ndarray]:
    """Each edge point's normalised radius and the cosine between its gradient and the outward normal."""
    rho, nx, ny = _geometry(edges.points, e)
    return rho, nx * edges.grads[:, 0] + ny * edges.grads[:, 1]


def _in_axes(points: np.ndarray, e: Ellipse) -> tuple[np.ndarray, np.ndarray, float, float]:
    """Each point along the ellipse's two axes, in semi-axes from its centre (u, v), and the cosine and
    sine of the axes' turn."""
    cx, cy, rx, ry, angle = e
    t = np.deg2rad(angle)
    c, s = np.cos(t), np.sin(t)
    dx, dy = points[:, 0] - cx, points[:, 1] - cy
    return (dx * c + dy * s) / rx, (-dx * s + dy * c) / ry, c, s


def _rho(points: np.ndarray, e: Ellipse) -> np.ndarray:
    """Each point's normalised radius: 1 on the ellipse, < 1 inside."""
    u, v, _, _ = _in_axes(points, e)
    return np.hypot(u, v)


def _geometry(points: np.ndarray, e: Ellipse) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each point's normalised radius (1 on the ellipse) and the x and y of the ellipse's unit outward
    normal there (apart, not stacked: a frame's search asks for them a few thousand points at a time,
    tens of times)."""
    u, v, c, s = _in_axes(points, e)
    rx, ry = e[2], e[3]
    nu, nv = u / rx, v / ry  # gradient of u^2 + v^2, in the ellipse's axes
    nx, ny = nu * c - nv * s, nu * s + nv * c
    length = np.sqrt(nx * nx + ny * ny) + 1e-12
    return np.hypot(u, v), nx / length, ny / length


def outward_normals(points: np.ndarray, e: Ellipse) -> np.ndarray:
    """The unit outward normal of the ellipse's level curve through each point (on it: the ellipse's own)."""
    _, nx, ny = _geometry(points, e)
    return np.stack([nx, ny], axis=1)


def _ransac(band: np.ndarray, seed: Ellipse, tol: float, config: BowlConfig,
            rng: np.random.Generator) -> Ellipse | None:
    """The conic through five edge points that most band points lie on, all hypotheses at once."""
    cx, cy = seed[0], seed[1]
    r = float(np.sqrt(seed[2] * seed[3]))
    # Centred and scaled to the seed: the 5-point systems stay well conditioned.
    p = (band - np.array([cx, cy], dtype=np.float32)) / r
    # Hypotheses are scored on a fixed-size subset: the count of inliers is a statistic.
    scored = p if len(p) <= config.ransac_points else p[rng.choice(len(p), config.ransac_points, replace=False)]
    sector = _angle_bins(np.arctan2(p[:, 1], p[:, 0]), 5)
    counts = np.bincount(sector, minlength=5)
    if np.count_nonzero(counts) < 5:
        return _fit(band)
    # One point from each of five sectors: a well-spread sample gives a well-posed ellipse.
    order = np.argsort(sector, kind="stable")
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    picks = starts + (rng.random((config.ransac_iters, 5)) * counts).astype(int)
    sample = p[order[picks]]  # iters x 5 x 2
    x, y = sample[..., 0], sample[..., 1]
    design = np.stack([x * x, x * y, y * y, x, y, np.ones_like(x)], axis=-1)  # iters x 5 x 6
    conics = np.linalg.svd(design)[2][:, -1, :]  # the null vector of each 5 x 6 system
    a, b, c = conics[:, 0], conics[:, 1], conics[:, 2]
    conics = conics[b * b - 4 * a * c < 0]  # ellipses only
    if len(conics) == 0:
        return _fit(band)
    # Scored by how much of the way around their inliers reach, not by how many there are: the rim
    # plus a dense stretch of shadow or lip edge can out-count the rim alone with an ellipse that
    # runs along neither for long (generated seed 8282, scenes 2 and 121).
    inliers = _sampson(conics, scored) * r < tol
    angle = _angle_bins(np.arctan2(scored[:, 1], scored[:, 0]), _OUTLINE_SAMPLES)
    hit = np.zeros((len(conics), _OUTLINE_SAMPLES), bool)
    rows, cols = np.nonzero(inliers)
    hit[rows, angle[cols]] = True
    best = conics[int(np.argmax(hit.sum(axis=1) * (len(scored) + 1) + inliers.sum(axis=1)))]
    return _fit(band[_sampson(best[None, :], p)[0] * r < tol])


def _angle_bins(angles: np.ndarray, n: int) -> np.ndarray:
    """Each angle (radians, any turn) as one of `n` equal sectors of the circle, 0..n-1 from angle 0."""
    return (np.mod(angles, 2 * np.pi) / (2 * np.pi) * n).astype(int) % n


def _sampson(conics: np.ndarray, p: np.ndarray) -> np.ndarray:
    """(K, N) first-order distance of N points from K conics (x^2, xy, y^2, x, y, 1 coefficients)."""
    px, py = p[:, 0][None, :], p[:, 1][None, :]
    k = [conics[:, i][:, None] for i in range(6)]
    value = k[0] * px * px + k[1] * px * py + k[2] * py * py + k[3] * px + k[4] * py + k[5]
    grad_x = 2 * k[0] * px + k[1] * py + k[3]
    grad_y = k[1] * px + 2 * k[2] * py + k[4]
    return np.abs(value) / (np.hypot(grad_x, grad_y) + 1e-9)


def _fit(points: np.ndarray) -> Ellipse | None:
    if len(points) < 6:
        return None
    (cx, cy), (a, b), angle = cv2.fitEllipseDirect(points.reshape(-1, 1, 2))
    if not (np.isfinite([cx, cy, a, b, angle]).all() and a > 2 and b > 2):
        return None
    return (float(cx), float(cy), float(a) / 2, float(b) / 2, float(angle))


@functools.cache
def _unit_circle(samples: int) -> tuple[np.ndarray, np.ndarray]:
    """cos and sin of `samples` angles evenly around from 0 (read-only: shared by every call)."""
    phi = np.linspace(0, 2 * np.pi, samples, endpoint=False)
    cos, sin = np.cos(phi), np.sin(phi)
    cos.flags.writeable = sin.flags.writeable = False
    return cos, sin


def outline(ellipse: Ellipse, samples: int = _OUTLINE_SAMPLES) -> np.ndarray:
    """Points along an ellipse (cx, cy, rx, ry, angle_deg), as an N x 2 float array."""
    cx, cy, rx, ry, angle = ellipse
    t = np.deg2rad(angle)
    cos, sin = _unit_circle(samples)  # the frame's search asks for the same angles ten times or more
    u, v = rx * cos, ry * sin
    return np.stack([cx + u * np.cos(t) - v * np.sin(t), cy + u * np.sin(t) + v * np.cos(t)], axis=1)


def _inside(pts: np.ndarray, width: int, height: int) -> np.ndarray:
    return (pts[:, 0] >= 0) & (pts[:, 0] <= width - 1) & (pts[:, 1] >= 0) & (pts[:, 1] <= height - 1)


def rim_in_view(ellipse: Ellipse, width: int, height: int) -> float:
    """The share of the rim inside a width x height frame (1: all of it in view)."""
    return float(np.mean(_inside(outline(ellipse), width, height)))


def _support(ellipse: Ellipse, edges: _Edges, tol: float, config: BowlConfig,
             known: tuple[np.ndarray, np.ndarray] | None = None) -> float:
    """Share of the outline (inside the frame) covered by long runs of edges running along it.

    An outline sample is covered by an edge point within `tol` whose gradient is normal to the ellipse:
    texture and noise have edges everywhere, but they point every which way. A run keeps one contrast
    polarity (a striped table flips the rim's polarity from stripe to stripe, noise at every pixel).
    `known`: the edge points' normalised radius and alignment with `ellipse`, when the caller has them.
    """
    cx, cy, rx, ry, angle = ellipse
    rho, align = known if known is not None else _radius_and_alignment(edges, ellipse)
    # Only points near the outline and normal to it count (either polarity): the angles of those alone.
    counted = (np.abs(rho - 1.0) * min(rx, ry) <= tol) & (np.abs(align) > config.min_alignment)
    points, align = edges.points[counted], align[counted]
    t = np.deg2rad(angle)
    dx, dy = points[:, 0] - cx, points[:, 1] - cy
    phi = np.arctan2((-dx * np.sin(t) + dy * np.cos(t)) / ry, (dx * np.cos(t) + dy * np.sin(t)) / rx)
    bins = _angle_bins(phi, _OUTLINE_SAMPLES)
    covered = np.zeros(_OUTLINE_SAMPLES, dtype=bool)
    for polarity in (1.0, -1.0):
        hit = np.zeros(_OUTLINE_SAMPLES, dtype=bool)
        hit[bins[polarity * align > config.min_alignment]] = True
        covered |= _long_runs(hit, config.min_run)
    inside = _inside(outline(ellipse), *edges.size)  # outline() samples the same angles as the bins
    if not inside.any():
        return 0.0
    return float(np.count_nonzero(covered & inside) / np.count_nonzero(inside))


def _long_runs(covered: np.ndarray, min_run: int) -> np.ndarray:
    """Covered bins that belong to a circular run of at least `min_run` covered bins: the bins of some
    window of `min_run` bins all covered (two circular box sums instead of a loop over runs)."""
    k = min(min_run, len(covered))
    if k <= 1 or covered.all() or not covered.any():
        return covered
    ones = np.ones(k, np.int32)
    bins = covered.astype(np.int32)
    full = np.convolve(np.concatenate([bins, bins[: k - 1]]), ones, mode="valid") == k  # bins i..i+k-1
    starts = full.astype(np.int32)
    return np.convolve(np.concatenate([starts[1 - k:], starts]), ones, mode="valid") > 0  # a window starts at j-k+1..j


def _plausible(fit: _Fit, width: int, height: int, min_r: float, max_r: float, config: BowlConfig) -> bool:
    cx, cy, rx, ry, _ = fit.ellipse
    small_axis, big_axis = min(rx, ry), max(rx, ry)
    if small_axis < min_r or big_axis > max_r or small_axis < config.min_axis_ratio * big_axis:
        return False
    if not (0 <= cx < width and 0 <= cy < height):
        return False
    if rim_in_view(fit.ellipse, width, height) < config.min_inside_frac:
        return False
    return fit.support >= config.min_support


def _close(fine: Ellipse, seed: Ellipse, config: BowlConfig) -> bool:
    """The refined rim must stay near the search's: the refinement only sharpens, never jumps."""
    r = float(np.sqrt(seed[2] * seed[3]))
    moved = float(np.hypot(fine[0] - seed[0], fine[1] - seed[1]))
    ratio = min(fine[2], fine[3]) / max(fine[2], fine[3])
    size = float(np.sqrt(fine[2] * fine[3])) / r
    return (moved < config.refine_band * r and 1 - config.refine_band < size < 1 + config.refine_outward
            and ratio >= config.min_axis_ratio)
