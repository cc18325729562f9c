"""Train the die locator and the pip reader together, export both to ONNX and check the export.

One step = one locator batch + one reader batch, drawn by a background thread (OpenCV releases the
GIL) so augmentation overlaps the torch step. Randomness comes from the passed seed only.
"""

from __future__ import annotations

import contextlib
import copy
import math
import queue
import threading
import time
import warnings
from collections.abc import Callable, Generator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import torch
from torch.nn import functional as F
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

from bobing_vision.errors import InvalidInput
from bobing_vision.training.augment import AugmentConfig
from bobing_vision.training.nets import LocatorNet, ReaderNet
from bobing_vision.training.onnx_graphs import face_only, free_input_size, write_metadata
from bobing_vision.training.progress import PROGRESS_FILE, Progress, fingerprint, load_progress, save_progress
from bobing_vision.training.samples import SampleConfig, locator_batch, reader_batch, source_weights
from bobing_vision.training.scenes import Scene
from bobing_vision.vision.detector import (FACE_FRACTION_KEY, FACE_READER_FILE, LOCATOR_FILE, READER_FILE,
                                           reader_face_fraction)

BATCH_THREAD = "training batches"  # the thread that makes them, by name
CHECKPOINT_FILE = "weights.pt"  # both nets' torch weights, beside the ONNX files: a run can be continued


@dataclass(frozen=True)
class TrainConfig:
    """Optimisation settings; sized so a full run stays under ~25 minutes on one CPU thread."""

    epochs: int = 30
    locator_batch: int = 16
    reader_batch: int = 192
    lr: float = 3e-3  # Adam with cosine decay; small nets tolerate a high start
    weight_decay: float = 1e-4
    label_smoothing: float = 0.0  # smoothing left the reader below the pipeline's 0.8 face threshold
    pip_weight: float = 1.0  # pip heat loss next to the face loss
    size_weight: float = 1.0  # log-size regression next to the heat loss
    threads: int = 1  # the machine is shared
    seed: int = 0
    # ReaderNet's channels at stride 2 (x2 at 4, x3 at 8); 48, not 32, since the sixteenth session: it
    # reads 5-9 points more of the real sets for ~4 ms a frame (models/HISTORY.md).
    reader_width: int = 48
    # ReaderNet's `contrast`: each crop also standardised by its face's own mean and contrast.
    reader_contrast: bool = False
    # ReaderNet's stride-8 stage: its channels (None: 3 x reader_width) and blocks.
    reader_deep_width: int | None = None
    reader_deep_blocks: int = 2
    # ReaderNet's `pip_evidence`: the face head also sees the pip head's heat.
    reader_pip_evidence: bool = False
    # Export an exponential moving average of the weights (this decay per step) instead of the last
    # step's; None: the last step's, the committed recipe.
    ema_decay: float | None = None


# The TrainConfig fields that shape the reader: each is ReaderNet's argument of the same name without
# "reader_", and `bobing train`'s option of the same name.
READER_SHAPE = ("reader_width", "reader_deep_width", "reader_deep_blocks", "reader_contrast", "reader_pip_evidence")


def reader_net(cfg: TrainConfig) -> ReaderNet:
    """A fresh reader of the shape `cfg` asks for."""
    return ReaderNet(**{name.removeprefix("reader_"): getattr(cfg, name) for name in READER_SHAPE})


@dataclass(frozen=True)
class TrainResult:
    locator: Path
    reader: Path
    steps: int
    seconds: float
    last_losses: dict[str, float]
    export_max_diff: float


