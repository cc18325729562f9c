"""Photometric augmentation: the reader must work under cameras, white balance, blur and JPEG it never saw."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class AugmentConfig:
    """How hard each augmentation pushes; probabilities per image."""

    gain_sigma: float = 0.15  # per-channel white balance, log scale: tungsten to shade
    brightness_sigma: float = 0.30  # overall exposure, log scale
    contrast_range: tuple[float, float] = (0.6, 1.3)  # flat phone shots to punchy webcams
    gamma_sigma: float = 0.2  # camera tone curves, log scale
    desaturate_p: float = 0.15  # some cameras and lights wash colour out (red pips turn pale)
    blur_p: float = 0.3  # focus and motion blur
    blur_sigma_max: float = 1.6  # in output pixels
    noise_p: float = 0.5  # sensor noise
    noise_sigma_max: float = 10.0  # in grey levels
    # Webcams and phones sharpen (an unsharp mask): halos round every edge and pip. 0, the committed
    # recipe, draws nothing, so its pictures stay as they were; 0.25 read sharpened photos better but gave
    # more wrong verdicts elsewhere (models/HISTORY.md, thirtieth session).
    sharpen_p: float = 0.0
    sharpen_amount: tuple[float, float] = (0.5, 1.5)  # the halo's strength: 1.5 is a hard webcam's
    sharpen_sigma: tuple[float, float] = (0.7, 2.0)  # the halo's width, in output pixels
    jpeg_p: float = 0.3  # web cameras and phone photos are JPEG
    jpeg_quality: tuple[int, int] = (30, 95)
    # Dice come in every colour: swapping the colour channels turns green dice red or blue. Never on an
    # image with red pips, whose colour is a label.
    channel_swap_p: float = 0.2
    # Dice come light with dark pips and dark with light ones: a negative turns the one into the other
    # (black dice with white pips are read worst of the ordinary colours). Never with `keep_colours` (a
    # crop with red pips), as the channel swap. 0, the committed recipe, draws nothing; 0.15 read the
    # dark dice better and the rest worse (models/HISTORY.md, thirty-second session).
    invert_p: float = 0.0
    # A camera's picture holds less detail than its pixel count (demosaicing, a soft lens, a small sensor,
    # a die far away): the picture shrunk by a factor in `resample_factor` and enlarged back, blockier
    # than a blur. 0, the committed recipe, draws nothing; 0.3 read byler's photos never seen no better
    # (reader-only bed, two seeds: +0.5 and -3.1 points; models/HISTORY.md, forty-second session).
    resample_p: float = 0.0
    resample_factor: tuple[float, float] = (1.5, 3.0)
    # Every camera renders detail its own way: the picture filtered by a random 3x3 kernel (the same for
    # every channel, so colours stay), its contrast restored, and blended with the original by a random
    # weight (random convolutions, a domain-generalisation trick). 0, the committed recipe, draws nothing;
    # 0.3 and 0.6 read byler's photos never seen no better (reader-only bed, two seeds: +0.7 and -0.1
    # points at 0.3, +1.1 and -0.6 at 0.6).
    random_filter_p: float = 0.0


def photometric(
    image: np.ndarray, rng: np.random.Generator, cfg: AugmentConfig = AugmentConfig(), keep_colours: bool = False
) -> np.ndarray:
    """One random camera look for a uint8 BGR image (any size); `keep_colours`: no negative, no channel swap."""
    x = image.astype(np.float32) * (1.0 / 255.0)
    if not keep_colours and cfg.invert_p > 0 and rng.random() < cfg.invert_p:
        x = 1.0 - x
    if not keep_colours and rng.random() < cfg.channel_swap_p:
        x = x[:, :, rng.permutation(3)]
    if rng.random() < cfg.desaturate_p:
        grey = x.mean(axis=2, keepdims=True)
        x = grey + (x - grey) * rng.uniform(0.2, 0.8)
    gains = np.exp(rng.normal(0.0, cfg.gain_sigma, 3) + rng.normal(0.0, cfg.brightness_sigma)).astype(np.float32)
    x = x * gains
    mean = float(x.mean())
    x = (x - mean) * rng.uniform(*cfg.contrast_range) + mean
    x = np.clip(x, 0.0, 1.0) ** np.float32(np.exp(rng.normal(0.0, cfg.gamma_sigma)))
    if rng.random() < cfg.blur_p:
        sigma = rng.uniform(0.3, cfg.blur_sigma_max)
        if rng.random() < 0.3:
            x = motion_blur(x, rng, sigma)
        else:
            x = cv2.GaussianBlur(x, (0, 0), sigma)
    if cfg.resample_p > 0 and rng.random() < cfg.resample_p:
        x = resample(x, rng.uniform(*cfg.resample_factor))
    if cfg.random_filter_p > 0 and rng.random() < cfg.random_filter_p:
        x = random_filter(x, rng)
    if rng.random() < cfg.noise_p:
        x = x + rng.normal(0.0, rng.uniform(0.0, cfg.noise_sigma_max) / 255.0, x.shape).astype(np.float32)
    if cfg.sharpen_p > 0 and rng.random() < cfg.sharpen_p:  # after the noise: the camera sharpens that too
        blurred = cv2.GaussianBlur(x, (0, 0), rng.uniform(*cfg.sharpen_sigma))
        x = x + np.float32(rng.uniform(*cfg.sharpen_amount)) * (x - blurred)
    out = np.clip(x * 255.0 + 0.5, 0, 255).astype(np.uint8)
    if rng.random() < cfg.jpeg_p:
        quality = int(rng.integers(*cfg.jpeg_quality))
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def motion_blur(x: np.ndarray, rng: np.random.Generator, sigma: float) -> np.ndarray:
    length = max(2, int(round(sigma * 3)))
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length
    rot = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), float(rng.uniform(0, 180)), 1.0)
    turned = np.asarray(cv2.warpAffine(kernel, rot, (length, length)), np.float32)
    turned /= max(float(turned.sum()), 1e-6)
    return cv2.filter2D(x, -1, turned)


def resample(x: np.ndarray, factor: float) -> np.ndarray:
    """`x` shrunk `factor` times (area-averaged, as a sensor's pixels) and enlarged back (bilinear)."""
    h, w = x.shape[:2]
    small = cv2.resize(x, (max(2, round(w / factor)), max(2, round(h / factor))), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def random_filter(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """`x` through a random 3x3 kernel with the original's mean and spread restored, blended with `x`."""
    kernel = rng.normal(0.0, 1.0 / 3.0, (3, 3)).astype(np.float32)
    kernel *= np.sign(kernel.sum()) or 1.0  # a kernel summing below 0 makes a negative: red pips turn cyan
    out = cv2.filter2D(x, -1, kernel, borderType=cv2.BORDER_REFLECT)
    mean, spread = x.mean(axis=(0, 1)), x.std(axis=(0, 1)) + 1e-6
    out = (out - out.mean(axis=(0, 1))) / (out.std(axis=(0, 1)) + 1e-6) * spread + mean
    weight = np.float32(rng.uniform(0.0, 1.0))
    return weight * x + (1.0 - weight) * out
