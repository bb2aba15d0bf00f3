"""Search bots: Perfect-Information Monte Carlo (``pimc``) and the all-seeing ``cheat``.

``pimc`` decides from its seat's view alone. At each decision it samples full positions (the
hidden hands, the stock's order, the widow) uniformly among those consistent with what the seat
knows (:mod:`tute.worlds`), values every legal action in each of them and plays the action with
the best mean over the worlds. A world's action values come from

- the exact solver where it covers the position (card play of parejas and arrastrado, the
  arrastre of the stock games): every legal action searched over the one table;
- otherwise (the stock phase, cantes, exchanges, bids and trumps, cabrón, subastado) a rollout:
  the action, then ``rules`` bots for every seat to the end of the deal -- or only until the
  solver covers the position (the stock games at the arrastre), whose exact value then ends it.

The objective is the game's: the point margin of the seat's side, the balance where the deal
pays (subastado's contract), the lost games where deals are lost (arrastrado, cabrón: one lost
game weighs a whole deal of points). It is anytime: worlds are taken until ``move_time``
seconds have passed (at least one), so a bot out of time still answers with a legal action.

``cheat`` sees every hand (``attach(deal)``) and plays the exact solver's best card: a yardstick
for analysis and arenas, never offered at a table.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..actions import Action
from ..errors import TuteError
from .base import Bot, register
from .rules_bot import RulesBot

if TYPE_CHECKING:
    from ..deal import Deal, SeatView
    from ..solver import Solver

__all__ = ["CheatBot", "PimcBot", "objective"]

#: the weight of one lost game (arrastrado, cabrón) against one point of margin
LOST_GAME = 100.0
MAX_MOVE_TIME = 60.0


def objective(deal: Deal, seat: int) -> float:
    """What a finished deal is worth to ``seat``'s side, in the game's own terms."""
    res = deal.result()
    side = deal.side_of(seat)
    if res.balances is not None:  # payments: the contract's balance decides
        return float(res.balances[side])
    margin = res.totals[side] - max((t for s, t in enumerate(res.totals) if s != side),
                                    default=0)
    if res.losses is not None:
        return -LOST_GAME * res.losses[side] + margin / 1000.0
    return float(margin)


def _settings(move_time: Any, max_worlds: Any) -> tuple[float, int]:
    if isinstance(move_time, bool) or not isinstance(move_time, int | float) or not (
            0 < float(move_time) <= MAX_MOVE_TIME):
        raise TuteError(f"invalid move_time {move_time!r}: expected seconds in "
                        f"(0, {MAX_MOVE_TIME:g}]")
    if isinstance(max_worlds, bool) or not isinstance(max_worlds, int) or not (
            1 <= max_worlds <= 100_000):
        raise TuteError(f"invalid worlds {max_worlds!r}: expected an integer 1..100000")
    return float(move_time), max_worlds


class _Evaluator:
    """Values the legal actions of one world: exact where the solver reaches, else rollouts."""

    def __init__(self, rng: random.Random, solver: Solver | None, tolerance: int = 0):
        self.rng = rng
        self.solver = solver
        self.tolerance = tolerance
        # per legal action, the last world's exact value: worlds differ little, so it is a
        # close first guess for the next one's probes (MTD(f))
        self.guesses: list[list[int]] = []

    def solvable(self, deal: Deal) -> bool:
        return self.solver is not None and _solver_covers(self.solver, deal)

    def exact(self, deal: Deal, seat: int, guess: list[int] | None = None) -> float:
        """The seat's side's margin with perfect play from here, in the solver's terms (a
        tute is worth ``TUTE_VALUE``), counting what was taken before. ``guess`` (one slot)
        seeds the solver's probes with the last world's value and takes this one's."""
        from ..solver import taken_margin

        assert self.solver is not None
        hero = seat if deal.variant.sides(deal.options) > 2 else None
        sign = 1 if hero is not None or deal.side_of(seat) == 0 else -1
        future = 0
        if not deal.is_over():
            future = self.solver.value(deal, guess=guess[0] if guess else 0, hero=hero,
                                      tolerance=self.tolerance)
            if guess:
                guess[0] = future
        return float(sign * (taken_margin(deal, hero) + future))

    def rollout(self, deal: Deal, seat: int, deadline: float) -> float:
        """Play ``deal`` on with rules bots; the exact value as soon as the solver covers it."""
        bots = [RulesBot(seed=self.rng.randrange(1 << 30)) for _ in range(deal.seats)]
        while not deal.is_over():
            if self.solvable(deal) and time.perf_counter() < deadline:
                try:
                    return self.exact(deal, seat)
                except TuteError:
                    self.solver = None  # a position it refuses: roll out from now on
            mover = deal.to_move
            assert mover is not None
            view = deal.view(mover)
            deal.apply(bots[mover].choose(view, view.legal_actions))
        return objective(deal, seat)

    def values(self, world: Deal, seat: int, legal: Sequence[Action],
               deadline: float) -> list[float]:
        # one scale per decision: the solver's margins where it covers this position (a child
        # that ends the deal too), else rollouts
        exact = self.solvable(world)
        if len(self.guesses) != len(legal):
            self.guesses = [[0] for _ in legal]
        out: list[float] = []
        for act, guess in zip(legal, self.guesses, strict=True):
            child = world.copy()
            child.apply(act)
            if exact:
                try:
                    out.append(self.exact(child, seat, guess))
                    continue
                except TuteError:  # a child position it refuses (a poll): roll out
                    pass
            if child.is_over():
                out.append(objective(child, seat))
            else:
                out.append(self.rollout(child, seat, deadline))
        return out


