"""Plain-text descriptions of awards, outcomes and the table, for the CLI and the live announcer.

Pure functions returning strings: callers decide where text goes.
"""

from __future__ import annotations

from bobing_vision.game.outcome import Claim, Outcome
from bobing_vision.game.prizes import TIERS, Transfer
from bobing_vision.game.table import Game
from bobing_vision.rules import Award, Tier


def award_text(award: Award) -> str:
    """Chinese and English: the category, the tier it wins, and any bonus."""
    category = award.category
    text = f"{category.zh} {category.en}"
    tier = award.tier
    text += " - wins nothing" if tier is None else f" - {tier.zh} {tier.en}"
    for bonus in award.bonus:
        text += f" + bonus {bonus.zh} {bonus.en}"
    return text


def prize_text(game: Game, tier: Tier, count: int = 1) -> str:
    """`2 x 对堂饼 (榜眼)`: how many prizes of a tier, by their configured name."""
    return f"{count} x {game.prizes.of(tier)} ({tier.zh})"


def transfer_text(game: Game, transfer: Transfer) -> str:
    taker = "the whole table shares" if transfer.target is None else f"{game.players[transfer.target]} takes"
    source = "" if transfer.source is None else f" from {game.players[transfer.source]} (追)"
    return f"{taker} {prize_text(game, transfer.tier, transfer.count)}{source}"


def claim_text(game: Game, claim: Claim) -> str:
    faces = "".join(map(str, claim.faces))
    return f"{game.players[claim.seat]} with {faces} {claim.award.category.zh} (throw {claim.throw_no})"


def outcome_text(game: Game, outcome: Outcome) -> list[str]:
    """What just happened, one line each: the award, prizes moved, the 状元, whose turn, the end."""
    lines: list[str] = []
    who = "" if outcome.seat is None else game.players[outcome.seat]
    if outcome.voided:
        lines.append(f"last throw voided: {who} throws again")
    elif outcome.seat is None and outcome.next_seat is not None:
        lines.append(f"start throw counted round the table: {game.players[outcome.next_seat]} throws first")
    elif outcome.out_of_bowl:
        lines.append(f"{who}: a die is out of the bowl (出碗) - the throw is void")
        if game.rules.out_of_bowl_skips_next_turn:
            lines.append(f"{who} skips their next turn")
    elif outcome.award is not None:
        prefix = "corrected - " if outcome.corrected else ""
        lines.append(f"{prefix}{who}: {award_text(outcome.award)}")
        if outcome.award.tier is not None and not outcome.award.is_zhuangyuan and not any(
            t.target == outcome.seat for t in outcome.transfers
        ):
            lines.append(f"no {outcome.award.tier.zh} prize left for {who}")
    lines += [transfer_text(game, transfer) for transfer in outcome.transfers]
    if outcome.new_champion and outcome.champion is not None and not outcome.over:
        lines.append(f"provisional 状元: {claim_text(game, outcome.champion)}")
    lines += [f"{game.players[seat]} sits this turn out (出碗 earlier)" for seat in outcome.skipped]
    if outcome.ending is not None:
        lines.append(f"game over: {outcome.ending.zh} - {outcome.ending.en}")
    elif outcome.next_seat is not None and outcome.seat is not None:
        last = " (final round)" if outcome.final_round else ""
        lines.append(f"next: {game.players[outcome.next_seat]}{last}")
    return lines


def remaining_text(game: Game) -> str:
    left = game.remaining
    parts = [f"{tier.zh} {left[tier]}/{game.rules.prize_count(tier)}" for tier in TIERS]
    return "prizes left: " + "  ".join(parts)


def _counts(game: Game, held: dict[Tier, int]) -> str:
    parts = [prize_text(game, tier, held[tier]) for tier in TIERS if held[tier]]
    return ", ".join(parts) if parts else "nothing"


def holdings_text(game: Game) -> list[str]:
    """Who holds what, the table's shared prizes, and the 状元 (provisional until the end)."""
    lines = [f"  {name}: {_counts(game, game.holdings(seat))}" for seat, name in enumerate(game.players)]
    if any(game.shared.values()):
        lines.append(f"  shared by the table: {_counts(game, game.shared)}")
    champion = game.champion
    title = "状元" if game.over else "provisional 状元"
    lines.append(f"  {title}: {'none yet' if champion is None else claim_text(game, champion)}")
    return lines


def status_text(game: Game) -> list[str]:
    if game.over:
        turn = "game over"
    elif not game.started:
        turn = "waiting for the start throw"
    else:
        turn = f"round {game.round}{' (final)' if game.in_final_round else ''}, {game.current_player} to throw"
    return [turn, remaining_text(game), *holdings_text(game)]


def result_text(game: Game) -> list[str]:
    """The final result: how it ended, the 状元, and everyone's prizes."""
    ending = "not finished" if game.ending is None else f"{game.ending.zh} - {game.ending.en}"
    total = sum(sum(game.holdings(seat).values()) for seat in range(len(game.players))) + sum(game.shared.values())
    every = total + sum(game.remaining.values())
    return [f"result: {ending}", *holdings_text(game), f"  prizes handed out: {total} of {every}"]
