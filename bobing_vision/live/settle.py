"""When has a throw settled? A pure state machine over (motion, time) and the readings it asks for.

It never touches pixels (`live.motion` turns frames into a motion figure) nor the clock (times come
with the frames), so every case is a short list of numbers in a test.

    WAITING --motion--> MOVING --still--> SETTLING --still for settle time, two reads agree--> DONE
       ^                   ^                  |                                                  |
       |                   +----motion--------+                                                  |
       +---------------------------------------------------- a new throw's motion --------------+

Reading starts a little before the settle time: once two consecutive still frames read alike, no
more reads are needed, and the verdict comes on the first frame past the settle time without any
read at all (the dice have not moved since, or the settling would have started again). A reader
that disagrees with itself keeps being asked, frame by frame, up to `max_reads`.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, replace

from bobing_vision.errors import InvalidInput
from bobing_vision.vision.reading import Reading, ReadingStatus

# A throw's result: an award, a void throw, or a die a person must look at. Other statuses (no bowl,
# not six dice) are what a hand resting in the bowl or an empty bowl looks like: no result.
RESULT_STATUSES = frozenset({ReadingStatus.OK, ReadingStatus.OUT_OF_BOWL, ReadingStatus.UNREADABLE})
# Readings that the next frames may well improve on (a borderline die, a die lost in glare for a frame).
UNSURE_STATUSES = frozenset({ReadingStatus.UNREADABLE, ReadingStatus.WRONG_DICE_COUNT})


@dataclass(frozen=True)
class SettleConfig:
    """Thresholds of the settle detector, each with the reason for its value."""

    settle_seconds: float = 0.5  # dice that have not moved for half a second have stopped; people wait no longer
    start_motion: float = 0.004  # share of bowl pixels changed that starts a throw: one die tumbling is ~0.5%
    still_motion: float = 0.0015  # below this the bowl is still; lower than start_motion so a rocking die is "moving"
    early_read_s: float = 0.1  # start reading this much before the settle time (at least 2.5 frames): confirmed by then
    max_reads: int = 8  # reads that never agree twice running in this many: unsteady, ask a person instead
    unsure_patience_s: float = 0.5  # an unreadable or missing die may read on the next frames: look this long first (0: off)
    same_dice_px: float = 6.0  # a die within this of where a die lay at the last result has not been thrown
    min_moved_dice: int = 3  # a throw moves all six; fewer moved is a bump or a hand tidying the dice

    def __post_init__(self) -> None:
        if not (0.05 <= self.settle_seconds <= 10.0):
            raise InvalidInput(f"expected a settle time of 0.05..10 seconds, got {self.settle_seconds}")
        if not (0.0 <= self.still_motion <= self.start_motion <= 1.0):
            raise InvalidInput(f"expected 0 <= still_motion <= start_motion <= 1, got {self.still_motion}, {self.start_motion}")
        if self.unsure_patience_s < 0:
            raise InvalidInput(f"expected an unsure-reading patience of 0 or more seconds, got {self.unsure_patience_s}")
        if self.max_reads < 2:
            raise InvalidInput(f"expected max_reads >= 2 (a read is confirmed by a second), got {self.max_reads}")


class Phase(enum.Enum):
    WAITING = "waiting"  # no throw yet (dice already lying in the bowl at start-up are not a throw)
    MOVING = "moving"
    SETTLING = "settling"
    DONE = "done"  # this throw has had its verdict; only new motion starts another


class Step(enum.Enum):
    """What the loop should do with the frame it just measured."""

    NOTHING = "nothing"
    THROW_STARTED = "throw_started"
    MOVING = "moving"
    STILL = "still"
    READ = "read"  # read this frame and pass the reading to `observe`
    DECIDE = "decide"  # settled, and the reads agreed: call `decide` for the verdict


class VerdictKind(enum.Enum):
    RESULT = "result"  # announce: award, void (out of bowl) or "can't read die N"
    NOT_DICE = "not_dice"  # still, but not six dice: a hand in the bowl, an empty bowl
    UNSTEADY = "unsteady"  # reads kept disagreeing: no announcement, a person should look
    SAME_DICE = "same_dice"  # the last result's dice, bumped or touched by hand: not a new throw


@dataclass(frozen=True)
class Verdict:
    kind: VerdictKind
    reading: Reading
    t: float


def reading_key(reading: Reading) -> tuple[object, ...]:
    """What two reads must share to agree: the status, the in-bowl faces, which dice are out or unreadable."""
    marks = tuple(sorted((d.in_bowl, d.face is not None) for d in reading.dice))
    return (reading.status, reading.faces, marks)


def moved_dice(before: Reading, after: Reading, tolerance_px: float) -> int:
    """How many dice of `after` lie farther than `tolerance_px` from every die of `before`."""
    if not before.dice:
        return len(after.dice)
    return sum(1 for d in after.dice if min(math.dist(d.center, e.center) for e in before.dice) > tolerance_px)


def is_new_throw(previous: Reading | None, reading: Reading, config: SettleConfig) -> bool:
    """A throw moves (nearly) every die; dice mostly where the last result left them are not one.

    That covers a bump of the table, a hand lifted off the dice, and a die that left the bowl being
    put back. One exception: the last result was "can't read a die" and now the same dice can be
    read (someone turned the bowl to the light, or nudged the die): that is the same throw, resolved.
    """
    if previous is None or moved_dice(previous, reading, config.same_dice_px) >= config.min_moved_dice:
        return True
    return previous.status is ReadingStatus.UNREADABLE and reading.status is not ReadingStatus.UNREADABLE


class SettleDetector:
    """Feed `update(motion, t)` every frame; on READ pass that frame's reading to `observe` (which may
    return a verdict); on DECIDE call `decide(t)` for the verdict."""

    def __init__(self, config: SettleConfig = SettleConfig()) -> None:
        self.config = config
        self.phase = Phase.WAITING
        self._still_since = 0.0
        self._last_t: float | None = None
        self._frame_dt = 0.0
        self._reads = 0
        self._last_key: tuple[object, ...] | None = None
        self._confirmed: Reading | None = None  # two consecutive reads agreed on this
        self._last_result: Reading | None = None

    def _start_settling(self, t: float) -> None:
        self.phase = Phase.SETTLING
        self._still_since = t
        self._reads = 0
        self._last_key = None
        self._confirmed = None

    def update(self, motion: float, t: float) -> Step:
        previous_t = self._last_t if self._last_t is not None else t
        if t > previous_t:
            self._frame_dt = t - previous_t
        self._last_t = t
        cfg = self.config
        if self.phase in (Phase.WAITING, Phase.DONE):
            if motion >= cfg.start_motion:
                self.phase = Phase.MOVING
                return Step.THROW_STARTED
            return Step.NOTHING
        if motion > cfg.still_motion:
            self.phase = Phase.MOVING
            return Step.MOVING
        if self.phase is Phase.MOVING:
            # No change since the previous frame: the dice have lain still since that frame was taken.
            self._start_settling(previous_t)
        still_for = t - self._still_since
        if self._confirmed is not None:
            return Step.DECIDE if still_for >= cfg.settle_seconds else Step.STILL
        lead = max(cfg.early_read_s, 2.5 * self._frame_dt)
        return Step.READ if still_for >= cfg.settle_seconds - lead else Step.STILL

    def observe(self, reading: Reading, t: float) -> Verdict | None:
        """The reading of the frame `update` asked for; a verdict when that decides the throw."""
        if self.phase is not Phase.SETTLING or self._confirmed is not None:
            raise InvalidInput(f"expected a reading only after update() said READ, got one in phase {self.phase.value}")
        key = reading_key(reading)
        if key == self._last_key:
            if self._keep_looking(reading, t):
                return None
            self._confirmed = reading
            return self.decide(t) if t - self._still_since >= self.config.settle_seconds else None
        self._last_key = key
        self._reads += 1
        if self._reads >= self.config.max_reads:
            self.phase = Phase.DONE
            # Where the dice lie is known even if their faces are not: like "can't read a die", so the
            # same dice read steadily later (or entered by hand: `settled_by_hand`) count once.
            self._last_result = replace(reading, status=ReadingStatus.UNREADABLE)
            return Verdict(VerdictKind.UNSTEADY, reading, t)
        return None

    def _keep_looking(self, reading: Reading, t: float) -> bool:
        """An unsure reading, even one read twice alike, is confirmed only once the patience is spent."""
        if self.config.unsure_patience_s <= 0 or reading.status not in UNSURE_STATUSES:
            return False
        return t < self._still_since + self.config.settle_seconds + self.config.unsure_patience_s

    def decide(self, t: float) -> Verdict:
        """The verdict on the confirmed reading, once `update` said DECIDE (or `observe` confirmed late)."""
        reading = self._confirmed
        if self.phase is not Phase.SETTLING or reading is None:
            raise InvalidInput(f"expected a decision only after update() said DECIDE, got one in phase {self.phase.value}")
        self.phase = Phase.DONE
        if reading.status not in RESULT_STATUSES:
            return Verdict(VerdictKind.NOT_DICE, reading, t)
        if not is_new_throw(self._last_result, reading, self.config):
            return Verdict(VerdictKind.SAME_DICE, reading, t)
        self._last_result = reading
        return Verdict(VerdictKind.RESULT, reading, t)

    def settled_by_hand(self) -> None:
        """A person entered the last result's throw (unreadable or unsteady): reading those dice again is no throw."""
        if self._last_result is not None and self._last_result.status is ReadingStatus.UNREADABLE:
            self._last_result = replace(self._last_result, status=ReadingStatus.OK)

    @property
    def still_since(self) -> float:
        """When the current still period began (meaningful while SETTLING or just DONE)."""
        return self._still_since
