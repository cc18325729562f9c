"""Bowls of dice drawn by a second, independent renderer: a labelled set no model was trained on.

    python bench/raytraced_bowls.py OUT [--count 100] [--seed 1]
    bobing eval OUT

`bobing synth` (the generator the models learn from) paints each die as projected polygons over a bowl
shaded on a coarse grid. The product is also measured on renders that are not its own, so this script
draws throws another way, per pixel: a ray from a pinhole camera to each sample (two by two per pixel),
a bowl of two spheres cut by a rim and a flat floor, dice as rounded-box distance fields resting on the
floor (where a small floor is full, a little up the wall, tilted with it) or on the table outside, pips
as dimples (their own normals), soft shadows from an area lamp, glaze highlights and blue-and-white (or
red) painting. Nothing is shared with `bobing_vision.synth`: a reader tuned to that renderer's habits
shows it here. The labels (DATA.md) give each die's top face, box, pips and in/out of the bowl, and the
rim (the middle of the lip). About 5 s a throw at 640x480 on one core.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from bobing_vision.dataset.labels import DieLabel, ImageLabel, PipLabel, save_labels

SUPERSAMPLE = 2  # rays per pixel side: edges and small pips anti-aliased
SIZES = ((640, 480), (640, 480), (640, 480), (800, 600), (960, 540))
# A die's local faces as (axis, sign): +z 1, +y 2, +x 3, -x 4, -y 5, -z 6 (opposite faces sum to 7).
FACE_AXES = {1: (2, 1), 2: (1, 1), 3: (0, 1), 4: (0, -1), 5: (1, -1), 6: (2, -1)}
PIP_LAYOUTS = {  # pip centres on a face, in half sides from its middle
    1: ((0, 0),), 2: ((-0.5, -0.5), (0.5, 0.5)), 3: ((-0.5, -0.5), (0, 0), (0.5, 0.5)),
    4: ((-0.5, -0.5), (-0.5, 0.5), (0.5, -0.5), (0.5, 0.5)),
    5: ((-0.5, -0.5), (-0.5, 0.5), (0, 0), (0.5, -0.5), (0.5, 0.5)),
    6: ((-0.5, -0.5), (-0.5, 0), (-0.5, 0.5), (0.5, -0.5), (0.5, 0), (0.5, 0.5)),
}
TABLE, OUTER, LIP, INNER, FLOOR, FIRST_DIE = range(6)  # what a ray hit; die i is FIRST_DIE + i
MAX_REST_SLOPE_DEG = 18.0


def unit(v: np.ndarray) -> np.ndarray:
    return v / np.maximum(np.linalg.norm(v, axis=-1, keepdims=True), 1e-12)


def rotation_to(n: np.ndarray) -> np.ndarray:
    """The rotation taking +z to the unit vector n (Rodrigues)."""
    z = np.array([0.0, 0.0, 1.0])
    axis, c = np.cross(z, n), float(np.dot(z, n))
    s = float(np.linalg.norm(axis))
    if s < 1e-9:
        return np.eye(3) if c > 0 else np.diag([1.0, -1.0, -1.0])
    k = axis / s
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + s * kx + (1 - c) * kx @ kx


def face_normal(face: int) -> np.ndarray:
    axis, sign = FACE_AXES[face]
    return np.eye(3)[axis] * sign


def face_up(face: int) -> np.ndarray:
    """The rotation that turns a die's local `face` to +z."""
    return rotation_to(face_normal(face)).T


def across(face: int) -> list[int]:
    """The local axes a face's plane spans, in a fixed order (its pips' u and v)."""
    return [i for i in range(3) if i != FACE_AXES[face][0]]


