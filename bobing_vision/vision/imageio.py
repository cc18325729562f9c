"""Image files in, BGR frames out, safely: every bad file is an `ImageFileError` that says why.

OpenCV alone is a poor judge of a file: it decodes a truncated JPEG without complaint (the missing
part comes out grey), returns None without a reason for anything else, and allocates whatever a
header asks for. So the file's own bytes are checked first — its kind from the magic bytes, its
size from the header, its end marker — and only then is it decoded. Pixels are returned as stored
(EXIF orientation is ignored) because labels in DATA.md use the stored pixel grid.
"""

from __future__ import annotations

import enum
import os
import struct
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bobing_vision.errors import InvalidInput

IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


@dataclass(frozen=True)
class ImageLimits:
    """What a file may ask of us before it is refused."""

    # A webcam gives <= 8 MP and 8K video 33 MP; past 50 MP (~150 MB decoded) it is a bomb or the wrong file.
    max_pixels: int = 50_000_000
    # A compressed photo of <= 50 MP is far below this; reading more into memory only to refuse it is waste.
    max_file_bytes: int = 256 * 1024 * 1024


class ImageProblem(enum.Enum):
    """Why a file is not a usable image; the value is the short reason a person sees."""

    MISSING = "missing"
    NOT_A_FILE = "not a file"
    UNREADABLE = "cannot be read"
    EMPTY = "empty file"
    NOT_AN_IMAGE = "not an image"
    TRUNCATED = "truncated"
    TOO_LARGE = "too large"
    UNDECODABLE = "cannot be decoded"


class ImageFileError(InvalidInput):
    """A file that cannot be used as an image; `.problem` says which kind of bad it is."""

    def __init__(self, path: Path, problem: ImageProblem, detail: str) -> None:
        self.path = path
        self.problem = problem
        self.reason = f"{problem.value}: {detail}"  # without the path, for lists that name the file
        super().__init__(f"{path}: {self.reason}")


class ImageKind(enum.Enum):
    JPEG = "JPEG"
    PNG = "PNG"
    BMP = "BMP"
    WEBP = "WEBP"
    TIFF = "TIFF"


_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
# JPEG start-of-frame markers (they carry the size); C4, C8 and CC share the range but are not frames.
_JPEG_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
# Markers without a length field.
_JPEG_STANDALONE = frozenset(range(0xD0, 0xD8)) | {0x01, 0xD8}


def image_kind(data: bytes) -> ImageKind | None:
    """The file's kind from its magic bytes, or None when it is none of the kinds we read."""
    if data.startswith(b"\xff\xd8\xff"):
        return ImageKind.JPEG
    if data.startswith(_PNG_MAGIC):
        return ImageKind.PNG
    if data.startswith(b"BM") and len(data) >= 26:
        return ImageKind.BMP
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return ImageKind.WEBP
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return ImageKind.TIFF
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte before a marker
            i += 1
            continue
        if marker in _JPEG_STANDALONE:
            i += 2
            continue
        if marker in _JPEG_SOF:
            if i + 9 > len(data):
                return None
            height, width = struct.unpack(">HH", data[i + 5 : i + 9])
            return width, height
        if marker == 0xDA:  # scan data before any frame header: malformed
            return None
        (length,) = struct.unpack(">H", data[i + 2 : i + 4])
        i += 2 + length
    return None


def _png_size(data: bytes) -> tuple[int, int] | None:
    if len(data) < 24 or data[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def _bmp_size(data: bytes) -> tuple[int, int] | None:
    (header,) = struct.unpack("<I", data[14:18])
    if header == 12:  # OS/2 BITMAPCOREHEADER: 16-bit sizes
        width, height = struct.unpack("<HH", data[18:22])
        return width, height
    width, height = struct.unpack("<ii", data[18:26])
    return abs(width), abs(height)  # a negative height means top-down rows


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 " and len(data) >= 30:
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L" and len(data) >= 25:
        (bits,) = struct.unpack("<I", data[21:25])
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X" and len(data) >= 30:
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return width, height
    return None


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    order = "<" if data[:2] == b"II" else ">"
    if len(data) < 8:
        return None
    (ifd,) = struct.unpack(order + "I", data[4:8])
    if ifd + 2 > len(data):
        return None
    (count,) = struct.unpack(order + "H", data[ifd : ifd + 2])
    found: dict[int, int] = {}
    for k in range(count):
        at = ifd + 2 + 12 * k
        if at + 12 > len(data):
            return None
        tag, kind = struct.unpack(order + "HH", data[at : at + 4])
        if tag in (256, 257):  # ImageWidth, ImageLength
            fmt = "H" if kind == 3 else "I"  # SHORT or LONG
            (found[tag],) = struct.unpack(order + fmt, data[at + 8 : at + 8 + struct.calcsize(fmt)])
    if 256 in found and 257 in found:
        return found[256], found[257]
    return None


_SIZE_READERS = {
    ImageKind.JPEG: _jpeg_size,
    ImageKind.PNG: _png_size,
    ImageKind.BMP: _bmp_size,
    ImageKind.WEBP: _webp_size,
    ImageKind.TIFF: _tiff_size,
}


def header_size(data: bytes, kind: ImageKind) -> tuple[int, int] | None:
    """(width, height) as the header states it, or None when the header does not say."""
    try:
        return _SIZE_READERS[kind](data)
    except struct.error:  # header cut short
        return None


def _jpeg_is_whole(data: bytes) -> bool:
    """Walk the segments and the scans' data until the end-of-image marker; False if the bytes run out."""
    i = 2
    while i + 2 <= len(data):
        if data[i] != 0xFF:
            return False
        marker = data[i + 1]
        if marker == 0xD9:
            return True
        if marker == 0xFF or marker in _JPEG_STANDALONE:
            i += 1 if marker == 0xFF else 2
            continue
        if i + 4 > len(data):
            return False
        (length,) = struct.unpack(">H", data[i + 2 : i + 4])
        i += 2 + length
        if marker != 0xDA:
            continue
        # Scan data: FF 00 is a stuffed byte and FF D0..D7 a restart; any other FF xx ends the scan.
        while True:
            i = data.find(b"\xff", i)
            if i < 0 or i + 1 >= len(data):
                return False
            following = data[i + 1]
            if following == 0x00 or 0xD0 <= following <= 0xD7 or following == 0xFF:
                i += 1 if following == 0xFF else 2
                continue
            break
    return False


def _png_is_whole(data: bytes) -> bool:
    """Walk the chunks to IEND; False if the bytes run out first."""
    i = len(_PNG_MAGIC)
    while i + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[i : i + 8])
        if kind == b"IEND":
            return True
        i += 12 + length  # length, type, data, CRC
    return False


