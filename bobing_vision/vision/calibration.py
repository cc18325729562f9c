"""A bowl found once and saved, so every later frame skips the search (`bobing calibrate`).

The file is JSON: the rim as DATA.md writes a bowl (`{"bowl": {"ellipse": [cx, cy, rx, ry, angle]}}`)
plus the frame size it was found in. A camera later run at another resolution of the same view gets
the ellipse scaled to it; a different aspect ratio is a different view, and the caller searches.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bobing_vision.errors import InvalidInput
from bobing_vision.vision.reading import Bowl

DEFAULT_PATH = Path("calibration") / "bowl.json"
# Two frame sizes are the same view when their aspect ratios differ by less than this share.
ASPECT_TOLERANCE = 0.02


@dataclass(frozen=True)
class Calibration:
    """A bowl and the size of the frames it was found in."""

    bowl: Bowl
    width: int
    height: int

    def __post_init__(self) -> None:
        if not (self.width > 0 and self.height > 0):
            raise InvalidInput(f"expected a positive frame size, got {self.width}x{self.height}")

    def fits(self, width: int, height: int) -> bool:
        """Whether frames of this size show the same view (same aspect ratio)."""
        return abs(width / height - self.width / self.height) <= ASPECT_TOLERANCE * (self.width / self.height)

    def bowl_for(self, width: int, height: int) -> Bowl:
        """The bowl in frames of width x height; InvalidInput when the aspect ratio differs."""
        if not self.fits(width, height):
            raise InvalidInput(
                f"expected frames of aspect {self.width}x{self.height} for this calibration, got {width}x{height}"
            )
        sx, sy = width / self.width, height / self.height
        s = float(np.sqrt(sx * sy))
        b = self.bowl
        # Pixel centres: frame pixel x covers [x - 0.5, x + 0.5], so scale about the corner at -0.5.
        return Bowl(cx=(b.cx + 0.5) * sx - 0.5, cy=(b.cy + 0.5) * sy - 0.5, rx=b.rx * s, ry=b.ry * s,
                    angle_deg=b.angle_deg)

    def to_json(self) -> dict[str, object]:
        return {"bowl": {"ellipse": [round(v, 2) for v in self.bowl.ellipse]},
                "frame_size": [self.width, self.height]}


def save_calibration(path: Path | str, calibration: Calibration, source: str = "") -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = calibration.to_json()
    if source:
        data["source"] = source
    path.write_text(json.dumps(data) + "\n", encoding="utf-8")
    return path


def load_calibration(path: Path | str) -> Calibration:
    """Read a calibration file; a missing or malformed one raises InvalidInput naming it."""
    path = Path(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InvalidInput(f"expected a calibration file, got no such file {path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInput(f"expected a JSON calibration file, got {path}: {exc}") from None
    try:
        cx, cy, rx, ry, angle = (float(v) for v in raw["bowl"]["ellipse"])
        width, height = (int(v) for v in raw["frame_size"])
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidInput(
            f'expected {{"bowl": {{"ellipse": [cx, cy, rx, ry, angle]}}, "frame_size": [w, h]}} in {path}, '
            f"got {type(exc).__name__}: {exc}"
        ) from None
    return Calibration(bowl=Bowl(cx, cy, rx, ry, angle), width=width, height=height)


def consensus(bowls: Iterable[Bowl]) -> Bowl | None:
    """The bowl most like all the others (the medoid): a frame with a hand over the rim is outvoted."""
    found = list(bowls)
    if not found:
        return None
    params = np.array([[b.cx, b.cy, b.rx, b.ry] for b in found])
    cost = np.abs(params[:, None, :] - params[None, :, :]).sum(axis=(1, 2))
    return found[int(np.argmin(cost))]
