"""`generate` and `bobing synth`: a DATA.md set on disk, the same for the same seed."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from bobing_vision.cli.synth import main
from bobing_vision.dataset.labels import load_labels
from bobing_vision.synth import ClipSpec, contact_sheet, generate

CLIP = ClipSpec(size=(160, 120), fps=15.0)


def _frames(path: Path) -> list[np.ndarray]:
    cap = cv2.VideoCapture(str(path))
    out: list[np.ndarray] = []
    while True:
        ok, frame = cap.read()
        if not ok:
            return out
        out.append(frame)


def test_same_seed_same_files(tmp_path: Path) -> None:
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    generate(a, 3, seed=11, clips=1, clip_spec=CLIP)
    generate(b, 3, seed=11, clips=1, clip_spec=CLIP)
    generate(c, 3, seed=12)
    assert (a / "labels.json").read_bytes() == (b / "labels.json").read_bytes()
    for name in load_labels(a):
        assert (a / name).read_bytes() == (b / name).read_bytes()
    assert (a / "clips/clip_000.json").read_bytes() == (b / "clips/clip_000.json").read_bytes()
    fa, fb = _frames(a / "clips/clip_000.avi"), _frames(b / "clips/clip_000.avi")
    assert len(fa) > 15 and len(fa) == len(fb) and all(np.array_equal(x, y) for x, y in zip(fa, fb))
    assert (a / "labels.json").read_bytes() != (c / "labels.json").read_bytes()


def test_scene_i_does_not_depend_on_the_count(tmp_path: Path) -> None:
    generate(tmp_path / "two", 2, seed=4)
    generate(tmp_path / "one", 1, seed=4)
    assert (tmp_path / "two/scene_0000.jpg").read_bytes() == (tmp_path / "one/scene_0000.jpg").read_bytes()


def test_labels_load_back_as_data_md(tmp_path: Path) -> None:
    labels = generate(tmp_path, 2, seed=1)
    loaded = load_labels(tmp_path)
    assert set(loaded) == set(labels) == {"scene_0000.jpg", "scene_0001.jpg"}
    for name, label in loaded.items():
        image = cv2.imread(str(tmp_path / name))
        assert image is not None and image.shape[:2] == (label.extra["height"], label.extra["width"])
        assert [d.face for d in label.dice] == [d.face for d in labels[name].dice]
        assert all(len(d.pips) == d.face for d in label.dice)


def test_clip_sidecar(tmp_path: Path) -> None:
    generate(tmp_path, 0, seed=2, clips=1, clip_spec=CLIP, award_of=lambda faces: {"faces": sorted(faces)})
    meta = json.loads((tmp_path / "clips/clip_000.json").read_text())
    frames = _frames(tmp_path / "clips" / meta["video"])
    assert meta["frames"] == len(frames) == len(meta["settled"])
    assert frames[0].shape[:2] == (120, 160) and meta["fps"] == 15.0
    assert all(meta["settled"][meta["first_settled_frame"]:])
    assert len(meta["final"]["faces"]) == 6
    if all(meta["final"]["in_bowl"]):
        assert meta["award"] == {"faces": sorted(meta["final"]["faces"])}
    else:
        assert meta["award"] is None


def test_cli_writes_a_set_and_a_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "set"), "--count", "2", "--seed", "3", "--size", "320x240",
                 "--sheet", str(tmp_path / "sheet.jpg"), "--quiet"]) == 0
    assert "2 scenes (12 dice)" in capsys.readouterr().out
    assert cv2.imread(str(tmp_path / "sheet.jpg")) is not None
    shapes = [getattr(cv2.imread(str(tmp_path / "set" / n)), "shape", None) for n in load_labels(tmp_path / "set")]
    assert shapes == [(240, 320, 3)] * 2


def test_cli_paints_every_bowl_as_asked(tmp_path: Path) -> None:
    assert main([str(tmp_path), "--count", "3", "--seed", "3", "--size", "160x120", "--bowl-paint", "youlihong",
                 "--quiet"]) == 0
    bowls = {n: label.extra["synth"]["bowl"] for n, label in load_labels(tmp_path).items()}
    assert len(bowls) == 3 and all(b.split("+")[0] == "youlihong" for b in bowls.values()), bowls


def test_cli_clips_carry_the_award_of_the_rules(tmp_path: Path) -> None:
    from bobing_vision.rules import classify

    assert main([str(tmp_path), "--count", "0", "--clips", "1", "--seed", "5", "--clip-size", "160x120",
                 "--clip-fps", "15", "--quiet"]) == 0
    meta = json.loads((tmp_path / "clips/clip_000.json").read_text())
    if all(meta["final"]["in_bowl"]):
        assert meta["award"]["category"] == classify(tuple(meta["final"]["faces"])).category.name
    else:
        assert meta["award"] is None


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--count", "-3"], "expected a whole number of 0 or more"),
        (["--size", "640by480"], "expected WIDTHxHEIGHT"),
        (["--clip-fps", "500", "--clips", "1"], "frames per second"),
        (["--count", "1", "--bowl-paint", "gold"], "expected a bowl paint of qinghua, youlihong"),
        (["--count", "1", "--bowl-fill", "1.4"], "expected LOW-HIGH such as 1.0-1.4"),
        (["--count", "1", "--bowl-fill", "1.4-1.2"], "expected a bowl fill range"),
    ],
)
def test_cli_bad_input_is_one_line_and_nonzero(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               argv: list[str], message: str) -> None:
    try:
        code = main([str(tmp_path / "out"), *argv])
    except SystemExit as exc:  # argparse's own exit for malformed options
        code = int(exc.code or 0)
    assert code != 0
    assert message in capsys.readouterr().err


def test_cli_refuses_a_file_as_outdir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "file.txt"
    target.write_text("x")
    assert main([str(target), "--count", "1"]) == 2
    assert "expected a folder" in capsys.readouterr().err


def test_contact_sheet_tiles() -> None:
    images = [np.full((480, 640, 3), i * 20, np.uint8) for i in range(10)]
    sheet = contact_sheet(images, cols=4, tile=(80, 60))
    assert sheet.shape == (3 * 60, 4 * 80, 3)
    assert sheet[30, 40].tolist() == [0, 0, 0] and sheet[30, 120].tolist() == [20, 20, 20]
