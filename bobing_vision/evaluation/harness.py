"""Run any `DiceReader` over a labelled set (DATA.md format) and score it.

Only the reader's own call is timed (not the file's loading). Missing, unreadable and corrupt files
are named in `Evaluation.failed` and the run goes on; so does an image the reader rejects as bad
input. Failed images are not in the ratios — the report shows how many there were.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path, PurePath

import numpy as np

from bobing_vision.dataset.labels import ImageLabel, load_labels
from bobing_vision.errors import InvalidInput
from bobing_vision.evaluation.matching import MatchConfig, match_dice, median_width, typical_width
from bobing_vision.evaluation.pip_contrast import pip_contrast
from bobing_vision.evaluation.scoring import Evaluation, FailedFile, ImageResult
from bobing_vision.vision.imageio import ImageFileError, iter_image_files, load_image
from bobing_vision.vision.reading import DiceReader

# Called with each scored image and its result, e.g. to draw the mistakes; not for failed files.
ImageSink = Callable[[np.ndarray, ImageResult], None]


def image_path(folder: Path, name: str) -> Path:
    """The file a label names, refusing names that would leave the set's folder."""
    pure = PurePath(name)
    if pure.is_absolute() or ".." in pure.parts or not pure.parts:
        raise InvalidInput(f"expected an image name inside the set's folder, got {name!r}")
    return folder / pure


def score_image(
    file: str,
    label: ImageLabel,
    frame: np.ndarray,
    reader: DiceReader,
    set_width: float | None,
    config: MatchConfig = MatchConfig(),
    clock: Callable[[], float] = time.perf_counter,
) -> ImageResult:
    start = clock()
    reading = reader.read(frame)
    seconds = clock() - start
    width = typical_width(label.dice, reading.dice, set_width)
    match = match_dice(label.dice, reading.dice, width, config)
    contrasts = tuple(pip_contrast(frame, die) for die in label.dice) if any(d.pips for d in label.dice) else ()
    return ImageResult(file=file, labels=label.dice, reading=reading, match=match, seconds=seconds, rim=label.bowl,
                       dice_kind=label.dice_kind, pip_contrasts=contrasts)


def evaluate(
    folder: Path | str,
    reader: DiceReader,
    *,
    limit: int | None = None,
    on_image: ImageSink | None = None,
    config: MatchConfig = MatchConfig(),
    clock: Callable[[], float] = time.perf_counter,
) -> Evaluation:
    """Score `reader` on the labelled set in `folder`: the first `limit` labelled images by name.

    A missing or malformed labels.json raises InvalidInput; a bad image file does not.
    """
    folder = Path(folder)
    labels = load_labels(folder)
    if limit is not None and limit < 1:
        raise InvalidInput(f"expected a limit of at least 1 image, got {limit}")
    # DATA.md's second choice of typical die width: the median labelled box over the whole set.
    set_width = median_width(d.size for label in labels.values() for d in label.dice)
    names = sorted(labels)[:limit]
    results: list[ImageResult] = []
    failed: list[FailedFile] = []
    for name in names:
        try:
            frame = load_image(image_path(folder, name))
            result = score_image(name, labels[name], frame, reader, set_width, config, clock)
        except ImageFileError as exc:
            failed.append(FailedFile(file=name, reason=exc.reason))
            continue
        except InvalidInput as exc:  # a name leaving the folder, or a frame the reader refuses
            failed.append(FailedFile(file=name, reason=str(exc)))
            continue
        results.append(result)
        if on_image is not None:
            on_image(frame, result)
    found = (p.relative_to(folder).as_posix() for p in iter_image_files([folder]))
    unlabelled = tuple(name for name in found if name not in labels)
    return Evaluation(results=tuple(results), failed=tuple(failed), unlabelled=unlabelled)
