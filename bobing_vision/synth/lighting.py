"""Lights over the table: one or two lamps, warm or cool, and the ambient glow of the room."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

WARM = np.array([0.86, 0.96, 1.05])  # BGR gains of a tungsten lamp, after the webcam's auto white balance
NEUTRAL = np.array([1.0, 1.0, 1.0])
COOL = np.array([1.06, 1.0, 0.92])  # BGR gains of daylight LEDs and overcast windows


@dataclass(frozen=True)
class Lighting:
    positions: np.ndarray  # (k, 3) world mm of each lamp: near lamps make small, moving glare spots
    colors: np.ndarray  # (k, 3) BGR intensity of each lamp
    ambient: np.ndarray  # (3,) BGR intensity of the room

    @property
    def directions(self) -> np.ndarray:
        """(k, 3) unit vectors from the middle of the bowl towards each lamp."""
        return self.positions / np.linalg.norm(self.positions, axis=1, keepdims=True)

    @property
    def main(self) -> np.ndarray:
        """Direction to the strongest lamp, the one whose shadows show."""
        return self.directions[int(np.argmax(self.colors.sum(axis=1)))]

    @property
    def contrast(self) -> float:
        """How dark a full shadow is, 0..1."""
        return float(self.colors.max() / (self.colors.max() + self.ambient.max()))

    def towards(self, points: np.ndarray) -> np.ndarray:
        """(n, 3) points -> (n, k, 3) unit vectors to each lamp."""
        d = self.positions[None] - points.reshape(-1, 1, 3)
        return d / np.sqrt((d * d).sum(axis=-1, keepdims=True))

    def diffuse(self, normals: np.ndarray, points: np.ndarray, shadow: np.ndarray | None = None) -> np.ndarray:
        """(n, 3) normals at (n, 3) points -> (n, 3) BGR light; `shadow` (n, k) in 0..1 dims each lamp."""
        lam = np.clip(np.einsum("nkc,nc->nk", self.towards(points), normals), 0.0, None)
        if shadow is not None:
            lam = lam * shadow
        return self.ambient + lam @ self.colors

    def specular(self, normals: np.ndarray, points: np.ndarray, eye: np.ndarray, shininess: float,
                 shadow: np.ndarray | None = None) -> np.ndarray:
        """Blinn-Phong glare at (n, 3) points seen from world point `eye` -> (n, 3) BGR."""
        to_eye = eye[None] - points
        to_eye /= np.sqrt((to_eye * to_eye).sum(axis=1, keepdims=True))
        half = self.towards(points) + to_eye[:, None, :]
        half /= np.sqrt((half * half).sum(axis=-1, keepdims=True))
        cos = np.clip(np.einsum("nkc,nc->nk", half, normals), 0.0, 1.0)
        spec = cos**shininess
        if shadow is not None:
            spec = spec * shadow
        return spec @ self.colors


def sample_lighting(rng: np.random.Generator, scale_mm: float) -> Lighting:
    """Lamps 3 to 10 bowl radii (`scale_mm`) away, 40 to 82 degrees up."""
    n = 1 if rng.random() < 0.6 else 2
    tint = [WARM, NEUTRAL, COOL][int(rng.integers(3))]
    pos, cols = [], []
    for i in range(n):
        az = rng.uniform(0, 2 * np.pi)
        el = np.radians(rng.uniform(40, 82))
        dist = scale_mm * rng.uniform(3, 10)
        pos.append(dist * np.array([np.cos(el) * np.cos(az), np.cos(el) * np.sin(az), np.sin(el)]))
        own = tint if i == 0 or rng.random() < 0.6 else [WARM, COOL][int(rng.integers(2))]
        cols.append(own * (rng.uniform(0.6, 0.85) if i == 0 else rng.uniform(0.2, 0.45)))
    ambient = tint * rng.uniform(0.28, 0.45)
    return Lighting(np.array(pos), np.array(cols), ambient)
