"""Six faces -> `Award` under a rule set."""

from __future__ import annotations

from collections.abc import Iterable

from bobing_vision.rules.award import RED, Award
from bobing_vision.rules.categories import Category
from bobing_vision.rules.ruleset import DEFAULT_PRESET, RuleSet
from bobing_vision.rules.throw import Throw, validate_faces

ONE = 1  # the face of 遍地锦 and of 插金花's two extra dice


def classify(faces: Iterable[int] | Throw, rules: RuleSet = RuleSet.preset(DEFAULT_PRESET)) -> Award:
    """The award of six faces in any order; bad faces raise InvalidInput (a ValueError)."""
    ordered = tuple(sorted(validate_faces(faces)))
    category = category_of(ordered, rules)
    return Award(category=category, bonus=_bonus(category, ordered, rules), faces=ordered, rules=rules)


def category_of(faces: tuple[int, ...], rules: RuleSet) -> Category:
    """The highest category six valid faces make (RULES.md table, read top down)."""
    reds = faces.count(RED)
    most = max(faces.count(face) for face in set(faces))  # the largest run of one face
    if reds == 6:
        return Category.LIU_BO_HONG
    if most == 6:
        return Category.BIAN_DI_JIN if faces[0] == ONE and rules.bian_di_jin_separate else Category.LIU_BO_HEI
    if reds == 4:
        return Category.CHA_JIN_HUA if faces.count(ONE) == 2 else Category.SI_HONG
    if reds == 5:
        return Category.WU_HONG
    if most == 5:
        return Category.WU_ZI
    if len(set(faces)) == 6:
        return Category.DUI_TANG
    if reds == 3:
        return Category.SAN_HONG
    if most == 4:
        return Category.SI_JIN
    return {2: Category.ER_JU, 1: Category.YI_XIU}.get(reds, Category.NONE)


def _bonus(category: Category, faces: tuple[int, ...], rules: RuleSet) -> tuple[Category, ...]:
    # Seed 000 contest rules (3)(4), seed 004: the red 4s beside a 五子 / 四进 earn their own lower award.
    reds = faces.count(RED)
    if category is Category.WU_ZI and rules.wu_zi_four_bonus and reds == 1:
        return (Category.YI_XIU,)
    if category is Category.SI_JIN and rules.si_jin_four_bonus and reds in (1, 2):
        return ({1: Category.YI_XIU, 2: Category.ER_JU}[reds],)
    return ()
