"""A labelled set as other cameras and other light would see it: one relabelled copy per variant.

    python bench/camera_variants.py SET OUT [--variants warm dim double ...]
    python bench/compare_models.py --models models --sets SET OUT/*

Generated scenes come from one renderer and one idea of a camera; a table at home has its own webcam,
lamp and white balance. Each variant changes the photos the way such a camera or light would (below)
and moves the labels with them, so `bobing eval` or `compare_models.py` measures how much of the
reading survives a change nothing was tuned on.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from bobing_vision.dataset.labels import ImageLabel, load_labels, save_labels
from bobing_vision.geometry import Ellipse
from bobing_vision.vision.bowl import outline

Look = Callable[[np.ndarray, np.random.Generator], np.ndarray]


def gains(blue: float, green: float, red: float) -> Look:
    """Light of another colour (or strength) than the camera balanced for: each channel scaled."""
    channels = np.array((blue, green, red), np.float32)
    return lambda image, _rng: np.clip(image * channels, 0, 255).astype(np.uint8)


def dim_and_noisy(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    # An evening room: a third of the light, which the camera's gain brings back with its sensor noise.
    dark = image.astype(np.float32) * 0.35 + rng.normal(0, 2.5, image.shape)
    return np.clip(dark / 0.35, 0, 255).astype(np.uint8)


def side_lamp(image: np.ndarray, _rng: np.random.Generator) -> np.ndarray:
    # One lamp to the side: light falls from 1.2 at the left edge to 0.45 at the right.
    ramp = np.linspace(1.2, 0.45, image.shape[1], dtype=np.float32)[None, :, None]
    return np.clip(image * ramp, 0, 255).astype(np.uint8)


def soft_focus(image: np.ndarray, _rng: np.random.Generator) -> np.ndarray:
    return cv2.GaussianBlur(image, (0, 0), 1.5)


def sharpened(image: np.ndarray, _rng: np.random.Generator) -> np.ndarray:
    # Cheap webcams sharpen hard (an unsharp mask): bright and dark halos round every edge and pip.
    blurred = cv2.GaussianBlur(image, (0, 0), 1.5)
    return cv2.addWeighted(image, 2.5, blurred, -1.5, 0)


def jpeg(quality: int) -> Look:
    def look(image: np.ndarray, _rng: np.random.Generator) -> np.ndarray:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
        assert decoded is not None
        return decoded
    return look


def unchanged(image: np.ndarray, _rng: np.random.Generator) -> np.ndarray:
    return image


@dataclass(frozen=True)
class Barrel:
    """A wide, cheap lens: straight lines bow outwards. An output pixel `r` (a share of the half diagonal)
    from the middle shows the source at r * (1 + k r^2) / (1 + k): the middle enlarged, the edges squeezed,
    the corners where they were."""

    k: float
    size: tuple[int, int]  # width, height

    @property
    def middle(self) -> tuple[float, float]:
        return ((self.size[0] - 1) / 2, (self.size[1] - 1) / 2)

    @property
    def half_diagonal(self) -> float:
        return float(np.hypot(*self.middle))

    def warp(self, image: np.ndarray) -> np.ndarray:
        (cx, cy), unit = self.middle, self.half_diagonal
        ys, xs = np.mgrid[0:self.size[1], 0:self.size[0]].astype(np.float32)
        pull = (1 + self.k * ((xs - cx) ** 2 + (ys - cy) ** 2) / unit ** 2) / (1 + self.k)
        return cv2.remap(image, cx + (xs - cx) * pull, cy + (ys - cy) * pull, cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)

    def point(self, x: float, y: float) -> tuple[float, float]:
        """Where the source's pixel (x, y) lies in the warped image."""
        (cx, cy), unit = self.middle, self.half_diagonal
        source = float(np.hypot(x - cx, y - cy)) / unit
        r = source
        for _ in range(6):  # Newton on r + k r^3 = source (1 + k): monotonic, a few steps suffice
            r -= (r + self.k * r ** 3 - source * (1 + self.k)) / (1 + 3 * self.k * r ** 2)
        shrink = r / source if source > 0 else 1 / (1 + self.k)
        return (cx + (x - cx) * shrink, cy + (y - cy) * shrink)

    def ellipse(self, e: Ellipse) -> Ellipse:
        """The rim bent by the lens is no longer an ellipse: the one fitted to its moved outline."""
        moved = np.array([self.point(x, y) for x, y in outline(e, 90)], np.float32)
        (cx, cy), (width, height), angle = cv2.fitEllipse(moved)
        return (cx, cy, width / 2, height / 2, angle)


@dataclass(frozen=True)
class Variant:
    look: Look
    scale: float = 1.0  # the frame resized by this (another resolution)
    aspect: float | None = None  # then widened to this width:height by repeating its edges (16:9 webcams)
    # Then cut back to the source's size, the cut's left and top edges this share of the way across what
    # is cut off ((0.5, 0.5): around the middle, a camera closer in; (1, 0.5): the bowl off to the left).
    crop_at: tuple[float, float] | None = None
    barrel: float = 0.0  # then bent by a wide lens (`Barrel.k`)
    summary: str = ""

    def __post_init__(self) -> None:
        if self.aspect is not None and self.crop_at is not None:
            raise ValueError("a variant either widens the frame (aspect) or cuts it back (crop_at), not both")


