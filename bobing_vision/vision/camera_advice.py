"""Whether the camera sees the dice big enough to read them, the whole rim, a bowl not washed out to
white, from not too far off vertical, and what to tell the person setting it up.

A die's width in pixels decides how often it is read: `bench/compare_models.py` on 8 generated sets
(1,600 throws, the models committed in the twenty-first session; models/HISTORY.md), dice lying flat
read right: 76% under 14 px, 89% at 14-18 px, 94% at 18-24 px, 97% over 24 px. A throw needs all six,
so at 14-18 px about half the throws get an award. Pixels are what count, not the frame's share: the
reader cuts each die from the frame at full resolution, so a closer camera and a higher resolution help
alike (in 28 generated sets, 88% of the dice in 320x240 frames are under 18 px, 10% in 640x480 ones,
none in 1280x720).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from bobing_vision.errors import InvalidInput
from bobing_vision.geometry import Ellipse
from bobing_vision.vision.bowl import pixel_box
from bobing_vision.vision.reading import Reading, dice_median_width

# The rim is advised to be this much in view: where it runs off the frame, a die that jumps out of the
# bowl on that side lands out of sight, and the throw reads "5 dice seen" instead of void (出碗).
RIM_IN_VIEW = 0.95
# A pixel this bright in every channel is clipped: the sensor says "white" and nothing more.
PURE_WHITE = 250
# Past this share of the bowl pure white, the camera is advised to expose less. Measured (models/HISTORY.md,
# thirtieth session): three generated sets over-exposed by half lose 13% of their right awards, mostly
# white dice not found on clipped porcelain; 53% of those throws reach 30%, against 3.4% of 4,000 throws
# as rendered (where the generator's clipped bowls still read as well as the rest: advice, not a refusal).
WASHED_OUT = 0.3
# Past this many degrees off vertical the camera is advised to look down more. Measured (models/HISTORY.md,
# thirty-third session): 600 generated throws seen up to 60 degrees off vertical gave right awards 71-80%
# up to 15 degrees, 51% at 30-45 and 21% at 45-60: the dice show their sides, and the throws are refused.
TOO_STEEP_DEG = 45.0


@dataclass(frozen=True)
class SizeAdvice:
    """Below `too_small_px` the dice are advised to be seen bigger, to `good_px` or more."""

    too_small_px: float = 18.0  # one die in eight not read below this; one in twenty above
    good_px: float = 24.0  # over this the reader reads as well as it ever does (97%)

    def __post_init__(self) -> None:
        if not 0 < self.too_small_px <= self.good_px:
            raise InvalidInput(f"expected 0 < too_small_px <= good_px, got {self.too_small_px}, {self.good_px}")


def dice_width(reading: Reading) -> float | None:
    """The median width in pixels of the dice in the bowl; None with fewer than three seen (the
    pipeline's own measure of a throw's die size, `candidates.typical_width`)."""
    return dice_median_width([d.width for d in reading.dice if d.in_bowl])


def size_advice(width: float | None, advice: SizeAdvice = SizeAdvice()) -> str | None:
    """A sentence asking for a closer camera when dice `width` px wide are too small to read well."""
    if width is None or width >= advice.too_small_px:
        return None
    return (f"the dice are only {width:.0f} px wide: move the camera closer or use a higher resolution until "
            f"they are {advice.good_px:.0f} px or more (dice under {advice.too_small_px:.0f} px are often unreadable)")


def rim_advice(in_view: float) -> str | None:
    """A sentence asking for the whole rim in view when only `in_view` (a share, `bowl.rim_in_view`) is."""
    if in_view >= RIM_IN_VIEW:
        return None
    return (f"only {in_view:.0%} of the rim is in view: a die that jumps out of the bowl past the frame's edge "
            "is not seen (the throw reads '5 dice seen', not void); move the camera back or up until the whole "
            "rim and some table round it show")


def washed_out_share(image: np.ndarray, rim: Ellipse) -> float:
    """The share of the pixels inside `rim` that are pure white (`PURE_WHITE` in every channel), counted
    on every other pixel of every other row: a share needs no more, and `bobing score` pays it per photo
    (0.2 ms for a 640x480 photo's bowl)."""
    left, top, right, bottom = pixel_box(rim, 0.0, image.shape)
    if right <= left or bottom <= top:
        return 0.0
    cx, cy, rx, ry, angle = rim
    crop = np.ascontiguousarray(image[top:bottom:2, left:right:2])
    inside = np.zeros(crop.shape[:2], np.uint8)
    cv2.ellipse(inside, (((cx - left) / 2, (cy - top) / 2), (rx, ry), angle), 255, -1)  # half size: rx, ry are the axes
    channels = crop.shape[2] if crop.ndim == 3 else 1
    white = cv2.inRange(crop, (PURE_WHITE,) * channels, (255,) * channels)
    area = cv2.countNonZero(inside)
    return cv2.countNonZero(cv2.bitwise_and(white, inside)) / area if area else 0.0


def exposure_advice(share: float) -> str | None:
    """A sentence asking for less exposure when `share` of the bowl (`washed_out_share`) is pure white."""
    if share < WASHED_OUT:
        return None
    return (f"{share:.0%} of the bowl is pure white: the camera is over-exposed and white dice lose their "
            "outline on the porcelain; turn the camera's exposure or brightness down, or dim the lamp over the bowl")


def camera_tilt(rim: Ellipse) -> float:
    """How far off vertical the camera looks at the bowl, in degrees: a round rim seen from that angle
    is an ellipse whose short axis is its long one times the angle's cosine."""
    _, _, rx, ry, _ = rim
    return float(np.degrees(np.arccos(np.clip(min(rx, ry) / max(rx, ry), 0.0, 1.0))))


def tilt_advice(degrees: float) -> str | None:
    """A sentence asking for a camera more overhead when it looks at the bowl `degrees` off vertical."""
    if degrees < TOO_STEEP_DEG:
        return None
    return (f"the camera looks at the bowl {degrees:.0f} degrees off vertical: the dice show their sides and most "
            f"throws cannot be read; raise it over the bowl until it looks down less than {TOO_STEEP_DEG:.0f} "
            "degrees off vertical (straight down is best)")
