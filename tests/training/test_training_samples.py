"""Training samples and targets (no torch needed), and a one-step training smoke run (needs torch)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from bobing_vision.training.augment import AugmentConfig, photometric
from bobing_vision.training.samples import SampleConfig, background_point, locator_sample, reader_sample
from bobing_vision.training.scenes import UNREADABLE, DieTarget, Scene, leaning_spot, mine_negatives, near_a_die
from bobing_vision.vision.detector import LOCATOR_STRIDE, NOT_A_DIE_CLASS, READER_STRIDE, UNREADABLE_CLASS, Located

NO_AUG = AugmentConfig(
    gain_sigma=0.0, brightness_sigma=0.0, contrast_range=(1.0, 1.0), gamma_sigma=0.0, desaturate_p=0.0,
    blur_p=0.0, noise_p=0.0, jpeg_p=0.0, channel_swap_p=0.0,
)


def one_die_scene(face: int = 4, red: bool = True) -> Scene:
    """A white square 'die' with dark pips on a dark table, pips labelled."""
    image = np.full((480, 640, 3), 40, np.uint8)
    cx, cy, size = 300.0, 200.0, 40.0
    cv2.rectangle(image, (280, 180), (320, 220), (240, 240, 240), -1)
    offsets = [(-10, -10), (10, -10), (-10, 10), (10, 10)][: max(1, min(face, 4))]
    pips = []
    for dx, dy in offsets:
        cv2.circle(image, (int(cx + dx), int(cy + dy)), 4, (30, 30, 200) if red else (20, 20, 20), -1)
        pips.append((cx + dx + 0.5, cy + dy + 0.5, float(red)))
    die = DieTarget(center=(cx + 0.5, cy + 0.5), size=size, face=face, pips=np.array(pips, np.float32))
    return Scene(image=image, dice=(die,), source="test")


def test_locator_sample_puts_the_peak_on_the_die() -> None:
    scene = one_die_scene()
    cfg = SampleConfig()
    for seed in range(5):
        patch, heat, reg = locator_sample(scene, np.random.default_rng(seed), cfg, NO_AUG)
        assert patch.shape == (cfg.patch, cfg.patch, 3) and heat.shape[1:] == reg.shape[1:]
        if reg[3].sum() == 0:
            continue  # the die fell outside this patch
        r, c = np.argwhere(reg[3] == 1)[0]
        assert heat[0, r, c] == 1.0
        # the die is the brightest thing in the patch: its centre is near the peak cell
        ys, xs = np.nonzero(patch[:, :, 1] > 200)
        assert abs(xs.mean() / LOCATOR_STRIDE - c - 0.5) < 1.5 and abs(ys.mean() / LOCATOR_STRIDE - r - 0.5) < 1.5
        assert np.exp(reg[2, r, c]) > cfg.min_die_px


def test_reader_sample_labels_and_pip_heat() -> None:
    scene = one_die_scene(face=4, red=True)
    cfg = SampleConfig(negative_share=0.0)
    crop, label, heat, mask = reader_sample(scene, np.random.default_rng(1), cfg, NO_AUG)
    assert crop.shape == (cfg.crop, cfg.crop, 3) and label == 3 and mask == 1.0
    assert heat.shape == (2, cfg.crop // READER_STRIDE, cfg.crop // READER_STRIDE)
    assert heat[1].max() > 0.5 and heat[0].max() == 0.0  # red pips only
    # four separate blobs in the red channel
    n, _ = cv2.connectedComponents((heat[1] > 0.5).astype(np.uint8))
    assert n - 1 == 4


@pytest.mark.parametrize(("case", "face", "negative_share", "expected"), [
    ("cocked die", UNREADABLE, 0.0, UNREADABLE_CLASS),
    ("background crop", 2, 1.0, NOT_A_DIE_CLASS),
])
def test_reader_sample_not_a_readable_face(case, face, negative_share, expected) -> None:
    base = one_die_scene()
    scene = Scene(base.image, (DieTarget(base.dice[0].center, 40.0, face, None),), "test")
    _, label, _, mask = reader_sample(scene, np.random.default_rng(0), SampleConfig(negative_share=negative_share), NO_AUG)
    assert label == expected, case


def test_near_a_die_is_within_most_of_that_die_face_side() -> None:
    scene = Scene(image=np.zeros((100, 200, 3), np.uint8), source="synth",
                  dice=(DieTarget((50.0, 50.0), 40.0, 3, None), DieTarget((150.0, 50.0), 10.0, 3, None)))
    assert near_a_die(np.array([50.0, 80.0]), scene)  # 30 px from the big die: 0.75 of its side
    assert not near_a_die(np.array([50.0, 85.0]), scene)  # 35 px: 0.875
    assert not near_a_die(np.array([150.0, 60.0]), scene)  # 10 px from the small die, a whole side
    assert near_a_die(np.array([150.0, 60.0]), scene, size=40.0)  # ...but near for a die of 40 px


def test_a_leaning_spot_is_off_a_leaning_dies_top_face_and_nearest_that_die() -> None:
    scene = Scene(image=np.zeros((100, 200, 3), np.uint8), source="synth",
                  dice=(DieTarget((50.0, 50.0), 20.0, UNREADABLE, None), DieTarget((90.0, 50.0), 20.0, 3, None)))
    assert leaning_spot(np.array([50.0, 62.0]), scene) == (50.0, 62.0, 20.0)  # 0.6 of its side off: its side face
    assert leaning_spot(np.array([52.0, 50.0]), scene) is None  # 0.1 off: its top face, trained as it is
    assert leaning_spot(np.array([80.0, 50.0]), scene) is None  # nearer the flat die beside it
    assert leaning_spot(np.array([50.0, 70.0]), scene) is None  # a whole side off: not that die
    assert leaning_spot(np.array([90.0, 60.0]), replace(scene, dice=scene.dice[1:])) is None  # no leaning die


def test_mining_sorts_the_peaks_into_false_dice_and_leaning_dice_sides(monkeypatch: pytest.MonkeyPatch) -> None:
    peaks = np.array([[50.0, 62.0], [150.0, 20.0], [91.0, 50.0]])  # a leaning die's side, a crumb, a flat die

    class Peaks:
        def __init__(self, *args: object) -> None: ...

        def locate(self, image: np.ndarray) -> Located:
            return Located(centers=peaks, sizes=np.full(3, 20.0), scores=np.ones(3))

    monkeypatch.setattr("bobing_vision.vision.detector.DiceDetector", Peaks)
    scene = Scene(image=np.zeros((100, 200, 3), np.uint8), source="synth",
                  dice=(DieTarget((50.0, 50.0), 20.0, UNREADABLE, None), DieTarget((90.0, 50.0), 20.0, 3, None)))
    [mined] = mine_negatives([scene], Path("unused"))
    assert mined.negatives.tolist() == [[150.0, 20.0]]
    assert mined.leaning_spots.tolist() == [[50.0, 62.0, 20.0]]


@pytest.mark.parametrize(("share", "unreadable"), [(1.0, True), (0.0, False)])
def test_a_leaning_spot_is_trained_as_unreadable_at_its_share(share: float, unreadable: bool) -> None:
    scene = replace(one_die_scene(face=4), leaning_spots=np.array([[300.5, 200.5, 40.0]]))
    cfg = SampleConfig(negative_share=0.0, leaning_spot_p=share)
    for seed in range(5):
        _, label, heat, mask = reader_sample(scene, np.random.default_rng(seed), cfg, NO_AUG)
        assert (label == UNREADABLE_CLASS) is unreadable
        assert mask == (0.0 if unreadable else 1.0)  # a side face's pips are not labelled


def test_background_points_keep_off_the_dice() -> None:
    # Dice covering 3% of the frame: three spots in a row on them (the fallback) happen once in 30 000.
    image = np.random.default_rng(0).integers(0, 255, (120, 160, 3), dtype=np.uint8)
    dice = tuple(DieTarget((float(x), 60.0), 10.0, 2, None) for x in (30, 80, 130))
    scene = Scene(image=image, dice=dice, source="synth")
    rng, cfg = np.random.default_rng(1), SampleConfig(mined_negative_p=0.0)
    points = [background_point(scene, 10.0, rng, cfg) for _ in range(300)]
    assert not any(near_a_die(p, scene) for p in points)


def test_photometric_keeps_shape_and_changes_pixels() -> None:
    image = one_die_scene().image
    out = photometric(image, np.random.default_rng(3))
    assert out.shape == image.shape and out.dtype == np.uint8
    assert not np.array_equal(out, image)


def test_channel_swap_never_touches_red_pips() -> None:
    image = one_die_scene(red=True).image
    swap_only = AugmentConfig(**{**NO_AUG.__dict__, "channel_swap_p": 1.0})
    swapped = [photometric(image, np.random.default_rng(seed), swap_only) for seed in range(6)]
    assert any(not np.array_equal(out, image) for out in swapped)
    assert all(np.array_equal(photometric(image, np.random.default_rng(seed), swap_only, keep_colours=True), image)
               for seed in range(6))


def test_sharpening_puts_halos_round_edges_and_is_off_by_default() -> None:
    image = one_die_scene(red=False).image  # a 240 die on a 40 table, 20 pips: no pixel outside 20..240
    sharpen = replace(NO_AUG, sharpen_p=1.0)
    for seed in range(4):
        out = photometric(image, np.random.default_rng(seed), sharpen)
        assert out.min() < 20 and out.max() > 240, "a dark halo beside each light edge and a light one beside each dark"
        assert np.array_equal(out[:100, :100], image[:100, :100])  # flat table: nothing to sharpen
    assert AugmentConfig().sharpen_p == 0.0
    assert np.array_equal(photometric(image, np.random.default_rng(0), NO_AUG), image)


def test_a_negative_turns_light_dice_dark_but_never_a_picture_with_red_pips() -> None:
    image = one_die_scene(red=False).image
    negative = replace(NO_AUG, invert_p=1.0)
    assert np.array_equal(photometric(image, np.random.default_rng(0), negative), 255 - image)
    assert np.array_equal(photometric(image, np.random.default_rng(0), negative, keep_colours=True), image)
    assert AugmentConfig().invert_p == 0.0
    # Off, it draws nothing: the pictures of a seed stay those the committed models were trained on.
    rng = np.random.default_rng(5)
    photometric(image, rng, AugmentConfig())
    again = np.random.default_rng(5)
    photometric(image, again, replace(AugmentConfig(), invert_p=0.0))
    assert rng.random() == again.random()


def test_squeezed_reader_crop_keeps_pips_on_their_targets() -> None:
    """The crop warp (turn, flip, squeeze) moves the image and the pip heat alike."""
    scene = one_die_scene(face=4, red=False)
    cfg = SampleConfig(negative_share=0.0, center_jitter=0.0, size_jitter=0.0, squeeze_max=0.3)
    for seed in range(8):
        crop, _, heat, _ = reader_sample(scene, np.random.default_rng(seed), cfg, NO_AUG)
        for r, c in np.argwhere(heat[0] == heat[0].max()):
            y, x = int((r + 0.5) * READER_STRIDE), int((c + 0.5) * READER_STRIDE)
            assert crop[y, x].mean() < 120, f"seed {seed}: pip target at ({x}, {y}) is not on a dark pip"


def test_training_smoke_run_exports_matching_onnx(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from bobing_vision.training.train import TrainConfig, train
    from bobing_vision.vision.detector import DiceDetector

    scenes = [one_die_scene(face=f) for f in (1, 4)]
    sample = SampleConfig(face_fraction=0.7)  # written into the reader, so its crops are cut as trained
    result = train(scenes, tmp_path, TrainConfig(epochs=1, locator_batch=2, reader_batch=8), sample, max_steps=1)
    assert result.steps == 1 and result.export_max_diff < 1e-3
    detector = DiceDetector(tmp_path)
    assert detector.face_fraction == 0.7
    assert detector.locator_hw is None  # the exported locator takes any input size
    assert isinstance(detector.detect(scenes[0].image), list)
    assert isinstance(detector.detect(np.zeros((360, 640, 3), np.uint8)), list)


def test_a_sample_that_cannot_be_made_stops_the_training_with_its_error(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("torch")
    from bobing_vision.training.train import TrainConfig, train

    def broken(*args: object, **kwargs: object) -> None:
        raise IndexError("a patch past the frame's edge")

    # made by a background thread, whose failure once left the training waiting for the batch for ever
    monkeypatch.setattr("bobing_vision.training.train.locator_batch", broken)
    with pytest.raises(IndexError, match="past the frame's edge"):
        train([one_die_scene()], tmp_path, TrainConfig(epochs=1, locator_batch=2, reader_batch=8), max_steps=1)


def test_a_moving_average_of_the_weights_is_exported_and_the_last_step_kept_beside_it(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    import torch

    from bobing_vision.training.train import CHECKPOINT_FILE, TrainConfig, train

    scenes = [one_die_scene(face=f) for f in (1, 4)]
    cfg = TrainConfig(epochs=3, locator_batch=2, reader_batch=8)
    train(scenes, tmp_path / "plain", cfg, max_steps=3)
    train(scenes, tmp_path / "averaged", replace(cfg, ema_decay=0.9), max_steps=3)
    plain = torch.load(tmp_path / "plain" / CHECKPOINT_FILE, weights_only=True)
    averaged = torch.load(tmp_path / "averaged" / CHECKPOINT_FILE, weights_only=True)
    assert "last_step" not in plain
    for net in ("locator", "reader"):
        weights = [k for k in plain[net] if "running" not in k and "num_batches" not in k]
        # The averaging does not change the run: its last step is the plain run's...
        assert all(torch.equal(plain[net][k], averaged["last_step"][net][k]) for k in weights)
        # ...and what it exports lags behind it (0.9 of it is still the first step's).
        assert not all(torch.allclose(plain[net][k], averaged[net][k]) for k in weights)


def test_a_run_continues_from_the_weights_an_earlier_run_saved(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    import torch

    from bobing_vision.training.train import CHECKPOINT_FILE, TrainConfig, train

    scenes = [one_die_scene(face=f) for f in (1, 4)]
    cfg = TrainConfig(epochs=1, locator_batch=2, reader_batch=8, lr=0.0)  # no update: the weights pass through
    train(scenes, tmp_path / "first", cfg, max_steps=1)
    # another seed starts from other random weights: only loading the first run's can make them equal
    train(scenes, tmp_path / "second", replace(cfg, seed=1), max_steps=1, init_from=tmp_path / "first")
    first = torch.load(tmp_path / "first" / CHECKPOINT_FILE, weights_only=True)
    second = torch.load(tmp_path / "second" / CHECKPOINT_FILE, weights_only=True)
    weights = [k for k in first["reader"] if "running" not in k and "num_batches" not in k]
    assert weights and all(torch.equal(first["reader"][k], second["reader"][k]) for k in weights)
    with pytest.raises(FileNotFoundError, match=CHECKPOINT_FILE):
        train(scenes, tmp_path / "third", cfg, max_steps=1, init_from=tmp_path / "nowhere")


def test_resampling_softens_edges_keeps_flat_parts_and_is_off_by_default() -> None:
    image = one_die_scene(red=False).image
    fewer_pixels = replace(NO_AUG, resample_p=1.0, resample_factor=(3.0, 3.0))
    out = photometric(image, np.random.default_rng(0), fewer_pixels)
    assert out.shape == image.shape and out.dtype == np.uint8
    # The die's edge (x = 280) spreads over a few pixels: no longer a step from 40 to 240.
    row = out[200, 272:290, 0].astype(int)
    assert np.abs(np.diff(row)).max() < 150 and 40 < row[8] < 240
    assert np.array_equal(out[:100, :100], image[:100, :100])  # flat table: nothing to lose
    assert AugmentConfig().resample_p == 0.0


def test_a_random_filter_keeps_red_pips_red_and_is_off_by_default() -> None:
    image = one_die_scene(face=4, red=True).image
    filtered = replace(NO_AUG, random_filter_p=1.0)
    outs = [photometric(image, np.random.default_rng(seed), filtered) for seed in range(20)]
    assert sum(not np.array_equal(out, image) for out in outs) >= 19
    for out in outs:
        b, g, r = out[190, 290].astype(int)  # a pip's centre: (30, 30, 200) drawn
        assert r > b + 40 and r > g + 40, "a kernel summing below zero would turn the red pip cyan"
    assert AugmentConfig().random_filter_p == 0.0
