"""The whole loop on drawn throw clips: one announcement per throw, the game follows, corrections journalled."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest
from live_clipkit import BookReader, FrameBook, ListSource, Recorder, Throw, render

from bobing_vision.game import replay
from bobing_vision.live.announce import Outcome
from bobing_vision.live.events import EventSink
from bobing_vision.live.loop import Command, CommandKind, LiveLoop, parse_command
from bobing_vision.live.table import TableSetup, open_table
from bobing_vision.errors import InvalidInput
from bobing_vision.vision.reading import Bowl


def make_loop(script: list[Throw], rng: np.random.Generator, journal: Path | None = None, events: io.StringIO | None = None,
              resume: Path | None = None) -> tuple[LiveLoop, Recorder]:
    book = FrameBook()
    frames = render(script, rng, book)
    table, _ = open_table(TableSetup(players=("A", "B", "C"), journal=journal, resume=resume, start_throw=(1, 3)))
    recorder = Recorder()
    sink = EventSink(events) if events is not None else None
    return LiveLoop(ListSource(frames), BookReader(book), table, [recorder], sink), recorder


def test_one_announcement_per_throw_with_the_right_award_and_turns(rng: np.random.Generator) -> None:
    loop, rec = make_loop([Throw("444411"), Throw("123456"), Throw("421365"), Throw("222333")], rng)
    stats = loop.run()
    assert [a.outcome for a in rec.announced] == [Outcome.AWARD] * 4
    assert [a.award.category.name for a in rec.announced] == ["CHA_JIN_HUA", "DUI_TANG", "DUI_TANG", "NONE"]
    assert [a.player for a in rec.announced] == ["A", "C", "B", "A"]  # 1+3 counted from A, counter-clockwise
    assert loop.table.game.state.throws == 4 and stats.source_ended


def test_nothing_is_announced_while_dice_move(rng: np.random.Generator) -> None:
    loop, rec = make_loop([Throw("444411", moving=90, still=10)], rng)
    loop.run()
    assert rec.announced == []


def test_events_are_json_lines_in_order(rng: np.random.Generator) -> None:
    out = io.StringIO()
    loop, _ = make_loop([Throw("444411"), Throw("123456")], rng, events=out)
    loop.run()
    events = [json.loads(line) for line in out.getvalue().splitlines()]
    kinds = [e["event"] for e in events if e["event"] in ("throw_started", "settled", "announced")]
    assert kinds == ["throw_started", "settled", "announced"] * 2
    first = next(e for e in events if e["event"] == "announced")
    assert first["award"]["zh"] == "状元插金花" and first["faces"] == [1, 1, 4, 4, 4, 4]
    assert first["player"] == "A" and first["turn"] == "C" and "对堂" in first["prize"]


@pytest.mark.parametrize(
    ("case", "throw", "outcome", "recorded"),
    [
        ("die out of the bowl: a void throw", Throw("4444x1"), Outcome.VOID, 1),
        ("unreadable die: please look, nothing recorded", Throw("44?411"), Outcome.LOOK, 0),
    ],
)
def test_results_that_are_not_awards(case: str, throw: Throw, outcome: Outcome, recorded: int, rng: np.random.Generator) -> None:
    loop, rec = make_loop([throw], rng)
    loop.run()
    assert [a.outcome for a in rec.announced] == [outcome], case
    assert loop.table.game.state.throws == recorded
    if outcome is Outcome.LOOK:
        assert "can't read die 3 — please look" in rec.announced[0].text


@pytest.mark.parametrize(
    ("case", "throw"),
    [("a hand resting in the bowl", Throw("444411", hand=True)), ("a jittery read", Throw("444411", jitter=True))],
)
def test_no_announcement(case: str, throw: Throw, rng: np.random.Generator) -> None:
    loop, rec = make_loop([throw], rng)
    loop.run()
    assert rec.announced == [], case
    assert rec.notices, case  # the operator is told something, though nothing is announced
    assert loop.table.game.state.throws == 0


def test_a_correction_and_a_void_are_applied_and_journalled(rng: np.random.Generator, tmp_path: Path) -> None:
    journal = tmp_path / "game.jsonl"
    loop, rec = make_loop([Throw("444411")], rng, journal=journal)
    loop.run()
    loop.submit(parse_command("c 444412"))
    loop.submit(Command(CommandKind.VOID))
    loop.run()  # the source has ended: this just applies the queued commands
    assert [a.outcome for a in rec.announced] == [Outcome.AWARD, Outcome.CORRECTED, Outcome.VOIDED]
    assert rec.announced[1].award.category.name == "SI_HONG"
    loop.table.close()
    records = [json.loads(line)["event"] for line in journal.read_text().splitlines()]
    assert records == ["new", "start", "throw", "fix", "void"]
    assert replay(journal).game.state.throws == 0


def test_a_throw_that_could_not_be_read_is_entered_by_hand(rng: np.random.Generator) -> None:
    loop, rec = make_loop([Throw("44?411")], rng)
    loop.run()
    loop.submit(parse_command("c 444411"))
    loop.run()
    assert [a.outcome for a in rec.announced] == [Outcome.LOOK, Outcome.AWARD]
    assert loop.table.game.state.throws == 1


def test_a_resumed_journal_carries_on_the_same_game(rng: np.random.Generator, tmp_path: Path) -> None:
    journal = tmp_path / "game.jsonl"
    loop, _ = make_loop([Throw("444411"), Throw("123456")], rng, journal=journal)
    loop.run()
    loop.table.close()  # as after Ctrl-C: every event is already fsync'd
    loop2, rec2 = make_loop([Throw("444466")], rng, resume=journal)
    assert loop2.table.game.state.throws == 2 and loop2.table.turn == "B"
    loop2.run()
    assert [a.player for a in rec2.announced] == ["B"]
    loop2.table.close()
    game = replay(journal).game
    assert game.state.throws == 3 and [str(t) for _, t in game.history()] == ["114444", "123456", "444466"]


@pytest.mark.parametrize(
    ("text", "kind"),
    [("c 444411", CommandKind.CORRECT), ("v", CommandKind.VOID), ("t 4 4 4 4 1 1", CommandKind.THROW), ("n", CommandKind.NEW_GAME), ("q", CommandKind.QUIT)],
)
def test_commands_parse(text: str, kind: CommandKind) -> None:
    assert parse_command(text).kind is kind


@pytest.mark.parametrize("text", ["x", "c", "c 44441", "c 444417", "t"])
def test_bad_commands_say_what_is_expected(text: str) -> None:
    with pytest.raises(InvalidInput, match="expected"):
        parse_command(text)


def test_after_a_red_six_ends_the_game_throws_are_not_counted(rng: np.random.Generator) -> None:
    loop, rec = make_loop([Throw("444444"), Throw("123456")], rng)
    loop.run()
    assert [a.award.category.name for a in rec.announced] == ["LIU_BO_HONG"]
    assert "game over" in rec.announced[0].text
    assert any("not counted" in n for n in rec.notices)
    assert loop.table.game.state.throws == 1


def test_a_throw_the_camera_missed_is_entered_for_whoever_is_next(rng: np.random.Generator) -> None:
    # still, but only four dice seen, for longer than the settle time and the patience with unsure reads
    loop, rec = make_loop([Throw("444411", hand=True, still=45)], rng)
    loop.run()
    assert rec.announced == [] and any("`t FACES`" in n for n in rec.notices)
    loop.submit(parse_command("t 123456"))
    loop.run()
    assert [(a.outcome, a.player) for a in rec.announced] == [(Outcome.AWARD, "A")]
    assert loop.table.game.state.throws == 1


def test_an_unsteady_reading_is_entered_by_c_not_taken_as_a_correction(rng: np.random.Generator) -> None:
    loop, rec = make_loop([Throw("123456"), Throw("444411", jitter=True)], rng)
    loop.run()
    assert [a.player for a in rec.announced] == ["A"]  # the second throw flickers: nothing announced
    loop.submit(parse_command("c 444411"))
    loop.run()
    assert [(a.outcome, a.player) for a in rec.announced] == [(Outcome.AWARD, "A"), (Outcome.AWARD, "C")]
    assert loop.table.game.state.throws == 2


def test_dice_seen_too_small_are_said_once_with_what_to_do(rng: np.random.Generator) -> None:
    loop, rec = make_loop([Throw("444411", die_px=12), Throw("123456", die_px=12), Throw("421365", die_px=13)], rng)
    loop.run()
    advice = [n for n in rec.notices if "px wide" in n]
    assert advice == ["the dice are only 12 px wide: move the camera closer or use a higher resolution until they "
                      "are 24 px or more (dice under 18 px are often unreadable)"]
    assert [a.outcome for a in rec.announced] == [Outcome.AWARD] * 3  # advice only: the throws still count


def test_a_rim_running_off_the_frame_is_said_once_and_again_when_it_changes(rng: np.random.Generator) -> None:
    cut = Bowl(cx=160, cy=165, rx=100, ry=100)  # its near side below the 240 px frame
    further = Bowl(cx=160, cy=210, rx=100, ry=100)
    script = [Throw("123456"), Throw("444411", bowl=cut), Throw("421365", bowl=cut), Throw("222333", bowl=further)]
    loop, rec = make_loop(script, rng)
    loop.run()
    assert [n.split(":")[0] for n in rec.notices if "of the rim is in view" in n] == [
        "only 76% of the rim is in view", "only 59% of the rim is in view"]
    assert [a.outcome for a in rec.announced] == [Outcome.AWARD] * 4  # advice only: the throws still count


def test_a_bowl_washed_out_to_white_is_said_once(rng: np.random.Generator) -> None:
    script = [Throw("123456"), Throw("444411", porcelain=255), Throw("421365", porcelain=255), Throw("222333"),
              Throw("654321", porcelain=255)]
    loop, rec = make_loop(script, rng)
    loop.run()
    said = [n for n in rec.notices if "pure white" in n]
    assert len(said) == 1 and "exposure" in said[0]
    assert 90 <= int(said[0].split("%")[0]) <= 100  # the bowl drawn white, bar the dice's dark outlines
    assert [a.outcome for a in rec.announced] == [Outcome.AWARD] * 5  # advice only: the throws still count


def test_a_camera_looking_at_the_bowl_too_steeply_is_said_once(rng: np.random.Generator) -> None:
    steep = Bowl(cx=160, cy=120, rx=100, ry=50)  # a round rim seen 60 degrees off vertical
    script = [Throw("123456"), Throw("444411", bowl=steep), Throw("421365", bowl=steep), Throw("222333", bowl=steep)]
    loop, rec = make_loop(script, rng)
    loop.run()
    assert [n.split(":")[0] for n in rec.notices if "off vertical" in n] == [
        "the camera looks at the bowl 60 degrees off vertical"]
    assert [a.outcome for a in rec.announced] == [Outcome.AWARD] * 4  # advice only: the throws still count


def test_advice_is_said_again_when_it_comes_back_after_a_good_spell(rng: np.random.Generator) -> None:
    """Over-exposed, put right for three throws, then over-exposed again (the sun came round): said twice.
    The same three white throws with only two good ones between: once, as a hovering measure should be."""
    white, fine = Throw("444411", porcelain=255), Throw("123456")
    for between, times in ((3, 2), (2, 1)):
        loop, rec = make_loop([white, white] + [fine] * between + [white], rng)
        loop.run()
        assert len([n for n in rec.notices if "pure white" in n]) == times, between
        assert [a.outcome for a in rec.announced] == [Outcome.AWARD] * (3 + between)


def test_a_camera_moved_still_not_close_enough_is_told_again(rng: np.random.Generator) -> None:
    loop, rec = make_loop([Throw("444411", die_px=10), Throw("123456", die_px=15), Throw("421365", die_px=20)], rng)
    loop.run()
    assert [n.split(":")[0] for n in rec.notices if "px wide" in n] == ["the dice are only 10 px wide",
                                                                         "the dice are only 15 px wide"]
