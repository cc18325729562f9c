"""Where the dice come to rest: spread or clustered on the floor, against the wall, leaning, stacked,
or thrown out onto the table."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from bobing_vision.die_faces import PIP_LAYOUT
from bobing_vision.errors import BobingError
from bobing_vision.synth.bowl import BowlShape
from bobing_vision.synth.camera import Camera
from bobing_vision.synth.config import CONFIG, SceneSpec
from bobing_vision.synth.dice import DiePose, DieStyle, die_silhouette, face_points, fill_ids
from bobing_vision.synth.geometry import (
    FACE_AXES, axis_angle, face_up_rotation, polygons_overlap, random_horizontal, rotation_between,
)

UP = np.array([0.0, 0.0, 1.0])


@dataclass(frozen=True)
class Placed:
    pose: DiePose
    style: DieStyle
    rests_on: int | None = None  # index of the die this one leans on


def tilt_deg(rotation: np.ndarray, face: int) -> float:
    """How far `face`'s normal leans from straight up, in degrees."""
    n = rotation @ FACE_AXES[face][0]
    return float(np.degrees(np.arccos(np.clip(n[2], -1, 1))))


def _make_pose(centre: np.ndarray, rotation: np.ndarray, size: float, in_bowl: bool, cocked_deg: float) -> DiePose:
    probe = DiePose(centre, rotation, size, in_bowl, False)
    return DiePose(centre, rotation, size, in_bowl, tilt_deg(rotation, probe.top) > cocked_deg)


def _resting_rotation(rng: np.random.Generator, normal: np.ndarray) -> np.ndarray:
    """A random face up, a random turn, lying on a surface with the given normal, with a little jitter."""
    face = int(rng.integers(1, 7))
    yaw = axis_angle(UP, rng.uniform(0, 2 * np.pi))
    jitter = axis_angle(random_horizontal(rng), np.radians(rng.uniform(0, CONFIG.flat_jitter_deg)))
    return jitter @ rotation_between(UP, normal) @ yaw @ face_up_rotation(face)


def footprint_xy(pose: DiePose, style: DieStyle) -> np.ndarray:
    pts = pose.footprint(style.corner)[:, :2].astype(np.float32)
    return cv2.convexHull(pts).reshape(-1, 2).astype(np.float64)


def _in_frame(camera: Camera, pose: DiePose, style: DieStyle, margin: float) -> bool:
    px = camera.project(pose.footprint(style.corner))
    return bool((px.min(axis=0) >= margin).all() and px[:, 0].max() <= camera.width - margin
                and px[:, 1].max() <= camera.height - margin)


def _floor_pose(rng: np.random.Generator, shape: BowlShape, xy: np.ndarray, size: float, lean: bool,
                cocked_deg: float) -> DiePose:
    r = float(np.linalg.norm(xy))
    normal = shape.inner_normal(xy[None])[0]  # on the wall a die tilts with it
    rot = _resting_rotation(rng, normal)
    base = np.array([xy[0], xy[1], float(shape.inner_z(np.array(r)))])
    centre = base + normal * size / 2
    if lean:
        tau = np.radians(rng.uniform(*CONFIG.lean_deg))
        rot = axis_angle(random_horizontal(rng), tau) @ rot
        centre = centre + UP * (size / 2) * (np.cos(tau) + np.sin(tau) - 1)  # resting on an edge
    return _make_pose(centre, rot, size, True, cocked_deg)


def _stacked_pose(rng: np.random.Generator, below: DiePose, size: float, cocked_deg: float) -> DiePose:
    """A die resting partly on `below`: one edge on the floor, leaning onto the lower die's top edge."""
    direction = random_horizontal(rng)
    tau = np.radians(rng.uniform(24, 40))
    rot = _resting_rotation(rng, UP)
    rot = axis_angle(np.cross(UP, direction), tau) @ rot  # raise the side facing `below`
    centre = below.center + direction * size * rng.uniform(0.78, 0.95)
    centre = centre + UP * size * rng.uniform(0.25, 0.4)
    return _make_pose(centre, rot, size, True, cocked_deg)


def _pips_visible(camera: Camera, placed: list[Placed]) -> bool:
    """Whether every top-face pip of every die is seen, the dice drawn far to near."""
    ids = np.zeros((camera.height, camera.width), np.uint8)
    order = sorted(range(len(placed)), key=lambda i: -float(camera.depth(placed[i].pose.center)))
    for i in order:
        fill_ids(ids, die_silhouette(camera, placed[i].pose, placed[i].style), i + 1)
    for i, p in enumerate(placed):
        top = p.pose.top
        pts = camera.project(face_points(p.pose, top, np.array(PIP_LAYOUT[top] + ((0.0, 0.0),))))
        xy = np.clip(np.round(pts).astype(int), 0, [camera.width - 1, camera.height - 1])
        if not (ids[xy[:, 1], xy[:, 0]] == i + 1).all():
            return False
    return True


