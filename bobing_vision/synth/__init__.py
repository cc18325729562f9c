"""Generated bowl scenes and throw clips with exact labels (numpy + OpenCV only).

- `render_scene(rng, spec=None) -> (image_bgr, ImageLabel)`: one photo; options through `SceneSpec`.
- `render_clip(rng, spec=None) -> Clip`: one throw as frames with per-frame `settled` flags.
- `generate(outdir, count, seed, clips=0)`: a DATA.md set on disk (JPEG + labels.json, clips as MJPG).
"""

from bobing_vision.synth.clip import Clip, ClipSpec, render_clip
from bobing_vision.synth.config import SceneSpec
from bobing_vision.synth.generate import contact_sheet, generate, write_clip
from bobing_vision.synth.scene import render_scene

__all__ = ["Clip", "ClipSpec", "SceneSpec", "contact_sheet", "generate", "render_clip", "render_scene", "write_clip"]
