"""Rotations and the cube: the small bits of 3-D maths the dice need."""

from __future__ import annotations

import numpy as np


def axis_angle(axis: np.ndarray, angle: float) -> np.ndarray:
    """Rotation matrix turning by `angle` radians about `axis` (Rodrigues)."""
    a = np.asarray(axis, dtype=np.float64)
    a = a / np.linalg.norm(a)
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * (k @ k)


def rotation_between(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The shortest rotation taking unit vector a to unit vector b."""
    a = a / np.linalg.norm(a)
    b = b / np.linalg.norm(b)
    axis = np.cross(a, b)
    s = np.linalg.norm(axis)
    c = float(np.dot(a, b))
    if s < 1e-9:
        if c > 0:
            return np.eye(3)
        perp = np.array([1.0, 0, 0]) if abs(a[0]) < 0.9 else np.array([0, 1.0, 0])
        return axis_angle(np.cross(a, perp), np.pi)
    return axis_angle(axis, np.arctan2(s, c))


def random_rotation(rng: np.random.Generator) -> np.ndarray:
    """A uniformly random rotation (from a random unit quaternion)."""
    q = rng.standard_normal(4)
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])


def random_horizontal(rng: np.random.Generator) -> np.ndarray:
    a = rng.uniform(0, 2 * np.pi)
    return np.array([np.cos(a), np.sin(a), 0.0])


# The six faces of a die in its own frame: outward normal, and two in-face axes (u, v) with u x v = normal.
# Opposite faces sum to 7: +z 1 / -z 6, +x 2 / -x 5, +y 3 / -y 4.
FACE_AXES: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {
    1: (np.array([0, 0, 1.0]), np.array([1.0, 0, 0]), np.array([0, 1.0, 0])),
    6: (np.array([0, 0, -1.0]), np.array([0, 1.0, 0]), np.array([1.0, 0, 0])),
    2: (np.array([1.0, 0, 0]), np.array([0, 1.0, 0]), np.array([0, 0, 1.0])),
    5: (np.array([-1.0, 0, 0]), np.array([0, 0, 1.0]), np.array([0, 1.0, 0])),
    3: (np.array([0, 1.0, 0]), np.array([0, 0, 1.0]), np.array([1.0, 0, 0])),
    4: (np.array([0, -1.0, 0]), np.array([1.0, 0, 0]), np.array([0, 0, 1.0])),
}


def top_face(rotation: np.ndarray) -> int:
    """The face whose normal points most nearly up once the die is turned by `rotation`."""
    return max(FACE_AXES, key=lambda f: float((rotation @ FACE_AXES[f][0])[2]))


def face_up_rotation(face: int) -> np.ndarray:
    """A rotation that puts `face` on top."""
    return rotation_between(FACE_AXES[face][0], np.array([0, 0, 1.0]))


def polygons_overlap(a: np.ndarray, b: np.ndarray, gap: float = 0.0) -> bool:
    """Separating-axis test for two convex polygons, each (n, 2); `gap` is the clearance demanded."""
    ca, cb = a.mean(axis=0), b.mean(axis=0)
    ra = np.sqrt(((a - ca) ** 2).sum(axis=1).max())
    rb = np.sqrt(((b - cb) ** 2).sum(axis=1).max())
    if np.sqrt(((ca - cb) ** 2).sum()) > ra + rb + gap:  # far apart: no need for the axes
        return False
    for poly in (a, b):
        edges = np.roll(poly, -1, axis=0) - poly
        normals = np.stack([-edges[:, 1], edges[:, 0]], axis=1)
        norms = np.linalg.norm(normals, axis=1)
        normals = normals[norms > 1e-12] / norms[norms > 1e-12, None]
        pa = a @ normals.T
        pb = b @ normals.T
        sep = (pa.min(axis=0) - pb.max(axis=0) >= gap) | (pb.min(axis=0) - pa.max(axis=0) >= gap)
        if sep.any():
            return False
    return True
