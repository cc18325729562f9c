"""Generated labels re-derived from the drawn pixels: every labelled pip is really drawn, in its colour."""

from __future__ import annotations

import numpy as np
import pytest

from bobing_vision.dataset.labels import DieLabel
from bobing_vision.synth import SceneSpec, render_scene
from bobing_vision.synth.dice import (
    MIN_PIP_COLOUR_DISTANCE,
    MIN_PIP_CONTRAST,
    colour_distance,
    luminance,
    pips_stand_out,
    sample_die_style,
)

# Clean renders (no noise, blur or JPEG) of big dice in small bowls, so a pip covers its centre pixel.
CHINESE = SceneSpec(size=(640, 480), clean=True, chinese_dice_p=1.0, die_mm=(17.0, 20.0), bowl_cm=(18.0, 22.0))
ORDINARY = SceneSpec(size=(640, 480), clean=True, chinese_dice_p=0.0, die_mm=(17.0, 20.0), bowl_cm=(18.0, 22.0))


def _px(image: np.ndarray, xy: tuple[float, float]) -> np.ndarray:
    return image[int(round(xy[1])), int(round(xy[0]))].astype(int)


def _body_point(die: DieLabel) -> tuple[float, float]:
    """Between the first two pips is bare face on every face from 2 to 6."""
    (ax, ay), (bx, by) = die.pips[0].center, die.pips[1].center
    return ((ax + bx) / 2, (ay + by) / 2)


@pytest.mark.parametrize("seed", range(8))
def test_chinese_faces_re_derived_from_pips(seed: int) -> None:
    image, label = render_scene(np.random.default_rng(seed), CHINESE)
    assert len(label.dice) == 6
    for die in label.dice:
        assert len(die.pips) == die.face, "one pip label per pip of the face"
        reds = [p.red for p in die.pips]
        assert all(reds) if die.face in (1, 4) else not any(reds), f"red pips exactly on 1 and 4, got {die}"
        for pip in die.pips:
            b, g, r = _px(image, pip.center)
            if pip.red:
                assert r > g + 40 and r > b + 40, f"pip at {pip.center} should be red, got BGR {(b, g, r)}"
            else:
                body = _px(image, _body_point(die))
                assert max(b, g, r) < 0.6 * body.max(), f"pip at {pip.center} should be dark, got {(b, g, r)} on {body}"


@pytest.mark.parametrize("seed", range(6))
def test_ordinary_dice_pips_differ_from_the_body_and_are_red_exactly_when_drawn_red(seed: int) -> None:
    image, label = render_scene(np.random.default_rng(100 + seed), ORDINARY)
    for die in label.dice:
        assert len(die.pips) == die.face
        assert len({p.red for p in die.pips}) <= 1, "an ordinary die's pips are all one colour"
        body = _px(image, _body_point(die)) if die.face >= 2 else None
        for pip in die.pips:
            b, g, r = _px(image, pip.center)
            if pip.red:
                assert r > 1.5 * max(g, b), f"pip at {pip.center} should be red, got BGR {(b, g, r)}"
            else:
                assert r < 1.5 * max(g, b) + 15, f"pip at {pip.center} should not be red, got BGR {(b, g, r)}"
            if body is not None:
                assert np.abs(_px(image, pip.center) - body).max() > 40, f"pip at {pip.center} looks like the body"


def test_ordinary_dice_come_in_any_colours() -> None:
    rng = np.random.default_rng(0)
    styles = [sample_die_style(rng, chinese=False) for _ in range(400)]
    assert 0.1 < np.mean([s.pips_red(5) for s in styles]) < 0.4, "red pips on every face, now and then"
    assert 0.05 < np.mean([s.swirl is not None for s in styles]) < 0.3, "marbled dice, now and then"
    assert len({tuple(round(c, -1) for c in s.body) for s in styles}) > 100, "not a handful of fixed colours"
    assert all(pips_stand_out(s.pip, s.body) for s in styles)
    # Red pips on dark blue, yellow on teal: pips that differ from the body by hue, hardly by lightness.
    hue_only = [s for s in styles if abs(luminance(s.body) - luminance(s.pip)) < MIN_PIP_CONTRAST]
    assert 0.05 < len(hue_only) / len(styles) < 0.3
    assert any(s.pips_red(5) for s in hue_only), "red pips on a body as dark as they are"


def test_pips_stand_out_by_lightness_or_by_colour() -> None:
    red, dark_blue, brown = (35.0, 30.0, 190.0), (120.0, 50.0, 20.0), (40.0, 60.0, 110.0)
    assert pips_stand_out(red, dark_blue), "as dark as the body but another colour"
    assert pips_stand_out((20.0, 20.0, 20.0), (200.0, 200.0, 200.0)), "black on white"
    assert not pips_stand_out(red, brown), "close in lightness and in colour"
    assert not pips_stand_out((100.0, 100.0, 100.0), (130.0, 130.0, 130.0)), "two greys"


def test_a_lower_colour_distance_admits_red_pips_on_a_smoky_grey_die() -> None:
    red, smoky_grey = (50.0, 50.0, 190.0), (80.0, 80.0, 85.0)  # 63 apart in CIELAB, 10 in lightness
    assert not pips_stand_out(red, smoky_grey)
    assert pips_stand_out(red, smoky_grey, min_distance=50.0)

    def close_by_colour(distance: float) -> list[float]:
        """Colour distances of the sets whose pips are as light as their body, over 1500 sets."""
        rng = np.random.default_rng(3)
        styles = [sample_die_style(rng, chinese=False, pip_colour_distance=distance) for _ in range(1500)]
        assert all(pips_stand_out(s.pip, s.body, distance) for s in styles)
        return [colour_distance(s.pip, s.body) for s in styles
                if abs(luminance(s.body) - luminance(s.pip)) < MIN_PIP_CONTRAST]

    assert min(close_by_colour(MIN_PIP_COLOUR_DISTANCE)) >= MIN_PIP_COLOUR_DISTANCE
    assert sum(50.0 <= d < MIN_PIP_COLOUR_DISTANCE for d in close_by_colour(50.0)) >= 10


def test_pips_lie_in_the_top_face_box() -> None:
    for seed in range(6):
        _, label = render_scene(np.random.default_rng(200 + seed))
        for die in label.dice:
            assert die.box is not None
            x0, y0, x1, y1 = die.box
            assert x0 <= die.center[0] <= x1 and y0 <= die.center[1] <= y1
            for pip in die.pips:
                assert x0 - 0.5 <= pip.center[0] <= x1 + 0.5 and y0 - 0.5 <= pip.center[1] <= y1 + 0.5
