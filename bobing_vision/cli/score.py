"""`bobing score PATH...`: read and score photos, one row per image, bad files listed with the reason.

Streaming: files are read, scored and written in chunks of `CHUNK`, so memory stays flat over any number
of images. With `--workers N` each worker process builds its reader once and takes chunk after chunk.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol, runtime_checkable

from bobing_vision.cli.arguments import positive_int

if TYPE_CHECKING:
    from bobing_vision.vision.reading import DiceReader, Reading

HELP = "read and score photos: files or folders"

ReaderFactory = Callable[[], "DiceReader"]
CSV_FIELDS = ("file", "status", "faces", "award", "message")
# Files per worker hand-off: big enough to amortise the pipe and the bowl's search (the reader keeps a
# bowl from file to file of a chunk while its rim looks the same), small enough to stream. 661 frames of
# 10 throw clips as JPEGs, 2 workers, alternated twice: 8 files 49.9 / 51.6 images/s, 16 files 53.8 / 59.0.
CHUNK = 16


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bobing score", description=HELP)
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="image files or folders (recursive)")
    parser.add_argument("--rules", default=None, metavar="R", help="a rule-set preset name or TOML file")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="one JSON object per image (JSON lines) on stdout")
    out.add_argument("--csv", type=Path, metavar="FILE", help="write one CSV row per image to FILE")
    parser.add_argument("--annotate", type=Path, metavar="DIR",
                        help="write each image with its reading drawn, the inputs' folders mirrored under DIR")
    parser.add_argument("--workers", type=positive_int, default=1, metavar="N", help="processes reading in parallel")
    parser.add_argument("--calibration", type=Path, metavar="FILE", help="a bowl from `bobing calibrate`")
    parser.add_argument("--models", type=Path, metavar="DIR", help="the ONNX models (default: models/)")
    return parser


def reading_row(file: str, reading: Reading, bowl_white: float | None = None) -> dict[str, Any]:
    """One image's JSON object: the in-bowl faces read, the award's Category name, every die, the median
    width of the dice in the bowl (null with fewer than three: `camera_advice.dice_width`), the share
    of the bowl that is pure white (null without a bowl: `camera_advice.washed_out_share`) and how far
    off vertical the camera looks at the bowl (null without one: `camera_advice.camera_tilt`)."""
    from bobing_vision.vision.camera_advice import camera_tilt, dice_width

    award = reading.award
    width = dice_width(reading)
    return {
        "file": file,
        "status": reading.status.name,
        "message": reading.message,
        "faces": list(reading.faces),
        "award": award.category.name if award is not None else None,  # type: ignore[attr-defined]
        "bowl": [round(v, 1) for v in reading.bowl.ellipse] if reading.bowl is not None else None,
        "dice_width": None if width is None else round(width, 1),
        "bowl_white": None if bowl_white is None else round(bowl_white, 3),
        "bowl_tilt": None if reading.bowl is None else round(camera_tilt(reading.bowl.ellipse), 1),
        "dice": [
            {
                "face": d.face,
                "center": [round(d.center[0], 1), round(d.center[1], 1)],
                "box": [round(v, 1) for v in d.box],
                "in_bowl": d.in_bowl,
                "readable": d.readable,
                "confidence": round(d.confidence, 3),
            }
            for d in reading.dice
        ],
    }


def error_row(file: str, reason: str) -> dict[str, Any]:
    return {"file": file, "status": "ERROR", "message": reason, "faces": [], "award": None, "bowl": None,
            "dice_width": None, "bowl_white": None, "bowl_tilt": None, "dice": [], "error": reason}


@dataclass(frozen=True)
class Drawings:
    """Where `--annotate` puts each file's drawing: the inputs' tree mirrored under `folder`, from `base`,
    the deepest folder holding every input (a folder given keeps its own name), always as a JPEG."""

    folder: Path
    base: Path

    @classmethod
    def for_inputs(cls, folder: Path, paths: list[Path]) -> Drawings:
        parents = [os.path.dirname(os.path.abspath(p)) for p in paths]
        try:
            base = os.path.commonpath(parents)
        except ValueError:  # Windows: inputs on two drives share no folder
            base = ""
        return cls(folder, Path(base))

    def path_for(self, file: Path) -> Path:
        absolute = Path(os.path.abspath(file))
        try:
            relative = absolute.relative_to(self.base)
        except ValueError:
            relative = absolute.relative_to(absolute.anchor)
        name = relative.name if relative.suffix.lower() in (".jpg", ".jpeg") else relative.name + ".jpg"
        return self.folder / relative.parent / name


@runtime_checkable
class KeepsBowl(Protocol):
    """A reader that carries the bowl from one file to the next (`OnnxDiceReader`)."""

    def forget_bowl(self) -> None: ...


class _Job:
    """What a process needs to score files: a reader built once, and where drawings go."""

    reader: DiceReader | None = None
    drawings: Drawings | None = None


def _init_worker(factory: ReaderFactory, drawings: Drawings | None) -> None:
    _start(factory(), drawings)


def _start(reader: DiceReader, drawings: Drawings | None) -> None:
    import cv2

    cv2.setNumThreads(1)  # parallelism is across processes
    _Job.reader = reader
    _Job.drawings = drawings


def score_chunk(files: list[Path]) -> list[dict[str, Any]]:
    """Consecutive files, read in order; each chunk starts with its bowl unknown, so that a file's
    reading does not depend on which worker had which chunk before (or on --workers)."""
    if isinstance(_Job.reader, KeepsBowl):
        _Job.reader.forget_bowl()
    return [score_file(file) for file in files]


def score_file(file: Path) -> dict[str, Any]:
    """Read one file with this process's reader; a bad file becomes an error row, never an exception."""
    import cv2

    from bobing_vision.errors import InvalidInput
    from bobing_vision.vision.camera_advice import washed_out_share
    from bobing_vision.vision.draw import annotate
    from bobing_vision.vision.imageio import load_image

    assert _Job.reader is not None, "_init_worker builds the reader first"
    try:
        frame = load_image(file)
        reading = _Job.reader.read(frame)
    except InvalidInput as exc:
        return error_row(str(file), str(exc))
    white = washed_out_share(frame, reading.bowl.ellipse) if reading.bowl is not None else None
    row = reading_row(str(file), reading, white)
    if _Job.drawings is not None:
        out = _Job.drawings.path_for(file)
        out.parent.mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(str(out), annotate(frame, reading)):
            return {**row, "error": f"could not write {out}"}
    return row