def _equivalents(view: SeatView, legal: Sequence[Action]) -> list[int]:
    """For each legal action, the index of the first one worth the same in every world: cards
    of one suit with the same points and nothing unseen between them (5 and 4 with the 6 in
    the seat's hand or played). Not while a stock lasts: the 7 of trumps is not the 6 there."""
    from ..cards import Card
    from ..variants import find_variant

    rep = list(range(len(legal)))
    if view.stock_count:
        return rep
    order = find_variant(view.variant).order
    seen = view.hand.mask | view.played.mask
    for i, a in enumerate(legal):
        if not isinstance(a, Card):
            continue
        for j in range(i):
            b = legal[j]
            if (isinstance(b, Card) and b.suit == a.suit and rep[j] == j
                    and order.points[a.index] == order.points[b.index]):
                lo, hi = sorted((order.strength[a.index], order.strength[b.index]))
                between = sum(1 << c for c in range(40) if c // 10 == a.index // 10
                              and lo < order.strength[c] < hi)
                if between & ~seen == 0:
                    rep[i] = j
                    break
    return rep


def _solver_covers(solver: Solver, deal: Deal) -> bool:
    """Whether the exact solver takes this position (card play it models, no poll pending)."""
    if deal.is_over() or deal.stock_count or deal.to_move is None:
        return False
    try:
        solver._state(deal)  # the solver's own refusal is the one source of what it covers
    except TuteError:
        return False
    return True


class _SearchBot(Bot):
    """Shared by the sampling bots: settings, the solver and the anytime loop."""

    heavy = True  # seconds of CPU a decision: servers run it in a worker process

    def __init__(self, seed: int | None = None, move_time: float = 1.0, worlds: int = 10_000,
                 tt_mb: int = 16, threads: int = 1, tolerance: int = 0, **settings: Any):
        super().__init__(seed=seed, **settings)
        self.move_time, self.max_worlds = _settings(move_time, worlds)
        for key, value, low, top in (("tt_mb", tt_mb, 1, 512), ("threads", threads, 1, 2),
                                     ("tolerance", tolerance, 0, 60)):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= top:
                raise TuteError(f"invalid {key} {value!r}: expected an integer {low}..{top}")
        self.tt_mb, self.threads = tt_mb, threads
        # the solver may stop within this many points of a world's value: noise well below
        # the spread between worlds, for a fraction of the probes
        self.tolerance = tolerance
        self._solver: Solver | None = None
        self.last_worlds = 0  # worlds valued at the last decision (for benches and tests)

    def solver(self) -> Solver | None:
        if self._solver is None:
            try:
                from ..solver import Solver
            except ImportError:  # numba missing: rollouts only
                return None
            self._solver = Solver(tt_mb=self.tt_mb, threads=self.threads)
        return self._solver


@register("pimc", "samples worlds consistent with its view and solves each exactly "
                  "(rollouts where the solver does not reach); move_time seconds per move")
class PimcBot(_SearchBot):
    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        from ..worlds import WorldSampler

        start = time.perf_counter()
        deadline = start + self.move_time
        sampler = WorldSampler(view)
        evaluator = _Evaluator(self.rng, self.solver(), self.tolerance)
        rep = _equivalents(view, legal)
        distinct = [a for i, a in enumerate(legal) if rep[i] == i]
        if len(distinct) == 1:
            return legal[0]
        totals = [0.0] * len(distinct)
        n = 0
        while n < self.max_worlds and (n == 0 or time.perf_counter() < deadline):
            world = sampler.deal(self.rng)
            for i, v in enumerate(evaluator.values(world, view.seat, distinct, deadline)):
                totals[i] += v
            n += 1
        self.last_worlds = n
        legal = distinct
        best = max(totals)
        # ties (common: equivalent cards) go to the first of the engine's order, as rules do
        return legal[next(i for i, t in enumerate(totals) if math.isclose(t, best))]


@register("cheat", "sees every hand and plays the exact solver's best action "
                   "(analysis only: never offered at a table)", at_table=False)
class CheatBot(_SearchBot):
    """Needs the real deal: ``attach(deal)`` before each decision (the arena does it)."""

    sees_all = True

    def __init__(self, seed: int | None = None, **settings: Any):
        super().__init__(seed=seed, **settings)
        self._deal: Callable[[], Deal] | None = None

    def attach(self, deal: Deal | Callable[[], Deal]) -> None:
        self._deal = deal if callable(deal) else (lambda: deal)

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if self._deal is None:
            raise TuteError("the cheat bot needs the deal (attach(deal)); it is for analysis "
                            "only and cannot sit at a table")
        if len(legal) == 1:
            return legal[0]
        deal = self._deal()
        evaluator = _Evaluator(self.rng, self.solver())
        values = evaluator.values(deal, view.seat, legal, time.perf_counter() + self.move_time)
        best = max(values)
        return legal[next(i for i, t in enumerate(values) if math.isclose(t, best))]
