"""`bobing play` driven through stdin: whole games, wrong input, EOF, kill -9 and resume."""

from __future__ import annotations

import io
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bobing_vision.cli import play
from bobing_vision.game import Correction, Event, Game, StartThrow, ThrowEvent, replay
from bobing_vision.rules import RuleSet

REPO = Path(__file__).resolve().parents[2]
PLAYERS = ["A", "B", "C", "D", "E"]
START = (3, 4)


def scripted_game(seed: int, rules: RuleSet | None = None, players: list[str] = PLAYERS) -> tuple[list[str], Game]:
    """Typed lines for a whole game (throws, outs, fixes, voids) and the game they should produce."""
    rng = random.Random(seed)
    game = Game(players, rules)
    game.apply(StartThrow(0, START))
    lines: list[str] = []
    while not game.over:
        roll = rng.random()
        faces = "".join(str(rng.randint(1, 6)) for _ in range(6))
        event: Event
        if roll < 0.05:
            line, event = "out", ThrowEvent.out()
        elif roll < 0.08 and game.state.throws:
            line, event = "void", Correction.void()
        elif roll < 0.11 and game.state.throws:
            line, event = f"fix {faces}", Correction.fix(faces)
        else:
            line, event = (" ".join(faces) if roll > 0.9 else faces), ThrowEvent.of(faces)
        game.apply(event)
        lines.append(line)
    return lines, game


def run_main(monkeypatch: pytest.MonkeyPatch, argv: list[str], lines: list[str]) -> int:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    return play.main(argv)


def held_total(game: Game) -> int:
    return sum(sum(game.holdings(seat).values()) for seat in range(len(game.players))) + sum(game.shared.values())


WRONG_INPUT = ["hello", "44441", "4 4 4 4 1 7", "fix", "fix 12345", "void now", "", "help", "status"]


@pytest.mark.parametrize(("preset", "seed"), [(name, index) for index, name in enumerate(RuleSet.presets())])
def test_a_whole_game_through_stdin_accounts_for_every_prize(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], preset: str, seed: int
) -> None:
    lines, reference = scripted_game(seed, RuleSet.preset(preset))
    journal = tmp_path / "game.jsonl"
    argv = ["--players", ",".join(PLAYERS), "--rules", preset, "--journal", str(journal), "--start-throw", *map(str, START)]
    script = WRONG_INPUT + lines[:5] + WRONG_INPUT + lines[5:]
    assert run_main(monkeypatch, argv, script) == 0
    out = capsys.readouterr().out
    assert "Traceback" not in out
    assert "expected 6 faces like '444411', got 5" in out and "expected 'fix' followed by" in out
    assert "prizes handed out: 63 of 63" in out and "game closed; journal complete" in out
    replayed = replay(journal)
    assert replayed.ended and replayed.torn is None
    assert replayed.game.state == reference.state
    assert held_total(replayed.game) == 63 and sum(replayed.game.remaining.values()) == 0


def test_killed_mid_game_and_resumed_loses_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines, reference = scripted_game(42)
    before_kill = 25
    journal = tmp_path / "game.jsonl"
    command = [sys.executable, "-m", "bobing_vision", "play", "--players", ",".join(PLAYERS),
               "--journal", str(journal), "--start-throw", *map(str, START)]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, cwd=tmp_path, env=env)
    assert proc.stdin is not None
    proc.stdin.write("".join(line + "\n" for line in lines[:before_kill]).encode())
    proc.stdin.flush()  # stdin stays open: the process waits for more, as at a real table
    expected_records = 2 + before_kill  # header, start throw, one line per typed event
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and (not journal.exists() or journal.read_bytes().count(b"\n") < expected_records):
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL

    replayed = replay(journal)
    partial = Game.replay(PLAYERS, reference.rules, reference.prizes, reference.log[: 1 + before_kill])
    assert replayed.torn is None and not replayed.game.over
    assert replayed.game.state == partial.state

    assert run_main(monkeypatch, ["--resume", str(journal)], lines[before_kill:]) == 0
    finished = replay(journal)
    assert finished.ended and finished.game.state == reference.state and held_total(finished.game) == 63


def test_resume_reports_a_torn_last_line_and_carries_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines, reference = scripted_game(5)
    journal = tmp_path / "game.jsonl"
    argv = ["--players", ",".join(PLAYERS), "--journal", str(journal), "--start-throw", *map(str, START)]
    assert run_main(monkeypatch, argv, lines[:10]) == 0
    with journal.open("ab") as handle:
        handle.write(b'{"event":"throw","no":11,"pla')
    assert run_main(monkeypatch, ["--resume", str(journal)], lines[10:]) == 0
    out = capsys.readouterr().out
    assert "warning:" in out and "cut short (torn write)" in out
    assert "game saved" in out and "prizes handed out: 63 of 63" in out
    assert replay(journal).game.state == reference.state


