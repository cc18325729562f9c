"""Labelled image sets in the format of shared/DATA.md: a folder of images plus one labels.json.

Extra keys (a die's `pips`, an image's `width`/`height`, `clip` metadata) are kept as they are, so
generated sets can carry training detail that the evaluation ignores.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from bobing_vision.errors import InvalidInput
from bobing_vision.geometry import Ellipse

LABELS_FILE = "labels.json"

PointMap = Callable[[float, float], tuple[float, float]]  # where a pixel of an image goes in another


@dataclass(frozen=True)
class PipLabel:
    center: tuple[float, float]
    red: bool


@dataclass(frozen=True)
class DieLabel:
    face: int
    box: tuple[float, float, float, float] | None = None
    center_xy: tuple[float, float] | None = None
    in_bowl: bool | None = None  # None: not labelled (DATA.md default is in the bowl)
    cocked: bool = False
    pips: tuple[PipLabel, ...] = ()

    def __post_init__(self) -> None:
        if not (isinstance(self.face, int) and 1 <= self.face <= 6):
            raise InvalidInput(f"die face must be an int 1..6, got {self.face!r}")
        if self.box is None and self.center_xy is None:
            raise InvalidInput("a labelled die needs a 'box' or a 'center'")

    @property
    def center(self) -> tuple[float, float]:
        if self.center_xy is not None:
            return self.center_xy
        assert self.box is not None
        x0, y0, x1, y1 = self.box
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    @property
    def size(self) -> float | None:
        """Width of the labelled top face in pixels, when a box is given."""
        if self.box is None:
            return None
        x0, y0, x1, y1 = self.box
        return ((x1 - x0) + (y1 - y0)) / 2

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"face": self.face}
        if self.box is not None:
            out["box"] = [round(v, 1) for v in self.box]
        if self.center_xy is not None:
            out["center"] = [round(v, 1) for v in self.center_xy]
        if self.in_bowl is not None:
            out["in_bowl"] = self.in_bowl
        if self.cocked:
            out["cocked"] = True
        if self.pips:
            out["pips"] = [
                {"center": [round(p.center[0], 1), round(p.center[1], 1)], "red": p.red} for p in self.pips
            ]
        return out


@dataclass(frozen=True)
class ImageLabel:
    file: str
    dice: tuple[DieLabel, ...]
    bowl: Ellipse | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def dice_kind(self) -> str | None:
        """The kind of dice a generated scene shows ("chinese", "ordinary": `synth.dice` in the labels
        `bobing synth` writes); None for other labels."""
        synth = self.extra.get("synth")
        kind = synth.get("dice") if isinstance(synth, dict) else None
        return kind if isinstance(kind, str) else None

    def moved(self, scale: float, offset: tuple[float, float] = (0.0, 0.0)) -> ImageLabel:
        """The label of the image scaled by `scale` and then shifted by `offset` (a camera of another
        resolution or shape): every position and size moves with it, the generator's coins too."""

        def ellipse(e: Ellipse) -> Ellipse:
            cx, cy, rx, ry, angle = e
            return (cx * scale + offset[0], cy * scale + offset[1], rx * scale, ry * scale, angle)

        return self.mapped(lambda x, y: (x * scale + offset[0], y * scale + offset[1]), ellipse)

    def mapped(self, point: PointMap, ellipse: Callable[[Ellipse], Ellipse]) -> ImageLabel:
        """The label of the image warped by `point` (where each pixel goes; `ellipse`: where the bowl's
        rim goes). A box becomes the box around its moved corners; a coin keeps its distance from its
        edge's moved point."""

        def die(d: DieLabel) -> DieLabel:
            box = None
            if d.box is not None:
                x0, y0, x1, y1 = d.box
                xs, ys = zip(*(point(x, y) for x in (x0, x1) for y in (y0, y1)))
                box = (min(xs), min(ys), max(xs), max(ys))
            return replace(d, box=box, center_xy=None if d.center_xy is None else point(*d.center_xy),
                           pips=tuple(replace(p, center=point(*p.center)) for p in d.pips))

        def coin(x: float, y: float, diameter: float) -> list[float]:
            (cx, cy), (ex, ey) = point(x, y), point(x + diameter / 2, y)
            return [cx, cy, 2 * float(np.hypot(ex - cx, ey - cy))]

        extra = dict(self.extra)
        synth = extra.get("synth")
        if isinstance(synth, dict) and "coins" in synth:
            extra["synth"] = {**synth, "coins": [coin(*c) for c in synth["coins"]]}
        bowl = None if self.bowl is None else ellipse(self.bowl)
        return ImageLabel(self.file, tuple(die(d) for d in self.dice), bowl, extra)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = dict(self.extra)
        out["dice"] = [d.to_json() for d in self.dice]
        if self.bowl is not None:
            out["bowl"] = {"ellipse": [round(v, 2) for v in self.bowl]}
        return out