def focal_heat_loss(pred: torch.Tensor, target: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on a sigmoid heat; positives are cells where target == 1."""
    p = pred.clamp(1e-4, 1 - 1e-4)
    pos = (target >= 0.999).float()
    neg_w = (1 - target) ** 4
    loss = -(torch.log(p) * (1 - p) ** 2 * pos + torch.log(1 - p) * p**2 * neg_w * (1 - pos))
    if mask is not None:
        loss = loss * mask
        pos = pos * mask
    return loss.sum() / pos.sum().clamp(min=1.0)


def locator_loss(out: torch.Tensor, heat: torch.Tensor, reg: torch.Tensor, cfg: TrainConfig) -> dict[str, torch.Tensor]:
    mask = reg[:, 3:4]
    n = mask.sum().clamp(min=1.0)
    off = (F.l1_loss(out[:, 1:3], reg[:, 0:2], reduction="none") * mask).sum() / n
    size = (F.l1_loss(out[:, 3:4], reg[:, 2:3], reduction="none") * mask).sum() / n
    return {"heat": focal_heat_loss(out[:, :1], heat), "offset": off, "size": cfg.size_weight * size}


def reader_loss(
    logits: torch.Tensor, pips: torch.Tensor, label: torch.Tensor, pip_target: torch.Tensor, pip_mask: torch.Tensor,
    cfg: TrainConfig,
) -> dict[str, torch.Tensor]:
    face = F.cross_entropy(logits, label, label_smoothing=cfg.label_smoothing)
    mask = pip_mask[:, None, None, None].expand_as(pips)
    pip = focal_heat_loss(pips, pip_target, mask) if float(pip_mask.sum()) > 0 else logits.sum() * 0.0
    return {"face": face, "pips": cfg.pip_weight * pip}


def peak_targets(heat: np.ndarray) -> np.ndarray:
    """Pip heat with each blob's maximum cell set to exactly 1 (the focal loss's positives)."""
    out = heat.copy()
    flat = out.reshape(-1, *out.shape[-2:])
    for m in flat:
        if m.max() <= 0.3:
            continue
        peak = (m >= cv2.dilate(m, np.ones((3, 3), np.uint8))) & (m > 0.3)
        m[peak] = 1.0
    return out


def batches(
    scenes: list[Scene], cfg: TrainConfig, sample: SampleConfig, aug: AugmentConfig, steps: int,
    state: dict[str, Any] | None = None,
) -> Generator[tuple[tuple[np.ndarray, ...], dict[str, Any]], None, None]:
    """Yields (loc images, heat, reg, crops, labels, pip heat, pip mask), made ahead by one thread, each with
    the generator's state after it (where a continued run starts from; `state`: where this one does).
    Every source (each real set, the generator) gets an equal share of each batch on average."""
    rng = np.random.default_rng(cfg.seed + 1)
    if state is not None:
        rng.bit_generator.state = state
    weights = source_weights(scenes, sample.synth_share)
    q: queue.Queue = queue.Queue(maxsize=6)
    stop = threading.Event()

    def hand_over(item: object) -> None:
        while not stop.is_set():  # a training that stopped takes no more: the thread ends, not waits
            try:
                q.put(item, timeout=0.5)
                return
            except queue.Full:
                continue

    def produce() -> None:
        try:
            for _ in range(steps):
                if stop.is_set():
                    return
                loc = locator_batch(scenes, cfg.locator_batch, rng, sample, aug, weights)
                crops, labels, pip_heat, pip_mask = reader_batch(scenes, cfg.reader_batch, rng, sample, aug, weights)
                hand_over(((*loc, crops, labels, peak_targets(pip_heat), pip_mask), rng.bit_generator.state))
        except Exception as exc:  # handed over: a dead thread would leave the training waiting for ever
            hand_over(exc)

    threading.Thread(target=produce, name=BATCH_THREAD, daemon=True).start()
    try:
        for _ in range(steps):
            item = q.get()
            if isinstance(item, Exception):
                raise item
            yield item
    finally:
        stop.set()


def load_weights(locator: LocatorNet, reader: ReaderNet, folder: Path) -> None:
    """Start from the weights a previous run saved in `folder` (its CHECKPOINT_FILE)."""
    path = folder / CHECKPOINT_FILE
    if not path.is_file():
        raise FileNotFoundError(f"expected {CHECKPOINT_FILE} from an earlier `bobing train` in {folder}, got none")
    state = torch.load(path, map_location="cpu", weights_only=True)
    try:
        locator.load_state_dict(state["locator"])
        reader.load_state_dict(state["reader"])
    except RuntimeError as exc:  # torch lists every mismatched tensor; the first line says enough
        options = ", ".join("--" + name.replace("_", "-") for name in READER_SHAPE)
        raise InvalidInput(f"expected the weights in {path} to fit nets of this shape ({options}?), "
                           f"got {str(exc).splitlines()[0]}") from exc


def optimiser(
    params: list[torch.nn.Parameter], cfg: TrainConfig, steps: int
) -> tuple[torch.optim.AdamW, torch.optim.lr_scheduler.OneCycleLR]:
    """AdamW with a one-cycle schedule: a short warm-up to `cfg.lr`, then cosine decay over `steps`."""
    opt = torch.optim.AdamW(params, lr=cfg.lr, weight_decay=cfg.weight_decay)
    return opt, torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=cfg.lr, total_steps=steps, pct_start=0.05)


def take_step(
    batch: tuple[np.ndarray, ...], locator: LocatorNet, reader: ReaderNet, opt: torch.optim.Optimizer,
    sched: torch.optim.lr_scheduler.LRScheduler, averages: list[AveragedModel], cfg: TrainConfig,
) -> dict[str, float]:
    """One optimiser step of both nets on one batch; returns the batch's losses."""
    images, heat, reg, crops, labels, pip_heat, pip_mask = (torch.from_numpy(b) for b in batch)
    losses = locator_loss(locator(images), heat, reg, cfg)
    logits, pips = reader(crops)
    losses.update(reader_loss(logits, pips, labels, pip_heat, pip_mask, cfg))
    total = sum(losses.values())
    opt.zero_grad(set_to_none=True)
    total.backward()  # type: ignore[union-attr]
    opt.step()
    sched.step()
    for average, net in zip(averages, (locator, reader)):
        average.update_parameters(net)
    return {k: float(v.detach()) for k, v in losses.items()}