def place_dice(rng: np.random.Generator, spec: SceneSpec, camera: Camera, shape: BowlShape,
               styles: list[DieStyle], size: float, silhouette: np.ndarray) -> list[Placed]:
    """Settle len(styles) dice: most in the bowl, sometimes one or two on the table."""
    n = len(styles)
    n_out = 0
    if rng.random() < spec.out_of_bowl_p:
        n_out = min(n, 1 if rng.random() < 0.7 else 2)
    mode = ("spread", "cluster", "wall", "cluster2")[int(rng.choice(4, p=[0.35, 0.3, 0.15, 0.2]))]
    leaning = rng.random() < spec.cocked_p
    stacking = rng.random() < spec.stacked_p
    reach = shape.floor_r + (shape.rim - shape.floor_r) * 0.06  # dice roll down to the flat floor
    centres = [rng.uniform(-0.5, 0.5, 2) * shape.floor_r for _ in range(2)]
    placed: list[Placed] = []
    for attempt in range(60):
        placed = []
        feet: list[np.ndarray] = []
        for k, style in enumerate(styles[: n - n_out]):
            pose = None
            for _ in range(40):
                lean = leaning and k == 0
                if stacking and k == 1 and placed:
                    cand = _stacked_pose(rng, placed[0].pose, size, spec.cocked_deg)
                    rests = 0
                else:
                    rests = None
                    if mode == "spread":
                        rad, ang = reach * np.sqrt(rng.uniform(0, 0.85)), rng.uniform(0, 2 * np.pi)
                        xy = rad * np.array([np.cos(ang), np.sin(ang)])
                    elif mode == "wall" and k < 2:
                        rad = shape.floor_r + (shape.rim - shape.floor_r) * rng.uniform(0.0, 0.25)
                        ang = rng.uniform(0, 2 * np.pi)
                        xy = rad * np.array([np.cos(ang), np.sin(ang)])
                    else:
                        c = centres[k % 2] if mode == "cluster2" else centres[0]
                        xy = c + rng.normal(0, size * 1.1, 2)
                    if np.linalg.norm(xy) > reach and not (mode == "wall" and k < 2):
                        continue
                    # two lying dice whose centres are closer than a side would overlap: skip the work
                    if any(np.hypot(*(xy - p.pose.center[:2])) < 0.98 * size for p in placed):
                        continue
                    cand = _floor_pose(rng, shape, xy, size, lean, spec.cocked_deg)
                pts = cand.footprint(style.corner)
                if not shape.in_opening(camera, pts, margin=1.0).all() or not _in_frame(camera, cand, style, 2):
                    continue
                foot = footprint_xy(cand, style)
                if any(polygons_overlap(foot, f, 0.2) for i, f in enumerate(feet) if i != rests):
                    continue
                pose = cand
                break
            if pose is None:
                break
            placed.append(Placed(pose, style, rests))
            feet.append(foot)
        if len(placed) == n - n_out and _pips_visible(camera, placed):
            break
        if attempt > 20:
            stacking = leaning = False
            mode = "spread"
    else:
        raise BobingError("could not settle the dice in the bowl")  # the floor always has room for them
    placed += _place_on_table(rng, camera, shape, styles[n - n_out:], size, silhouette, placed, spec.cocked_deg)
    return placed


def _place_on_table(rng: np.random.Generator, camera: Camera, shape: BowlShape, styles: list[DieStyle],
                    size: float, silhouette: np.ndarray, inside: list[Placed], cocked_deg: float) -> list[Placed]:
    """Dice that jumped out: on the table, in view, clear of the bowl; failing that, back in the bowl."""
    out: list[Placed] = []
    grown = cv2.dilate(silhouette, np.ones((5, 5), np.uint8))
    for style in styles:
        for _ in range(60):
            px = np.array([rng.uniform(0.05, 0.95) * camera.width, rng.uniform(0.05, 0.95) * camera.height])
            xy = camera.to_plane(px[None], 0.0)[0, :2]
            if np.linalg.norm(xy) < shape.outer_rim + size:
                continue
            rot = _resting_rotation(rng, UP)
            pose = _make_pose(np.array([xy[0], xy[1], size / 2]), rot, size, False, cocked_deg)
            if not _in_frame(camera, pose, style, 3):
                continue
            hull = np.round(die_silhouette(camera, pose, style)).astype(np.int32)
            probe = np.zeros_like(grown)
            cv2.fillPoly(probe, [hull], 255)
            if np.logical_and(probe > 0, grown > 0).any():
                continue
            foot = footprint_xy(pose, style)
            if any(polygons_overlap(foot, footprint_xy(p.pose, p.style), 0.5) for p in out):
                continue
            out.append(Placed(pose, style))
            break
        else:
            # no room on the table in this view: the die stays in the bowl
            for _ in range(200):
                xy = rng.uniform(-1, 1, 2) * shape.floor_r
                pose = _floor_pose(rng, shape, xy, size, False, cocked_deg)
                foot = footprint_xy(pose, style)
                if shape.in_opening(camera, pose.footprint(style.corner), 1.0).all() and not any(
                        polygons_overlap(foot, footprint_xy(p.pose, p.style), 0.2) for p in inside + out):
                    out.append(Placed(pose, style))
                    break
    return out
