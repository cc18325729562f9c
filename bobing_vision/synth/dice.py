"""Dice: their look (Chinese or ordinary), their pips, and drawing one die seen by the camera."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from bobing_vision.dataset.labels import DieLabel, PipLabel
from bobing_vision.die_faces import PIP_LAYOUT
from bobing_vision.synth.camera import Camera
from bobing_vision.synth.geometry import FACE_AXES, top_face
from bobing_vision.synth.lighting import Lighting

RED_FACES = (1, 4)  # on Chinese dice the 1 and the 4 are red
Colour = tuple[float, float, float]  # BGR
_SHAPE = 8  # shift bits for sub-pixel polygon drawing
_CIRCLE = np.stack([np.cos(np.linspace(0, 2 * np.pi, 14, endpoint=False)),
                    np.sin(np.linspace(0, 2 * np.pi, 14, endpoint=False))], axis=1)
# Directions of the corner spheres whose hull makes a rounded cube's outline.
_SPHERE = np.array([[x, y, z] for x in (-1, 0, 1) for y in (-1, 0, 1) for z in (-1, 0, 1) if (x, y, z) != (0, 0, 0)],
                   dtype=np.float64)
_SPHERE /= np.linalg.norm(_SPHERE, axis=1, keepdims=True)
_CUBE = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=np.float64)


@dataclass(frozen=True)
class DieStyle:
    body: Colour  # BGR
    pip: Colour  # BGR of ordinary pips
    red: Colour | None  # BGR of the 1 and 4 on Chinese dice; None: ordinary die
    corner: float  # rounding radius as a share of the side
    gloss: float  # strength of the glare on the faces
    pip_scale: float = 1.0  # makers' pips differ in size
    swirl: Colour | None = None  # BGR of a second body colour marbled through (acrylic dice)
    swirl_seed: int = 0  # each die of the set gets its own veins from this and its id

    @property
    def chinese(self) -> bool:
        return self.red is not None

    def pip_color(self, face: int) -> Colour:
        return self.red if (self.red is not None and face in RED_FACES) else self.pip

    def pips_red(self, face: int) -> bool:
        """Whether this face's pips are painted red: the pip label's `red` (a Chinese 1 or 4, or an
        ordinary die with red pips on every face)."""
        return is_red(self.pip_color(face))

    def pip_radius(self, face: int) -> float:
        """Pip radius as a share of the half side: the Chinese 1 is one big pip, the 4 a little larger."""
        if face == 1:
            radius = 0.42 if self.chinese else 0.24
        elif face == 4 and self.chinese:
            radius = 0.22
        else:
            radius = 0.17 if face == 6 else 0.19
        return radius * self.pip_scale


def is_red(bgr: Colour) -> bool:
    """A saturated, not too dark red (the paint of a Chinese 1 and 4; not orange, pink or brown)."""
    b, g, r = bgr
    return r >= 110 and r >= 1.8 * max(g, b) + 20


def reddish(bgr: Colour) -> bool:
    """Between red and not: pips are never painted so (their `red` label would be a coin toss)."""
    b, g, r = bgr
    return not is_red(bgr) and r >= 1.3 * max(g, b) + 10


def luminance(bgr: Colour) -> float:
    b, g, r = bgr
    return 0.114 * b + 0.587 * g + 0.299 * r


def _random_colour(rng: np.random.Generator, lo: float, hi: float) -> Colour:
    """A colour of any hue and saturation whose HSV value lies in lo..hi (0..1)."""
    saturation = rng.uniform(0, 255) if rng.random() < 0.8 else 0.0  # a fifth grey, white or black
    hsv = np.array([[[rng.uniform(0, 180), saturation, rng.uniform(lo, hi) * 255]]], np.float32)
    return tuple(float(c) for c in cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)[0, 0])  # type: ignore[return-value]


# Dice sold everywhere: body and pip colours of the common sets.
_CLASSIC: tuple[tuple[Colour, Colour], ...] = (
    ((40.0, 40.0, 190.0), (240.0, 240.0, 240.0)),  # red body, white pips
    ((60.0, 140.0, 40.0), (240.0, 240.0, 240.0)),  # green
    ((160.0, 70.0, 30.0), (240.0, 240.0, 240.0)),  # blue
    ((30.0, 30.0, 30.0), (235.0, 235.0, 235.0)),  # black
    ((235.0, 238.0, 240.0), (30.0, 30.0, 30.0)),  # white with black pips
    ((40.0, 190.0, 230.0), (30.0, 30.0, 30.0)),  # yellow with black pips
    ((210.0, 210.0, 215.0), (40.0, 40.0, 170.0)),  # white with red pips
)
MIN_PIP_CONTRAST = 45.0  # luminance between pips and body: a die whose pips can't be told apart is not sold
# ...or colour: red pips on a dark blue or purple body, yellow on teal, differ in hue far more than in
# luminance (real marbled dice with red pips were the commonest face the reader could not read).
MIN_PIP_COLOUR_DISTANCE = 70.0  # CIELAB distance (red on dark blue ~95, red on brown ~46)


def colour_distance(a: Colour, b: Colour) -> float:
    """CIELAB distance of two BGR colours: how far apart they look, hue and lightness together."""
    lab = cv2.cvtColor(np.array([[a, b]], np.float32) / 255, cv2.COLOR_BGR2Lab)[0]
    return float(np.linalg.norm(lab[0] - lab[1]))


def pips_stand_out(pip: Colour, body: Colour) -> bool:
    """Whether pips of this colour can be told from this body, by lightness or by colour."""
    return (abs(luminance(body) - luminance(pip)) >= MIN_PIP_CONTRAST
            or colour_distance(pip, body) >= MIN_PIP_COLOUR_DISTANCE)


def _any_colours(rng: np.random.Generator) -> tuple[Colour, Colour]:
    """Body and pips of any colours that stand out from each other (red pips on black or dark blue, gold
    on purple, yellow on teal...)."""
    red_pips = rng.random() < 0.25  # red pips on every face: common, and what a Chinese 1 or 4 looks like
    while True:
        body = _random_colour(rng, 0.08, 0.95)
        if red_pips:
            pip = (rng.uniform(10, 60), rng.uniform(10, 50), rng.uniform(150, 230))
        elif rng.random() < 0.25:  # pips apart from the body by hue more than by lightness
            pip = _random_colour(rng, 0.2, 1.0)
        elif rng.random() < luminance(body) / 255:
            pip = _random_colour(rng, 0.03, 0.35)
        else:
            pip = _random_colour(rng, 0.6, 1.0)
        if pips_stand_out(pip, body) and is_red(pip) == red_pips and not reddish(pip):
            return body, pip


def sample_die_style(rng: np.random.Generator, chinese: bool) -> DieStyle:
    if chinese:
        ivory = rng.uniform(0, 1)
        body = (225 - 45 * ivory, 238 - 18 * ivory, 240 - 5 * ivory)
        red = (rng.uniform(25, 60), rng.uniform(20, 50), rng.uniform(170, 215))
        return DieStyle(body, (25.0, 25.0, 28.0), red, float(rng.uniform(0.1, 0.2)), float(rng.uniform(0.15, 0.5)),
                        pip_scale=float(rng.uniform(0.9, 1.1)))
    # Half the sets are the classic colours, half any colours at all: a reader must not learn that red
    # pips mean a 1 or a 4, or that a die is white, red, green, blue, black or yellow.
    swirl: Colour | None = None
    swirl_seed = 0
    if rng.random() < 0.5:
        classic_body, pip = _CLASSIC[int(rng.integers(len(_CLASSIC)))]
        jitter = rng.uniform(-15, 15, 3)
        b, g, r = (float(np.clip(c + j, 0, 255)) for c, j in zip(classic_body, jitter))
        body = (b, g, r)
    else:
        body, pip = _any_colours(rng)
        if rng.random() < 0.35:  # marbled acrylic: a second body colour in veins
            swirl = _random_colour(rng, 0.05, 0.95)
            swirl_seed = int(rng.integers(2**31))
            # Pips stand out from both body colours.
            if not pips_stand_out(pip, swirl):
                swirl = None
    return DieStyle(body, pip, None, float(rng.uniform(0.08, 0.22)), float(rng.uniform(0.1, 0.5)),
                    pip_scale=float(rng.uniform(0.8, 1.2)), swirl=swirl, swirl_seed=swirl_seed)


@dataclass(frozen=True)
class DiePose:
    center: np.ndarray  # (3,) world mm
    rotation: np.ndarray  # (3, 3) die frame -> world
    size: float  # side, mm
    in_bowl: bool
    cocked: bool

    @property
    def top(self) -> int:
        return top_face(self.rotation)

    def world(self, local: np.ndarray) -> np.ndarray:
        """Die-frame points (..., 3) in units of the half side -> world mm."""
        return self.center + (local * (self.size / 2)) @ self.rotation.T

    def footprint(self, corner: float) -> np.ndarray:
        """Points whose convex hull is the rounded cube (corner: rounding radius as a share of the side)."""
        inner = 1 - 2 * corner
        pts = (_CUBE[:, None, :] * inner + _SPHERE[None] * 2 * corner).reshape(-1, 3)
        return self.world(pts)


def _px(points: np.ndarray) -> np.ndarray:
    return np.round(points * (1 << _SHAPE)).astype(np.int32)


def fill(img: np.ndarray, poly: np.ndarray, color: tuple[float, ...] | float) -> None:
    """Anti-aliased sub-pixel fill of one (n, 2) polygon."""
    cv2.fillPoly(img, [_px(poly)], color, cv2.LINE_AA, _SHAPE)


@dataclass(frozen=True)
class MarbleField:
    """Smooth veins over a die's box: 0 where the body colour shows, 1 where the swirl colour does."""

    origin: tuple[int, int]
    weight: np.ndarray  # (h, w) float32 0..1


