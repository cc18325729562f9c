"""Dice moved onto new ground for the locator (training/paste.py)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from bobing_vision.training.augment import AugmentConfig
from bobing_vision.training.paste import PasteConfig, movable, paste_dice
from bobing_vision.training.samples import SampleConfig, locator_batch
from bobing_vision.training.scenes import DieTarget, Scene
from bobing_vision.vision.reading import Bowl

ALWAYS = PasteConfig(share=1.0, most=1, resize=(1.0, 1.0))


def dice_on(ground: tuple[int, int, int], centres: list[tuple[int, int]], side: int = 30) -> Scene:
    """White square dice with one black pip each on a flat ground."""
    image = np.zeros((240, 320, 3), np.uint8)
    image[:] = ground
    dice = []
    for x, y in centres:
        image[y - side // 2 : y + side // 2, x - side // 2 : x + side // 2] = 235
        image[y - 3 : y + 3, x - 3 : x + 3] = 15
        dice.append(DieTarget(center=(x, y), size=float(side), face=1, pips=None))
    return Scene(image=image, dice=tuple(dice), source="test")


def test_a_moved_die_shows_the_donors_die_where_it_is_labelled() -> None:
    target = dice_on((170, 60, 40), [(60, 60)])  # a blue ground, one die of its own
    donor = dice_on((90, 90, 90), [(200, 120)])
    for seed in range(5):
        moved = paste_dice(target, donor, np.random.default_rng(seed), ALWAYS)
        assert moved.dice[0] == target.dice[0]
        [new] = moved.dice[1:]
        x, y = (int(round(v)) for v in new.center)
        assert new.face == 1 and new.size == 30.0
        # the pip at the labelled centre, white face round it, where the ground was blue before
        assert moved.image[y, x].max() < 60 and target.image[y, x].tolist() == [170, 60, 40]
        face = moved.image[y - 10 : y + 11, x - 10 : x + 11].reshape(-1, 3)
        assert np.median(face, axis=0).mean() > 200  # white, tinted by at most the ground match
        # clear of the scene's own die, whose pixels are untouched
        assert np.hypot(x - 60, y - 60) > 2 * 30
        assert np.array_equal(moved.image[45:75, 45:75], target.image[45:75, 45:75])
    assert target.dice == (target.dice[0],)  # the scene given is left as it was


def test_the_patch_fades_into_the_new_ground_with_its_colour_matched() -> None:
    target = dice_on((150, 150, 150), [])
    donor = dice_on((110, 110, 110), [(160, 120)])
    moved = paste_dice(target, donor, np.random.default_rng(0), ALWAYS)
    [new] = moved.dice
    x, y = (int(round(v)) for v in new.center)
    # just inside the patch's edge (0.9 of its radius): the donor's ground, shifted to the new ground's
    ring = moved.image[y, x + 27]
    assert abs(int(ring[0]) - 150) <= 3
    # beyond it the new ground alone
    assert moved.image[y, x + 40].tolist() == [150, 150, 150]


def test_dice_too_close_to_another_are_never_moved() -> None:
    donor = dice_on((90, 90, 90), [(100, 100), (130, 100), (250, 180)])  # two touching, one apart
    assert [d.center for d in movable(donor, ALWAYS)] == [(250, 180)]
    crowded = dice_on((90, 90, 90), [(100, 100), (130, 100)])
    target = dice_on((170, 60, 40), [])
    assert paste_dice(target, crowded, np.random.default_rng(0), ALWAYS) is target


def test_a_full_frame_takes_no_die() -> None:
    target = dice_on((170, 60, 40), [(x, y) for x in range(40, 320, 60) for y in range(40, 240, 60)])
    donor = dice_on((90, 90, 90), [(160, 120)])
    moved = paste_dice(target, donor, np.random.default_rng(0), ALWAYS)
    assert moved.dice == target.dice and np.array_equal(moved.image, target.image)


def test_the_locator_is_taught_the_moved_dice_and_none_without_a_share() -> None:
    no_aug = AugmentConfig(gain_sigma=0.0, brightness_sigma=0.0, contrast_range=(1.0, 1.0), gamma_sigma=0.0,
                           desaturate_p=0.0, blur_p=0.0, noise_p=0.0, jpeg_p=0.0, channel_swap_p=0.0)
    empty = Scene(image=np.full((240, 320, 3), 60, np.uint8), dice=(), source="test")
    donor = dice_on((90, 90, 90), [(160, 120)])
    taught = []
    for share in (0.0, 1.0):
        with_share = SampleConfig(patch=96, paste=PasteConfig(share=share))
        _, heat, _ = locator_batch([empty, donor], 64, np.random.default_rng(1), with_share, no_aug)
        taught.append(int((heat == 1.0).sum()))
    assert SampleConfig().paste.share == 0.0  # the default moves none
    # without a share only the donor's own die is taught; with one, dice moved onto the empty table too
    assert taught[0] > 8 and taught[1] >= taught[0] + 8


def test_dice_moved_anywhere_in_frames_of_any_size_stay_whole_in_view() -> None:
    rng = np.random.default_rng(7)
    cfg = PasteConfig(share=1.0)
    for _ in range(300):
        h, w = (int(v) for v in rng.integers(40, 200, 2))
        side = float(rng.uniform(6, 30))
        target = Scene(image=np.full((h, w, 3), 60, np.uint8), dice=(), source="test")
        donor = dice_on((90, 90, 90), [(160, 120)], side=int(side) // 2 * 2)
        moved = paste_dice(target, donor, rng, cfg)  # a patch past the frame's edge raised here once
        for die in moved.dice:
            reach = cfg.reach * die.size
            assert reach <= die.center[0] <= w - reach and reach <= die.center[1] <= h - reach


def test_dice_moved_inside_the_rim_land_within_it_and_false_dice_move_unlabelled() -> None:
    rim = (160.0, 120.0, 150.0, 110.0, 0.0)  # cx, cy, rx, ry, angle: a bowl filling the frame
    target = replace(dice_on((170, 60, 40), []), bowl=rim)
    donor = replace(dice_on((90, 90, 90), [(60, 60)]), negatives=np.array([[250.0, 180.0]]))
    inside = PasteConfig(share=1.0, most=1, resize=(1.0, 1.0), inside_rim=0.8, negatives=1)
    for seed in range(10):
        moved = paste_dice(target, donor, np.random.default_rng(seed), inside)
        for die in moved.dice:
            assert Bowl(*rim).normalized_radius(die.center) <= 0.8
        # two patches pasted (the die and the false die), one labelled
        changed = np.any(moved.image != target.image, axis=2)
        assert len(moved.dice) == 1 and changed.sum() > 2 * 0.75 ** 2 * np.pi * 30 ** 2
