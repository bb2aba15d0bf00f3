"""Every world consistent with a seat's view, listed, when they are few.

Late in a deal (the last tricks of Tute por parejas, the arrastre of the two-player games) the
worlds a search bot would sample number in the tens: valuing each of them once beats sampling
them with repeats. :func:`enumerate_worlds` lists them -- the assignments of the hidden cards
to the places that may hold them, each place filled to its capacity, every one replayed on
the record (a pair condition or anything the tables leave to the replay refuses the rest) --
or answers None when there are more than ``cap``, or when the worlds differ in ways a list of
hands does not show (the stock's order, the draw histories), except where those histories all
lead to the same position: then the one position stands for them all.
"""

from __future__ import annotations

import random

from ..deal import Deal
from .knowledge import STOCK, Interval, Place
from .sampler import WorldSampler, _replay, _world

__all__ = ["enumerate_worlds"]


def enumerate_worlds(sampler: WorldSampler, cap: int) -> list[Deal] | None:
    """The consistent worlds of ``sampler``'s view, each as a :class:`~tute.Deal` at the
    view's point of play, in a fixed order; None if there are more than ``cap`` (counted
    exactly, or bounded by the sampler's count) or they cannot be listed as hands.

    In the stock games with no stock left and every hidden card's holder known (the arrastre
    of two players), the worlds differ only in their draw histories: one world is returned,
    the position they share."""
    k = sampler.knowledge
    if k.stock_game:
        if k.capacity.get(STOCK, 0) or any(len(d) != 1 for d in k.domains.values()):
            return None
        return [sampler.deal(random.Random(0))]  # the history drawn is immaterial here
    if sampler.count() > cap:
        return None
    cards = sorted(k.domains, key=lambda c: (len(k.domains[c]), c))
    room = {p: n for p, n in k.capacity.items() if n}
    out: list[Deal] = []
    where: dict[int, tuple[Place, Interval]] = {}
    # the count may hold worlds the replay refuses: list at most a few times the cap
    budget = [max(4 * cap, 64)]

    def rec(i: int) -> bool:
        if i == len(cards):
            budget[0] -= 1
            world = _world(k, dict(where), {}, random.Random(0))
            deal = _replay(k, world, sampler._script)
            if deal is not None:
                out.append(deal)
            return len(out) <= cap and budget[0] > 0
        c = cards[i]
        for place, iv in k.domains[c].items():
            if room.get(place, 0) <= 0:
                continue
            room[place] -= 1
            where[c] = (place, iv)
            ok = rec(i + 1)
            del where[c]
            room[place] += 1
            if not ok:
                return False
        return True

    if not rec(0) or not out or len(out) > cap:
        return None
    return out
