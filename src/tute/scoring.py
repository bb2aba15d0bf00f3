"""Scoring as pure functions: deal totals (rules.md §1.6) and how each variant turns totals
into games, partidas, lost games or payments (§2.7, §3.6, §4.5, §5.9–10, §6.9–10, §7.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .variants import Options

__all__ = [
    "Outcome",
    "deal_total",
    "losses_3p",
    "payments_3p",
    "score_partnership",
    "score_per_deal_2p",
    "settle_subastado",
    "target_winner",
    "winner_3p",
]

LAST_TRICK_BONUS = 10
TARGET = 101


def deal_total(card_points: int, cantes: Sequence[int], last_trick: bool) -> int:
    """Card points + the cantes + 10 for the last trick."""
    return card_points + sum(cantes) + (LAST_TRICK_BONUS if last_trick else 0)


@dataclass(frozen=True)
class Outcome:
    """The result of one deal between two sides."""

    winner: int | None
    games: int
    replay: bool = False


def score_partnership(
    totals: Sequence[int],
    last_trick_side: int | None,
    options: Options,
    *,
    mano_side: int = 0,
    sang: Sequence[bool] = (False, False),
) -> Outcome:
    """Tute por parejas (§2.7): the higher total wins one game, two past the threshold."""
    a, b = totals[0], totals[1]
    if a != b:
        winner = 0 if a > b else 1
    elif options.tie_break == "mano_side":
        winner = mano_side
    elif options.tie_break == "replay":
        return Outcome(None, 0, replay=True)
    else:
        winner = last_trick_side if last_trick_side is not None else mano_side
    threshold = options.two_games_threshold
    if threshold is not None and options.two_games_rule == "rs":
        threshold = 121 if sang[winner] else 101  # RS: 101 without cantes, else 121
    games = 2 if threshold is not None and totals[winner] >= threshold else 1
    return Outcome(winner, games)


def target_winner(totals: Sequence[int], last_trick_side: int | None, both_over: str,
                  target: int = TARGET) -> int | None:
    """The side that reaches ``target`` (two-player Tute, Guiñote), or None: play de vueltas."""
    over = [i for i, t in enumerate(totals) if t >= target]
    if not over:
        return None
    if len(over) == 1:
        return over[0]
    if both_over == "last_trick" and last_trick_side in over:
        return last_trick_side
    top = max(totals[i] for i in over)
    best = [i for i in over if totals[i] == top]
    if len(best) == 1:
        return best[0]
    return last_trick_side if last_trick_side in best else best[0]


def score_per_deal_2p(totals: Sequence[int], last_trick_side: int | None,
                      sang: Sequence[bool]) -> Outcome:
    """``scoring_2p=per_deal`` (RS): higher total wins; 101–120 without cantes or 121 with
    cantes is worth two games; equal totals go to the last trick."""
    if totals[0] != totals[1]:
        winner = 0 if totals[0] > totals[1] else 1
    else:
        winner = last_trick_side if last_trick_side is not None else 0
    need = 121 if sang[winner] else 101
    return Outcome(winner, 2 if totals[winner] >= need else 1)


def losses_3p(totals: Sequence[int], last_trick_seat: int | None, options: Options,
              *, tute_seat: int | None = None) -> dict[int, int]:
    """Three-player lost games (§4.5): one who goes out gives the others a loss; otherwise
    the lowest total(s) lose one."""
    threshold = options.two_games_threshold or TARGET
    out_seat = tute_seat
    if out_seat is None:
        over = [i for i, t in enumerate(totals) if t >= threshold]
        if len(over) == 1:
            out_seat = over[0]
        elif over:
            if options.multi_over == "last_trick" and last_trick_seat in over:
                out_seat = last_trick_seat
            else:
                top = max(totals[i] for i in over)
                best = [i for i in over if totals[i] == top]
                out_seat = (last_trick_seat if last_trick_seat in best and len(best) > 1
                            else best[0])
    if out_seat is not None:
        return {i: 1 for i in range(len(totals)) if i != out_seat}
    low = min(totals)
    return {i: 1 for i, t in enumerate(totals) if t == low}


def settle_subastado(
    declarer: int,
    bid: int,
    declarer_total: int,
    options: Options,
    *,
    people: Sequence[int] = (0, 1, 2),
    takeover: bool = False,
) -> tuple[bool, dict[int, int]]:
    """Subastado payments (§5.10): everybody else at the table pays the declarer the stake,
    or is paid it; 120+ bids and takeovers double the stake (not cumulatively)."""
    made = declarer_total >= bid
    stake = bid * (2 if takeover or bid >= options.double_at_bid else 1)
    others = [p for p in people if p != declarer]
    sign = 1 if made else -1
    balance = {p: -sign * stake for p in others}
    balance[declarer] = sign * stake * len(others)
    return made, balance


def winner_3p(totals: Sequence[int], last_trick_seat: int | None, options: Options,
              *, tute_seat: int | None = None) -> int:
    """The winner of a deal among individual players (§4.6): a tute; else whoever reaches the
    threshold (several: ``multi_over``; under ``winner_per_deal`` the last trick decides, S2);
    else the highest total (a tie: the last trick, else the first seat)."""
    if tute_seat is not None:
        return tute_seat
    rule = "last_trick" if options.scoring_3p == "winner_per_deal" else options.multi_over
    over = target_winner(totals, last_trick_seat, rule,
                         target=options.two_games_threshold or TARGET)
    if over is not None:
        return over
    top = max(totals)
    best = [s for s, t in enumerate(totals) if t == top]
    return last_trick_seat if last_trick_seat in best else best[0]


def payments_3p(cantes: Sequence[Sequence[int]], winner: int, winner_cards_and_last: int,
                *, tute: bool = False) -> list[int]:
    """``scoring_3p=payments`` (ACA): each cante is paid at once by every opponent; the deal
    winner collects 100 from each opponent, 200 if its cards and last trick reach 101 or it
    sang a tute. Returns the balance change per seat."""
    n = len(cantes)
    pay = [0] * n
    for seat, sung in enumerate(cantes):
        for p in sung:
            for o in range(n):
                pay[o] += p * (n - 1) if o == seat else -p
    stake = 200 if tute or winner_cards_and_last >= TARGET else 100
    for o in range(n):
        pay[o] += stake * (n - 1) if o == winner else -stake
    return pay
