"""Compare dice models set by set, wrong verdicts first: the figures a retrained model is adopted by.

    python bench/compare_models.py --models models /tmp/candidate --sets DIR [DIR ...] [--workers 2]
    python bench/compare_models.py --models models --configs "" "sure_outside_score=0.6,layout.tolerance=0.1" --sets ...

For each set and model, `bobing eval`'s figures: right awards, wrong awards, false voids, right voids,
refused throws, labelled dice not found, face accuracy, wrong faces and generated coins read as dice
(sets made by `bobing synth` label their coins); then each model's totals over the sets, its flat dice
read by width (per kind of dice too, when the generated sets show both), and each throw it scored wrong
with the dice at fault. A wrong award or a false void is a throw scored wrong at the table, so a candidate
replaces the committed models only with no more of them, whatever it gains in right awards. Each later
model or configuration is also paired with the first, throw by throw: how many throws only the one or
the other scored right (and wrong), and an exact sign test's p-value, which says whether the two readers
differ on these throws beyond chance. It is paired die by die too (faces read right, wrong faces): the
real sets judge few throws or none, so their dice are what tells two readers of a new camera apart. Then
how the outcomes moved ("right face -> unreadable 25"), and with `--changed N` up to N of the throws and
dice behind each move, by set, file and the labelled die's index. (It cannot say whether a recipe is
better: another training seed of the same recipe moves the figures too, `models/HISTORY.md`.)

`--configs` measures pipeline thresholds the same way: each is a comma-separated list of `ReaderConfig`
fields to change (`bowl.` and `layout.` reach the nested ones; a tuple is written with `/`, e.g.
`size_band=0.6/1.5`; `none` turns an optional step off, e.g. `closer_zoom=none`); "" is the committed
configuration.
"""

from __future__ import annotations

import argparse
import math
import operator
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, fields, replace
from functools import reduce
from pathlib import Path
from typing import Any

Bands = dict[str | None, tuple[Any, ...]]  # kind of dice (None: every die) -> its width `Band`s

# What became of a labelled die, for pairing two readers die by die.
RIGHT_FACE, WRONG_FACE, UNREADABLE, MISSED = "right face", "wrong face", "unreadable", "missed"


@dataclass(frozen=True)
class Row:
    right_award: int
    wrong_award: int
    false_void: int
    right_void: int
    refused: int
    missed: int  # labelled dice not found: a floor that drops real dice shows here, not in wrong faces
    faces: int  # labelled dice found, whose face is scored
    faces_right: int
    faces_wrong: int  # read as another face (unreadable ones are neither right nor wrong)
    coins_read: int  # generated coins (labelled under synth.coins) read as a die with a face

    @property
    def wrong_verdicts(self) -> int:
        return self.wrong_award + self.false_void

    def __add__(self, other: Row) -> Row:
        return Row(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))


def changed(config: Any, path: list[str], value: str) -> Any:
    """`config` (a frozen dataclass) with the field at `path` set to `value`, parsed as its type."""
    name = path[0]
    # Fields only: a method or property of the config is no setting to change.
    if name not in {field.name for field in fields(config)}:
        raise ValueError(f"expected a field of {type(config).__name__}, got {name!r}")
    current = getattr(config, name)
    if len(path) > 1:
        return replace(config, **{name: changed(current, path[1:], value)})
    if value.lower() == "none":  # an optional step turned off (`closer_zoom=none`, `roi_margin=none`)
        parsed: Any = None
    elif isinstance(current, tuple):  # of its own items' type; an empty one (a step off) of numbers
        parsed = tuple((type(current[0]) if current else float)(v) for v in value.split("/"))
    elif isinstance(current, bool):  # bool("false") is True: the words themselves
        if value.lower() not in ("true", "false"):
            raise ValueError(f"expected true or false for {name}, got {value!r}")
        parsed = value.lower() == "true"
    elif current is None or isinstance(current, float):
        parsed = float(value)
    else:
        parsed = type(current)(value)
    return replace(config, **{name: parsed})


def reader_config(spec: str) -> Any:
    """The committed `ReaderConfig` with the changes in `spec` ("key=value,bowl.key=value,...")."""
    from bobing_vision.vision.config import ReaderConfig

    config = ReaderConfig()
    for item in filter(None, (part.strip() for part in spec.split(","))):
        key, sign, value = item.partition("=")
        if not sign:
            raise ValueError(f"expected key=value, got {item!r}")
        config = changed(config, key.strip().split("."), value.strip())
    return config


@dataclass(frozen=True)
class Measured:
    """One model's (and configuration's) reading of one set."""

    row: Row
    bands: Bands  # its dice lying flat by width, for all dice and for each kind of dice the set names
    wrong_lines: list[str]  # its throws scored wrong, as `bobing eval` lists them
    verdicts: dict[str, Any]  # file -> `Verdict`, for each image of one throw
    dice: dict[str, str]  # "file#index" -> what became of that labelled die (`die_states`)


