"""`bench/comparison_sets.py`: the comparison sets made again, the same as their commands make them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from bobing_vision.cli.synth import main as synth
from bobing_vision.dataset.labels import load_labels


@pytest.fixture
def sets(bench_script: Callable[[str], ModuleType]) -> ModuleType:
    return bench_script("comparison_sets")


def test_the_history_s_77_sets_are_named_by_seed(sets: ModuleType, tmp_path: Path) -> None:
    todo = sets.jobs(tmp_path)
    assert len(todo) == 74 and len({job.folder for job in todo}) == 74  # + sample_images and two real sets
    assert [job.folder.name for job in todo[:3]] == ["rt1", "rt2", "rt3"]
    assert {job.count for job in todo if job.maker is sets.Maker.GENERATED} == {200}
    assert [job.maker for job in todo[:4]] == [sets.Maker.RAYTRACED] * 3 + [sets.Maker.GENERATED]
    assert tmp_path / "s9918" in {job.folder for job in todo}


def test_a_generated_set_is_the_one_bobing_synth_makes_with_its_seed(sets: ModuleType, tmp_path: Path) -> None:
    assert synth([str(tmp_path / "by_hand"), "--count", "3", "--seed", "2323", "--quiet"]) == 0
    (made,) = sets.make_all(sets.jobs(tmp_path / "sets", generated=[2323], raytraced=[], generated_count=3), 1)
    assert made.folder == tmp_path / "sets" / "s2323"
    for name in load_labels(tmp_path / "by_hand"):
        assert (made.folder / name).read_bytes() == (tmp_path / "by_hand" / name).read_bytes()
    assert load_labels(made.folder) == load_labels(tmp_path / "by_hand")


def test_a_rendered_set_is_drawn_with_its_seed(sets: ModuleType, tmp_path: Path) -> None:
    (made,) = sets.make_all(sets.jobs(tmp_path, generated=[], raytraced=[7], raytraced_count=1), 1)
    labels = load_labels(tmp_path / "rt7")
    assert made.folder == tmp_path / "rt7" and list(labels) == ["throw_0000.jpg"]
    assert len(labels["throw_0000.jpg"].dice) == 6


def test_a_set_already_made_is_kept_and_a_half_made_one_is_made_again(
        sets: ModuleType, tmp_path: Path) -> None:
    todo = sets.jobs(tmp_path, generated=[2323, 3434], raytraced=[], generated_count=2)
    sets.make_all(todo[:1], 1)
    kept = (tmp_path / "s2323" / "scene_0000.jpg").stat().st_mtime_ns
    (tmp_path / "s3434").mkdir()
    (tmp_path / "s3434" / "scene_0000.jpg").write_bytes(b"cut short")  # a run stopped before its labels
    made = sets.make_all(todo, 1)
    assert [job.folder.name for job in made] == ["s3434"]
    assert (tmp_path / "s2323" / "scene_0000.jpg").stat().st_mtime_ns == kept
    assert len(load_labels(tmp_path / "s3434")) == 2
