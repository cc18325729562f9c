"""`bobing eval`: JSON and table output, pictures of the mistakes, clear errors, a real labelled set."""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from bobing_vision.cli import eval as eval_cli
from bobing_vision.dataset.labels import load_labels
from bobing_vision.evaluation.draw import MistakeStyle
from bobing_vision.vision.detector import DEFAULT_MODELS_DIR
from bobing_vision.vision.imageio import load_image
from bobing_vision.vision.reading import DieReading, Reading, ReadingStatus

BYLER = Path("/work/shared/data/byler-d6-train")


def run(capsys, argv: list[str], reader) -> tuple[int, str, str]:
    code = eval_cli.main(argv, reader=reader)
    out, err = capsys.readouterr()
    return code, out, err


def test_json_output_has_the_promised_keys(labelled_set: Path, fake_reader, capsys) -> None:
    code, out, _ = run(capsys, [str(labelled_set), "--json"], fake_reader)
    data = json.loads(out)
    assert code == 0
    for key in ("die_recall", "die_precision", "face_accuracy", "image_accuracy", "in_bowl_accuracy",
                "images", "dice", "seconds_per_image", "confusion", "worst", "failed"):
        assert key in data
    assert (data["die_recall"], data["images"], data["dice"], data["images_failed"]) == (0.75, 4, 8, 2)


def test_table_output(labelled_set: Path, fake_reader, capsys) -> None:
    code, out, _ = run(capsys, [str(labelled_set)], fake_reader)
    assert code == 0
    assert "die recall      75.0%" in out and "e_missing.png: missing" in out


def test_annotate_draws_each_scored_image(labelled_set: Path, fake_reader, tmp_path: Path, capsys) -> None:
    outdir = tmp_path / "drawn"
    code, _, _ = run(capsys, [str(labelled_set), "--annotate", str(outdir)], fake_reader)
    assert code == 0
    written = sorted(p.name for p in outdir.iterdir())
    assert written == ["a_perfect.png", "b_mistakes.png", "c_centres.png", "d_empty.png"]
    drawn = load_image(outdir / "b_mistakes.png")
    style = MistakeStyle()
    # each mistake's box, by the middle of its left edge (x, y): see conftest.py's script
    assert tuple(drawn[35, 100]) == style.missed  # face 4, labelled at 100..130, 20..50
    assert tuple(drawn[170, 155]) == style.extra  # found at (170, 170)
    assert tuple(drawn[115, 20]) == style.wrong_face  # 5 read as 6, found at (35, 115)
    assert tuple(drawn[115, 100]) == style.wrong_face  # 6 unreadable, found at (115, 115)
    assert tuple(drawn[34, 21]) == style.wrong_in_bowl  # 3 said out, found at (36, 34)
    assert tuple(load_image(labelled_set / "b_mistakes.png")[35, 100]) != style.missed


def test_annotate_into_the_set_itself_is_refused(labelled_set: Path, fake_reader, capsys) -> None:
    code, _, err = run(capsys, [str(labelled_set), "--annotate", str(labelled_set)], fake_reader)
    assert code == 2 and "other than the set's own" in err


def test_a_folder_without_labels_is_a_one_line_error(tmp_path: Path, fake_reader, capsys) -> None:
    code, out, err = run(capsys, [str(tmp_path / "nope")], fake_reader)
    assert code == 2 and out == ""
    assert "labels.json" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("limit", ["0", "-3", "many"])
def test_a_bad_limit_is_refused(labelled_set: Path, fake_reader, limit: str, capsys) -> None:
    with pytest.raises(SystemExit) as caught:
        eval_cli.main([str(labelled_set), "--limit", limit], reader=fake_reader)
    assert caught.value.code == 2
    assert "at least 1" in capsys.readouterr().err


def test_without_the_real_reader_it_says_so(labelled_set: Path, monkeypatch, capsys) -> None:
    monkeypatch.setitem(sys.modules, "bobing_vision.vision.pipeline", None)  # import now fails
    code, _, err = run(capsys, [str(labelled_set)], None)
    assert code == 2 and "OnnxDiceReader" in err and "not available" in err


class OracleReader:
    """Reads a real photo as its label says, except the very first die it is shown, left unreadable."""

    def __init__(self, folder: Path, names: list[str]) -> None:
        labels = load_labels(folder)
        self.dice: dict[bytes, tuple[DieReading, ...]] = {}
        for k, name in enumerate(names):
            dice = tuple(
                DieReading(center=d.center, box=d.box or (0, 0, 0, 0), face=None if (k, i) == (0, 0) else d.face,
                           confidence=1.0)
                for i, d in enumerate(labels[name].dice)
            )
            self.dice[self.key(load_image(folder / name))] = dice

    @staticmethod
    def key(frame: np.ndarray) -> bytes:
        return hashlib.sha1(frame.tobytes()).digest()

    def read(self, frame: np.ndarray) -> Reading:
        return Reading(dice=self.dice[self.key(frame)], bowl=None, status=ReadingStatus.WRONG_DICE_COUNT)


def test_five_real_photos_of_byler(tmp_path: Path, capsys) -> None:
    if not (BYLER / "labels.json").is_file():
        pytest.skip("shared data not present")
    names = sorted(load_labels(BYLER))[:5]
    dice = sum(len(load_labels(BYLER)[n].dice) for n in names)
    outdir = tmp_path / "drawn"
    code, out, _ = run(capsys, [str(BYLER), "--limit", "5", "--json", "--annotate", str(outdir)],
                       OracleReader(BYLER, names))
    data = json.loads(out)
    assert code == 0
    assert (data["images"], data["dice"], data["images_failed"]) == (5, dice, 0)
    assert (data["die_recall"], data["die_precision"]) == (1.0, 1.0)
    assert data["face_accuracy"] == round((dice - 1) / dice, 4)
    assert data["image_accuracy"] == 0.8
    assert data["in_bowl_accuracy"] is None
    assert data["worst"] == [{"file": names[0], "errors": 1, "missed": 0, "extra": 0, "wrong_face": 1,
                              "wrong_in_bowl": 0}]
    assert sorted(p.name for p in outdir.iterdir()) == names


def test_models_from_another_folder_are_used(labelled_set: Path, tmp_path: Path, capsys) -> None:
    """`--models DIR` scores a model being tried (a training run's output) with the whole pipeline."""
    code, _, err = run(capsys, [str(labelled_set), "--models", str(tmp_path / "nowhere")], None)
    assert code == 2 and "nowhere" in err
    shutil.copytree(DEFAULT_MODELS_DIR, tmp_path / "trial", ignore=shutil.ignore_patterns("*.md"))
    code, out, _ = run(capsys, [str(labelled_set), "--models", str(tmp_path / "trial"), "--json"], None)
    assert code == 0 and json.loads(out)["images"] >= 1
