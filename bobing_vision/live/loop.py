"""The capture loop: source -> motion -> settle detector -> reader -> table game -> announcers.

One thread owns the game: commands typed at the terminal or posted by the booth page are queued
(`submit`) and applied between frames, so a correction never races a throw.
"""

from __future__ import annotations

import enum
import queue
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from bobing_vision.errors import BobingError, InvalidInput
from bobing_vision.game.outcome import Outcome as GameOutcome
from bobing_vision.live.announce import Announcement, Announcer, Outcome, TableView, award_words
from bobing_vision.live.events import EventSink, announcement_json
from bobing_vision.live.motion import MotionConfig, MotionMeter
from bobing_vision.live.settle import SettleConfig, SettleDetector, Step, Verdict, VerdictKind
from bobing_vision.live.sources import Frame, FrameSource, NoticeKind, SourceNotice
from bobing_vision.live.table import TableSession
from bobing_vision.rules import Throw
from bobing_vision.vision.bowl import rim_in_view
from bobing_vision.vision.camera_advice import (
    SizeAdvice, camera_tilt, dice_width, exposure_advice, rim_advice, size_advice, tilt_advice, washed_out_share,
)
from bobing_vision.vision.reading import DiceReader, Reading, ReadingStatus


@dataclass(frozen=True)
class LoopConfig:
    """The loop's settings; the detectors' own thresholds live in their configs."""

    settle: SettleConfig = field(default_factory=SettleConfig)
    motion: MotionConfig = field(default_factory=MotionConfig)
    preview_interval_s: float = 1 / 15  # pictures for the window/booth at most 15 a second: drawing every frame costs a core
    idle_wait_s: float = 0.1  # after a file ends (booth), how often queued commands are looked at
    dice_size: SizeAdvice = field(default_factory=SizeAdvice)
    # Dice too small to read well are said once per camera view: again only when their size changes by
    # this share (the camera was moved, perhaps not far enough).
    size_advice_change: float = 0.2
    # A rim running off the frame is said once per camera view too: again only when the share of it in
    # view changes by this much.
    rim_advice_change: float = 0.1
    # A washed-out bowl likewise: again only when its pure-white share changes by this much.
    exposure_advice_change: float = 0.15
    # A camera looking at the bowl too steeply likewise: again only when its angle changes by this many degrees.
    tilt_advice_change: float = 5.0
    # Each is forgotten after this many verdicts in a row with nothing to advise, and said again if it
    # comes back; fewer would repeat it for a measure hovering at its bar.
    advice_forgotten_after: int = 3


class CommandKind(enum.Enum):
    CORRECT = "c"  # the last throw's faces were misread (or, after "please look", enter the throw)
    VOID = "v"  # the last throw is void (or, after "please look", the throw is void)
    THROW = "t"  # a throw the camera missed, for whoever's turn it is
    NEW_GAME = "n"
    QUIT = "q"


@dataclass(frozen=True)
class Command:
    kind: CommandKind
    faces: tuple[int, ...] | None = None


COMMAND_HELP = (
    "keys: `c 444411` correct the last throw, `v` void it, `t 444411` a throw the camera missed, "
    "`n` new game, `q` quit"
)
FACES_NEEDED = (CommandKind.CORRECT, CommandKind.THROW)


def parse_command(text: str) -> Command:
    """'c 444411' / 'c 4 4 4 4 1 1' (correct), 'v' (void), 't 444411' (a missed throw), 'n', 'q'."""
    words = text.strip().split(maxsplit=1)
    key = words[0].lower() if words else ""
    kinds = {k.value: k for k in CommandKind}
    if key not in kinds:
        raise InvalidInput(f"expected {COMMAND_HELP}, got {text.strip()!r}")
    kind = kinds[key]
    if kind in FACES_NEEDED:
        if len(words) < 2:
            raise InvalidInput(f"expected six faces after {key}, like `{key} 444411`, got {text.strip()!r}")
        return Command(kind, Throw.parse(words[1]).faces)
    return Command(kind)


@dataclass
class SaidOnce:
    """Camera advice is said once per view: again only when its measure has moved by `change` (a share of
    the last measure said, if `relative`), as when the camera was moved, perhaps not far enough; or when
    it comes back after `forget_after` verdicts in a row with nothing to advise (the sun came round again)."""

    change: float
    relative: bool = False
    forget_after: int = 3
    said: float | None = None  # the measure when the advice was last said
    fine: int = 0  # verdicts in a row with nothing to advise since then

    def due(self, measure: float) -> bool:
        last = self.said
        self.fine = 0
        if last is not None and abs(measure - last) <= self.change * (abs(last) if self.relative else 1.0):
            return False
        self.said = measure
        return True

    def well(self) -> None:
        """A verdict with nothing to advise."""
        self.fine += 1
        if self.fine >= self.forget_after:
            self.said = None


@dataclass
class LoopStats:
    """Counters only (no lists that grow): a loop can run for hours."""

    frames: int = 0
    reads: int = 0
    announcements: int = 0
    read_seconds: float = 0.0
    last_latency_ms: float | None = None
    source_ended: bool = False


