"""The table's game as a pure state machine: `Game.apply(event) -> Outcome`, no I/O.

The state after any sequence of events depends on the events only, so a journal that records them
replays to the identical state. A correction rewinds to the state before the last throw and applies
the replacement (or nothing, for a void), so it replays identically too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from bobing_vision.errors import InvalidInput
from bobing_vision.game.events import Correction, Event, StartThrow, ThrowEvent
from bobing_vision.game.outcome import Claim, Ending, Outcome
from bobing_vision.game.prizes import (
    LOWER_TIERS,
    TIERS,
    Ledger,
    PrizeNames,
    Transfer,
    apply_all,
    as_mapping,
    pool_counts,
)
from bobing_vision.game.seating import Seating, validate_players
from bobing_vision.rules import (
    Award,
    Category,
    Direction,
    ExhaustedTier,
    RedSixEnding,
    RuleSet,
    Tier,
    classify,
)

BLACK_SIX = frozenset({Category.LIU_BO_HEI, Category.BIAN_DI_JIN})  # six of a face other than 4 (seed 004)


@dataclass(frozen=True)
class TableState:
    """Everything that changes during a game; equal states mean equal games."""

    start_seat: int | None  # None until the start throw
    turn: int  # turns since the start, skipped ones included; seat and round follow from it
    throws: int  # throws made (out of bowl included), for the earlier-throw tie-break
    ledger: Ledger
    claims: tuple[Claim | None, ...]  # each seat's counted 状元
    skips: tuple[bool, ...]  # seats that miss their next turn (out of bowl)
    final_round: int | None  # 0-based round that ends the game, once fixed
    ending: Ending | None


def best_claim(claims: Iterable[Claim | None]) -> Claim | None:
    """The best 状元 among the claims; an exact tie goes to the earlier throw."""
    best: Claim | None = None
    for claim in claims:
        if claim is None:
            continue
        if best is None or claim.award > best.award or (claim.award == best.award and claim.throw_no < best.throw_no):
            best = claim
    return best


class Game:
    """One table: seats, turns, the 63 prizes, the provisional 状元, and how the game ends."""

    def __init__(self, players: Sequence[str], rules: RuleSet | None = None, prizes: PrizeNames | None = None) -> None:
        self.rules = rules if rules is not None else RuleSet.preset(RuleSet.presets()[0])
        step = 1 if self.rules.direction is Direction.CLOCKWISE else -1
        self.seating = Seating(validate_players(players), step)
        self.prizes = prizes if prizes is not None else PrizeNames()
        pool = pool_counts({tier: self.rules.prize_count(tier) for tier in TIERS})
        seats = self.seating.size
        self._state = TableState(
            start_seat=None,
            turn=0,
            throws=0,
            ledger=Ledger.new(pool, seats),
            claims=(None,) * seats,
            skips=(False,) * seats,
            final_round=None,
            ending=None,
        )
        self._before: list[TableState] = []  # the state before each standing throw, for corrections
        self._throws: list[ThrowEvent] = []  # the standing throws, corrections applied
        self._log: list[Event] = []  # every event applied, as the journal records them

    @classmethod
    def replay(
        cls, players: Sequence[str], rules: RuleSet, prizes: PrizeNames, events: Iterable[Event]
    ) -> Game:
        game = cls(players, rules, prizes)
        for event in events:
            game.apply(event)
        return game

    # --- reading the state -------------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return self.seating.players

    @property
    def state(self) -> TableState:
        return self._state

    @property
    def log(self) -> tuple[Event, ...]:
        """Every event applied so far, corrections included (what the journal holds)."""
        return tuple(self._log)

    @property
    def started(self) -> bool:
        return self._state.start_seat is not None

    @property
    def over(self) -> bool:
        return self._state.ending is not None

    @property
    def ending(self) -> Ending | None:
        return self._state.ending

    @property
    def current_seat(self) -> int | None:
        """Whose turn it is; None before the start throw and after the end."""
        start = self._state.start_seat
        if start is None or self.over:
            return None
        return self.seating.seat_at(start, self._state.turn)

    @property
    def current_player(self) -> str | None:
        seat = self.current_seat
        return None if seat is None else self.players[seat]

    @property
    def round(self) -> int:
        """1-based round of the current turn."""
        return self.seating.round_of(self._state.turn) + 1

    @property
    def in_final_round(self) -> bool:
        return self._state.final_round is not None and not self.over

    @property
    def champion(self) -> Claim | None:
        """The provisional 状元 (final once the game is over)."""
        return best_claim(self._state.claims)

    @property
    def remaining(self) -> dict[Tier, int]:
        """Prizes still on the table, per tier (the 状元 prize stays until the end)."""
        return as_mapping(self._state.ledger.pool)

    def holdings(self, seat: int) -> dict[Tier, int]:
        return as_mapping(self._state.ledger.held[self.seating.validate_seat(seat)])

    @property
    def shared(self) -> dict[Tier, int]:
        """Prizes shared by the whole table (lights out, or what a 红六勃 leaves)."""
        return as_mapping(self._state.ledger.shared)

    def history(self) -> tuple[tuple[int, ThrowEvent], ...]:
        """The standing throws, each with the seat that threw it."""
        start = self._state.start_seat
        if start is None:
            return ()
        seats = (self.seating.seat_at(start, before.turn) for before in self._before)
        return tuple(zip(seats, self._throws))

    # --- applying events ---------------------------------------------------------------------

    def apply(self, event: Event) -> Outcome:
        """Apply one event; bad events raise InvalidInput and change nothing."""
        if isinstance(event, StartThrow):
            outcome = self._start(event)
        elif isinstance(event, ThrowEvent):
            outcome = self._throw(event)
        elif isinstance(event, Correction):
            outcome = self._correct(event)
        else:
            raise InvalidInput(f"expected a StartThrow, ThrowEvent or Correction, got {type(event).__name__}")
        self._log.append(event)
        return outcome

    def _start(self, event: StartThrow) -> Outcome:
        if self.started:
            raise InvalidInput("expected a throw, got a second start throw")
        seat = self.seating.starting_seat(event.thrower, event.dice)
        self._state = replace(self._state, start_seat=seat)
        return Outcome(seat=None, award=None, next_seat=seat)

    def _throw(self, event: ThrowEvent, corrected: bool = False) -> Outcome:
        seat = self.current_seat
        if seat is None:
            expected = "the start throw first" if not self.started else "no more throws: the game is over"
            raise InvalidInput(f"expected {expected}, got a throw ({event})")
        state, outcome = self._play(self._state, seat, event)
        self._before.append(self._state)
        self._throws.append(event)
        self._state = state
        return replace(outcome, corrected=corrected)

    def _correct(self, event: Correction) -> Outcome:
        if not self._throws:
            raise InvalidInput("expected a throw to correct, got none yet")
        self._state = self._before.pop()
        self._throws.pop()
        if event.replacement is not None:
            return self._throw(event.replacement, corrected=True)
        seat = self.current_seat
        return Outcome(seat=seat, award=None, champion=self.champion, next_seat=seat, corrected=True, voided=True)

    # --- the rules of the table --------------------------------------------------------------

    def _play(self, state: TableState, seat: int, event: ThrowEvent) -> tuple[TableState, Outcome]:
        """The state after `seat` throws `event`, and what happened."""
        throw_no = state.throws + 1
        if event.faces is None:
            skips = state.skips
            if self.rules.out_of_bowl_skips_next_turn:
                skips = skips[:seat] + (True,) + skips[seat + 1 :]
            state = replace(state, throws=throw_no, skips=skips)
            return self._next_turn(state, Outcome(seat=seat, award=None, out_of_bowl=True))

        award = classify(event.faces, self.rules)
        before_champion = best_claim(state.claims)
        claims = self._claims_after(state.claims, seat, throw_no, event.faces, award)
        champion = best_claim(claims)
        ledger = state.ledger
        transfers: list[Transfer] = []

        def move(batch: Iterable[Transfer]) -> None:
            nonlocal ledger
            for transfer in batch:
                ledger = ledger.move(transfer)
                transfers.append(transfer)

        if award.category is Category.CHA_JIN_HUA and award.is_zhuangyuan and self.rules.cha_jin_hua_takes_dui_tang:
            left = ledger.left(Tier.DUI_TANG)
            move([Transfer(Tier.DUI_TANG, left, None, seat)] if left else [])
        won = () if award.tier is None or award.is_zhuangyuan else (award.tier,)
        for tier in won + award.bonus_tiers:
            move(self._hand_out(ledger, seat, tier))

        ending: Ending | None = None
        if award.category is Category.LIU_BO_HONG:
            ending = Ending.RED_SIX
        elif award.category in BLACK_SIX and self.rules.black_six_ends_game:
            ending = Ending.LIGHTS_OUT
        if ending is not None:
            move(self._leftovers(ledger, seat, ending))
            move(self._zhuangyuan_prize(ledger, champion))

        final_round = state.final_round
        if final_round is None and champion is not None and not any(ledger.left(t) for t in LOWER_TIERS):
            final_round = self.seating.round_of(state.turn)
        state = replace(state, throws=throw_no, ledger=ledger, claims=claims, final_round=final_round, ending=ending)
        outcome = Outcome(
            seat=seat,
            award=award,
            transfers=tuple(transfers),
            champion=champion,
            new_champion=champion is not None and champion.seat == seat and champion != before_champion,
        )
        if ending is not None:
            return state, replace(outcome, ending=ending)
        return self._next_turn(state, outcome)

    def _claims_after(
        self, claims: tuple[Claim | None, ...], seat: int, throw_no: int, faces: tuple[int, ...], award: Award
    ) -> tuple[Claim | None, ...]:
        """A 状元 counts for its thrower if it beats their own earlier one (or always, in the replace variant)."""
        if not award.is_zhuangyuan:
            return claims
        old = claims[seat]
        if old is not None and not self.rules.own_smaller_zhuangyuan_replaces and not award > old.award:
            return claims
        return claims[:seat] + (Claim(seat, throw_no, faces, award),) + claims[seat + 1 :]

    def _hand_out(self, ledger: Ledger, seat: int, tier: Tier) -> list[Transfer]:
        """One prize of `tier` for `seat`: from the pool, else per the rule set's exhausted-tier variant."""
        if ledger.left(tier):
            return [Transfer(tier, 1, None, seat)]
        if self.rules.exhausted_tier is ExhaustedTier.CHASE:
            # 追: the nearest holder counting backwards (against the direction of play) gives one up.
            holder = next((other for other in self.seating.behind(seat) if ledger.count(tier, other)), None)
            return [] if holder is None else [Transfer(tier, 1, holder, seat)]
        if self.rules.exhausted_tier is ExhaustedTier.STEP_DOWN:
            # Seed 000: "降低一个档次的奖品进行发放，直到将桌上奖品摇完为止":
            # the next lower tier that still has a prize.
            lower = next((t for t in TIERS[TIERS.index(tier) + 1 :] if ledger.left(t)), None)
            return [] if lower is None else [Transfer(lower, 1, None, seat)]
        return []

    def _leftovers(self, ledger: Ledger, seat: int, ending: Ending) -> list[Transfer]:
        """Prizes below 状元 still on the table when a 红六勃 or a lights-out 黑六勃 ends the game."""
        transfers = []
        for tier in LOWER_TIERS:
            left = ledger.left(tier)
            if not left:
                continue
            takes = ending is Ending.RED_SIX and (
                self.rules.red_six_ending is RedSixEnding.TAKES_ALL or tier is Tier.DUI_TANG
            )
            transfers.append(Transfer(tier, left, None, seat if takes else None))
        return transfers

    @staticmethod
    def _zhuangyuan_prize(ledger: Ledger, champion: Claim | None) -> list[Transfer]:
        """The 状元 prize goes to the best 状元 at the end; with none (lights out first), the table shares it."""
        left = ledger.left(Tier.ZHUANGYUAN)
        return [Transfer(Tier.ZHUANGYUAN, left, None, None if champion is None else champion.seat)] if left else []

    def _next_turn(self, state: TableState, outcome: Outcome) -> tuple[TableState, Outcome]:
        """Pass the turn on, skipping seats that sit out; after the final round, hand out the 状元 prize."""
        start = state.start_seat
        assert start is not None, "a throw before the start throw"
        skips = list(state.skips)
        skipped: list[int] = []
        turn = state.turn + 1
        while not self._past_final_round(state, turn) and skips[self.seating.seat_at(start, turn)]:
            seat = self.seating.seat_at(start, turn)
            skips[seat] = False
            skipped.append(seat)
            turn += 1
        state = replace(state, turn=turn, skips=tuple(skips))
        outcome = replace(outcome, skipped=tuple(skipped))
        if self._past_final_round(state, turn):
            champion = best_claim(state.claims)
            transfers = self._zhuangyuan_prize(state.ledger, champion)
            state = replace(state, ledger=apply_all(state.ledger, transfers), ending=Ending.ROUND_FINISHED)
            return state, replace(
                outcome, transfers=outcome.transfers + tuple(transfers), champion=champion, ending=Ending.ROUND_FINISHED
            )
        next_seat = self.seating.seat_at(start, turn)
        return state, replace(outcome, next_seat=next_seat, final_round=state.final_round is not None)

    def _past_final_round(self, state: TableState, turn: int) -> bool:
        return state.final_round is not None and self.seating.round_of(turn) > state.final_round
