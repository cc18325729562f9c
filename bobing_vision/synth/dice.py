"""Dice: their look (Chinese or ordinary), their pips, and drawing one die seen by the camera."""

from __future__ import annotations

from dataclasses import dataclass, field

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
class Finish:
    """How a die's surface meets the light, beyond its colours. Real dice read hardest where a flat
    render is least like them: drilled pips with a shadowed wall, a glossy face with a bright patch
    over its pips, clear or translucent acrylic showing the floor through, rounded edges that catch
    the lamp. The defaults are the plain painted cube."""

    engraved: float = 0.0  # depth of drilled pips, 0..1: how dark the wall of the hollow on the lamp's side
    glare_patch: float = 0.0  # brightness of a soft glare patch over one face, 0..1 of white
    see_through: float = 0.0  # share of the floor seen through the body, 0..1 (translucent acrylic)
    edge_gain: float = 0.72  # brightness of the rounded edges against the faces' mean


def sample_finish(rng: np.random.Generator, translucent_p: float = 0.2) -> Finish:
    """Most dice have drilled pips and some gloss; `translucent_p` of the sets are clear acrylic."""
    return Finish(engraved=float(rng.uniform(0.3, 1.0)) if rng.random() < 0.7 else 0.0,
                  glare_patch=float(rng.uniform(0.1, 0.6)) if rng.random() < 0.4 else 0.0,
                  see_through=float(rng.uniform(0.15, 0.55)) if rng.random() < translucent_p else 0.0,
                  edge_gain=float(rng.uniform(0.55, 1.1)))


@dataclass(frozen=True)
class DieStyle:
    body: Colour  # BGR
    pip: Colour  # BGR of ordinary pips
    red: Colour | None  # BGR of the 1 and 4 on Chinese dice; None: ordinary die
    corner: float  # rounding radius as a share of the side
    gloss: float  # strength of the glare on the faces
    pip_scale: float = 1.0  # makers' pips differ in size
    swirl: Colour | None = None  # BGR of a second body colour marbled through (acrylic dice)
    seed: int = 0  # each die of the set gets its own veins and glare from this and its id
    finish: Finish = field(default_factory=Finish)

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


def pips_stand_out(pip: Colour, body: Colour, min_distance: float = MIN_PIP_COLOUR_DISTANCE) -> bool:
    """Whether pips of this colour can be told from this body, by lightness or by colour (CIELAB
    `min_distance`)."""
    return (abs(luminance(body) - luminance(pip)) >= MIN_PIP_CONTRAST
            or colour_distance(pip, body) >= min_distance)


def _any_colours(rng: np.random.Generator, min_distance: float) -> tuple[Colour, Colour]:
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
        if pips_stand_out(pip, body, min_distance) and is_red(pip) == red_pips and not reddish(pip):
            return body, pip


# Of the ordinary sets in any colours, the share marbled: veins of a second body colour, which real
# marbled dice show the reader as blobs beside the pips (`SceneSpec.marbled_p`).
MARBLED_P = 0.35


