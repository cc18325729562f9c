"""`bobing train`: train the die locator and pip reader on generated scenes and real sets, export ONNX."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from bobing_vision.dataset.labels import labelled_sets
from bobing_vision.errors import BobingError, InvalidInput
from bobing_vision.synth.config import MAX_PIP_COLOUR_DISTANCE, MAX_TILT_DEG, SceneSpec
from bobing_vision.training.augment import AugmentConfig
from bobing_vision.training.paste import PasteConfig
from bobing_vision.training.samples import SampleConfig
from bobing_vision.training.scenes import (OBLIQUE_SHARE, OBLIQUE_TILT, ORDINARY_SHARE, RED_BOWL_SHARE, SMALL_SHARE,
                                           WIDE_FLOOR, WIDE_FLOOR_SHARE)

HELP = "train the dice models and export ONNX (needs torch)"

DEFAULT_REAL_ROOT = Path(__file__).resolve().parents[3] / "shared" / "data"


# The options that set a share (0 <= S <= 1) of the scenes or crops trained on: flag, default, what it is
# a share of, and the note on its default and what was tried (models/HISTORY.md has the figures).
SHARE_OPTIONS: tuple[tuple[str, float | None, str, str], ...] = (
    ("--small-share", SMALL_SHARE, "the generated scenes rendered at 320x240, where most dice are under 18 px",
     f"{SMALL_SHARE:g} by default, the committed models' recipe; 0: the recipes before it"),
    ("--leaning-share", None, "the generated scenes with a die leaning on another or on the wall",
     "default: the generator's own, SceneSpec.cocked_p; 0.25 tried, not the committed recipe: models/HISTORY.md"),
    ("--ordinary-share", ORDINARY_SHARE, "the generated scenes with ordinary dice, not Chinese ones",
     f"{ORDINARY_SHARE:g} by default, the committed models' recipe; 0.2: the generator's own, the recipes "
     "before it"),
    ("--red-bowl-share", RED_BOWL_SHARE, "the generated scenes' painted bowls painted red, not blue",
     f"{RED_BOWL_SHARE:g} by default, the committed models' recipe; the generator's own third tried, not kept: "
     "models/HISTORY.md"),
    ("--marbled-share", None, "the generated ordinary dice sets in any colours that are marbled",
     "default: the generator's own, SceneSpec.marbled_p, 0.35; 0.7 tried with byler never seen, not kept: "
     "models/HISTORY.md"),
    ("--oblique-share", OBLIQUE_SHARE,
     "the generated scenes seen more obliquely than a webcam over the bowl, up to --oblique-tilt degrees off "
     "vertical", f"{OBLIQUE_SHARE:g} by default, the committed models' recipe"),
    ("--wide-floor-share", WIDE_FLOOR_SHARE,
     f"the generated scenes in bowls whose flat floor reaches {WIDE_FLOOR[0]:g}-{WIDE_FLOOR[1]:g} of the rim's "
     "radius, where dice rest near the wall", f"{WIDE_FLOOR_SHARE:g} by default, the committed models' recipe"),
    ("--leaning-side-share", SampleConfig.leaning_spot_p,
     "the reader's die crops, in scenes with a leaning die that --mine-from's locator peaked on off its top "
     "face, taken at that spot as 'unreadable'",
     f"{SampleConfig.leaning_spot_p:g} by default; 0.3 tried, not kept: models/HISTORY.md"),
    ("--sharpen-share", AugmentConfig.sharpen_p, "training pictures sharpened as webcams and phones do, with an "
     "unsharp mask", f"{AugmentConfig.sharpen_p:g} by default; 0.25 tried, not kept: more wrong verdicts, "
     "models/HISTORY.md"),
    ("--invert-share", AugmentConfig.invert_p, "training pictures with no red pip turned to their negative: "
     "light dice with dark pips become dark dice with light ones",
     f"{AugmentConfig.invert_p:g} by default; 0.15 tried, not kept: fewer right awards, models/HISTORY.md"),
    ("--resample-share", AugmentConfig.resample_p, "training pictures shrunk and enlarged back: a camera that "
     "holds less detail than its pixel count",
     f"{AugmentConfig.resample_p:g} by default; 0.3 tried on the reader alone, not kept: models/HISTORY.md"),
    ("--random-filter-share", AugmentConfig.random_filter_p, "training pictures through a random 3x3 filter "
     "blended with the picture: each camera renders detail its own way",
     f"{AugmentConfig.random_filter_p:g} by default; 0.3 and 0.6 tried on the reader alone, not kept: "
     "models/HISTORY.md"),
    ("--paste-share", PasteConfig.share, "the locator's samples with dice from another scene pasted where no "
     "die lies, turned and resized: dice learnt by their look, not by where they usually lie",
     f"{PasteConfig.share:g} by default; 0.5 tried, not kept: more dice found in new bowls, more coins "
     "and false voids, models/HISTORY.md"),
)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bobing train", description=HELP)
    parser.add_argument("--out", type=Path, default=Path("models"), help="folder for the models and the torch weights")
    parser.add_argument("--synth", type=int, default=1200, help="generated scenes to train on (0: none)")
    parser.add_argument(
        "--real", type=Path, nargs="*", default=None,
        help=f"labelled sets (DATA.md folders): real photos, or a renderer's throws, whose labelled pips are "
             f"trained on too; default: every set in {DEFAULT_REAL_ROOT}",
    )
    parser.add_argument("--exclude-real", action="append", default=[], metavar="NAME", help="leave this set out")
    parser.add_argument("--epochs", type=int, default=30, help="passes over the scenes")
    parser.add_argument("--max-steps", type=int, default=None, help="stop after this many steps (smoke runs)")
    parser.add_argument(
        "--save-every", type=int, default=200, metavar="N",
        help="save the run's progress in --out every N steps (about two minutes on two cores; 0: never)",
    )
    parser.add_argument(
        "--resume", action="store_true",
        help="continue the run saved in --out where it stopped; give the stopped run's command again with this",
    )
    parser.add_argument(
        "--mine-from", type=Path, default=None, metavar="DIR",
        help="models whose false dice on the training scenes become hard 'not a die' examples",
    )
    parser.add_argument(
        "--init-from", type=Path, default=None, metavar="DIR",
        help="continue from the torch weights (weights.pt) an earlier run saved in DIR",
    )
    parser.add_argument(
        "--lr", type=float, default=None,
        help="peak learning rate (default: TrainConfig's; lower it to continue a run with --init-from)",
    )
    parser.add_argument(
        "--crop", type=int, default=SampleConfig.crop, metavar="PX",
        help="the reader's crop side, a multiple of 8 (the detector reads it from the exported model)",
    )
    parser.add_argument(
        "--face-fraction", type=float, default=SampleConfig.face_fraction, metavar="F",
        help="the share of the crop's side a top face fills (0 < F <= 1; the detector reads it from the "
             f"exported model; default {SampleConfig.face_fraction:g})",
    )
    parser.add_argument(
        "--reader-width", type=int, default=None, metavar="C",
        help="the reader's channels at its first stage, even, at least 8 (default: TrainConfig's, 48)",
    )
    parser.add_argument(
        "--reader-deep-width", type=int, default=None, metavar="C",
        help="the reader's channels at stride 8, where it sees the whole face (default: 3 x --reader-width; "
             "192 in 3 blocks tried, not kept: models/HISTORY.md)",
    )
    parser.add_argument(
        "--reader-deep-blocks", type=int, default=None, metavar="N",
        help="the reader's blocks at stride 8, at least 1 (default: TrainConfig's, 2)",
    )
    parser.add_argument(
        "--reader-pip-evidence", action=argparse.BooleanOptionalAction, default=None,
        help="let the reader's face head also see its own pip head's heat, the pips' layout whatever the "
             "die's body looks like (default: TrainConfig's, off)",
    )
    parser.add_argument(
        "--reader-contrast", action=argparse.BooleanOptionalAction, default=None,
        help="also give the reader each crop less its face's mean colour, over its face's contrast "
             "(faint pips, colour casts; default: TrainConfig's, off; tried, not kept: models/HISTORY.md)",
    )
    parser.add_argument(
        "--synth-share", type=float, default=SampleConfig.synth_share, metavar="S",
        help="share of each batch drawn from generated scenes, the real sets sharing the rest (0 < S <= 1)",
    )
    for flag, default, what, note in SHARE_OPTIONS:
        parser.add_argument(flag, type=float, default=default, metavar="S",
                            help=f"share of {what} (0 <= S <= 1; {note})")
    parser.add_argument(
        "--paste-inside-rim", type=float, default=PasteConfig.inside_rim, metavar="R",
        help="with --paste-share, move dice only within this share of a scene's labelled rim (0 < R <= 1; "
             "default: anywhere in the frame; 0.9 with --paste-negatives 2 tried, not kept: models/HISTORY.md)",
    )
    parser.add_argument(
        "--paste-negatives", type=int, default=PasteConfig.negatives, metavar="N",
        help="with --paste-share, also move up to N of the donor's mined false dice (--mine-from), unlabelled, "
             "so that a pasted patch is no sign of a die (default: 0)",
    )
    parser.add_argument(
        "--oblique-tilt", type=float, default=OBLIQUE_TILT, metavar="DEG",
        help=f"how far off vertical those scenes are seen at most ({SceneSpec.max_tilt_deg:g} <= DEG <= "
             f"{MAX_TILT_DEG:g}; "
             f"{OBLIQUE_TILT:g} by default, the committed models' recipe; a phone photo of a bowl is often steeper)",
    )
    parser.add_argument(
        "--leaning-deg", type=float, default=None, metavar="DEG",
        help="how far a generated die's top face must tilt to be trained as 'a die whose face can't be read' "
             f"(0 < DEG < 90; default: the generator's own, SceneSpec.cocked_deg, {SceneSpec.cocked_deg:g}; "
             "less tilted, it is trained as its top face)",
    )
    parser.add_argument(
        "--pip-colour-distance", type=float, default=None, metavar="D",
        help="how far in CIELAB the pips of generated dice in any colours lie from a body as light as they are "
             f"(0 < D <= {MAX_PIP_COLOUR_DISTANCE:g}; default: the generator's own, SceneSpec.pip_colour_distance, "
             f"{SceneSpec.pip_colour_distance:g}: deep red pips on a smoky grey die, 55-65 apart, are never drawn; "
             "50 tried, not kept: models/HISTORY.md)",
    )
    parser.add_argument(
        "--exposure-sigma", type=float, default=AugmentConfig.brightness_sigma, metavar="S",
        help="spread of each training picture's exposure, log scale (S >= 0; "
             f"{AugmentConfig.brightness_sigma:g} by default: one in eleven 1.5 times brighter or more; "
             "over-exposure costs the most right awards of the camera changes measured: models/HISTORY.md)",
    )
    parser.add_argument(
        "--real-pips", action=argparse.BooleanOptionalAction, default=False,
        help="fit each real die's pip layout to its crop and train the pip head on the clear fits "
             "(training/real_pips.py; tried, not the committed models' recipe: models/HISTORY.md)",
    )
    parser.add_argument(
        "--ema-decay", type=float, default=None, metavar="D",
        help="export a moving average of the weights, each step weighing 1 - D (0 < D < 1; by default the "
             "last step's weights, the committed models' recipe; 0.999 tried, not kept: models/HISTORY.md)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (the machine is shared)")
    return parser.parse_args(argv)


def real_folders(args: argparse.Namespace) -> list[Path]:
    """The real sets to train on. A default root with no sets, or a left-out name that is no set, is an
    error: either would train a model on generated scenes alone without a word (a run from a copy of the
    repo outside the workspace did, and read real photos 9 points worse)."""
    folders = args.real
    if folders is None:
        folders = labelled_sets(DEFAULT_REAL_ROOT)
        if not folders:
            raise InvalidInput(f"expected labelled real sets in {DEFAULT_REAL_ROOT}, found none; name them with "
                               "--real DIR ..., or give --real alone to train on generated scenes only")
    excluded = set(args.exclude_real)
    unknown = sorted(excluded - {f.name for f in folders})
    if unknown:
        raise InvalidInput(f"expected --exclude-real to name one of {sorted(f.name for f in folders)}, got {unknown}")
    return [f for f in folders if f.name not in excluded]


def check_arguments(args: argparse.Namespace) -> list[Path]:
    """The real sets to train on, once every argument is checked; InvalidInput names the first wrong one."""
    if args.epochs < 1 or args.synth < 0 or (args.lr is not None and args.lr <= 0):
        raise InvalidInput(f"expected --epochs >= 1, --synth >= 0 and --lr > 0, got {args.epochs}, {args.synth}, "
                           f"{args.lr}")
    # The reader pools at stride 8; smaller than 24 px leaves its face head a 2x2 map.
    if args.crop < 24 or args.crop % 8:
        raise InvalidInput(f"expected --crop a multiple of 8, at least 24, got {args.crop}")
    if args.reader_width is not None and (args.reader_width < 8 or args.reader_width % 2):
        raise InvalidInput(f"expected --reader-width even and at least 8, got {args.reader_width}")
    if args.reader_deep_width is not None and args.reader_deep_width < 8:
        raise InvalidInput(f"expected --reader-deep-width at least 8, got {args.reader_deep_width}")
    if args.reader_deep_blocks is not None and args.reader_deep_blocks < 1:
        raise InvalidInput(f"expected --reader-deep-blocks at least 1, got {args.reader_deep_blocks}")
    if not 0 < args.synth_share <= 1:
        raise InvalidInput(f"expected 0 < --synth-share <= 1, got {args.synth_share}")
    # Below the generator's usual tilt the "oblique" scenes would be no more oblique than the rest.
    if not SceneSpec.max_tilt_deg <= args.oblique_tilt <= MAX_TILT_DEG:
        raise InvalidInput(f"expected {SceneSpec.max_tilt_deg:g} <= --oblique-tilt <= {MAX_TILT_DEG:g}, "
                           f"got {args.oblique_tilt}")
    for flag, *_ in SHARE_OPTIONS:
        share = getattr(args, flag[2:].replace("-", "_"))
        if share is not None and not 0 <= share <= 1:
            raise InvalidInput(f"expected 0 <= {flag} <= 1, got {share}")
    if args.ema_decay is not None and not 0 < args.ema_decay < 1:
        raise InvalidInput(f"expected 0 < --ema-decay < 1, got {args.ema_decay}")
    if args.pip_colour_distance is not None and not 0 < args.pip_colour_distance <= MAX_PIP_COLOUR_DISTANCE:
        raise InvalidInput(f"expected 0 < --pip-colour-distance <= {MAX_PIP_COLOUR_DISTANCE:g}, "
                           f"got {args.pip_colour_distance}")
    if not 0 < args.face_fraction <= 1:
        raise InvalidInput(f"expected 0 < --face-fraction <= 1, got {args.face_fraction}")
    if args.leaning_deg is not None and not 0 < args.leaning_deg < 90:
        raise InvalidInput(f"expected 0 < --leaning-deg < 90, got {args.leaning_deg}")
    if args.save_every < 0:
        raise InvalidInput(f"expected --save-every >= 0, got {args.save_every}")
    if args.exposure_sigma < 0:
        raise InvalidInput(f"expected --exposure-sigma >= 0, got {args.exposure_sigma}")
    if args.paste_inside_rim is not None and not 0 < args.paste_inside_rim <= 1:
        raise InvalidInput(f"expected 0 < --paste-inside-rim <= 1, got {args.paste_inside_rim}")
    if args.paste_negatives < 0:
        raise InvalidInput(f"expected --paste-negatives >= 0, got {args.paste_negatives}")
    # Options that act only through another: given alone, the run would train as if they were not given.
    mined, pasted = args.mine_from is not None, args.paste_share > 0
    for flag, given, needed, present, why in (
            ("--leaning-side-share", args.leaning_side_share > 0, "--mine-from", mined,
             "the spots are the mined models' peaks"),
            ("--paste-negatives", args.paste_negatives > 0, "--mine-from", mined,
             "the false dice moved are the mined models' peaks"),
            ("--paste-negatives", args.paste_negatives > 0, "--paste-share", pasted,
             "false dice are moved only into the samples that dice are moved into"),
            ("--paste-inside-rim", args.paste_inside_rim is not None, "--paste-share", pasted,
             "it says where the dice moved go")):
        if given and not present:
            raise InvalidInput(f"expected {needed} with {flag}: {why}")
    return real_folders(args)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # Arguments first: a wrong one is reported whether or not torch is installed.
    try:
        folders = check_arguments(args)
    except InvalidInput as exc:
        print(f"bobing train: {exc}", file=sys.stderr)
        return 2
    try:
        import torch  # noqa: F401
    except ModuleNotFoundError:
        print("bobing train: needs torch; pip install torch==2.13.0", file=sys.stderr)
        return 2
    from bobing_vision.training.real_pips import label_real_pips
    from bobing_vision.training.scenes import load_real_set, mine_negatives, render_synth
    from bobing_vision.training.train import READER_SHAPE, TrainConfig, train

    try:
        scenes = []
        for folder in folders:
            loaded = load_real_set(folder)
            print(f"real set {folder.name}: {len(loaded)} images, {sum(len(s.dice) for s in loaded)} dice")
            if args.real_pips:
                loaded = [label_real_pips(scene) for scene in loaded]
                fitted = sum(d.pips is not None for s in loaded for d in s.dice)
                print(f"  pips fitted on {fitted} dice")
            scenes += loaded
        if args.synth:
            synth = render_synth(args.synth, seed=args.seed + 1000, small_share=args.small_share,
                                 leaning_share=args.leaning_share, ordinary_share=args.ordinary_share,
                                 red_bowl_share=args.red_bowl_share, marbled_share=args.marbled_share,
                                 oblique_share=args.oblique_share, oblique_tilt=args.oblique_tilt,
                                 pip_colour_distance=args.pip_colour_distance,
                                 wide_floor_share=args.wide_floor_share, leaning_deg=args.leaning_deg)
            print(f"generated scenes: {len(synth)}, {sum(len(s.dice) for s in synth)} dice")
            scenes += synth
        if args.mine_from is not None:
            scenes = mine_negatives(scenes, args.mine_from)
            print(f"mined {sum(len(s.negatives) for s in scenes)} false dice and "
                  f"{sum(len(s.leaning_spots) for s in scenes)} spots on leaning dice' sides with {args.mine_from}")
    except (BobingError, OSError) as exc:
        print(f"bobing train: {exc}", file=sys.stderr)
        return 2
    if not scenes:
        print("bobing train: expected some training scenes, got none (--real / --synth)", file=sys.stderr)
        return 2
    cfg = TrainConfig(epochs=args.epochs, seed=args.seed, threads=args.threads, ema_decay=args.ema_decay)
    if args.lr is not None:
        cfg = replace(cfg, lr=args.lr)
    # The reader's shape: each option not given keeps TrainConfig's.
    shape = {name: getattr(args, name) for name in READER_SHAPE if getattr(args, name) is not None}
    cfg = replace(cfg, **shape)
    sample = SampleConfig(crop=args.crop, face_fraction=args.face_fraction, synth_share=args.synth_share,
                          leaning_spot_p=args.leaning_side_share,
                          paste=PasteConfig(share=args.paste_share, inside_rim=args.paste_inside_rim,
                                            negatives=args.paste_negatives))
    try:
        aug = AugmentConfig(brightness_sigma=args.exposure_sigma, sharpen_p=args.sharpen_share,
                            invert_p=args.invert_share, resample_p=args.resample_share,
                            random_filter_p=args.random_filter_share)
        result = train(scenes, args.out, cfg, sample, aug=aug,
                       max_steps=args.max_steps, log=lambda s: print(s, flush=True), init_from=args.init_from,
                       save_every=args.save_every, resume=args.resume)
    except (FileNotFoundError, InvalidInput) as exc:
        print(f"bobing train: {exc}", file=sys.stderr)
        return 2
    print(
        f"wrote {result.locator} and {result.reader} after {result.steps} steps in {result.seconds:.0f}s; "
        f"ONNX vs torch max difference {result.export_max_diff:.1e}"
    )
    return 0
