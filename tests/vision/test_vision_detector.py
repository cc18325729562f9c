"""The ONNX detector wrapper: pure pre/postprocessing geometry, and the committed models on real input."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bobing_vision.dataset.labels import load_labels
from bobing_vision.errors import InvalidInput
from bobing_vision.vision.detector import (
    DEFAULT_MODELS_DIR,
    FACE_FRACTION_KEY,
    FACE_READER_FILE,
    LOCATOR_FILE,
    LOCATOR_STRIDE,
    MAX_PIPS,
    READER_FILE,
    READER_STRIDE,
    UNSAID_FACE_FRACTION,
    CropTransform,
    DetectorConfig,
    DiceDetector,
    DieCandidate,
    FrameTransform,
    Located,
    Pip,
    cut_crops,
    postprocess_locator,
    postprocess_reader,
    locator_input_size,
    preprocess_locator,
    read_pips,
)

REAL_SET = Path(__file__).resolve().parents[3] / "shared" / "data" / "byler-d6-train"
HAVE_MODELS = (DEFAULT_MODELS_DIR / LOCATOR_FILE).is_file() and (DEFAULT_MODELS_DIR / READER_FILE).is_file()


def dot_frame(h: int, w: int, x: int, y: int) -> np.ndarray:
    frame = np.zeros((h, w, 3), np.uint8)
    cv2.circle(frame, (x, y), 6, (255, 255, 255), -1)
    return frame


@pytest.mark.parametrize(
    ("case", "hw", "dot", "roi"),
    [
        ("640x480 whole frame", (480, 640), (500, 100), None),
        ("odd sizes", (479, 641), (37, 400), None),
        ("portrait odd", (777, 333), (300, 700), None),
        ("roi inside", (480, 640), (400, 300), (201.4, 99.6, 601, 451)),
        ("roi past the edge", (481, 639), (620, 470), (300, 200, 900, 900)),
    ],
)
def test_locator_transform_maps_input_pixels_back_to_the_frame(case, hw, dot, roi) -> None:
    frame = dot_frame(*hw, *dot)
    tensor, tf = preprocess_locator(frame, 256, 320, roi=roi)
    assert tensor.shape == (1, 3, 256, 320) and tensor.dtype == np.float32
    ys, xs = np.nonzero(tensor[0, 0] > 200)  # the dot, not the grey letterbox fill
    x, y = tf.to_frame(float(xs.mean()) + 0.5, float(ys.mean()) + 0.5)  # continuous pixel coordinates
    assert abs(x - dot[0] - 0.5) < 1.5 / tf.scale and abs(y - dot[1] - 0.5) < 1.5 / tf.scale, case


def test_postprocess_locator_places_a_peak_in_frame_pixels() -> None:
    maps = np.zeros((1, 4, 64, 80), np.float32)
    maps[0, 0, 10, 20] = 0.9
    maps[0, 1, 10, 20] = 0.25  # x offset in cells
    maps[0, 2, 10, 20] = -0.25
    maps[0, 3, 10, 20] = np.log(12.0)  # face side in input pixels
    tf = FrameTransform(scale=0.5, offset=(100.0, 50.0))
    located = postprocess_locator(maps, tf, DetectorConfig())
    assert located.centers.shape == (1, 2)
    x_in, y_in = (20 + 0.5 + 0.25) * LOCATOR_STRIDE, (10 + 0.5 - 0.25) * LOCATOR_STRIDE
    np.testing.assert_allclose(located.centers[0], [x_in / 0.5 + 100, y_in / 0.5 + 50])
    assert located.sizes[0] == pytest.approx(24.0)
    assert located.scores[0] == pytest.approx(0.9)


def test_postprocess_locator_drops_weak_peaks_and_keeps_one_per_blob() -> None:
    maps = np.zeros((1, 4, 32, 32), np.float32)
    maps[0, 3] = np.log(20.0)
    maps[0, 0, 5, 5], maps[0, 0, 5, 6] = 0.8, 0.7  # one blob, two cells
    maps[0, 0, 20, 20] = 0.1  # below the threshold
    located = postprocess_locator(maps, FrameTransform(1.0, (0.0, 0.0)), DetectorConfig())
    assert len(located.centers) == 1


@pytest.mark.parametrize(("case", "size"), [("upscaled small die", 12.0), ("downscaled big die", 150.0)])
def test_cut_crops_centres_the_die_and_maps_back(case, size) -> None:
    frame = np.zeros((400, 500, 3), np.uint8)
    cx, cy = 251.0, 180.0
    cv2.circle(frame, (int(cx), int(cy)), max(2, int(size / 4)), (255, 255, 255), -1)
    crops, tf = cut_crops(frame, np.array([[cx, cy]]), np.array([size]), 40, 0.6)
    assert crops.shape == (1, 40, 40, 3)
    ys, xs = np.nonzero(crops[0, :, :, 0] > 100)
    u, v = float(xs.mean()) + 0.5, float(ys.mean()) + 0.5
    back = tf.origins[0] + np.array([u, v]) * tf.scales[0]
    assert np.hypot(*(back - [cx + 0.5, cy + 0.5])) < max(1.5, tf.scales[0]), case


def test_cut_crops_at_the_frame_edge_gives_full_crops() -> None:
    frame = np.full((100, 100, 3), 50, np.uint8)
    crops, _ = cut_crops(frame, np.array([[0.0, 99.0], [50.0, 50.0]]), np.array([80.0, 10.0]), 40, 0.6)
    assert crops.shape == (2, 40, 40, 3) and (crops == 50).all()


def test_read_pips_finds_black_and_red_pips_in_frame_pixels() -> None:
    heat = np.zeros((2, 20, 20), np.float32)
    heat[0, 5, 5] = 0.9  # black
    heat[1, 14, 10] = 0.8  # red
    empty = np.zeros_like(heat)
    pips, none = read_pips(np.stack([heat, empty]), origins=np.array([[100.0, 200.0], [0.0, 0.0]]),
                           scales=np.array([2.0, 1.0]), threshold=0.35)
    assert pips == (  # strongest first
        Pip(center=(100 + 5.5 * READER_STRIDE * 2, 200 + 5.5 * READER_STRIDE * 2), red=False),
        Pip(center=(100 + 10.5 * READER_STRIDE * 2, 200 + 14.5 * READER_STRIDE * 2), red=True),
    )
    assert none == ()


def test_read_pips_keeps_each_crops_strongest_and_never_mixes_crops() -> None:
    heat = np.zeros((2, 2, 30, 30), np.float32)
    rows, cols = np.mgrid[1:30:4, 1:30:4]
    heat[0, 0, rows, cols] = np.linspace(0.4, 0.9, rows.size).reshape(rows.shape)  # 64 isolated peaks
    heat[1, 0, 0, 0] = 0.7  # weaker than the first crop's peak beside it in memory (its last row)
    first, second = read_pips(heat, np.zeros((2, 2)), np.ones(2), threshold=0.35)
    assert len(first) == MAX_PIPS and first[0].center == ((29 + 0.5) * READER_STRIDE, (29 + 0.5) * READER_STRIDE)
    assert second == (Pip(center=(0.5 * READER_STRIDE, 0.5 * READER_STRIDE), red=False),)


def test_postprocess_reader_splits_not_a_die_from_unreadable() -> None:
    located = Located(centers=np.array([[50.0, 60.0]]), sizes=np.array([20.0]), scores=np.array([0.8]))
    probs = np.array([[0.6, 0.0, 0.0, 0.0, 0.0, 0.0, 0.2, 0.2]])
    tf = CropTransform(origins=np.array([[30.0, 40.0]]), scales=np.array([1.0]))
    (c,) = postprocess_reader(probs, np.zeros((1, 2, 20, 20), np.float32), located, tf, DetectorConfig())
    assert c.score == pytest.approx((0.8 * 0.8) ** DetectorConfig().score_power)  # locator heat x P(a die)
    assert c.face_probs[0] == pytest.approx(0.75) and c.unreadable_prob == pytest.approx(0.25)
    assert c.box == (40.0, 50.0, 60.0, 70.0) and c.pips == ()


def test_candidate_summaries() -> None:
    c = DieCandidate(
        center=(1, 1), box=(0, 0, 2, 2), score=0.9, face_probs=(0.0, 0.0, 0.0, 0.9, 0.0, 0.0),
        pips=(Pip((0, 0), True), Pip((1, 0), True), Pip((0, 1), False)),
    )
    assert (c.pip_count, c.red_pips, c.face) == (3, 2, 4)
    assert c.unreadable_prob == pytest.approx(0.1)


@pytest.mark.parametrize(
    ("case", "frame", "roi"),
    [
        ("float frame", np.zeros((20, 20, 3), np.float32), None),
        ("grey frame", np.zeros((20, 20), np.uint8), None),
        ("tiny frame", np.zeros((4, 4, 3), np.uint8), None),
        ("roi outside", np.zeros((50, 50, 3), np.uint8), (60, 60, 90, 90)),
    ],
)
def test_bad_input_is_invalid_input(case, frame, roi) -> None:
    with pytest.raises(InvalidInput, match="expected"):
        preprocess_locator(frame, 256, 320, roi=roi)


def nearest(cands: list[DieCandidate], center: tuple[float, float], radius: float) -> DieCandidate | None:
    dist = [float(np.hypot(c.center[0] - center[0], c.center[1] - center[1])) for c in cands]
    best = int(np.argmin(dist)) if dist else -1
    return cands[best] if best >= 0 and dist[best] <= radius else None


@pytest.mark.parametrize(("height", "width", "expected"), [
    (480, 640, (288, 384)), (1080, 1920, (288, 512)), (640, 480, (384, 288)), (640, 640, (288, 288)),
    (100, 1000, (288, 576)),  # a panorama stops at 2:1 and is letterboxed
])
def test_locator_input_keeps_the_frame_aspect(height: int, width: int, expected: tuple[int, int]) -> None:
    assert locator_input_size(height, width) == expected


def test_locator_input_of_a_wide_frame_keeps_the_dice_scale() -> None:
    tensor, tf = preprocess_locator(np.zeros((720, 1280, 3), np.uint8))
    assert tensor.shape == (1, 3, 288, 512) and tf.scale == pytest.approx(0.4)


def test_a_zoomed_roi_is_shown_zoom_times_as_big_as_the_whole_frame() -> None:
    frame = dot_frame(480, 640, 300, 200)
    _, whole = preprocess_locator(frame)
    tensor, zoomed = preprocess_locator(frame, roi=(200, 150, 350, 250), zoom=2.0)
    assert tensor.shape == (1, 3, 128, 192)  # 100 x 150 at 2 x 0.6, rounded up to multiples of 16
    assert 2.0 <= zoomed.scale / whole.scale < 2.2
    x, y = zoomed.to_frame(0.0, 0.0)
    assert (x, y) == (200.0, 150.0)
    huge, _ = preprocess_locator(frame, roi=(0, 0, 640, 480), zoom=10.0)
    assert max(huge.shape[2:]) <= 2 * 576  # never an input beyond twice the whole frame's longest


@pytest.fixture(scope="module")
def detector() -> DiceDetector:
    if not HAVE_MODELS:
        pytest.skip("no committed models in models/")
    return DiceDetector()


def test_committed_models_fit_the_contract(detector: DiceDetector) -> None:
    assert detector.locator_hw is None, "the committed locator takes any input size"
    sizes = sum(p.stat().st_size for p in DEFAULT_MODELS_DIR.glob("*.onnx"))
    assert sizes <= 5_000_000
    blank = np.full((480, 640, 3), 128, np.uint8)
    assert all(c.score < 0.5 for c in detector.detect(blank))


@pytest.mark.skipif(not REAL_SET.is_dir(), reason="shared real photos not present")
def test_committed_models_read_a_real_photo(detector: DiceDetector) -> None:
    labels = load_labels(REAL_SET)
    name = sorted(labels)[0]
    frame = cv2.imread(str(REAL_SET / name))
    cands = [c for c in detector.detect(frame) if c.score >= 0.5]
    dice = labels[name].dice
    hits = faces = 0
    for d in dice:
        near = nearest(cands, d.center, d.size / 2)
        hits += near is not None
        faces += near is not None and near.face == d.face
    assert hits >= 0.9 * len(dice) and faces >= 0.8 * len(dice)
    assert len(cands) <= len(dice) + 2


def test_committed_models_read_generated_scenes(detector: DiceDetector) -> None:
    synth = pytest.importorskip("bobing_vision.synth")
    rng = np.random.default_rng(4242)  # a seed training does not use (it renders from 1000 up)
    flat = hits = faces = 0
    for _ in range(6):  # at the webcam size the product is built for (320x240 shows dice of 7 pixels)
        image, label = synth.render_scene(rng, synth.SceneSpec(size=(640, 480), cocked_p=0.0, stacked_p=0.0))
        cands = [c for c in detector.detect(image) if c.score >= 0.5]
        for d in label.dice:
            near = nearest(cands, d.center, d.size / 2)
            hits += near is not None
            if near is not None and not d.cocked:
                flat += 1
                faces += near.face == d.face
    assert hits >= 0.9 * 36 and faces >= 0.95 * flat


SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


@pytest.mark.parametrize("name", ["scene_0004.jpg", "scene_0009.jpg"])
def test_committed_models_read_a_portrait_frame_like_a_landscape_one(detector: DiceDetector, name: str) -> None:
    """A camera mounted sideways: the same throw, turned 90 degrees, reads the same."""
    labels = load_labels(SAMPLES)
    expected = sorted(d.face for d in labels[name].dice)
    frame = cv2.imread(str(SAMPLES / name))
    for view in (frame, cv2.rotate(frame, cv2.ROTATE_90_CLOCKWISE)):
        assert sorted(c.face for c in detector.detect(view) if c.score >= 0.5) == expected


def test_a_second_look_keeps_faces_and_pips_in_place() -> None:
    """Reading every die again turned (and turning its pip heat back) must not move a pip or change
    a clear face: only doubtful faces may change."""
    if not HAVE_MODELS:
        pytest.skip("no committed models in models/")
    frame = cv2.imread(str(SAMPLES / "scene_0009.jpg"))
    once = DiceDetector(config=DetectorConfig(second_look_below=0.0)).detect(frame)
    always = DiceDetector(config=DetectorConfig(second_look_below=1.01)).detect(frame)
    clear = [(a, b) for a, b in zip(once, always) if a.score >= 0.5 and a.face_confidence >= 0.95]
    assert len(clear) >= 5
    for a, b in clear:
        assert b.face == a.face and b.pip_count == a.pip_count
        for p, q in zip(sorted(a.pips, key=lambda p: p.center), sorted(b.pips, key=lambda p: p.center)):
            assert abs(p.center[0] - q.center[0]) < 1.5 and abs(p.center[1] - q.center[1]) < 1.5


def test_the_second_look_reads_faces_without_the_pip_head_as_the_whole_reader_does(detector: DiceDetector) -> None:
    """The committed face-only reader is the reader's face part exactly: same probabilities, at ~60% of
    the time (the pip head is 40% of the reader and the second look discards its pips)."""
    assert (DEFAULT_MODELS_DIR / FACE_READER_FILE).is_file() and detector.face_reader is not None
    frame = cv2.imread(str(SAMPLES / "scene_0009.jpg"))
    located = detector.locate(frame)
    crops, _ = cut_crops(frame, located.centers, located.sizes, detector.crop, detector.face_fraction)
    turned = np.ascontiguousarray(np.rot90(crops, 1, axes=(1, 2)))
    whole, _ = detector._read_crops(turned)
    np.testing.assert_allclose(detector._read_faces(turned), whole, atol=1e-6)


def models_saying(tmp_path: Path, fraction: str | None) -> Path:
    """A copy of the committed models whose reader says its crops' face fraction is `fraction` (None:
    says nothing, as models exported before it was written)."""
    onnx = pytest.importorskip("onnx")
    from bobing_vision.training.onnx_graphs import write_metadata

    if not HAVE_MODELS:
        pytest.skip("no committed models in models/")
    for name in (LOCATOR_FILE, READER_FILE):
        (tmp_path / name).write_bytes((DEFAULT_MODELS_DIR / name).read_bytes())
    if fraction is not None:
        write_metadata(tmp_path / READER_FILE, {FACE_FRACTION_KEY: fraction})
    else:
        reader = onnx.load(str(tmp_path / READER_FILE))
        del reader.metadata_props[:]
        onnx.save(reader, str(tmp_path / READER_FILE))
    return tmp_path


def test_crops_are_cut_at_the_face_fraction_the_reader_says(tmp_path: Path) -> None:
    """A reader trained on faces filling another share of its crops says so in its file; the detector
    cuts its crops to match, unless its config says otherwise."""
    frame = cv2.imread(str(SAMPLES / "scene_0009.jpg"))
    said = DiceDetector(models_saying(tmp_path, "0.75"))
    assert said.face_fraction == 0.75
    assert DiceDetector(tmp_path, DetectorConfig(crop_face_fraction=0.5)).face_fraction == 0.5
    located = said.locate(frame)
    seen: list[np.ndarray] = []

    def read_and_keep(crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        seen.append(crops)
        return DiceDetector._read_crops(said, crops)

    said._read_crops = read_and_keep  # type: ignore[method-assign]
    said.read(frame, located)
    expected, _ = cut_crops(frame, located.centers, located.sizes, said.crop, 0.75)
    np.testing.assert_array_equal(seen[0], expected)


def test_a_reader_that_says_no_face_fraction_was_trained_at_the_first_one(tmp_path: Path) -> None:
    assert DiceDetector(models_saying(tmp_path, None)).face_fraction == UNSAID_FACE_FRACTION == 0.6


@pytest.mark.parametrize("said", ["0", "1.5", "wide"])
def test_a_reader_saying_a_face_fraction_past_its_crop_is_refused(tmp_path: Path, said: str) -> None:
    with pytest.raises(InvalidInput, match=FACE_FRACTION_KEY):
        DiceDetector(models_saying(tmp_path, said))
