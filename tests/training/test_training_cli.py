"""`bobing train` on a tiny run (needs torch) and its refusal of a crop the reader cannot pool (torch or not)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bobing_vision.cli.train import main, parse_args
from bobing_vision.vision.detector import DEFAULT_MODELS_DIR


@pytest.mark.parametrize("crop", ["20", "44"])
def test_a_crop_the_reader_cannot_pool_is_refused(crop: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--out", str(tmp_path), "--synth", "1", "--real", "--crop", crop]) == 2
    assert "--crop a multiple of 8" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())  # refused before any scene is rendered or file written


def test_the_crop_trained_is_the_crop_the_detector_cuts(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from bobing_vision.vision.detector import DiceDetector

    out = tmp_path / "models"
    args = ["--out", str(out), "--synth", "2", "--real", "--epochs", "1", "--max-steps", "1", "--crop", "48",
            "--face-fraction", "0.75"]
    assert main(args) == 0
    detector = DiceDetector(out)
    assert detector.crop == 48 and detector.face_fraction == 0.75
    assert detector.face_reader is not None  # the export writes the reader's face part for the second look


def test_missing_real_sets_are_an_error_not_a_silent_generated_only_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A copy of the repo with no ../shared/data beside it once trained on generated scenes alone, unsaid.
    monkeypatch.setattr("bobing_vision.cli.train.DEFAULT_REAL_ROOT", tmp_path / "nowhere")
    assert main(["--out", str(tmp_path / "models"), "--synth", "1"]) == 2
    assert "expected labelled real sets in" in capsys.readouterr().err
    assert not (tmp_path / "models").exists()


def test_leaving_out_a_set_that_is_not_there_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    real = tmp_path / "byler"
    real.mkdir()
    (real / "labels.json").write_text("{}")
    args = ["--out", str(tmp_path / "models"), "--synth", "1", "--real", str(real), "--exclude-real", "byler-d6"]
    assert main(args) == 2
    assert "expected --exclude-real to name one of ['byler'], got ['byler-d6']" in capsys.readouterr().err


OUT_OF_RANGE = [
    *(("--synth-share", share, f"expected 0 < --synth-share <= 1, got {float(share)}") for share in ("0", "1.5", "-0.25")),
    *(("--reader-width", width, f"expected --reader-width even and at least 8, got {width}") for width in ("7", "6", "33")),
    *(("--reader-deep-width", width, f"expected --reader-deep-width at least 8, got {width}") for width in ("7", "0")),
    ("--reader-deep-blocks", "0", "expected --reader-deep-blocks at least 1, got 0"),
    *(("--small-share", share, f"expected 0 <= --small-share <= 1, got {float(share)}") for share in ("1.5", "-0.25")),
    ("--exposure-sigma", "-0.1", "expected --exposure-sigma >= 0, got -0.1"),
    *((flag, share, f"expected 0 <= {flag} <= 1, got {float(share)}")
      for flag in ("--leaning-share", "--leaning-side-share", "--ordinary-share", "--red-bowl-share",
                   "--sharpen-share", "--invert-share", "--resample-share", "--random-filter-share",
                   "--oblique-share", "--paste-share")
      for share in ("2", "-0.1")),
    *(("--face-fraction", f, f"expected 0 < --face-fraction <= 1, got {float(f)}") for f in ("0", "1.5")),
    ("--marbled-share", "1.5", "expected 0 <= --marbled-share <= 1, got 1.5"),
    ("--paste-inside-rim", "0", "expected 0 < --paste-inside-rim <= 1, got 0.0"),
    ("--paste-negatives", "-1", "expected --paste-negatives >= 0, got -1"),
    ("--save-every", "-1", "expected --save-every >= 0, got -1"),
    *(("--ema-decay", decay, f"expected 0 < --ema-decay < 1, got {float(decay)}") for decay in ("0", "1")),
    *(("--oblique-tilt", tilt, f"expected 30 <= --oblique-tilt <= 60, got {float(tilt)}") for tilt in ("25", "61")),
    *(("--pip-colour-distance", d, f"expected 0 < --pip-colour-distance <= 200, got {float(d)}") for d in ("0", "250")),
]


@pytest.mark.parametrize(("option", "value", "message"), OUT_OF_RANGE)
def test_an_option_out_of_range_is_refused_before_anything_is_written(
        option: str, value: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--out", str(tmp_path / "models"), "--synth", "1", "--real", option, value]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "models").exists()


def test_a_run_stopped_part_way_is_continued_by_its_command_again_with_resume(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch")
    from bobing_vision.training import train

    out = tmp_path / "models"
    command = ["--out", str(out), "--synth", "2", "--real", "--epochs", "3", "--save-every", "1"]
    export = train.export

    def power_cut(*args: object) -> None:
        raise KeyboardInterrupt  # stopped after the last step, before the models were written

    monkeypatch.setattr(train, "export", power_cut)
    with pytest.raises(KeyboardInterrupt):
        main(command)
    assert "saved progress at step 2" in capsys.readouterr().out
    monkeypatch.setattr(train, "export", export)
    assert main([*command, "--resume"]) == 0
    said = capsys.readouterr().out
    assert f"continuing from step 2 of 3, saved in {out / 'progress.pt'}" in said and "step 3/3" in said
    assert "step 1/3" not in said  # the steps done are not trained again
    assert sorted(p.name for p in out.iterdir()) == ["dice_locator.onnx", "face_reader.onnx", "pip_reader.onnx",
                                                     "weights.pt"]


def settings_trained_with(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *options: str) -> tuple:
    """The (TrainConfig, SampleConfig) `bobing train` hands to training with `options` on one scene."""
    pytest.importorskip("torch")
    seen = []

    def record(scenes: list, out_dir: Path, cfg: object, sample: object, **kwargs: object) -> None:
        seen.append((cfg, sample))
        raise FileNotFoundError("recorded")  # stop before any training: main reports it and returns 2

    monkeypatch.setattr("bobing_vision.training.train.train", record)
    assert main(["--out", str(tmp_path / "models"), "--synth", "1", "--real", *options]) == 2
    [settings] = seen
    return settings


def test_the_generated_share_given_is_the_share_trained_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, sample = settings_trained_with(monkeypatch, tmp_path, "--synth-share", "0.75")
    assert sample.synth_share == 0.75


def test_the_paste_share_given_is_the_share_of_locator_samples_with_dice_moved(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, sample = settings_trained_with(monkeypatch, tmp_path, "--paste-share", "0.4")
    assert sample.paste.share == 0.4 and sample.paste.inside_rim is None and sample.paste.negatives == 0
    _, sample = settings_trained_with(monkeypatch, tmp_path, "--paste-share", "0.4", "--paste-inside-rim", "0.9",
                                      "--paste-negatives", "2", "--mine-from", str(DEFAULT_MODELS_DIR))
    assert sample.paste.inside_rim == 0.9 and sample.paste.negatives == 2


@pytest.mark.parametrize(("given", "refusal"), [
    (["--leaning-side-share", "0.3"], "expected --mine-from with --leaning-side-share"),
    (["--paste-share", "0.5", "--paste-negatives", "2"], "expected --mine-from with --paste-negatives"),
    (["--mine-from", str(DEFAULT_MODELS_DIR), "--paste-negatives", "2"],
     "expected --paste-share with --paste-negatives"),
    (["--paste-inside-rim", "0.9"], "expected --paste-share with --paste-inside-rim"),
])
def test_an_option_without_the_one_it_acts_through_is_refused(given: list[str], refusal: str, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Given alone, each would change nothing, and the run would say nothing of it."""
    assert main(["--out", str(tmp_path / "models"), "--synth", "1", "--real", *given]) == 2
    assert refusal in capsys.readouterr().err
    assert not (tmp_path / "models").exists()


