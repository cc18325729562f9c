"""Dice moved to new ground for the locator: a die with a sliver of what it lies on, cut from one scene
and pasted, turned and resized, onto another scene where no die lies, and labelled there.

Why: a locator trained only on generated bowls learns where dice lie as well as how they look. On the
second renderer's bowls (`bench/raytraced_bowls.py`), dice near the wall drew locator heat of 0.1-0.4
and went unfound; pasted with their ground out to 1.2 face sides into the bowl's middle, the same dice
drew 0.5-0.9, and less again as more of the wall came with them (models/HISTORY.md, "dice moved to
new ground"). A die on new ground teaches that a die is a die wherever it lies. A run with half the
locator's samples so made found those dice (missed 43 -> 23 over three sets) but took more coins and
clutter outside the bowl for dice: more wrong verdicts. Moved only inside the rim, with mined false dice
moved unlabelled beside them, it found more dice again (missed 836 -> 767 over 77 sets) and made no false
voids, but took more things in the bowl for dice: more throws refused, fewer right awards. The committed
recipe moves none.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from bobing_vision.training.scenes import UNREADABLE, DieTarget, Scene
from bobing_vision.vision.reading import Bowl


@dataclass(frozen=True)
class PasteConfig:
    """How dice are moved; `share` 0 moves none (the recipes before it)."""

    share: float = 0.0  # the share of locator samples whose scene gets dice from another scene
    most: int = 3  # up to this many dice moved onto one scene
    # The patch's radius in face sides: the top face's corners lie at 0.71, its sides and some shadow
    # beyond; it is opaque out to `solid` of the radius and fades to the new ground from there.
    reach: float = 1.0
    solid: float = 0.75
    # The moved die's face side against the scene's own dice' median side (its own side on a scene
    # without dice): dice of one throw are one size, and the locator is trained on all sizes by scale.
    resize: tuple[float, float] = (0.8, 1.25)
    # ...yet never grown or shrunk past this factor: a die blown up 2.5 times is a blur no camera makes.
    most_scaled: float = 1.5
    # The patch is shifted in each channel by up to this much so that its edge matches the new ground's:
    # a ring of other ground round every moved die would be a cue no unmoved die has.
    match_ground: float = 40.0
    tries: int = 20  # places drawn for each die before giving it up
    # Moved only inside the scene's rim, where it has one (within this share of its radii; None:
    # anywhere): dice moved onto the table taught the locator that clutter there is dice.
    inside_rim: float | None = None
    # Up to this many of the donor's mined false dice (`Scene.negatives`) moved the same way, unlabelled:
    # the patch's faded edge is then no sign of a die.
    negatives: int = 0


def movable(scene: Scene, cfg: PasteConfig) -> list[DieTarget]:
    """The scene's dice whose patch holds no part of another die: a neighbour's half would be
    pasted unlabelled."""
    return [d for d in scene.dice if _clear(d, scene, cfg)]


def _clear(spot: DieTarget, scene: Scene, cfg: PasteConfig) -> bool:
    """Whether `spot`'s patch holds no part of a die of `scene` other than itself."""
    return all(math.dist(spot.center, o.center) > cfg.reach * spot.size + 0.6 * o.size
               for o in scene.dice if o is not spot)


def false_dice(scene: Scene, side: float, cfg: PasteConfig) -> list[DieTarget]:
    """The scene's mined false dice as spots `side` wide whose patch holds no part of a die."""
    spots = (DieTarget(center=(float(x), float(y)), size=side, face=UNREADABLE, pips=None)
             for x, y in scene.negatives)
    return [spot for spot in spots if _clear(spot, scene, cfg)]


