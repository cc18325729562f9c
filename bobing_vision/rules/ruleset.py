"""A rule set: the 状元 order and every variant switch of RULES.md, as data.

Three named presets; a TOML file can start from one and override fields (see `ruleset_file`).
Each preset field says in a comment which sheet in /work/shared/seeds/ it comes from:
seed 000 = the contest sheet (and its annex), seed 001 = the Xiamen guide, seed 004 = the collected rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from bobing_vision.errors import InvalidInput
from bobing_vision.rules.categories import ZHUANGYUAN_FAMILY, Category, Tier


class Direction(Enum):
    """Which way the start count and the turns go round the table."""

    CLOCKWISE = "clockwise"
    COUNTER_CLOCKWISE = "counter-clockwise"


class ExhaustedTier(Enum):
    """What a throw of a tier whose prizes are all gone gets."""

    NOTHING = "nothing"  # first come, first served; later throws of that tier get nothing
    CHASE = "chase"  # 追: take the prize from the nearest earlier winner of that tier, counting backwards
    STEP_DOWN = "step-down"  # a prize one tier lower is handed out instead (seed 000)


class RedSixEnding(Enum):
    """What the thrower of 红六勃 takes when the game ends at once."""

    TAKES_ALL = "takes-all"
    TAKES_ZHUANGYUAN_AND_DUI_TANG = "takes-zhuangyuan-and-dui-tang"


class WuZiCompare(Enum):
    """How two 五子 compare (RULES.md variants A and B)."""

    ODD_DIE = "odd-die"  # A: the odd die only, higher wins
    FACE_THEN_ODD_DIE = "face-then-odd-die"  # B: the repeated face per `face_order`, then the odd die


GOLDEN_FLOWER_ORDER: tuple[Category, ...] = (
    Category.CHA_JIN_HUA,
    Category.LIU_BO_HONG,
    Category.BIAN_DI_JIN,
    Category.LIU_BO_HEI,
    Category.WU_HONG,
    Category.WU_ZI,
    Category.SI_HONG,
)
RED_SIX_ORDER: tuple[Category, ...] = (
    Category.LIU_BO_HONG,
    Category.BIAN_DI_JIN,
    Category.LIU_BO_HEI,
    Category.CHA_JIN_HUA,
    Category.WU_HONG,
    Category.WU_ZI,
    Category.SI_HONG,
)
# 黑六勃 is missing on purpose: in the contest it wins nothing (seed 000: 一律视为无任何奖品).
COMPETITION_ORDER: tuple[Category, ...] = (
    Category.CHA_JIN_HUA,
    Category.LIU_BO_HONG,
    Category.BIAN_DI_JIN,
    Category.WU_HONG,
    Category.WU_ZI,
    Category.SI_HONG,
)
# Family members a rule set may leave out of its order: they then win nothing.
OPTIONAL_IN_ORDER: frozenset[Category] = frozenset({Category.BIAN_DI_JIN, Category.LIU_BO_HEI})

DEFAULT_PRIZE_COUNTS: tuple[tuple[Tier, int], ...] = (
    (Tier.ZHUANGYUAN, 1),
    (Tier.DUI_TANG, 2),
    (Tier.SAN_HONG, 4),
    (Tier.SI_JIN, 8),
    (Tier.ER_JU, 16),
    (Tier.YI_XIU, 32),
)  # 1+2+4+8+16+32 = 63, the traditional 会饼 (all sheets)
BLACK_FACES = (1, 2, 3, 5, 6)  # faces that can make a 黑六勃 or a 五子
NUMERIC_FACE_ORDER: tuple[int, ...] = (6, 5, 3, 2, 1)  # seed 000: 6个6>6个5>6个3>6个2>6个1

DEFAULT_PRESET = "golden-flower-first"


@dataclass(frozen=True)
class RuleSet:
    """Every choice RULES.md leaves open. Field defaults are the `golden-flower-first` preset's."""

    name: str = field(default="custom", compare=False)
    # 状元 family, best first; a family member left out wins nothing.
    zhuangyuan_order: tuple[Category, ...] = GOLDEN_FLOWER_ORDER
    # 111111 is its own 遍地锦; otherwise it is a 黑六勃 of face 1.
    bian_di_jin_separate: bool = True
    # 黑六勃 compared by `face_order`; otherwise all 黑六勃 tie.
    black_six_by_face: bool = True
    # The black faces best first, for 黑六勃 and for 五子 variant B.
    face_order: tuple[int, ...] = NUMERIC_FACE_ORDER
    # 五红 compared by the sixth die (带6 best); otherwise all 五红 tie.
    wu_hong_by_odd_die: bool = True
    wu_zi_compare: WuZiCompare = WuZiCompare.ODD_DIE
    # 四红 compared by the sum of the other two dice (12 best); otherwise all 四红 tie.
    si_hong_by_sum: bool = True
    # 五子 whose odd die is a 4 also earns one 一秀.
    wu_zi_four_bonus: bool = False
    # 四进 whose other two dice are both 4 also earns one 二举; with exactly one 4, one 一秀.
    si_jin_four_bonus: bool = False
    # Fields the table game reads.
    direction: Direction = Direction.COUNTER_CLOCKWISE
    exhausted_tier: ExhaustedTier = ExhaustedTier.NOTHING
    own_smaller_zhuangyuan_replaces: bool = False
    cha_jin_hua_takes_dui_tang: bool = True
    red_six_ending: RedSixEnding = RedSixEnding.TAKES_ALL
    black_six_ends_game: bool = False
    out_of_bowl_skips_next_turn: bool = False
    prize_counts: tuple[tuple[Tier, int], ...] = DEFAULT_PRIZE_COUNTS

    def __post_init__(self) -> None:
        _check_order(self.zhuangyuan_order)
        if sorted(self.face_order) != list(BLACK_FACES):
            raise InvalidInput(f"expected face_order to hold each of {BLACK_FACES} once, got {self.face_order}")
        tiers = [tier for tier, _ in self.prize_counts]
        if sorted(tiers, key=list(Tier).index) != list(Tier):  # each tier exactly once
            raise InvalidInput(f"expected one prize count per tier {[t.value for t in Tier]}, got {tiers}")
        negative = [(tier.value, count) for tier, count in self.prize_counts if count < 0]
        if negative:
            raise InvalidInput(f"expected prize counts >= 0, got {negative}")

    def prize_count(self, tier: Tier) -> int:
        """How many prizes of `tier` a table starts with."""
        return dict(self.prize_counts)[tier]

    def wins(self, category: Category) -> bool:
        """Whether a 状元-family category is a 状元 under this rule set (lower categories always win their tier)."""
        return category in self.zhuangyuan_order

    @staticmethod
    def presets() -> tuple[str, ...]:
        """The preset names, the default first."""
        return tuple(PRESETS)

    @staticmethod
    def preset(name: str) -> RuleSet:
        """A named preset; an unknown name raises InvalidInput listing the choices."""
        try:
            return PRESETS[name]
        except (KeyError, TypeError):
            raise InvalidInput(f"expected a rule preset, one of {', '.join(PRESETS)}; got {name!r}") from None

    @staticmethod
    def from_toml(path: str | Path) -> RuleSet:
        """A TOML file: `preset = "..."` as the base (default: golden-flower-first) plus field overrides."""
        from bobing_vision.rules.ruleset_file import load_toml

        return load_toml(Path(path))

    @staticmethod
    def load(name_or_path: str | Path) -> RuleSet:
        """A preset name or a path to a TOML file."""
        if isinstance(name_or_path, str) and name_or_path in PRESETS:
            return PRESETS[name_or_path]
        path = Path(name_or_path)
        if path.is_file():
            return RuleSet.from_toml(path)
        raise InvalidInput(
            f"expected a rule preset ({', '.join(PRESETS)}) or a TOML file, got {str(name_or_path)!r}"
        )