def run_digest(scenes: list[Scene], cfg: TrainConfig, sample: SampleConfig, aug: AugmentConfig, steps: int) -> str:
    """What a continued run must share with the saved one (`progress.fingerprint`); the threads may change."""
    return fingerprint(scenes, (replace(cfg, threads=0), sample, aug, steps))


def train(
    scenes: list[Scene], out_dir: Path, cfg: TrainConfig = TrainConfig(), sample: SampleConfig = SampleConfig(),
    aug: AugmentConfig = AugmentConfig(), max_steps: int | None = None, log: Callable[[str], None] | None = None,
    init_from: Path | None = None, save_every: int | None = None, resume: bool = False,
) -> TrainResult:
    """Train both nets on `scenes` (from the weights saved in `init_from`, if given) and write the
    .onnx files (the locator, the reader and its face part alone) and the torch weights into `out_dir`.
    Every `save_every` steps the run's progress is saved there; `resume` continues from it."""
    say = log or (lambda text: None)
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    locator = LocatorNet()
    reader = reader_net(cfg)
    if init_from is not None:
        load_weights(locator, reader, init_from)
    steps = max(1, cfg.epochs * math.ceil(len(scenes) / cfg.locator_batch))
    if max_steps is not None:
        steps = min(steps, max_steps)
    opt, sched = optimiser(list(locator.parameters()) + list(reader.parameters()), cfg, steps)
    averages = [] if cfg.ema_decay is None else [
        AveragedModel(net, multi_avg_fn=get_ema_multi_avg_fn(cfg.ema_decay), use_buffers=True)
        for net in (locator, reader)]
    # everything a continued run must take up as it was: the nets, the optimiser's moments and schedule
    parts: dict[str, Any] = {"locator": locator, "reader": reader, "optimiser": opt, "schedule": sched}
    parts.update((f"average {i}", average) for i, average in enumerate(averages))
    out_dir.mkdir(parents=True, exist_ok=True)
    saved = out_dir / PROGRESS_FILE
    digest = run_digest(scenes, cfg, sample, aug, steps)
    done = Progress(step=0, batch_state=None, seconds=0.0, running={})
    if resume and saved.is_file():
        done, states = load_progress(saved, digest)
        for name, part in parts.items():
            part.load_state_dict(states[name])
        torch.set_rng_state(states["torch random"])  # what a random layer (MixStyle) draws next
        say(f"continuing from step {done.step} of {steps}, saved in {saved}")
    elif resume:
        say(f"no progress saved in {out_dir}: starting from the first step")
    start = time.monotonic() - done.seconds
    running = dict(done.running)
    locator.train()
    reader.train()
    # closed however the loop ends, so that the thread making batches ends with it
    with contextlib.closing(batches(scenes, cfg, sample, aug, steps - done.step, done.batch_state)) as todo:
        for step, (batch, batch_state) in enumerate(todo, start=done.step):
            losses = take_step(batch, locator, reader, opt, sched, averages, cfg)
            for k, value in losses.items():
                running[k] = 0.98 * running.get(k, value) + 0.02 * value
            if step % 50 == 0 or step == steps - 1:
                text = " ".join(f"{k}={v:.3f}" for k, v in running.items())
                say(f"step {step + 1}/{steps} {time.monotonic() - start:.0f}s {text}")
            if save_every and (step + 1) % save_every == 0 and step + 1 < steps:
                states = {name: part.state_dict() for name, part in parts.items()}
                states["torch random"] = torch.get_rng_state()
                save_progress(saved, digest, Progress(step + 1, batch_state, time.monotonic() - start, dict(running)),
                              states)
                say(f"saved progress at step {step + 1} in {saved}")
    weights: dict[str, object] = {}
    if averages:  # the averages are exported; the last step's weights are kept beside them
        weights["last_step"] = copy.deepcopy({"locator": locator.state_dict(), "reader": reader.state_dict()})
        for average, net in zip(averages, (locator, reader)):
            net.load_state_dict(average.module.state_dict())
    weights.update(locator=locator.state_dict(), reader=reader.state_dict())
    torch.save(weights, out_dir / CHECKPOINT_FILE)
    diff = export(locator, reader, out_dir, sample)
    saved.unlink(missing_ok=True)  # the run is whole: nothing is left to continue
    return TrainResult(
        locator=out_dir / LOCATOR_FILE, reader=out_dir / READER_FILE, steps=steps,
        seconds=time.monotonic() - start, last_losses=running, export_max_diff=diff,
    )


