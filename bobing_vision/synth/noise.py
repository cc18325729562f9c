"""Smooth random fields for textures: coarse Gaussian noise, upsampled."""

from __future__ import annotations

import cv2
import numpy as np


def smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cells: int, channels: int = 1) -> np.ndarray:
    """A (h, w[, c]) float32 field, zero mean and unit-ish spread, with about `cells` blobs across."""
    h, w = shape
    ch = max(2, int(round(cells * h / max(h, w))) + 2)
    cw = max(2, int(round(cells * w / max(h, w))) + 2)
    coarse = rng.standard_normal((ch, cw, channels) if channels > 1 else (ch, cw)).astype(np.float32)
    return cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)


def times_gray(img: np.ndarray, gray: np.ndarray) -> np.ndarray:
    """float32 (h, w, 3) times (h, w) per pixel, without numpy's slow broadcasting."""
    return cv2.multiply(img, cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR))


def fill_invalid(values: np.ndarray, valid: np.ndarray, rounds: int = 6) -> np.ndarray:
    """Spread valid values into invalid pixels (normalised convolution), so upsampling blends cleanly."""
    out = values.astype(np.float32).copy()
    weight = valid.astype(np.float32)
    have = valid.copy()
    for _ in range(rounds):
        if have.all():
            break
        w = weight if out.ndim == 2 else weight[..., None]
        num = cv2.blur(out * w, (5, 5))
        den = cv2.blur(weight, (5, 5))
        den_c = den if out.ndim == 2 else den[..., None]
        grown = (den > 1e-4) & ~have
        fill = num / np.maximum(den_c, 1e-4)
        out[grown] = fill[grown]
        weight = np.where(grown, 1.0, weight).astype(np.float32)
        have = have | grown
    return out
