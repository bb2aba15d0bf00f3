"""Worlds: what a seat knows of the hidden cards, and exact uniform sampling of the full
positions consistent with it (for search bots: sample worlds, solve each, vote).

- :func:`knowledge_of` (:mod:`tute.worlds.knowledge`): per hidden card the places that may hold
  it, per place how many hidden cards it holds, from the seat's view (and its event log).
- :class:`WorldSampler` (:mod:`tute.worlds.sampler`): counts the consistent worlds exactly and
  samples them uniformly; :meth:`WorldSampler.deal` replays the public record on a sampled
  world and returns a :class:`~tute.Deal` with every hand known, at the view's point of play.
"""

from __future__ import annotations

from .knowledge import DISCARD, STOCK, WIDOW, Forbid, Knowledge, Place, knowledge_of
from .sampler import World, WorldSampler, build_deal, count_worlds, line_count, sample_world

__all__ = [
    "DISCARD",
    "STOCK",
    "WIDOW",
    "Forbid",
    "Knowledge",
    "Place",
    "World",
    "WorldSampler",
    "build_deal",
    "count_worlds",
    "knowledge_of",
    "line_count",
    "sample_world",
]
