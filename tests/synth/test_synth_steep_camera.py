"""A steep camera: a phone held over a bowl on the table, or a laptop's webcam turned down to it, sees
the bowl up to 60 degrees off vertical, its rim a flat ellipse."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bobing_vision.cli.synth import main
from bobing_vision.dataset.labels import ImageLabel, load_labels
from bobing_vision.synth import SceneSpec, render_scene

SIZE = (160, 120)


def _flatness(label: ImageLabel) -> float:
    """The labelled rim's short axis over its long one: 1 seen from straight above."""
    assert label.bowl is not None
    return min(label.bowl[2], label.bowl[3]) / max(label.bowl[2], label.bowl[3])


def test_a_camera_60_degrees_off_vertical_sees_the_rim_flattened_as_it_is_tilted() -> None:
    labels = [render_scene(np.random.default_rng(seed), SceneSpec(size=SIZE, max_tilt_deg=60.0))[1]
              for seed in range(8)]
    tilts = [label.extra["synth"]["tilt_deg"] for label in labels]
    assert max(tilts) > 45.0 and all(0.0 <= t <= 60.0 for t in tilts), tilts
    for label, tilt in zip(labels, tilts):
        # A circle seen obliquely: its axes' ratio is the cosine of the tilt (perspective bends it a little).
        assert _flatness(label) == pytest.approx(np.cos(np.radians(tilt)), abs=0.08), tilt


def test_cli_draws_the_camera_as_steep_as_asked_and_no_steeper_than_60(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "steep"), "--count", "6", "--seed", "2", "--size", "160x120", "--max-tilt", "60",
                 "--quiet"]) == 0
    assert main([str(tmp_path / "usual"), "--count", "6", "--seed", "2", "--size", "160x120", "--quiet"]) == 0
    steep, usual = ([label.extra["synth"]["tilt_deg"] for label in load_labels(tmp_path / name).values()]
                    for name in ("steep", "usual"))
    assert max(usual) <= 30.0 < max(steep) <= 60.0, (usual, steep)
    assert main([str(tmp_path / "too"), "--count", "1", "--max-tilt", "61", "--quiet"]) == 1
    assert "expected a camera tilt of 0..60 degrees" in capsys.readouterr().err
