"""`bobing classify 4 4 4 4 1 1 [--rules PRESET|FILE] [--json]`: one throw's award."""

from __future__ import annotations

import argparse
import json
import sys

# The rules core is standard library only, so importing it here keeps the command instant.
from bobing_vision.errors import InvalidInput
from bobing_vision.rules import Award, RuleSet, Throw, classify
from bobing_vision.rules.ruleset import DEFAULT_PRESET

HELP = "one throw's award from six faces"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bobing classify", description=HELP)
    parser.add_argument("faces", nargs="+", help='six faces 1..6: "4 4 4 4 1 1" or "444411"')
    parser.add_argument("--rules", default=DEFAULT_PRESET, help="a preset name or a rule-set TOML file")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        rules = RuleSet.load(args.rules)
        throw = Throw.parse(" ".join(args.faces))
        award = classify(throw, rules)
    except InvalidInput as exc:
        print(f"bobing classify: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(_as_json(award), ensure_ascii=False) if args.json else _as_text(award))
    return 0


def _as_json(award: Award) -> dict[str, object]:
    return {
        "faces": list(award.faces),
        "category": award.category.name,
        "zh": award.category.zh,
        "en": award.category.en,
        "bonus": [b.name for b in award.bonus],
        "tier": None if award.tier is None else award.tier.value,
        "is_zhuangyuan": award.is_zhuangyuan,
        "rules": award.rules.name,
    }


def _as_text(award: Award) -> str:
    faces = "".join(map(str, award.faces))
    tier = "wins nothing" if award.tier is None else f"{award.tier.zh} {award.tier.en}"
    lines = [f"{faces}  {award.category.zh}  {award.category.en}", f"prize: {tier}"]
    if award.bonus:
        lines.append("bonus: " + ", ".join(f"{b.zh} {b.en}" for b in award.bonus))
    lines.append(f"状元: {'yes' if award.is_zhuangyuan else 'no'}   (rules: {award.rules.name})")
    return "\n".join(lines)
