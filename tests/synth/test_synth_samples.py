"""The committed sample set (sample_images/): varied, well-formed, and still what the generator makes."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from bobing_vision.dataset.labels import load_labels
from bobing_vision.synth import SceneSpec, render_scene
from bobing_vision.synth.generate import scene_rng

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"
SEED = 20  # the --seed of the command in sample_images/README.md


@pytest.fixture(scope="module")
def labels() -> dict:
    return load_labels(SAMPLES)


def test_samples_are_640x480_jpegs_with_six_dice(labels: dict) -> None:
    assert 12 <= len(labels) <= 16
    for name, label in labels.items():
        image = cv2.imread(str(SAMPLES / name))
        assert image is not None and image.shape == (480, 640, 3), name
        assert len(label.dice) == 6
        assert all(len(d.pips) == d.face for d in label.dice)


def test_samples_cover_the_hard_cases(labels: dict) -> None:
    synth = [lab.extra["synth"] for lab in labels.values()]
    assert any(d.in_bowl is False for lab in labels.values() for d in lab.dice), "a die out of the bowl"
    assert any(d.cocked for lab in labels.values() for d in lab.dice), "a leaning die"
    assert any(s["bowl"].startswith("qinghua") for s in synth), "a 青花 bowl"
    assert any(s["dice"] == "ordinary" for s in synth) and any(s["dice"] == "chinese" for s in synth)
    assert any(s["tilt_deg"] > 15 for s in synth), "a tilted camera"


def test_samples_are_what_the_generator_makes(labels: dict) -> None:
    """Regenerating the first scenes with the README's seed gives the committed labels."""
    for i in range(2):
        _, fresh = render_scene(scene_rng(SEED, i), SceneSpec(size=(640, 480)))
        kept = labels[f"scene_{i:04d}.jpg"]
        assert [d.face for d in fresh.dice] == [d.face for d in kept.dice]
        assert np.allclose([d.box or () for d in fresh.dice], [d.box or () for d in kept.dice], atol=0.5)


def test_sample_clips_are_short_and_labelled() -> None:
    sidecars = sorted((SAMPLES / "clips").glob("*.json"))
    assert 2 <= len(sidecars) <= 3
    # 640x480, the webcam size the reader is built for; a few MB keeps clones light.
    assert sum(p.stat().st_size for p in (SAMPLES / "clips").iterdir()) < 5e6
    metas = [json.loads(p.read_text()) for p in sidecars]
    for meta in metas:
        cap = cv2.VideoCapture(str(SAMPLES / "clips" / meta["video"]))
        frames = 0
        while cap.read()[0]:
            frames += 1
        assert frames == meta["frames"] == len(meta["settled"]) == len(meta["hand_in_bowl"])
        still = meta["frames"] - meta["first_settled_frame"]
        assert still >= meta["fps"] and all(meta["settled"][meta["first_settled_frame"]:])
        assert len(meta["final"]["faces"]) == 6
        assert (meta["award"] is None) == (not all(meta["final"]["in_bowl"]))
    assert any(m["jumped_out"] for m in metas), "a die jumps out in one clip"
    assert any(any(m["hand_in_bowl"][m["frames"] // 3:]) for m in metas), "a hand rests in the bowl in one clip"
