"""Framing: a camera close over the bowl, its rim running off the frame, drawn as any other scene."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bobing_vision.cli.synth import main
from bobing_vision.dataset.labels import ImageLabel, load_labels
from bobing_vision.errors import InvalidInput
from bobing_vision.synth import SceneSpec, render_scene

SIZE = (160, 120)


def _rim_diameter(label: ImageLabel) -> float:
    """The labelled rim's mean diameter in pixels."""
    assert label.bowl is not None
    return 2 * float(np.sqrt(label.bowl[2] * label.bowl[3]))


def _rim_height_shares(spec: SceneSpec, seeds: range) -> list[float]:
    """The labelled rim's mean diameter as a share of the frame height, scene by scene."""
    return [_rim_diameter(render_scene(np.random.default_rng(seed), spec)[1]) / SIZE[1] for seed in seeds]


def test_a_close_camera_frames_the_rim_beyond_the_frame_and_keeps_its_angle() -> None:
    usual = _rim_height_shares(SceneSpec(size=SIZE), range(6))
    close = _rim_height_shares(SceneSpec(size=SIZE, bowl_fill=(1.3, 1.4)), range(6))
    assert max(usual) < 1.0 < min(close), (usual, close)
    for seed in range(3):
        labels = [render_scene(np.random.default_rng(seed), SceneSpec(size=SIZE, bowl_fill=fill))[1]
                  for fill in (None, (1.3, 1.4))]
        usual_synth, close_synth = (label.extra["synth"] for label in labels)
        assert usual_synth["tilt_deg"] == close_synth["tilt_deg"] and usual_synth["bowl"] == close_synth["bowl"]


@pytest.mark.parametrize("fill", [(1.4, 1.2), (0.1, 0.5), (1.0, 2.5)])
def test_a_fill_out_of_range_is_refused(fill: tuple[float, float]) -> None:
    with pytest.raises(InvalidInput, match="bowl fill range"):
        SceneSpec(bowl_fill=fill)


def test_cli_frames_every_bowl_as_asked(tmp_path: Path) -> None:
    assert main([str(tmp_path), "--count", "2", "--seed", "3", "--size", "160x120", "--bowl-fill", "1.3-1.4",
                 "--quiet"]) == 0
    labels = load_labels(tmp_path)
    assert len(labels) == 2
    assert all(_rim_diameter(label) > 120 for label in labels.values())
