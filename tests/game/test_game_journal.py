"""The journal: one fsync'd JSON line per event; replay is identical; torn and corrupt lines."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bobing_vision.errors import InvalidInput, JournalError
from bobing_vision.game import Correction, Game, Journal, PrizeNames, StartThrow, ThrowEvent, replay, resume
from bobing_vision.rules import RuleSet
from bobing_vision.rules.ruleset_file import from_mapping, to_mapping


def recorded_game(path: Path, rng: random.Random, events: int, rules: RuleSet | None = None) -> Journal:
    """A journalled game with `events` random throws, outs and corrections after the start throw."""
    journal = Journal.create(path, Game(["东", "South", "西", "North"], rules, PrizeNames.parse("goods")))
    journal.apply(StartThrow(1, (rng.randint(1, 6), rng.randint(1, 6))))
    for _ in range(events):
        if journal.game.over:
            break
        roll = rng.random()
        faces = ThrowEvent(tuple(rng.randint(1, 6) for _ in range(6)))
        if roll < 0.1:
            journal.apply(ThrowEvent.out())
        elif roll < 0.2 and journal.game.state.throws:
            journal.apply(Correction.void() if roll < 0.15 else Correction(faces))
        else:
            journal.apply(faces)
    return journal


@pytest.mark.parametrize("preset", RuleSet.presets())
def test_replay_gives_the_identical_game(tmp_path: Path, preset: str) -> None:
    path = tmp_path / "game.jsonl"
    with recorded_game(path, random.Random(7), 150, RuleSet.preset(preset)) as journal:
        game = journal.game
    replayed = replay(path)
    assert replayed.torn is None and not replayed.ended
    assert replayed.game.state == game.state
    assert replayed.game.log == game.log
    assert replayed.game.players == game.players and replayed.game.prizes == game.prizes
    assert len(path.read_text(encoding="utf-8").splitlines()) == 1 + len(game.log)


@pytest.mark.parametrize("preset", RuleSet.presets())
def test_the_journal_holds_the_whole_rule_set(preset: str) -> None:
    rules = RuleSet.preset(preset)
    again = from_mapping(json.loads(json.dumps(to_mapping(rules))))
    assert again == rules and again.name == rules.name


def test_a_rules_file_deleted_after_the_start_does_not_matter(tmp_path: Path) -> None:
    toml = tmp_path / "house.toml"
    toml.write_text('preset = "competition"\ndirection = "counter-clockwise"\n[prize_counts]\nyi_xiu = 40\n')
    rules = RuleSet.load(toml)
    path = tmp_path / "game.jsonl"
    recorded_game(path, random.Random(3), 20, rules).close()
    toml.unlink()
    assert replay(path).game.rules == rules


@pytest.mark.parametrize(
    ("case", "tail"),
    [
        ("cut inside a record", b'{"event":"throw","no":'),
        ("cut after the opening brace", b"{"),
        ("garbage bytes", b"\xff\xfe\x00"),
    ],
)
def test_a_torn_last_line_is_reported_and_dropped(tmp_path: Path, case: str, tail: bytes) -> None:
    path = tmp_path / "game.jsonl"
    with recorded_game(path, random.Random(11), 40) as journal:
        state, lines = journal.game.state, len(journal.game.log) + 1
    with path.open("ab") as handle:
        handle.write(tail)
    replayed = replay(path)
    assert replayed.torn is not None and replayed.torn.line_no == lines + 1
    assert "cut short" in str(replayed.torn)
    assert replayed.game.state == state

    journal, torn = resume(path)  # cuts the torn bytes off and appends after the last good line
    assert torn is not None
    with journal:
        player = journal.game.current_player
        journal.apply(ThrowEvent.of("123456"))
        state = journal.game.state
    again = replay(path)
    assert again.torn is None and again.game.state == state
    assert json.loads(path.read_text(encoding="utf-8").splitlines()[-1])["player"] == player


def test_a_last_record_that_lost_only_its_newline_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    with recorded_game(path, random.Random(5), 10) as journal:
        state = journal.game.state
    path.write_bytes(path.read_bytes()[:-1])
    assert replay(path).torn is None and replay(path).game.state == state
    journal, _ = resume(path)
    with journal:
        journal.apply(ThrowEvent.out())
    assert replay(path).game.state.throws == state.throws + 1


@pytest.mark.parametrize(
    ("case", "line", "replacement", "message"),
    [
        ("not JSON", 4, "{{{", "line 4 is not a journal record"),
        ("a JSON list", 3, "[1, 2]", "line 3 is not a journal record"),
        ("an unknown event", 3, '{"event": "teleport"}', "line 3: expected an event"),
        ("bad faces in a fix", 3, '{"event": "fix", "faces": "999999"}', "line 3: expected faces in 1..6"),
        ("a throw by the wrong player", 3, '{"event": "throw", "no": 1, "player": "nobody", "faces": "123456"}',
         "line 3: expected throw 1 by"),
        ("a second header", 2, '{"event": "new"}', "line 2"),
        ("an end before the game is over", 3, '{"event": "end"}', "line 3: expected an 'end' record only after"),
    ],
)
def test_a_corrupt_line_in_the_middle_is_a_journal_error_naming_it(
    tmp_path: Path, case: str, line: int, replacement: str, message: str
) -> None:
    path = tmp_path / "game.jsonl"
    recorded_game(path, random.Random(2), 10).close()
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[line - 1] = replacement
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(JournalError, match=message):
        replay(path)


@pytest.mark.parametrize(
    ("case", "content", "message"),
    [
        ("empty", b"", "empty file"),
        ("no header", b'{"event": "start", "thrower": 0, "dice": [1, 2]}\n', "'new' game record first"),
        ("newer version", b'{"event": "new", "version": 99}\n', "version 1"),
        ("unknown rule key", b'{"event": "new", "version": 1, "rules": {"colour": 1}, "players": ["A"], "prizes": []}\n',
         "unknown key 'colour'"),
    ],
)
def test_unusable_journals(tmp_path: Path, case: str, content: bytes, message: str) -> None:
    path = tmp_path / "game.jsonl"
    path.write_bytes(content)
    with pytest.raises(JournalError, match=message):
        replay(path)


def test_a_missing_journal_is_a_journal_error(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="readable journal"):
        replay(tmp_path / "nope.jsonl")


def test_a_finished_game_is_closed_with_its_result(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    journal = Journal.create(path, Game(["A", "B"]))
    journal.apply(StartThrow(0, (1, 2)))  # count 3 from A: A starts
    journal.apply(ThrowEvent.of("444444"))
    with pytest.raises(InvalidInput, match="still in play"):
        Journal.create(tmp_path / "other.jsonl", Game(["A"])).end()
    journal.end()
    journal.end()  # once only
    journal.close()
    last = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])
    assert last["event"] == "end" and last["ending"] == "red-six" and last["champion"] == "A"
    assert sum(sum(held.values()) for held in last["held"].values()) == 63
    replayed = replay(path)
    assert replayed.ended and replayed.game.over
    journal, _ = resume(path)
    with journal, pytest.raises(InvalidInput, match="closed"):
        journal.apply(Correction.void())

    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"event": "void"}\n')
    with pytest.raises(JournalError, match="nothing after the 'end' record"):
        replay(path)


def test_a_new_journal_never_overwrites_a_game(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    recorded_game(path, random.Random(1), 3).close()
    before = path.read_bytes()
    with pytest.raises(InvalidInput, match="already holds a game"):
        Journal.create(path, Game(["A"]))
    assert path.read_bytes() == before


def test_events_applied_before_the_journal_are_written_too(tmp_path: Path) -> None:
    game = Game(["A", "B", "C"])
    game.apply(StartThrow(0, (2, 2)))
    game.apply(ThrowEvent.of("444123"))
    game.apply(Correction.fix("441235"))
    Journal.create(tmp_path / "late.jsonl", game).close()
    assert replay(tmp_path / "late.jsonl").game.state == game.state


def test_a_rejected_event_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    with Journal.create(path, Game(["A", "B"])) as journal:
        size = path.stat().st_size
        with pytest.raises(InvalidInput, match="start throw first"):
            journal.apply(ThrowEvent.of("123456"))
        assert path.stat().st_size == size
