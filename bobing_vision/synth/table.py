"""The table around the bowl: wood, red or patterned cloth, or a plain top, seen in perspective."""

from __future__ import annotations

import cv2
import numpy as np

from bobing_vision.synth.camera import Camera
from bobing_vision.synth.lighting import Lighting
from bobing_vision.synth.noise import smooth_noise

TABLE_KINDS = ("wood", "red_cloth", "pattern_cloth", "plain")
_TEX = 256  # texture side: the table matters less than the bowl; ~1 px/mm near it in a 640x480 view


def _wood(rng: np.random.Generator, size: int, mm: float) -> np.ndarray:
    """Planks of streaky grain: noise stretched along the planks, darker seams between them."""
    base = np.array([rng.uniform(40, 90), rng.uniform(70, 120), rng.uniform(110, 170)]) / 255
    across = max(8, int(size * mm / rng.uniform(2.0, 5.0)) // 4)  # grain streaks a few mm apart
    streaks = rng.standard_normal((across, 6)).astype(np.float32)
    grain = cv2.resize(streaks, (size, size), interpolation=cv2.INTER_CUBIC)
    grain = cv2.GaussianBlur(grain, (0, 0), 0.7)
    ys = np.arange(size, dtype=np.float32)[:, None]
    plank = rng.uniform(70, 160) / mm
    seams = (np.abs((ys % plank) - plank / 2) > plank / 2 - 1.0).astype(np.float32)  # planks run with the grain
    shade = (0.88 + 0.07 * grain + 0.08 * smooth_noise(rng, (size, size), 8)) * (1 - 0.45 * seams)
    tex = cv2.merge([shade * float(b) for b in base])
    if rng.random() < 0.5:
        tex = tex.transpose(1, 0, 2)
    return np.ascontiguousarray(tex, dtype=np.float32)


# BGR cloth colours seen on real tables: cream, beige, grey, navy, green felt, dark red, brown
CLOTH = ((0.78, 0.88, 0.92), (0.62, 0.74, 0.82), (0.55, 0.55, 0.55), (0.35, 0.2, 0.12), (0.25, 0.42, 0.2),
         (0.15, 0.15, 0.45), (0.2, 0.3, 0.4), (0.7, 0.7, 0.72))


def _cloth(rng: np.random.Generator, size: int, mm: float, patterned: bool) -> np.ndarray:
    if patterned:
        base = np.array(CLOTH[int(rng.integers(len(CLOTH)))]) * rng.uniform(0.85, 1.1)
    else:  # the red cloth of festive tables
        base = np.array([rng.uniform(0.08, 0.22), rng.uniform(0.07, 0.17), rng.uniform(0.45, 0.72)])
    tex: np.ndarray = np.empty((size, size, 3), np.float32)
    tex[:] = base
    if patterned:
        other = np.array(CLOTH[int(rng.integers(len(CLOTH)))])
        other = base + (other - base) * rng.uniform(0.3, 0.7)  # printed patterns are rarely full contrast
        step = max(4, int(rng.uniform(15, 50) / mm))
        kind = int(rng.integers(3))
        idx = np.arange(size) // step
        if kind == 0:  # gingham: the crossings of two sets of bands are darkest
            band = (idx % 2).astype(np.float32)
            weight = (band[:, None] + band[None, :]) / 2
            tex = tex * (1 - weight[..., None]) + other.astype(np.float32) * weight[..., None]
        elif kind == 1:
            for y in range(step // 2, size, step):
                for x in range(step // 2 + (y // step % 2) * step // 2, size, step):
                    cv2.circle(tex, (x, y), max(1, step // 5), other.tolist(), -1, cv2.LINE_AA)
        else:
            stripe = ((idx % 3) == 0).astype(np.float32)[:, None, None]
            tex = tex * (1 - stripe) + other.astype(np.float32) * stripe
    folds = 1 + 0.1 * smooth_noise(rng, (size, size), 4)
    weave = 1 + 0.04 * rng.standard_normal((size, size)).astype(np.float32)
    return np.ascontiguousarray(tex * (folds * weave)[..., None], dtype=np.float32)


def _plain(rng: np.random.Generator, size: int) -> np.ndarray:
    base = rng.uniform(0.25, 0.85) * np.array([1.0, 1.0, 1.0]) + rng.uniform(-0.08, 0.08, 3)
    tex = np.empty((size, size, 3), np.float32)
    tex[:] = np.clip(base, 0.05, 1)
    tex *= (1 + 0.05 * smooth_noise(rng, (size, size), 5))[..., None]
    return tex


def render_table(rng: np.random.Generator, camera: Camera, lighting: Lighting) -> tuple[np.ndarray, str]:
    """The lit table filling the frame (float32 BGR 0..1) and the kind of table it is."""
    kind = TABLE_KINDS[int(rng.integers(len(TABLE_KINDS)))]
    w, h = camera.width, camera.height
    corners = camera.to_plane(np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64), 0.0)[:, :2]
    centre = corners.mean(axis=0)
    half = float(min(np.abs(corners - centre).max(), 2000.0)) * 1.05
    mm = 2 * half / _TEX  # mm per texture pixel
    if kind == "wood":
        tex = _wood(rng, _TEX, mm)
    elif kind in ("red_cloth", "pattern_cloth"):
        tex = _cloth(rng, _TEX, mm, kind == "pattern_cloth")
    else:
        tex = _plain(rng, _TEX)
    # texture pixel -> world (x, y) -> image pixel
    tex_to_world = np.array([[mm, 0, centre[0] - half], [0, mm, centre[1] - half], [0, 0, 1.0]])
    hom = camera.plane_homography(0.0) @ tex_to_world
    # lamps light the table unevenly: compute it on a coarse grid of the texture and spread it
    g = 32
    gx, gy = np.meshgrid(np.linspace(centre[0] - half, centre[0] + half, g), np.linspace(centre[1] - half, centre[1] + half, g))
    pts = np.stack([gx.ravel(), gy.ravel(), np.zeros(g * g)], axis=1)
    light = lighting.diffuse(np.tile([0.0, 0.0, 1.0], (g * g, 1)), pts).reshape(g, g, 3).astype(np.float32)
    tex = cv2.multiply(tex, cv2.resize(light, (_TEX, _TEX), interpolation=cv2.INTER_LINEAR))
    img = cv2.warpPerspective(tex, hom, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    return img, kind