def _marble_field(outline: np.ndarray, rng: np.random.Generator) -> MarbleField:
    """`rng`: the die's own stream, so marbling does not shift the rest of the scene."""
    x0, y0 = np.floor(outline.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(outline.max(axis=0)).astype(int) + 2
    w, h = max(2, int(x1 - x0)), max(2, int(y1 - y0))
    coarse = rng.normal(0, 1, (4, 4)).astype(np.float32)
    noise = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)
    veins = 0.5 + 0.5 * np.sin(noise * rng.uniform(2.5, 5.0) + rng.uniform(0, 2 * np.pi))
    return MarbleField(origin=(int(x0), int(y0)), weight=veins.astype(np.float32))


def fill_marbled(img: np.ndarray, poly: np.ndarray, shade: np.ndarray, swirl: np.ndarray, marble: MarbleField) -> None:
    """Fill one polygon with the body shade and the swirl shade mixed by the die's marble field."""
    x0, y0 = marble.origin
    h, w = marble.weight.shape
    H, W = img.shape[:2]
    cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(W, x0 + w), min(H, y0 + h)
    if cx0 >= cx1 or cy0 >= cy1:
        return
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [_px(poly - np.array([x0, y0]))], 255, cv2.LINE_AA, _SHAPE)
    sub = (slice(cy0 - y0, cy1 - y0), slice(cx0 - x0, cx1 - x0))
    alpha = (mask[sub].astype(np.float32) / 255)[..., None]
    k = marble.weight[sub][..., None]
    colour = shade[None, None] * (1 - k) + swirl[None, None] * k
    region = img[cy0:cy1, cx0:cx1].astype(np.float32)
    img[cy0:cy1, cx0:cx1] = np.clip(region * (1 - alpha) + colour * alpha + 0.5, 0, 255).astype(img.dtype)


