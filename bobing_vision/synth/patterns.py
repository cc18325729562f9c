"""Painting for the bowl, blue-and-white (青花) or underglaze red (釉里红): rings, vine scrolls, lotus
petals, dot bands and a medallion, drawn as pigment density in the bowl's top-down texture. The dots
and strokes that look like pips are the point: a dice reader must learn to ignore them."""

from __future__ import annotations

import cv2
import numpy as np

from bobing_vision.synth.noise import smooth_noise

COBALT = (0.55, 0.25, 0.08)  # BGR of cobalt blue under clear glaze, as a share of white
# BGR of copper red under glaze (釉里红), as a share of white: festive Bobing bowls are painted red as
# often as blue, and a red flower of dots beside a Chinese die looks like its red 1 or 4.
COPPER_RED = (0.22, 0.18, 0.62)
WASH = 0.45  # a washed (diluted) area holds less pigment than a line


class _Brush:
    """Draws in millimetres about the bowl's axis onto a density mask."""

    def __init__(self, mask: np.ndarray, mm_per_px: float) -> None:
        self.mask = mask
        self.k = 1.0 / mm_per_px
        self.c = np.array(mask.shape[::-1], np.float64) / 2

    def px(self, xy: np.ndarray | tuple[float, float]) -> np.ndarray:
        return np.round((self.c + np.asarray(xy) * self.k) * 16).astype(np.int32)

    def polar(self, r: np.ndarray | float, a: np.ndarray | float) -> np.ndarray:
        return np.stack([np.cos(a) * r, np.sin(a) * r], axis=-1)

    def width(self, mm: float) -> int:
        return max(1, int(round(mm * self.k)))

    def ring(self, r: float, mm: float, value: float = 1.0) -> None:
        cv2.circle(self.mask, tuple(self.px((0.0, 0.0)) // 16), int(r * self.k), value, self.width(mm), cv2.LINE_AA)

    def line(self, pts: np.ndarray, mm: float, value: float = 1.0, closed: bool = False) -> None:
        cv2.polylines(self.mask, [self.px(pts)], closed, value, self.width(mm), cv2.LINE_AA, 4)

    def blob(self, pts: np.ndarray, value: float = 1.0) -> None:
        cv2.fillPoly(self.mask, [self.px(pts)], value, cv2.LINE_AA, 4)

    def dot(self, xy: np.ndarray, r: float, value: float = 1.0) -> None:
        a = np.linspace(0, 2 * np.pi, 12, endpoint=False)
        self.blob(np.asarray(xy) + self.polar(r, a), value)


def _vine_band(rng: np.random.Generator, b: _Brush, r0: float, r1: float) -> None:
    """A scrolling vine between radii r0 and r1, leaves along it and flowers in its bends."""
    waves = int(rng.integers(6, 14))
    a = np.linspace(0, 2 * np.pi, 360)
    mid, amp = (r0 + r1) / 2, (r1 - r0) * 0.3
    phase = rng.uniform(0, 2 * np.pi)
    b.line(b.polar(mid + amp * np.sin(waves * a + phase), a), rng.uniform(0.6, 1.2))
    for k in range(waves * 2):
        ak = (k + 0.25) * np.pi / waves - phase / waves
        r = mid + amp * np.sin(waves * ak + phase)
        centre = b.polar(mid - amp * 0.8 * np.sign(np.sin(waves * ak + phase)), ak)
        if rng.random() < 0.6:
            petals = np.linspace(0, 2 * np.pi, 6, endpoint=False)
            size = (r1 - r0) * rng.uniform(0.1, 0.16)
            for p in petals:  # a flower of dots round a dot: the pip-like case
                b.dot(centre + b.polar(size * 1.4, p), size * 0.55)
            b.dot(centre, size * 0.6)
        leaf_at = b.polar(r, ak)
        tangent = ak + np.pi / 2 + rng.uniform(-0.5, 0.5)
        t = np.linspace(0, np.pi, 8)
        length, wide = (r1 - r0) * 0.22, (r1 - r0) * 0.07
        outline = np.concatenate([
            np.stack([np.cos(tangent) * length * t / np.pi - np.sin(tangent) * wide * np.sin(t),
                      np.sin(tangent) * length * t / np.pi + np.cos(tangent) * wide * np.sin(t)], axis=1),
            np.stack([np.cos(tangent) * length * t[::-1] / np.pi + np.sin(tangent) * wide * np.sin(t[::-1]),
                      np.sin(tangent) * length * t[::-1] / np.pi - np.cos(tangent) * wide * np.sin(t[::-1])], axis=1),
        ])
        b.blob(leaf_at + outline, 0.85)


def _petal_band(rng: np.random.Generator, b: _Brush, r0: float, r1: float, outward: bool) -> None:
    """Lotus petals standing on a ring: outlined, with a pale wash inside."""
    n = int(rng.integers(10, 22))
    for k in range(n):
        a0, a1 = 2 * np.pi * k / n, 2 * np.pi * (k + 1) / n
        t = np.linspace(0, 1, 10)
        a = a0 + (a1 - a0) * t
        bulge = np.sin(np.pi * t) ** 0.7
        r = r0 + (r1 - r0) * bulge if outward else r1 - (r1 - r0) * bulge
        pts = b.polar(r, a)
        b.blob(pts, WASH * rng.uniform(0.6, 1.0))
        b.line(pts, 0.7)
        if rng.random() < 0.5:
            b.dot(b.polar(r0 + (r1 - r0) * 0.45, (a0 + a1) / 2), (r1 - r0) * 0.1)


def _dot_band(rng: np.random.Generator, b: _Brush, r: float) -> None:
    n = int(rng.integers(12, 40))
    size = rng.uniform(1.0, 3.5)
    for k in range(n):
        b.dot(b.polar(r, 2 * np.pi * k / n), size * rng.uniform(0.8, 1.1))


def _medallion(rng: np.random.Generator, b: _Brush, radius: float) -> None:
    kind = int(rng.integers(4))
    if kind == 0:  # a flower
        n = int(rng.integers(5, 9))
        for k in range(n):
            a = 2 * np.pi * k / n
            t = np.linspace(0, 2 * np.pi, 16)
            petal = np.stack([radius * 0.5 * (1 + np.cos(t)) / 2 * 1.8, radius * 0.2 * np.sin(t)], axis=1)
            rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
            b.blob(petal @ rot.T, WASH if k % 2 else 0.9)
        b.dot(np.zeros(2), radius * 0.18)
    elif kind == 1:  # a brushed character (福 / 寿 style): strokes inside a circle
        b.ring(radius, 1.0)
        for _ in range(int(rng.integers(6, 12))):
            p0 = rng.uniform(-0.6, 0.6, 2) * radius
            p1 = p0 + rng.uniform(-0.5, 0.5, 2) * radius
            b.line(np.stack([p0, (p0 + p1) / 2 + rng.normal(0, 0.05 * radius, 2), p1]), rng.uniform(1.2, 2.6))
    elif kind == 2:  # a fish
        t = np.linspace(0, 2 * np.pi, 20)
        body = np.stack([radius * 0.7 * np.cos(t), radius * 0.28 * np.sin(t)], axis=1)
        b.blob(body, 0.8)
        b.blob(np.array([[radius * 0.6, 0], [radius * 1.0, radius * 0.3], [radius * 1.0, -radius * 0.3]]), 0.8)
        b.dot(np.array([-radius * 0.45, -radius * 0.05]), radius * 0.06, 0.0)
    else:  # concentric rings only
        b.ring(radius * 0.5, 0.8)


def qinghua_inside(rng: np.random.Generator, size: int, mm_per_px: float, rim: float, floor_r: float) -> np.ndarray:
    """(size, size) float32 cobalt density for the inside of a bowl (rim radius `rim` mm)."""
    mask = np.zeros((size, size), np.float32)
    b = _Brush(mask, mm_per_px)
    b.ring(rim * rng.uniform(0.96, 0.99), rng.uniform(1.0, 3.0))
    band = rng.uniform(0.78, 0.88)
    b.ring(rim * band, rng.uniform(0.5, 1.2))
    style = int(rng.integers(4))
    if style == 0:
        _vine_band(rng, b, rim * band, rim * 0.95)
    elif style == 1:
        _petal_band(rng, b, rim * band, rim * 0.95, outward=True)
    elif style == 2:
        _dot_band(rng, b, rim * (band + 0.95) / 2)
    b.ring(floor_r * rng.uniform(0.85, 1.05), rng.uniform(0.8, 2.0))
    if rng.random() < 0.5:
        _petal_band(rng, b, floor_r * 0.98, floor_r * 1.2, outward=True)
    elif rng.random() < 0.5:
        b.ring(floor_r * rng.uniform(0.6, 0.75), rng.uniform(0.5, 1.2))
    if rng.random() < 0.8:
        _medallion(rng, b, floor_r * rng.uniform(0.3, 0.55))
    for _ in range(int(rng.integers(0, 10))):  # stray dots and flicks of the brush
        p = b.polar(rim * np.sqrt(rng.uniform(0, 0.85)), rng.uniform(0, 2 * np.pi))
        if rng.random() < 0.6:
            b.dot(p, rng.uniform(0.8, 2.5))
        else:
            b.line(np.stack([p, p + rng.uniform(-6, 6, 2)]), rng.uniform(0.6, 1.5))
    return mask


def qinghua_outside(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """(h, w) float32 cobalt density for the outer wall (x: round the bowl, y: table to rim)."""
    mask = np.zeros((h, w), np.float32)
    cv2.line(mask, (0, h - 6), (w, h - 6), 1.0, 2, cv2.LINE_AA)
    cv2.line(mask, (0, int(h * 0.2)), (w, int(h * 0.2)), 1.0, 1, cv2.LINE_AA)
    x = np.arange(w)
    waves = int(rng.integers(4, 10))
    y = (h * 0.55 + h * 0.15 * np.sin(2 * np.pi * waves * x / w + rng.uniform(0, 6))).astype(np.int32)
    cv2.polylines(mask, [np.stack([x, y], axis=1).astype(np.int32)], False, 1.0, 1, cv2.LINE_AA)
    for _ in range(int(rng.integers(6, 18))):
        cx, cy = int(rng.uniform(0, w)), int(rng.uniform(h * 0.3, h * 0.85))
        cv2.circle(mask, (cx, cy), int(rng.integers(2, 6)), 0.9, -1, cv2.LINE_AA)
    return mask


def paint(rng: np.random.Generator, tex: np.ndarray, density: np.ndarray, tone: float,
          pigment: tuple[float, float, float] = COBALT) -> np.ndarray:
    """Fire the pigment into the glaze: soft edges, uneven pooling, `tone` darker or paler."""
    h, w = density.shape
    d = cv2.GaussianBlur(density, (0, 0), 0.6)
    d *= 0.8 + 0.2 * np.clip(smooth_noise(rng, (h, w), 12), -1, 1)
    d = np.clip(d, 0, 1)
    colour = np.empty_like(tex)
    colour[:] = np.array(pigment, np.float32) * tone
    return cv2.blendLinear(colour, tex, d, 1 - d)