@dataclass(frozen=True)
class Paired:
    """Throws two readers scored differently: how many got a kind of verdict from only one of them."""

    only_first: int
    only_second: int

    @property
    def p_value(self) -> float:
        """Exact two-sided sign test: the chance of a split at least this uneven if either reader were
        as likely as the other to be the one (1.0 when they never differ)."""
        n, k = self.only_first + self.only_second, min(self.only_first, self.only_second)
        return min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2**n)


def paired(first: dict[str, Any], second: dict[str, Any], kinds: frozenset[Any]) -> Paired:
    """Over the throws both readers judged (file -> `Verdict`), those given a verdict in `kinds` by one
    reader and not the other."""
    both = first.keys() & second.keys()
    return Paired(sum(first[f] in kinds and second[f] not in kinds for f in both),
                  sum(second[f] in kinds and first[f] not in kinds for f in both))


def transitions(first: dict[str, Any], second: dict[str, Any]) -> dict[tuple[Any, Any], list[str]]:
    """The keys (throws or dice) both readers judged whose outcome differs, grouped by (the first's outcome,
    the second's), keys sorted; the commonest change first."""
    moved: dict[tuple[Any, Any], list[str]] = {}
    for key in sorted(first.keys() & second.keys()):
        if first[key] != second[key]:
            moved.setdefault((first[key], second[key]), []).append(key)
    return dict(sorted(moved.items(), key=lambda item: -len(item[1])))


def outcome_name(outcome: Any) -> str:
    """A verdict's or a die state's name for a person: "right award", "unreadable"."""
    return str(getattr(outcome, "value", outcome)).replace("_", " ")


def die_states(result: Any) -> dict[str, str]:
    """Each labelled die of one scored image (an `ImageResult`), keyed "file#index": read with its
    face, with another face, found but not read, or not found."""
    states = dict.fromkeys(range(len(result.labels)), MISSED)
    for (index, _), pair in zip(result.match.pairs, result.pairs):  # `DiePair.face_right` says what is right
        states[index] = UNREADABLE if pair.found.face is None else RIGHT_FACE if pair.face_right else WRONG_FACE
    return {f"{result.file}#{index}": state for index, state in states.items()}


def measure(models: Path, folder: Path, config: str = "") -> Measured:
    """The set's figures, its dice lying flat by width (`Evaluation.by_width`), its throws scored wrong
    and each throw's verdict."""
    import cv2

    import numpy as np

    from bobing_vision.dataset.labels import load_labels
    from bobing_vision.evaluation import ImageResult, evaluate
    from bobing_vision.evaluation.report import scored_wrong_lines
    from bobing_vision.evaluation.verdicts import Verdict
    from bobing_vision.vision.pipeline import OnnxDiceReader

    cv2.setNumThreads(1)
    coins = {name: label.extra.get("synth", {}).get("coins", []) for name, label in load_labels(folder).items()}
    coins_read = 0

    def count_coins(_frame: object, result: ImageResult) -> None:
        nonlocal coins_read
        coins_read += sum(
            any(np.hypot(d.center[0] - x, d.center[1] - y) < diameter / 2 for x, y, diameter in coins.get(result.file, []))
            for d in result.extra if d.readable)

    reader = OnnxDiceReader(models_dir=models, track_bowl=False, config=reader_config(config))
    ev = evaluate(folder, reader, on_image=count_coins)
    verdicts = ev.verdicts
    confusion = ev.confusion
    faces_right = sum(confusion[i][i] for i in range(6))
    faces_wrong = sum(confusion[i][j] for i in range(6) for j in range(6) if i != j)
    row = Row(verdicts[Verdict.RIGHT_AWARD], verdicts[Verdict.WRONG_AWARD], verdicts[Verdict.FALSE_VOID],
              verdicts[Verdict.RIGHT_VOID], verdicts[Verdict.REFUSED], ev.dice - ev.matched, ev.matched, faces_right,
              faces_wrong, coins_read)
    bands: Bands = {None: ev.by_width(), **{kind: ev.by_width(kind=kind) for kind in ev.dice_kinds}}
    wrong = [f"{folder.name}/{line}" if k == 0 else line
             for r in ev.scored_wrong for k, line in enumerate(scored_wrong_lines(r))]
    return Measured(row, bands, wrong, {r.file: r.verdict for r in ev.results if r.verdict is not None},
                    {key: state for r in ev.results for key, state in die_states(r).items()})


def bands_by_kind(per_set: Sequence[Bands]) -> dict[str | None, list[Any]]:
    """Width bands summed over the sets, for the tables `bobing eval` would show
    (`report.band_table_kinds`): every die (None), and each kind of dice over the sets that show it."""
    from bobing_vision.evaluation.report import band_table_kinds

    kinds = sorted({kind for bands in per_set for kind in bands if kind is not None})
    return {key: [reduce(operator.add, band) for band in zip(*(bands[key] for bands in per_set if key in bands))]
            for key in band_table_kinds(kinds)}


def line(label: str, row: Row) -> str:
    face = f"{row.faces_right / row.faces:6.1%}" if row.faces else "     -"
    return (f"{label:<40} {row.right_award:>6} {row.wrong_award:>6} {row.false_void:>6} {row.right_void:>6} "
            f"{row.refused:>7} {row.missed:>6} {face} {row.faces_wrong:>6} {row.coins_read:>6}")


