"""What a cheap webcam does to the picture: white balance, exposure, blur, noise and JPEG."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np


@dataclass(frozen=True)
class CameraEffects:
    white_balance: tuple[float, float, float]  # BGR gains the camera got wrong
    exposure: float  # < 1: a dim room
    vignette: float  # darkening at the corners
    motion_px: float  # length of the motion blur streak, 0: none
    motion_deg: float
    softness: float  # every webcam lens and demosaic blurs a little
    defocus_sigma: float  # 0: in focus
    noise_sigma: float  # in 0..255 units, grows in dim light
    jpeg_quality: int  # 0: not compressed


def sample_effects(rng: np.random.Generator) -> CameraEffects:
    exposure = float(rng.uniform(0.45, 1.15)) if rng.random() < 0.35 else float(rng.uniform(0.85, 1.15))
    return CameraEffects(
        white_balance=tuple(float(g) for g in 1 + rng.uniform(-0.08, 0.08, 3)),  # type: ignore[arg-type]
        exposure=exposure,
        vignette=float(rng.uniform(0, 0.35)),
        motion_px=float(rng.uniform(2, 8)) if rng.random() < 0.12 else 0.0,
        motion_deg=float(rng.uniform(0, 180)),
        softness=float(rng.uniform(0.3, 0.8)),
        defocus_sigma=float(rng.uniform(0.8, 1.8)) if rng.random() < 0.15 else 0.0,
        noise_sigma=float(rng.uniform(1.0, 4.0) / max(exposure, 0.3) ** 1.2),
        jpeg_quality=int(rng.integers(35, 92)) if rng.random() < 0.7 else 0,
    )


@lru_cache(maxsize=1)
def _grain_bank() -> np.ndarray:
    """A fixed bank of Gaussian noise; each frame takes a random window of it (drawing fresh noise for
    every pixel costs more than the rest of the camera model)."""
    gen = np.random.default_rng(20260929)
    luma = gen.standard_normal((1536, 1536, 1), dtype=np.float32)
    return luma * 0.8 + gen.standard_normal((1536, 1536, 3), dtype=np.float32) * 0.45  # mostly luminance


def _grain(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    bank = _grain_bank()
    if h > bank.shape[0] or w > bank.shape[1]:
        return rng.standard_normal((h, w, 3), dtype=np.float32)
    y = int(rng.integers(0, bank.shape[0] - h + 1))
    x = int(rng.integers(0, bank.shape[1] - w + 1))
    return bank[y:y + h, x:x + w]


def motion_kernel(length: float, angle_deg: float) -> np.ndarray:
    n = int(np.ceil(length)) | 1
    k = np.zeros((n, n), np.float32)
    c = n // 2
    a = np.radians(angle_deg)
    dx, dy = np.cos(a) * length / 2, np.sin(a) * length / 2
    cv2.line(k, (int(round(c - dx)), int(round(c - dy))), (int(round(c + dx)), int(round(c + dy))), 1.0, 1, cv2.LINE_AA)
    return k / k.sum()


def apply_effects(rng: np.random.Generator, img: np.ndarray, fx: CameraEffects) -> np.ndarray:
    """uint8 BGR in, uint8 BGR out."""
    h, w = img.shape[:2]
    out: np.ndarray = img.astype(np.float32)
    if fx.motion_px > 0:
        out = cv2.filter2D(out, -1, motion_kernel(fx.motion_px, fx.motion_deg))
    sigma = float(np.hypot(fx.softness, fx.defocus_sigma))
    if sigma > 0:
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    gain = np.array(fx.white_balance) * fx.exposure
    yy, xx = np.ogrid[-1:1:complex(0, h // 8 + 1), -1:1:complex(0, w // 8 + 1)]
    small = (1 - fx.vignette * (xx * xx + yy * yy) / 2).astype(np.float32)
    vig = cv2.resize(cv2.merge([small * float(g) for g in gain]), (w, h))
    out = cv2.multiply(out, vig)
    out = cv2.scaleAdd(_grain(rng, h, w), fx.noise_sigma, out)  # sensor noise
    res: np.ndarray = cv2.convertScaleAbs(out)
    if fx.jpeg_quality:
        _, buf = cv2.imencode(".jpg", res, [cv2.IMWRITE_JPEG_QUALITY, fx.jpeg_quality])
        res = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR))
    return res