@dataclass(frozen=True)
class Bowl:
    """Two concentric spheres (inside, outside) cut at the rim's height, with a flat floor inside."""

    rim: float  # inner radius at the rim, mm
    height: float  # rim above the table
    floor_z: float
    centre_z: float  # the spheres' centre
    radius: float  # the inner sphere's
    wall: float  # thickness

    @property
    def outer_rim(self) -> float:
        return float(np.sqrt((self.radius + self.wall) ** 2 - (self.centre_z - self.height) ** 2))

    @property
    def floor_r(self) -> float:
        return float(np.sqrt(self.radius ** 2 - (self.centre_z - self.floor_z) ** 2))

    @property
    def resting_radius(self) -> float:
        """How far out a die stays put: glazed porcelain holds a die on a slope of up to ~18 degrees."""
        return max(self.floor_r, self.radius * float(np.sin(np.radians(MAX_REST_SLOPE_DEG))))

    def surface(self, r: float) -> tuple[float, np.ndarray]:
        """The inside's height at radius r (along +x) and its upward normal there."""
        if r <= self.floor_r:
            return self.floor_z, np.array([0.0, 0.0, 1.0])
        z = self.centre_z - float(np.sqrt(self.radius ** 2 - r ** 2))
        return z, unit(np.array([-r, 0.0, self.centre_z - z]))


def sample_bowl(rng: np.random.Generator) -> Bowl:
    rim = rng.uniform(85, 150)
    drop = rim * rng.uniform(0.5, 0.85)  # rim to the spheres' lowest point
    radius = (rim ** 2 + drop ** 2) / (2 * drop)
    depth = min(drop - 0.06 * rim, rim * rng.uniform(0.3, 0.45))  # rim to the floor
    floor_z = rng.uniform(9, 16)
    height = floor_z + depth
    return Bowl(rim, height, floor_z, height - drop + radius, radius, rng.uniform(3.5, 6.0))


@dataclass(frozen=True)
class DiceLook:
    """One set's colours (linear BGR) and pip sizes (in half sides)."""

    kind: str  # "chinese" or "ordinary"
    body: np.ndarray
    pips: np.ndarray  # the black pips of Chinese dice, every pip of ordinary ones
    red: np.ndarray | None  # a Chinese 1's and 4's pips
    pip_radius: float
    one_radius: float  # a Chinese 1's pip is large


@dataclass(frozen=True)
class Die:
    centre: np.ndarray  # world mm
    rotation: np.ndarray  # local -> world
    half: float  # half side
    rounding: float  # corner radius
    look: DiceLook
    in_bowl: bool

    @property
    def top(self) -> int:
        ups = {face: float((self.rotation @ face_normal(face))[2]) for face in FACE_AXES}
        return max(ups, key=ups.__getitem__)

    def on_face(self, face: int, u: float, v: float) -> np.ndarray:
        """The world point (u, v) half sides from the middle of `face`, on its plane."""
        local = face_normal(face) * self.half
        local[across(face)] = (u * self.half, v * self.half)
        return self.centre + self.rotation @ local

    def red_pips(self, face: int) -> bool:
        return self.look.red is not None and face in (1, 4)


def srgb(bgr: tuple[float, float, float]) -> np.ndarray:
    """An 8-bit BGR colour in linear light."""
    return (np.array(bgr, float) / 255) ** 2.2


def sample_dice_look(rng: np.random.Generator) -> DiceLook:
    """A set of dice: Chinese in three sets of five, otherwise one of six classic ordinary sets."""
    if rng.random() < 0.6:  # Chinese dice: white or ivory, red 1 and 4, black others, a big 1
        ivory = rng.uniform(0, 1)
        return DiceLook("chinese", body=srgb((230 - 50 * ivory, 238 - 22 * ivory, 242 - 6 * ivory)),
                        pips=srgb((rng.uniform(15, 40),) * 3),
                        red=srgb((rng.uniform(20, 60), rng.uniform(20, 50), rng.uniform(160, 215))),
                        pip_radius=rng.uniform(0.15, 0.19), one_radius=rng.uniform(0.3, 0.42))
    body, pips = [((235, 235, 235), (25, 25, 25)), ((40, 40, 185), (240, 240, 240)), ((25, 25, 25), (235, 235, 235)),
                  ((150, 80, 30), (240, 240, 240)), ((60, 140, 50), (240, 240, 240)),
                  ((40, 180, 220), (20, 20, 20))][int(rng.integers(6))]
    jitter = rng.uniform(-12, 12, 3)
    return DiceLook("ordinary", body=srgb(tuple(np.clip(np.array(body) + jitter, 0, 255))), pips=srgb(pips),
                    red=None, pip_radius=rng.uniform(0.15, 0.2), one_radius=rng.uniform(0.18, 0.3))


