"""An `Evaluation` as one JSON object or as a table a person reads; rendering only, no printing."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from bobing_vision.dataset.labels import DieLabel
from bobing_vision.evaluation.scoring import FACES, RIM_TOLERANCE, UNREADABLE, Band, Evaluation, ImageResult

WORST_SHOWN = 10  # enough to look at by hand; the rest are in --annotate's pictures
DIGITS = 4  # ratios to 0.01 %: finer is noise on sets of a few hundred images


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, DIGITS)


def _mistakes(result: ImageResult) -> dict[str, Any]:
    return {
        "file": result.file,
        "errors": result.errors,
        "missed": len(result.missed),
        "extra": len(result.extra),
        "wrong_face": len(result.wrong_faces),
        "wrong_in_bowl": len(result.wrong_in_bowl),
    }


def _die(label: DieLabel) -> str:
    """A labelled die as a person names it: 'a 4 (leaning, out of the bowl, 12 px)'."""
    notes = ["leaning"] if label.cocked else []
    notes += ["out of the bowl"] if label.in_bowl is False else []
    notes += [f"{label.size:.0f} px"] if label.size is not None else []
    return f"a {label.face}" + (f" ({', '.join(notes)})" if notes else "")


def throw_faults(result: ImageResult) -> list[str]:
    """What the reader got wrong in one throw, die by die: a die read as another face or placed on the
    wrong side of the rim, a die not found, a thing read that is no labelled die."""
    faults = []
    for pair in result.pairs:
        if pair.face_right and not pair.misplaced:
            continue
        read = "not read" if pair.found.face is None else f"read {pair.found.face}"
        where = (" and placed " + ("in" if pair.found.in_bowl else "out of") + " the bowl") if pair.misplaced else ""
        faults.append(f"{_die(pair.label)} {read}{where}, {pair.found.confidence:.2f} sure")
    faults += [f"{_die(label)} not found" for label in result.missed]
    for die in result.extra:
        seen = "an unread thing" if die.face is None else f"a {die.face} read"
        side = "in" if die.in_bowl else "out of"
        faults.append(f"{seen} {side} the bowl at ({die.center[0]:.0f}, {die.center[1]:.0f}), where no die is "
                      f"labelled, {die.confidence:.2f} sure")
    return faults


def _scored_wrong_json(result: ImageResult) -> dict[str, Any]:
    assert result.verdict is not None  # only throws scored wrong come here
    return {"file": result.file, "verdict": result.verdict.value, "faces_read": list(result.reading.faces),
            "status": result.reading.status.value, "faults": throw_faults(result)}


def scored_wrong_lines(result: ImageResult) -> list[str]:
    """One throw scored wrong for a person: the verdict, the faces labelled and read, then each fault."""
    assert result.verdict is not None  # only throws scored wrong come here
    labelled = " ".join(str(d.face) + ("(out)" if d.in_bowl is False else "") for d in
                        sorted(result.labels, key=lambda d: d.face))
    read = " ".join(str(f) for f in result.reading.faces)
    lines = [f"{result.file}: {result.verdict.value.replace('_', ' ')}; labelled {labelled}, read {read or '-'} "
             f"({result.reading.status.value})"]
    return lines + [f"  {fault}" for fault in throw_faults(result)]


def _band_json(band: Band, unit: str) -> dict[str, Any]:
    return {f"low_{unit}": band.low, f"high_{unit}": None if math.isinf(band.high) else band.high, "dice": band.dice,
            "found": band.found, "read_right": band.read_right, "unreadable": band.unreadable,
            "read_wrong": band.read_wrong, "read_share": _round(band.read_share)}


def band_line(band: Band, unit: str = "px") -> str:
    """One band (of widths in px, or of pip contrasts in ΔE) as a line of the table: how many dice, and
    what became of them."""
    span = f"under {band.high:.0f} {unit}" if band.low == 0 else (
        f"{band.low:.0f} {unit} and over" if math.isinf(band.high) else f"{band.low:.0f}-{band.high:.0f} {unit}")
    return (f"  {span:16s}{band.dice:6d} dice: {_percent(band.read_share)} read right, {band.unreadable} unreadable, "
            f"{band.read_wrong} wrong, {band.dice - band.found} missed")


def band_table_kinds(kinds: Sequence[str]) -> tuple[str | None, ...]:
    """Which tables by width (or pip contrast) a report shows: every die (None), then each kind of dice
    when there are two or more (generated sets mix Chinese and ordinary dice, read very differently; one
    kind would only repeat the first table)."""
    return (None, *kinds) if len(kinds) > 1 else (None,)


def dice_only(kind: str | None) -> str:
    """The width table heading's note for one kind of dice ("" for every die)."""
    return "" if kind is None else f", {kind} dice only"