class LiveLoop:
    """Run `run()` in one thread; `submit()` and `stop()` may be called from any other."""

    def __init__(
        self,
        source: FrameSource,
        reader: DiceReader,
        table: TableSession,
        announcers: Sequence[Announcer],
        events: EventSink | None = None,
        config: LoopConfig = LoopConfig(),
    ) -> None:
        self.source = source
        self.reader = reader
        self.table = table
        self.announcers = tuple(announcers)
        self.events = events
        self.config = config
        self.stats = LoopStats()
        self.last: Announcement | None = None
        self.view: TableView = table.view()
        self._meter = MotionMeter(config.motion, still_share=config.settle.still_motion)
        self._detector = SettleDetector(config.settle)
        self._commands: queue.SimpleQueue[Command] = queue.SimpleQueue()
        self._stop = threading.Event()
        self._pending_look = False  # the last result was "can't read": nothing recorded yet
        self._shown: Reading | None = None  # the reading drawn on previews while the dice lie still
        self._last_preview = float("-inf")
        self._picture: np.ndarray | None = None  # the last picture shown, redrawn with the new table after a command
        self._received = 0.0
        forget = config.advice_forgotten_after
        self._size_said = SaidOnce(config.size_advice_change, relative=True, forget_after=forget)
        self._rim_said = SaidOnce(config.rim_advice_change, forget_after=forget)
        self._exposure_said = SaidOnce(config.exposure_advice_change, forget_after=forget)
        self._tilt_said = SaidOnce(config.tilt_advice_change, forget_after=forget)

    # -- control from other threads --------------------------------------------------------------
    def submit(self, command: Command) -> None:
        self._commands.put(command)

    def stop(self) -> None:
        self._stop.set()
        self.source.close()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    # -- the loop --------------------------------------------------------------------------------
    def run(self, linger: bool = False) -> LoopStats:
        """Until the source ends (then, with `linger`, keep serving commands until `stop()`)."""
        try:
            for item in self.source.items():
                self._drain_commands()
                if self._stop.is_set():
                    break
                if isinstance(item, SourceNotice):
                    self._source_notice(item)
                else:
                    self._frame(item)
            else:
                self.stats.source_ended = True
            while linger and not self._stop.is_set():
                self._drain_commands(wait=self.config.idle_wait_s)
            self._drain_commands()
        finally:
            self.source.close()
        return self.stats

    def _source_notice(self, notice: SourceNotice) -> None:
        self._emit("source", kind=notice.kind.value, message=notice.message)
        if notice.kind is NoticeKind.ENDED:
            self.stats.source_ended = True
        self._notice(notice.message)

    def _frame(self, frame: Frame) -> None:
        self._received = time.perf_counter()
        self.stats.frames += 1
        step = self._detector.update(self._meter.measure(frame.image), frame.t)
        if step is Step.THROW_STARTED:
            self._shown = None
            self._emit("throw_started", t=round(frame.t, 3), frame=frame.index)
        elif step is Step.READ:
            started = time.perf_counter()
            try:
                reading = self.reader.read(frame.image)
            except BobingError as exc:  # one bad frame must not end an evening's game: the next frame is read
                self._notice(f"frame {frame.index} could not be read: {exc}")
                return
            self.stats.reads += 1
            self.stats.read_seconds += time.perf_counter() - started
            if reading.bowl is not None:  # keep watching the last bowl seen when a read misses it
                self._meter.watch_bowl(reading.bowl)
            verdict = self._detector.observe(reading, frame.t)
            if verdict is not None:
                self._verdict(verdict, frame)
        elif step is Step.DECIDE:
            self._verdict(self._detector.decide(frame.t), frame)
        self._preview(frame)

    def _preview(self, frame: Frame) -> None:
        if not self.announcers or frame.t - self._last_preview < self.config.preview_interval_s:
            return
        self._last_preview = frame.t
        picture = frame.image
        if self._shown is not None:
            from bobing_vision.vision.draw import annotate

            picture = annotate(picture, self._shown)
        self._picture = picture
        self._redraw()

    def _redraw(self) -> None:
        if self._picture is None:
            return
        for announcer in self.announcers:
            announcer.frame(self._picture, self.view, self.last)

    # -- verdicts -> game -> announcements -------------------------------------------------------
    def _verdict(self, verdict: Verdict, frame: Frame) -> None:
        reading = verdict.reading
        self._emit(
            "settled", t=round(frame.t, 3), frame=frame.index, verdict=verdict.kind.value,
            status=reading.status.name.lower(), faces=list(reading.faces),
        )
        if verdict.kind is VerdictKind.SAME_DICE:
            return  # a bump of the dice already scored: nothing to say
        self._shown = reading
        self._advise_camera(reading, frame.image)
        if verdict.kind is VerdictKind.NOT_DICE:
            self._notice(f"still, but {reading.message}: no throw (if it was one: `t FACES`)")
            return
        if verdict.kind is VerdictKind.UNSTEADY:
            self._pending_look = True
            self._notice(f"{self.table.turn}: the reading keeps changing — please look (`c FACES` enters the throw)")
            return
        if reading.status is ReadingStatus.UNREADABLE:
            self._pending_look = True
            player = self.table.turn
            text = f"{player}: {reading.message} (`c FACES` enters it, or throw again)"
            self._announce(Announcement(Outcome.LOOK, player, reading.faces, reading.status, None, None, text, frame.t))
            return
        faces = reading.faces if reading.status is ReadingStatus.OK else None
        self._play(faces, correction=False, t=frame.t)

    def _advise_camera(self, reading: Reading, image: np.ndarray) -> None:
        """Tell the operator what to change when the camera sees the dice too small, the rim cut by the
        frame, the bowl washed out to white or seen too steeply: each once per camera view."""
        width = dice_width(reading)
        if width is not None:
            self._advise(self._size_said, width, size_advice(width, self.config.dice_size))
        if reading.bowl is not None:
            in_view = rim_in_view(reading.bowl.ellipse, image.shape[1], image.shape[0])
            self._advise(self._rim_said, in_view, rim_advice(in_view))
            white = washed_out_share(image, reading.bowl.ellipse)
            self._advise(self._exposure_said, white, exposure_advice(white))
            tilt = camera_tilt(reading.bowl.ellipse)
            self._advise(self._tilt_said, tilt, tilt_advice(tilt))

    def _advise(self, said: SaidOnce, measure: float, advice: str | None) -> None:
        if advice is None:
            said.well()
        elif said.due(measure):
            self._notice(advice)

    def _play(self, faces: tuple[int, ...] | None, correction: bool, t: float) -> None:
        """A throw (or a correction of the last one) into the game, then its announcement."""
        player = self.table.turn
        if self.table.game.over and not correction:
            self._notice(f"game over ({self.view.over}): this throw is not counted; `n` starts a new game")
            return
        try:
            result = self.table.correct(faces) if correction else self.table.throw(faces)
        except BobingError as exc:  # the game refused it (over, nothing to correct): say why
            self._notice(str(exc))
            return
        self._pending_look = False
        if result.seat is not None:
            player = self.table.game.players[result.seat]
        self.view = self.table.view()
        self._announce(self._words(result, player, faces, correction, t))

    def _words(
        self, result: GameOutcome, player: str | None, faces: tuple[int, ...] | None, correction: bool, t: float
    ) -> Announcement:
        prize = self.table.prize_words(result)
        status = ReadingStatus.OK
        if result.voided:
            outcome, text = Outcome.VOIDED, f"{player}: last throw voided by the operator"
        elif result.award is None:
            outcome = Outcome.VOID
            text = f"{player}: {ReadingStatus.OUT_OF_BOWL.value}"
            if self.table.game.rules.out_of_bowl_skips_next_turn:
                text += " (misses the next turn)"
            status = ReadingStatus.OUT_OF_BOWL
        else:
            outcome = Outcome.CORRECTED if correction else Outcome.AWARD
            shown = "".join(map(str, result.award.faces))
            text = f"{player}: {shown} {award_words(result.award)} — {prize or 'no prize'}"
            if correction:
                text = f"corrected: {text}"
        if self.view.over:
            text += f" — game over: {self.view.over}"
        elif self.view.turn:
            text += f" — next: {self.view.turn}"
        return Announcement(outcome, player, faces or (), status, result.award, prize, text, t)

    def _announce(self, announcement: Announcement) -> None:
        self.last = announcement
        self.stats.announcements += 1
        latency = (time.perf_counter() - self._received) * 1000.0
        self.stats.last_latency_ms = latency
        self._emit("announced", **announcement_json(announcement), turn=self.view.turn,
                   zhuangyuan=self.view.zhuangyuan, over=self.view.over, latency_ms=round(latency, 1))
        for announcer in self.announcers:
            announcer.announce(announcement, self.view)

    def _notice(self, message: str) -> None:
        self._emit("notice", message=message)
        for announcer in self.announcers:
            announcer.notice(message)

    def _emit(self, event: str, **fields: object) -> None:
        if self.events is not None:
            self.events.emit(event, **fields)

    # -- commands --------------------------------------------------------------------------------
    def _drain_commands(self, wait: float | None = None) -> None:
        while True:
            try:
                command = self._commands.get(timeout=wait) if wait else self._commands.get_nowait()
            except queue.Empty:
                return
            wait = None
            try:
                self._command(command)
            except BobingError as exc:  # e.g. a new game's journal cannot be written: say so, keep going
                self._notice(str(exc))
            self._redraw()

    def _command(self, command: Command) -> None:
        t = self.last.t if self.last else 0.0
        self._received = time.perf_counter()  # an announcement's latency counts from what caused it
        if command.kind is CommandKind.QUIT:
            self.stop()
        elif command.kind is CommandKind.NEW_GAME:
            self.table.new_game()
            self._pending_look = False
            self.last = None
            self.view = self.table.view()
            self._notice(f"new game: {self.view.turn} throws first")
        elif command.kind is CommandKind.THROW:
            self._play(command.faces, correction=False, t=t)
        else:
            if self._pending_look:
                self._detector.settled_by_hand()
            faces = command.faces if command.kind is CommandKind.CORRECT else None
            self._play(faces, correction=not self._pending_look, t=t)
