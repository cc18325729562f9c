"""One generated photo of six dice in a bowl, with its exact labels."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from bobing_vision.dataset.labels import DieLabel, ImageLabel
from bobing_vision.synth.bowl import (
    BowlShape, BowlStyle, render_bowl, rim_ellipse, sample_shape, sample_style,
)
from bobing_vision.synth.camera import Camera, look_at
from bobing_vision.synth.config import CONFIG, SceneSpec
from bobing_vision.synth.dice import DieStyle, draw_die, fill, sample_die_style
from bobing_vision.synth.effects import apply_effects, sample_effects
from bobing_vision.synth.table import render_table
from bobing_vision.synth.distractors import Coin, draw_overlays, draw_underlays
from bobing_vision.synth.geometry import polygons_overlap
from bobing_vision.synth.layout import Placed, footprint_xy, place_dice
from bobing_vision.synth.lighting import Lighting, sample_lighting
from bobing_vision.synth.noise import times_gray


@dataclass(frozen=True)
class Setup:
    """Everything about a scene that stays put while dice move: camera, bowl, table light, dice look."""

    camera: Camera
    shape: BowlShape
    style: BowlStyle
    lighting: Lighting
    die_styles: tuple[DieStyle, ...]
    die_size: float
    tilt_deg: float


def _frame_size(rng: np.random.Generator, spec: SceneSpec) -> tuple[int, int]:
    if spec.size is not None:
        return spec.size
    if rng.random() < CONFIG.default_size_p:
        return (640, 480)
    return CONFIG.common_sizes[int(rng.integers(len(CONFIG.common_sizes)))]


def sample_setup(rng: np.random.Generator, spec: SceneSpec) -> Setup:
    w, h = _frame_size(rng, spec)
    shape = sample_shape(rng, float(rng.uniform(*spec.bowl_cm)), spec.floor_share)
    style = sample_style(rng, spec.bowl_paint, spec.red_painted_p)
    hfov = np.radians(rng.uniform(*CONFIG.hfov_deg))
    focal = (w / 2) / np.tan(hfov / 2)
    tilt = 0.0 if rng.random() < 0.3 else float(rng.uniform(0, spec.max_tilt_deg))
    fill_share = rng.uniform(*(spec.bowl_fill or CONFIG.bowl_fill))
    distance = focal * 2 * shape.outer_rim / (fill_share * h) + shape.height * 0.4
    target = np.array([*(rng.uniform(-0.1, 0.1, 2) * shape.rim), shape.height * 0.5])
    camera = look_at(w, h, focal, target, distance, tilt, rng.uniform(0, 360), rng.uniform(-8, 8))
    chinese = rng.random() < spec.chinese_dice_p
    first = sample_die_style(rng, chinese, spec.marbled_p, spec.pip_colour_distance)
    # a set of dice matches; now and then one stray die from another set joins it
    styles = [first] * spec.n_dice
    if not chinese and rng.random() < 0.3:
        styles[int(rng.integers(spec.n_dice))] = sample_die_style(rng, False, spec.marbled_p, spec.pip_colour_distance)
    size = float(rng.uniform(*spec.die_mm))
    return Setup(camera, shape, style, sample_lighting(rng, shape.rim), tuple(styles), size, tilt)


def lamp_share(setup: Setup, placed: Placed) -> np.ndarray:
    """(k,) how much of each lamp reaches a die past the bowl's rim."""
    if not placed.pose.in_bowl:
        return np.ones(len(setup.lighting.directions))
    return setup.shape.lamp_visible(placed.pose.center[None], setup.lighting)[0]


def cast_shadows(img8: np.ndarray, setup: Setup, placed: list[Placed]) -> None:
    """Darken uint8 `img8` under and beside each die: a soft shadow cast away from the main lamp."""
    cam, light = setup.camera, setup.lighting
    if not placed:
        return
    main = light.main
    hulls = []
    for p in placed:
        pts = p.pose.footprint(p.style.corner)
        r = float(np.linalg.norm(p.pose.center[:2]))
        ground = float(setup.shape.inner_z(np.array(r))) if r < setup.shape.rim else 0.0
        cast = pts - main[None] * ((pts[:, 2:3] - ground) / max(main[2], 0.25))
        # the shadow itself: it meets the die where the die touches the ground, leaves it when it flies
        hulls.append(cv2.convexHull(cam.project(cast).astype(np.float32)).reshape(-1, 2).astype(np.float64))
    px_per_mm = cam.focal / float(np.linalg.norm(cam.position))
    sigma = max(0.8, setup.die_size * px_per_mm * 0.12)
    # only the patch around the dice is touched
    every = np.concatenate(hulls)
    pad = int(3 * sigma) + 2
    x0, y0 = np.maximum(np.floor(every.min(axis=0)).astype(int) - pad, 0)
    x1, y1 = np.minimum(np.ceil(every.max(axis=0)).astype(int) + pad, [cam.width, cam.height])
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for hull in hulls:
        fill(mask, hull - np.array([x0, y0]), 255)
    soft = cv2.GaussianBlur(mask, (0, 0), sigma).astype(np.float32) * (1 / 255)
    patch = img8[y0:y1, x0:x1].astype(np.float32)
    img8[y0:y1, x0:x1] = cv2.convertScaleAbs(times_gray(patch, 1 - 0.75 * light.contrast * soft))


