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


def _cloth(rng: np.random.Generator, size: int, mm: float, patterned: bool) -> np.ndarray:
    if patterned:
        base = rng.uniform(0.2, 0.9, 3)
    else:
        base = np.array([rng.uniform(0.05, 0.2), rng.uniform(0.05, 0.15), rng.uniform(0.5, 0.8)])
    tex = np.empty((size, size, 3), np.float32)
    tex[:] = base
    folds = 1 + 0.12 * smooth_noise(rng, (size, size), 4)
    weave = 1 + 0.05 * rng.standard_normal((size, size)).astype(np.float32)
    tex *= (folds * weave)[..., None]
    if patterned:
        other = rng.uniform(0.1, 0.95, 3)
        step = max(4, int(rng.uniform(20, 60) / mm))
        kind = int(rng.integers(3))
        for y in range(0, size, step):
            for x in range(0, size, step):
                if kind == 0 and (x // step + y // step) % 2:
                    tex[y:y + step, x:x + step] = tex[y:y + step, x:x + step] * 0.35 + other * 0.65
                elif kind == 1:
                    cv2.circle(tex, (x + step // 2, y + step // 2), max(1, step // 4), other.tolist(), -1, cv2.LINE_AA)
                elif kind == 2 and x == 0:
                    tex[y:y + max(1, step // 3)] = tex[y:y + max(1, step // 3)] * 0.3 + other * 0.7
    return tex


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
