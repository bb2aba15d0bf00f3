"""Information-set Monte Carlo tree search (``ismcts``): a search baseline for every game.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): each iteration samples one world
consistent with the seat's view (:mod:`tute.worlds`), walks the tree of action sequences from
the current decision choosing among the actions legal *in that world* by UCB1 with availability
counts, adds one node, plays the deal out with random moves and credits every node on the path
with the result for the player who chose there. The tree is shared by all worlds, so its
statistics average over what the seat cannot see. Anytime under ``move_time`` seconds.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..actions import Action
from .base import register
from .pimc import _SearchBot, objective

if TYPE_CHECKING:
    from ..deal import Deal, SeatView

__all__ = ["IsmctsBot"]

_SCALE = 100.0  # points of margin per unit of reward: UCB's constant is tuned to it


class _Node:
    __slots__ = ("available", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0  # summed, for the player who chose the action leading here


@register("ismcts", "information-set Monte Carlo tree search over sampled worlds with "
                    "random playouts; move_time seconds per move")
class IsmctsBot(_SearchBot):
    def __init__(self, seed: int | None = None, move_time: float = 1.0,
                 exploration: float = 0.7, **settings: Any):
        super().__init__(seed=seed, move_time=move_time, **settings)
        if isinstance(exploration, bool) or not isinstance(exploration, int | float) or not (
                0 <= exploration <= 10):
            from ..errors import TuteError

            raise TuteError(f"invalid exploration {exploration!r}: expected 0..10")
        self.exploration = float(exploration)

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        from ..worlds import WorldSampler

        deadline = time.perf_counter() + self.move_time
        sampler = WorldSampler(view)
        root = _Node()
        n = 0
        while n < self.max_worlds and (n == 0 or time.perf_counter() < deadline):
            self._iterate(root, sampler.deal(self.rng))
            n += 1
        self.last_worlds = n
        by_text = {str(a): a for a in legal}
        best = max((k for k in root.children if k in by_text),
                   key=lambda k: root.children[k].visits)
        return by_text[best]

    def _iterate(self, root: _Node, world: Deal) -> None:
        path: list[tuple[_Node, int]] = []  # (node, the seat that chose the action into it)
        node = root
        while not world.is_over():
            mover = world.to_move
            assert mover is not None
            actions = world.legal_actions()
            keys = [str(a) for a in actions]
            for k in keys:
                child = node.children.get(k)
                if child is not None:
                    child.available += 1
            fresh = [i for i, k in enumerate(keys) if k not in node.children]
            if fresh:
                i = fresh[self.rng.randrange(len(fresh))]
                child = node.children[keys[i]] = _Node()
                child.available = 1
                world.apply(actions[i])
                path.append((child, mover))
                break
            i = max(range(len(keys)), key=lambda j: self._ucb(node.children[keys[j]]))
            node = node.children[keys[i]]
            world.apply(actions[i])
            path.append((node, mover))
        while not world.is_over():  # random playout
            actions = world.legal_actions()
            world.apply(actions[self.rng.randrange(len(actions))])
        values: dict[int, float] = {}
        for child, mover in path:
            if mover not in values:
                values[mover] = objective(world, mover) / _SCALE
            child.visits += 1
            child.reward += values[mover]

    def _ucb(self, node: _Node) -> float:
        return (node.reward / node.visits
                + self.exploration * math.sqrt(math.log(max(node.available, 1)) / node.visits))
