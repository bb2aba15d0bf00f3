"""Tute cabrón (rules.md §7): everyone for himself, no trump until a king and its caballo fall
in one trick — a cante of the trick's winner, the first one naming trumps and worth 40; whoever
takes no trick, goes over 100 or ends in the middle loses a game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import DECK_36, DECK_40, RankOrder
from ..rules import CUARENTA, Declaration, marriage_mask, veinte
from ..variants import Options
from .base import (
    Game,
    IndividualScore,
    KernelConfig,
    Score,
    Tally,
)
from .cases import seat_totals, took_tricks


class Cabron(IndividualScore, Game):
    __slots__ = ()
    family = "cabron"
    batch_gap = "trumps fixed in play, whose observation the batched writer does not keep"
    arrastre_cantes = False  # no declaration windows: the cards of a trick sing
    trump_changes = True
    cantes_in_tricks = True

    def seat_count(self, options: Options) -> int:
        return options.players

    def layout(self, options: Options) -> tuple[int, int]:
        return (DECK_40, 10) if options.players == 4 else (DECK_36, 12)

    def pack(self, options: Options) -> int:
        # either table size's pack: rule case P39 has a 2 with the 3-player default
        return DECK_40

    @staticmethod
    def trick_cantes(trick: tuple[int, ...], trump: int | None, order: RankOrder,
                     ) -> tuple[int | None, list[tuple[int, Declaration, int]]]:
        """The marriages complete in ``trick``, in the order their second card fell:
        (trump after them, [(suit, declaration, points)])."""
        tmask = 0
        for c in trick:
            tmask |= 1 << c
        found = []
        for suit in range(4):
            pair = marriage_mask(suit, order)
            if tmask & pair == pair:
                found.append((max(trick.index(c) for c in trick if pair >> c & 1), suit))
        out: list[tuple[int, Declaration, int]] = []
        for _pos, suit in sorted(found):
            if trump is None:
                trump = suit
                out.append((suit, CUARENTA, 40))
            else:
                out.append((suit, veinte(suit), 20))
        return trump, out

    def score(self, tally: Tally, options: Options) -> Score:
        n = tally.seats
        if tally.reason == "renuncio":
            assert tally.who is not None
            losers = [tally.offender if tally.offender is not None else tally.who]
        else:
            losers = cabron_losers(tally.totals, [t > 0 for t in tally.tricks_won],
                                   options.cabron_middle)
        return Score(games=(0,) * n, losses=tuple(int(s in losers) for s in range(n)))

    def score_case(self, data: Mapping[str, Any], opts: Options) -> dict[str, Any]:
        """``tute score``: each seat's total and who took a trick; the losers."""
        n = self.seat_count(opts)
        names = [f"seat{i}" for i in range(n)]
        totals = seat_totals(data, names, 230)
        took = took_tricks(data, names, totals)
        losers = cabron_losers([totals[k] for k in names], took, opts.cabron_middle)
        return {"totals": totals, "result": {"losers": [names[i] for i in losers]}}

    def kernel_config(self, options: Options) -> KernelConfig:
        return KernelConfig(guinote_ranks=False, arrastre_cantes=False, cabron=True,
                            solver_sides=False)


def cabron_losers(totals: Sequence[int], took_trick: Sequence[bool],
                  middle: str = "levels") -> list[int]:
    """Who loses a deal of cabrón, for 3 or 4 players (rules.md §7.1): the trickless; else
    those over 100; else, ``cabron_middle=levels``, every total strictly between the highest
    and the lowest, else (two distinct totals or one) everyone who shares his total — LUD's
    ties, which lose only when nobody else does. ``positions`` is the engine's reading before
    2026-12-01 (records of version 1 replay with it): the same with three players; with four
    and three distinct totals or more, the second and third places by total (a tie ranked by
    seat), so 50/50/20/10 loses a 50 and the 20."""
    n = len(totals)
    empty = [i for i in range(n) if not took_trick[i]]
    if empty:
        return empty
    over = [i for i in range(n) if totals[i] > 100]
    if over:
        return over
    low, high = min(totals), max(totals)
    if middle == "positions" and n == 4 and len(set(totals)) >= 3:
        order = sorted(range(n), key=lambda i: totals[i])
        return sorted(order[1:-1])
    between = [i for i in range(n) if low < totals[i] < high]
    if between:
        return between
    return [i for i in range(n) if totals.count(totals[i]) > 1]
