"""The porcelain bowl: its shape, its glaze and patterns, and how the camera sees it.

The glaze is shaded by casting one ray per cell of a coarse grid (interior, rim and outer wall are
surfaces of revolution, so each ray is solved by a short search in height), then upsampled; the
edges that must stay sharp (rim, outline) are drawn at full resolution as projected circles.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from bobing_vision.geometry import Ellipse
from bobing_vision.synth.camera import Camera
from bobing_vision.synth.config import BOWL_PAINTS, CONFIG, SceneSpec
from bobing_vision.synth.dice import fill
from bobing_vision.synth.lighting import Lighting
from bobing_vision.synth.noise import fill_invalid, smooth_noise, times_gray
from bobing_vision.synth.patterns import COBALT, COPPER_RED, paint, qinghua_inside, qinghua_outside

GOLD = (0.25, 0.62, 0.82)
# The painted bowls and their pigment: the same brushwork in cobalt blue (青花) or copper red (釉里红).
PIGMENTS = dict(zip(BOWL_PAINTS, (COBALT, COPPER_RED)))  # in BOWL_PAINTS' order: qinghua, youlihong


@dataclass(frozen=True)
class BowlShape:
    """Surfaces of revolution about the z axis, in mm; the table is z = 0."""

    rim: float  # inner radius at the rim
    lip: float  # thickness of the rim
    height: float  # height of the rim above the table
    floor_z: float  # height of the inside floor
    floor_r: float  # radius of the flat part of the floor
    foot_r: float  # radius of the foot ring the bowl stands on
    foot_h: float

    def inner_z(self, r: np.ndarray) -> np.ndarray:
        t = np.clip((r - self.floor_r) / (self.rim - self.floor_r), 0, None)
        return self.floor_z + (self.height - self.floor_z) * t * t

    def inner_slope(self, r: np.ndarray) -> np.ndarray:
        t = np.clip((r - self.floor_r) / (self.rim - self.floor_r), 0, None)
        return 2 * (self.height - self.floor_z) * t / (self.rim - self.floor_r)

    def inner_normal(self, xy: np.ndarray) -> np.ndarray:
        r = np.linalg.norm(xy, axis=-1, keepdims=True)
        s = self.inner_slope(r)
        n = np.concatenate([-s * xy / np.maximum(r, 1e-6), np.ones_like(r)], axis=-1)
        return n / np.linalg.norm(n, axis=-1, keepdims=True)

    @property
    def wall_r(self) -> float:
        return self.floor_r * 0.9 + self.lip

    @property
    def outer_rim(self) -> float:
        return self.rim + self.lip

    def outer_r(self, z: np.ndarray) -> np.ndarray:
        s = np.clip((z - self.foot_h) / (self.height - self.foot_h), 0, 1)
        wall = self.wall_r + (self.outer_rim - self.wall_r) * np.sqrt(s)
        return np.where(z <= self.foot_h, self.foot_r, wall)

    def outer_normal(self, p: np.ndarray) -> np.ndarray:
        s = np.clip((p[..., 2:3] - self.foot_h) / (self.height - self.foot_h), 1e-3, 1)
        drdz = (self.outer_rim - self.wall_r) * 0.5 / np.sqrt(s) / (self.height - self.foot_h)
        r = np.linalg.norm(p[..., :2], axis=-1, keepdims=True)
        n = np.concatenate([p[..., :2] / np.maximum(r, 1e-6), -drdz], axis=-1)
        return n / np.linalg.norm(n, axis=-1, keepdims=True)

    def in_opening(self, camera: Camera, points: np.ndarray, margin: float = 0.0) -> np.ndarray:
        """Whether the camera sees world points (n, 3) inside the bowl through the rim opening."""
        c = camera.position
        t = (self.height - c[2]) / (points[:, 2] - c[2])
        q = c[:2] + (points[:, :2] - c[:2]) * t[:, None]
        return np.linalg.norm(q, axis=1) < self.rim - margin

    def lamp_visible(self, points: np.ndarray, lighting: Lighting) -> np.ndarray:
        """(n, k) in 0..1: how much of each lamp reaches points inside the bowl past the rim."""
        d = lighting.towards(points)  # (n, k, 3)
        t = (self.height - points[:, 2:3]) / np.maximum(d[..., 2], 1e-3)  # (n, k)
        q = points[:, None, :2] + d[..., :2] * t[..., None]
        r = np.linalg.norm(q, axis=-1)
        return np.clip((self.rim + 2.0 - r) / 4.0, 0, 1)


@dataclass(frozen=True)
class BowlStyle:
    kind: str  # white, qinghua (painted blue), youlihong (painted red), celadon, ivory
    glaze: tuple[float, float, float]  # BGR base colour, 0..1
    gilded: bool
    shininess: float
    gloss: float

    @property
    def pigment(self) -> tuple[float, float, float]:
        """The painting's colour; a plain bowl's single ring is cobalt."""
        return PIGMENTS.get(self.kind, COBALT)


def sample_shape(rng: np.random.Generator, diameter_cm: float, floor_share: tuple[float, float]) -> BowlShape:
    """A bowl `diameter_cm` across, its flat floor `floor_share` (drawn from the range, `SceneSpec.floor_share`)
    of the rim's radius."""
    rim = diameter_cm * 5.0
    lip = rng.uniform(3.0, 6.0) * (rim / 120) ** 0.5
    height = rim * rng.uniform(0.42, 0.62)
    floor_z = rng.uniform(7.0, 14.0)
    floor_r = rim * rng.uniform(*floor_share)
    return BowlShape(rim, lip, height, floor_z, floor_r, floor_r * rng.uniform(0.55, 0.8), rng.uniform(4.0, 9.0))


