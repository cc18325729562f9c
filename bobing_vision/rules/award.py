"""`Award`: what one throw earns under a rule set, totally ordered by a key built from the rule set's data."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, total_ordering

from bobing_vision.errors import InvalidInput
from bobing_vision.rules.categories import LOWER_TIER, Category, Tier
from bobing_vision.rules.ruleset import RuleSet, WuZiCompare

RED = 4  # the red 四点红 face


@total_ordering
@dataclass(frozen=True, eq=False)
class Award:
    """One throw's award. `a > b`: a beats b under their rule set; `a == b`: an exact tie."""

    category: Category
    bonus: tuple[Category, ...]  # extra lower awards (RULES.md bonus variants); empty when none
    faces: tuple[int, ...]  # sorted
    rules: RuleSet = field(repr=False)  # long; its .name says which

    @property
    def tier(self) -> Tier | None:
        """The prize tier this throw wins; None when it wins nothing."""
        if self.category.in_zhuangyuan_family:
            return Tier.ZHUANGYUAN if self.rules.wins(self.category) else None
        return LOWER_TIER.get(self.category)

    @property
    def is_zhuangyuan(self) -> bool:
        return self.tier is Tier.ZHUANGYUAN

    @property
    def bonus_tiers(self) -> tuple[Tier, ...]:
        """The tiers of the bonus awards, one prize each."""
        return tuple(LOWER_TIER[category] for category in self.bonus)

    @cached_property  # computed once: sorting a game's throws compares each many times
    def rank(self) -> tuple[int, ...]:
        """The comparison key: tier level first, then the rule set's tie-break inside the 状元 family."""
        tier = self.tier
        if tier is None:
            return (0,)
        if tier is not Tier.ZHUANGYUAN:
            return (len(Tier) - list(Tier).index(tier),)
        order = self.rules.zhuangyuan_order
        level = len(Tier) + len(order) - order.index(self.category)
        return (level, *_tiebreak(self.category, self.faces, self.rules))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Award):
            return NotImplemented
        return other.rules == self.rules and self.rank == other.rank

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Award):
            return NotImplemented
        if other.rules != self.rules:
            raise InvalidInput(f"expected awards under one rule set, got {self.rules.name} and {other.rules.name}")
        return self.rank < other.rank

    def __hash__(self) -> int:
        return hash((self.rank, self.rules))

    def __str__(self) -> str:
        extra = "".join(f" + {b.zh}" for b in self.bonus)
        return f"{''.join(map(str, self.faces))}: {self.category.zh}{extra} ({self.category.en})"


def _odd_die(faces: tuple[int, ...], repeated: int) -> int:
    return next(face for face in faces if face != repeated)


def _face_rank(face: int, rules: RuleSet) -> int:
    # Higher is better: the first face in `face_order` gets the highest number.
    return len(rules.face_order) - rules.face_order.index(face)


def _tiebreak(category: Category, faces: tuple[int, ...], rules: RuleSet) -> tuple[int, ...]:
    """Inside one 状元 category: the parts to compare, per the rule set's switches (empty: all tie)."""
    repeated = max(set(faces), key=faces.count)
    if category is Category.LIU_BO_HEI:
        return (_face_rank(repeated, rules),) if rules.black_six_by_face else ()
    if category is Category.WU_HONG:
        return (_odd_die(faces, RED),) if rules.wu_hong_by_odd_die else ()
    if category is Category.WU_ZI:
        odd = _odd_die(faces, repeated)
        if rules.wu_zi_compare is WuZiCompare.FACE_THEN_ODD_DIE:
            return (_face_rank(repeated, rules), odd)
        return (odd,)
    if category is Category.SI_HONG:
        return (sum(faces) - 4 * RED,) if rules.si_hong_by_sum else ()
    return ()  # 红六勃, 遍地锦, 插金花: one throw each
