"""Scores any `DiceReader` on a labelled set in the DATA.md format.

`evaluate(folder, reader) -> Evaluation`; `to_json` / `format_table` render it; pictures of the
mistakes are in `bobing_vision.evaluation.draw` (imports OpenCV, so not loaded here).
"""

from bobing_vision.evaluation.harness import evaluate
from bobing_vision.evaluation.matching import Match, MatchConfig, match_dice, typical_width
from bobing_vision.evaluation.report import format_table, to_json
from bobing_vision.evaluation.scoring import DiePair, Evaluation, FailedFile, ImageResult

__all__ = [
    "DiePair",
    "Evaluation",
    "FailedFile",
    "ImageResult",
    "Match",
    "MatchConfig",
    "evaluate",
    "format_table",
    "match_dice",
    "to_json",
    "typical_width",
]
