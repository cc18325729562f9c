"""Bobing rules core: six faces -> `Award` under a `RuleSet`. Pure: standard library only.

    >>> from bobing_vision.rules import classify
    >>> award = classify([4, 4, 4, 4, 1, 1])
    >>> award.category.zh, award.is_zhuangyuan
    ('状元插金花', True)
    >>> classify([4, 4, 4, 4, 6, 3]) > classify([4, 4, 4, 4, 2, 6])
    True
"""

from bobing_vision.rules.award import Award
from bobing_vision.rules.categories import Category, Tier
from bobing_vision.rules.classify import category_of, classify
from bobing_vision.rules.ruleset import Direction, ExhaustedTier, RedSixEnding, RuleSet, WuZiCompare
from bobing_vision.rules.throw import Throw

__all__ = [
    "Award",
    "Category",
    "Direction",
    "ExhaustedTier",
    "RedSixEnding",
    "RuleSet",
    "Throw",
    "Tier",
    "WuZiCompare",
    "category_of",
    "classify",
]