def render_dice(img8: np.ndarray, setup: Setup, placed: list[Placed]) -> tuple[list[DieLabel], np.ndarray]:
    """Draw the dice far to near onto uint8 `img8`; labels in `placed` order, and the die-id map."""
    cam = setup.camera
    ids = np.zeros((cam.height, cam.width), np.uint8)
    labels: list[DieLabel | None] = [None] * len(placed)
    for i in sorted(range(len(placed)), key=lambda i: -float(cam.depth(placed[i].pose.center))):
        p = placed[i]
        labels[i] = draw_die(img8, ids, i + 1, cam, p.pose, p.style, setup.lighting, lamp_share(setup, p))
    return [lab for lab in labels if lab is not None], ids


def dice_over(base8: np.ndarray, setup: Setup, placed: list[Placed]) -> tuple[np.ndarray, list[DieLabel], np.ndarray]:
    """The background with the dice's shadows and the dice on it: image, labels, die-id map."""
    img8 = base8.copy()
    cast_shadows(img8, setup, placed)
    labels, ids = render_dice(img8, setup, placed)
    return img8, labels, ids


def clear_of(placed: list[Placed]) -> Callable[[np.ndarray], bool]:
    """A test of whether world points (n, 3) lie clear of every die's footprint."""
    feet = [footprint_xy(p.pose, p.style) for p in placed]

    def clear(points: np.ndarray) -> bool:
        hull = cv2.convexHull(points[:, :2].astype(np.float32)).reshape(-1, 2).astype(np.float64)
        return not any(polygons_overlap(hull, f, 1.0) for f in feet)

    return clear


def to_uint8(img: np.ndarray) -> np.ndarray:
    return np.clip(img * 255, 0, 255).astype(np.uint8)


@dataclass(frozen=True)
class Stage:
    """A scene before its dice are drawn: the lit bowl on its table, with what lies under the dice."""

    setup: Setup
    base8: np.ndarray  # BGR uint8: table, bowl, coins and crumbs
    placed: tuple[Placed, ...]  # where the dice come to rest
    table_kind: str
    things: tuple[str, ...]  # distractors drawn so far
    coins: tuple[Coin, ...]  # where they lie, under the dice


def build_stage(rng: np.random.Generator, spec: SceneSpec) -> Stage:
    setup = sample_setup(rng, spec)
    cam = setup.camera
    table, table_kind = render_table(rng, cam, setup.lighting)
    bowl = render_bowl(rng, cam, setup.shape, setup.style, setup.lighting, table)
    placed = place_dice(rng, spec, cam, setup.shape, list(setup.die_styles), setup.die_size, bowl.silhouette)
    base8 = to_uint8(bowl.image)
    things: list[str] = []
    coins: list[Coin] = []
    if spec.distractors:
        things, coins = draw_underlays(rng, base8, cam, setup.shape, setup.lighting, clear_of(placed))
    return Stage(setup, base8, tuple(placed), table_kind, tuple(things), tuple(coins))


def render_scene(rng: np.random.Generator, spec: SceneSpec | None = None) -> tuple[np.ndarray, ImageLabel]:
    """A BGR uint8 photo of dice in a bowl and its label (DATA.md, with pips); `file` is left empty."""
    spec = spec or SceneSpec()
    stage = build_stage(rng, spec)
    setup = stage.setup
    img8, dice, ids = dice_over(stage.base8, setup, list(stage.placed))
    things = list(stage.things)
    if spec.distractors:
        things += draw_overlays(rng, img8, setup.camera, setup.shape, setup.lighting, ids)
    if not spec.clean:
        img8 = apply_effects(rng, img8, sample_effects(rng))
    return img8, scene_label(setup, dice, stage.table_kind, things, stage.coins)


def scene_label(setup: Setup, dice: list[DieLabel], table_kind: str, things: list[str],
                coins: Sequence[Coin]) -> ImageLabel:
    """The DATA.md label of a scene, with what the generator chose under `synth` for analysis and
    measuring (`coins`: [x, y, diameter] in pixels: how often a reader takes a coin for a die)."""
    cam = setup.camera
    extra = {
        "width": cam.width,
        "height": cam.height,
        "synth": {
            "bowl": setup.style.kind + ("+gilt" if setup.style.gilded else ""),
            "bowl_cm": round(setup.shape.rim / 5.0, 1),
            "die_mm": round(setup.die_size, 1),
            "dice": "chinese" if setup.die_styles[0].chinese else "ordinary",
            "table": table_kind,
            "tilt_deg": round(setup.tilt_deg, 1),
            "distractors": things,
            "coins": [[round(v, 1) for v in coin] for coin in coins],
        },
    }
    return ImageLabel(file="", dice=tuple(dice), bowl=rim_ellipse(cam, setup.shape), extra=extra)
