"""Bowl floors: a rice bowl's flat floor is a third to a half of the rim's radius, a basin's up to four
fifths, and on a wide floor the dice come to rest out near the wall, on the painted rings there."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bobing_vision.cli.synth import main
from bobing_vision.dataset.labels import ImageLabel, load_labels
from bobing_vision.errors import InvalidInput
from bobing_vision.synth import SceneSpec, render_scene
from bobing_vision.synth.bowl import sample_shape
from bobing_vision.vision.reading import Bowl

SIZE = (160, 120)
WIDE = (0.6, 0.85)


def _farthest_die(label: ImageLabel) -> float:
    """The largest normalised radius (0 at the rim's centre, 1 on it) of a die in the bowl."""
    assert label.bowl is not None
    rim = Bowl(*label.bowl)
    return max(rim.normalized_radius(d.center) for d in label.dice if d.in_bowl)


def _farthest(spec: SceneSpec, seeds: range) -> list[float]:
    return [_farthest_die(render_scene(np.random.default_rng(seed), spec)[1]) for seed in seeds]


def test_the_floor_is_drawn_from_the_share_asked() -> None:
    for share in ((0.36, 0.52), WIDE):
        shapes = [sample_shape(np.random.default_rng(seed), 26.0, share) for seed in range(20)]
        ratios = [s.floor_r / s.rim for s in shapes]
        assert share[0] <= min(ratios) and max(ratios) <= share[1], (share, ratios)
    assert SceneSpec().floor_share == (0.36, 0.52), "the committed generator's bowls"


def test_on_a_wide_floor_the_dice_lie_farther_out() -> None:
    usual = _farthest(SceneSpec(size=SIZE), range(12))
    wide = _farthest(SceneSpec(size=SIZE, floor_share=WIDE), range(12))
    assert np.median(wide) > np.median(usual) + 0.1, (usual, wide)
    assert max(usual) < 0.6 < max(wide), "dice near the wall only on wide floors"


@pytest.mark.parametrize("share", [(0.6, 0.5), (0.1, 0.4), (0.5, 0.95)])
def test_a_floor_share_out_of_range_is_refused(share: tuple[float, float]) -> None:
    with pytest.raises(InvalidInput, match="floor share range"):
        SceneSpec(floor_share=share)


def test_cli_draws_every_floor_as_asked(tmp_path: Path) -> None:
    args = ["--count", "4", "--seed", "5", "--size", "160x120", "--quiet"]
    assert main([str(tmp_path / "usual"), *args]) == 0
    assert main([str(tmp_path / "wide"), *args, "--floor-share", "0.6-0.85"]) == 0
    usual, wide = (load_labels(tmp_path / name) for name in ("usual", "wide"))
    assert sum(map(_farthest_die, wide.values())) > sum(map(_farthest_die, usual.values()))