def own_stream(rng: np.random.Generator) -> np.random.Generator:
    """A stream of its own, keyed by `rng`'s present state and leaving it as it was: a choice drawn
    from it leaves the scene's later draws (its layout and labels) what they were without it."""
    state = rng.bit_generator.state["state"]
    return np.random.default_rng([state["state"], state["inc"]])


def sample_style(rng: np.random.Generator, painted: str | None = None,
                 red_p: float = SceneSpec.red_painted_p) -> BowlStyle:
    """A bowl's look; `painted` ("qinghua" or "youlihong") paints every bowl in that pigment, the
    rest of the scene as drawn without it (A/B sets of the same scenes in blue and in red); otherwise
    `red_p` of the painted bowls are red (0: every one blue, the scenes drawn before red was)."""
    kind = ["white", "qinghua", "qinghua", "celadon", "ivory"][int(rng.integers(5))]
    if painted is not None:
        kind = painted
    elif kind == "qinghua" and own_stream(rng).random() < red_p:
        kind = "youlihong"
    glaze = {
        "white": (0.93, 0.94, 0.93),
        **dict.fromkeys(PIGMENTS, (0.95, 0.94, 0.91)),  # painted bowls: a cool white under either pigment
        "celadon": (0.70, 0.80, 0.70),
        "ivory": (0.86, 0.92, 0.93),
    }[kind]
    b, g, r = (float(np.clip(c + rng.uniform(-0.04, 0.04), 0, 1)) for c in glaze)
    return BowlStyle(kind, (b, g, r), bool(rng.random() < 0.15), float(rng.uniform(60, 220)),
                     float(rng.uniform(0.5, 1.1)))


def _circle(radius: float, z: float, n: int = 96) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([radius * np.cos(a), radius * np.sin(a), np.full(n, z)], axis=1)


def rim_ellipse(camera: Camera, shape: BowlShape) -> Ellipse:
    """The rim (middle of the lip) as seen: (cx, cy, rx, ry, angle_deg) in cv2.ellipse's convention."""
    pts = camera.project(_circle(shape.rim + shape.lip / 2, shape.height)).astype(np.float32)
    (cx, cy), (w, h), ang = cv2.fitEllipse(pts)
    return (float(cx), float(cy), float(w / 2), float(h / 2), float(ang))