def export_both(
    locator: LocatorNet, reader: ReaderNet, frame: torch.Tensor, crops: torch.Tensor, loc_path: Path, read_path: Path
) -> None:
    torch.onnx.export(
        locator, (frame,), str(loc_path), input_names=["frame"], output_names=["maps"], opset_version=17,
        dynamo=False,
    )
    torch.onnx.export(
        reader, (crops,), str(read_path), input_names=["crops"], output_names=["face_logits", "pip_heat"],
        opset_version=17, dynamic_axes={"crops": {0: "n"}, "face_logits": {0: "n"}, "pip_heat": {0: "n"}},
        dynamo=False,
    )


def export(locator: LocatorNet, reader: ReaderNet, out_dir: Path, sample: SampleConfig) -> float:
    """Write the ONNX files (opset 17, read by onnxruntime >= 1.14: the locator, the reader and the reader's
    face part alone) and return the largest difference between torch and onnxruntime outputs on random
    input; raises if they disagree."""
    import onnxruntime as ort

    locator.eval()
    reader.eval()
    gen = torch.Generator().manual_seed(0)
    frame = torch.rand(1, 3, *sample.locator_input, generator=gen) * 255
    crops = torch.rand(5, 3, sample.crop, sample.crop, generator=gen) * 255
    loc_path, read_path = out_dir / LOCATOR_FILE, out_dir / READER_FILE
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # the TorchScript exporter is the stable one here
        export_both(locator, reader, frame, crops, loc_path, read_path)
    free_input_size(loc_path)
    write_metadata(read_path, {FACE_FRACTION_KEY: repr(sample.face_fraction)})  # the face reader copies it
    face_path = out_dir / FACE_READER_FILE
    face_only(read_path, face_path)
    wide = torch.rand(1, 3, sample.locator_input[0], sample.locator_input[0] * 16 // 9 // 16 * 16, generator=gen) * 255
    with torch.no_grad():  # the freed locator must agree at the traced size and at another aspect
        logits, pips = reader(crops)
        expected = [locator(frame).numpy(), locator(wide).numpy(), logits.numpy(), pips.numpy(), logits.numpy()]
    got = []
    for path, x in ((loc_path, frame), (loc_path, wide), (read_path, crops), (face_path, crops)):
        sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        got += sess.run(None, {sess.get_inputs()[0].name: x.numpy()})
        if path != loc_path and reader_face_fraction(sess) != sample.face_fraction:
            raise RuntimeError(f"expected {path.name} to say its crops' face fraction {sample.face_fraction}")
    diff = max(float(np.abs(a - b).max()) for a, b in zip(expected, got))
    if diff > 1e-3:
        raise RuntimeError(f"expected ONNX and torch outputs to agree within 1e-3, got {diff:.2e}")
    return diff
