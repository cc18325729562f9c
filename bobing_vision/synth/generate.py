"""Writing generated sets to disk: scenes as JPEG + labels.json (DATA.md), clips as MJPG video + JSON."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from bobing_vision.dataset.labels import ImageLabel, save_labels
from bobing_vision.errors import BobingError, InvalidInput
from bobing_vision.synth.clip import Clip, ClipSpec, render_clip
from bobing_vision.synth.config import SceneSpec
from bobing_vision.synth.scene import render_scene

JPEG_QUALITY = 92  # the set's own compression stays mild; webcam-grade JPEG is part of the scene model
CLIPS_DIR = "clips"
AwardOf = Callable[[Sequence[int]], "dict[str, Any] | None"]


def scene_rng(seed: int, index: int) -> np.random.Generator:
    """Each scene has its own stream, so scene i is the same whatever the count."""
    return np.random.default_rng([seed, 0, index])


def clip_rng(seed: int, index: int) -> np.random.Generator:
    return np.random.default_rng([seed, 1, index])


def write_clip(clip: Clip, path: Path, award_of: AwardOf | None = None) -> tuple[Path, Path]:
    """`path`.avi (MJPG) and `path`.json: fps, per-frame settled flags, final faces and award."""
    path.parent.mkdir(parents=True, exist_ok=True)
    video = path.with_suffix(".avi")
    h, w = clip.frames[0].shape[:2]
    fourcc = cv2.VideoWriter.fourcc(*"MJPG")
    # FFmpeg's MJPG files are half the size of OpenCV's own encoder's; the latter is the fallback
    writer = cv2.VideoWriter(str(video), cv2.CAP_FFMPEG, fourcc, clip.fps, (w, h))
    if not writer.isOpened():
        writer = cv2.VideoWriter(str(video), cv2.CAP_OPENCV_MJPEG, fourcc, clip.fps, (w, h))
    if not writer.isOpened():
        raise BobingError(f"expected OpenCV to write MJPG video, got a writer that would not open {video}")
    for frame in clip.frames:
        writer.write(frame)
    writer.release()
    dice = clip.final_label.dice
    all_in = all(d.in_bowl is not False for d in dice)
    sidecar = {
        "video": video.name,
        "fps": clip.fps,
        "frames": len(clip.frames),
        "size": [w, h],
        "settled": list(clip.settled),
        "first_settled_frame": clip.first_settled,
        "hand_in_bowl": list(clip.hand_in_bowl),
        "jumped_out": clip.jumped_out,
        "final": {
            "faces": list(clip.final_faces),
            "in_bowl": [d.in_bowl is not False for d in dice],
            "cocked": [d.cocked for d in dice],
        },
        # a die on the table voids the throw, so only a throw wholly in the bowl has an award
        "award": award_of(clip.final_faces) if (award_of and all_in) else None,
        "label": clip.final_label.to_json(),
    }
    meta = path.with_suffix(".json")
    meta.write_text(json.dumps(sidecar, ensure_ascii=False) + "\n", encoding="utf-8")
    return video, meta


def contact_sheet(images: Sequence[np.ndarray], cols: int = 8, tile: tuple[int, int] = (240, 180)) -> np.ndarray:
    """Images shrunk to `tile` (w, h) and laid out in rows of `cols`."""
    if not images:
        raise InvalidInput("expected at least one image for a contact sheet, got none")
    tw, th = tile
    rows = (len(images) + cols - 1) // cols
    sheet = np.zeros((rows * th, cols * tw, 3), np.uint8)
    for i, img in enumerate(images):
        h, w = img.shape[:2]
        s = min(tw / w, th / h)
        small = cv2.resize(img, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)
        y, x = (i // cols) * th + (th - small.shape[0]) // 2, (i % cols) * tw + (tw - small.shape[1]) // 2
        sheet[y:y + small.shape[0], x:x + small.shape[1]] = small
    return sheet


def generate(outdir: Path | str, count: int, seed: int, clips: int = 0, spec: SceneSpec | None = None,
             clip_spec: ClipSpec | None = None, award_of: AwardOf | None = None,
             on_item: Callable[[str], None] | None = None, clip_seed: int | None = None) -> dict[str, ImageLabel]:
    """Write `count` scenes (scene_0000.jpg ...) with labels.json and `clips` throw clips under clips/.

    The same seed gives the same files; `clip_seed` (default: `seed`) picks the clips on their own.
    `award_of(faces)` fills each clip's award (the rules live outside this package); `on_item(name)`
    is told of each file written.
    """
    if count < 0 or clips < 0:
        raise InvalidInput(f"expected counts of 0 or more, got count={count}, clips={clips}")
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    labels: dict[str, ImageLabel] = {}
    for i in range(count):
        image, label = render_scene(scene_rng(seed, i), spec)
        name = f"scene_{i:04d}.jpg"
        if not cv2.imwrite(str(out / name), image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY]):
            raise BobingError(f"expected to write {out / name}, got a failed write")
        labels[name] = replace(label, file=name)
        if on_item:
            on_item(name)
    if count:
        save_labels(out, labels)
    for k in range(clips):
        clip = render_clip(clip_rng(seed if clip_seed is None else clip_seed, k), clip_spec)
        video, _ = write_clip(clip, out / CLIPS_DIR / f"clip_{k:03d}", award_of)
        if on_item:
            on_item(f"{CLIPS_DIR}/{video.name}")
    return labels
