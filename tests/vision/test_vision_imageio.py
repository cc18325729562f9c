"""Image files: each kind of bad file is refused with its own reason; good files come back as BGR."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from bobing_vision.errors import InvalidInput
from bobing_vision.vision.imageio import (
    ImageFileError,
    ImageKind,
    ImageLimits,
    ImageProblem,
    header_size,
    image_kind,
    iter_image_files,
    load_image,
)

RNG_SEED = 7


def picture(height: int = 48, width: int = 64) -> np.ndarray:
    return np.random.default_rng(RNG_SEED).integers(0, 256, (height, width, 3), dtype=np.uint8)


def encoded(ext: str, image: np.ndarray | None = None) -> bytes:
    ok, buf = cv2.imencode(ext, picture() if image is None else image)
    assert ok
    return buf.tobytes()


def progressive_jpeg() -> bytes:
    """Several scans, each with its own start marker: the end must come after the last."""
    ok, buf = cv2.imencode(".jpg", cv2.GaussianBlur(picture(), (0, 0), 2), [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    assert ok
    return buf.tobytes()


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def huge_png() -> bytes:
    """A well-formed PNG whose header claims 100000 x 100000 pixels (a decompression bomb's shape)."""
    ihdr = struct.pack(">IIBBBBB", 100_000, 100_000, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00" * 64)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", idat) + png_chunk(b"IEND", b"")


def garbled_png() -> bytes:
    """Magic, header and end all correct, but the pixel data is not zlib: only the decoder can tell."""
    ihdr = struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", b"nonsense") + png_chunk(b"IEND", b"")


BAD_FILES = [
    pytest.param("empty.jpg", lambda: b"", ImageProblem.EMPTY, "0 bytes", id="empty"),
    pytest.param("notes.jpg", lambda: b"shopping list\n", ImageProblem.NOT_AN_IMAGE, "expected JPEG", id="text-named-jpg"),
    pytest.param("cut.jpg", lambda: encoded(".jpg")[:-200], ImageProblem.TRUNCATED, "whole JPEG", id="truncated-jpeg"),
    pytest.param("cut-prog.jpg", lambda: progressive_jpeg()[: len(progressive_jpeg()) // 2], ImageProblem.TRUNCATED,
                 "whole JPEG", id="truncated-progressive-jpeg"),
    pytest.param("cut-eoi.jpg", lambda: encoded(".jpg")[:-2], ImageProblem.TRUNCATED, "whole JPEG", id="jpeg-without-eoi"),
    pytest.param("cut.png", lambda: encoded(".png")[:-12], ImageProblem.TRUNCATED, "whole PNG", id="png-without-iend"),
    pytest.param("bomb.png", huge_png, ImageProblem.TOO_LARGE, "100000x100000", id="huge-dimension-header-png"),
    pytest.param("garbled.png", garbled_png, ImageProblem.UNDECODABLE, "cannot be decoded", id="decoder-failure"),
]


@pytest.mark.parametrize("name, content, problem, detail", BAD_FILES)
def test_bad_file_gives_its_reason(tmp_path: Path, name: str, content, problem: ImageProblem, detail: str) -> None:
    path = tmp_path / name
    path.write_bytes(content())
    with pytest.raises(ImageFileError) as caught:
        load_image(path)
    assert caught.value.problem is problem
    assert detail in str(caught.value)
    assert str(path) in str(caught.value)
    assert isinstance(caught.value, InvalidInput) and isinstance(caught.value, ValueError)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ImageFileError) as caught:
        load_image(tmp_path / "nowhere.jpg")
    assert caught.value.problem is ImageProblem.MISSING


def test_a_folder_is_not_an_image(tmp_path: Path) -> None:
    with pytest.raises(ImageFileError) as caught:
        load_image(tmp_path)
    assert caught.value.problem is ImageProblem.NOT_A_FILE


def test_file_size_limit_is_checked_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "big.png"
    path.write_bytes(encoded(".png"))
    with pytest.raises(ImageFileError) as caught:
        load_image(path, ImageLimits(max_file_bytes=100))
    assert caught.value.problem is ImageProblem.TOO_LARGE


@pytest.mark.parametrize("ext", [".png", ".bmp", ".tiff"])
def test_lossless_kinds_load_exactly_as_bgr_uint8(tmp_path: Path, ext: str) -> None:
    path = tmp_path / f"good{ext}"
    path.write_bytes(encoded(ext))
    frame = load_image(path)
    assert frame.dtype == np.uint8 and frame.shape == (48, 64, 3)
    assert np.array_equal(frame, picture())


@pytest.mark.parametrize("ext", [".jpg", ".webp"])
def test_lossy_kinds_load_close_to_the_original(tmp_path: Path, ext: str) -> None:
    smooth = cv2.GaussianBlur(picture(), (0, 0), 4)
    path = tmp_path / f"good{ext}"
    path.write_bytes(encoded(ext, smooth))
    frame = load_image(path)
    assert frame.shape == (48, 64, 3)
    assert np.abs(frame.astype(int) - smooth.astype(int)).mean() < 8


def test_whole_progressive_jpeg_loads(tmp_path: Path) -> None:
    path = tmp_path / "progressive.jpg"
    path.write_bytes(progressive_jpeg())
    assert load_image(path).shape == (48, 64, 3)


def test_grey_png_comes_back_with_three_channels(tmp_path: Path) -> None:
    path = tmp_path / "grey.png"
    path.write_bytes(encoded(".png", picture()[:, :, 0]))
    assert load_image(path).shape == (48, 64, 3)


def test_bytes_after_the_jpeg_end_are_allowed(tmp_path: Path) -> None:
    """Phones append motion-photo videos after the end marker; random bytes there may look like markers."""
    path = tmp_path / "motion.jpg"
    path.write_bytes(encoded(".jpg") + b"\xff\xda\x00\x08trailer" * 50)
    assert load_image(path).shape == (48, 64, 3)


@pytest.mark.parametrize("ext, kind", [(".jpg", ImageKind.JPEG), (".png", ImageKind.PNG), (".bmp", ImageKind.BMP),
                                       (".webp", ImageKind.WEBP), (".tiff", ImageKind.TIFF)])
def test_kind_and_size_from_the_header(ext: str, kind: ImageKind) -> None:
    data = encoded(ext, picture(37, 53))
    assert image_kind(data) is kind
    assert header_size(data, kind) == (53, 37)


def test_real_photos_load(tmp_path: Path) -> None:
    folder = Path("/work/shared/data/byler-d6-train")
    if not folder.is_dir():
        pytest.skip("shared data not present")
    first = next(iter_image_files([folder]))
    assert load_image(first).shape == (640, 640, 3)


def make_tree(root: Path) -> None:
    for name in ("b.jpg", "a.PNG", "notes.txt", ".hidden.jpg", "sub/c.webp", "sub/deeper/d.tif", ".git/e.jpg"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(b"x")


def test_folders_expand_recursively_sorted_images_only(tmp_path: Path) -> None:
    make_tree(tmp_path)
    names = [p.relative_to(tmp_path).as_posix() for p in iter_image_files([tmp_path])]
    assert names == ["a.PNG", "b.jpg", "sub/c.webp", "sub/deeper/d.tif"]


def test_named_files_come_as_given_once_and_missing_ones_are_passed_on(tmp_path: Path) -> None:
    make_tree(tmp_path)
    wanted = [tmp_path / "notes.txt", tmp_path / "gone.jpg", tmp_path / "sub", tmp_path / "sub" / "c.webp"]
    names = [p.relative_to(tmp_path).as_posix() for p in iter_image_files(wanted)]
    assert names == ["notes.txt", "gone.jpg", "sub/c.webp", "sub/deeper/d.tif"]
    with pytest.raises(ImageFileError) as caught:  # the caller learns of the missing one where it loads
        load_image(tmp_path / "gone.jpg")
    assert caught.value.problem is ImageProblem.MISSING