def test_quit_then_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    lines, reference = scripted_game(9)
    journal = tmp_path / "game.jsonl"
    argv = ["--players", ",".join(PLAYERS), "--journal", str(journal), "--start-throw", *map(str, START)]
    assert run_main(monkeypatch, argv, [*lines[:7], "quit", *lines[7:]]) == 0
    assert "resume with: bobing play --resume" in capsys.readouterr().out
    assert not replay(journal).ended
    assert run_main(monkeypatch, ["--resume", str(journal)], lines[7:]) == 0
    assert replay(journal).game.state == reference.state
    assert run_main(monkeypatch, ["--resume", str(journal)], []) == 0  # a closed game just shows its result
    assert "prizes handed out: 63 of 63" in capsys.readouterr().out


def test_players_and_start_throw_are_asked_for_and_wrong_answers_asked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    answers = ["A,,B", "A,B,A", "Ann, Bo ,Cy", "7 7", "x y", "1", "2 2", "444411"]
    assert run_main(monkeypatch, [], answers) == 0
    out = capsys.readouterr().out
    assert "expected every player to have a name" in out
    assert "expected unique player names, got A more than once" in out
    assert "expected start dice in 1..6, got 7" in out and "expected two dice like '3 5', got 'x y'" in out
    assert "expected 2 or 3 dice" in out
    files = list(tmp_path.glob("bobing-game-*.jsonl"))
    assert len(files) == 1 and f"journal: {files[0].name}" in out
    game = replay(files[0]).game
    # 2+2 = 4 from Ann, counter-clockwise round three seats: Ann, Cy, Bo, Ann - who throws 插金花.
    assert game.players == ("Ann", "Bo", "Cy") and game.champion is not None and game.champion.seat == 0


def test_end_of_input_before_any_game_starts_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run_main(monkeypatch, [], []) == 0
    assert "no game started" in capsys.readouterr().out
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("case", "argv", "message"),
    [
        ("unknown rules", ["--players", "A,B", "--rules", "house"], "expected a rule preset"),
        ("bad prize names", ["--players", "A,B", "--prizes", "a,b"], "comma-separated prize names"),
        ("the same player twice", ["--players", "A,A"], "unique player names"),
        ("bad start dice", ["--players", "A,B", "--start-throw", "0", "3"], "--start-throw: expected start dice in 1..6"),
        ("resume with players", ["--resume", "game.jsonl", "--players", "A"], "expected --resume alone"),
        ("resume a missing journal", ["--resume", "missing.jsonl"], "readable journal"),
    ],
)
def test_wrong_options_are_one_line_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], case: str, argv: list, message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run_main(monkeypatch, argv, []) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1
    assert not list(tmp_path.glob("bobing-game-*")), "a refused start left a journal behind"


def test_an_existing_journal_is_never_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "game.jsonl"
    journal.write_text("precious\n")
    assert run_main(monkeypatch, ["--players", "A,B", "--journal", str(journal)], []) == 2
    assert "already holds a game" in capsys.readouterr().err and journal.read_text() == "precious\n"


def test_a_corrupt_journal_names_the_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    lines, _ = scripted_game(3)
    journal = tmp_path / "game.jsonl"
    run_main(monkeypatch, ["--players", ",".join(PLAYERS), "--journal", str(journal), "--start-throw", "1", "1"], lines[:6])
    text = journal.read_text(encoding="utf-8").splitlines()
    text[3] = "not json"
    journal.write_text("\n".join(text) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert run_main(monkeypatch, ["--resume", str(journal)], []) == 2
    assert "line 4 is not a journal record" in capsys.readouterr().err


def test_the_dispatcher_runs_play_and_eof_leaves_a_complete_journal(tmp_path: Path) -> None:
    journal = tmp_path / "game.jsonl"
    command = [sys.executable, "-m", "bobing_vision", "play", "--players", "A,B,C", "--journal", str(journal),
               "--start-throw", "2", "2"]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(command, input="444463\nout\nnonsense\n", capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0 and "Traceback" not in done.stdout + done.stderr
    assert "四红 Si Hong" in done.stdout and "out of the bowl" in done.stdout and "game saved" in done.stdout
    game = replay(journal).game
    assert game.state.throws == 2 and game.champion is not None


def test_zhuangyuan_playoff_through_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    throws = ["112233", "out", "nonsense", "444423", "", "123456"]  # round 1: nobody; round 2: table 1
    assert run_main(monkeypatch, ["--playoff", "table 1,table 2"], throws) == 0
    out = capsys.readouterr().out
    assert "no 状元 this round: everyone throws again" in out and "expected six faces" in out
    assert out.rstrip().endswith("状元王中王: table 1 with 444423 四红 Si Hong (four red fours)")


def test_playoff_with_game_options_is_refused(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_main(monkeypatch, ["--playoff", "A,B", "--players", "C,D"], []) == 2
    assert "expected --playoff with --rules only, got --players too" in capsys.readouterr().err
