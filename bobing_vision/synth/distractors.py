"""Things at a real Bobing table that are not dice: coins and crumbs under them, chopsticks and a hand
over them. Overlays never hide a die's top face, so every label stays true."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from bobing_vision.synth.bowl import BowlShape
from bobing_vision.synth.camera import Camera
from bobing_vision.synth.dice import fill
from bobing_vision.synth.lighting import Lighting

SKIN = ((140, 165, 205), (115, 140, 180), (85, 105, 140), (160, 180, 215))  # BGR skin tones
SLEEVE = ((40, 40, 40), (130, 80, 40), (200, 200, 200), (40, 40, 140), (90, 110, 120))  # BGR shirt colours
CHOPSTICK = ((80, 160, 200), (30, 50, 80), (30, 30, 150), (25, 25, 25), (200, 210, 220))  # bamboo, wood, red, black, ivory
COIN = ((60, 150, 200), (50, 100, 170), (190, 190, 195))  # brass, copper, silver
CRUMB = ((80, 150, 210), (60, 110, 160), (130, 190, 230), (40, 70, 110))  # mooncake crusts and filling


def _disc(centre: np.ndarray, radius: float, n: int = 24) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return centre + radius * np.stack([np.cos(a), np.sin(a), np.zeros(n)], axis=1)


def _lit(color: tuple[float, float, float], lighting: Lighting, point: np.ndarray) -> tuple[float, ...]:
    light = lighting.diffuse(np.array([[0.0, 0.0, 1.0]]), point[None])[0]
    return tuple(float(v) for v in np.clip(np.array(color) * light, 0, 255))


def _table_point(rng: np.random.Generator, camera: Camera, shape: BowlShape, clear: float) -> np.ndarray | None:
    for _ in range(20):
        px = np.array([[rng.uniform(0, camera.width), rng.uniform(0, camera.height)]])
        p = camera.to_plane(px, 0.0)[0]
        if np.linalg.norm(p[:2]) > shape.outer_rim + clear:
            return p
    return None


def _floor_point(rng: np.random.Generator, camera: Camera, shape: BowlShape) -> np.ndarray | None:
    for _ in range(20):
        # Near the floor, never past the wall's lower part (a wide floor reaches almost to the rim).
        r, a = min(shape.floor_r * 1.4, 0.9 * shape.rim) * np.sqrt(rng.random()), rng.uniform(0, 2 * np.pi)
        xy = r * np.array([np.cos(a), np.sin(a)])
        p = np.array([xy[0], xy[1], float(shape.inner_z(np.array(r))) + 0.3])
        if shape.in_opening(camera, p[None], 2.0).all():
            return p
    return None


Coin = tuple[float, float, float]  # centre x, y and diameter, in image pixels


def draw_underlays(rng: np.random.Generator, img8: np.ndarray, camera: Camera, shape: BowlShape,
                   lighting: Lighting, floor_free: Callable[[np.ndarray], bool]) -> tuple[list[str], list[Coin]]:
    """Coins and crumbs on the table and the bowl's floor, drawn before the dice (who may cover them):
    what was drawn, and where each coin lies (to count how often a reader takes a coin for a die).
    `floor_free(points)` says whether a spot on the floor is clear of the dice."""
    names: list[str] = []
    coins: list[Coin] = []
    if rng.random() < 0.25:
        for _ in range(int(rng.integers(1, 4))):
            p = _table_point(rng, camera, shape, 15) if rng.random() < 0.7 else _floor_point(rng, camera, shape)
            radius = rng.uniform(9, 14)
            if p is None or not floor_free(_disc(p, radius + 1)):
                continue
            col = COIN[int(rng.integers(len(COIN)))]
            outline = camera.project(_disc(p, radius))
            fill(img8, outline, _lit(tuple(c * 0.75 for c in col), lighting, p))  # type: ignore[arg-type]
            fill(img8, camera.project(_disc(p, radius * 0.85)), _lit(col, lighting, p))
            hole = radius * 0.25  # a cash coin's square hole, or a stamped mark
            sq = p + np.array([[-hole, -hole, 0], [hole, -hole, 0], [hole, hole, 0], [-hole, hole, 0]])
            fill(img8, camera.project(sq), _lit(tuple(c * 0.45 for c in col), lighting, p))  # type: ignore[arg-type]
            names.append("coin")
            centre = outline.mean(axis=0)
            coins.append((float(centre[0]), float(centre[1]), 2 * float(np.hypot(*(outline - centre).T).mean())))
    if rng.random() < 0.35:
        for _ in range(int(rng.integers(3, 25))):
            p = _table_point(rng, camera, shape, 3) if rng.random() < 0.6 else _floor_point(rng, camera, shape)
            if p is None:
                continue
            size = rng.uniform(0.6, 3.0)
            k = int(rng.integers(5, 8))
            a = np.sort(rng.uniform(0, 2 * np.pi, k))
            r = size * rng.uniform(0.5, 1.0, k)
            blob = p + np.stack([r * np.cos(a), r * np.sin(a), np.zeros(k)], axis=1)
            if not floor_free(blob):
                continue
            fill(img8, camera.project(blob), _lit(CRUMB[int(rng.integers(len(CRUMB)))], lighting, p))
        names.append("crumbs")
    return names, coins


def _capsule(a: np.ndarray, b: np.ndarray, ra: float, rb: float, n: int = 8) -> np.ndarray:
    """2-D outline of a tapered stroke from a (radius ra) to b (radius rb)."""
    d = b - a
    ang = np.arctan2(d[1], d[0])
    left = [a + ra * np.array([np.cos(t), np.sin(t)]) for t in np.linspace(ang + np.pi / 2, ang + 3 * np.pi / 2, n)]
    right = [b + rb * np.array([np.cos(t), np.sin(t)]) for t in np.linspace(ang - np.pi / 2, ang + np.pi / 2, n)]
    return np.array(left + right)


@dataclass(frozen=True)
class Hand:
    """An arm reaching in from outside the frame; `reach` 0..1 slides it in along its line."""

    start: np.ndarray  # pixel where the arm enters (outside the frame)
    end: np.ndarray  # pixel of the wrist when fully in
    radius: float  # arm radius, pixels
    color: tuple[float, float, float]  # lit skin, BGR
    sleeve: tuple[float, float, float]  # lit sleeve, BGR
    fingers: tuple[tuple[float, float], ...]  # per finger: bend (radians) and length share


def sample_hand(rng: np.random.Generator, camera: Camera, shape: BowlShape, lighting: Lighting,
                into_bowl: bool) -> Hand:
    w, h = camera.width, camera.height
    z = shape.height + rng.uniform(30, 90)  # the hand hovers above the rim
    scale = camera.focal / float(camera.depth(np.array([[0, 0, z]]))[0])  # pixels per mm at that height
    t = rng.uniform(0.2, 0.8)
    start = [np.array([t * w, -60.0]), np.array([w + 60.0, t * h]), np.array([t * w, h + 60.0]),
             np.array([-60.0, t * h])][int(rng.integers(4))]
    if into_bowl:
        centre = camera.project(np.array([[0, 0, shape.height]]))[0]
        end = centre + rng.uniform(-0.3, 0.3, 2) * shape.rim * scale
    else:
        end = start + (np.array([w / 2, h / 2]) - start) * rng.uniform(0.2, 0.45)
    skin = np.array(SKIN[int(rng.integers(len(SKIN)))], np.float64)
    light = lighting.diffuse(np.array([[0.0, 0.0, 1.0]]), np.array([[0.0, 0.0, z]]))[0]
    color = tuple(float(v) for v in np.clip(skin * light * 1.1, 0, 255))
    cloth = np.array(SLEEVE[int(rng.integers(len(SLEEVE)))], np.float64)
    sleeve = tuple(float(v) for v in np.clip(cloth * light, 0, 255))
    fingers = tuple((float(rng.uniform(-0.6, 0.6)), float(rng.uniform(1.6, 2.1))) for _ in range(5))
    return Hand(start, end, float(rng.uniform(28, 36) * scale), color, sleeve, fingers)  # type: ignore[arg-type]


def _round(layer: np.ndarray, a: np.ndarray, b: np.ndarray, ra: float, rb: float,
           color: tuple[float, ...]) -> None:
    """A limb from a to b, darker at its sides than along its lit ridge."""
    for share, tone in ((1.0, 0.72), (0.75, 0.85), (0.5, 0.95), (0.25, 1.02)):
        fill(layer, _capsule(a, b, ra * share, rb * share), tuple(min(255.0, c * tone) for c in color))


def draw_hand(layer: np.ndarray, alpha: np.ndarray, hand: Hand, reach: float = 1.0) -> None:
    """Sleeve, forearm, palm and fingers onto a colour layer and its mask."""
    wrist = hand.start + (hand.end - hand.start) * reach
    r = hand.radius
    skin = hand.color
    direction = (hand.end - hand.start) / max(float(np.linalg.norm(hand.end - hand.start)), 1e-6)
    side = np.array([-direction[1], direction[0]])
    cuff = wrist - direction * r * _sleeve_gap(hand)
    _round(layer, hand.start, wrist, r, r * 0.75, skin)
    _round(layer, hand.start - direction * r, cuff, r * 1.3, r * 1.25, hand.sleeve)
    fill(alpha, _capsule(hand.start - direction * r, wrist, r * 1.3, r * 0.75), 255)
    palm_end = wrist + direction * r * 2.0
    for k, (bend, share) in enumerate(hand.fingers):
        if k == 0:  # the thumb, off to one side
            root = wrist + direction * r * 0.9 + side * r * 0.8
            way = direction * np.cos(0.9 + bend * 0.3) + side * np.sin(0.9 + bend * 0.3)
            length, width = r * 1.6, r * 0.3
        else:
            root = palm_end + side * (k - 2.5) * r * 0.5
            way = direction * np.cos(bend * 0.3) + side * np.sin(bend * 0.3)
            length, width = r * share * (0.8 if k == 4 else 1.05), r * 0.22
        tip = root + way * length
        _round(layer, root, tip, width, width * 0.85, skin)
        fill(alpha, _capsule(root, tip, width, width * 0.85), 255)
    _round(layer, wrist, palm_end, r * 0.9, r * 1.05, skin)
    fill(alpha, _capsule(wrist, palm_end, r * 0.9, r * 1.05), 255)


def _sleeve_gap(hand: Hand) -> float:
    """How far back from the wrist the sleeve ends, in arm radii (fixed per hand, no randomness here)."""
    return 2.0 + 2.0 * abs(hand.fingers[0][0])


def composite(img8: np.ndarray, layer: np.ndarray, alpha: np.ndarray, sigma: float) -> None:
    """Lay `layer` over `img8` where `alpha` says, its edges softened by `sigma` pixels."""
    if sigma > 0:
        layer = cv2.GaussianBlur(layer, (0, 0), sigma)
        alpha = cv2.GaussianBlur(alpha, (0, 0), sigma)
    a3 = cv2.cvtColor(alpha.astype(np.float32) * (1 / 255), cv2.COLOR_GRAY2BGR)
    img8[:] = cv2.convertScaleAbs(img8.astype(np.float32) * (1 - a3) + layer.astype(np.float32) * a3)


def _chopsticks_layer(rng: np.random.Generator, camera: Camera, shape: BowlShape, lighting: Lighting,
                      layer: np.ndarray, alpha: np.ndarray) -> None:
    """A pair of chopsticks lying on the table, or resting across the rim."""
    col = np.array(CHOPSTICK[int(rng.integers(len(CHOPSTICK)))], np.float64)
    across = rng.random() < 0.4
    ang = rng.uniform(0, np.pi)
    d = np.array([np.cos(ang), np.sin(ang), 0.0])
    half_len = 115.0  # 23 cm chopsticks
    if across:
        # resting on the rim: long enough to span the bowl where they cross it
        half_len = max(half_len, shape.outer_rim + 25)
        centre = np.array([*(rng.uniform(-0.3, 0.3, 2) * shape.rim), shape.height + 3])
    else:
        p = None
        for _ in range(20):
            p = camera.to_plane(np.array([[rng.uniform(0, camera.width), rng.uniform(0, camera.height)]]), 0.0)[0]
            if np.linalg.norm(p[:2]) > shape.outer_rim + 60:
                break
        if p is None:
            return
        centre = p + np.array([0, 0, 3.0])
    side = np.array([-d[1], d[0], 0.0])
    light = lighting.diffuse(np.array([[0.0, 0.0, 1.0]]), centre[None])[0]
    for k in (-1, 1):
        c = centre + side * k * rng.uniform(6, 14)
        a, b = c - d * half_len, c + d * half_len
        pa, pb = camera.project(np.stack([a, b]))
        scale = camera.focal / float(camera.depth(c[None])[0])
        outline = _capsule(pa, pb, 3.5 * scale, 2.0 * scale, 4)
        fill(layer, outline, tuple(float(v) for v in np.clip(col * light * 0.8, 0, 255)))
        fill(layer, _capsule(pa, pb, 1.2 * scale, 0.7 * scale, 4), tuple(float(v) for v in np.clip(col * light * 1.1, 0, 255)))
        fill(alpha, outline, 255)


def draw_overlays(rng: np.random.Generator, img8: np.ndarray, camera: Camera, shape: BowlShape,
                  lighting: Lighting, dice_ids: np.ndarray, hand_p: float = 0.1) -> list[str]:
    """Chopsticks and a hand over the picture, each kept only if it hides no die."""
    names: list[str] = []
    taken = cv2.dilate((dice_ids > 0).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    for name, p in (("chopsticks", 0.15), ("hand", hand_p)):
        if rng.random() >= p:
            continue
        layer = np.zeros_like(img8)
        alpha = np.zeros(img8.shape[:2], np.uint8)
        if name == "hand":
            draw_hand(layer, alpha, sample_hand(rng, camera, shape, lighting, rng.random() < 0.3))
        else:
            _chopsticks_layer(rng, camera, shape, lighting, layer, alpha)
        if (taken & (alpha > 0)).any():
            continue
        composite(img8, layer, alpha, 2.5 if name == "hand" else 0.6)  # near the lens: soft edges
        names.append(name)
    return names