class OnnxFactory:
    """Builds the product reader in each process (a picklable recipe, not a reader)."""

    def __init__(self, models: Path | None, calibration: Path | None, rules: str | None) -> None:
        self.models, self.calibration, self.rules = models, calibration, rules

    def __call__(self) -> DiceReader:
        from bobing_vision.rules import RuleSet
        from bobing_vision.vision.pipeline import OnnxDiceReader

        rules = RuleSet.load(self.rules) if self.rules is not None else None
        # Photos in a folder are often one camera's: a bowl found in one is kept for the next while its
        # rim looks the same there (`vision/rim_print.py`); unrelated photos are each searched.
        return OnnxDiceReader(models_dir=self.models, bowl=self.calibration, rules=rules)


def _rows(files: list[Path], reader: DiceReader, factory: ReaderFactory, drawings: Drawings | None,
          workers: int) -> Iterator[dict[str, Any]]:
    chunks = [files[k : k + CHUNK] for k in range(0, len(files), CHUNK)]
    if workers == 1:
        _start(reader, drawings)
        for chunk in chunks:
            yield from score_chunk(chunk)
        return
    import multiprocessing

    # fork: workers start in milliseconds and inherit the imports; each builds its own reader.
    context = multiprocessing.get_context("fork")
    with context.Pool(workers, initializer=_init_worker, initargs=(factory, drawings)) as pool:
        for rows in pool.imap(score_chunk, chunks):
            yield from rows


class Progress:
    """A one-line bar on stderr when it is a terminal; rows printed to the same terminal clear it first."""

    def __init__(self, total: int, stream: IO[str]) -> None:
        self.total, self.stream, self.done, self.failed = total, stream, 0, 0
        self.live = stream.isatty()
        self.start = self.last = time.monotonic()

    def clear(self) -> None:
        if self.live:
            self.stream.write("\r\033[K")

    def step(self, failed: bool) -> None:
        self.done += 1
        self.failed += failed
        now = time.monotonic()
        if self.live and (now - self.last > 0.1 or self.done == self.total):
            self.last = now
            width = 30
            filled = width * self.done // max(1, self.total)
            rate = self.done / max(1e-9, now - self.start)
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}"
                              f"  {rate:.1f} img/s  {self.failed} failed")
            self.stream.flush()

    def summary(self) -> str:
        seconds = time.monotonic() - self.start
        rate = self.done / max(1e-9, seconds)
        return f"scored {self.done} images in {seconds:.1f} s ({rate:.1f} img/s), {self.failed} failed"


