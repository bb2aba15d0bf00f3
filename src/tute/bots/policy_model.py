"""A model of how a seat plays: the ``rules`` bot made stochastic.

:class:`PolicyModel` gives, for a seat's view and its legal actions, the probability of each
action: a softmax over the rules bot's own preferences (:meth:`RulesBot.preferences`, in
points) at ``temperature`` points, mixed with a uniform ``floor`` so that no legal action is
impossible -- the seats it models are not rules bots, and one surprising card must lower a
world's weight, not erase it. World inference (:mod:`tute.bots.inference`) scores a world by
the probabilities of the actions the other seats were seen to play in it.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence

from ..actions import Action
from ..deal import SeatView
from ..errors import TuteError
from .rules_bot import RulesBot

__all__ = ["PolicyModel"]


class PolicyModel:
    """P(action | a seat's view): softmax of the rules bot's preferences, with a floor."""

    def __init__(self, temperature: float = 2.0, floor: float = 0.05):
        for key, value, top in (("temperature", temperature, 1000.0), ("floor", floor, 1.0)):
            if isinstance(value, bool) or not isinstance(value, int | float) or not (
                    0 < value <= top):
                raise TuteError(f"invalid {key} {value!r}: expected a number in (0, {top:g}]")
        self.temperature = float(temperature)
        self.floor = float(floor)
        self._bot = RulesBot(seed=0)  # deterministic: preferences use no randomness

    def probabilities(self, view: SeatView, legal: Sequence[Action],
                      public: Hashable | None = None) -> list[float]:
        """The probability of each action of ``legal`` (in its order), summing to 1.
        ``public``: a key of the public record so far, for views of one record to share
        work (:meth:`RulesBot.preferences`)."""
        n = len(legal)
        if n == 1:
            return [1.0]
        prefs = self._bot.preferences(view, legal, public)
        top = max(prefs)
        t = self.temperature
        exps = [math.exp((p - top) / t) for p in prefs]
        total = sum(exps)
        keep = 1.0 - self.floor
        even = self.floor / n
        return [keep * e / total + even for e in exps]

    def log_prob(self, view: SeatView, legal: Sequence[Action], action: Action,
                 public: Hashable | None = None) -> float:
        """``log P(action)``; ``action`` must be one of ``legal``."""
        if len(legal) == 1:
            return 0.0
        probs = self.probabilities(view, legal, public)
        try:
            return math.log(probs[list(legal).index(action)])
        except ValueError:
            raise TuteError(f"action {action!s} is not among the legal actions") from None
