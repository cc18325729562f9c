"""The ONNX dice detector: a die locator on the downscaled frame, then a pip reader on each die.

Two small models in `models/`:
- `dice_locator.onnx`: BGR frame letterboxed to the session's input size -> one map at stride 4 with
  four channels: top-face centre heat (0..1), sub-cell x/y offset, log of the top-face size in input
  pixels (CenterNet style). Peaks of the heat are die candidates.
- `pip_reader.onnx`: one square crop per candidate, cut from the full-resolution frame so that the top
  face fills the share of it the reader says it was trained with (`FACE_FRACTION_KEY`) -> eight logits
  (faces 1..6, "a die, but its top face can't be read", "not a die") and a two-channel pip heat (black
  pips, red pips) at half the crop resolution.
- `face_reader.onnx` (optional): the reader's face part alone, for the second look at unsure dice.
All crops of a frame go through the reader in one session run.

Following the opencv_zoo wrappers: a session plus pure `preprocess` / `postprocess` functions; the input
shapes come from the sessions; nothing per frame is kept on `self`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from bobing_vision.errors import InvalidInput

Point = tuple[float, float]
Box = tuple[float, float, float, float]

DEFAULT_MODELS_DIR = Path(__file__).resolve().parents[2] / "models"
LOCATOR_FILE = "dice_locator.onnx"
READER_FILE = "pip_reader.onnx"
# The reader without its pip head (training/onnx_graphs.py): the second look uses the face alone, and
# onnxruntime runs a whole graph whatever outputs are asked for. Optional: without it, the full reader.
FACE_READER_FILE = "face_reader.onnx"
# The share of a reader crop's side the top face fills, as the reader was trained: written into the
# reader's ONNX metadata under this key at export; models exported before say nothing and used 0.6.
FACE_FRACTION_KEY = "crop_face_fraction"
UNSAID_FACE_FRACTION = 0.6
LOCATOR_STRIDE = 4  # the locator's output cell, in input pixels
READER_STRIDE = 2  # the reader's pip-heat cell, in crop pixels
UNREADABLE_CLASS = 6  # the reader's class for a die whose top face can't be read (leaning, hidden)
NOT_A_DIE_CLASS = 7  # the reader's class for a crop with no die top face (coin, crumb, pattern dot)
PAD_VALUE = 114  # letterbox fill: a neutral grey the locator was trained with
AREA_SHRINK = 1.5  # crops shrinking the frame more than this are area-averaged: a bilinear warp aliases pips
# The locator's input is area-averaged only when the frame shrinks more than this: 640x480 -> 384x288
# (1.67x) is bilinear, 7x faster at that factor, and the locator is trained on the same (training/samples.py).
LOCATOR_AREA_SHRINK = 2.0
LOCATOR_SHORT_SIDE = 288  # a frame's short side in locator input pixels: 640x480 -> x0.6, as trained
LOCATOR_MULTIPLE = 16  # the locator's deepest stride: input sides are multiples of it
LOCATOR_MAX_ASPECT = 2.0  # a panorama beyond 2:1 is letterboxed rather than given an ever longer input


@dataclass(frozen=True)
class DetectorConfig:
    """Thresholds of the detector; the crop geometry must match what the models were trained with."""

    peak_threshold: float = 0.2  # locator heat a peak needs to become a candidate (recall first)
    # score = (heat x P(a die)) ** score_power: CenterNet heat is not a probability; this puts 0.5 where
    # heat x P(die) = 0.3, the equal-error point on generated scenes of a seed training never used (555)
    score_power: float = 0.576
    max_candidates: int = 32  # more dice than this in one frame is not a Bobing table
    # Peaks are 3x3 local maxima: at 640x480 touching dice are ~3 cells apart, and 2 (5x5) lost one of
    # them (41 of 1130 flat dice, seed 4040); the pipeline's merge_duplicates drops the doubles.
    min_peak_distance_cells: int = 1
    # The top face fills this share of the reader crop's side; None: as the reader model says.
    crop_face_fraction: float | None = None
    pip_threshold: float = 0.35  # pip heat a peak needs to count as a pip
    pip_window: float = 0.45  # pips further from the centre than this share of the face side are a neighbour's
    min_face_px: float = 4.0  # smaller predicted faces are noise, not dice
    # A candidate whose best face is less sure than this is read again turned 90, 180 and 270 degrees
    # and the four face reads averaged (0: never). Byler photos, with models that never saw them:
    # wrong faces 87 -> 63 of 1445 found, right ones 1000 -> 1001; generated seed 4040: 115 -> 117 of
    # 200 throws read, no more wrong. Sure dice are not read twice: the frame budget is one thread.
    second_look_below: float = 0.95
    # ...when its score reaches this (OnnxDiceReader sets its `min_die_score`): clutter is not worth it.
    second_look_min_score: float = 0.4


@dataclass(frozen=True)
class Pip:
    center: Point  # frame pixels
    red: bool


@dataclass(frozen=True)
class DieCandidate:
    """One possible die top face.

    `score` is the belief that a die top face is here: the locator's peak heat times the reader's
    P(a die), calibrated so that 0.5 is the equal-error point (see `DetectorConfig.score_power`).
    `face_probs[k]` is P(face k+1 | a die); the rest up to 1 is P(its face can't be read | a die).
    """

    center: Point
    box: Box
    score: float  # the locator's belief that this is a die top face, 0..1
    face_probs: tuple[float, float, float, float, float, float]
    pips: tuple[Pip, ...] = ()

    @property
    def pip_count(self) -> int:
        return len(self.pips)

    @property
    def red_pips(self) -> int:
        return sum(1 for p in self.pips if p.red)

    @property
    def mostly_red(self) -> bool:
        """More than half the pips found are red (not all: on small dice the pip reader takes a red pip
        for black now and then)."""
        return 2 * self.red_pips > self.pip_count

    @property
    def two_colours(self) -> bool:
        """Red pips and black ones found together: on a Chinese die, two faces in view or a misread."""
        return 0 < self.red_pips < self.pip_count

    @property
    def face(self) -> int:
        """The most likely face 1..6 (check `face_confidence` before trusting it)."""
        return int(np.argmax(self.face_probs)) + 1

    @property
    def face_confidence(self) -> float:
        return float(max(self.face_probs))

    @property
    def unreadable_prob(self) -> float:
        return max(0.0, 1.0 - float(sum(self.face_probs)))


@dataclass(frozen=True)
class FrameTransform:
    """Maps locator-input pixels back to frame pixels: frame = input / scale + offset."""

    scale: float
    offset: Point  # the ROI's top-left corner in the frame

    def to_frame(self, x: float, y: float) -> Point:
        return (x / self.scale + self.offset[0], y / self.scale + self.offset[1])


@dataclass(frozen=True)
class CropTransform:
    """Maps reader-crop pixels back to frame pixels for each crop: frame = crop * scale + origin."""

    origins: np.ndarray  # (N, 2) frame position of each crop's top-left pixel
    scales: np.ndarray  # (N,) frame pixels per crop pixel


def check_frame(frame: np.ndarray) -> None:
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
        got = (
            f"{frame.dtype} array of shape {frame.shape}" if isinstance(frame, np.ndarray) else type(frame).__name__
        )
        raise InvalidInput(f"expected a BGR uint8 frame of shape (H, W, 3), got {got}")
    if frame.shape[0] < 8 or frame.shape[1] < 8:
        raise InvalidInput(f"expected a frame at least 8x8 pixels, got {frame.shape[1]}x{frame.shape[0]}")


def clip_roi(roi: Box | None, width: int, height: int) -> tuple[int, int, int, int]:
    """The ROI as whole pixels inside the frame; None is the whole frame."""
    if roi is None:
        return (0, 0, width, height)
    x0, y0, x1, y1 = (int(round(v)) for v in roi)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(width, x1), min(height, y1)
    if x1 - x0 < 8 or y1 - y0 < 8:
        raise InvalidInput(f"expected a roi of at least 8x8 pixels inside the frame, got {roi}")
    return (x0, y0, x1, y1)


def letterbox(image: np.ndarray, in_h: int, in_w: int) -> tuple[np.ndarray, float]:
    """Scale `image` to fit in_w x in_h keeping its aspect, pad right/bottom; returns (canvas, scale)."""
    h, w = image.shape[:2]
    scale = min(in_w / w, in_h / h)
    nw, nh = max(1, min(in_w, round(w * scale))), max(1, min(in_h, round(h * scale)))
    interp = cv2.INTER_AREA if scale < 1 / LOCATOR_AREA_SHRINK else cv2.INTER_LINEAR
    canvas = np.full((in_h, in_w, 3), PAD_VALUE, np.uint8)
    canvas[:nh, :nw] = cv2.resize(image, (nw, nh), interpolation=interp)
    return canvas, scale


def to_tensor(images: np.ndarray) -> np.ndarray:
    """(N, H, W, 3) or (H, W, 3) uint8 BGR -> (N, 3, H, W) float32 0..255 (the models normalise)."""
    if images.ndim == 3:
        images = images[None]
    return np.ascontiguousarray(images.transpose(0, 3, 1, 2), dtype=np.float32)


def locator_input_size(height: int, width: int) -> tuple[int, int]:
    """The locator's input (H, W) for a frame of this size: its short side at LOCATOR_SHORT_SIDE and its
    aspect kept (to a multiple of LOCATOR_MULTIPLE), so dice in a portrait or 16:9 frame are as big to
    the locator as in a 4:3 one (4:3 -> 288x384, 16:9 -> 288x512, square -> 288x288)."""
    aspect = min(max(height, width) / max(1, min(height, width)), LOCATOR_MAX_ASPECT)
    long = int(round(LOCATOR_SHORT_SIDE * aspect / LOCATOR_MULTIPLE)) * LOCATOR_MULTIPLE
    return (LOCATOR_SHORT_SIDE, long) if width >= height else (long, LOCATOR_SHORT_SIDE)


def zoomed_input_size(roi_h: int, roi_w: int, frame_h: int, frame_w: int, zoom: float) -> tuple[int, int]:
    """The locator's input (H, W) that shows a ROI `zoom` times as big as the whole frame's input shows
    it (sides rounded up to LOCATOR_MULTIPLE, at most twice the whole frame's longest input side)."""
    scale = zoom * LOCATOR_SHORT_SIDE / max(1, min(frame_h, frame_w))
    cap = 2 * int(LOCATOR_SHORT_SIDE * LOCATOR_MAX_ASPECT)

    def side(pixels: int) -> int:
        return min(cap, max(1, int(np.ceil(pixels * scale / LOCATOR_MULTIPLE))) * LOCATOR_MULTIPLE)

    return side(roi_h), side(roi_w)


def preprocess_locator(
    frame: np.ndarray, in_h: int | None = None, in_w: int | None = None, roi: Box | None = None,
    zoom: float | None = None,
) -> tuple[np.ndarray, FrameTransform]:
    """The frame (or its ROI) letterboxed to in_h x in_w; None: to `locator_input_size` of the ROI, or
    with `zoom`, to `zoomed_input_size`."""
    check_frame(frame)
    x0, y0, x1, y1 = clip_roi(roi, frame.shape[1], frame.shape[0])
    if in_h is None or in_w is None:
        if zoom is None:
            in_h, in_w = locator_input_size(y1 - y0, x1 - x0)
        else:
            in_h, in_w = zoomed_input_size(y1 - y0, x1 - x0, frame.shape[0], frame.shape[1], zoom)
    canvas, scale = letterbox(frame[y0:y1, x0:x1], in_h, in_w)
    return to_tensor(canvas), FrameTransform(scale=scale, offset=(float(x0), float(y0)))


def find_peaks(heat: np.ndarray, threshold: float, distance: int, limit: int) -> np.ndarray:
    """(K, 2) integer (row, col) of local maxima above threshold, strongest first."""
    size = 2 * distance + 1
    dilated = cv2.dilate(heat, np.ones((size, size), np.uint8))
    rows, cols = np.nonzero((heat >= dilated) & (heat >= threshold))
    order = np.argsort(-heat[rows, cols], kind="stable")[:limit]
    return np.stack([rows[order], cols[order]], axis=1)


@dataclass(frozen=True)
class Located:
    """Die candidates from the locator, in frame pixels, before the reader has seen them."""

    centers: np.ndarray  # (K, 2) x, y
    sizes: np.ndarray  # (K,) top-face side
    scores: np.ndarray  # (K,)


def postprocess_locator(output: np.ndarray, transform: FrameTransform, config: DetectorConfig) -> Located:
    """The locator's (1, 4, h, w) map -> candidates in frame pixels."""
    heat, off_x, off_y, log_size = output[0]
    peaks = find_peaks(heat, config.peak_threshold, config.min_peak_distance_cells, config.max_candidates)
    rows, cols = peaks[:, 0], peaks[:, 1]
    xs = (cols + 0.5 + off_x[rows, cols]) * LOCATOR_STRIDE
    ys = (rows + 0.5 + off_y[rows, cols]) * LOCATOR_STRIDE
    sizes = np.exp(log_size[rows, cols]) / transform.scale
    centers = np.stack([xs / transform.scale + transform.offset[0], ys / transform.scale + transform.offset[1]], 1)
    keep = sizes >= config.min_face_px
    return Located(
        centers=centers[keep].reshape(-1, 2), sizes=sizes[keep], scores=heat[rows, cols][keep].astype(np.float64)
    )


def cut_crops(
    frame: np.ndarray, centers: np.ndarray, sizes: np.ndarray, crop: int, face_fraction: float
) -> tuple[np.ndarray, CropTransform]:
    """Square crops around each centre, scaled so a face of `size` fills `face_fraction` of the side.

    Outside the frame is replicated border, so a die at the edge still gets a full crop.
    """
    n = len(centers)
    out = np.empty((n, crop, crop, 3), np.uint8)
    scales = sizes / (face_fraction * crop)  # frame pixels per crop pixel
    origins = centers - scales[:, None] * crop / 2
    for i in range(n):
        s = float(scales[i])
        # crop pixel (u, v) samples the frame at origin + (u + 0.5) * s - 0.5
        ox, oy = float(origins[i, 0]) + 0.5 * s - 0.5, float(origins[i, 1]) + 0.5 * s - 0.5
        if s > AREA_SHRINK:
            out[i] = area_crop(frame, ox, oy, s, crop)
        else:
            matrix = np.array([[s, 0.0, ox], [0.0, s, oy]], np.float64)
            out[i] = cv2.warpAffine(
                frame, matrix, (crop, crop), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                borderMode=cv2.BORDER_REPLICATE,
            )
    return out, CropTransform(origins=origins, scales=scales)


def area_crop(frame: np.ndarray, ox: float, oy: float, s: float, crop: int) -> np.ndarray:
    """A crop x `s` downscale with area averaging (no aliasing of small pips), border replicated."""
    h, w = frame.shape[:2]
    x0, y0 = int(np.floor(ox)), int(np.floor(oy))
    x1, y1 = int(np.ceil(ox + crop * s)) + 1, int(np.ceil(oy + crop * s)) + 1
    pad = max(0, -x0, -y0, x1 - w, y1 - h)
    src = frame
    if pad:
        src = cv2.copyMakeBorder(frame, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    region = src[y0 + pad : y1 + pad, x0 + pad : x1 + pad]
    factor = 1.0 / s
    small = cv2.resize(region, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    fx, fy = (ox - x0) * factor, (oy - y0) * factor
    matrix = np.array([[1.0, 0.0, fx], [0.0, 1.0, fy]], np.float64)
    return cv2.warpAffine(
        small, matrix, (crop, crop), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE
    )


def die_probability(probs: np.ndarray) -> np.ndarray:
    """P(a die) per row of reader probabilities; a reader without the "not a die" class (seven
    classes) trusts the locator alone."""
    return 1.0 - probs[:, NOT_A_DIE_CLASS] if probs.shape[1] > NOT_A_DIE_CLASS else np.ones(len(probs))


def face_probabilities(probs: np.ndarray) -> np.ndarray:
    """(N, 6) P(face | a die) from the reader's class probabilities."""
    return probs[:, :6] / np.maximum(die_probability(probs), 1e-6)[:, None]


def candidate_scores(heat: np.ndarray, probs: np.ndarray, config: DetectorConfig) -> np.ndarray:
    """Each candidate's `score`: its peak heat times the reader's P(a die), calibrated by the power."""
    return np.asarray((heat * die_probability(probs)) ** config.score_power, np.float64)


def face_confidences(probs: np.ndarray) -> np.ndarray:
    """Each row's best face probability given a die: the pipeline's "how sure"."""
    return face_probabilities(probs).max(axis=1)


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


NEIGHBOURS = np.mgrid[-1:2, -1:2]  # (2, 3, 3) row and column offsets of a 3x3 neighbourhood
MAX_PIPS = 12  # a face has at most six pips; more peaks than twice that are noise


def read_pips(heat: np.ndarray, origins: np.ndarray, scales: np.ndarray, threshold: float) -> list[tuple[Pip, ...]]:
    """Crops' (N, 2, h, w) pip heat -> each crop's pips in frame pixels, strongest first; a pip is red
    when its red heat wins. All crops at once: per crop, the numpy calls cost more than their work."""
    if len(heat) == 0:
        return []
    both = np.pad(heat.max(axis=1), ((0, 0), (1, 1), (1, 1)))  # a zero ring: no peak reaches across it
    n, h, w = both.shape
    dilated = cv2.dilate(both.reshape(n * h, w), np.ones((3, 3), np.uint8)).reshape(n, h, w)
    crop, rows, cols = np.nonzero((both >= dilated) & (both >= threshold))
    order = np.lexsort((-both[crop, rows, cols], crop))  # by crop, then strongest first (ties: row-major)
    crop, rows, cols = crop[order], rows[order], cols[order]
    keep = np.arange(len(crop)) - np.searchsorted(crop, crop) < MAX_PIPS  # rank among its crop's peaks
    crop, rows, cols = crop[keep], rows[keep], cols[keep]
    # the heat-weighted centroid of each peak's 3x3 neighbourhood (the zero ring weighs nothing)
    dr, dc = NEIGHBOURS
    patches = both[crop[:, None, None], rows[:, None, None] + dr, cols[:, None, None] + dc]
    total = patches.sum(axis=(1, 2))
    cy = rows - 1 + (patches * dr).sum(axis=(1, 2)) / total
    cx = cols - 1 + (patches * dc).sum(axis=(1, 2)) / total
    xs = origins[crop, 0] + (cx + 0.5) * READER_STRIDE * scales[crop]
    ys = origins[crop, 1] + (cy + 0.5) * READER_STRIDE * scales[crop]
    red = heat[crop, 1, rows - 1, cols - 1] > heat[crop, 0, rows - 1, cols - 1]
    out: list[list[Pip]] = [[] for _ in range(n)]
    for i, x, y, r in zip(crop.tolist(), xs.tolist(), ys.tolist(), red.tolist()):
        out[i].append(Pip(center=(x, y), red=r))
    return [tuple(pips) for pips in out]


def postprocess_reader(
    probs: np.ndarray, pip_heat: np.ndarray, located: Located, transform: CropTransform, config: DetectorConfig
) -> list[DieCandidate]:
    """The reader's class probabilities (N, classes) and pip heat -> candidates in frame pixels."""
    scores, faces = candidate_scores(located.scores, probs, config), face_probabilities(probs)
    every_pips = read_pips(pip_heat, transform.origins, transform.scales, config.pip_threshold)
    out = []
    for i, pips in enumerate(every_pips):
        cx, cy = (float(v) for v in located.centers[i])
        half = float(located.sizes[i]) / 2
        reach = config.pip_window * 2 * half
        pips = tuple(p for p in pips if max(abs(p.center[0] - cx), abs(p.center[1] - cy)) <= reach)
        out.append(
            DieCandidate(
                center=(cx, cy),
                box=(cx - half, cy - half, cx + half, cy + half),
                score=float(scores[i]),
                face_probs=tuple(float(min(1.0, p)) for p in faces[i]),  # type: ignore[arg-type]
                pips=pips,
            )
        )
    return out


def make_session(path: Path):  # -> onnxruntime.InferenceSession
    import onnxruntime as ort

    if not path.is_file():
        raise InvalidInput(f"expected an ONNX model file, got missing {path}")
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1  # the frame budget is for one thread; workers parallelise frames
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    return ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])


def reader_face_fraction(session) -> float:  # session: onnxruntime.InferenceSession
    """The share of its crop's side a top face fills, as the reader was trained (its metadata)."""
    said = session.get_modelmeta().custom_metadata_map.get(FACE_FRACTION_KEY)
    if said is None:
        return UNSAID_FACE_FRACTION
    try:
        fraction = float(said)
    except ValueError:
        fraction = float("nan")  # not a number: refused by the range check below, with its message
    if not 0 < fraction <= 1:
        raise InvalidInput(f"expected the reader's {FACE_FRACTION_KEY} to be a share in (0, 1], got {said!r}")
    return fraction


class DiceDetector:
    """Finds die top faces in a BGR frame and reads each one: `detect(frame, roi=None)`."""

    def __init__(self, model_path: Path | str = DEFAULT_MODELS_DIR, config: DetectorConfig = DetectorConfig()):
        folder = Path(model_path)
        if folder.is_file():
            folder = folder.parent
        self.config = config
        self.locator = make_session(folder / LOCATOR_FILE)
        self.reader = make_session(folder / READER_FILE)
        face_file = folder / FACE_READER_FILE
        self.face_reader = make_session(face_file) if face_file.is_file() else None
        shape = self.locator.get_inputs()[0].shape
        # A locator exported for one input size gets every frame letterboxed to it; one with free
        # H and W (training/onnx_graphs.py) gets an input of each frame's own aspect.
        fixed = all(isinstance(d, int) for d in shape[2:4])
        self.locator_hw: tuple[int, int] | None = (int(shape[2]), int(shape[3])) if fixed else None
        self.crop = int(self.reader.get_inputs()[0].shape[2])
        self.face_fraction = (reader_face_fraction(self.reader) if config.crop_face_fraction is None
                              else config.crop_face_fraction)

    def locate(self, frame: np.ndarray, roi: Box | None = None, zoom: float | None = None) -> Located:
        """Candidates in the frame or its ROI. `zoom`: the ROI shown this many times as big as the whole
        frame is shown (None: the ROI fills the input; a fixed-size locator ignores it)."""
        in_h, in_w = self.locator_hw if self.locator_hw is not None else (None, None)
        tensor, transform = preprocess_locator(frame, in_h, in_w, roi=roi, zoom=zoom)
        (output,) = self.locator.run(None, {self.locator.get_inputs()[0].name: tensor})
        return postprocess_locator(output, transform, self.config)

    def read(self, frame: np.ndarray, located: Located) -> list[DieCandidate]:
        """Run the pip reader on located candidates (all in one batch)."""
        if len(located.centers) == 0:
            return []
        crops, transform = cut_crops(
            frame, located.centers, located.sizes, self.crop, self.face_fraction
        )
        probs, pip_heat = self._read_crops(crops)
        worth = candidate_scores(located.scores, probs, self.config) >= self.config.second_look_min_score
        unsure = np.nonzero(worth & (face_confidences(probs) < self.config.second_look_below))[0]
        if len(unsure):
            probs[unsure] = self._read_turned(crops[unsure], probs[unsure])
        return postprocess_reader(probs, pip_heat, located, transform, self.config)

    def _read_crops(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(N, classes) probabilities and (N, 2, h, w) pip heat of uint8 crops (N, S, S, 3)."""
        logits, pip_heat = self.reader.run(None, {self.reader.get_inputs()[0].name: to_tensor(crops)})
        return softmax(logits.astype(np.float64)), pip_heat

    def _read_faces(self, crops: np.ndarray) -> np.ndarray:
        """(N, classes) probabilities alone, through the reader without its pip head when there is one."""
        if self.face_reader is None:
            return self._read_crops(crops)[0]
        (logits,) = self.face_reader.run(None, {self.face_reader.get_inputs()[0].name: to_tensor(crops)})
        return softmax(logits.astype(np.float64))

    def _read_turned(self, crops: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """The mean face probabilities of the upright read and three reads of the crops turned by 90
        degrees each (one session run). The pips stay the upright read's: a mean of four pip heats
        blurs the close pips of a 6 below the threshold."""
        n = len(crops)
        turned = np.ascontiguousarray(np.concatenate([np.rot90(crops, k, axes=(1, 2)) for k in (1, 2, 3)]))
        more = self._read_faces(turned)
        return (probs + more.reshape(3, n, -1).sum(axis=0)) / 4

    def read_at(self, frame: np.ndarray, centers: Sequence[Point], size: float) -> list[DieCandidate]:
        """The dice at `centers` read again as top faces `size` pixels wide (a box the locator got wrong)."""
        spots = np.asarray(centers, np.float64).reshape(-1, 2)
        sizes, scores = np.full(len(spots), float(size)), np.ones(len(spots))
        return self.read(frame, Located(centers=spots, sizes=sizes, scores=scores))

    def detect(self, frame: np.ndarray, roi: Box | None = None, zoom: float | None = None) -> list[DieCandidate]:
        """Every candidate die top face, strongest first, in frame pixels (`zoom`: as in `locate`)."""
        return self.read(frame, self.locate(frame, roi, zoom))