def _free_spot(rng: np.random.Generator, shape: tuple[int, ...], radius: float, taken: list[DieTarget],
               rim: Bowl | None, cfg: PasteConfig) -> tuple[float, float] | None:
    """A point whose patch of `radius` lies inside the frame, clear of every spot taken and, given a
    rim, within `cfg.inside_rim` of it; or None."""
    h, w = shape[:2]
    half = math.ceil(radius) + 1  # the patch's half side in whole pixels (`_blend`), and a pixel for rounding
    if 2 * half + 2 > min(h, w):
        return None
    for _ in range(cfg.tries):
        x, y = rng.uniform(half, w - half - 1), rng.uniform(half, h - half - 1)
        if rim is not None and cfg.inside_rim is not None and rim.normalized_radius((x, y)) > cfg.inside_rim:
            continue
        if all(math.dist((x, y), d.center) > radius + cfg.reach * d.size for d in taken):
            return (x, y)
    return None


def _blend(image: np.ndarray, donor: np.ndarray, die: DieTarget, at: tuple[float, float], side: float,
           cfg: PasteConfig, rng: np.random.Generator) -> None:
    """Warp `die`'s patch from `donor` onto `image` (in place) centred at `at`, its face `side` wide."""
    radius = cfg.reach * side
    half = int(math.ceil(radius))
    x0, y0 = int(round(at[0])) - half, int(round(at[1])) - half
    k = side / die.size
    turn = rng.uniform(0, 360)
    # donor pixels -> patch pixels: about the die's centre, turned and scaled, the centre to `at`
    m = cv2.getRotationMatrix2D(die.center, turn, k)
    m[:, 2] += np.array(at) - np.array(die.center) - (x0, y0)
    patch = cv2.warpAffine(donor, m, (2 * half + 1, 2 * half + 1), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REFLECT)
    yy, xx = np.mgrid[0 : 2 * half + 1, 0 : 2 * half + 1].astype(np.float32)
    r = np.hypot(xx + x0 - at[0], yy + y0 - at[1]) / radius
    alpha = np.clip((1.0 - r) / (1.0 - cfg.solid), 0.0, 1.0)[..., None]
    ground = image[y0 : y0 + 2 * half + 1, x0 : x0 + 2 * half + 1].astype(np.float32)
    edge = (r > cfg.solid) & (r <= 1.0)  # the fading ring: donor ground there meets the new ground
    shift = np.clip(ground[edge].mean(axis=0) - patch[edge].mean(axis=0), -cfg.match_ground, cfg.match_ground)
    mixed = alpha * (patch.astype(np.float32) + shift) + (1.0 - alpha) * ground
    image[y0 : y0 + 2 * half + 1, x0 : x0 + 2 * half + 1] = np.clip(mixed + 0.5, 0, 255).astype(np.uint8)


def paste_dice(scene: Scene, donor: Scene, rng: np.random.Generator, cfg: PasteConfig) -> Scene:
    """`scene` with up to `cfg.most` of `donor`'s dice pasted where no die lies, labelled with their face
    and size there, and up to `cfg.negatives` of its false dice, unlabelled. Pips are not carried: the
    locator, the only user, learns centres and sizes."""
    candidates = movable(donor, cfg)
    if not candidates:
        return scene
    moves = [(candidates[int(i)], True) for i in rng.permutation(len(candidates))[: int(rng.integers(1, cfg.most + 1))]]
    if cfg.negatives:
        false = false_dice(donor, float(np.median([d.size for d in donor.dice])), cfg)
        moves += [(false[int(i)], False) for i in rng.permutation(len(false))[: cfg.negatives]]
    typical = float(np.median([d.size for d in scene.dice])) if scene.dice else None  # the scene's dice' side
    rim = None if scene.bowl is None else Bowl(*scene.bowl)
    image = scene.image.copy()
    dice = list(scene.dice)
    taken = list(scene.dice)
    for spot, is_die in moves:
        side = (spot.size if typical is None else typical) * rng.uniform(*cfg.resize)
        side = float(np.clip(side, spot.size / cfg.most_scaled, spot.size * cfg.most_scaled))
        at = _free_spot(rng, image.shape, cfg.reach * side, taken, rim, cfg)
        if at is None:
            continue
        _blend(image, donor.image, spot, at, side, cfg, rng)
        moved = DieTarget(center=at, size=side, face=spot.face, pips=None)
        taken.append(moved)
        if is_die:
            dice.append(moved)
    return replace(scene, image=image, dice=tuple(dice))
