"""The random bot: a uniformly random legal action."""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action
from ..deal import SeatView
from .base import Bot, register


@register("random", "plays a uniformly random legal action")
class RandomBot(Bot):
    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]
