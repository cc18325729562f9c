"""What a reading of one throw would have made the table announce, against the throw's labels.

Die scores say how well dice are read; this says what a player hears. The costly error is a wrong
award: a misread that nobody questions. An honest "please look" (a die unreadable, not six dice
seen) costs a glance. Only images of one throw (six labelled dice) are judged.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from bobing_vision.dataset.labels import DieLabel
from bobing_vision.rules import Award, classify
from bobing_vision.rules.throw import DICE
from bobing_vision.vision.reading import Reading, ReadingStatus


class Verdict(enum.Enum):
    RIGHT_AWARD = "right_award"  # the throw's award (an exact tie under the rules counts as right)
    WRONG_AWARD = "wrong_award"  # another award, or any award for a throw that was void
    RIGHT_VOID = "right_void"  # a die was out of the bowl and the throw was called void
    FALSE_VOID = "false_void"  # every die was in the bowl but the throw was called void
    REFUSED = "refused"  # no verdict: a die unreadable, not six dice seen, no bowl


# What the table hears wrong: the throws a reader must not score, whatever it gains elsewhere.
WRONG_VERDICTS = frozenset({Verdict.WRONG_AWARD, Verdict.FALSE_VOID})


def judge(labels: Sequence[DieLabel], reading: Reading) -> Verdict | None:
    """The verdict on one throw's image; None for images that are not one throw of six dice."""
    if len(labels) != DICE:
        return None
    void = any(d.in_bowl is False for d in labels)
    if reading.status is ReadingStatus.OUT_OF_BOWL:
        return Verdict.RIGHT_VOID if void else Verdict.FALSE_VOID
    if reading.status is not ReadingStatus.OK or not isinstance(reading.award, Award):
        return Verdict.REFUSED
    if void:
        return Verdict.WRONG_AWARD
    truth = classify([d.face for d in labels], reading.award.rules)
    return Verdict.RIGHT_AWARD if reading.award == truth else Verdict.WRONG_AWARD
