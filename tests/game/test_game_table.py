"""The table game under each rule-set variant: prizes, 状元, endings, turns, corrections."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bobing_vision.errors import InvalidInput
from bobing_vision.game import Correction, Ending, Game, StartThrow, ThrowEvent
from bobing_vision.rules import Direction, ExhaustedTier, RedSixEnding, RuleSet, Tier

BASE = RuleSet.preset("golden-flower-first")
DEFAULT_COUNTS = dict(BASE.prize_counts)


def rules(counts: dict[Tier, int] | None = None, **changes: object) -> RuleSet:
    """The default preset, clockwise, with some prize counts and switches changed."""
    merged = {**DEFAULT_COUNTS, **(counts or {})}
    changes.setdefault("direction", Direction.CLOCKWISE)
    return dataclasses.replace(BASE, prize_counts=tuple(merged.items()), **changes)  # type: ignore[arg-type]


def table(players: str = "ABCD", ruleset: RuleSet | None = None) -> Game:
    """A started game whose first thrower is A (the start count lands back on seat 0)."""
    game = Game(list(players), ruleset if ruleset is not None else rules())
    n = len(players)
    dice = next((a, b) for a in range(1, 7) for b in range(1, 7) if (a + b - 1) % n == 0)
    game.apply(StartThrow(0, dice))
    assert game.current_player == "A"
    return game


def play(game: Game, *throws: str) -> None:
    for text in throws:
        game.apply(ThrowEvent.of(text))


def held(game: Game, name: str) -> dict[Tier, int]:
    return {tier: n for tier, n in game.holdings(game.players.index(name)).items() if n}


NOTHING_THROW = "112233"
YI_XIU, ER_JU, SAN_HONG, SI_JIN, DUI_TANG = "412235", "441235", "444123", "222213", "123456"


# --- first come, and a tier used up ---------------------------------------------------------


def test_prizes_below_zhuangyuan_are_first_come() -> None:
    game = table()
    play(game, YI_XIU, ER_JU, SAN_HONG, SI_JIN, DUI_TANG, NOTHING_THROW)
    assert held(game, "A") == {Tier.YI_XIU: 1, Tier.DUI_TANG: 1}
    assert held(game, "B") == {Tier.ER_JU: 1}
    assert held(game, "C") == {Tier.SAN_HONG: 1}
    assert held(game, "D") == {Tier.SI_JIN: 1}
    assert game.remaining[Tier.DUI_TANG] == 1 and game.remaining[Tier.YI_XIU] == 31


@pytest.mark.parametrize(
    ("case", "variant", "expect_d"),
    [
        ("nothing: the later 三红 gets nothing", ExhaustedTier.NOTHING, {}),
        ("追: D takes it from C, the nearest holder counting backwards", ExhaustedTier.CHASE, {Tier.SAN_HONG: 1}),
        ("step-down: D gets the next lower tier with prizes left", ExhaustedTier.STEP_DOWN, {Tier.ER_JU: 1}),
    ],
)
def test_a_used_up_tier(case: str, variant: ExhaustedTier, expect_d: dict) -> None:
    # Two 三红 prizes, no 进士 at all: step-down skips the empty 进士 tier and hands out a 举人.
    game = table(ruleset=rules({Tier.SAN_HONG: 2, Tier.SI_JIN: 0}, exhausted_tier=variant))
    play(game, SAN_HONG, NOTHING_THROW, SAN_HONG, SAN_HONG)
    assert held(game, "D") == expect_d
    expected_c = {} if variant is ExhaustedTier.CHASE else {Tier.SAN_HONG: 1}
    assert held(game, "C") == expected_c
    assert held(game, "A") == {Tier.SAN_HONG: 1}


def test_chase_counts_backwards_against_the_direction_of_play() -> None:
    # Counter-clockwise, the order is A, D, C, B. With A and B holding the two 三红, C chases: counting
    # backwards from C means D (none), then A - not B, who won the prize more recently.
    game = table(ruleset=rules({Tier.SAN_HONG: 2}, exhausted_tier=ExhaustedTier.CHASE, direction=Direction.COUNTER_CLOCKWISE))
    play(game, SAN_HONG, NOTHING_THROW, NOTHING_THROW, SAN_HONG)  # A, D, C, then B
    assert game.current_player == "A"
    play(game, NOTHING_THROW, NOTHING_THROW, SAN_HONG)  # A, D, then C chases
    assert held(game, "C") == {Tier.SAN_HONG: 1}
    assert held(game, "A") == {} and held(game, "B") == {Tier.SAN_HONG: 1}


def test_chase_with_only_the_thrower_holding_gets_nothing() -> None:
    game = table("AB", rules({Tier.SAN_HONG: 1}, exhausted_tier=ExhaustedTier.CHASE))
    play(game, SAN_HONG, NOTHING_THROW, SAN_HONG)
    assert held(game, "A") == {Tier.SAN_HONG: 1} and held(game, "B") == {}


@pytest.mark.parametrize(
    ("case", "throw", "expect"),
    [
        ("五子 with a 4 also earns a 一秀", "555554", {Tier.YI_XIU: 1}),
        ("四进 with two 4s also earns a 二举", "222244", {Tier.SI_JIN: 1, Tier.ER_JU: 1}),
        ("四进 with one 4 also earns a 一秀", "222241", {Tier.SI_JIN: 1, Tier.YI_XIU: 1}),
        ("四进 without a 4 earns no bonus", "222213", {Tier.SI_JIN: 1}),
    ],
)
def test_bonus_awards_in_the_competition_rules(case: str, throw: str, expect: dict) -> None:
    game = table(ruleset=RuleSet.preset("competition"))
    play(game, throw)
    assert held(game, "A") == expect


def test_a_bonus_of_a_used_up_tier_follows_the_variant() -> None:
    # Competition steps down: no 二举 left, so the 四进's bonus becomes a 一秀.
    game = table(ruleset=dataclasses.replace(RuleSet.preset("competition"), prize_counts=tuple({**DEFAULT_COUNTS, Tier.ER_JU: 0}.items())))
    play(game, "222244")
    assert held(game, "A") == {Tier.SI_JIN: 1, Tier.YI_XIU: 1}


# --- the provisional 状元 ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("case", "throws", "replaces", "champion"),
    [
        ("a better 状元 takes over", ["444423", "444466"], False, "B"),
        ("a worse one does not", ["444466", "444423"], False, "A"),
        ("an exact tie keeps the earlier throw (6 = 6)", ["444433", "444415"], False, "A"),
        ("111112, the weakest 五子, beats 444466", ["444466", "111112"], False, "B"),
        ("own smaller 状元 does not replace by default", ["444466", "444455", "NONE", "NONE", "444423"], False, "A"),
        ("own smaller 状元 replaces in the variant (seed 004)", ["444466", "444455", "NONE", "NONE", "444423"], True, "B"),
        ("own equal 状元 replaces in the variant: B's earlier tie wins", ["444433", "444415", "NONE", "NONE", "444433"], True, "B"),
    ],
)
def test_provisional_zhuangyuan(case: str, throws: list, replaces: bool, champion: str) -> None:
    game = table(ruleset=rules(own_smaller_zhuangyuan_replaces=replaces))
    play(game, *[NOTHING_THROW if t == "NONE" else t for t in throws])
    assert game.champion is not None and game.players[game.champion.seat] == champion
    assert game.remaining[Tier.ZHUANGYUAN] == 1  # handed over only at the end


@pytest.mark.parametrize(
    ("case", "takes", "expect_a"),
    [
        ("插金花 takes the 对堂 prizes left, and keeps them when beaten", True, {Tier.DUI_TANG: 1}),
        ("competition: 插金花 takes no 对堂", False, {}),
    ],
)
def test_cha_jin_hua_and_the_dui_tang_prizes(case: str, takes: bool, expect_a: dict) -> None:
    game = table(ruleset=rules(cha_jin_hua_takes_dui_tang=takes))
    play(game, NOTHING_THROW, DUI_TANG)  # B has one 对堂, one is left
    play(game, NOTHING_THROW, NOTHING_THROW, "444411")  # A: 插金花
    assert held(game, "A") == expect_a
    assert held(game, "B") == {Tier.DUI_TANG: 1}
    play(game, "444444")  # B: 红六勃 ends the game; under this order 插金花 stays the 状元
    assert game.players[game.champion.seat] == "A"  # type: ignore[union-attr]
    assert held(game, "A") == {**expect_a, Tier.ZHUANGYUAN: 1}


# --- endings -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("case", "preset", "ending", "champion", "c_gets", "shared"),
    [
        ("golden-flower: 插金花 keeps the 状元, the 红六勃 thrower takes all left", "golden-flower-first",
         RedSixEnding.TAKES_ALL, "A", 59, 0),
        ("red-six-first: 红六勃 is the best 状元", "red-six-first", RedSixEnding.TAKES_ALL, "C", 60, 0),
        ("only 状元 + 对堂: the rest is shared", "red-six-first", RedSixEnding.TAKES_ZHUANGYUAN_AND_DUI_TANG, "C", 1, 59),
    ],
)
def test_red_six_ends_the_game_at_once(case: str, preset: str, ending: RedSixEnding, champion: str, c_gets: int, shared: int) -> None:
    ruleset = dataclasses.replace(RuleSet.preset(preset), red_six_ending=ending, direction=Direction.CLOCKWISE)
    game = table(ruleset=ruleset)
    play(game, "444411", YI_XIU)  # A: 插金花 with both 对堂 (under red-six-first too); B: a 一秀
    outcome = game.apply(ThrowEvent.of("444444"))  # C
    assert outcome.over and game.ending is Ending.RED_SIX and game.current_player is None
    assert game.players[game.champion.seat] == champion  # type: ignore[union-attr]
    assert sum(held(game, "C").values()) == c_gets
    assert sum(game.shared.values()) == shared
    assert sum(game.remaining.values()) == 0
    with pytest.raises(InvalidInput, match="game is over"):
        game.apply(ThrowEvent.of(YI_XIU))


@pytest.mark.parametrize(
    ("case", "lights_out", "over"),
    [
        ("lights out: 黑六勃 ends the game, the rest is shared", True, True),
        ("黑六勃 is just a 状元", False, False),
    ],
)
def test_black_six(case: str, lights_out: bool, over: bool) -> None:
    game = table(ruleset=rules(black_six_ends_game=lights_out))
    play(game, YI_XIU, "666666")
    assert game.over is over
    assert game.players[game.champion.seat] == "B"  # type: ignore[union-attr]
    if over:
        assert game.ending is Ending.LIGHTS_OUT
        assert held(game, "B") == {Tier.ZHUANGYUAN: 1}
        assert sum(game.shared.values()) == 61


def test_lights_out_without_any_zhuangyuan_shares_the_zhuangyuan_prize_too() -> None:
    # The competition order leaves 黑六勃 out (it wins nothing); with lights out switched on anyway.
    game = table(ruleset=dataclasses.replace(RuleSet.preset("competition"), black_six_ends_game=True))
    play(game, "666666")
    assert game.over and game.champion is None
    assert game.shared[Tier.ZHUANGYUAN] == 1 and sum(game.shared.values()) == 63


SMALL = {Tier.DUI_TANG: 0, Tier.SAN_HONG: 0, Tier.SI_JIN: 0, Tier.ER_JU: 0, Tier.YI_XIU: 1}


@pytest.mark.parametrize(
    ("case", "throws", "over_after"),
    [
        ("last prize taken mid-round: the rest of the round still throws", ["444423", YI_XIU, "444466"], 3),
        ("taken by the round's last thrower: over at once", ["444423", NOTHING_THROW, YI_XIU], 3),
        ("no 状元 yet: play on until one, then finish that round",
         [YI_XIU, NOTHING_THROW, NOTHING_THROW, NOTHING_THROW, "444423", NOTHING_THROW], 6),
    ],
)
def test_the_game_ends_after_finishing_the_round(case: str, throws: list, over_after: int) -> None:
    game = table("ABC", rules(SMALL))
    for number, throw in enumerate(throws, start=1):
        assert not game.over, f"over before throw {number}"
        outcome = game.apply(ThrowEvent.of(throw))
    assert game.over and outcome.ending is Ending.ROUND_FINISHED and len(throws) == over_after
    champion = game.champion
    assert champion is not None and game.holdings(champion.seat)[Tier.ZHUANGYUAN] == 1
    assert sum(game.remaining.values()) == 0


def test_the_final_round_is_flagged() -> None:
    game = table("ABC", rules(SMALL))
    outcome = game.apply(ThrowEvent.of("444423"))
    assert not outcome.final_round and not game.in_final_round
    outcome = game.apply(ThrowEvent.of(YI_XIU))
    assert outcome.final_round and game.in_final_round and outcome.next_seat == 2


# --- out of the bowl -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("case", "skips", "order"),
    [
        ("the throw is void, nobody skips", False, "BCAB"),
        ("traditional: the thrower also skips the next turn", True, "BCBC"),
    ],
)
def test_out_of_bowl(case: str, skips: bool, order: str) -> None:
    game = table("ABC", rules(out_of_bowl_skips_next_turn=skips))
    outcome = game.apply(ThrowEvent.out())
    assert outcome.out_of_bowl and outcome.award is None and not outcome.transfers
    seen = ""
    for _ in range(4):
        seen += game.current_player or "-"
        outcome = game.apply(ThrowEvent.of(NOTHING_THROW))
    assert seen == order


def test_a_skipped_last_seat_still_ends_the_final_round() -> None:
    game = table("ABC", rules(SMALL, out_of_bowl_skips_next_turn=True))
    play(game, NOTHING_THROW, NOTHING_THROW, "out")  # C sits out round 2
    play(game, "444423")  # A: 状元
    outcome = game.apply(ThrowEvent.of(YI_XIU))  # B takes the last prize; C's turn is skipped
    assert outcome.over and outcome.skipped == (2,)


# --- corrections and replay ----------------------------------------------------------------------


def test_fix_replaces_the_last_throw_and_void_removes_it() -> None:
    game = table()
    play(game, YI_XIU, SAN_HONG)
    outcome = game.apply(Correction.fix(ER_JU))
    assert outcome.corrected and held(game, "B") == {Tier.ER_JU: 1}
    assert game.remaining[Tier.SAN_HONG] == 4 and game.current_player == "C"
    outcome = game.apply(Correction.void())
    assert outcome.voided and held(game, "B") == {} and game.current_player == "B"
    reference = table()
    play(reference, YI_XIU)
    assert game.state == reference.state


def test_a_fix_can_reopen_a_game_a_misread_ended() -> None:
    game = table()
    play(game, YI_XIU, "444444")
    assert game.over
    game.apply(Correction.fix("444441"))
    assert not game.over and game.current_player == "C"
    assert sum(game.remaining.values()) == 62


def test_nothing_to_correct_before_the_first_throw() -> None:
    game = table()
    with pytest.raises(InvalidInput, match="a throw to correct"):
        game.apply(Correction.void())


def test_events_in_the_wrong_order_are_refused_and_change_nothing() -> None:
    game = Game(["A", "B"])
    with pytest.raises(InvalidInput, match="start throw first"):
        game.apply(ThrowEvent.of(YI_XIU))
    game.apply(StartThrow(0, (2, 2)))
    before = game.state
    with pytest.raises(InvalidInput, match="second start throw"):
        game.apply(StartThrow(0, (2, 2)))
    assert game.state == before and len(game.log) == 1


def random_events(rng: random.Random, game: Game, limit: int = 20000) -> None:
    """Play `game` to its end with random throws, some out of the bowl, some corrected."""
    for _ in range(limit):
        if game.over:
            return
        roll = rng.random()
        faces = tuple(rng.randint(1, 6) for _ in range(6))
        if roll < 0.04:
            game.apply(ThrowEvent.out())
        elif roll < 0.07 and game.state.throws:
            game.apply(Correction.void() if roll < 0.055 else Correction(ThrowEvent(faces)))
        else:
            game.apply(ThrowEvent(faces))
    raise AssertionError(f"no end after {limit} events")


VARIANTS = {
    "golden-flower-first": RuleSet.preset("golden-flower-first"),
    "red-six-first": RuleSet.preset("red-six-first"),
    "competition": RuleSet.preset("competition"),
    "chase, own smaller replaces": rules(exhausted_tier=ExhaustedTier.CHASE, own_smaller_zhuangyuan_replaces=True),
    "step-down, lights out, skips": rules(
        exhausted_tier=ExhaustedTier.STEP_DOWN, black_six_ends_game=True, out_of_bowl_skips_next_turn=True
    ),
    "red six takes 状元 + 对堂 only": rules(red_six_ending=RedSixEnding.TAKES_ZHUANGYUAN_AND_DUI_TANG),
}


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("seed", range(8))
def test_seeded_games_account_for_every_prize_and_replay_identically(variant: str, seed: int) -> None:
    ruleset = VARIANTS[variant]
    rng = random.Random(seed)
    players = [f"P{i}" for i in range(rng.randint(1, 10))]
    game = Game(players, ruleset)
    game.apply(StartThrow(rng.randrange(len(players)), (rng.randint(1, 6), rng.randint(1, 6))))
    random_events(rng, game)
    ledger = game.state.ledger
    assert ledger.total() == 63 and sum(ledger.pool) == 0
    champion = game.champion
    if champion is not None:
        assert game.holdings(champion.seat)[Tier.ZHUANGYUAN] == 1
    else:
        assert game.ending is Ending.LIGHTS_OUT and game.shared[Tier.ZHUANGYUAN] == 1
    assert Game.replay(players, ruleset, game.prizes, game.log).state == game.state
