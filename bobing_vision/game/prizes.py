"""The prize pool: what each tier's prize is called, and prizes moving between pool, players and table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bobing_vision.errors import InvalidInput
from bobing_vision.rules import Tier

TIERS: tuple[Tier, ...] = tuple(Tier)  # best first: 状元 … 秀才
LOWER_TIERS: tuple[Tier, ...] = TIERS[1:]  # first come, first served; 状元 is held provisionally

# Preset names per tier, best first: the traditional 会饼 cakes, and seed 000's office-party goods.
_PRESETS: dict[str, tuple[str, ...]] = {
    "cakes": ("状元饼", "对堂饼", "三红饼", "四进饼", "二举饼", "一秀饼"),
    "goods": ("shopping card", "mini fridge", "briefcase", "shaver", "shampoo", "toothpaste"),
}


@dataclass(frozen=True)
class PrizeNames:
    """What one prize of each tier is (a cake, or goods), best tier first."""

    names: tuple[str, ...] = _PRESETS["cakes"]

    def __post_init__(self) -> None:
        names = tuple(str(name).strip() for name in self.names)
        if len(names) != len(TIERS) or not all(names):
            raise InvalidInput(f"expected {len(TIERS)} non-empty prize names, best first, got {list(self.names)!r}")
        object.__setattr__(self, "names", names)

    @classmethod
    def presets(cls) -> tuple[str, ...]:
        return tuple(_PRESETS)

    @classmethod
    def parse(cls, text: str) -> PrizeNames:
        """A preset name ("cakes", "goods") or six comma-separated names, best tier first."""
        if text in _PRESETS:
            return cls(_PRESETS[text])
        parts = text.split(",")
        if len(parts) != len(TIERS):
            raise InvalidInput(
                f"expected {' or '.join(_PRESETS)} or {len(TIERS)} comma-separated prize names, got {text!r}"
            )
        return cls(tuple(parts))

    def of(self, tier: Tier) -> str:
        return self.names[TIERS.index(tier)]


@dataclass(frozen=True)
class Transfer:
    """`count` prizes of `tier` moved. Seats are ints; source None is the pool, target None the whole table."""

    tier: Tier
    count: int
    source: int | None
    target: int | None


Counts = tuple[int, ...]  # one count per tier, in TIERS order


def counts_from(mapping: Mapping[Tier, int]) -> Counts:
    return tuple(mapping.get(tier, 0) for tier in TIERS)


def as_mapping(counts: Counts) -> dict[Tier, int]:
    return dict(zip(TIERS, counts))


def pool_counts(prize_count: Mapping[Tier, int]) -> Counts:
    """Validated starting pool: exactly one 状元 prize (it is handed over once), the rest >= 0."""
    counts = counts_from(prize_count)
    if counts[0] != 1:
        raise InvalidInput(f"expected exactly one {Tier.ZHUANGYUAN.zh} prize, got {counts[0]}")
    bad = [(tier, count) for tier, count in zip(TIERS, counts) if count < 0]
    if bad:
        raise InvalidInput(f"expected prize counts >= 0, got {bad[0][1]} for {bad[0][0].zh}")
    return counts


def add(counts: Counts, tier: Tier, delta: int) -> Counts:
    index = TIERS.index(tier)
    return counts[:index] + (counts[index] + delta,) + counts[index + 1 :]


@dataclass(frozen=True)
class Ledger:
    """Where every prize is: on the table (`pool`), with a seat (`held`), or shared by all (`shared`)."""

    pool: Counts
    held: tuple[Counts, ...]
    shared: Counts

    @classmethod
    def new(cls, pool: Counts, seats: int) -> Ledger:
        empty = (0,) * len(TIERS)
        return cls(pool=pool, held=(empty,) * seats, shared=empty)

    def count(self, tier: Tier, holder: int | None) -> int:
        """Prizes of a tier held by a seat (None: shared by the table)."""
        row = self.shared if holder is None else self.held[holder]
        return row[TIERS.index(tier)]

    def left(self, tier: Tier) -> int:
        return self.pool[TIERS.index(tier)]

    def total(self) -> int:
        """Every prize, wherever it is: constant through a game."""
        return sum(self.pool) + sum(sum(row) for row in self.held) + sum(self.shared)

    def move(self, transfer: Transfer) -> Ledger:
        """The ledger after a transfer; moving more than the source has is a bug, not input."""
        tier, count = transfer.tier, transfer.count
        if transfer.source is None:
            pool, held = add(self.pool, tier, -count), self.held
        else:
            pool, held = self.pool, self._with(self.held, transfer.source, tier, -count)
        shared = self.shared
        if transfer.target is None:
            shared = add(shared, tier, count)
        else:
            held = self._with(held, transfer.target, tier, count)
        moved = Ledger(pool=pool, held=held, shared=shared)
        if min(moved.pool) < 0 or any(min(row) < 0 for row in moved.held):
            raise AssertionError(f"transfer {transfer} takes more than is there")
        return moved

    @staticmethod
    def _with(held: tuple[Counts, ...], seat: int, tier: Tier, delta: int) -> tuple[Counts, ...]:
        return held[:seat] + (add(held[seat], tier, delta),) + held[seat + 1 :]


def apply_all(ledger: Ledger, transfers: Sequence[Transfer]) -> Ledger:
    for transfer in transfers:
        ledger = ledger.move(transfer)
    return ledger
