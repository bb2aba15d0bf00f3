"""The stock phase with the stock's order known: alpha-beta over the core, exact leaves.

With every hand and the order of the stock known, the stock games (two-player Tute, Guiñote)
are games of perfect information from the first trick: each trick's winner draws the top
card, the others the next ones in playing order, the upcard last. This search plays the
stock phase with the core's own ``Deal.legal_actions()`` / ``apply`` / ``undo``, so it allows
exactly what the engine allows there -- the exchange of the 7 (or the 2) of trumps for the
upcard on one's turn or in the polls after a won trick, cantes before or after the draw, the
kept exchange rights, the stock phase's play duties -- under every option of the game. Once
the stock is gone and a card-play position is reached, the numba search
(:mod:`tute.solver._search`) values the arrastre exactly, with the window of the node above
it shifted by the points taken on the way.

Values here are *totals*: side 0's points taken so far plus its future margin (a tute: its
whole ``+-TUTE_VALUE``, as in the solver), so that every leaf compares with every other
without knowing the path to it. The table of this search (a dict, per query) holds bounds of
the future margin keyed by the state the future depends on.

Cost: the Python nodes are the tricks of the stock (about (hand size)^2 per trick before
pruning) and each leaf is a numba search of the arrastre; ``bench/stock_solve.py`` measures
it by stock size.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..actions import Action, Exchange, Pass
from ..cards import Card
from ..errors import TuteError
from ..kernel import NotCardPlayPositionError
from ..kernel import _tables as T
from ..rules import Declaration

if TYPE_CHECKING:
    from ..deal import Deal
    from . import Solver

#: a total beyond every value (a tute is 1000): the window of an unbounded search
BIG = 1100
#: the numba search stores bounds in 16 bits: its windows stay within the values
LEAF_LIMIT = 1001
TUTE_HALF = 500


def is_tute(value: int) -> bool:
    return abs(value) >= TUTE_HALF


def state_key(deal: Deal) -> tuple[object, ...]:
    """What the future of a stock-phase position depends on (points taken excluded: values
    in the table are future margins). The tricks won count for the first-win rules."""
    d = deal
    return (d._hands, d._trick, d._leader, d._to_move, d._best, d._best_seat, d._ruffed,
            d._sung, d._forty_lost, d._window, d._window_seats, d._window_declared,
            d._side_first, d._side_forfeit, d._phase, d._queue, d._pile.cards, d._pile.upcard,
            d._pile.pending, d._pile.due, d._tricks_won, d._result is None)


def _order(acts: Sequence[Action], first: Action | None,
           points: Sequence[int]) -> list[Action]:
    """The table's move first, then exchanges and cantes (they only add), then cards from
    the lowest in points (a cheap card first often proves a bound), passes last."""
    def rank(a: Action) -> tuple[int, int]:
        if a == first:
            return (0, 0)
        if isinstance(a, Exchange | Declaration):
            return (1, 0)
        if isinstance(a, Card):
            return (2, points[a.index])
        if isinstance(a, Pass):
            return (3, 0)
        return (2, 0)
    return sorted(acts, key=rank)


class StockSearch:
    """The search of one set of rules: the solver whose numba search values the leaves (and
    counts the nodes), and a table of bounds that every query under those rules shares."""

    def __init__(self, solver: Solver, taken: Callable[[Deal], int],
                 interrupted: type[Exception]) -> None:
        # the package's margin and interruption are handed in: it imports this module first
        self.solver = solver
        self.taken = taken
        self.interrupted = interrupted
        self.table: dict[tuple[object, ...], tuple[int, int, Action | None]] = {}

    def _leaf(self, deal: Deal, alpha: int, beta: int) -> int | None:
        """The arrastre's total by the numba search (fail-soft in ``alpha, beta``), or None
        where the position is not one it takes (a poll or a draw still due)."""
        if deal.stock_count or deal._pile.pending:
            return None
        try:
            cfg, st = self.solver._state(deal)
        except NotCardPlayPositionError:
            return None
        taken = self.taken(deal)
        if st[T.S_OVER]:
            return taken
        lo = max(alpha - taken, -LEAF_LIMIT)
        hi = min(beta - taken, LEAF_LIMIT)
        if lo >= hi:  # the window lies outside every value: either bound answers
            lo, hi = (hi - 1, hi) if hi <= -LEAF_LIMIT else (lo, lo + 1)
        v = self.solver._window(cfg, st, lo, hi)
        return v if is_tute(v) else taken + v

    def search(self, deal: Deal, alpha: int, beta: int) -> int:
        """Side 0's total from ``deal`` with perfect play, fail-soft in ``(alpha, beta)``."""
        if deal.is_over():
            return self.taken(deal)
        leaf = self._leaf(deal, alpha, beta)
        if leaf is not None:
            return leaf
        self.solver.stock_nodes += 1
        if self.solver._interrupted:
            raise self.interrupted
        key = state_key(deal)
        taken = self.taken(deal)
        first: Action | None = None
        entry = self.table.get(key)
        if entry is not None:
            lo, hi, first = entry
            lo = lo if is_tute(lo) else lo + taken
            hi = hi if is_tute(hi) else hi + taken
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
        a0, b0 = alpha, beta
        to_move = deal.to_move
        assert to_move is not None
        maxing = deal.side_of(to_move) == 0
        best = -BIG if maxing else BIG
        best_act: Action | None = None
        for act in _order(deal.legal_actions(), first, deal.order.points):
            deal.apply(act)
            try:
                v = self.search(deal, alpha, beta)
            finally:
                deal.undo()
            if maxing:
                if v > best:
                    best, best_act = v, act
                    alpha = max(alpha, v)
            elif v < best:
                best, best_act = v, act
                beta = min(beta, v)
            if alpha >= beta:
                break
        future = best if is_tute(best) else best - taken
        lo, hi = -BIG, BIG
        if entry is not None:
            lo, hi = entry[0], entry[1]
        if best <= a0:
            hi = future
        elif best >= b0:
            lo = future
        else:
            lo = hi = future
        self.table[key] = (lo, hi, best_act)
        return best


def check_stock(deal: Deal, limit: int) -> None:
    """Refuse a stock-phase position the stock search does not take."""
    if deal.stock_count > limit:
        raise NotCardPlayPositionError(
            f"not a card-play position: {deal.variant.id} is in its stock phase "
            f"({deal.stock_count} cards in the stock, more than the solver's stock limit "
            f"{limit}); the solver starts at the arrastre")
    if deal.variant.sides(deal.options) != 2:
        raise TuteError(f"{deal.variant.id}: the stock search needs two sides")
