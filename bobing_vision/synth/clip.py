"""Throw clips: dice dropped into the bowl, tumbling and bouncing round it, settling, then still.

Every frame is rendered (nothing is warped from a still), so faces change while a die tumbles; moving
frames are averaged over the shutter time, which gives true motion blur.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from bobing_vision.dataset.labels import ImageLabel
from bobing_vision.errors import InvalidInput
from bobing_vision.synth.config import SceneSpec
from bobing_vision.synth.dice import DiePose
from bobing_vision.synth.distractors import Hand, composite, draw_hand, sample_hand
from bobing_vision.synth.effects import apply_effects, sample_effects
from bobing_vision.synth.geometry import axis_angle, random_horizontal
from bobing_vision.synth.layout import Placed
from bobing_vision.synth.scene import Setup, build_stage, dice_over, scene_label


@dataclass(frozen=True)
class ClipSpec:
    """Options of `render_clip`."""

    size: tuple[int, int] | None = None  # None: 640x480, 480x360 or 320x240
    fps: float | None = None  # None: 15, 20, 25 or 30, as webcams deliver
    jump_out_p: float = 0.2  # share of throws that send a die over the rim
    hand_rest_p: float = 0.25  # share of throws after which a hand rests in the bowl a while
    still_s: tuple[float, float] = (1.2, 1.8)  # the dice lie still this long at the end (>= 1 s)
    shutter: float = 0.5  # exposure as a share of the frame time: how long moving dice smear
    clean: bool = False  # no camera effects
    scene: SceneSpec = field(default_factory=lambda: SceneSpec(out_of_bowl_p=0.0, stacked_p=0.0))

    def __post_init__(self) -> None:
        if self.fps is not None and not 5 <= self.fps <= 60:
            raise InvalidInput(f"expected 5..60 frames per second, got {self.fps!r}")
        if not 1.0 <= self.still_s[0] <= self.still_s[1]:
            raise InvalidInput(f"expected a still tail of at least 1 s, got {self.still_s!r}")


@dataclass(frozen=True)
class Clip:
    frames: tuple[np.ndarray, ...]  # BGR uint8
    settled: tuple[bool, ...]  # per frame: dice at rest and no hand over the bowl
    fps: float
    final_faces: tuple[int, ...]  # top face of each die at the end, in label order
    final_label: ImageLabel  # the still end of the throw, as a scene label
    hand_in_bowl: tuple[bool, ...]  # per frame: a hand reaches over the bowl
    jumped_out: bool  # a die ended on the table

    @property
    def first_settled(self) -> int | None:
        """Index of the first frame of the final still run, None if the clip never settles."""
        if not self.settled or not self.settled[-1]:
            return None
        k = len(self.settled) - 1
        while k > 0 and self.settled[k - 1]:
            k -= 1
        return k


@dataclass(frozen=True)
class _Flight:
    """One die's way from the hand to where it rests."""

    final: Placed
    release: float  # seconds
    land: float  # seconds: at rest from here on
    start: np.ndarray  # (3,) world mm where it leaves the hand
    turns: float  # revolutions round the bowl on the way
    tumble_axis: np.ndarray
    tumble: float  # radians still to turn at release
    bounces: int

    def pose(self, t: float, setup: Setup) -> DiePose | None:
        if t < self.release:
            return None
        f = self.final.pose
        if t >= self.land:
            return f
        u = (t - self.release) / (self.land - self.release)
        e = 1 - (1 - u) ** 2  # eased: fast at first, slowing to rest
        shape = setup.shape
        if f.in_bowl:
            r0, r1 = np.hypot(*self.start[:2]), np.hypot(*f.center[:2])
            a0, a1 = np.arctan2(self.start[1], self.start[0]), np.arctan2(f.center[1], f.center[0])
            swing = (shape.floor_r + 0.5 * (shape.rim - shape.floor_r) - r1) * np.sin(np.pi * u) * (1 - u)
            r = r0 + (r1 - r0) * e + swing  # out towards the wall while it circles, then back
            a = a1 + (a0 - a1) * (1 - e) - self.turns * 2 * np.pi * (1 - e)
            xy = r * np.array([np.cos(a), np.sin(a)])
            ground = float(shape.inner_z(np.array(min(r, shape.rim * 0.95)))) + f.size / 2
        else:
            xy = self.start[:2] + (f.center[:2] - self.start[:2]) * e
            ground = f.center[2] + (shape.height + f.size) * np.sin(np.pi * e)  # over the rim
        hop = (self.start[2] - ground) * abs(np.cos(np.pi * self.bounces * u)) * (1 - u) ** 3
        centre = np.array([xy[0], xy[1], max(ground, f.center[2]) + hop])
        rot = axis_angle(self.tumble_axis, self.tumble * (1 - e) ** 1.5) @ f.rotation
        return DiePose(centre, rot, f.size, f.in_bowl, False)


