"""`bobing classify`: text and JSON output, rule sets, one clear line for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bobing_vision.cli.classify import main


def test_text_names_the_award_in_chinese_and_english(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["4", "4", "4", "4", "1", "1"]) == 0
    out = capsys.readouterr().out
    assert "状元插金花" in out and "Cha Jin Hua" in out
    assert "状元: yes" in out and "golden-flower-first" in out


def test_text_shows_bonus_and_no_zhuangyuan(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["222244", "--rules", "competition"]) == 0
    out = capsys.readouterr().out
    assert "四进" in out and "bonus: 二举" in out and "状元: no" in out


def test_text_for_a_throw_that_wins_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["666666", "--rules", "competition"]) == 0
    out = capsys.readouterr().out
    assert "黑六勃" in out and "wins nothing" in out


@pytest.mark.parametrize(
    "argv",
    [pytest.param(["444411", "--json"], id="one_argument"), pytest.param(["1", "4", "4", "1", "4", "4", "--json"], id="six")],
)
def test_json_is_one_object(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == {
        "faces": [1, 1, 4, 4, 4, 4],
        "category": "CHA_JIN_HUA",
        "zh": "状元插金花",
        "en": data["en"],
        "bonus": [],
        "tier": "zhuangyuan",
        "is_zhuangyuan": True,
        "rules": "golden-flower-first",
    }
    assert data["en"]


def test_json_under_a_rules_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "house.toml"
    path.write_text('preset = "competition"\nwu_zi_four_bonus = false\n', encoding="utf-8")
    assert main(["111114", "--rules", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["category"], data["bonus"], data["tier"]) == ("WU_ZI", [], "zhuangyuan")
    assert data["rules"].startswith("competition")


BAD = [
    ("five_faces", ["4", "4", "4", "4", "1"], "expected 6 faces"),
    ("face_nine", ["444419"], "expected faces in 1..6, got 9"),
    ("letters", ["4444ab"], "expected six faces 1..6"),
    ("unknown_preset", ["444411", "--rules", "nope"], "golden-flower-first"),
]


@pytest.mark.parametrize(("argv", "message"), [r[1:] for r in BAD], ids=[r[0] for r in BAD])
def test_bad_input_is_one_line_and_exit_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and lines[0].startswith("bobing classify:")


def test_bad_rules_file_names_the_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("colour = 1\n", encoding="utf-8")
    assert main(["444411", "--rules", str(path)]) == 2
    assert "unknown key 'colour'" in capsys.readouterr().err
