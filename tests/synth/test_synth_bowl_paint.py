"""Painted bowls: blue (青花) or red (釉里红) brushwork, drawn without moving anything else in the scene."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from bobing_vision.errors import InvalidInput
from bobing_vision.synth import SceneSpec, render_scene
from bobing_vision.synth.bowl import own_stream, sample_style


def _painted_pair(seed: int) -> tuple[tuple[np.ndarray, dict], tuple[np.ndarray, dict]]:
    """The same scene with its bowl painted blue and painted red: (image, label as a dict) each."""
    pair = []
    for paint in ("qinghua", "youlihong"):
        image, label = render_scene(np.random.default_rng(seed), SceneSpec(size=(320, 240), bowl_paint=paint))
        pair.append((image, dataclasses.asdict(label)))
    return pair[0], pair[1]


def test_a_stream_of_its_own_leaves_the_scene_stream_where_it_was() -> None:
    rng, twin = np.random.default_rng(11), np.random.default_rng(11)
    side = own_stream(rng).random(3)
    assert rng.random() == twin.random()
    assert not np.allclose(side, np.random.default_rng(11).random(3)), "its own draws, not the scene's"


def test_red_and_blue_paint_change_the_bowl_alone() -> None:
    (blue, blue_label), (red, red_label) = _painted_pair(4)
    assert blue_label["extra"]["synth"].pop("bowl").startswith("qinghua")
    assert red_label["extra"]["synth"].pop("bowl").startswith("youlihong")
    assert blue_label == red_label, "the same dice, bowl, camera and labels"
    changed = np.abs(blue.astype(int) - red.astype(int)).sum(axis=2) > 40
    assert changed.mean() > 0.01, "the painting differs"
    b, _, r = (channel[changed] for channel in np.moveaxis(blue.astype(int), 2, 0))
    rb, _, rr = (channel[changed] for channel in np.moveaxis(red.astype(int), 2, 0))
    assert np.median(b - r) > 10 and np.median(rr - rb) > 10, "blue brushwork in one, red in the other"


def test_a_third_of_the_painted_bowls_are_red_and_the_other_kinds_stay() -> None:
    kinds = [sample_style(np.random.default_rng([5, 0, k])).kind for k in range(900)]
    painted = kinds.count("qinghua") + kinds.count("youlihong")
    assert 0.25 < kinds.count("youlihong") / painted < 0.42
    assert 0.3 < painted / len(kinds) < 0.5, "two in five bowls painted, as before red was drawn"
    assert {"white", "celadon", "ivory"} <= set(kinds)


def test_the_red_share_paints_red_or_blue_from_the_same_draws() -> None:
    blue, red = ([sample_style(np.random.default_rng([5, 0, k]), red_p=p).kind for k in range(300)] for p in (0.0, 1.0))
    assert "youlihong" not in blue and "qinghua" not in red
    assert [k.replace("youlihong", "qinghua") for k in red] == blue, "the other bowls as drawn"


def test_an_unknown_paint_is_refused() -> None:
    with pytest.raises(InvalidInput, match="qinghua, youlihong"):
        SceneSpec(bowl_paint="green")
    with pytest.raises(InvalidInput, match="red_painted_p in 0..1"):
        SceneSpec(red_painted_p=1.5)