def _pair(value: Any, what: str) -> tuple[float, float]:
    if not (isinstance(value, list) and len(value) == 2):
        raise InvalidInput(f"{what}: expected [x, y], got {value!r}")
    return (float(value[0]), float(value[1]))


def parse_die(raw: Any, where: str) -> DieLabel:
    if not isinstance(raw, dict) or "face" not in raw:
        raise InvalidInput(f"{where}: expected an object with 'face', got {raw!r}")
    box = raw.get("box")
    if box is not None and not (isinstance(box, list) and len(box) == 4):
        raise InvalidInput(f"{where}: 'box' must be [x0, y0, x1, y1], got {box!r}")
    pips = tuple(
        PipLabel(center=_pair(p.get("center"), f"{where} pip"), red=bool(p.get("red", False)))
        for p in raw.get("pips", ())
    )
    return DieLabel(
        face=raw["face"],
        box=tuple(float(v) for v in box) if box is not None else None,  # type: ignore[arg-type]
        center_xy=_pair(raw["center"], f"{where} center") if "center" in raw else None,
        in_bowl=raw.get("in_bowl"),
        cocked=bool(raw.get("cocked", False)),
        pips=pips,
    )


def parse_image(file: str, raw: Any) -> ImageLabel:
    if not isinstance(raw, dict) or not isinstance(raw.get("dice"), list):
        raise InvalidInput(f"{file}: expected an object with a 'dice' list")
    dice = tuple(parse_die(d, f"{file} die {i}") for i, d in enumerate(raw["dice"]))
    bowl = None
    if isinstance(raw.get("bowl"), dict) and raw["bowl"].get("ellipse") is not None:
        ell = raw["bowl"]["ellipse"]
        if not (isinstance(ell, list) and len(ell) == 5):
            raise InvalidInput(f"{file}: bowl ellipse must be [cx, cy, rx, ry, angle_deg], got {ell!r}")
        bowl = tuple(float(v) for v in ell)
    extra = {k: v for k, v in raw.items() if k not in ("dice", "bowl")}
    return ImageLabel(file=file, dice=dice, bowl=bowl, extra=extra)  # type: ignore[arg-type]


def load_labels(folder: Path | str) -> dict[str, ImageLabel]:
    """Read folder/labels.json. A missing or malformed file raises InvalidInput naming it."""
    path = Path(folder) / LABELS_FILE
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InvalidInput(f"no {LABELS_FILE} in {folder}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"{path} is not valid JSON: {exc}") from None
    if not isinstance(raw, dict):
        raise InvalidInput(f"{path}: expected an object of image name -> label")
    return {name: parse_image(name, value) for name, value in raw.items()}


def is_labelled_set(folder: Path | str) -> bool:
    """Whether `folder` holds a labels file (a set's makers write it last, so its set is complete)."""
    return (Path(folder) / LABELS_FILE).is_file()


def labelled_sets(root: Path | str) -> list[Path]:
    """The folders directly under `root` that hold a labels file, by name; none when `root` is missing."""
    root = Path(root)
    return sorted(p for p in root.iterdir() if is_labelled_set(p)) if root.is_dir() else []


def save_labels(folder: Path | str, labels: dict[str, ImageLabel]) -> Path:
    path = Path(folder) / LABELS_FILE
    data = {name: label.to_json() for name, label in sorted(labels.items())}
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return path
