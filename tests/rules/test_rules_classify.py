"""classify: every throw counted against RULES.md, the rule sheets' orderings, bad faces, purity."""

from __future__ import annotations

import doctest
import itertools
import subprocess
import sys
from collections import Counter

import pytest

import bobing_vision.rules
from bobing_vision.errors import InvalidInput
from bobing_vision.rules import Award, Category, RuleSet, Throw, Tier, classify

ALL_THROWS = list(itertools.product(range(1, 7), repeat=6))
C = Category

# RULES.md "Exact counts under the plain rules (no bonuses; 遍地锦 separate)".
PLAIN_COUNTS = {
    C.LIU_BO_HONG: 1,
    C.BIAN_DI_JIN: 1,
    C.LIU_BO_HEI: 4,
    C.CHA_JIN_HUA: 15,
    C.WU_HONG: 30,
    C.WU_ZI: 150,
    C.SI_HONG: 360,
    C.DUI_TANG: 720,
    C.SAN_HONG: 2500,
    C.SI_JIN: 1875,
    C.ER_JU: 9300,
    C.YI_XIU: 17400,
    C.NONE: 14300,
}

# The category of the best throw under each preset (the head of its 状元 order).
BEST_THROW = {
    "golden-flower-first": C.CHA_JIN_HUA,
    "red-six-first": C.LIU_BO_HONG,
    "competition": C.CHA_JIN_HUA,
}


def award(text: str, preset: str = "golden-flower-first") -> Award:
    return classify(Throw.parse(text), RuleSet.preset(preset))


@pytest.fixture(scope="module", params=RuleSet.presets())
def all_awards(request: pytest.FixtureRequest) -> tuple[RuleSet, list[Award]]:
    rules = RuleSet.preset(request.param)
    return rules, [classify(faces, rules) for faces in ALL_THROWS]


def test_the_46656_throws_match_the_rules_md_counts(all_awards: tuple[RuleSet, list[Award]]) -> None:
    rules, awards = all_awards
    expected = dict(PLAIN_COUNTS)
    if not rules.bian_di_jin_separate:  # 111111 is then the fifth 黑六勃
        expected[C.LIU_BO_HEI] += expected.pop(C.BIAN_DI_JIN)
    assert Counter(a.category for a in awards) == expected
    assert sum(expected.values()) == 6**6


def test_bonus_counts_follow_rules_md(all_awards: tuple[RuleSet, list[Award]]) -> None:
    rules, awards = all_awards
    bonuses = Counter((a.category, a.bonus) for a in awards if a.bonus)
    expected: Counter[tuple[Category, tuple[Category, ...]]] = Counter()
    if rules.wu_zi_four_bonus:
        expected[(C.WU_ZI, (C.YI_XIU,))] = 30  # "150 (30 of them with a 4 as the odd die)"
    if rules.si_jin_four_bonus:
        expected[(C.SI_JIN, (C.ER_JU,))] = 75  # "75 with two 4s"
        expected[(C.SI_JIN, (C.YI_XIU,))] = 600  # "600 with one 4"
    assert bonuses == expected


def test_tiers_cover_every_throw_with_63_prize_table(all_awards: tuple[RuleSet, list[Award]]) -> None:
    rules, awards = all_awards
    tiers = Counter(a.tier for a in awards)
    family = sum(n for c, n in PLAIN_COUNTS.items() if c.in_zhuangyuan_family)
    losing_family = 0 if C.LIU_BO_HEI in rules.zhuangyuan_order else 4
    assert tiers[Tier.ZHUANGYUAN] == family - losing_family
    assert tiers[None] == PLAIN_COUNTS[C.NONE] + losing_family
    assert tiers[Tier.DUI_TANG] == 720
    assert sum(a.is_zhuangyuan for a in awards) == tiers[Tier.ZHUANGYUAN]


def test_sorting_all_throws_is_consistent(all_awards: tuple[RuleSet, list[Award]]) -> None:
    _, awards = all_awards
    ranked = sorted(awards)
    assert all(a <= b for a, b in zip(ranked, ranked[1:]))
    assert ranked[-1].category is BEST_THROW[ranked[-1].rules.name]
    assert ranked[0].tier is None