def test_the_leaning_side_share_given_is_the_share_trained_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, sample = settings_trained_with(monkeypatch, tmp_path, "--leaning-side-share", "0.3", "--mine-from",
                                      str(DEFAULT_MODELS_DIR))
    assert sample.leaning_spot_p == 0.3


def test_the_reader_switches_asked_for_are_the_reader_trained(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for field in ("reader_contrast", "reader_pip_evidence"):
        flag = "--" + field.replace("_", "-")
        for given, on in ((flag, True), (flag.replace("--", "--no-", 1), False)):
            cfg, _ = settings_trained_with(monkeypatch, tmp_path, given)
            assert getattr(cfg, field) is on
        cfg, _ = settings_trained_with(monkeypatch, tmp_path)
        assert getattr(cfg, field) is False  # the committed models' reader


def test_the_moving_average_asked_for_is_the_one_trained_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg, _ = settings_trained_with(monkeypatch, tmp_path, "--ema-decay", "0.999")
    assert cfg.ema_decay == 0.999
    cfg, _ = settings_trained_with(monkeypatch, tmp_path)
    assert cfg.ema_decay is None  # the committed models' recipe: the last step's weights


def test_the_reader_deep_stage_given_is_the_stage_trained(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg, _ = settings_trained_with(monkeypatch, tmp_path, "--reader-deep-width", "40", "--reader-deep-blocks", "3")
    assert (cfg.reader_deep_width, cfg.reader_deep_blocks) == (40, 3)
    cfg, _ = settings_trained_with(monkeypatch, tmp_path)
    assert (cfg.reader_deep_width, cfg.reader_deep_blocks) == (None, 2)  # the committed models' reader


def test_the_reader_width_given_is_the_width_trained_and_continued(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    torch = pytest.importorskip("torch")
    out = tmp_path / "wide"
    tiny = ["--synth", "2", "--real", "--epochs", "1", "--max-steps", "1"]
    assert main(["--out", str(out), *tiny, "--reader-width", "16"]) == 0
    reader = torch.load(out / "weights.pt", weights_only=True)["reader"]
    assert reader["stem.0.0.weight"].shape[0] == 8  # the stem's first conv is half the width
    # Continuing those weights at another width is a clear refusal, not a torch traceback.
    assert main(["--out", str(tmp_path / "again"), *tiny, "--init-from", str(out)]) == 2
    assert "to fit nets of this shape (--reader-width, --reader-deep-width, --reader-deep-blocks, --reader-contrast, " \
        "--reader-pip-evidence?)" in capsys.readouterr().err
    assert main(["--out", str(tmp_path / "again"), *tiny, "--init-from", str(out), "--reader-width", "16"]) == 0


def test_the_committed_weights_fit_the_default_nets() -> None:
    """`bobing train --init-from models` (the model card's way to continue) needs no shape options."""
    pytest.importorskip("torch")
    from bobing_vision.training.nets import LocatorNet
    from bobing_vision.training.train import TrainConfig, load_weights, reader_net

    load_weights(LocatorNet(), reader_net(TrainConfig()), DEFAULT_MODELS_DIR)


def test_the_small_share_renders_that_share_of_scenes_at_320x240_and_none_leaves_the_scenes_as_they_were() -> None:
    import numpy as np

    from bobing_vision.training.scenes import SMALL_FRAME, render_synth

    plain = render_synth(6, seed=1001)
    assert [s.image.shape[:2] for s in render_synth(6, seed=1001, small_share=1.0)] == [SMALL_FRAME[::-1]] * 6
    assert any(s.image.shape[:2] != SMALL_FRAME[::-1] for s in plain)
    # The share draws from a stream of its own: without it the recipe's scenes are the same pixels.
    assert all(np.array_equal(a.image, b.image) for a, b in zip(plain, render_synth(6, seed=1001, small_share=0.0)))


def test_the_leaning_share_puts_a_die_that_cannot_be_read_in_that_share_of_scenes() -> None:
    from bobing_vision.training.scenes import UNREADABLE, render_synth

    def leaning(share: float) -> list[bool]:
        return [any(d.face == UNREADABLE for d in s.dice) for s in render_synth(6, seed=1001, leaning_share=share)]

    assert all(leaning(1.0))
    assert sum(leaning(0.0)) < 6


def test_a_die_leaning_less_than_the_leaning_angle_is_trained_as_its_top_face_in_the_same_picture() -> None:
    from bobing_vision.training.scenes import UNREADABLE, render_synth

    leaning = render_synth(4, seed=1001, leaning_share=1.0)
    upright = render_synth(4, seed=1001, leaning_share=1.0, leaning_deg=80.0)  # a top face never tilts past 55
    assert all(any(d.face == UNREADABLE for d in s.dice) for s in leaning)
    assert not any(d.face == UNREADABLE for s in upright for d in s.dice)
    for a, b in zip(leaning, upright):
        assert np.array_equal(a.image, b.image)
        read = [db.face for d, db in zip(a.dice, b.dice) if d.face == UNREADABLE]
        assert read and all(1 <= face <= 6 for face in read)


def test_the_ordinary_share_sets_which_scenes_show_chinese_dice() -> None:
    from bobing_vision.training.scenes import UNREADABLE, render_synth

    def chinese(scene) -> bool | None:  # red pips on its 1s and 4s and no others; None: no 1 or 4 shown
        if not any(d.face in (1, 4) for d in scene.dice):
            return None
        flat = [d for d in scene.dice if d.face != UNREADABLE]  # a leaning die's pips are its top face's
        return all(bool(d.pips[:, 2].all()) == (d.face in (1, 4)) for d in flat)

    def kinds(share: float) -> set[bool | None]:
        return {chinese(s) for s in render_synth(8, seed=1001, ordinary_share=share)} - {None}

    assert kinds(0.0) == {True}
    assert kinds(1.0) == {False}


def test_the_defaults_are_the_committed_models_recipe() -> None:
    """The model card's command, shares left out, trains what is committed: a quarter of the scenes at
    320x240, 35% with ordinary dice (the generator alone shows them in 20%) and no bowl painted red (the
    generator alone paints a third of its painted bowls red)."""
    args = parse_args(["--out", "x"])
    assert (args.small_share, args.ordinary_share, args.red_bowl_share) == (0.25, 0.35, 0.0)
    assert (args.oblique_share, args.oblique_tilt) == (0.25, 45.0)
    assert args.wide_floor_share == 0.0, "the generator's own floors"
    assert args.face_fraction == 0.72, "the committed reader's crops"


@pytest.fixture
def rendered_specs(monkeypatch: pytest.MonkeyPatch) -> list:
    """The SceneSpec of every generated scene rendered in the test, in order."""
    from bobing_vision import synth

    specs = []
    real_render = synth.render_scene

    def record(rng: np.random.Generator, spec: synth.SceneSpec):  # type: ignore[no-untyped-def]
        specs.append(spec)
        return real_render(rng, spec)

    monkeypatch.setattr(synth, "render_scene", record)
    return specs


def test_the_marbled_share_reaches_every_scene_rendered(rendered_specs: list) -> None:
    from bobing_vision.synth import SceneSpec
    from bobing_vision.training.scenes import render_synth

    render_synth(3, seed=1003, marbled_share=0.7)
    render_synth(2, seed=1003)
    assert [s.marbled_p for s in rendered_specs] == [0.7] * 3 + [SceneSpec().marbled_p] * 2


def test_the_pip_colour_distance_reaches_every_scene_rendered(rendered_specs: list) -> None:
    from bobing_vision.synth import SceneSpec
    from bobing_vision.training.scenes import render_synth

    render_synth(2, seed=1003, pip_colour_distance=50.0)
    render_synth(1, seed=1003)
    assert [s.pip_colour_distance for s in rendered_specs] == [50.0] * 2 + [SceneSpec().pip_colour_distance]


def test_the_oblique_share_and_tilt_set_how_steeply_scenes_are_seen(rendered_specs: list) -> None:
    from bobing_vision.training.scenes import render_synth

    render_synth(6, seed=1003)
    assert {s.max_tilt_deg for s in rendered_specs} == {30.0, 45.0}  # the committed recipe: a webcam's, or 45
    rendered_specs.clear()
    render_synth(3, seed=1003, oblique_share=1.0, oblique_tilt=60.0)
    render_synth(2, seed=1003, oblique_share=0.0, oblique_tilt=60.0)
    assert [s.max_tilt_deg for s in rendered_specs] == [60.0] * 3 + [30.0] * 2


def test_the_scene_options_given_reach_the_scenes_rendered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asked = []

    def record(count: int, **kwargs: object) -> list:
        asked.append(kwargs)
        raise FileNotFoundError("recorded")  # main reports it and returns 2

    monkeypatch.setattr("bobing_vision.training.scenes.render_synth", record)
    assert main(["--out", str(tmp_path / "models"), "--synth", "1", "--real", "--oblique-share", "0.35",
                 "--oblique-tilt", "60", "--pip-colour-distance", "50", "--wide-floor-share", "0.3"]) == 2
    assert (asked[0]["oblique_share"], asked[0]["oblique_tilt"], asked[0]["pip_colour_distance"]) == (0.35, 60.0, 50.0)
    assert asked[0]["wide_floor_share"] == 0.3
    assert main(["--out", str(tmp_path / "models"), "--synth", "1", "--real"]) == 2
    assert asked[1]["pip_colour_distance"] is None, "the generator's own distance by default"


def test_the_red_bowl_share_repaints_the_same_scenes() -> None:
    from bobing_vision.training.scenes import render_synth

    blue, red = (render_synth(12, seed=1002, red_bowl_share=share) for share in (0.0, 1.0))
    assert [[(d.center, d.face) for d in s.dice] for s in blue] == [[(d.center, d.face) for d in s.dice] for s in red]
    repainted = [k for k, (b, r) in enumerate(zip(blue, red)) if not np.array_equal(b.image, r.image)]
    assert 0 < len(repainted) < 12, "the painted bowls only"


def test_the_exposure_spread_and_each_picture_share_given_are_the_augmentation_trained_with(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("torch")
    augs = []

    def record(scenes: list, out_dir: Path, cfg: object, sample: object, aug: object, **kwargs: object) -> None:
        augs.append(aug)
        raise FileNotFoundError("recorded")

    monkeypatch.setattr("bobing_vision.training.train.train", record)
    fields = ("brightness_sigma", "sharpen_p", "invert_p", "resample_p", "random_filter_p")
    for options, expected in (([], (0.3, 0.0, 0.0, 0.0, 0.0)),
                              (["--exposure-sigma", "0.45"], (0.45, 0.0, 0.0, 0.0, 0.0)),
                              (["--sharpen-share", "0.25"], (0.3, 0.25, 0.0, 0.0, 0.0)),
                              (["--invert-share", "0.2"], (0.3, 0.0, 0.2, 0.0, 0.0)),
                              (["--resample-share", "0.3"], (0.3, 0.0, 0.0, 0.3, 0.0)),
                              (["--random-filter-share", "0.4"], (0.3, 0.0, 0.0, 0.0, 0.4))):
        assert main(["--out", str(tmp_path / "models"), "--synth", "1", "--real", *options]) == 2
        assert tuple(getattr(augs[-1], f) for f in fields) == expected


def test_the_wide_floor_share_draws_that_share_of_bowls_with_a_wide_floor(rendered_specs: list) -> None:
    from bobing_vision.synth import SceneSpec
    from bobing_vision.training.scenes import WIDE_FLOOR, render_synth

    render_synth(3, seed=1003, wide_floor_share=1.0)
    render_synth(2, seed=1003)
    assert [s.floor_share for s in rendered_specs] == [WIDE_FLOOR] * 3 + [SceneSpec().floor_share] * 2
