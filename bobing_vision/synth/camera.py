"""A pinhole webcam over the table: world millimetres (z up, table at z=0) to image pixels."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


@dataclass(frozen=True)
class Camera:
    width: int
    height: int
    focal: float  # pixels
    position: np.ndarray  # (3,) world mm
    rotation: np.ndarray  # (3, 3) rows: image right, image down, forward (world frame)

    @property
    def center(self) -> tuple[float, float]:
        return (self.width / 2.0, self.height / 2.0)

    def to_camera(self, points: np.ndarray) -> np.ndarray:
        return (np.asarray(points, dtype=np.float64) - self.position) @ self.rotation.T

    def project(self, points: np.ndarray) -> np.ndarray:
        """(..., 3) world points -> (..., 2) pixels."""
        pc = self.to_camera(points)
        z = np.maximum(pc[..., 2:3], 1e-6)
        cx, cy = self.center
        return pc[..., :2] / z * self.focal + np.array([cx, cy])

    def depth(self, points: np.ndarray) -> np.ndarray:
        return self.to_camera(points)[..., 2]

    def rays(self, pixels: np.ndarray) -> np.ndarray:
        """(..., 2) pixels -> (..., 3) unit world directions of their rays."""
        cx, cy = self.center
        d = np.stack(
            [(pixels[..., 0] - cx) / self.focal, (pixels[..., 1] - cy) / self.focal, np.ones(pixels.shape[:-1])],
            axis=-1,
        )
        d = d @ self.rotation
        return d / np.linalg.norm(d, axis=-1, keepdims=True)

    def to_plane(self, pixels: np.ndarray, z: float) -> np.ndarray:
        """Where the rays of (..., 2) pixels meet the horizontal plane at height z (world (..., 3))."""
        d = self.rays(pixels)
        t = (z - self.position[2]) / np.where(np.abs(d[..., 2]) < 1e-9, -1e-9, d[..., 2])
        return self.position + d * t[..., None]

    def plane_homography(self, z: float) -> np.ndarray:
        """3x3 homography from plane-z world (x, y, 1) to pixels."""
        k = np.array([[self.focal, 0, self.width / 2.0], [0, self.focal, self.height / 2.0], [0, 0, 1.0]])
        r = self.rotation
        t = -r @ self.position
        h = k @ np.column_stack([r[:, 0], r[:, 1], r[:, 2] * z + t])
        return h / h[2, 2]


def look_at(width: int, height: int, focal: float, target: np.ndarray, distance: float, tilt_deg: float,
            azimuth_deg: float, roll_deg: float) -> Camera:
    """A camera `distance` mm from `target`, tilted `tilt_deg` off vertical, image-up along `azimuth_deg`."""
    az = np.radians(azimuth_deg)
    up_h = np.array([np.cos(az), np.sin(az), 0.0])  # horizontal direction that appears as image-up
    tilt = np.radians(tilt_deg)
    position = target + distance * (-np.sin(tilt) * up_h + np.array([0.0, 0.0, np.cos(tilt)]))
    forward = _unit(target - position)
    right = _unit(np.cross(forward, up_h))
    down = np.cross(forward, right)
    roll = np.radians(roll_deg)
    right, down = np.cos(roll) * right + np.sin(roll) * down, -np.sin(roll) * right + np.cos(roll) * down
    return Camera(width, height, focal, position, np.stack([right, down, forward]))
