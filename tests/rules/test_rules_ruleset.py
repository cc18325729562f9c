"""RuleSet: presets per the rule sheets, every variant switch, TOML files and their errors."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from bobing_vision.errors import InvalidInput
from bobing_vision.rules import (
    Award,
    Category,
    Direction,
    ExhaustedTier,
    RedSixEnding,
    RuleSet,
    Throw,
    Tier,
    WuZiCompare,
    classify,
)
from bobing_vision.rules.ruleset_file import from_mapping, to_mapping

C = Category
DEFAULT = RuleSet.preset("golden-flower-first")


def test_presets_default_first_and_unknown_lists_choices() -> None:
    assert RuleSet.presets() == ("golden-flower-first", "red-six-first", "competition")
    with pytest.raises(InvalidInput) as caught:
        RuleSet.preset("nope")
    message = str(caught.value)
    assert "'nope'" in message and all(name in message for name in RuleSet.presets())


def test_classify_defaults_to_golden_flower_first() -> None:
    assert classify([4, 4, 4, 4, 1, 1]).rules == DEFAULT
    assert DEFAULT == RuleSet()  # the dataclass defaults are the default preset


# (case, preset, field, value): what each preset takes from the sheets (see ruleset.py comments).
PRESET_FIELDS = [
    ("default_order", "golden-flower-first", "zhuangyuan_order",
     (C.CHA_JIN_HUA, C.LIU_BO_HONG, C.BIAN_DI_JIN, C.LIU_BO_HEI, C.WU_HONG, C.WU_ZI, C.SI_HONG)),
    ("red_six_order", "red-six-first", "zhuangyuan_order",
     (C.LIU_BO_HONG, C.BIAN_DI_JIN, C.LIU_BO_HEI, C.CHA_JIN_HUA, C.WU_HONG, C.WU_ZI, C.SI_HONG)),
    ("competition_order_without_black_six", "competition", "zhuangyuan_order",
     (C.CHA_JIN_HUA, C.LIU_BO_HONG, C.BIAN_DI_JIN, C.WU_HONG, C.WU_ZI, C.SI_HONG)),
    ("competition_bian_di_jin_separate", "competition", "bian_di_jin_separate", True),
    ("default_six_ones_is_bian_di_jin", "golden-flower-first", "bian_di_jin_separate", True),
    ("competition_wu_zi_odd_die", "competition", "wu_zi_compare", WuZiCompare.ODD_DIE),
    ("default_wu_zi_odd_die", "golden-flower-first", "wu_zi_compare", WuZiCompare.ODD_DIE),
    ("competition_wu_zi_bonus", "competition", "wu_zi_four_bonus", True),
    ("competition_si_jin_bonus", "competition", "si_jin_four_bonus", True),
    ("default_no_bonus", "golden-flower-first", "si_jin_four_bonus", False),
    ("competition_clockwise", "competition", "direction", Direction.CLOCKWISE),
    ("default_counter_clockwise", "golden-flower-first", "direction", Direction.COUNTER_CLOCKWISE),
    ("red_six_counter_clockwise", "red-six-first", "direction", Direction.COUNTER_CLOCKWISE),
    ("competition_step_down", "competition", "exhausted_tier", ExhaustedTier.STEP_DOWN),
    ("default_nothing_when_gone", "golden-flower-first", "exhausted_tier", ExhaustedTier.NOTHING),
    ("competition_skips_turn", "competition", "out_of_bowl_skips_next_turn", True),
    ("red_six_skips_turn", "red-six-first", "out_of_bowl_skips_next_turn", True),
    ("default_no_skipped_turn", "golden-flower-first", "out_of_bowl_skips_next_turn", False),
    ("red_six_lights_out", "red-six-first", "black_six_ends_game", True),
    ("default_black_six_plays_on", "golden-flower-first", "black_six_ends_game", False),
    ("default_golden_flower_takes_dui_tang", "golden-flower-first", "cha_jin_hua_takes_dui_tang", True),
    ("default_red_six_takes_all", "golden-flower-first", "red_six_ending", RedSixEnding.TAKES_ALL),
    ("default_biggest_zhuangyuan_kept", "golden-flower-first", "own_smaller_zhuangyuan_replaces", False),
]


@pytest.mark.parametrize(
    ("preset", "name", "value"), [r[1:] for r in PRESET_FIELDS], ids=[r[0] for r in PRESET_FIELDS]
)
def test_preset_values_follow_the_sheets(preset: str, name: str, value: object) -> None:
    assert getattr(RuleSet.preset(preset), name) == value


@pytest.mark.parametrize("preset", RuleSet.presets())
def test_prize_counts_are_the_63_cakes(preset: str) -> None:
    rules = RuleSet.preset(preset)
    assert [rules.prize_count(t) for t in Tier] == [1, 2, 4, 8, 16, 32]
    assert rules.name == preset


def _award(faces: str, **changes: Any) -> Award:
    return classify(Throw.parse(faces), dataclasses.replace(DEFAULT, **changes))


def test_switch_bian_di_jin_separate() -> None:
    folded = _award("111111", bian_di_jin_separate=False)
    assert folded.category is C.LIU_BO_HEI
    assert folded < _award("222222", bian_di_jin_separate=False)  # weakest 黑六勃 by face
    separate = _award("111111")
    assert separate.category is C.BIAN_DI_JIN and separate.is_zhuangyuan
    assert separate > _award("666666")


def test_switch_black_six_by_face() -> None:
    assert _award("666666") > _award("222222")
    assert _award("666666", black_six_by_face=False) == _award("222222", black_six_by_face=False)


def test_switch_face_order() -> None:
    order = (1, 2, 3, 5, 6)
    assert _award("222222", face_order=order) > _award("666666", face_order=order)
    b = WuZiCompare.FACE_THEN_ODD_DIE
    assert _award("222223", face_order=order, wu_zi_compare=b) > _award("666665", face_order=order, wu_zi_compare=b)


def test_switch_wu_hong_by_odd_die() -> None:
    assert _award("444446") > _award("444441")
    assert _award("444446", wu_hong_by_odd_die=False) == _award("444441", wu_hong_by_odd_die=False)


def test_switch_wu_zi_compare() -> None:
    assert _award("333335") > _award("666663")
    b = WuZiCompare.FACE_THEN_ODD_DIE
    assert _award("666663", wu_zi_compare=b) > _award("333335", wu_zi_compare=b)
    assert _award("666664", wu_zi_compare=b) > _award("666663", wu_zi_compare=b)
    assert _award("666663", wu_zi_compare=b) == _award("666636", wu_zi_compare=b)


def test_switch_si_hong_by_sum() -> None:
    assert _award("444466") > _award("444412")
    assert _award("444466", si_hong_by_sum=False) == _award("444412", si_hong_by_sum=False)


def test_switch_bonuses() -> None:
    assert _award("111114").bonus == ()
    assert _award("111114", wu_zi_four_bonus=True).bonus == (C.YI_XIU,)
    assert _award("222244", wu_zi_four_bonus=True).bonus == ()  # each bonus has its own switch
    assert _award("222244", si_jin_four_bonus=True).bonus_tiers == (Tier.ER_JU,)
    assert _award("222241", si_jin_four_bonus=True).bonus_tiers == (Tier.YI_XIU,)
    assert _award("222213", si_jin_four_bonus=True).bonus == ()


def test_switch_zhuangyuan_order() -> None:
    without_black_six = tuple(c for c in DEFAULT.zhuangyuan_order if c is not C.LIU_BO_HEI)
    loser = _award("666666", zhuangyuan_order=without_black_six)
    assert loser.category is C.LIU_BO_HEI and loser.tier is None and not loser.is_zhuangyuan
    assert loser == _award("123566", zhuangyuan_order=without_black_six)
    swapped = (C.SI_HONG, *[c for c in DEFAULT.zhuangyuan_order if c is not C.SI_HONG])
    assert _award("444466", zhuangyuan_order=swapped) > _award("444444", zhuangyuan_order=swapped)


BAD_FIELDS = [
    ("order_not_family", {"zhuangyuan_order": (C.DUI_TANG, *DEFAULT.zhuangyuan_order)}, "状元-family"),
    ("order_missing_si_hong", {"zhuangyuan_order": DEFAULT.zhuangyuan_order[:-1]}, "['SI_HONG']"),
    ("order_duplicate", {"zhuangyuan_order": (C.WU_ZI, *DEFAULT.zhuangyuan_order)}, "each category once"),
    ("face_order_with_four", {"face_order": (6, 5, 4, 3, 2)}, "face_order"),
    ("prize_count_negative", {"prize_counts": ((Tier.ZHUANGYUAN, -1), *DEFAULT.prize_counts[1:])}, ">= 0"),
    ("prize_count_missing_tier", {"prize_counts": DEFAULT.prize_counts[1:]}, "one prize count per tier"),
]


@pytest.mark.parametrize(("changes", "message"), [r[1:] for r in BAD_FIELDS], ids=[r[0] for r in BAD_FIELDS])
def test_bad_fields_are_refused(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        dataclasses.replace(DEFAULT, **changes)
    assert message in str(caught.value)


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_toml_preset_plus_overrides(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        'preset = "competition"\n'
        'direction = "counter-clockwise"\n'
        'exhausted_tier = "chase"\n'
        'zhuangyuan_order = ["liu_bo_hong", "CHA_JIN_HUA", "BIAN_DI_JIN", "WU_HONG", "WU_ZI", "SI_HONG"]\n'
        "[prize_counts]\nyi_xiu = 40\n",
    )
    rules = RuleSet.from_toml(path)
    assert rules.direction is Direction.COUNTER_CLOCKWISE
    assert rules.exhausted_tier is ExhaustedTier.CHASE
    assert rules.zhuangyuan_order[0] is C.LIU_BO_HONG
    assert rules.prize_count(Tier.YI_XIU) == 40 and rules.prize_count(Tier.ER_JU) == 16
    assert rules.si_jin_four_bonus  # untouched fields come from the preset
    assert RuleSet.load(str(path)) == rules and RuleSet.load(path) == rules


def test_toml_without_preset_starts_from_the_default(tmp_path: Path) -> None:
    assert RuleSet.from_toml(_write(tmp_path, "")) == DEFAULT
    assert RuleSet.from_toml(_write(tmp_path, "black_six_ends_game = true\n")).black_six_ends_game


@pytest.mark.parametrize("preset", RuleSet.presets())
def test_to_mapping_round_trips_through_from_mapping(preset: str) -> None:
    rules = RuleSet.preset(preset)
    again = from_mapping(json.loads(json.dumps(to_mapping(rules))), source="journal")
    assert again == rules and again.name == rules.name


def test_load_a_preset_by_name() -> None:
    assert RuleSet.load("competition") is RuleSet.preset("competition")


# (case, file text, words the message must contain)
BAD_TOML = [
    ("unknown_key", "colour = 1\n", ["unknown key 'colour'", "direction", "preset"]),
    ("unknown_preset", 'preset = "nope"\n', ["'preset'", "golden-flower-first", "competition", "'nope'"]),
    ("bad_enum", 'direction = "sideways"\n', ["'direction'", "clockwise, counter-clockwise", "'sideways'"]),
    ("bad_enum_ending", 'red_six_ending = "all"\n', ["'red_six_ending'", "takes-all"]),
    ("bool_as_text", 'black_six_ends_game = "yes"\n', ["'black_six_ends_game'", "true or false"]),
    ("bad_category", 'zhuangyuan_order = ["GOLD"]\n', ["'zhuangyuan_order'", "CHA_JIN_HUA"]),
    ("order_missing", 'zhuangyuan_order = ["CHA_JIN_HUA"]\n', ["zhuangyuan_order", "SI_HONG"]),
    ("bad_face_order", "face_order = [6, 5]\n", ["face_order", "(1, 2, 3, 5, 6)"]),
    ("bad_tier", "[prize_counts]\nemperor = 1\n", ["'prize_counts.emperor'", "zhuangyuan"]),
    ("negative_count", "[prize_counts]\nyi_xiu = -1\n", ["'prize_counts.yi_xiu'", ">= 0"]),
    ("syntax", "direction = \n", ["expected TOML", "syntax"]),
]


@pytest.mark.parametrize(("text", "words"), [r[1:] for r in BAD_TOML], ids=[r[0] for r in BAD_TOML])
def test_toml_errors_name_the_key_and_the_choices(tmp_path: Path, text: str, words: list[str]) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(InvalidInput) as caught:
        RuleSet.from_toml(path)
    message = str(caught.value)
    assert all(word in message for word in words), message
    assert "\n" not in message.strip()


def test_missing_file_and_unknown_name(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="readable rule-set file"):
        RuleSet.from_toml(tmp_path / "absent.toml")
    with pytest.raises(InvalidInput, match="golden-flower-first"):
        RuleSet.load(str(tmp_path / "absent.toml"))
