"""Training samples with their targets: locator patches (heat, offset, size) and reader crops (face, pips).

Crops are cut with the runtime's own `cut_crops`, so training sees exactly what the detector feeds the
reader; only the jitter of centre and size (the locator's error) and the rotation are added here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from bobing_vision.training.augment import AugmentConfig, photometric
from bobing_vision.training.paste import PasteConfig, paste_dice
from bobing_vision.training.scenes import SYNTH_SOURCE, UNREADABLE, Scene, near_a_die
from bobing_vision.vision.detector import (
    LOCATOR_AREA_SHRINK,
    LOCATOR_STRIDE,
    NOT_A_DIE_CLASS,
    PAD_VALUE,
    READER_STRIDE,
    UNREADABLE_CLASS,
    cut_crops,
    locator_input_size,
)


@dataclass(frozen=True)
class SampleConfig:
    """Geometry of the training samples; runtime geometry lives in vision.detector.DetectorConfig."""

    locator_input: tuple[int, int] = (288, 384)  # H, W the locator is traced at before its size is freed
    patch: int = 192  # locator training patch side: fully convolutional, smaller is cheaper
    scale_jitter: float = 0.7  # log-uniform +- around the runtime scale: dice 2x smaller or bigger
    min_die_px: float = 7.0  # do not train on dice smaller than this in locator input pixels
    heat_sigma_frac: float = 0.12  # Gaussian sigma of a centre, as a share of the face size (in cells)
    crop: int = 40  # reader input side
    # The top face fills this share of a reader crop's side, written into the exported reader
    # (vision.detector.FACE_FRACTION_KEY). 0.72 rather than 0.6: the pips get 20% more crop pixels for the
    # same cost; byler never seen, reader alone, two seeds: 80.9 -> 83.7% and 83.5 -> 86.5% (HISTORY.md).
    face_fraction: float = 0.72
    center_jitter: float = 0.10  # reader crop centre error, share of the face size (sigma)
    size_jitter: float = 0.12  # reader crop size error, log sigma
    negative_share: float = 0.2  # share of reader crops that are background (not a die)
    hard_negative_p: float = 0.6  # of those, the most textured of a few spots: coins, crumbs, pattern dots
    hard_negative_tries: int = 8  # spots compared for a hard negative
    mined_negative_p: float = 0.5  # a background crop is one of the scene's mined false dice, when it has any
    # A die's crop is one of the scene's mined spots on a leaning die's side, when it has any, this often:
    # trained only at their top faces' centres, leaning dice were read by a side face the locator
    # peaked on (7 of 8 wrong awards over 41 generated sets, twenty-fifth session). 0: never.
    leaning_spot_p: float = 0.0
    pip_sigma_cells: float = 0.8  # Gaussian sigma of a pip in reader heat cells
    # A tilted camera sees a square top face as a rhombus: the reader crop is squeezed along a random
    # axis by up to this share (30 degrees of tilt shortens one side by 13%, 45 degrees by 29%).
    squeeze_max: float = 0.3
    # Share of each batch from generated scenes; the real sets share the rest. With half of each batch
    # real, generated bowls and real photos never seen read worse (models/HISTORY.md, tenth session).
    synth_share: float = 0.9
    # Dice moved onto new ground in the locator's samples (`training.paste`; share 0: none).
    paste: PasteConfig = PasteConfig()


def runtime_scale(scene: Scene) -> float:
    """The scale the detector will run this scene's frame at (`locator_input_size`)."""
    h, w = scene.image.shape[:2]
    in_h, in_w = locator_input_size(h, w)
    return min(in_h / h, in_w / w)


