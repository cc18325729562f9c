"""What a generated scene may contain: one frozen spec, every range with the reason for it."""

from __future__ import annotations

from dataclasses import dataclass

from bobing_vision.errors import InvalidInput
from bobing_vision.synth.dice import MARBLED_P, MIN_PIP_COLOUR_DISTANCE

BOWL_PAINTS = ("qinghua", "youlihong")  # blue-and-white, underglaze red
# The steepest camera drawn: a phone held over a bowl on the table, or a laptop's webcam turned down to it.
MAX_TILT_DEG = 60.0
# The highest pip colour distance a spec may ask for, in CIELAB (black lies 100 from white).
MAX_PIP_COLOUR_DISTANCE = 200.0
# The flat floor of a bowl, as a share of the rim's radius: from a deep bowl's to a dish's, whose wall
# still holds the dice.
MIN_FLOOR_SHARE, MAX_FLOOR_SHARE = 0.2, 0.85


@dataclass(frozen=True)
class SceneSpec:
    """Options of `render_scene`; the defaults give the full variety the dice reader is trained on."""

    size: tuple[int, int] | None = None  # (width, height); None: usually 640x480, sometimes another webcam size
    n_dice: int = 6  # Bobing is thrown with six dice
    clean: bool = False  # no camera effects (noise, blur, JPEG, white balance): for pixel-exact tests
    distractors: bool = True  # hands, chopsticks, coins, crumbs
    chinese_dice_p: float = 0.8  # most scenes show the target: Chinese dice with red 1 and 4
    out_of_bowl_p: float = 0.15  # issue 3: about 15% of scenes have a die or two on the table
    cocked_p: float = 0.12  # share of scenes with a die leaning on another die or the wall
    cocked_deg: float = 12.0  # a die whose top face is tilted more than this is labelled leaning (cocked)
    stacked_p: float = 0.08  # share of scenes with a die partly on top of another
    max_tilt_deg: float = 30.0  # a webcam on a stand looks straight down or up to 30 degrees off
    bowl_cm: tuple[float, float] = (18.0, 32.0)  # rim diameters of bowls used for Bobing
    die_mm: tuple[float, float] = (12.0, 20.0)  # sizes of Chinese and ordinary dice sold for the game
    # Every bowl painted, "qinghua" (blue) or "youlihong" (red), the scenes otherwise as drawn without
    # it: the same scenes in both pigments measure what red painting costs. None: as drawn.
    bowl_paint: str | None = None
    # Of the bowls drawn painted, this share in copper red (釉里红), the rest in cobalt blue (青花): red
    # bowls are as festive, and a red dot of their painting looks like a Chinese die's 1.
    red_painted_p: float = 1 / 3
    # Of the ordinary sets in any colours (half of them), this share marbled (`synth.dice.MARBLED_P`).
    marbled_p: float = MARBLED_P
    # How far in CIELAB the pips of a set in any colours lie from its body when their lightness is close
    # (`synth.dice.MIN_PIP_COLOUR_DISTANCE`): deep red pips on a smoky grey die lie 55-65 away, and a
    # person reads them at a glance. Yet training at 50 read a camera never seen worse, and took a tray's
    # grey wells for dice (models/HISTORY.md, "red pips on smoky grey dice"), so 70 stays.
    pip_colour_distance: float = MIN_PIP_COLOUR_DISTANCE
    # The share of the frame height the rim spans, drawn from this range (None: `SynthConfig.bowl_fill`).
    # Past 1 the rim runs off the frame: a laptop's webcam close over a big bowl. Bowl, light, dice and
    # camera angles are drawn as without it; a die that would land out of view lands again (in the bowl).
    bowl_fill: tuple[float, float] | None = None
    # The flat floor's radius as a share of the rim's, drawn from this range: a rice bowl's floor is a third
    # to a half of it, a basin's or a wide dish's up to four fifths, where dice come to rest near the wall
    # and on the painted rings there.
    floor_share: tuple[float, float] = (0.36, 0.52)

    def __post_init__(self) -> None:
        if self.size is not None:
            w, h = self.size
            if not (64 <= w <= 4096 and 64 <= h <= 4096):
                raise InvalidInput(f"expected a frame size between 64 and 4096 pixels, got {self.size!r}")
        if not 1 <= self.n_dice <= 12:
            raise InvalidInput(f"expected 1..12 dice, got {self.n_dice!r}")
        if not 0.0 <= self.max_tilt_deg <= MAX_TILT_DEG:
            raise InvalidInput(f"expected a camera tilt of 0..{MAX_TILT_DEG:g} degrees, got {self.max_tilt_deg!r}")
        for name in ("chinese_dice_p", "out_of_bowl_p", "cocked_p", "stacked_p", "red_painted_p", "marbled_p"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise InvalidInput(f"expected {name} in 0..1, got {value!r}")
        if not 0.0 < self.pip_colour_distance <= MAX_PIP_COLOUR_DISTANCE:
            raise InvalidInput(f"expected 0 < pip_colour_distance <= {MAX_PIP_COLOUR_DISTANCE:g} (CIELAB), "
                               f"got {self.pip_colour_distance!r}")
        if self.bowl_paint not in (None, *BOWL_PAINTS):
            raise InvalidInput(f"expected a bowl paint of {', '.join(BOWL_PAINTS)}, got {self.bowl_paint!r}")
        if self.bowl_fill is not None and not 0.2 <= self.bowl_fill[0] <= self.bowl_fill[1] <= 2.0:
            raise InvalidInput(f"expected a bowl fill range (low, high) within 0.2..2 of the frame height, "
                               f"got {self.bowl_fill!r}")
        if not MIN_FLOOR_SHARE <= self.floor_share[0] <= self.floor_share[1] <= MAX_FLOOR_SHARE:
            raise InvalidInput(f"expected a floor share range (low, high) within {MIN_FLOOR_SHARE:g}.."
                               f"{MAX_FLOOR_SHARE:g} of the rim's radius, got {self.floor_share!r}")
        if not (0 < self.bowl_cm[0] <= self.bowl_cm[1] and 0 < self.die_mm[0] <= self.die_mm[1]):
            raise InvalidInput(f"expected (low, high) ranges, got bowl_cm={self.bowl_cm}, die_mm={self.die_mm}")


@dataclass(frozen=True)
class SynthConfig:
    """Fixed physical and photographic constants of the generator."""

    common_sizes: tuple[tuple[int, int], ...] = ((320, 240), (480, 360), (800, 600), (960, 540), (1280, 720))
    default_size_p: float = 0.75  # most webcams in the booth run at 640x480
    hfov_deg: tuple[float, float] = (52.0, 78.0)  # horizontal field of view of common webcams
    bowl_fill: tuple[float, float] = (0.62, 0.97)  # share of the frame height the bowl spans when framed
    flat_jitter_deg: float = 3.0  # dice on the flat floor are never perfectly level
    lean_deg: tuple[float, float] = (18.0, 38.0)  # a die leaning on another die or the wall
    texture_px: int = 384  # side of the bowl's interior texture: ~1.3 px/mm, sharper than the frame
    shade_scale: int = 6  # glaze shading is smooth: solved on a 1/6 grid and upsampled


CONFIG = SynthConfig()
