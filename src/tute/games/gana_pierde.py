"""Tute gana-pierde (rules.md §7.3): three to five each for himself with every card dealt; take
few points, for the highest total loses a game, unless one reaches 101 (or sings a tute): he
goes out and everyone else loses. Lost games to ``loss_limit``; the fewest wins."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import DECK_40
from ..scoring import target_winner
from ..variants import Options
from ..views import DealResult
from .arrastrado import Arrastrado
from .base import (
    KernelConfig,
    MatchStep,
    MatchTally,
    Score,
    Tally,
    _end,
    individual_goal,
)
from .cases import individual_case


class GanaPierde(Arrastrado):
    """Dealt like tute arrastrado (three: a table card the 7 and 2 take; more: the dealer's
    last card turned), scored the other way round."""

    __slots__ = ()
    family = "gana_pierde"
    batch_gap = "more than four seats and its own scoring"

    def layout(self, options: Options) -> tuple[int, int]:
        # every card dealt: 13 each and a table card with three, 10 with four, 8 with five
        return DECK_40, (13 if options.players == 3 else 40 // options.players)

    def entitled(self, winner: int, seats: int, contract: tuple[int, int, bool] | None,
                 options: Options) -> int:
        # cantes_enabled=false: no declaration window at all (a tute is a declaration too)
        return 1 << winner if options.cantes_enabled else 0

    def score(self, tally: Tally, options: Options) -> Score:
        n = tally.seats
        if tally.reason == "renuncio":
            assert tally.who is not None
            guilty = tally.offender if tally.offender is not None else tally.who
            return Score(games=(0,) * n, losses=tuple(int(s == guilty) for s in range(n)))
        out = goes_out(tally.totals, tally.last_side, options,
                       tute_seat=tally.who if tally.reason == "tute" else None)
        if out is not None:
            return Score(out, tuple(int(s == out) for s in range(n)),
                         losses=tuple(int(s != out) for s in range(n)))
        return Score(games=(0,) * n, losses=tuple(highest_lose(tally.totals, options)))

    def score_case(self, data: Mapping[str, Any], opts: Options) -> dict[str, Any]:
        """``tute score``: totals, tricks taken, who sang; scored by :meth:`score`."""
        return individual_case(self, data, opts)

    def goal_info(self, options: Options) -> dict[str, Any]:
        return individual_goal(options, losses=True)

    def after_deal(self, tally: MatchTally, result: DealResult, options: Options) -> MatchStep:
        return fewest_losses(tally, result, options)

    def kernel_config(self, options: Options) -> KernelConfig:
        # the kernel's individual scoring is arrastrado's: the solver must not play this one
        return KernelConfig(guinote_ranks=False, arrastre_cantes=True, cabron=False,
                            solver_sides=False)


def goes_out(totals: tuple[int, ...], last: int | None, options: Options, *,
             tute_seat: int | None = None) -> int | None:
    """The seat that goes out: a tute's singer, else who reaches ``gp_out_threshold``
    (several: ``multi_over``; equal totals go to the last trick, else the first seat)."""
    if tute_seat is not None:
        return tute_seat
    return target_winner(totals, last, options.multi_over, target=options.gp_out_threshold)


def highest_lose(totals: tuple[int, ...], options: Options) -> list[int]:
    """One lost game per seat with the highest total (a tie: all, or nobody)."""
    top = max(totals)
    tied = [t == top for t in totals]
    if sum(tied) > 1 and options.gp_tie_high == "nobody":
        return [0] * len(totals)
    return [int(t) for t in tied]


def fewest_losses(tally: MatchTally, result: DealResult, options: Options) -> MatchStep:
    """Lost games add up; at ``loss_limit`` the fewest wins, and players tied for the fewest
    share the win (the match ends with no single winner)."""
    losses = tally.losses
    if result.losses is not None:
        losses = tuple(a + b for a, b in zip(tally.losses, result.losses, strict=True))
    step = MatchStep(tally.games, tally.cotos, losses, tally.balances, tally.counted)
    if max(losses) >= options.loss_limit:
        low = min(losses)
        return _end(step, losses.index(low) if losses.count(low) == 1 else None, "losses")
    return step