def print_paired(variants: list[tuple[Path, str]], sets: Sequence[Path],
                 measured: dict[tuple[Path, Path, str], Measured], name: Callable[[Path, str], str],
                 listed: int = 0) -> None:
    """Each variant after the first, paired with it over all the sets: throw by throw, then die by die, and
    how each outcome moved (`listed`: up to this many throws or dice named for each move)."""
    from bobing_vision.evaluation.verdicts import WRONG_VERDICTS, Verdict

    def outcomes(m: Path, c: str, kind: str) -> dict[str, Any]:
        """Each throw's verdict (kind "verdicts") or each labelled die's state ("dice"), keyed by set too."""
        return {f"{s}/{key}": v for s in sets for key, v in getattr(measured[(m, s, c)], kind).items()}

    pairings = (("right awards (throws)", "verdicts", frozenset({Verdict.RIGHT_AWARD})),
                ("wrong verdicts (throws)", "verdicts", WRONG_VERDICTS),
                ("faces read right (dice)", "dice", frozenset({RIGHT_FACE})),
                ("wrong faces (dice)", "dice", frozenset({WRONG_FACE})))
    units = {"verdicts": "throws", "dice": "dice"}
    first = {kind: outcomes(*variants[0], kind) for kind in units}  # once, for every variant
    for m, c in variants[1:]:
        print(f"\npaired with {name(*variants[0])}: {name(m, c)}")
        second = {kind: outcomes(m, c, kind) for kind in units}  # once, for its pairings and its moves
        for label, kind, kinds in pairings:
            split = paired(first[kind], second[kind], kinds)
            print(f"  {label}: {split.only_first} only with the first, {split.only_second} only with this "
                  f"(sign test p = {split.p_value:.3f})")
        for kind, unit in units.items():
            moved = transitions(first[kind], second[kind])
            print(f"  {unit} that changed: " + (", ".join(
                f"{outcome_name(a)} -> {outcome_name(b)} {len(keys)}" for (a, b), keys in moved.items()) or "none"))
            if not listed:
                continue
            for (a, b), keys in moved.items():
                more = f" and {len(keys) - listed} more" if len(keys) > listed else ""
                print(f"    {outcome_name(a)} -> {outcome_name(b)}: {', '.join(keys[:listed])}{more}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, nargs="+", required=True, help="model folders, the committed first")
    parser.add_argument("--sets", type=Path, nargs="+", required=True, help="labelled sets (DATA.md folders)")
    parser.add_argument("--configs", nargs="+", default=[""], metavar="SPEC",
                        help='pipeline configurations, each "key=value,..." over ReaderConfig ("": committed)')
    parser.add_argument("--workers", type=int, default=2, help="processes, one (model, config, set) each")
    parser.add_argument("--changed", type=int, default=0, metavar="N",
                        help="name up to N throws and dice for each way an outcome changed from the first variant "
                             "(default 0: the counts alone)")
    args = parser.parse_args(argv)
    if args.changed < 0:
        parser.error(f"--changed: expected 0 or more throws and dice to name, got {args.changed}")
    for spec in args.configs:
        try:
            reader_config(spec)
        except ValueError as exc:
            parser.error(f"--configs {spec!r}: {exc}")
    variants = [(m, c) for m in args.models for c in args.configs]
    jobs = [(m, s, c) for m, c in variants for s in args.sets]
    with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
        measured = dict(zip(jobs, pool.map(measure, *zip(*jobs))))
    rows = {job: m.row for job, m in measured.items()}

    def name(models: Path, config: str) -> str:
        return f"{models} [{config}]" if config else str(models)

    print(f"{'set / model':<40} {'right':>6} {'wrong':>6} {'f.void':>6} {'void':>6} {'refused':>7} "
          f"{'missed':>6} {'faces':>6} {'wrongF':>6} {'coins':>6}")
    for s in args.sets:
        for m, c in variants:
            print(line(f"{s.name[:18]} / {name(m, c)}", rows[(m, s, c)]))
    print()
    for m, c in variants:
        total = sum((rows[(m, s, c)] for s in args.sets), Row(*([0] * len(fields(Row)))))
        print(line(f"all {len(args.sets)} sets / {name(m, c)}", total) + f"   wrong verdicts {total.wrong_verdicts}")
    print_paired(variants, args.sets, measured, name, args.changed)
    from bobing_vision.evaluation.report import band_line, dice_only

    for m, c in variants:
        for kind, bands in bands_by_kind([measured[(m, s, c)].bands for s in args.sets]).items():
            print(f"\nfaces by die width, all {len(args.sets)} sets / {name(m, c)} "
                  f"(dice lying flat, labelled width{dice_only(kind)})")
            print("\n".join(band_line(b) for b in bands if b.dice))
    for m, c in variants:
        wrong = [line for s in args.sets for line in measured[(m, s, c)].wrong_lines]
        if wrong:
            print(f"\nthrows scored wrong, all {len(args.sets)} sets / {name(m, c)}")
            print("\n".join(f"  {line}" for line in wrong))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
