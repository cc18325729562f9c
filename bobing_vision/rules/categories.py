"""What a throw can be (`Category`) and what it can win (`Tier`), with their Chinese and English names."""

from __future__ import annotations

from enum import Enum


class BilingualEnum(Enum):
    """An enum whose members are (key, Chinese name, English name); the value is the key."""

    zh: str
    en: str

    def __new__(cls, key: str, zh: str, en: str) -> BilingualEnum:
        member = object.__new__(cls)
        member._value_ = key
        member.zh = zh
        member.en = en
        return member


class Tier(BilingualEnum):
    """The prize tiers of a table, best first; the value is the key used in rule-set files."""

    ZHUANGYUAN = ("zhuangyuan", "状元", "Zhuangyuan (top scholar)")
    DUI_TANG = ("dui_tang", "榜眼", "Bangyan (second scholar)")
    SAN_HONG = ("san_hong", "探花", "Tanhua (third scholar)")
    SI_JIN = ("si_jin", "进士", "Jinshi (palace graduate)")
    ER_JU = ("er_ju", "举人", "Juren (provincial graduate)")
    YI_XIU = ("yi_xiu", "秀才", "Xiucai (county scholar)")


class Category(BilingualEnum):
    """What six faces show, best first within the 状元 family; member names are the keys of RULES.md."""

    LIU_BO_HONG = ("LIU_BO_HONG", "红六勃", "Liu Bo Hong (six red fours)")
    BIAN_DI_JIN = ("BIAN_DI_JIN", "遍地锦", "Bian Di Jin (six ones)")
    LIU_BO_HEI = ("LIU_BO_HEI", "黑六勃", "Liu Bo Hei (six of a kind, black)")
    CHA_JIN_HUA = ("CHA_JIN_HUA", "状元插金花", "Cha Jin Hua (four fours and two ones)")
    WU_HONG = ("WU_HONG", "五红", "Wu Hong (five red fours)")
    WU_ZI = ("WU_ZI", "五子登科", "Wu Zi Deng Ke (five of a kind)")
    SI_HONG = ("SI_HONG", "四红", "Si Hong (four red fours)")
    DUI_TANG = ("DUI_TANG", "对堂", "Dui Tang (straight 1-6)")
    SAN_HONG = ("SAN_HONG", "三红", "San Hong (three red fours)")
    SI_JIN = ("SI_JIN", "四进", "Si Jin (four of a kind)")
    ER_JU = ("ER_JU", "二举", "Er Ju (two red fours)")
    YI_XIU = ("YI_XIU", "一秀", "Yi Xiu (one red four)")
    NONE = ("NONE", "无", "nothing")

    @property
    def in_zhuangyuan_family(self) -> bool:
        """SI_HONG and everything above it (RULES.md): ranked by the rule set's 状元 order."""
        return self in ZHUANGYUAN_FAMILY


# The 状元 family; which of them win, and in what order, is the rule set's choice.
ZHUANGYUAN_FAMILY: frozenset[Category] = frozenset(
    {
        Category.LIU_BO_HONG,
        Category.BIAN_DI_JIN,
        Category.LIU_BO_HEI,
        Category.CHA_JIN_HUA,
        Category.WU_HONG,
        Category.WU_ZI,
        Category.SI_HONG,
    }
)

# Below the 状元 family every category wins exactly one tier, the same under every rule set.
LOWER_TIER: dict[Category, Tier] = {
    Category.DUI_TANG: Tier.DUI_TANG,
    Category.SAN_HONG: Tier.SAN_HONG,
    Category.SI_JIN: Tier.SI_JIN,
    Category.ER_JU: Tier.ER_JU,
    Category.YI_XIU: Tier.YI_XIU,
}