def place_dice(rng: np.random.Generator, bowl: Bowl, look: DiceLook, out_of_bowl: bool) -> list[Die]:
    """Six dice apart from each other on the bowl's floor (or, where it is full, a little up the wall);
    with `out_of_bowl`, the first on the table outside."""
    side = rng.uniform(13, 19)
    half = side / 2
    dice: list[Die] = []
    spots: list[np.ndarray] = []
    reach = bowl.resting_radius - half
    tries = 0
    while len(dice) < 6:
        tries += 1
        if tries % 100 == 0:  # a small floor full: the next die rests a little up the wall
            reach = min(reach * 1.05, 0.85 * bowl.rim)
        outside = out_of_bowl and not dice  # the first die, when one jumped out, lies on the table
        if outside:
            r = bowl.outer_rim + rng.uniform(1.2, 3.5) * side
        else:
            r = reach * np.sqrt(rng.uniform(0, 1))
        phi = rng.uniform(0, 2 * np.pi)
        xy = r * np.array([np.cos(phi), np.sin(phi)])
        if any(np.linalg.norm(xy - s) < 1.55 * side for s in spots):
            continue
        if outside:
            z, normal = 0.0, np.array([0.0, 0.0, 1.0])
        else:
            z, normal_x = bowl.surface(float(r))
            normal = np.array([normal_x[0] * np.cos(phi), normal_x[0] * np.sin(phi), normal_x[2]])
        yaw = rng.uniform(0, 2 * np.pi)
        spin = np.array([[np.cos(yaw), -np.sin(yaw), 0], [np.sin(yaw), np.cos(yaw), 0], [0, 0, 1]])
        face = int(rng.integers(1, 7))
        rotation = rotation_to(normal) @ spin @ face_up(face)
        centre = np.array([xy[0], xy[1], z]) + normal * half
        dice.append(Die(centre, rotation, half, half * rng.uniform(0.18, 0.3), look, not outside))
        spots.append(xy)
    return dice


@dataclass(frozen=True)
class Camera:
    position: np.ndarray
    right: np.ndarray
    down: np.ndarray
    forward: np.ndarray
    focal: float  # px
    size: tuple[int, int]

    def project(self, points: np.ndarray) -> np.ndarray:
        rel = points - self.position
        z = rel @ self.forward
        w, h = self.size
        return np.stack([self.focal * (rel @ self.right) / z + w / 2, self.focal * (rel @ self.down) / z + h / 2], -1)

    def rays(self, scale: int) -> np.ndarray:
        w, h = self.size
        u = (np.arange(w * scale) + 0.5) / scale
        v = (np.arange(h * scale) + 0.5) / scale
        uu, vv = np.meshgrid(u - w / 2, v - h / 2)
        d = self.forward * self.focal + uu[..., None] * self.right + vv[..., None] * self.down
        return unit(d.reshape(-1, 3))


def sample_camera(rng: np.random.Generator, bowl: Bowl, size: tuple[int, int], roomy: bool) -> Camera:
    tilt, azimuth = np.radians(rng.uniform(0, 25)), rng.uniform(0, 2 * np.pi)
    fill = rng.uniform(0.55, 0.75) if roomy else rng.uniform(0.6, 0.92)  # the bowl's share of the frame height
    focal = size[0] * rng.uniform(0.8, 1.3)
    distance = focal * 2 * bowl.outer_rim / (fill * size[1]) + bowl.height * 0.5
    target = np.array([*rng.uniform(-0.08, 0.08, 2) * bowl.rim, bowl.floor_z])
    back = np.array([np.sin(tilt) * np.cos(azimuth), np.sin(tilt) * np.sin(azimuth), np.cos(tilt)])
    position = target + distance * back
    forward = unit(target - position)
    roll = rng.uniform(0, 2 * np.pi)
    level = np.array([np.cos(roll), np.sin(roll), 0.0])
    right = unit(np.cross(forward, level))
    return Camera(position, right, np.cross(forward, right), forward, focal, size)


