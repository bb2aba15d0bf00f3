"""Worlds weighted by how likely the other seats' actions were in them.

A world sampled uniformly from a seat's view (:mod:`tute.worlds`) is consistent with the
record: every card played was legal in it. It is not equally *likely*: a partner who threw
a blank 4 on an opponent's ace more probably had no points to smear than held the 3 and the
king. :func:`log_likelihood` replays a world's actions and adds, for every decision another
seat made with a choice, the log of the probability a :class:`PolicyModel` gives the action
that seat was seen to take, from that seat's view *in that world* (its hand there, the public
record then). The observer's own actions weigh the same in every world and are left out.

:class:`WorldSource` feeds a search those worlds: uniform draws (no model), weighted draws
(sampling-importance-resampling: ``oversample`` candidates per world wanted, each scored,
then resampled with replacement by weight; a world drawn twice is valued once, with twice
the weight), or -- where the consistent worlds are few -- every one of them
(:func:`tute.worlds.enumeration.enumerate_worlds`), each with its likelihood as its weight.
Everything is read from the seat's view and the worlds built from it: the real deal's hidden
cards are never seen.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator

from ..actions import Action
from ..deal import Deal, SeatView
from ..worlds import WorldSampler
from ..worlds.enumeration import enumerate_worlds
from .policy_model import PolicyModel

__all__ = ["WorldSource", "log_likelihood"]


def log_likelihood(world: Deal, observer: int, model: PolicyModel,
                   cache: dict[tuple[int, int, int, tuple[Action, ...]], float] | None = None
                   ) -> float:
    """The sum of ``log P(action)`` under ``model`` over the actions of the seats other than
    ``observer`` that had a choice, replaying ``world`` from its deal to its present.

    ``cache`` (shared by the worlds of one decision) keeps each decision's log-probability by
    the record before it, the seat and that seat's hand: worlds that agree on a seat's hand
    at a moment do not score that moment twice."""
    actions = world.actions
    # a key for every prefix of the record (worlds may differ in their hidden actions)
    prefix = [0] * (len(actions) + 1)
    h = 0
    for i, a in enumerate(actions):
        h = hash((h, a))
        prefix[i + 1] = h
    d = world.copy()
    total = 0.0
    for i in range(len(actions) - 1, -1, -1):
        act = d.undo()
        seat = d.to_move
        if seat is None or seat == observer:
            continue
        legal = d.legal_actions()
        if len(legal) < 2:
            continue
        # the legal actions too: a right kept or lost may hang on a hidden draw history
        key = (prefix[i], seat, d.hand(seat).mask, tuple(legal))
        got = cache.get(key) if cache is not None else None
        if got is None:
            got = model.log_prob(d.view(seat, history=False), legal, act, prefix[i])
            if cache is not None:
                cache[key] = got
        total += got
    return total


class WorldSource:
    """The worlds one decision values, with their weights: :meth:`next` gives a world and its
    weight, or None once a finite list is spent.

    - ``model`` None and no list: uniform draws, weight 1 (today's ``pimc``);
    - ``model`` given: batches of ``batch`` weighted draws, each batch resampled from
      ``oversample * batch`` uniform candidates by their likelihood;
    - ``exact_below`` > 0 and at most that many consistent worlds: every one, once, weighted
      by its likelihood under ``model`` (1 without one)."""

    def __init__(self, view: SeatView, sampler: WorldSampler | None = None, *,
                 model: PolicyModel | None = None, oversample: int = 4, batch: int = 8,
                 exact_below: int = 0, deadline: float = math.inf):
        self.view = view
        self.sampler = sampler if sampler is not None else WorldSampler(view)
        self.model = model
        self.oversample = max(1, oversample)
        self.batch = max(1, batch)
        # weighted batches start small and double up to ``batch``: the first world comes
        # after a few candidates, not a whole batch's (a short clock)
        self._next_batch = min(2, self.batch)
        # no candidate is drawn past it (a batch keeps what it has, one at least): the
        # caller's clock, which a whole batch of candidates might overrun
        self.deadline = deadline
        self.cache: dict[tuple[int, int, int, tuple[Action, ...]], float] = {}
        self.scored = 0  # worlds whose likelihood was computed (for benches)
        self._queue: list[tuple[Deal, float]] = []
        self.listed: list[Deal] | None = None
        if exact_below > 0:
            self.listed = enumerate_worlds(self.sampler, exact_below)
        if self.listed is not None:
            self._queue = list(self._weighted(self.listed))
            self._queue.reverse()  # popped from the end: the listed order

    @property
    def finite(self) -> bool:
        """Whether the worlds are a list that :meth:`next` runs through once."""
        return self.listed is not None

    def _weighted(self, worlds: list[Deal]) -> Iterator[tuple[Deal, float]]:
        if self.model is None or len(worlds) == 1:
            for w in worlds:
                yield w, 1.0
            return
        logs = [self.log_weight(w) for w in worlds]
        top = max(logs)
        for w, lw in zip(worlds, logs, strict=True):
            yield w, math.exp(lw - top)

    def log_weight(self, world: Deal) -> float:
        assert self.model is not None
        self.scored += 1
        return log_likelihood(world, self.view.seat, self.model, self.cache)

    def next(self, rng: random.Random) -> tuple[Deal, float] | None:
        if not self._queue:
            if self.listed is not None:
                return None
            if self.model is None:
                return self.sampler.deal(rng), 1.0
            self._refill(rng)
        return self._queue.pop()

    def _refill(self, rng: random.Random) -> None:
        """Draw ``oversample * size`` candidates (``size`` doubling from 2 to ``batch``; fewer
        once the deadline has passed), resample ``size`` by weight (systematic
        resampling: one uniform, evenly spaced pointers), and queue each distinct world drawn
        with its multiplicity as its weight."""
        size = self._next_batch
        self._next_batch = min(2 * size, self.batch)
        cands: list[Deal] = []
        logs: list[float] = []
        while len(cands) < self.oversample * size and (
                not cands or time.perf_counter() < self.deadline):
            cands.append(self.sampler.deal(rng))
            logs.append(self.log_weight(cands[-1]))
        top = max(logs)
        weights = [math.exp(lw - top) for lw in logs]
        total = sum(weights)
        step = total / size
        u = rng.random() * step
        counts = [0] * len(cands)
        acc = 0.0
        j = 0
        for k in range(size):
            target = u + k * step
            while j < len(cands) - 1 and acc + weights[j] < target:
                acc += weights[j]
                j += 1
            counts[j] += 1
        picked = [(cands[i], float(c)) for i, c in enumerate(counts) if c]
        picked.reverse()
        self._queue = picked