def to_json(evaluation: Evaluation, worst: int = WORST_SHOWN) -> dict[str, Any]:
    """The figures as plain JSON data; a ratio with nothing to count is null."""
    e = evaluation
    return {
        "die_recall": _round(e.die_recall),
        "die_precision": _round(e.die_precision),
        "face_accuracy": _round(e.face_accuracy),
        "flat_face_accuracy": _round(e.flat_face_accuracy),
        "leaning_dice": e.leaning,
        "image_accuracy": _round(e.image_accuracy),
        "in_bowl_accuracy": _round(e.in_bowl_accuracy),
        "images": e.images,
        "dice": e.dice,
        "found_dice": e.found,
        "matched_dice": e.matched,
        "in_bowl_dice": e.in_bowl_dice,
        "rim_accuracy": _round(e.rim_accuracy),
        "rims_labelled": e.rims_labelled,
        "rims_not_found": e.rims_not_found,
        "seconds_per_image": None if e.seconds_per_image is None else round(e.seconds_per_image, 6),
        "confusion": {
            "rows": "labelled face 1..6",
            "columns": [str(f) for f in FACES] + [UNREADABLE],
            "matrix": [list(row) for row in e.confusion],
        },
        "verdicts": {kind.value: n for kind, n in e.verdicts.items()},
        "faces_by_width": [_band_json(b, "px") for b in e.by_width()],
        "faces_by_width_by_dice": {kind: [_band_json(b, "px") for b in e.by_width(kind=kind)] for kind in e.dice_kinds},
        "faces_by_pip_contrast": [_band_json(b, "delta_e") for b in e.by_contrast()],
        "faces_by_pip_contrast_by_dice": {kind: [_band_json(b, "delta_e") for b in e.by_contrast(kind=kind)]
                                          for kind in e.dice_kinds},
        "worst": [_mistakes(r) for r in e.worst(worst)],
        "scored_wrong": [_scored_wrong_json(r) for r in e.scored_wrong],
        "images_failed": len(e.failed),
        "failed": [{"file": f.file, "reason": f.reason} for f in e.failed],
        "unlabelled": list(e.unlabelled),
    }


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def _leaning(counts: dict[str, int]) -> str:
    if not counts["dice"]:
        return "none labelled"
    return (f"{counts['dice']} matched: {counts['unreadable']} called unreadable, {counts['read_as_labelled']} "
            f"read as labelled, {counts['read_otherwise']} read otherwise")


def format_table(evaluation: Evaluation, worst: int = WORST_SHOWN) -> str:
    """The figures as lines of text: scores, confusion matrix, worst images, throws scored wrong, failed files."""
    e = evaluation
    speed = "n/a" if e.seconds_per_image is None else f"{1000 * e.seconds_per_image:.1f} ms"
    in_bowl_note = f"({e.in_bowl_dice} labelled dice)" if e.in_bowl_dice else "(not labelled)"
    rim_note = (f"(within {100 * RIM_TOLERANCE:.0f}% of the radius; {e.rims_labelled} labelled rims, "
                f"{e.rims_not_found} not found)" if e.rims_labelled else "(not labelled)")
    rows = [
        ("images scored", f"{e.images}  ({len(e.failed)} failed, {len(e.unlabelled)} unlabelled)"),
        ("labelled dice", f"{e.dice}  (found {e.found}, matched {e.matched})"),
        ("die recall", _percent(e.die_recall)),
        ("die precision", _percent(e.die_precision)),
        ("face accuracy", f"{_percent(e.face_accuracy)}  (of matched dice)"),
        ("flat faces", f"{_percent(e.flat_face_accuracy)}  (face accuracy of the matched dice not labelled leaning)"),
        ("leaning dice", _leaning(e.leaning)),
        ("image accuracy", f"{_percent(e.image_accuracy)}  (every die found, right face, nothing extra)"),
        ("in/out of bowl", f"{_percent(e.in_bowl_accuracy)}  {in_bowl_note}"),
        ("bowl rim", f"{_percent(e.rim_accuracy)}  {rim_note}"),
        ("time per image", speed),
    ]
    verdicts = e.verdicts
    if any(verdicts.values()):
        judged = sum(verdicts.values())
        rows.append(("throws judged", f"{judged}: " + ", ".join(f"{k.value.replace('_', ' ')} {n}" for k, n in verdicts.items())))
    width = max(len(name) for name, _ in rows)
    lines = [f"{name.ljust(width)}  {value}" for name, value in rows]

    header = [str(f) for f in FACES] + ["?"]
    lines += ["", "face confusion (rows: labelled, columns: read, ?: unreadable)"]
    lines.append("      " + "".join(h.rjust(6) for h in header))
    for face, row in zip(FACES, e.confusion):
        lines.append(f"  {face}   " + "".join(str(n).rjust(6) for n in row))

    tables = (("faces by die width (dice lying flat, labelled top-face width", e.by_width, "px"),
              ("faces by pip contrast (dice lying flat, CIELAB distance of their pips from their face in the "
               "photo", e.by_contrast, "ΔE"))
    for title, by, unit in tables:
        for kind in band_table_kinds(e.dice_kinds):
            bands = [b for b in by(kind=kind) if b.dice]
            if bands:
                lines += ["", f"{title}{dice_only(kind)})"]
                lines += [band_line(b, unit) for b in bands]

    bad = e.worst(worst)
    if bad:
        lines += ["", f"worst images ({len(bad)} shown, most mistakes first)"]
        for r in bad:
            m = _mistakes(r)
            lines.append(
                f"  {r.file}: {m['errors']} mistakes (missed {m['missed']}, extra {m['extra']}, "
                f"wrong face {m['wrong_face']}, wrong in/out {m['wrong_in_bowl']})"
            )
    wrong = e.scored_wrong
    if wrong:
        shown = wrong[:worst]
        lines += ["", f"throws scored wrong ({len(shown)} shown of {len(wrong)}: wrong awards and false voids)"]
        lines += [f"  {line}" for r in shown for line in scored_wrong_lines(r)]
    if e.failed:
        lines += ["", f"failed files ({len(e.failed)}, not scored)"]
        lines += [f"  {f.file}: {f.reason}" for f in e.failed]
    return "\n".join(lines)