def sphere_hits(origin: np.ndarray, dirs: np.ndarray, centre: np.ndarray,
                radius: float) -> tuple[np.ndarray, np.ndarray]:
    """Near and far distances along each ray to a sphere (nan where it misses)."""
    oc = origin - centre
    b = dirs @ oc if oc.ndim == 1 else np.einsum("ij,ij->i", dirs, oc)
    c = (oc * oc).sum(-1) - radius ** 2
    disc = b * b - c
    root = np.sqrt(np.where(disc >= 0, disc, np.nan))
    return -b - root, -b + root


def die_sdf(die: Die, points: np.ndarray) -> np.ndarray:
    q = (points - die.centre) @ die.rotation  # world -> local
    core = die.half - die.rounding
    d = np.abs(q) - core
    return np.linalg.norm(np.maximum(d, 0), axis=-1) + np.minimum(d.max(-1), 0) - die.rounding


def trace_die(die: Die, origins: np.ndarray, dirs: np.ndarray, steps: int = 48) -> np.ndarray:
    """Distance along each ray to the die's surface (inf where it misses)."""
    origins = np.broadcast_to(origins, dirs.shape)
    near, far = sphere_hits(origins, dirs, die.centre, die.half * np.sqrt(3) * 1.01)
    out = np.full(len(dirs), np.inf)
    idx = np.nonzero(np.isfinite(near) & (far > 1e-6))[0]
    if not len(idx):
        return out
    t = np.maximum(near[idx], 0.0)
    o, d = origins[idx], dirs[idx]
    hit = np.zeros(len(idx), bool)
    for _ in range(steps):
        dist = die_sdf(die, o + d * t[:, None])
        hit |= dist < 2e-3 * die.half
        t = np.where(hit, t, t + dist)
    hit &= t <= far[idx]
    out[idx[hit]] = t[hit]
    return out


