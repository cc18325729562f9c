"""Generated bowl scenes and throw clips with exact labels (numpy + OpenCV only).

`render_scene(rng, spec=None) -> (image_bgr, ImageLabel)` is the one entry point for a photo; options go
through the frozen `SceneSpec`.
"""

from bobing_vision.synth.config import SceneSpec
from bobing_vision.synth.scene import render_scene

__all__ = ["SceneSpec", "render_scene"]