@dataclass
class Advised:
    """The photos whose rows carry one camera measure (`key`), and the measures of those that `advise`
    speaks to: the advice's own bar decides, so the tally keeps no copy of it."""

    key: str
    advise: Callable[[float], str | None]
    measured: int = 0
    past: list[float] = field(default_factory=list)

    def add(self, row: dict[str, Any]) -> None:
        value = row.get(self.key)
        if value is not None:
            self.measured += 1
            if self.advise(value) is not None:
                self.past.append(value)

    def said(self) -> str | None:
        """In how many photos, and what to do (told for the median photo of those)."""
        import statistics

        if not self.past:
            return None
        return f"in {len(self.past)} of {self.measured} photos {self.advise(statistics.median(self.past))}"


class CameraTally:
    """What the photos say about the camera, counted as rows come: dice too small to read well
    (`camera_advice.size_advice`), bowls washed out to white (`camera_advice.exposure_advice`) and seen
    too steeply (`camera_advice.tilt_advice`)."""

    def __init__(self) -> None:
        from bobing_vision.vision.camera_advice import exposure_advice, size_advice, tilt_advice

        self.tallies = (Advised("dice_width", size_advice), Advised("bowl_white", exposure_advice),
                        Advised("bowl_tilt", tilt_advice))

    def add(self, row: dict[str, Any]) -> None:
        for tally in self.tallies:
            tally.add(row)

    def advice(self) -> list[str]:
        return [said for tally in self.tallies if (said := tally.said()) is not None]


def _table_line(row: dict[str, Any]) -> str:
    faces = "".join(str(f) for f in row["faces"]) or "-"
    return f"{row['file']}\t{faces}\t{row['award'] or '-'}\t{row['message']}"


def main(argv: list[str] | None = None, *, reader_factory: ReaderFactory | None = None) -> int:
    """`reader_factory` replaces the ONNX reader (tests pass a fake); it must be picklable for --workers."""
    args = _parser().parse_args(argv)
    from bobing_vision.errors import BobingError
    from bobing_vision.vision.imageio import iter_image_files

    files = list(iter_image_files(args.paths))
    if not files:
        print(f"bobing score: expected image files, got none in {', '.join(map(str, args.paths))}", file=sys.stderr)
        return 2
    if args.annotate is not None and args.annotate.exists() and not args.annotate.is_dir():
        print(f"bobing score: expected a folder for --annotate, got the file {args.annotate}", file=sys.stderr)
        return 2
    from bobing_vision.rules import RuleSet

    try:
        if args.rules is not None:
            RuleSet.load(args.rules)  # checked here once; each worker loads its own copy
    except BobingError as exc:
        print(f"bobing score: {exc}", file=sys.stderr)
        return 2
    factory = reader_factory or OnnxFactory(args.models, args.calibration, args.rules)
    try:
        reader = factory()  # fail here, once, with one clear line, rather than in every worker
    except (BobingError, OSError) as exc:
        print(f"bobing score: cannot start the reader: {exc}", file=sys.stderr)
        return 2
    csv_file = None
    try:
        if args.csv is not None:
            csv_file = args.csv.open("w", newline="", encoding="utf-8")
        return _run(args, files, reader, factory, csv_file)
    except BrokenPipeError:  # `bobing score ... | head`: the reader of our output has had enough
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 0
    except OSError as exc:
        print(f"bobing score: {exc}", file=sys.stderr)
        return 2
    finally:
        if csv_file is not None:
            csv_file.close()


def _run(args: argparse.Namespace, files: list[Path], reader: DiceReader, factory: ReaderFactory,
         csv_file: IO[str] | None) -> int:
    writer = csv.DictWriter(csv_file, fieldnames=CSV_FIELDS, extrasaction="ignore") if csv_file else None
    if writer is not None:
        writer.writeheader()
    if not args.json and writer is None:
        print("file\tfaces\taward\tstatus")
    progress = Progress(len(files), sys.stderr)
    failures: list[str] = []
    camera = CameraTally()
    drawings = Drawings.for_inputs(args.annotate, args.paths) if args.annotate is not None else None
    for row in _rows(files, reader, factory, drawings, min(args.workers, len(files))):
        camera.add(row)
        if "error" in row:
            failures.append(f"  {row['error']}" if row["error"].startswith(row["file"]) else
                            f"  {row['file']}: {row['error']}")
        progress.clear()
        if args.json:
            print(json.dumps(row, ensure_ascii=False))
        elif writer is not None:
            writer.writerow({**row, "faces": "".join(map(str, row["faces"])), "award": row["award"] or ""})
        else:
            print(_table_line(row))
        progress.step("error" in row)
    progress.clear()
    print(progress.summary(), file=sys.stderr)
    for advice in camera.advice():
        print(f"bobing score: {advice}", file=sys.stderr)
    if failures:
        print(f"bobing score: {len(failures)} file(s) could not be scored:", file=sys.stderr)
        print("\n".join(failures), file=sys.stderr)
    return 1 if failures else 0