def sample_die_style(rng: np.random.Generator, chinese: bool, marbled_p: float = MARBLED_P,
                     pip_colour_distance: float = MIN_PIP_COLOUR_DISTANCE) -> DieStyle:
    """A set's look; `marbled_p` of the sets in any colours are marbled (veins of a second colour), and
    their pips differ from the body by lightness or by `pip_colour_distance` in CIELAB."""
    # The finish and each die's details draw from a stream of their own: the scene's later draws (and
    # so every scene's layout and labels) stay what they were before finishes were drawn.
    own = rng.spawn(1)[0]
    seed = int(own.integers(2**31))
    if chinese:
        ivory = rng.uniform(0, 1)
        body = (225 - 45 * ivory, 238 - 18 * ivory, 240 - 5 * ivory)
        red = (rng.uniform(25, 60), rng.uniform(20, 50), rng.uniform(170, 215))
        return DieStyle(body, (25.0, 25.0, 28.0), red, float(rng.uniform(0.1, 0.2)), float(rng.uniform(0.15, 0.5)),
                        pip_scale=float(rng.uniform(0.9, 1.1)), seed=seed,
                        finish=sample_finish(own, translucent_p=0.0))  # bone or resin, never clear
    # Half the sets are the classic colours, half any colours at all: a reader must not learn that red
    # pips mean a 1 or a 4, or that a die is white, red, green, blue, black or yellow.
    swirl: Colour | None = None
    if rng.random() < 0.5:
        classic_body, pip = _CLASSIC[int(rng.integers(len(_CLASSIC)))]
        jitter = rng.uniform(-15, 15, 3)
        b, g, r = (float(np.clip(c + j, 0, 255)) for c, j in zip(classic_body, jitter))
        body = (b, g, r)
    else:
        body, pip = _any_colours(rng, pip_colour_distance)
        if rng.random() < marbled_p:  # marbled acrylic: a second body colour in veins
            swirl = _random_colour(rng, 0.05, 0.95)
            seed = int(rng.integers(2**31))
            # Pips stand out from both body colours.
            if not pips_stand_out(pip, swirl, pip_colour_distance):
                swirl = None
    return DieStyle(body, pip, None, float(rng.uniform(0.08, 0.22)), float(rng.uniform(0.1, 0.5)),
                    pip_scale=float(rng.uniform(0.8, 1.2)), swirl=swirl, seed=seed, finish=sample_finish(own))


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


Patch = tuple[slice, slice, np.ndarray]  # rows, columns, and a shape's coverage there (h, w, 1)