def _flights(rng: np.random.Generator, setup: Setup, placed: list[Placed], drop: float) -> list[_Flight]:
    shape = setup.shape
    hand_xy = rng.uniform(-0.3, 0.3, 2) * shape.rim
    out = []
    for p in placed:
        release = drop + rng.uniform(0, 0.12)
        start = np.array([*(hand_xy + rng.normal(0, 12, 2)), shape.height + rng.uniform(40, 110)])
        out.append(_Flight(p, release, release + rng.uniform(1.0, 2.0), start, float(rng.uniform(0.3, 1.5)),
                           random_horizontal(rng) + rng.normal(0, 0.3, 3), float(rng.uniform(4, 12) * np.pi),
                           int(rng.integers(2, 5))))
    return out


def render_clip(rng: np.random.Generator, spec: ClipSpec | None = None) -> Clip:
    """A throw: a hand drops the dice, they roll round the bowl and settle; labels per frame."""
    spec = spec or ClipSpec()
    jump = rng.random() < spec.jump_out_p
    size = spec.size or [(640, 480), (480, 360), (320, 240)][int(rng.integers(3))]
    fps = float(spec.fps or [15, 20, 25, 30][int(rng.integers(4))])
    scene = replace(spec.scene, size=size, out_of_bowl_p=1.0 if jump else 0.0, max_tilt_deg=min(spec.scene.max_tilt_deg, 20.0))
    stage = build_stage(rng, scene)
    setup, base8, placed = stage.setup, stage.base8, list(stage.placed)
    cam = setup.camera
    drop = float(rng.uniform(0.3, 0.6))
    flights = _flights(rng, setup, placed, drop)
    at_rest = max(f.land for f in flights)
    thrower = sample_hand(rng, cam, setup.shape, setup.lighting, True)
    rest: tuple[float, float] | None = None
    rester: Hand | None = None
    if rng.random() < spec.hand_rest_p:
        t0 = at_rest + float(rng.uniform(0.2, 0.6))
        rest = (t0, t0 + float(rng.uniform(0.8, 1.5)))
        rester = sample_hand(rng, cam, setup.shape, setup.lighting, True)
    end = max(at_rest, rest[1] if rest else 0.0) + float(rng.uniform(*spec.still_s))
    fx = replace(sample_effects(rng), motion_px=0.0)  # motion blur comes from the dice moving
    frames, settled, hands = [], [], []
    n = int(np.ceil(end * fps))
    for k in range(n):
        t = k / fps
        moving = any(f.release - 0.2 <= t < f.land for f in flights)
        times = [t - spec.shutter / fps * j / 2 for j in range(3)] if moving else [t]
        acc = None
        for ts in times:
            poses = [(f.final, f.pose(ts, setup)) for f in flights]
            live = [Placed(pose, p.style) for p, pose in poses if pose is not None]
            img8, labels, _ = dice_over(base8, setup, live)
            acc = img8.astype(np.float32) if acc is None else acc + img8
        assert acc is not None
        img8 = np.clip(acc / len(times) + 0.5, 0, 255).astype(np.uint8)
        hand_over = False
        # the throwing hand: over the bowl until the dice leave it, then it pulls back out of view
        reach = float(np.clip(1 - (t - drop) / 0.5, 0, 1)) if t >= drop else float(np.clip(t / drop * 1.5, 0, 1))
        for hand, amount in ((thrower, reach), (rester, _rest_reach(t, rest))):
            if hand is None or amount <= 0.02:
                continue
            layer = np.zeros_like(img8)
            alpha = np.zeros(img8.shape[:2], np.uint8)
            draw_hand(layer, alpha, hand, amount)
            composite(img8, layer, alpha, 2.0)
            hand_over = hand_over or amount > 0.5
        frames.append(img8 if spec.clean else apply_effects(rng, img8, fx))
        settled.append(t >= at_rest and not hand_over)
        hands.append(hand_over)
    # the still end, drawn once more for its exact label
    _, labels, _ = dice_over(base8, setup, placed)
    label = scene_label(setup, labels, stage.table_kind, list(stage.things), stage.coins)
    faces = tuple(d.face for d in labels)
    return Clip(tuple(frames), tuple(settled), fps, faces, label, tuple(hands), jump)


def _rest_reach(t: float, rest: tuple[float, float] | None) -> float:
    """How far the resting hand is in at time t: in over 0.3 s, out over 0.3 s."""
    if rest is None:
        return 0.0
    t0, t1 = rest
    return float(np.clip(min((t - t0) / 0.3, (t1 - t) / 0.3), 0, 1))
