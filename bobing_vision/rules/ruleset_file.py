"""A rule set from TOML: `preset = "..."` as the base, then any RuleSet field as an override.

    preset = "competition"
    direction = "counter-clockwise"
    zhuangyuan_order = ["LIU_BO_HONG", "CHA_JIN_HUA", "BIAN_DI_JIN", "WU_HONG", "WU_ZI", "SI_HONG"]
    [prize_counts]
    yi_xiu = 40

An unknown key or a bad value raises InvalidInput naming the key and what it allows.
"""

from __future__ import annotations

import dataclasses
import tomllib
import typing
from collections.abc import Callable, Mapping
from typing import Any
from enum import Enum
from pathlib import Path

from bobing_vision.errors import InvalidInput
from bobing_vision.rules.categories import Category, Tier
from bobing_vision.rules.ruleset import DEFAULT_PRESET, PRESETS, RuleSet

PRESET_KEY = "preset"
Parser = Callable[[str, object], object]


def load_toml(path: Path) -> RuleSet:
    """Read and check one rule-set file."""
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except OSError as exc:
        raise InvalidInput(f"expected a readable rule-set file, got {str(path)!r} ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInput(f"expected TOML in {str(path)!r}, got a syntax error: {exc}") from None
    return from_mapping(data, source=str(path))


def from_mapping(data: Mapping[str, object], source: str = "rule set") -> RuleSet:
    """A preset plus overrides from parsed TOML (or any mapping of field name -> value)."""
    parsers = _parsers()
    allowed = [PRESET_KEY, *parsers]
    unknown = [key for key in data if key not in allowed]
    if unknown:
        raise InvalidInput(f"{source}: unknown key {unknown[0]!r}; expected one of: {', '.join(allowed)}")
    base_name = data.get(PRESET_KEY, DEFAULT_PRESET)
    if not isinstance(base_name, str) or base_name not in PRESETS:
        raise InvalidInput(f"{source}: key 'preset' expected one of {', '.join(PRESETS)}; got {base_name!r}")
    base = PRESETS[base_name]
    changes: dict[str, Any] = {"name": f"{base_name}+{Path(source).stem}" if len(data) > 1 else base_name}
    try:
        for key, value in data.items():
            if key != PRESET_KEY:
                changes[key] = parsers[key](key, value)
        if isinstance(changes.get("prize_counts"), dict):
            changes["prize_counts"] = _merge_counts(base.prize_counts, changes["prize_counts"])
        return dataclasses.replace(base, **changes)
    except InvalidInput as exc:
        raise InvalidInput(f"{source}: {exc}") from None


def to_mapping(rules: RuleSet) -> dict[str, object]:
    """Every field as plain TOML/JSON values, the form `from_mapping` reads back to an equal RuleSet."""
    data: dict[str, object] = {}
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        if f.name == "prize_counts":
            data[f.name] = {tier.value: count for tier, count in value}
        elif isinstance(value, tuple):
            data[f.name] = [item.value if isinstance(item, Enum) else item for item in value]
        else:
            data[f.name] = value.value if isinstance(value, Enum) else value
    return data


def _parsers() -> dict[str, Parser]:
    """One parser per overridable RuleSet field, chosen by the field's type."""
    hints = typing.get_type_hints(RuleSet)
    special: dict[str, Parser] = {
        "name": _text,
        "zhuangyuan_order": _categories,
        "face_order": _faces,
        "prize_counts": _prize_counts,
    }
    parsers: dict[str, Parser] = {}
    for f in dataclasses.fields(RuleSet):
        kind = hints[f.name]
        if f.name in special:
            parsers[f.name] = special[f.name]
        elif kind is bool:
            parsers[f.name] = _bool
        elif isinstance(kind, type) and issubclass(kind, Enum):
            parsers[f.name] = _enum_parser(kind)
        else:  # a new RuleSet field needs a parser here; fail loudly at import of the first file
            raise TypeError(f"no TOML parser for RuleSet.{f.name}: {kind}")
    return parsers


def _bad(key: str, expected: str, value: object) -> InvalidInput:
    return InvalidInput(f"key {key!r} expected {expected}; got {value!r}")


def _text(key: str, value: object) -> str:
    if not isinstance(value, str) or not value:
        raise _bad(key, "a non-empty string", value)
    return value


def _bool(key: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise _bad(key, "true or false", value)
    return value


def _enum_parser(kind: type[Enum]) -> Parser:
    def parse(key: str, value: object) -> Enum:
        choices = [member.value for member in kind]
        if value not in choices:
            raise _bad(key, "one of " + ", ".join(map(str, choices)), value)
        return kind(value)

    return parse


def _categories(key: str, value: object) -> tuple[Category, ...]:
    names = [c.name for c in Category]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.upper() in names for v in value):
        raise _bad(key, "a list of category keys from " + ", ".join(names), value)
    return tuple(Category[v.upper()] for v in value)


def _faces(key: str, value: object) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise _bad(key, "a list of the faces 1, 2, 3, 5, 6 best first", value)
    return tuple(value)


def _prize_counts(key: str, value: object) -> dict[Tier, int]:
    by_key = {tier.value: tier for tier in Tier}
    tiers = list(by_key)
    if not isinstance(value, dict):
        raise _bad(key, "a table of tier = count with tiers " + ", ".join(tiers), value)
    counts: dict[Tier, int] = {}
    for tier, count in value.items():
        if tier not in tiers:
            raise _bad(f"{key}.{tier}", "a tier, one of " + ", ".join(tiers), tier)
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise _bad(f"{key}.{tier}", "a whole number >= 0", count)
        counts[by_key[tier]] = count
    return counts


def _merge_counts(base: tuple[tuple[Tier, int], ...], overrides: dict[Tier, int]) -> tuple[tuple[Tier, int], ...]:
    return tuple((tier, overrides.get(tier, count)) for tier, count in base)