def bowl_hits(bowl: Bowl, origin: np.ndarray, dirs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The nearest bowl or table hit along each camera ray: distance and kind."""
    centre = np.array([0.0, 0.0, bowl.centre_z])
    dz = np.minimum(dirs[:, 2], -1e-9)
    candidates = np.full((len(dirs), FIRST_DIE), np.inf)
    candidates[:, TABLE] = -origin[2] / dz
    near_out, _ = sphere_hits(origin, dirs, centre, bowl.radius + bowl.wall)
    z_out = origin[2] + near_out * dirs[:, 2]
    candidates[:, OUTER] = np.where((z_out >= 0) & (z_out < bowl.height), near_out, np.inf)
    t_rim = (bowl.height - origin[2]) / dz
    r_rim = np.hypot(origin[0] + t_rim * dirs[:, 0], origin[1] + t_rim * dirs[:, 1])
    candidates[:, LIP] = np.where((r_rim >= bowl.rim) & (r_rim <= bowl.outer_rim), t_rim, np.inf)
    through = r_rim < bowl.rim  # into the bowl through its opening
    _, far_in = sphere_hits(origin, dirs, centre, bowl.radius)
    z_in = origin[2] + far_in * dirs[:, 2]
    candidates[:, INNER] = np.where(through & (z_in >= bowl.floor_z), far_in, np.inf)
    candidates[:, FLOOR] = np.where(through & ~(z_in >= bowl.floor_z), (bowl.floor_z - origin[2]) / dz, np.inf)
    kind = candidates.argmin(1)
    return candidates[np.arange(len(dirs)), kind], kind


def bowl_normals(bowl: Bowl, points: np.ndarray, kind: np.ndarray) -> np.ndarray:
    centre = np.array([0.0, 0.0, bowl.centre_z])
    n = np.zeros_like(points)
    n[:, 2] = 1.0
    inner, outer, lip = kind == INNER, kind == OUTER, kind == LIP
    n[inner] = unit(centre - points[inner])
    n[outer] = unit(points[outer] - centre)
    r = np.hypot(points[lip, 0], points[lip, 1])
    way = np.clip((r - bowl.rim) / (bowl.outer_rim - bowl.rim), 0, 1) - 0.5  # across a rounded lip
    radial = points[lip, :2] / np.maximum(r, 1e-9)[:, None]
    n[lip] = unit(np.concatenate([radial * np.sin(np.pi * way)[:, None] * 0.9, np.cos(np.pi * way)[:, None]], 1))
    return n


def shadowed_by_bowl(bowl: Bowl, points: np.ndarray, to_lamp: np.ndarray, inside: np.ndarray) -> np.ndarray:
    """Whether the bowl's wall stands between each point and the lamp. A point inside the bowl sees the
    lamp only through the opening (the inner sphere is convex); a point outside, past the outer sphere."""
    centre = np.array([0.0, 0.0, bowl.centre_z])
    dz = np.maximum(to_lamp[:, 2], 1e-9)
    t_rim = (bowl.height - points[:, 2]) / dz
    at_rim = points[:, :2] + t_rim[:, None] * to_lamp[:, :2]
    blocked_inside = (np.hypot(at_rim[:, 0], at_rim[:, 1]) > bowl.rim) & (t_rim > 0)
    near, _ = sphere_hits(points + to_lamp * 1e-3, to_lamp, centre, bowl.radius + bowl.wall)
    z = points[:, 2] + near * to_lamp[:, 2]
    blocked_outside = (near > 0) & (z >= 0) & (z < bowl.height)
    return np.where(inside, blocked_inside, blocked_outside)


def smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cells: tuple[int, int]) -> np.ndarray:
    """Gaussian noise on a grid of `cells` (x, y), smoothly enlarged to `shape` (width, height)."""
    coarse = rng.normal(0, 1, (cells[1], cells[0])).astype(np.float32)
    return cv2.resize(coarse, shape, interpolation=cv2.INTER_CUBIC)


@dataclass(frozen=True)
class Setting:
    """The bowl's glaze and painting, the table, the lamp (linear BGR colours)."""

    glaze: np.ndarray
    ink: np.ndarray
    ink_field: np.ndarray  # (angle bins, radius bins) 0..1 of painting on the glaze, by (angle, r / rim)
    table: np.ndarray  # (texels, texels, 3) linear BGR over +-table_extent mm
    table_extent: float
    lamp: np.ndarray  # lamp position
    lamp_radius: float
    light: np.ndarray  # lamp colour x strength
    ambient: np.ndarray


def sample_setting(rng: np.random.Generator, bowl: Bowl) -> Setting:
    """Glaze and painting (cobalt on three bowls in four, copper red on most others, one in ten plain),
    a wood or checked table, and a lamp of any warmth over the table."""
    glaze = srgb(tuple(np.array((238, 243, 246)) - rng.uniform(0, 25) * np.array((1.0, 0.6, 0.2))))
    paint = rng.random()
    ink = srgb((160, 80, 30)) if paint < 0.75 else srgb((45, 45, 165))
    angles, radii = 720, 240
    field = np.zeros((angles, radii), np.float32)
    if paint < 0.9:  # a plain bowl otherwise
        rr = np.linspace(0, 1.2, radii)[None, :]
        bands = [bowl.rim * f for f in rng.uniform(0.86, 0.97, 2)] + [bowl.floor_r * rng.uniform(0.85, 1.0)]
        for b in bands:
            field = np.maximum(field, (np.abs(rr * bowl.rim - b) < rng.uniform(0.6, 1.6)).astype(np.float32))
        motifs = smooth_noise(rng, (radii, angles), (12, int(rng.integers(24, 60))))
        band = (rr * bowl.rim > bowl.floor_r * 1.05) & (rr * bowl.rim < bowl.rim * 0.84)
        field = np.maximum(field, np.where(band, np.clip((motifs - 1.0) * 2.5, 0, 1), 0))
        medallion = smooth_noise(rng, (radii, angles), (8, 16))
        middle = rr * bowl.rim < bowl.floor_r * 0.45
        field = np.maximum(field, np.where(middle, np.clip((medallion - 0.6) * 2, 0, 1), 0))
    texels, extent = 512, 700.0
    base = srgb(tuple(rng.uniform(40, 200, 3)))
    if rng.random() < 0.5:  # wood grain
        y = np.linspace(0, 1, texels)[:, None]
        grain = 0.5 + 0.5 * np.sin(y * rng.uniform(60, 160) + smooth_noise(rng, (texels, texels), (6, 6)) * 3)
        table = base[None, None] * (0.7 + 0.5 * grain[..., None])
    else:  # a checked cloth
        cells = rng.uniform(30, 80)
        x = np.arange(texels) * 2 * extent / texels
        check = ((x[None, :] // cells + x[:, None] // cells) % 2)[..., None]
        table = base[None, None] * (0.6 + 0.6 * check)
    height = rng.uniform(500, 1100)
    lamp = np.array([*rng.uniform(-0.5, 0.5, 2) * height, height])
    warm = rng.uniform(0, 1)
    light = np.array([1.0 - 0.35 * warm, 1.0 - 0.1 * warm, 1.0]) * rng.uniform(0.9, 1.3)
    return Setting(glaze, ink, field, np.asarray(table, np.float64), extent, lamp, rng.uniform(30, 160), light,
                light * rng.uniform(0.2, 0.4))


def bowl_albedo(bowl: Bowl, setting: Setting, points: np.ndarray, kind: np.ndarray) -> np.ndarray:
    out = np.empty_like(points)
    table = kind == TABLE
    ext, texels = setting.table_extent, setting.table.shape[0]
    ij = np.clip(((points[table, :2] + ext) / (2 * ext) * texels).astype(int), 0, texels - 1)
    out[table] = setting.table[ij[:, 1], ij[:, 0]]
    glazed = ~table
    r = np.hypot(points[glazed, 0], points[glazed, 1])
    angle = (np.arctan2(points[glazed, 1], points[glazed, 0]) + np.pi) / (2 * np.pi)
    a_bins, r_bins = setting.ink_field.shape
    ai = np.clip((angle * a_bins).astype(int), 0, a_bins - 1)
    ri = np.clip((r / bowl.rim / 1.2 * r_bins).astype(int), 0, r_bins - 1)
    ink = setting.ink_field[ai, ri] * (kind[glazed] != LIP)
    out[glazed] = setting.glaze * (1 - ink[:, None]) + setting.ink * ink[:, None]
    return out


def die_surface(die: Die, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Normal and albedo at points on a die: pips are dimples with normals of their own."""
    q = (points - die.centre) @ die.rotation
    core = die.half - die.rounding
    normal_local = unit(q - np.clip(q, -core, core))
    albedo = np.broadcast_to(die.look.body, q.shape).copy()
    axis = np.abs(q).argmax(1)
    for face, (ax, sign) in FACE_AXES.items():
        on = (axis == ax) & (np.sign(q[:, ax]) == sign)
        if not on.any():
            continue
        others = across(face)
        uv = q[on][:, others] / die.half
        radius = die.look.one_radius if face == 1 else die.look.pip_radius
        best = np.full(len(uv), np.inf)
        offset = np.zeros_like(uv)
        for centre in PIP_LAYOUTS[face]:
            delta = uv - np.array(centre)
            dist = np.linalg.norm(delta, axis=1)
            closer = dist < best
            best = np.where(closer, dist, best)
            offset[closer] = delta[closer]
        pip = best < radius
        idx = np.nonzero(on)[0][pip]
        albedo[idx] = die.look.red if die.red_pips(face) else die.look.pips
        # A dimple: the normal leans towards the pip's middle, most at its edge.
        lean = np.zeros((len(idx), 3))
        lean[:, others] = -offset[pip] / radius * 0.8
        normal_local[idx] = unit(normal_local[idx] + lean)
    return unit(normal_local @ die.rotation.T), albedo


def lamp_samples(setting: Setting, rng: np.random.Generator, count: int = 6) -> np.ndarray:
    """Points spread over the lamp's disc: soft shadows."""
    angles = (np.arange(count) + rng.uniform(0, 1)) * 2 * np.pi / count
    radii = setting.lamp_radius * np.sqrt((np.arange(count) + 0.5) / count)
    return setting.lamp + np.stack([radii * np.cos(angles), radii * np.sin(angles), np.zeros(count)], 1)


@dataclass(frozen=True)
class Throw:
    """Everything one picture shows, before a ray is cast."""

    bowl: Bowl
    dice: tuple[Die, ...]
    camera: Camera
    setting: Setting


def draw_throw(rng: np.random.Generator, size: tuple[int, int] | None = None) -> Throw:
    """A bowl, six dice in it (or one on the table), a camera that sees them all, light and colours;
    `size` (width, height): this frame size instead of one drawn."""
    bowl = sample_bowl(rng)
    dice_look = sample_dice_look(rng)
    out_of_bowl = rng.random() < 0.2
    dice = tuple(place_dice(rng, bowl, dice_look, out_of_bowl))
    drawn = SIZES[int(rng.integers(len(SIZES)))]
    size = drawn if size is None else size
    for _ in range(50):  # a die on the table may lie out of the first camera's view
        camera = sample_camera(rng, bowl, size, roomy=out_of_bowl)
        centres = camera.project(np.array([d.centre for d in dice]))
        margin = 2 * camera.focal * max(d.half for d in dice) / float(np.linalg.norm(camera.position))
        if np.all((centres > margin) & (centres < np.array(size) - margin)):
            break
    return Throw(bowl, dice, camera, sample_setting(rng, bowl))


def shade(throw: Throw, rng: np.random.Generator) -> np.ndarray:
    """The throw's picture: BGR uint8."""
    bowl, dice, camera, setting = throw.bowl, throw.dice, throw.camera, throw.setting
    dirs = camera.rays(SUPERSAMPLE)
    origin = camera.position
    t, kind = bowl_hits(bowl, origin, dirs)
    for i, die in enumerate(dice):
        t_die = trace_die(die, origin, dirs)
        closer = t_die < t
        t, kind = np.where(closer, t_die, t), np.where(closer, FIRST_DIE + i, kind)
    points = origin + dirs * t[:, None]
    normals = bowl_normals(bowl, points, kind)
    albedo = bowl_albedo(bowl, setting, points, kind)
    shine = np.where(kind == TABLE, 0.03, 0.5)
    sharpness = np.where(kind == TABLE, 10.0, rng.uniform(60, 200))
    inside = np.isin(kind, (INNER, FLOOR))
    for i, die in enumerate(dice):
        on = kind == FIRST_DIE + i
        normals[on], albedo[on] = die_surface(die, points[on])
        shine[on], sharpness[on] = 0.25, 40.0
        inside |= on & die.in_bowl
    lit = np.zeros(len(points))
    highlight = np.zeros(len(points))
    lamps = lamp_samples(setting, rng)
    start = points + normals * 0.05
    # Only points whose line to the lamp passes near a die can be in its shadow: found once, traced per lamp.
    towards = unit(setting.lamp - start)
    shaded_by = []
    for die in dice:
        rel = die.centre - start
        along = np.einsum("ij,ij->i", rel, towards)
        off = np.linalg.norm(rel - along[:, None] * towards, axis=1)
        spread = along * setting.lamp_radius / np.linalg.norm(setting.lamp - die.centre)
        shaded_by.append(np.nonzero((along > 0) & (off < die.half * 1.8 + spread))[0])
    for lamp in lamps:
        to_lamp = unit(lamp - start)
        seen = ~shadowed_by_bowl(bowl, start, to_lamp, inside)
        for die, idx in zip(dice, shaded_by):
            seen[idx] &= ~np.isfinite(trace_die(die, start[idx], to_lamp[idx], steps=24))
        facing = np.clip(np.einsum("ij,ij->i", normals, to_lamp), 0, None)
        half = unit(to_lamp - dirs)
        lit += seen * facing / len(lamps)
        highlight += seen * np.clip(np.einsum("ij,ij->i", normals, half), 0, None) ** sharpness / len(lamps)
    # Contact shade: glaze or table close under a die gets less of the sky.
    occlusion = np.ones(len(points))
    for i, die in enumerate(dice):
        near = kind != FIRST_DIE + i
        gap = die_sdf(die, points[near])
        occlusion[near] *= np.clip(0.35 + 0.65 * gap / (1.2 * die.half), 0.35, 1.0)
    sky = 0.55 + 0.45 * np.clip(normals[:, 2], 0, 1)
    colour = albedo * (setting.ambient[None] * (sky * occlusion)[:, None] + setting.light[None] * lit[:, None])
    colour += shine[:, None] * highlight[:, None] * setting.light[None]
    w, h = camera.size
    linear = colour.reshape(h * SUPERSAMPLE, w * SUPERSAMPLE, 3).astype(np.float32)
    linear = cv2.resize(linear, (w, h), interpolation=cv2.INTER_AREA)
    image = np.clip(linear, 0, 1) ** (1 / 2.2) * 255
    image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 0.8))
    return np.clip(image + rng.normal(0, rng.uniform(1, 4), image.shape), 0, 255).astype(np.uint8)


def render(rng: np.random.Generator, size: tuple[int, int] | None = None) -> tuple[np.ndarray, ImageLabel]:
    """One throw's picture and label (`draw_throw`'s `size`)."""
    throw = draw_throw(rng, size)
    return shade(throw, rng), label_of(throw)


def label_of(throw: Throw) -> ImageLabel:
    """Each die's top face (its box, middle and pips as seen) and the rim, the middle of the lip."""
    camera, bowl = throw.camera, throw.bowl
    labels = []
    for die in throw.dice:
        face = die.top
        corners = camera.project(np.array([die.on_face(face, u, v) for u in (-1, 1) for v in (-1, 1)]))
        centre = camera.project(die.on_face(face, 0, 0)[None])[0]
        pip_px = camera.project(np.array([die.on_face(face, u, v) for u, v in PIP_LAYOUTS[face]]))
        red = die.red_pips(face)
        (x0, y0), (x1, y1) = corners.min(0), corners.max(0)
        labels.append(DieLabel(face=face, box=(float(x0), float(y0), float(x1), float(y1)),
                               center_xy=(float(centre[0]), float(centre[1])),
                               in_bowl=die.in_bowl,
                               pips=tuple(PipLabel((float(x), float(y)), red) for x, y in pip_px)))
    angles = np.linspace(0, 2 * np.pi, 96, endpoint=False)
    middle = (bowl.rim + bowl.outer_rim) / 2
    rim = np.stack([middle * np.cos(angles), middle * np.sin(angles), np.full_like(angles, bowl.height)], 1)
    (cx, cy), (a, b), angle = cv2.fitEllipse(camera.project(rim).astype(np.float32))
    return ImageLabel("", tuple(labels), (cx, cy, a / 2, b / 2, angle),
                      {"synth": {"dice": throw.dice[0].look.kind, "renderer": "raytraced"}})


def write_set(out: Path, count: int, seed: int) -> int:
    out.mkdir(parents=True, exist_ok=True)
    labels = {}
    for n in range(count):
        rng = np.random.default_rng([seed, n])
        image, label = render(rng)
        name = f"throw_{n:04d}.jpg"
        cv2.imwrite(str(out / name), image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 96))])
        labels[name] = replace(label, file=name)
    save_labels(out, labels)
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder for the labelled set (DATA.md)")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"{args.out}: {write_set(args.out, args.count, args.seed)} throws")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
