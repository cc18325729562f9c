"""`bobing score`: rows for good images, reasons for bad files, exit codes, JSON lines, CSV, drawings."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from bobing_vision.cli.score import Progress, main
from bobing_vision.vision.detector import DieCandidate, Pip
from bobing_vision.vision.pipeline import read_frame
from bobing_vision.vision.reading import Bowl, Box, Reading

BOWL = Bowl(80.0, 60.0, 55.0, 50.0)


class SixDiceDetector:
    """A stand-in for the ONNX detector: six dice showing 444411 (插金花) in every frame."""

    def detect(self, frame: np.ndarray, roi: Box | None = None, zoom: float | None = None) -> list[DieCandidate]:
        out = []
        for i, face in enumerate((4, 4, 4, 4, 1, 1)):
            x = 40.0 + 15 * i
            probs = [0.0] * 6
            probs[face - 1] = 1.0
            pips = (Pip((x, 60.0), red=True),) * face
            out.append(DieCandidate(center=(x, 60.0), box=(x - 5, 55.0, x + 5, 65.0), score=0.9,
                                    face_probs=tuple(probs), pips=pips))  # type: ignore[arg-type]
        return out

    def read_at(self, frame: np.ndarray, centers: object, size: float) -> list[DieCandidate]:
        raise AssertionError("six dice of one size are never read again")


class FakeReader:
    def read(self, frame: np.ndarray) -> Reading:
        return read_frame(frame, SixDiceDetector(), bowl=BOWL)


def fake_factory() -> FakeReader:
    return FakeReader()


@pytest.fixture()
def photos(tmp_path: Path) -> Path:
    folder = tmp_path / "photos"
    (folder / "sub").mkdir(parents=True)
    image = np.full((120, 160, 3), 90, np.uint8)
    cv2.imwrite(str(folder / "a.jpg"), image)
    cv2.imwrite(str(folder / "sub" / "b.png"), image)
    (folder / "empty.jpg").write_bytes(b"")
    (folder / "notes.png").write_text("not a picture")
    whole = cv2.imencode(".jpg", image)[1].tobytes()
    (folder / "cut.jpg").write_bytes(whole[: len(whole) // 2])
    return folder


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv, reader_factory=fake_factory)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("workers", ["1", "2"])
def test_json_lines_score_the_good_files_and_explain_the_bad(photos: Path, capsys: pytest.CaptureFixture[str],
                                                             workers: str) -> None:
    code, out, err = run([str(photos), "--json", "--workers", workers], capsys)
    rows = {Path(r["file"]).name: r for r in map(json.loads, out.splitlines())}
    assert code == 1, "some files failed"
    assert set(rows) == {"a.jpg", "b.png", "empty.jpg", "notes.png", "cut.jpg"}
    good = rows["b.png"]
    assert good["status"] == "OK" and good["award"] == "CHA_JIN_HUA" and good["faces"] == [1, 1, 4, 4, 4, 4]
    assert set(good["dice"][0]) >= {"face", "center", "in_bowl", "readable", "confidence"}
    for name, reason in [("empty.jpg", "empty"), ("notes.png", "not an image"), ("cut.jpg", "truncated")]:
        assert rows[name]["status"] == "ERROR" and reason in rows[name]["error"], name
        assert name in err and reason in err
    assert "scored 5 images" in err


def test_dice_too_small_to_read_well_are_measured_and_advised_once(photos: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run([str(photos / "a.jpg"), str(photos / "sub"), str(photos / "notes.png"), "--json"], capsys)
    rows = {Path(r["file"]).name: r for r in map(json.loads, out.splitlines())}
    assert rows["a.jpg"]["dice_width"] == 10.0 and rows["notes.png"]["dice_width"] is None  # the fake's 10 px boxes
    assert err.count("px wide") == 1
    assert "bobing score: in 2 of 2 photos the dice are only 10 px wide: move the camera closer" in err


def test_bowls_washed_out_to_white_are_measured_and_advised_once(photos: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("white1.png", "white2.png"):
        image = np.full((120, 160, 3), 90, np.uint8)
        cv2.ellipse(image, (80, 60), (55, 50), 0, 0, 360, (255, 255, 255), -1)  # the fake's bowl, clipped
        cv2.imwrite(str(photos / name), image)
    code, out, err = run([str(photos / "a.jpg"), str(photos / "white1.png"), str(photos / "white2.png"),
                          str(photos / "notes.png"), "--json"], capsys)
    rows = {Path(r["file"]).name: r for r in map(json.loads, out.splitlines())}
    assert rows["white1.png"]["bowl_white"] > 0.95 and rows["a.jpg"]["bowl_white"] == 0.0
    assert rows["notes.png"]["bowl_white"] is None
    advice = re.findall(r"bobing score: in 2 of 3 photos (\d+)% of the bowl is pure white.*exposure", err)
    assert err.count("pure white") == 1 and len(advice) == 1 and int(advice[0]) >= 95


class SteepReader:
    """The fake's dice in a bowl seen 65 degrees off vertical: a rim under half as tall as wide."""

    def read(self, frame: np.ndarray) -> Reading:
        return read_frame(frame, SixDiceDetector(), bowl=Bowl(80.0, 60.0, 70.0, 30.0))


def steep_factory() -> SteepReader:
    return SteepReader()


