"""Finding the labelled sets under a folder (the real sets `bobing train` takes by default)."""

from __future__ import annotations

from pathlib import Path

from bobing_vision.dataset.labels import LABELS_FILE, labelled_sets


def test_labelled_sets_are_the_folders_with_a_labels_file_by_name(tmp_path: Path) -> None:
    for name in ("zeta", "alpha", "photos_only"):
        (tmp_path / name).mkdir()
    (tmp_path / "zeta" / LABELS_FILE).write_text("{}")
    (tmp_path / "alpha" / LABELS_FILE).write_text("{}")
    (tmp_path / "photos_only" / "a.jpg").write_bytes(b"")
    (tmp_path / LABELS_FILE).write_text("{}")  # a labels file at the root is not a set under it
    assert labelled_sets(tmp_path) == [tmp_path / "alpha", tmp_path / "zeta"]


def test_a_missing_root_has_no_sets(tmp_path: Path) -> None:
    assert labelled_sets(tmp_path / "nowhere") == []
