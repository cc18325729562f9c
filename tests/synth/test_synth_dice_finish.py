"""A die's finish: drilled pips, a glare patch, see-through acrylic, bright or dark edges."""

from __future__ import annotations

import dataclasses

import numpy as np

from bobing_vision.synth.camera import look_at
from bobing_vision.synth.dice import DiePose, DieStyle, Finish, draw_die, sample_die_style, sample_finish
from bobing_vision.synth.geometry import face_up_rotation
from bobing_vision.synth.lighting import Lighting

SIZE = 240
# The lamp stands off to the world's +x side, 37 degrees from overhead.
LAMP = Lighting(np.array([[800.0, 0.0, 600.0]]), np.array([[0.7, 0.7, 0.7]]), np.array([0.3, 0.3, 0.3]))
PLAIN = DieStyle(body=(200.0, 200.0, 200.0), pip=(30.0, 30.0, 30.0), red=None, corner=0.12, gloss=0.0)
CAMERA = look_at(SIZE, SIZE, 1200.0, np.zeros(3), 160.0, 0.0, 0.0, 0.0)  # straight down


def _render(style: DieStyle, face: int = 1, floor: np.ndarray | None = None) -> tuple[np.ndarray, tuple[float, float]]:
    """One die 16 mm wide seen from straight above, big in the frame; the image and its top's centre."""
    pose = DiePose(np.array([0.0, 0.0, 8.0]), face_up_rotation(face), 16.0, True, False)
    img = np.full((SIZE, SIZE, 3), 90, np.uint8) if floor is None else floor.copy()
    label = draw_die(img, np.zeros((SIZE, SIZE), np.uint8), 1, CAMERA, pose, style, LAMP, np.ones(1))
    assert label.center_xy is not None
    return img, label.center_xy


def _finished(**finish: float) -> DieStyle:
    return dataclasses.replace(PLAIN, finish=Finish(**finish))


def test_a_drilled_pip_shows_its_shadowed_wall_on_the_lamps_side() -> None:
    plain, (cx, cy) = _render(PLAIN)
    drilled, _ = _render(_finished(engraved=1.0))
    diff = plain.astype(int).sum(axis=2) - drilled.astype(int).sum(axis=2)  # > 0 where the wall darkens
    ys, xs = np.nonzero(diff > 30)
    assert xs.size > 0, "a drilled pip darkens the face beside its paint"
    lamp_side = np.diff(CAMERA.project(np.array([[0.0, 0.0, 16.0], [1.0, 0.0, 16.0]])), axis=0)[0]
    along = (xs - cx) * lamp_side[0] + (ys - cy) * lamp_side[1]  # how far towards the lamp, in the image
    assert np.mean(along > 0) > 0.8, "the dark crescent lies on the lamp's side of the pip"


def test_a_see_through_body_shows_the_floor_and_an_opaque_one_does_not() -> None:
    dark = np.full((SIZE, SIZE, 3), 20, np.uint8)
    light = np.full((SIZE, SIZE, 3), 235, np.uint8)

    def body_at(style: DieStyle, floor: np.ndarray) -> float:
        img, (cx, cy) = _render(style, face=6, floor=floor)  # a 6's middle row is bare body
        return float(img[int(cy), int(cx)].mean())

    opaque = PLAIN
    clear = _finished(see_through=0.5)
    assert abs(body_at(opaque, dark) - body_at(opaque, light)) < 2
    assert body_at(clear, light) - body_at(clear, dark) > 60


def test_a_glare_patch_brightens_the_face_and_its_pips() -> None:
    plain, (cx, cy) = _render(PLAIN, face=5)
    glared, _ = _render(_finished(glare_patch=0.6), face=5)
    box = np.s_[int(cy) - 25:int(cy) + 25, int(cx) - 25:int(cx) + 25]
    gain = glared[box].astype(float).mean() - plain[box].astype(float).mean()
    assert gain > 5
    assert (glared.astype(int) >= plain.astype(int) - 1).all(), "glare only brightens"


def test_edges_follow_the_edge_gain() -> None:
    dim, _ = _render(_finished(edge_gain=0.5))
    bright, _ = _render(_finished(edge_gain=1.1))
    assert bright.astype(float).sum() > dim.astype(float).sum()


def test_finishes_vary_across_sets() -> None:
    finishes = [sample_finish(np.random.default_rng(seed)) for seed in range(200)]
    assert 0.5 < np.mean([f.engraved > 0 for f in finishes]) < 0.9
    assert 0.05 < np.mean([f.see_through > 0 for f in finishes]) < 0.4
    assert 0.2 < np.mean([f.glare_patch > 0 for f in finishes]) < 0.6
    assert all(0.5 <= f.edge_gain <= 1.2 for f in finishes)


def test_chinese_dice_are_never_see_through_and_sets_get_their_own_details() -> None:
    chinese = [sample_die_style(np.random.default_rng(seed), True) for seed in range(100)]
    assert all(style.finish.see_through == 0 for style in chinese), "bone and resin: opaque"
    assert any(style.finish.engraved > 0 for style in chinese)
    assert len({style.seed for style in chinese}) == len(chinese), "each set its own veins and glare"


def test_the_marbled_share_sets_how_many_sets_in_any_colours_are_marbled() -> None:
    """Half the ordinary sets are in any colours; `marbled_p` of those get veins of a second colour (fewer:
    the veins must stand out from the pips too). Chinese dice are never marbled."""

    def marbled(p: float, chinese: bool = False) -> float:
        return float(np.mean([sample_die_style(np.random.default_rng(seed), chinese, p).swirl is not None
                              for seed in range(400)]))

    assert marbled(0.0) == 0.0 and marbled(1.0, chinese=True) == 0.0
    assert 0.08 < marbled(0.35) < marbled(0.7) < marbled(1.0) < 0.5
    assert marbled(1.0) > 0.3