# (case, preset, a, relation, b): the examples of RULES.md and the seed sheets.
ORDERINGS = [
    ("si_hong_sum_9_beats_8", "golden-flower-first", "444463", ">", "444426"),
    ("si_hong_equal_sums_tie", "golden-flower-first", "444433", "==", "444415"),
    ("weakest_wu_zi_beats_best_si_hong", "golden-flower-first", "111112", ">", "444466"),
    ("seed004_wu_hong_dai_6_beats_dai_3", "golden-flower-first", "444446", ">", "444443"),
    ("seed004_si_hong_8_beats_5", "golden-flower-first", "444435", ">", "444423"),
    ("seed000_wu_zi_odd_die_only", "competition", "333335", ">", "666663"),
    ("default_wu_zi_odd_die_only", "golden-flower-first", "333335", ">", "666663"),
    ("red_six_first_wu_zi_face_first", "red-six-first", "666663", ">", "333335"),
    ("red_six_first_same_face_then_odd_die", "red-six-first", "555556", ">", "555554"),
    ("golden_flower_beats_six_red", "golden-flower-first", "444411", ">", "444444"),
    ("six_red_beats_golden_flower", "red-six-first", "444444", ">", "444411"),
    ("red_six_first_black_six_beats_golden_flower", "red-six-first", "222222", ">", "444411"),
    ("six_red_beats_black_six", "golden-flower-first", "444444", ">", "666666"),
    ("black_six_beats_wu_hong", "golden-flower-first", "222222", ">", "444446"),
    ("seed000_black_six_by_face_6_over_5", "golden-flower-first", "666666", ">", "555555"),
    ("seed000_black_six_by_face_3_over_2", "golden-flower-first", "333333", ">", "222222"),
    ("default_bian_di_jin_over_black_six", "golden-flower-first", "111111", ">", "666666"),
    ("competition_bian_di_jin_under_six_red", "competition", "444444", ">", "111111"),
    ("competition_bian_di_jin_over_wu_hong", "competition", "111111", ">", "444446"),
    ("competition_black_six_is_nothing", "competition", "666666", "==", "123566"),
    ("competition_black_six_loses_to_yi_xiu", "competition", "412355", ">", "555555"),
    ("dui_tang_beats_san_hong", "golden-flower-first", "123456", ">", "444123"),
    ("san_hong_beats_si_jin", "golden-flower-first", "444123", ">", "222256"),
    ("si_jin_beats_er_ju", "golden-flower-first", "222256", ">", "441235"),
    ("er_ju_beats_yi_xiu", "golden-flower-first", "441235", ">", "412355"),
    ("yi_xiu_beats_nothing", "golden-flower-first", "412355", ">", "123566"),
    ("lower_tiers_tie_by_tier", "golden-flower-first", "222215", "==", "555536"),
    ("bonus_does_not_lift_si_jin", "competition", "222244", "==", "555536"),
    ("dui_tang_beats_si_jin_with_bonus", "competition", "123456", ">", "222244"),
    ("nothing_ties_nothing", "golden-flower-first", "112233", "==", "556623"),
    ("si_hong_beats_dui_tang", "golden-flower-first", "444412", ">", "123456"),
]


@pytest.mark.parametrize(
    ("preset", "a", "relation", "b"), [row[1:] for row in ORDERINGS], ids=[row[0] for row in ORDERINGS]
)
def test_rule_sheet_orderings(preset: str, a: str, relation: str, b: str) -> None:
    left, right = award(a, preset), award(b, preset)
    if relation == ">":
        assert left > right and right < left and left != right
    else:
        assert left == right and not left > right and not left < right
        assert hash(left) == hash(right)


def test_wu_hong_with_a_one_is_not_golden_flower_and_beats_every_wu_zi() -> None:
    five_red = award("444441")
    assert five_red.category is C.WU_HONG
    wu_zi = [a for a in map(classify, ALL_THROWS) if a.category is C.WU_ZI]
    assert len(wu_zi) == 150 and all(five_red > other for other in wu_zi)


