"""Lights over the table: one or two lamps, warm or cool, and the ambient glow of the room."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

WARM = np.array([0.78, 0.93, 1.08])  # BGR gains of a tungsten lamp
NEUTRAL = np.array([1.0, 1.0, 1.0])
COOL = np.array([1.08, 1.0, 0.88])  # BGR gains of daylight LEDs and overcast windows


@dataclass(frozen=True)
class Lighting:
    directions: np.ndarray  # (k, 3) unit vectors towards each lamp
    colors: np.ndarray  # (k, 3) BGR intensity of each lamp
    ambient: np.ndarray  # (3,) BGR intensity of the room

    def diffuse(self, normals: np.ndarray, shadow: np.ndarray | None = None) -> np.ndarray:
        """(..., 3) normals -> (..., 3) BGR light; `shadow` (..., k) in 0..1 dims each lamp."""
        lam = np.clip(normals @ self.directions.T, 0.0, None)  # (..., k)
        if shadow is not None:
            lam = lam * shadow
        return self.ambient + lam @ self.colors

    def specular(self, normals: np.ndarray, to_eye: np.ndarray, shininess: float,
                 shadow: np.ndarray | None = None) -> np.ndarray:
        """Blinn-Phong glare: (..., 3) normals and unit vectors to the eye -> (..., 3) BGR."""
        half = self.directions[None] + to_eye.reshape(-1, 1, 3)  # (n, k, 3)
        half /= np.linalg.norm(half, axis=-1, keepdims=True)
        cos = np.clip(np.einsum("nkc,nc->nk", half, normals.reshape(-1, 3)), 0.0, 1.0)
        spec = cos**shininess
        if shadow is not None:
            spec = spec * shadow.reshape(-1, len(self.directions))
        return (spec @ self.colors).reshape(normals.shape)


def sample_lighting(rng: np.random.Generator) -> Lighting:
    n = 1 if rng.random() < 0.6 else 2
    tint = [WARM, NEUTRAL, COOL][int(rng.integers(3))]
    dirs, cols = [], []
    for i in range(n):
        az = rng.uniform(0, 2 * np.pi)
        el = np.radians(rng.uniform(40, 82))
        dirs.append([np.cos(el) * np.cos(az), np.cos(el) * np.sin(az), np.sin(el)])
        own = tint if i == 0 or rng.random() < 0.6 else [WARM, COOL][int(rng.integers(2))]
        cols.append(own * (rng.uniform(0.6, 0.85) if i == 0 else rng.uniform(0.2, 0.45)))
    ambient = tint * rng.uniform(0.28, 0.45)
    return Lighting(np.array(dirs), np.array(cols), ambient)
