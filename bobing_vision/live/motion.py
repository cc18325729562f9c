"""How much moved in the bowl: differencing of small blurred grey images against an anchor frame.

A 160-pixel-wide grey copy is enough to see a 12 mm die move and costs well under a millisecond,
so motion is measured on every frame while the expensive dice reader runs only when asked.

Each frame is compared with the first frame of the current still run (the anchor), not only with
the previous frame: a die creeping to rest moves too little between two frames to see, but its
drift adds up against the anchor. Once the difference passes `still_share` the scene is moving and
the anchor restarts from this frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from bobing_vision.vision.reading import Bowl


@dataclass(frozen=True)
class MotionConfig:
    """How frames are compared; the reasons are in the comments."""

    width: int = 160  # a die of 12-20 mm in a 640 px view is still 5-8 px wide at this size
    blur: int = 5  # odd kernel: removes sensor noise and JPEG blocking before differencing
    pixel_delta: int = 14  # grey levels a pixel must change by to count as moved; webcam noise stays under ~8
    bowl_margin: float = 1.35  # watch the bowl enlarged by this, so dice hopping over the rim count as motion


class MotionMeter:
    """`measure(frame)` -> share (0..1) of watched pixels changed since the still run's first frame.

    `still_share` is the settle detector's `still_motion`: the share that ends a still run.
    """

    def __init__(self, config: MotionConfig = MotionConfig(), still_share: float = 0.0015) -> None:
        self.config = config
        self.still_share = still_share
        self._anchor: np.ndarray | None = None
        self._mask: np.ndarray | None = None
        self._bowl: Bowl | None = None
        self._scale = 1.0

    def _small(self, frame: np.ndarray) -> np.ndarray:
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        h, w = grey.shape[:2]
        self._scale = self.config.width / float(w)
        size = (self.config.width, max(1, round(h * self._scale)))
        small = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(small, (self.config.blur, self.config.blur), 0)

    def watch_bowl(self, bowl: Bowl | None) -> None:
        """Restrict motion to the (enlarged) bowl once the reader has found it; None watches everything."""
        if bowl != self._bowl:
            self._bowl = bowl
            self._mask = None

    def _region(self, shape: tuple[int, ...]) -> np.ndarray | None:
        if self._bowl is None:
            return None
        if self._mask is None or self._mask.shape != shape[:2]:
            s, m, b = self._scale, self.config.bowl_margin, self._bowl
            mask = np.zeros(shape[:2], np.uint8)
            cv2.ellipse(
                mask,
                (round(b.cx * s), round(b.cy * s)),
                (max(1, round(b.rx * s * m)), max(1, round(b.ry * s * m))),
                b.angle_deg, 0, 360, 255, -1,
            )
            self._mask = mask
        return self._mask

    def measure(self, frame: np.ndarray) -> float:
        small = self._small(frame)
        anchor = self._anchor
        if anchor is None or anchor.shape != small.shape:
            self._anchor = small
            return 0.0
        moved = cv2.absdiff(small, anchor) > self.config.pixel_delta
        mask = self._region(small.shape)
        if mask is None:
            share = float(np.count_nonzero(moved)) / moved.size
        else:
            watched = mask > 0
            total = int(np.count_nonzero(watched))
            share = float(np.count_nonzero(moved & watched)) / total if total else 0.0
        if share > self.still_share:
            self._anchor = small  # moving: the next still run starts from here
        return share