def _check_order(order: tuple[Category, ...]) -> None:
    outside = [c.name for c in order if c not in ZHUANGYUAN_FAMILY]
    if outside:
        raise InvalidInput(f"expected zhuangyuan_order to hold 状元-family categories only, got {outside}")
    if len(set(order)) != len(order):
        raise InvalidInput(f"expected each category once in zhuangyuan_order, got {[c.name for c in order]}")
    missing = sorted(c.name for c in ZHUANGYUAN_FAMILY - OPTIONAL_IN_ORDER - set(order))
    if missing:
        raise InvalidInput(f"expected zhuangyuan_order to contain {missing} too, got {[c.name for c in order]}")


PRESETS: dict[str, RuleSet] = {
    # The default. Order: RULES.md default (seed 000 annex, seed 001 main list, seed 004 order 1).
    # 遍地锦 separate, between 红六勃 and 黑六勃: RULES.md's default order and its count table, and the
    #   seed 000 contest sheet ("遍地锦 ... 次于六杯红"). Sheets that fold it into 黑六勃 (seed 000's
    #   first list: 6个6>...>6个1) are the `bian_di_jin_separate = false` switch.
    # 五红/五子 by the odd die, 四红 by the sum: seed 000 annex notes (1)(2), seed 004 notes 1-2.
    # Bonuses off: seeds 000 annex and 001 pay none (only seed 004 lists the 四进 one); RULES.md "plain".
    # Counter-clockwise, nothing once a tier is gone, no skipped turn: seed 001 main text (追 and the
    #   skipped turn are "一般大家不采用" / "传统"), seed 004 the same.
    # 插金花 takes the 对堂 prizes, 红六勃 takes all: seed 001, seed 004 notes 4-5.
    # 黑六勃 does not end the game: it is a 状元 in this order (seed 001 note 1: lights out not adopted).
    # Own smaller 状元 does not replace: seed 001 §3.4 (the biggest 状元 wins); seed 004 note 6 is a variant.
    DEFAULT_PRESET: RuleSet(name=DEFAULT_PRESET),
    # Traditional old Xiamen: seed 001 note 2, seed 004 order 2 (红六勃 > 黑六勃 > 插金花).
    # 五子 variant B: seed 001's 状元 list ("先比较相同点数的数字大小 ... 其他按数字顺序, 则比较后面的点数").
    # Old customs: lights out on 黑六勃 ("以前规定...把灯关掉", seeds 000 and 004 note 4) and the
    #   skipped turn after a die leaves the bowl ("传统是下一轮不能投", seed 001).
    "red-six-first": RuleSet(
        name="red-six-first",
        zhuangyuan_order=RED_SIX_ORDER,
        wu_zi_compare=WuZiCompare.FACE_THEN_ODD_DIE,
        black_six_ends_game=True,
        out_of_bowl_skips_next_turn=True,
    ),
    # Seed 000 contest sheet: 插金花 > 六杯红 > 遍地锦 > 五红 > 五子 > 四红, 六博黑 wins nothing,
    #   五子 by Y only (333335>666663), bonuses (3)(4) paid, clockwise (1), skipped turn (2),
    #   one tier lower once a tier is gone (说明 2). It gives 插金花 no 对堂 prizes.
    "competition": RuleSet(
        name="competition",
        zhuangyuan_order=COMPETITION_ORDER,
        wu_zi_four_bonus=True,
        si_jin_four_bonus=True,
        direction=Direction.CLOCKWISE,
        exhausted_tier=ExhaustedTier.STEP_DOWN,
        cha_jin_hua_takes_dui_tang=False,
        out_of_bowl_skips_next_turn=True,
    ),
}