def fill_ids(ids: np.ndarray, poly: np.ndarray, value: int) -> None:
    cv2.fillPoly(ids, [_px(poly)], value, cv2.LINE_8, _SHAPE)


def _rounded_square(half: float, radius: float, n: int = 4) -> np.ndarray:
    """(4n, 2) outline of a square with rounded corners in face coordinates."""
    pts = []
    c = half - radius
    for k, (sx, sy) in enumerate(((1, 1), (-1, 1), (-1, -1), (1, -1))):
        a0 = k * np.pi / 2
        for a in np.linspace(a0, a0 + np.pi / 2, n):
            pts.append((sx * c + radius * np.cos(a), sy * c + radius * np.sin(a)))
    return np.array(pts)


def face_points(pose: DiePose, face: int, uv: np.ndarray, lift: float = 1.0) -> np.ndarray:
    """World points of face coordinates (n, 2) on `face`, `lift` half sides from the centre."""
    n, u, v = FACE_AXES[face]
    local = n * lift + uv[:, :1] * u + uv[:, 1:2] * v
    return pose.world(local)


def die_silhouette(camera: Camera, pose: DiePose, style: DieStyle) -> np.ndarray:
    hull = camera.project(pose.footprint(style.corner)).astype(np.float32)
    return cv2.convexHull(hull).reshape(-1, 2).astype(np.float64)