def locator_sample(
    scene: Scene, rng: np.random.Generator, cfg: SampleConfig, aug: AugmentConfig
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(patch HxWx3 uint8, heat (1,h,w), regression (4,h,w): off_x, off_y, log size, mask)."""
    p = cfg.patch
    scale = runtime_scale(scene) * math.exp(rng.uniform(-cfg.scale_jitter, cfg.scale_jitter))
    if scene.dice:
        median = float(np.median([d.size for d in scene.dice]))
        scale = max(scale, cfg.min_die_px * 1.2 / median)
    angle = rng.uniform(-math.pi, math.pi) if rng.random() < 0.7 else 0.0
    h, w = scene.image.shape[:2]
    if scene.dice and rng.random() < 0.7:
        d = scene.dice[rng.integers(len(scene.dice))]
        src = np.array(d.center) + rng.normal(0, p / scale / 6, 2)
    else:
        src = np.array([rng.uniform(0, w), rng.uniform(0, h)])
    c, s = math.cos(angle) * scale, math.sin(angle) * scale
    flip = -1.0 if rng.random() < 0.5 else 1.0
    a = np.array([[c * flip, -s * flip], [s, c]])
    t = np.array([p / 2, p / 2]) - a @ src
    matrix = np.hstack([a, t[:, None]])
    border = cv2.BORDER_CONSTANT if rng.random() < 0.5 else cv2.BORDER_REFLECT
    interp = cv2.INTER_AREA if scale < 1 / LOCATOR_AREA_SHRINK else cv2.INTER_LINEAR  # as the runtime's letterbox
    if interp == cv2.INTER_AREA:  # pre-shrink so the warp does not alias small pips and edges
        pre = scale / 0.8
        small = cv2.resize(scene.image, None, fx=pre, fy=pre, interpolation=cv2.INTER_AREA)
        m2 = matrix.copy()
        m2[:, :2] /= pre
        patch = cv2.warpAffine(small, m2, (p, p), flags=cv2.INTER_LINEAR, borderMode=border, borderValue=(PAD_VALUE,) * 3)
    else:
        patch = cv2.warpAffine(scene.image, matrix, (p, p), flags=interp, borderMode=border, borderValue=(PAD_VALUE,) * 3)
    patch = photometric(patch, rng, aug)
    g = p // LOCATOR_STRIDE
    heat = np.zeros((g, g), np.float32)
    reg = np.zeros((4, g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for d in scene.dice:
        x, y = matrix @ np.array([d.center[0], d.center[1], 1.0])
        size = d.size * scale
        if not (0 <= x < p and 0 <= y < p):
            continue
        cx, cy = x / LOCATOR_STRIDE - 0.5, y / LOCATOR_STRIDE - 0.5  # in cell-centre coordinates
        sigma = max(0.6, cfg.heat_sigma_frac * size / LOCATOR_STRIDE)
        ix, iy = int(round(cx)), int(round(cy))
        ix, iy = min(max(ix, 0), g - 1), min(max(iy, 0), g - 1)
        blob = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma**2))
        heat = np.maximum(heat, blob)
        heat[iy, ix] = 1.0
        reg[:, iy, ix] = (cx - ix, cy - iy, math.log(max(size, 1.0)), 1.0)
    return patch, heat[None], reg


def reader_sample(
    scene: Scene, rng: np.random.Generator, cfg: SampleConfig, aug: AugmentConfig
) -> tuple[np.ndarray, int, np.ndarray, float]:
    """(crop SxSx3 uint8, class 0..6, pip heat (2, S/2, S/2), pip mask 0/1)."""
    sizes = [d.size for d in scene.dice]
    g = cfg.crop // READER_STRIDE
    if not scene.dice or rng.random() < cfg.negative_share:
        size = float(rng.choice(sizes)) if sizes else 40.0
        center = background_point(scene, size, rng, cfg)
        label, pip_mask = NOT_A_DIE_CLASS, 1.0
        pips: np.ndarray = np.zeros((0, 3), np.float32)
    elif len(scene.leaning_spots) and rng.random() < cfg.leaning_spot_p:
        x, y, size = scene.leaning_spots[rng.integers(len(scene.leaning_spots))]
        center = np.array([x, y]) + rng.normal(0, cfg.center_jitter * size, 2)
        label, pip_mask = UNREADABLE_CLASS, 0.0
        pips = np.zeros((0, 3), np.float32)
    else:
        d = scene.dice[rng.integers(len(scene.dice))]
        size = d.size
        center = np.array(d.center) + rng.normal(0, cfg.center_jitter * size, 2)
        label = UNREADABLE_CLASS if d.face == UNREADABLE else d.face - 1
        known = d.pips is not None and d.face != UNREADABLE
        pips = d.pips if d.pips is not None and known else np.zeros((0, 3), np.float32)
        pip_mask = 1.0 if known else 0.0
    size *= math.exp(rng.normal(0, cfg.size_jitter))
    crops, tf = cut_crops(scene.image, np.array([center], np.float64), np.array([size]), cfg.crop, cfg.face_fraction)
    crop = crops[0]
    # pips into crop pixels (pixel-centre convention of cut_crops), then the same rotation/flip
    uv = (pips[:, :2] - tf.origins[0]) / tf.scales[0] if len(pips) else np.zeros((0, 2))
    rot = crop_warp(rng, cfg)
    crop = cv2.warpAffine(crop, rot, (cfg.crop, cfg.crop), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    crop = photometric(crop, rng, aug, keep_colours=bool(len(pips) and pips[:, 2].max() > 0.5))
    heat = np.zeros((2, g, g), np.float32)
    if len(uv):
        uv = (rot[:, :2] @ uv.T).T + rot[:, 2]
        yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
        for (u, v), red in zip(uv, pips[:, 2]):
            cx, cy = u / READER_STRIDE - 0.5, v / READER_STRIDE - 0.5
            blob = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * cfg.pip_sigma_cells**2))
            ch = int(red > 0.5)
            heat[ch] = np.maximum(heat[ch], blob)
    return crop, label, heat, pip_mask


def crop_warp(rng: np.random.Generator, cfg: SampleConfig) -> np.ndarray:
    """A 2x3 map of crop pixels about the centre: a random turn, a flip half the time, and a squeeze
    along a random axis (a tilted camera's view of the top face)."""
    half = cfg.crop / 2
    axis = rng.uniform(0, math.pi)
    squeeze = 1.0 - rng.uniform(0, cfg.squeeze_max) if rng.random() < 0.5 else 1.0
    along = np.array([math.cos(axis), math.sin(axis)])
    linear = np.eye(2) - (1.0 - squeeze) * np.outer(along, along)
    angle = rng.uniform(0, 2 * math.pi)
    turn = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    linear = turn @ linear
    if rng.random() < 0.5:
        linear = linear @ np.diag([-1.0, 1.0])
    shift = np.array([half, half]) - linear @ np.array([half, half])
    return np.hstack([linear, shift[:, None]])


def background_point(scene: Scene, size: float, rng: np.random.Generator, cfg: SampleConfig) -> np.ndarray:
    """A point not near a die (`near_a_die`, at `size`); often the most textured of a few such points,
    so the reader learns that coins, crumbs and pattern dots are not dice. When every spot tried lies
    near a die (a frame crowded with dice), the spot drawn first, wherever it lies."""
    if len(scene.negatives) and rng.random() < cfg.mined_negative_p:
        return scene.negatives[rng.integers(len(scene.negatives))] + rng.normal(0, 0.1 * size, 2)
    h, w = scene.image.shape[:2]
    tries = cfg.hard_negative_tries if rng.random() < cfg.hard_negative_p else 1
    best, best_texture = np.array([rng.uniform(0, w), rng.uniform(0, h)]), -1.0
    for _ in range(tries * 3):
        point = np.array([rng.uniform(0, w), rng.uniform(0, h)])
        if near_a_die(point, scene, size):
            continue
        half = max(2, int(size / 2))
        x, y = int(point[0]), int(point[1])
        patch = scene.image[max(0, y - half) : y + half, max(0, x - half) : x + half]
        texture = float(patch.std()) if patch.size else 0.0
        if texture > best_texture:
            best, best_texture = point, texture
        tries -= 1
        if tries <= 0:
            break
    return best


def source_weights(scenes: list[Scene], synth_share: float) -> np.ndarray:
    """Sampling weights: generated scenes (the target scene) get `synth_share` of each batch, the real sets
    share the rest equally, so a small real set of a new camera counts as much as a big one."""
    sources = [s.source for s in scenes]
    counts = {name: sources.count(name) for name in set(sources)}
    real = [name for name in counts if name != SYNTH_SOURCE]
    share = {name: (1.0 - synth_share) / len(real) for name in real}
    if SYNTH_SOURCE in counts:
        share[SYNTH_SOURCE] = synth_share if real else 1.0
    weights = np.array([share[name] / counts[name] for name in sources])
    return weights / weights.sum()


def pick(scenes: list[Scene], weights: np.ndarray | None, n: int, rng: np.random.Generator) -> list[Scene]:
    return [scenes[i] for i in rng.choice(len(scenes), size=n, p=weights)]


def locator_batch(
    scenes: list[Scene], n: int, rng: np.random.Generator, cfg: SampleConfig, aug: AugmentConfig,
    weights: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    chosen = pick(scenes, weights, n, rng)
    if cfg.paste.share > 0:  # drawn only when on: with none moved, a seed draws the batches it drew before
        donors = pick(scenes, weights, n, rng)
        chosen = [paste_dice(scene, donor, rng, cfg.paste) if rng.random() < cfg.paste.share else scene
                  for scene, donor in zip(chosen, donors)]
    items = [locator_sample(scene, rng, cfg, aug) for scene in chosen]
    images = np.stack([i[0] for i in items]).transpose(0, 3, 1, 2).astype(np.float32)
    return images, np.stack([i[1] for i in items]), np.stack([i[2] for i in items])


def reader_batch(
    scenes: list[Scene], n: int, rng: np.random.Generator, cfg: SampleConfig, aug: AugmentConfig,
    weights: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    items = [reader_sample(scene, rng, cfg, aug) for scene in pick(scenes, weights, n, rng)]
    crops = np.stack([i[0] for i in items]).transpose(0, 3, 1, 2).astype(np.float32)
    return (
        crops,
        np.array([i[1] for i in items], np.int64),
        np.stack([i[2] for i in items]),
        np.array([i[3] for i in items], np.float32),
    )