# (case, faces, category, bonus under competition)
SINGLE_THROWS = [
    ("wu_zi_with_odd_four", "111114", C.WU_ZI, (C.YI_XIU,)),
    ("si_hong_sum_4_not_golden_flower", "444422", C.SI_HONG, ()),
    ("golden_flower_any_order", "141444", C.CHA_JIN_HUA, ()),
    ("dui_tang_any_order", "635241", C.DUI_TANG, ()),
    ("si_jin_with_two_fours", "442222", C.SI_JIN, (C.ER_JU,)),
    ("si_jin_with_one_four", "422223", C.SI_JIN, (C.YI_XIU,)),
    ("si_jin_without_four", "222233", C.SI_JIN, ()),
    ("three_pairs_is_nothing", "112233", C.NONE, ()),
    ("san_hong_with_pair", "444113", C.SAN_HONG, ()),
]


@pytest.mark.parametrize(
    ("faces", "category", "bonus"), [r[1:] for r in SINGLE_THROWS], ids=[r[0] for r in SINGLE_THROWS]
)
def test_single_throws(faces: str, category: Category, bonus: tuple[Category, ...]) -> None:
    got = award(faces, "competition")
    assert (got.category, got.bonus) == (category, bonus)
    assert got.bonus_tiers == tuple(Tier[b.name] for b in bonus)
    assert got.faces == tuple(sorted(int(ch) for ch in faces))


def test_any_iterable_of_ints_in_any_order() -> None:
    expected = award("444411")
    assert classify([1, 4, 4, 1, 4, 4]) == expected
    assert classify((f for f in (4, 1, 4, 4, 1, 4))) == expected
    assert classify(Throw((1, 1, 4, 4, 4, 4))) == expected
    numpy = pytest.importorskip("numpy")
    assert classify(numpy.array([4, 4, 4, 4, 1, 1])).category is C.CHA_JIN_HUA


BAD_FACES = [
    ("five_faces", [4, 4, 4, 4, 1], "expected 6 faces, got 5"),
    ("seven_faces", [1] * 7, "expected 6 faces, got 7"),
    ("zero", [0, 1, 2, 3, 4, 5], "expected faces in 1..6, got 0"),
    ("seven", [1, 2, 3, 4, 5, 7], "expected faces in 1..6, got 7"),
    ("float", [1, 2, 3, 4, 5, 6.0], "expected an integer face, got float 6.0"),
    ("text_face", [1, 2, 3, 4, 5, "6"], "expected an integer face, got str '6'"),
    ("bool", [True, 2, 3, 4, 5, 6], "expected an integer face, got bool True"),
    ("none_face", [None, 2, 3, 4, 5, 6], "expected an integer face, got NoneType None"),
    ("a_string", "444411", "got the text '444411' (use Throw.parse"),
    ("a_number", 444411, "expected six integer faces, got int 444411"),
    ("nothing", None, "expected six integer faces, got NoneType None"),
]


@pytest.mark.parametrize(("faces", "message"), [r[1:] for r in BAD_FACES], ids=[r[0] for r in BAD_FACES])
def test_bad_faces_say_what_was_wrong(faces: object, message: str) -> None:
    with pytest.raises(InvalidInput, match=None) as caught:
        classify(faces)  # type: ignore[arg-type]
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_awards_under_different_rule_sets_do_not_compare() -> None:
    a, b = award("444411"), award("444411", "red-six-first")
    assert a != b
    with pytest.raises(InvalidInput, match="under one rule set"):
        _ = a < b


def test_names_exist_for_every_category_and_tier() -> None:
    assert all(c.zh and c.en for c in Category)
    assert [t.zh for t in Tier] == ["状元", "榜眼", "探花", "进士", "举人", "秀才"]
    assert all(t.en for t in Tier)


def test_importing_rules_loads_only_the_standard_library() -> None:
    code = (
        "import sys; import bobing_vision.rules; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('cv2','numpy','onnxruntime','torch'))); "
        "print(sorted(m for m in sys.modules if m.startswith('bobing_vision')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    heavy, ours = out.strip().splitlines()
    assert heavy == "[]"
    assert all(m in ("bobing_vision", "bobing_vision.errors") or m.startswith("bobing_vision.rules") for m in eval(ours))


def test_package_docstring_examples_run() -> None:
    result = doctest.testmod(bobing_vision.rules)
    assert result.attempted > 0 and result.failed == 0
