"""The text the CLI and the announcer show: Chinese and English, prizes by their configured names."""

import dataclasses
import subprocess
import sys

from bobing_vision.game import Game, PrizeNames, StartThrow, ThrowEvent
from bobing_vision.game.text import award_text, outcome_text, result_text, status_text
from bobing_vision.rules import ExhaustedTier, RuleSet, Tier, classify


def test_award_text_is_chinese_and_english_with_tier_and_bonus() -> None:
    text = award_text(classify([5, 5, 5, 5, 5, 4], RuleSet.preset("competition")))
    assert "五子登科" in text and "Wu Zi" in text and "状元" in text and "bonus 一秀" in text
    assert award_text(classify([1, 1, 2, 2, 3, 3])).endswith("wins nothing")


def test_outcome_text_names_prizes_chases_and_the_next_player() -> None:
    rules = dataclasses.replace(
        RuleSet.preset("golden-flower-first"),
        exhausted_tier=ExhaustedTier.CHASE,
        prize_counts=((Tier.ZHUANGYUAN, 1), (Tier.DUI_TANG, 1), (Tier.SAN_HONG, 4), (Tier.SI_JIN, 8),
                      (Tier.ER_JU, 16), (Tier.YI_XIU, 32)),  # fmt: skip
    )
    game = Game(["甲", "乙"], rules, PrizeNames.parse("goods"))
    game.apply(StartThrow(0, (1, 2)))  # count 3 from 甲 round two seats: 甲 starts
    first = outcome_text(game, game.apply(ThrowEvent.of("123456")))
    assert "甲 takes 1 x mini fridge (榜眼)" in first and first[-1] == "next: 乙"
    second = outcome_text(game, game.apply(ThrowEvent.of("654321")))
    assert "乙 takes 1 x mini fridge (榜眼) from 甲 (追)" in second
    assert game.history() == ((0, ThrowEvent.of("123456")), (1, ThrowEvent.of("654321")))
    status = "\n".join(status_text(game))
    assert "round 2, 甲 to throw" in status and "榜眼 0/1" in status and "provisional 状元: none yet" in status


def test_result_text_counts_every_prize() -> None:
    game = Game(["A"])
    game.apply(StartThrow(0, (1, 1)))
    game.apply(ThrowEvent.of("444444"))
    lines = result_text(game)
    assert lines[0].startswith("result: 红六勃") and lines[-1] == "  prizes handed out: 63 of 63"


def test_the_game_package_imports_nothing_heavy() -> None:
    code = "import sys, bobing_vision.game; print(sorted(m for m in ('cv2', 'numpy', 'onnxruntime') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_package_docstring_example_runs() -> None:
    import doctest

    import bobing_vision.game

    result = doctest.testmod(bobing_vision.game)
    assert result.attempted > 0 and result.failed == 0
