"""Compare reader recipes cheaply: train the pip reader alone from scratch, score it on a held-out real set.

The reader alone (no locator, no export) on generated scenes + the real sets not held out, then its best
face on the held-out set's labelled boxes: ~23 min for 3000 steps on one thread at the committed width
(48; 32 min at 64), so two recipes run side by side in a session. One seed swings the figure by about 2
points; the whole pipeline (`bobing train` with `--exclude-real`, then `bobing eval`) has the last word.
Needs torch.

    python bench/bench_reader_recipe.py --crop 48 --steps 3000
    python bench/bench_reader_recipe.py --steps 3000 --augment resample_p=0.3   # an augmentation tried

It also scores generated scenes of ordinary dice only (`--check-ordinary`), which training never draws.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.nn import functional as F

from bobing_vision.cli.train import DEFAULT_REAL_ROOT
from bobing_vision.dataset.labels import labelled_sets
from bobing_vision.training.augment import AugmentConfig
from bobing_vision.training.nets import ReaderNet
from bobing_vision.training.samples import SampleConfig, reader_batch, source_weights
from bobing_vision.training.scenes import ORDINARY_SHARE, UNREADABLE, Scene, load_real_set, render_synth
from bobing_vision.training.train import TrainConfig, optimiser, peak_targets, reader_loss
from bobing_vision.vision.config import ReaderConfig
from bobing_vision.vision.detector import cut_crops, face_confidences

ORDINARY_CHECK_SEED = 777_777  # no training run renders from it (they use seed + 1000)


def labelled_crops(scenes: list[Scene], sample: SampleConfig) -> tuple[torch.Tensor, np.ndarray]:
    """Reader crops at the labelled boxes of every flat die, and their faces."""
    crops, faces = [], []
    for scene in scenes:
        flat = [d for d in scene.dice if d.face != UNREADABLE]
        if flat:
            centers = np.array([d.center for d in flat], np.float64)
            cut, _ = cut_crops(scene.image, centers, np.array([d.size for d in flat]), sample.crop, sample.face_fraction)
            crops.append(cut)
            faces += [d.face for d in flat]
    return torch.from_numpy(np.concatenate(crops).transpose(0, 3, 1, 2).astype(np.float32)), np.array(faces)


def score(reader: ReaderNet, crops: torch.Tensor, faces: np.ndarray, sure: float = 0.8,
          certain: float = ReaderConfig.certain_face_prob) -> str:
    reader.eval()
    with torch.no_grad():
        probs = torch.cat([F.softmax(reader(crops[i:i + 256])[0], 1) for i in range(0, len(crops), 256)]).numpy()
    reader.train()
    # "Sure" as the pipeline means it: the best face's share of P(a die), not its raw probability.
    read, confidence = probs[:, :6].argmax(1) + 1, face_confidences(probs)
    right, is_sure, is_certain = read == faces, confidence >= sure, confidence >= certain
    # Argmax accuracy ranks recipes, but the pipeline takes only sure reads (certain ones even when the
    # pips disagree): a recipe that wins on argmax may still give more wrong faces there.
    return (f"{right.mean():.1%} of {len(faces)} faces right, sure {is_sure.sum()} "
            f"(right {(is_sure & right).sum()}, wrong {(is_sure & ~right).sum()}), certain {is_certain.sum()} "
            f"(right {(is_certain & right).sum()}, wrong {(is_certain & ~right).sum()})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hold-out", default="byler-d6-train", help="the real set scored, never trained on")
    parser.add_argument("--real-root", type=Path, default=DEFAULT_REAL_ROOT)
    parser.add_argument("--synth", type=int, default=800, help="generated training scenes (seed + 1000)")
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--crop", type=int, default=SampleConfig().crop, help="reader input side")
    parser.add_argument("--face-fraction", type=float, default=SampleConfig().face_fraction,
                        help="the share of the crop's side a top face fills")
    parser.add_argument("--width", type=int, default=TrainConfig.reader_width,
                        help="ReaderNet width (default: the committed models', TrainConfig's; 32 until the "
                             "thirty-ninth session: models/HISTORY.md's earlier commands meant --width 32)")
    parser.add_argument("--synth-share", type=float, default=SampleConfig.synth_share,
                        help="share of each batch from generated scenes")
    parser.add_argument("--ordinary-share", type=float, default=ORDINARY_SHARE,
                        help="share of the generated scenes with ordinary dice (default: the committed models', "
                             "as bobing train; the generator's own 0.2 until the fortieth session)")
    parser.add_argument("--check-ordinary", type=int, default=150, metavar="N",
                        help="also score N generated scenes of ordinary dice only, never trained on (0: none)")
    parser.add_argument("--augment", action="append", default=[], metavar="FIELD=P",
                        help="an AugmentConfig probability other than the committed one, e.g. resample_p=0.3")
    parser.add_argument("--pip-evidence", action="store_true",
                        help="the face head also sees the pip head's heat (ReaderNet's pip_evidence)")
    parser.add_argument("--mixstyle", type=float, default=0.0, metavar="P",
                        help="mix crops' feature statistics with probability P (ReaderNet's mixstyle_p)")
    parser.add_argument("--pip-weight", type=float, default=TrainConfig.pip_weight,
                        help="the pip heat loss's weight beside the face loss (TrainConfig's by default)")
    parser.add_argument("--pip-colour-distance", type=float, default=None, metavar="D",
                        help="CIELAB distance of pips from the body of generated sets in any colours when their "
                             "lightness is close (default: the generator's, SceneSpec.pip_colour_distance)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        changes: dict[str, Any] = {k: float(v) for k, v in (a.split("=", 1) for a in args.augment)}
        aug = replace(AugmentConfig(), **changes)
    except (TypeError, ValueError) as exc:
        parser.error(f"expected --augment FIELD=NUMBER with a field of AugmentConfig: {exc}")
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    sets = labelled_sets(args.real_root)
    held = [p for p in sets if p.name == args.hold_out]
    if not held:
        parser.error(f"expected --hold-out to name one of {[p.name for p in sets]}, got {args.hold_out!r}")
    scenes = [s for p in sets if p.name != args.hold_out for s in load_real_set(p)]
    scenes += render_synth(args.synth, seed=args.seed + 1000, ordinary_share=args.ordinary_share,
                           pip_colour_distance=args.pip_colour_distance)
    sample = SampleConfig(crop=args.crop, face_fraction=args.face_fraction, synth_share=args.synth_share)
    cfg = TrainConfig(seed=args.seed, pip_weight=args.pip_weight)
    checks = {args.hold_out: labelled_crops(load_real_set(held[0]), sample)}
    # Ordinary dice of any colour are read far worse than Chinese ones on generated scenes (fortieth session):
    # a stream of their own, so the check's scenes do not depend on --synth or --ordinary-share.
    if args.check_ordinary:
        ordinary = render_synth(args.check_ordinary, seed=ORDINARY_CHECK_SEED, ordinary_share=1.0)
        checks["generated ordinary dice"] = labelled_crops(ordinary, sample)
    reader = ReaderNet(args.width, pip_evidence=args.pip_evidence, mixstyle_p=args.mixstyle)
    opt, sched = optimiser(list(reader.parameters()), cfg, args.steps)
    rng, weights = np.random.default_rng(args.seed + 1), source_weights(scenes, sample.synth_share)
    start = time.monotonic()
    for step in range(1, args.steps + 1):
        crops, labels, heat, mask = reader_batch(scenes, cfg.reader_batch, rng, sample, aug, weights)
        logits, pips = reader(torch.from_numpy(crops))
        losses = reader_loss(logits, pips, torch.from_numpy(labels), torch.from_numpy(peak_targets(heat)),
                             torch.from_numpy(mask), cfg)
        opt.zero_grad(set_to_none=True)
        sum(losses.values()).backward()  # type: ignore[union-attr]
        opt.step()
        sched.step()
        if step % max(1, args.steps // 4) == 0 or step == args.steps:
            for name, (crops_seen, faces_seen) in checks.items():
                print(f"step {step} {time.monotonic() - start:.0f}s {name}: "
                      f"{score(reader, crops_seen, faces_seen)}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