def draw_die(img: np.ndarray, ids: np.ndarray, die_id: int, camera: Camera, pose: DiePose, style: DieStyle,
             lighting: Lighting, shadow: np.ndarray) -> DieLabel:
    """Draw the die onto `img` (BGR uint8) and `ids`, and return its label (top face, box, pips)."""
    body = np.array(style.body)
    outline = die_silhouette(camera, pose, style)
    shades: dict[int, np.ndarray] = {}
    for face, (n, _, _) in FACE_AXES.items():
        nw = pose.rotation @ n
        face_centre = pose.center + nw * pose.size / 2
        if float(np.dot(nw, camera.position - face_centre)) <= 0:
            continue
        light = lighting.diffuse(nw[None], face_centre[None], shadow[None])[0]
        glare = lighting.specular(nw[None], face_centre[None], camera.position, 25.0, shadow[None])[0] * style.gloss * 255
        shades[face] = np.clip(body * light + glare, 0, 255)
    edge = np.mean(list(shades.values()), axis=0) * 0.72
    fill(img, outline, tuple(edge.tolist()))
    fill_ids(ids, outline, die_id)
    square = _rounded_square(1.0 - 0.25 * style.corner, 1.6 * style.corner + 0.05)
    marble = None if style.swirl is None else _marble_field(outline, np.random.default_rng([style.swirl_seed, die_id]))
    for face, shade in shades.items():
        light = shade / np.maximum(body, 1)  # the light this face gets, to shade its paint alike
        poly = camera.project(face_points(pose, face, square))
        if marble is None:
            fill(img, poly, tuple(shade.tolist()))
        else:
            fill_marbled(img, poly, shade, np.clip(np.array(style.swirl) * light, 0, 255), marble)
        centres = np.array(PIP_LAYOUT[face])
        rings = (centres[:, None, :] + _CIRCLE[None] * style.pip_radius(face)).reshape(-1, 2)
        polys = camera.project(face_points(pose, face, rings)).reshape(len(centres), len(_CIRCLE), 2)
        color = np.clip(np.array(style.pip_color(face)) * np.minimum(light, 1.15), 0, 255)
        cv2.fillPoly(img, [_px(p) for p in polys], tuple(color.tolist()), cv2.LINE_AA, _SHAPE)
    top = pose.top
    full = camera.project(face_points(pose, top, _rounded_square(1.0, 0.2)))
    red = style.pips_red(top)
    pips = tuple(PipLabel(center=(float(x), float(y)), red=red)
                 for x, y in camera.project(face_points(pose, top, np.array(PIP_LAYOUT[top]))))
    centre = camera.project(face_points(pose, top, np.zeros((1, 2))))[0]
    x0, y0 = full.min(axis=0)
    x1, y1 = full.max(axis=0)
    return DieLabel(face=top, box=(float(x0), float(y0), float(x1), float(y1)),
                    center_xy=(float(centre[0]), float(centre[1])), in_bowl=pose.in_bowl, cocked=pose.cocked,
                    pips=pips)