def test_a_camera_looking_too_steeply_is_measured_and_advised_once(photos: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run([str(photos / "a.jpg"), str(photos / "notes.png"), "--json"], capsys)
    rows = {Path(r["file"]).name: r for r in map(json.loads, out.splitlines())}
    assert rows["a.jpg"]["bowl_tilt"] == pytest.approx(24.6, abs=0.1) and rows["notes.png"]["bowl_tilt"] is None
    assert "the camera looks at the bowl" not in err
    code = main([str(photos / "a.jpg"), str(photos / "sub"), "--json"], reader_factory=steep_factory)
    out, err = capsys.readouterr()
    assert [json.loads(line)["bowl_tilt"] for line in out.splitlines()] == [64.6, 64.6]
    assert err.count("the camera looks at the bowl") == 1
    assert "bobing score: in 2 of 2 photos the camera looks at the bowl 65 degrees off vertical" in err


def test_all_good_files_exit_zero_with_a_table(photos: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([str(photos / "a.jpg"), str(photos / "sub")], capsys)
    assert code == 0
    header, *lines = out.splitlines()
    assert header.split("\t") == ["file", "faces", "award", "status"]
    assert len(lines) == 2 and all("114444\tCHA_JIN_HUA\tok" in line for line in lines)


def test_csv_and_annotations(photos: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(["photos", "--csv", "rows.csv", "--annotate", "drawn"], capsys)
    assert code == 1 and out == ""
    with open(tmp_path / "rows.csv", newline="") as f:
        rows = {Path(r["file"]).name: r for r in csv.DictReader(f)}
    assert rows["a.jpg"]["faces"] == "114444" and rows["a.jpg"]["award"] == "CHA_JIN_HUA"
    assert rows["cut.jpg"]["status"] == "ERROR"
    drawn = cv2.imread(str(tmp_path / "drawn" / "photos" / "sub" / "b.png.jpg"))
    assert drawn is not None and drawn.shape == (120, 160, 3)
    assert (tmp_path / "drawn" / "photos" / "a.jpg").is_file()


def test_annotations_mirror_the_inputs_not_the_whole_path(photos: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Photos given by an absolute path outside the working folder: drawn under the folder that holds
    them all (here `photos`), not under a copy of the whole path from the root."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    run([str(photos / "sub"), str(photos / "a.jpg"), "--annotate", "drawn"], capsys)
    drawn = sorted(p.relative_to(elsewhere / "drawn").as_posix() for p in (elsewhere / "drawn").rglob("*.jpg"))
    assert drawn == ["a.jpg", "sub/b.png.jpg"]


@pytest.mark.parametrize(
    ("case", "argv", "words"),
    [
        ("no images", ["EMPTY_DIR"], "expected image files, got none"),
        ("bad workers", ["EMPTY_DIR", "--workers", "0"], "at least 1"),
        ("json and csv", ["EMPTY_DIR", "--json", "--csv", "x.csv"], "not allowed"),
        ("unknown rules", ["PHOTO", "--rules", "no-such-rules"], "expected a rule preset"),
    ],
)
def test_wrong_usage_is_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str,
                                       argv: list[str], words: str) -> None:
    (tmp_path / "empty").mkdir()
    cv2.imwrite(str(tmp_path / "photo.png"), np.zeros((48, 64, 3), np.uint8))
    named = {"EMPTY_DIR": str(tmp_path / "empty"), "PHOTO": str(tmp_path / "photo.png")}
    argv = [named.get(a, a) for a in argv]
    try:
        code = main(argv, reader_factory=fake_factory)
    except SystemExit as exc:  # argparse's own usage errors
        code = int(exc.code or 0)
    assert code == 2, case
    assert words in capsys.readouterr().err


def test_missing_models_are_one_clear_line(photos: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main([str(photos), "--models", str(tmp_path / "no-models")])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("bobing score: cannot start the reader") and "Traceback" not in err


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_draws_on_a_terminal_only() -> None:
    screen, log = Terminal(), io.StringIO()
    for stream in (screen, log):
        bar = Progress(2, stream)
        bar.step(failed=False)
        bar.step(failed=True)
    assert "2/2" in screen.getvalue() and "1 failed" in screen.getvalue()
    assert log.getvalue() == ""
    assert bar.summary().startswith("scored 2 images") and bar.summary().endswith("1 failed")


def test_a_calibration_file_is_used_by_the_real_reader(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bobing_vision.vision.calibration import Calibration, save_calibration

    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), np.full((120, 160, 3), 90, np.uint8))  # no rim to find: only the file has one
    calibration = save_calibration(tmp_path / "bowl.json", Calibration(Bowl(160.0, 120.0, 100.0, 90.0), 320, 240))
    assert main([str(photo), "--json", "--calibration", str(calibration)]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["bowl"] == [79.8, 59.8, 50.0, 45.0, 0.0] and row["status"] != "NO_BOWL"


def test_photos_of_one_camera_keep_their_bowl_within_a_chunk_whatever_the_workers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bobing_vision.cli.score import CHUNK
    from bobing_vision.vision.pipeline import OnnxDiceReader

    capture = cv2.VideoCapture(str(Path(__file__).parents[2] / "sample_images" / "clips" / "clip_000.avi"))
    frames = []
    while (grabbed := capture.read())[0]:
        frames.append(grabbed[1])
    folder = tmp_path / "camera"
    folder.mkdir()
    for k, frame in enumerate(frames[-(CHUNK + 3):]):  # the dice at rest: one view, a chunk and then some
        cv2.imwrite(str(folder / f"frame_{k:02d}.png"), frame)
    outputs = []
    for workers in ("1", "2"):
        assert main([str(folder), "--json", "--workers", workers]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]  # a chunk starts afresh: no reading depends on the worker's last chunk
    rows = [json.loads(line) for line in outputs[0].splitlines()]
    first, second = rows[:CHUNK], rows[CHUNK:]
    assert all(row["bowl"] == first[0]["bowl"] for row in first)  # kept, not searched again
    searched = OnnxDiceReader(track_bowl=False).read(cv2.imread(str(folder / second[0]["file"].split("/")[-1]))).bowl
    assert searched is not None and second[0]["bowl"] == [round(v, 1) for v in searched.ellipse]
