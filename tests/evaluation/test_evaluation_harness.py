"""The harness on the hand-made set of conftest.py: every figure is known in advance."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from bobing_vision.errors import InvalidInput
from bobing_vision.evaluation import evaluate, format_table, to_json


def ticking_clock(step: float = 0.5):
    """A clock that advances `step` per call: each read takes exactly `step` seconds."""
    ticks = itertools.count()
    return lambda: next(ticks) * step


@pytest.fixture
def evaluation(labelled_set: Path, fake_reader):
    return evaluate(labelled_set, fake_reader, clock=ticking_clock())


@pytest.mark.parametrize(
    "figure, expected",
    [
        ("images", 4),  # e_missing and f_corrupt are not scored
        ("dice", 8),
        ("found", 8),
        ("matched", 6),
        ("die_recall", 6 / 8),  # b's face 4 and c's face 5 missed
        ("die_precision", 6 / 8),  # b's extra die and c's die found 16 px off
        ("face_accuracy", 4 / 6),  # b: 5 read as 6, 6 unreadable
        ("flat_face_accuracy", 4 / 5),  # b's 6 leans: called unreadable, as it must be
        ("image_accuracy", 2 / 4),  # a and d right; b and c wrong
        ("in_bowl_dice", 3),  # b's 3 and 6, c's 2 are labelled and found
        ("in_bowl_accuracy", 2 / 3),  # b's 3 said out, is in
        ("seconds_per_image", 0.5),
        ("rims_labelled", 2),  # a and b
        ("rims_not_found", 1),  # b
        ("rim_accuracy", 1 / 2),  # a's, 1 px off
    ],
)
def test_known_scores(evaluation, figure: str, expected: float) -> None:
    assert getattr(evaluation, figure) == pytest.approx(expected)


def test_confusion_matrix_counts_unreadable_in_its_own_column(evaluation) -> None:
    expected = [[0] * 7 for _ in range(6)]
    expected[0][0] = 1  # a: 1 read 1
    expected[1][1] = 2  # a and c: 2 read 2
    expected[2][2] = 1  # b: 3 read 3
    expected[4][5] = 1  # b: 5 read as 6
    expected[5][6] = 1  # b: 6 found, unreadable
    assert [list(row) for row in evaluation.confusion] == expected


def test_worst_images_most_mistakes_first(evaluation) -> None:
    worst = evaluation.worst(10)
    # b: missed 1 + extra 1 + wrong faces 2 + wrong in/out 1; c: missed 1 + extra 1
    assert [(r.file, r.errors) for r in worst] == [("b_mistakes.png", 5), ("c_centres.png", 2)]
    assert [r.file for r in evaluation.worst(1)] == ["b_mistakes.png"]


def test_failed_files_are_counted_and_named_with_their_reason(evaluation) -> None:
    reasons = {f.file: f.reason for f in evaluation.failed}
    assert sorted(reasons) == ["e_missing.png", "f_corrupt.jpg"]
    assert reasons["e_missing.png"].startswith("missing")
    assert reasons["f_corrupt.jpg"].startswith("not an image")
    assert evaluation.unlabelled == ("z_extra.png",)


def test_reader_sees_only_the_files_that_load(labelled_set: Path, fake_reader) -> None:
    evaluate(labelled_set, fake_reader)
    assert fake_reader.calls == 4


def test_limit_takes_the_first_images_by_name(labelled_set: Path, fake_reader) -> None:
    only = evaluate(labelled_set, fake_reader, limit=1)
    assert (only.images, only.image_accuracy, only.failed) == (1, 1.0, ())


def test_in_bowl_accuracy_is_null_when_never_labelled(labelled_set: Path, fake_reader) -> None:
    only = evaluate(labelled_set, fake_reader, limit=1)  # a_perfect labels no in_bowl
    assert only.in_bowl_accuracy is None
    assert to_json(only)["in_bowl_accuracy"] is None


def test_rim_accuracy_is_null_when_no_rim_is_labelled(labelled_set: Path, fake_reader) -> None:
    labels = json.loads((labelled_set / "labels.json").read_text())
    for label in labels.values():
        label.pop("bowl", None)
    (labelled_set / "labels.json").write_text(json.dumps(labels))
    unlabelled = evaluate(labelled_set, fake_reader)
    assert (unlabelled.rim_accuracy, unlabelled.rims_labelled, unlabelled.rims_not_found) == (None, 0, 0)
    assert "bowl rim        n/a  (not labelled)" in format_table(unlabelled)


def test_a_truncated_image_is_a_failed_file_not_a_crash(labelled_set: Path, fake_reader) -> None:
    whole = (labelled_set / "a_perfect.png").read_bytes()
    (labelled_set / "a_perfect.png").write_bytes(whole[: len(whole) // 2])
    result = evaluate(labelled_set, fake_reader)
    assert {f.file: f.reason.split(":")[0] for f in result.failed}["a_perfect.png"] == "truncated"
    assert result.images == 3


def test_a_label_naming_a_file_outside_the_set_fails_that_file_only(labelled_set: Path, fake_reader) -> None:
    labels = json.loads((labelled_set / "labels.json").read_text())
    labels["../outside.png"] = {"dice": []}
    (labelled_set / "labels.json").write_text(json.dumps(labels))
    result = evaluate(labelled_set, fake_reader)
    assert "../outside.png" in {f.file for f in result.failed}
    assert result.images == 4


def test_a_folder_without_labels_is_invalid_input(tmp_path: Path, fake_reader) -> None:
    with pytest.raises(InvalidInput, match="labels.json"):
        evaluate(tmp_path, fake_reader)


def test_json_has_the_promised_keys_and_is_serialisable(evaluation) -> None:
    data = json.loads(json.dumps(to_json(evaluation)))
    for key in ("die_recall", "die_precision", "face_accuracy", "image_accuracy", "in_bowl_accuracy",
                "images", "dice", "seconds_per_image", "confusion", "worst", "failed", "rim_accuracy",
                "rims_labelled", "rims_not_found", "flat_face_accuracy", "leaning_dice"):
        assert key in data
    assert data["images_failed"] == 2
    assert data["worst"][0] == {"file": "b_mistakes.png", "errors": 5, "missed": 1, "extra": 1,
                                "wrong_face": 2, "wrong_in_bowl": 1}


def test_table_shows_the_figures_and_names(evaluation) -> None:
    text = format_table(evaluation)
    for expected in ("die recall      75.0%", "face accuracy   66.7%", "image accuracy  50.0%",
                     "in/out of bowl  66.7%", "bowl rim        50.0%",
                     "flat faces      80.0%", "leaning dice    1 matched: 1 called unreadable, 0 read as labelled", "1 not found", "b_mistakes.png: 5 mistakes", "f_corrupt.jpg: not an image"):
        assert expected in text


def test_leaning_dice_are_counted_by_what_the_reader_said_of_them() -> None:
    from bobing_vision.dataset.labels import DieLabel
    from bobing_vision.evaluation import Evaluation, ImageResult, Match
    from bobing_vision.vision.reading import DieReading, Reading, ReadingStatus

    labels = tuple(DieLabel(face=f, center_xy=(40.0 * i, 0.0), cocked=i > 0) for i, f in enumerate((2, 3, 4, 5)))
    said = (2, None, 4, 6)  # flat 2 right; leaning: unreadable, read as labelled, read otherwise
    dice = tuple(DieReading(center=(40.0 * i, 0.0), box=(0, 0, 1, 1), face=f, confidence=0.9) for i, f in enumerate(said))
    result = ImageResult(file="a.jpg", labels=labels, reading=Reading(dice, None, ReadingStatus.UNREADABLE),
                         match=Match(pairs=tuple((i, i) for i in range(4)), missed=(), extra=()), seconds=0.01)
    evaluation = Evaluation(results=(result,))
    assert evaluation.leaning == {"dice": 3, "unreadable": 1, "read_as_labelled": 1, "read_otherwise": 1}
    assert evaluation.flat_face_accuracy == 1.0
    assert evaluation.face_accuracy == pytest.approx(2 / 4)


def test_faces_are_counted_by_the_labelled_width_of_dice_lying_flat() -> None:
    from bobing_vision.dataset.labels import DieLabel
    from bobing_vision.evaluation import Evaluation, ImageResult, Match
    from bobing_vision.vision.reading import DieReading, Reading, ReadingStatus

    def label(face: int, side: float, x: float, cocked: bool = False) -> DieLabel:
        return DieLabel(face=face, box=(x, 0.0, x + side, side), cocked=cocked)

    labels = (label(1, 10, 0), label(2, 12, 100), label(3, 16, 200), label(4, 30, 300), label(5, 30, 400, cocked=True),
              DieLabel(face=6, center_xy=(500.0, 5.0)))
    said = (2, None, 6, None, 6)  # for labels 1..5: right, unreadable, wrong, leaning, centre-only
    dice = tuple(DieReading(center=(0.0, 0.0), box=(0, 0, 1, 1), face=f, confidence=0.9) for f in said)
    result = ImageResult(file="a.jpg", labels=labels, reading=Reading(dice, None, ReadingStatus.UNREADABLE),
                         match=Match(pairs=((1, 0), (2, 1), (3, 2), (4, 3), (5, 4)), missed=(0,), extra=()),
                         seconds=0.01)
    bands = {b.low: b for b in Evaluation(results=(result,)).by_width()}
    assert [(bands[low].dice, bands[low].found, bands[low].read_right, bands[low].unreadable, bands[low].read_wrong)
            for low in (0.0, 14.0, 18.0, 24.0, 32.0)] == [(2, 1, 1, 0, 0), (1, 1, 0, 1, 0), (0, 0, 0, 0, 0),
                                                           (1, 1, 0, 0, 1), (0, 0, 0, 0, 0)]
    assert bands[0.0].read_share == 0.5 and bands[18.0].read_share is None
    text = format_table(Evaluation(results=(result,)))
    assert "  under 14 px" + " " * 10 + "2 dice: 50.0% read right, 0 unreadable, 0 wrong, 1 missed" in text
    assert "24-32 px" in text and "18-24 px" not in text  # bands with no dice are not shown
    data = to_json(Evaluation(results=(result,)))["faces_by_width"]
    assert data[-1]["high_px"] is None and data[0] == {"low_px": 0.0, "high_px": 14.0, "dice": 2, "found": 1,
                                                       "read_right": 1, "unreadable": 0, "read_wrong": 0,
                                                       "read_share": 0.5}


def test_generated_sets_are_also_counted_by_the_kind_of_dice(tmp_path: Path) -> None:
    """Labels from `bobing synth` name the dice (synth.dice); with two kinds each gets its own width table."""
    import cv2
    import numpy as np

    from bobing_vision.vision.reading import DieReading, Reading, ReadingStatus

    labels = {}
    for name, kind, face in (("a.png", "chinese", 4), ("b.png", "ordinary", 5), ("c.png", None, 6)):
        cv2.imwrite(str(tmp_path / name), np.zeros((40, 40, 3), np.uint8))
        labels[name] = {"dice": [{"face": face, "box": [10, 10, 30, 30]}]}
        if kind is not None:
            labels[name]["synth"] = {"dice": kind, "bowl": "plain"}
    (tmp_path / "labels.json").write_text(json.dumps(labels))

    class ReadsFour:  # every image's die read as a 4: right on a.png only
        def read(self, frame):
            die = DieReading(center=(20.0, 20.0), box=(10.0, 10.0, 30.0, 30.0), face=4, confidence=0.9)
            return Reading((die,), None, ReadingStatus.NO_BOWL)

    evaluation = evaluate(tmp_path, ReadsFour())
    assert evaluation.dice_kinds == ("chinese", "ordinary")
    right = {kind: sum(b.read_right for b in evaluation.by_width(kind=kind)) for kind in (None, "chinese", "ordinary")}
    assert right == {None: 1, "chinese": 1, "ordinary": 0}
    assert [sum(b.dice for b in evaluation.by_width(kind=k)) for k in ("chinese", "ordinary")] == [1, 1]
    text = format_table(evaluation)
    assert "faces by die width (dice lying flat, labelled top-face width)" in text
    assert "faces by die width (dice lying flat, labelled top-face width, chinese dice only)" in text
    assert "ordinary dice only" in text
    data = to_json(evaluation)["faces_by_width_by_dice"]
    assert sorted(data) == ["chinese", "ordinary"] and data["ordinary"][2]["read_wrong"] == 1


def test_sets_with_one_kind_of_dice_or_none_keep_one_width_table(labelled_set: Path, fake_reader) -> None:
    evaluation = evaluate(labelled_set, fake_reader)
    assert evaluation.dice_kinds == ()
    assert "dice only" not in format_table(evaluation)
    assert to_json(evaluation)["faces_by_width_by_dice"] == {}