VARIANTS = {
    "warm": Variant(gains(0.62, 0.85, 1.0), summary="tungsten lamp, camera balanced for daylight"),
    "lantern": Variant(gains(0.45, 0.65, 1.0), summary="red lantern light (Mid-Autumn): blue x0.45, green x0.65"),
    "cool": Variant(gains(1.0, 0.93, 0.78), summary="daylight, camera balanced for a lamp"),
    "dim": Variant(dim_and_noisy, summary="a third of the light, the noise of the gain that brings it back"),
    "bright": Variant(gains(1.5, 1.5, 1.5), summary="over-exposed by half: white porcelain and dice clip"),
    "side_lamp": Variant(side_lamp, summary="light falling off from 1.2 to 0.45 across the frame"),
    "soft": Variant(soft_focus, summary="out of focus (Gaussian, sigma 1.5 px)"),
    "sharpened": Variant(sharpened, summary="a webcam's hard sharpening: halos round the edges"),
    "jpeg25": Variant(jpeg(25), summary="a cheap camera's JPEG at quality 25"),
    "half": Variant(unchanged, scale=0.5, summary="half the resolution"),
    "double": Variant(unchanged, scale=2.0, summary="twice the resolution"),
    "wide": Variant(unchanged, scale=1.5, aspect=16 / 9, summary="a 16:9 webcam: 1.5 times as big, sides added"),
    "wide_lens": Variant(unchanged, barrel=0.12, summary="a wide cheap lens: the middle 12% bigger"),
    "close": Variant(unchanged, scale=1.35, crop_at=(0.5, 0.5), summary="a camera closer in: the rim cut by the frame"),
    "aside": Variant(unchanged, scale=1.25, crop_at=(1.0, 0.5),
                     summary="the camera 1.25 times closer and off to one side: the rim cut on the left"),
}


def apply(variant: Variant, image: np.ndarray, label: ImageLabel,
          rng: np.random.Generator) -> tuple[np.ndarray, ImageLabel]:
    """The image as `variant` sees it, and its label moved to match."""
    out = variant.look(image, rng)
    if variant.scale != 1.0:
        size = (round(out.shape[1] * variant.scale), round(out.shape[0] * variant.scale))
        out = cv2.resize(out, size, interpolation=cv2.INTER_AREA if variant.scale < 1 else cv2.INTER_CUBIC)
    shift = (0, 0)
    if variant.aspect is not None:
        pad = max(0, round(out.shape[0] * variant.aspect) - out.shape[1]) // 2
        out = cv2.copyMakeBorder(out, 0, 0, pad, pad, cv2.BORDER_REPLICATE)
        shift = (pad, 0)
    if variant.crop_at is not None:
        left = round((out.shape[1] - image.shape[1]) * variant.crop_at[0])
        top = round((out.shape[0] - image.shape[0]) * variant.crop_at[1])
        out = out[top:top + image.shape[0], left:left + image.shape[1]]
        shift = (-left, -top)
    # x * scale: within half a pixel of where the resize puts a pixel's centre, (x + 0.5) * scale - 0.5.
    moved = label.moved(variant.scale, shift)
    if variant.barrel:
        lens = Barrel(variant.barrel, (out.shape[1], out.shape[0]))
        out, moved = lens.warp(out), moved.mapped(lens.point, lens.ellipse)
    height, width = out.shape[:2]
    # A die whose middle left the frame is not in the picture to be read.
    seen = tuple(d for d in moved.dice if 0 <= d.center[0] < width and 0 <= d.center[1] < height)
    return out, replace(moved, dice=seen, extra={**moved.extra, "width": width, "height": height})


def write_variant(source: Path, out: Path, name: str, seed: int = 0) -> int:
    """`source`'s images and labels as variant `name` sees them, in `out`; returns the images written."""
    labels = load_labels(source)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    moved = {}
    for file, label in labels.items():
        image = cv2.imread(str(source / file), cv2.IMREAD_COLOR)
        if image is None:
            raise SystemExit(f"{source / file}: not a readable image")
        changed, moved[file] = apply(VARIANTS[name], image, label, rng)
        cv2.imwrite(str(out / file), changed, [cv2.IMWRITE_JPEG_QUALITY, 95])
    save_labels(out, moved)
    return len(moved)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="a labelled set (DATA.md folder)")
    parser.add_argument("out", type=Path, help="folder for one labelled set per variant")
    parser.add_argument("--variants", nargs="+", choices=sorted(VARIANTS), default=list(VARIANTS))
    args = parser.parse_args(argv)
    for name in args.variants:
        count = write_variant(args.source, args.out / name, name)
        print(f"{args.out / name}: {count} images, {VARIANTS[name].summary}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