def is_truncated(data: bytes, kind: ImageKind) -> bool:
    """True for a JPEG that ends before its end-of-image marker, or a PNG that ends before IEND.

    Only these two are checked: they are what cameras and the web give, and OpenCV decodes a cut
    JPEG silently. Bytes appended after the end (phones append motion-photo videos) are allowed.
    """
    if kind is ImageKind.JPEG:
        return not _jpeg_is_whole(data)
    if kind is ImageKind.PNG:
        return not _png_is_whole(data)
    return False


def _read_bytes(path: Path, limits: ImageLimits) -> bytes:
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise ImageFileError(path, ImageProblem.NOT_A_FILE, "expected an image file, got a folder or device")
        if size > limits.max_file_bytes:
            raise ImageFileError(
                path,
                ImageProblem.TOO_LARGE,
                f"expected a file of at most {limits.max_file_bytes} bytes, got {size} bytes",
            )
        return path.read_bytes()
    except FileNotFoundError:
        raise ImageFileError(path, ImageProblem.MISSING, "expected an image file, got no such file") from None
    except OSError as exc:
        raise ImageFileError(path, ImageProblem.UNREADABLE, f"expected a readable file, got {exc.strerror}") from None


def _check_pixels(path: Path, size: tuple[int, int], limits: ImageLimits) -> None:
    width, height = size
    if width == 0 or height == 0:
        raise ImageFileError(path, ImageProblem.UNDECODABLE, f"expected a non-empty picture, got {width}x{height}")
    if width * height > limits.max_pixels:
        raise ImageFileError(
            path,
            ImageProblem.TOO_LARGE,
            f"expected at most {limits.max_pixels / 1e6:g} megapixels, got {width}x{height} "
            f"({width * height / 1e6:.1f} megapixels)",
        )


def load_image(path: Path | str, limits: ImageLimits = ImageLimits()) -> np.ndarray:
    """The image at `path` as a BGR uint8 array (H x W x 3), or `ImageFileError` saying why not."""
    import cv2

    path = Path(path)
    data = _read_bytes(path, limits)
    if not data:
        raise ImageFileError(path, ImageProblem.EMPTY, "expected an image, got 0 bytes")
    kind = image_kind(data)
    if kind is None:
        names = ", ".join(k.value for k in ImageKind)
        raise ImageFileError(path, ImageProblem.NOT_AN_IMAGE, f"expected {names}, got a file starting {data[:8]!r}")
    if is_truncated(data, kind):
        raise ImageFileError(path, ImageProblem.TRUNCATED, f"expected a whole {kind.value}, got one without its end")
    size = header_size(data, kind)
    if size is not None:
        _check_pixels(path, size, limits)
    frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    if frame is None:
        raise ImageFileError(
            path, ImageProblem.UNDECODABLE, f"expected a {kind.value} OpenCV can decode, got one it cannot"
        )
    if size is None:  # the header did not say: check what came out
        _check_pixels(path, (frame.shape[1], frame.shape[0]), limits)
    return np.ascontiguousarray(frame, dtype=np.uint8)


def is_image_name(path: Path) -> bool:
    return path.suffix.lower() in IMAGE_EXTENSIONS and not path.name.startswith(".")


def iter_image_files(paths: Iterable[Path | str]) -> Iterator[Path]:
    """Files and folders -> image files: a folder gives its image files recursively, sorted.

    A file named directly is yielded whatever its extension (the person asked for it; `load_image`
    judges its bytes). A path that does not exist is yielded as given, so the caller's `load_image`
    reports it as missing in the same place as every other bad file, and the rest still run. Hidden
    files (macOS `._` twins) and symlinked folders (loops) are skipped; each file comes once.
    """
    seen: set[Path] = set()
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found: list[Path] = []
            for root, dirs, files in os.walk(path):
                dirs[:] = [d for d in dirs if not d.startswith(".")]
                found += [Path(root) / f for f in files if is_image_name(Path(f))]
            candidates = sorted(found)
        else:
            candidates = [path]
        for file in candidates:
            key = file.resolve() if file.exists() else file
            if key not in seen:
                seen.add(key)
                yield file
