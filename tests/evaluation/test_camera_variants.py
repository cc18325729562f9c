"""A labelled set seen by another camera (`bench/camera_variants.py`): the labels move with the pixels."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np
import pytest

from bobing_vision.dataset.labels import DieLabel, ImageLabel, PipLabel, load_labels, parse_image, save_labels
from bobing_vision.vision.bowl import rim_error
from bobing_vision.vision.reading import Bowl


@pytest.fixture
def variants(bench_script: Callable[[str], ModuleType]) -> ModuleType:
    return bench_script("camera_variants")


def label() -> ImageLabel:
    return ImageLabel(
        file="scene.png",
        dice=(DieLabel(face=1, box=(100, 60, 130, 90), pips=(PipLabel((115, 75), red=True),)),
              DieLabel(face=6, center_xy=(40, 50), in_bowl=False)),
        bowl=(80, 60, 70, 50, 10),
        extra={"width": 160, "height": 120, "synth": {"dice": "chinese", "coins": [[20, 100, 16]]}},
    )


def test_a_moved_label_scales_and_shifts_every_position_and_size() -> None:
    moved = label().moved(2.0, (10, 0))
    assert moved.dice[0].box == (210, 120, 270, 180)
    assert moved.dice[0].pips[0] == PipLabel((240, 150), red=True)
    assert moved.dice[1].center == (90, 100) and moved.dice[1].in_bowl is False
    assert moved.bowl == (170, 120, 140, 100, 10)
    assert moved.extra["synth"] == {"dice": "chinese", "coins": [[50, 200, 32]]}
    assert [d.face for d in moved.dice] == [1, 6]
    assert parse_image("scene.png", moved.to_json()) == moved  # and it is written as it reads


def image_with_a_die(size: tuple[int, int], box: tuple[float, ...]) -> np.ndarray:
    image = np.full((size[1], size[0], 3), 60, np.uint8)
    x0, y0, x1, y1 = (round(v) for v in box)
    image[y0:y1, x0:x1] = 230
    return image


def bright_box(image: np.ndarray) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) > 150)
    return (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1)


@pytest.mark.parametrize(("name", "size"), [("wide", (320, 180)), ("half", (80, 60)), ("warm", (160, 120))])
def test_a_variant_moves_the_labels_where_its_image_moves_the_die(
        variants: ModuleType, name: str, size: tuple[int, int]) -> None:
    original = label()
    image = image_with_a_die((160, 120), original.dice[0].box)
    changed, moved = variants.apply(variants.VARIANTS[name], image, original, np.random.default_rng(0))
    assert changed.shape[1::-1] == size and (moved.extra["width"], moved.extra["height"]) == size
    assert np.allclose(bright_box(changed), moved.dice[0].box, atol=1.5)


def test_warm_light_dims_blue_more_than_red(variants: ModuleType) -> None:
    grey = np.full((4, 4, 3), 200, np.uint8)
    blue, green, red = variants.apply(variants.VARIANTS["warm"], grey, label(), np.random.default_rng(0))[0][0, 0]
    assert blue < green < red == 200


def test_a_variant_of_a_set_is_a_labelled_set_of_the_same_images(variants: ModuleType, tmp_path: Path) -> None:
    source = tmp_path / "set"
    source.mkdir()
    cv2.imwrite(str(source / "scene.png"), image_with_a_die((160, 120), label().dice[0].box))
    save_labels(source, {"scene.png": label()})
    assert variants.write_variant(source, tmp_path / "double", "double") == 1
    written = cv2.imread(str(tmp_path / "double" / "scene.png"))
    assert written.shape == (240, 320, 3)
    assert load_labels(tmp_path / "double")["scene.png"].dice[0].box == (200, 120, 260, 180)


def test_a_camera_closer_in_keeps_the_frame_size_and_drops_the_dice_it_cuts_out(variants: ModuleType) -> None:
    edge = label().dice[1]
    original = replace(label(), dice=(label().dice[0], replace(edge, center_xy=(15, 50))))  # 8 px out at 1.35x
    image = image_with_a_die((160, 120), original.dice[0].box)
    changed, moved = variants.apply(variants.VARIANTS["close"], image, original, np.random.default_rng(0))
    assert changed.shape == image.shape and (moved.extra["width"], moved.extra["height"]) == (160, 120)
    assert [d.face for d in moved.dice] == [1]
    assert np.allclose(bright_box(changed), moved.dice[0].box, atol=1.5)


def test_a_wide_lens_moves_each_label_where_its_pixels_go(variants: ModuleType) -> None:
    original = label()
    image = image_with_a_die((160, 120), original.dice[0].box)
    changed, moved = variants.apply(variants.VARIANTS["wide_lens"], image, original, np.random.default_rng(0))
    assert changed.shape == image.shape
    assert np.allclose(bright_box(changed), moved.dice[0].box, atol=1.5)
    # The die lay right of the middle: the lens enlarges the middle, so it moved out and grew.
    assert moved.dice[0].box[2] > original.dice[0].box[2] and moved.dice[0].size > original.dice[0].size
    lens = variants.Barrel(0.12, (160, 120))
    assert lens.point(*lens.middle) == pytest.approx(lens.middle)
    assert lens.point(0, 0) == pytest.approx((0, 0), abs=1e-6) and lens.point(159, 119) == pytest.approx((159, 119))


def test_a_lens_that_bends_nothing_keeps_the_rim(variants: ModuleType) -> None:
    rim = (80.0, 60.0, 70.0, 50.0, 10.0)
    bent = variants.Barrel(1e-9, (160, 120)).ellipse(rim)
    assert rim_error(Bowl(*bent), Bowl(*rim)) < 1e-3
    assert rim_error(Bowl(*variants.Barrel(0.12, (160, 120)).ellipse(rim)), Bowl(*rim)) > 0.02


def test_a_variant_cannot_both_widen_and_cut_the_frame(variants: ModuleType) -> None:
    with pytest.raises(ValueError, match="not both"):
        variants.Variant(variants.unchanged, scale=1.5, aspect=16 / 9, crop_at=(0.5, 0.5))