def _tex_px(xy: np.ndarray, extent: float, size: int) -> np.ndarray:
    return (xy + extent) / (2 * extent) * size


def _inside_texture(rng: np.random.Generator, shape: BowlShape, style: BowlStyle, extent: float) -> np.ndarray:
    size = CONFIG.texture_px
    mm_per_px = 2 * extent / size
    tex = np.empty((size, size, 3), np.float32)
    tex[:] = style.glaze
    tex = times_gray(tex, 1 + 0.025 * smooth_noise(rng, (size, size), 6))  # the glaze is never quite even
    scale = 1 / mm_per_px
    if style.kind in PIGMENTS:
        density = qinghua_inside(rng, size, mm_per_px, shape.rim, shape.floor_r)
        tex = paint(rng, tex, density, float(rng.uniform(0.75, 1.15)), style.pigment)
    elif style.kind in ("white", "ivory") and rng.random() < 0.5:
        cv2.circle(tex, (size // 2, size // 2), int(shape.rim * 0.97 * scale), style.pigment, 1, cv2.LINE_AA)
    if style.gilded:
        cv2.circle(tex, (size // 2, size // 2), int(shape.rim * 0.985 * scale), GOLD, max(1, int(1.5 * scale)),
                   cv2.LINE_AA)
    return tex


def _outside_texture(rng: np.random.Generator, style: BowlStyle) -> np.ndarray:
    w, h = 512, 64
    tex = np.empty((h, w, 3), np.float32)
    tex[:] = style.glaze
    if style.kind in PIGMENTS:
        tex = paint(rng, tex, qinghua_outside(rng, w, h), float(rng.uniform(0.75, 1.15)), style.pigment)
    if style.gilded:
        cv2.line(tex, (0, h - 2), (w, h - 2), GOLD, 3)
    return tex


@dataclass(frozen=True)
class BowlRender:
    image: np.ndarray  # float32 BGR 0..1 of the whole frame, bowl over the table
    silhouette: np.ndarray  # uint8 mask: anywhere on the bowl


def _first_crossing(fn, z_hi: float, z_lo: float, levels: int, iters: int) -> tuple[np.ndarray, np.ndarray]:  # type: ignore[no-untyped-def]
    """Largest z in [z_lo, z_hi] where fn(z) turns negative along each ray; and whether it did."""
    zs = np.linspace(z_hi, z_lo, levels)
    vals = np.stack([fn(z) for z in zs])
    neg = vals < 0
    idx = np.argmax(neg, axis=0)
    found = neg.any(axis=0) & ~neg[0]
    hi = zs[np.maximum(idx - 1, 0)]
    lo = zs[idx]
    for _ in range(iters):
        mid = (hi + lo) / 2
        below = fn(mid) < 0
        lo = np.where(below, mid, lo)
        hi = np.where(below, hi, mid)
    return (hi + lo) / 2, found


def _unit_rows(v: np.ndarray) -> np.ndarray:
    return v / np.sqrt((v * v).sum(axis=1, keepdims=True))


def silhouette_mask(camera: Camera, shape: BowlShape) -> np.ndarray:
    """uint8 mask of every pixel the bowl covers."""
    m = np.zeros((camera.height, camera.width), np.uint8)
    fill(m, camera.project(_circle(shape.outer_rim, shape.height)), 255)
    for z in np.linspace(0, shape.height, 14):
        fill(m, camera.project(_circle(float(shape.outer_r(np.asarray(z))), float(z), 64)), 255)
    return m


def _shade_grid(camera: Camera, shape: BowlShape, style: BowlStyle, lighting: Lighting,
                roi: tuple[int, int, int, int]) -> dict[str, np.ndarray]:
    """Ray-cast a coarse grid over `roi` (x0, y0, x1, y1): per surface, hit coordinates and light."""
    x0, y0, x1, y1 = roi
    s = CONFIG.shade_scale
    gw, gh = (x1 - x0 + s - 1) // s, (y1 - y0 + s - 1) // s
    # one ray through the middle of each s x s cell, so a plain resize puts it back on its pixels
    gx, gy = np.meshgrid(x0 + np.arange(gw) * s + (s - 1) / 2, y0 + np.arange(gh) * s + (s - 1) / 2)
    d = camera.rays(np.stack([gx, gy], axis=-1).astype(np.float64)).reshape(-1, 3)
    c = camera.position
    ax, ay = d[:, 0] / d[:, 2], d[:, 1] / d[:, 2]  # xy change per mm of height along each ray

    def r_at(z: np.ndarray | float) -> np.ndarray:
        dz = np.asarray(z) - c[2]
        return np.hypot(c[0] + ax * dz, c[1] + ay * dz)

    def point(z: np.ndarray) -> np.ndarray:
        dz = z - c[2]
        return np.stack([c[0] + ax * dz, c[1] + ay * dz, z], axis=1)

    out: dict[str, np.ndarray] = {}
    r_top = r_at(shape.height)
    # Interior: the first point below the opening where the ray meets the glaze.
    z_in, _ = _first_crossing(lambda z: z - shape.inner_z(r_at(z)), shape.height, shape.floor_z - 0.5, 9, 6)
    p = point(z_in)
    n = shape.inner_normal(p[:, :2])
    lamp = shape.lamp_visible(p, lighting)
    depth = np.clip((p[:, 2] - shape.floor_z) / (shape.height - shape.floor_z), 0, 1)[:, None]
    out["in_xy"] = p[:, :2]
    out["in_diff"] = lighting.diffuse(n, p, lamp) * (0.8 + 0.2 * depth)  # the bottom sees less of the room
    out["in_spec"] = lighting.specular(n, p, c, style.shininess, lamp) * style.gloss
    valid_in = r_top < shape.rim  # only rays through the opening: the rest would smear the rim into it
    # Outer wall: rays that pass outside the rim and meet the body on the way down.
    z_out, found = _first_crossing(lambda z: r_at(z) - shape.outer_r(np.asarray(z)), shape.height, 0.0, 8, 5)
    p = point(z_out)
    n = shape.outer_normal(p)
    out["out_xyz"] = p
    out["out_diff"] = lighting.diffuse(n, p) * (0.7 + 0.3 * np.clip(p[:, 2:3] / shape.height, 0, 1))
    out["out_spec"] = lighting.specular(n, p, c, style.shininess) * style.gloss
    valid_out = found & (r_top > shape.outer_rim - 2)
    valid = {"in": valid_in, "out": valid_out}
    rw, rh = x1 - x0, y1 - y0
    for key in list(out):
        v = out[key].reshape(gh, gw, -1).astype(np.float32)
        v = fill_invalid(v, valid[key.split("_")[0]].reshape(gh, gw), rounds=3)
        out[key] = cv2.resize(v, (gw * s, gh * s), interpolation=cv2.INTER_LINEAR)[:rh, :rw]
    return out


def _rim_shade(camera: Camera, shape: BowlShape, style: BowlStyle, lighting: Lighting, pixels: np.ndarray) -> np.ndarray:
    """(n, 3) colour of the rim at full-resolution pixels (n, 2): a rounded lip whose normal turns
    from inward to outward across it. The rim is a few pixels wide, too thin for the coarse grid."""
    p = camera.to_plane(pixels.astype(np.float64), shape.height)
    r = np.hypot(p[:, 0], p[:, 1])
    across = np.clip((r - shape.rim) / shape.lip, 0, 1)[:, None]
    ang = (across - 0.5) * 2.2
    radial = p[:, :2] / np.maximum(r[:, None], 1e-6)
    n = np.concatenate([radial * np.sin(ang), np.cos(ang)], axis=1)
    color = np.array(GOLD if style.gilded else style.glaze)
    glare = lighting.specular(n, p, camera.position, style.shininess * 0.5) * (1.3 if style.gilded else style.gloss)
    return color * lighting.diffuse(n, p) + glare


def _mask(camera: Camera, pts: np.ndarray, roi: tuple[int, int, int, int]) -> np.ndarray:
    x0, y0, x1, y1 = roi
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    fill(m, camera.project(pts) - np.array([x0, y0]), 255)
    return m.astype(np.float32) * (1 / 255)


def render_bowl(rng: np.random.Generator, camera: Camera, shape: BowlShape, style: BowlStyle, lighting: Lighting,
                table: np.ndarray) -> BowlRender:
    """Shade the bowl over `table` (float32 BGR 0..1, the lit table without the bowl's shadow)."""
    w, h = camera.width, camera.height
    sil = silhouette_mask(camera, shape)
    bx, by, bw, bh = cv2.boundingRect(sil)
    roi = (max(bx - 2, 0), max(by - 2, 0), min(bx + bw + 2, w), min(by + bh + 2, h))
    x0, y0, x1, y1 = roi
    maps = _shade_grid(camera, shape, style, lighting, roi)
    extent = shape.rim * 1.08
    k = CONFIG.texture_px / (2 * extent)
    tex_in = _inside_texture(rng, shape, style, extent)
    xy = maps["in_xy"]
    inside = cv2.remap(tex_in, (xy[..., 0] + extent) * k, (xy[..., 1] + extent) * k, cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE)
    inside = cv2.add(cv2.multiply(inside, maps["in_diff"]), maps["in_spec"])
    tex_out = _outside_texture(rng, style)
    xyz = maps["out_xyz"]
    angle = cv2.phase(np.ascontiguousarray(xyz[..., 0]), np.ascontiguousarray(xyz[..., 1]))
    outside = cv2.remap(tex_out, angle * (tex_out.shape[1] / (2 * np.pi)),
                        np.clip(xyz[..., 2] * (1 / shape.height), 0, 1) * (tex_out.shape[0] - 1), cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_WRAP)
    outside = cv2.add(cv2.multiply(outside, maps["out_diff"]), maps["out_spec"])
    m_in = _mask(camera, _circle(shape.rim, shape.height), roi)
    m_top = _mask(camera, _circle(shape.outer_rim, shape.height), roi)
    m_sil = sil[y0:y1, x0:x1].astype(np.float32) * (1 / 255)

    # The bowl's shadow on the table, cast by the strongest lamp, soft at the edges (blurred small).
    main = lighting.main
    ring = _circle(shape.outer_rim, shape.height, 64)
    cast = ring - main[None] * (ring[:, 2:3] / max(main[2], 0.2))
    q = 4
    sh = np.zeros(((h + q - 1) // q, (w + q - 1) // q), np.uint8)
    fill(sh, camera.project(cast) / q, 255)
    fill(sh, camera.project(_circle(shape.foot_r * 1.15, 0.0, 48)) / q, 255)
    sigma = max(1.0, shape.rim * camera.focal / float(np.linalg.norm(camera.position)) * 0.08 / q)
    soft = cv2.resize(cv2.GaussianBlur(sh, (0, 0), sigma), (w, h), interpolation=cv2.INTER_LINEAR)
    shadow = 1 - (lighting.contrast * 0.8 / 255) * soft.astype(np.float32)
    img = times_gray(table, shadow)

    rim_img = inside.copy()
    ys, xs = np.nonzero((m_top > 0) & (m_in < 1))
    if len(xs):
        rim_img[ys, xs] = _rim_shade(camera, shape, style, lighting, np.stack([xs + x0, ys + y0], axis=1))
    top = cv2.blendLinear(inside, rim_img, m_in, 1 - m_in)
    body = cv2.blendLinear(top, outside, m_top, 1 - m_top)
    img[y0:y1, x0:x1] = cv2.blendLinear(body, img[y0:y1, x0:x1], m_sil, 1 - m_sil)
    return BowlRender(img, sil)