def _patch(img: np.ndarray, outline: np.ndarray) -> Patch | None:
    """The frame's rows and columns around `outline`, and the outline's anti-aliased coverage there."""
    H, W = img.shape[:2]
    x0, y0 = np.maximum(np.floor(outline.min(axis=0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(outline.max(axis=0)).astype(int) + 2, [W, H])
    if x1 <= x0 or y1 <= y0:
        return None
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    fill(mask, outline - np.array([x0, y0]), 255)
    return slice(y0, y1), slice(x0, x1), (mask.astype(np.float32) / 255)[..., None]


def see_through(img: np.ndarray, under: Patch, floor: np.ndarray, body: np.ndarray, share: float) -> None:
    """Mix `floor` (the pixels of `under` before the die was drawn), tinted by the body's colour and
    blurred by its depth, into the drawn body (clear or translucent acrylic)."""
    rows, cols, alpha = under
    tint = body / max(float(body.max()), 1.0)
    drawn = img[rows, cols].astype(np.float32)
    sigma = max(0.5, 0.08 * (cols.stop - cols.start))
    through = cv2.GaussianBlur(floor.astype(np.float32), (0, 0), sigma) * tint[None, None] * 1.15
    mixed = drawn * (1 - share) + through * share
    img[rows, cols] = np.clip(drawn * (1 - alpha) + mixed * alpha + 0.5, 0, 255).astype(img.dtype)


def glare_patch(img: np.ndarray, face_poly: np.ndarray, strength: float, rng: np.random.Generator) -> None:
    """A soft bright patch over part of a glossy face and its pips (a window or a lamp's reflection)."""
    patch = _patch(img, face_poly)
    if patch is None:
        return
    rows, cols, alpha = patch
    h, w = alpha.shape[:2]
    corner = face_poly.min(axis=0) - np.array([cols.start, rows.start])
    spot = corner + rng.uniform(0.1, 0.9, 2) * (face_poly.max(axis=0) - face_poly.min(axis=0))
    sigma = max(1.0, float(rng.uniform(0.2, 0.6)) * float(np.ptp(face_poly, axis=0).mean()))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    blob = np.exp(-((xx - spot[0]) ** 2 + (yy - spot[1]) ** 2) / (2 * sigma**2))[..., None]
    region = img[rows, cols].astype(np.float32)
    img[rows, cols] = np.clip(region + (255 - region) * strength * blob * alpha + 0.5, 0, 255).astype(img.dtype)


def pip_rings(pose: DiePose, face: int, radius: float, shift: np.ndarray, camera: Camera) -> list[np.ndarray]:
    """Each pip of `face` as a projected circle of `radius` (half sides), moved by `shift` in face coordinates."""
    centres = np.array(PIP_LAYOUT[face]) + shift
    rings = (centres[:, None, :] + _CIRCLE[None] * radius).reshape(-1, 2)
    polys = camera.project(face_points(pose, face, rings)).reshape(len(centres), len(_CIRCLE), 2)
    return [_px(p) for p in polys]


def towards_lamp(pose: DiePose, face: int, lighting: Lighting) -> np.ndarray:
    """(2,) the main lamp's direction along `face`, in face coordinates (zero when straight above it)."""
    _, u, v = FACE_AXES[face]
    return np.array([lighting.main @ (pose.rotation @ u), lighting.main @ (pose.rotation @ v)])


def draw_pips(img: np.ndarray, camera: Camera, pose: DiePose, style: DieStyle, face: int, shade: np.ndarray,
              lighting: Lighting) -> None:
    """Paint the pips of one face; a drilled pip first gets its hollow, whose wall on the lamp's side
    is in its own shadow and shows as a dark crescent beside the paint."""
    radius = style.pip_radius(face)
    depth = style.finish.engraved
    if depth > 0:
        wall = tuple((shade * (1 - 0.6 * depth)).tolist())
        shift = towards_lamp(pose, face, lighting) * radius * 0.35 * depth
        cv2.fillPoly(img, pip_rings(pose, face, radius * (1 + 0.15 * depth), shift, camera), wall, cv2.LINE_AA, _SHAPE)
    light = shade / np.maximum(style.body, 1)  # the light this face gets, to shade its paint alike
    color = np.clip(np.array(style.pip_color(face)) * np.minimum(light, 1.15), 0, 255)
    cv2.fillPoly(img, pip_rings(pose, face, radius, np.zeros(2), camera), tuple(color.tolist()), cv2.LINE_AA, _SHAPE)


def draw_die(img: np.ndarray, ids: np.ndarray, die_id: int, camera: Camera, pose: DiePose, style: DieStyle,
             lighting: Lighting, shadow: np.ndarray) -> DieLabel:
    """Draw the die onto `img` (BGR uint8) and `ids`, and return its label (top face, box, pips)."""
    body = np.array(style.body)
    finish = style.finish
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
    under = _patch(img, outline) if finish.see_through > 0 else None
    floor = None if under is None else img[under[0], under[1]].copy()  # what the body will let through
    edge = np.clip(np.mean(list(shades.values()), axis=0) * finish.edge_gain, 0, 255)
    fill(img, outline, tuple(edge.tolist()))
    fill_ids(ids, outline, die_id)
    square = _rounded_square(1.0 - 0.25 * style.corner, 1.6 * style.corner + 0.05)
    rng = np.random.default_rng([style.seed, die_id])
    marble = None if style.swirl is None else _marble_field(outline, rng)
    polys = {face: camera.project(face_points(pose, face, square)) for face in shades}
    for face, shade in shades.items():
        if marble is None:
            fill(img, polys[face], tuple(shade.tolist()))
        else:
            light = shade / np.maximum(body, 1)
            fill_marbled(img, polys[face], shade, np.clip(np.array(style.swirl) * light, 0, 255), marble)
    if under is not None and floor is not None:
        see_through(img, under, floor, body, finish.see_through)
    for face, shade in shades.items():
        draw_pips(img, camera, pose, style, face, shade, lighting)
    if finish.glare_patch > 0:
        lit = max(shades, key=lambda f: float(shades[f].sum()))  # the face turned most to the lamps
        glare_patch(img, polys[lit], finish.glare_patch, rng)
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
