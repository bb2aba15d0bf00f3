"""Finding puzzles in a deal: positions with one right action, by both measures.

A position is a puzzle when

1. **double dummy** (the exact solver, every hand known): exactly one legal action keeps the
   position's value for the seat to move, and every other one loses at least ``margin``
   points of the mover's side's margin; and
2. **from the seat's own view** (worlds sampled uniformly among those consistent with what
   the seat knows, each solved exactly): the same action has the best mean over the worlds,
   and it is a best action in at least ``agree`` of them (a large majority).

So the answer never rests on cards the seat cannot see: it is what a player reading the table
well finds. In the stock phase (a solver with ``stock_limit``) the double-dummy measure knows
the stock's order too, and each sampled world draws the face-down stock's order afresh. The
values are the mover's side's future margin (points still to come, the last ten and the
cantes included), in the solver's terms.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import TuteError

if TYPE_CHECKING:
    from ..deal import Deal
    from ..solver import Solver
    from ..views import SeatView

__all__ = ["DEFAULT_AGREE", "DEFAULT_MARGIN", "DEFAULT_WORLDS", "Exact", "ViewCheck",
           "exact_values", "unique_best", "view_check"]

DEFAULT_MARGIN = 10
DEFAULT_WORLDS = 32
#: the share of sampled worlds in which the answer must be a best action
DEFAULT_AGREE = 0.8


@dataclass(frozen=True)
class Exact:
    """The double-dummy values of a position's legal actions, in the mover's terms."""

    values: dict[str, int]  # action -> the mover's side's future margin after it

    @property
    def best(self) -> int:
        return max(self.values.values())


@dataclass(frozen=True)
class ViewCheck:
    """What the worlds sampled from the seat's view say of the actions."""

    worlds: int
    means: dict[str, float]  # action -> mean value over the worlds (the mover's terms)
    best_in: dict[str, int]  # action -> in how many worlds it is a best action

    def top(self) -> str:
        return max(self.means, key=lambda a: self.means[a])

    def gap(self, action: str) -> float:
        """How far ``action``'s mean is above the best of the others'."""
        rest = [v for a, v in self.means.items() if a != action]
        return self.means[action] - max(rest) if rest else 0.0

    def share(self, action: str) -> float:
        return self.best_in.get(action, 0) / self.worlds if self.worlds else 0.0


def _hero(deal: Deal) -> int | None:
    mover = deal.to_move
    return mover if deal.variant.sides(deal.options) > 2 else None


def _sign(deal: Deal) -> int:
    mover = deal.to_move
    assert mover is not None
    return 1 if _hero(deal) is not None or deal.side_of(mover) == 0 else -1


def exact_values(deal: Deal, solver: Solver) -> Exact | None:
    """Every legal action's exact value for the mover, or None where the solver does not
    cover the position (or no real choice is left)."""
    if deal.is_over() or deal.to_move is None or len(deal.legal_actions()) < 2:
        return None
    try:
        if not solver.covers(deal):
            return None
        found = solver.analyze(deal, hero=_hero(deal))
    except TuteError:
        return None
    sign = _sign(deal)
    return Exact({a: sign * v for a, v in found.actions})


def unique_best(exact: Exact, margin: int) -> str | None:
    """The one action that keeps the value when every other loses at least ``margin``."""
    ranked = sorted(exact.values.items(), key=lambda kv: -kv[1])
    if len(ranked) < 2 or ranked[0][1] - ranked[1][1] < margin:
        return None
    return ranked[0][0]


def view_check(view: SeatView, solver: Solver, worlds: int, rng: random.Random) -> ViewCheck:
    """Sample ``worlds`` worlds consistent with ``view`` and solve each one exactly."""
    from ..worlds import WorldSampler

    sampler = WorldSampler(view)
    sums: dict[str, float] = {}
    best_in: dict[str, int] = {}
    done = 0
    for _ in range(worlds):
        world = sampler.deal(rng)
        exact = exact_values(world, solver)
        if exact is None:
            continue
        done += 1
        top = exact.best
        for a, v in exact.values.items():
            sums[a] = sums.get(a, 0.0) + v
            if v == top:
                best_in[a] = best_in.get(a, 0) + 1
    means = {a: s / done for a, s in sums.items()} if done else {}
    return ViewCheck(done, means, best_in)
