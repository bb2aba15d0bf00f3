"""Tute as a PettingZoo AEC environment: ``tute.rl.env("tute_parejas", **options)``.

Agents ``player_0``.. are the seats. Each observation is ``{"observation": float32 vector in
[0, 1], "action_mask": int8 vector}``, built from that seat's view only (docs/rl.md has the
layout); the action space is one fixed ``Discrete`` per game (cards are 0..39). Rewards come
when the deal (``reward="deal"``: its point margin, scaled) or the match (``reward="match"``:
+1 / -1) ends. An illegal action raises :class:`~tute.errors.IllegalActionError` and changes
nothing.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..errors import IllegalActionError, InvalidOptionError, TuteError
from ..shuffle import MAX_SEED
from ..views import SeatView
from .table import Table

__all__ = ["TuteEnv", "env", "raw_env"]

RENDER_MODES = ("ansi", "human")


# pettingzoo ships no type information: its classes are Any to mypy
class TuteEnv(AECEnv[str, dict[str, NDArray[Any]], int]):  # type: ignore[misc]
    """One game of the Tute family for every seat (agent ``player_<seat>``)."""

    metadata: dict[str, Any] = {  # noqa: RUF012  (set per instance: the name)"render_modes": list(RENDER_MODES),
                                          "name": "tute_v0", "is_parallelizable": False,
                                          "render_fps": 1}

    def __init__(self, variant: str = "tute_parejas", *, reward: str = "deal",
                 reward_scale: float | None = None, render_mode: str | None = None,
                 **options: Any):
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise InvalidOptionError(f"invalid value {render_mode!r} for option 'render_mode': "
                                     "expected None, 'ansi' or 'human'")
        self.table = Table(variant, reward=reward, reward_scale=reward_scale, **options)
        self.render_mode = render_mode
        n = self.table.n
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        size, count = self.table.layout.size, self.table.num_actions
        space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (count,), np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(count) for a in self.possible_agents}
        self.metadata = {**self.metadata, "name": f"{self.table.variant.id}_v0"}
        self._rng = random.Random()
        self.agents: list[str] = []

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def actions(self) -> tuple[str, ...]:
        """The notation of every action id (``actions[i]`` is what id ``i`` plays)."""
        return self.table.catalogue.names

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new deal (match). ``seed`` seeds the sequence of deals; ``options`` may hold
        ``deal_seed`` (0..2**64-1) to play one given deal and ``dealer``; other keys are
        PettingZoo's business and ignored. A bad ``deal_seed`` or ``dealer`` raises
        :class:`~tute.errors.InvalidOptionError` naming it and changes nothing."""
        deal_seed, dealer = self.table.reset_options(options)
        rng = self._rng if seed is None else random.Random(seed)
        if deal_seed is None:
            deal_seed = rng.randrange(MAX_SEED + 1)
        self.table.new(deal_seed, dealer)
        self._rng = rng
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._agent(self.table.to_move)
        if self.render_mode == "human":  # shown on reset and after every step
            self.render()

    def _agent(self, seat: int | None) -> str:
        return self.possible_agents[0 if seat is None else seat]

    def _seat(self, agent: str) -> int:
        seat = self.agent_name_mapping.get(agent)
        if seat is None:
            raise TuteError(f"unknown agent {agent!r}; agents: {', '.join(self.possible_agents)}")
        return seat

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        seat = self._seat(agent)
        return {"observation": self.table.observe(seat),
                "action_mask": self.table.mask(seat)}

    def view(self, agent: str) -> SeatView:
        """``agent``'s seat view (its hand and the public record, nothing hidden from it), for
        the agents of :mod:`tute.rl.zoo` and the bots, which read views, not vectors."""
        return self.table.view(self._seat(agent))

    def step(self, action: Any) -> None:
        if not self.agents:
            raise IllegalActionError(f"illegal action {action!r}: the episode is over "
                                     "(every agent is done); call reset()",
                                     action=repr(action), reason="the episode is over")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalActionError(
                    f"illegal action {action!r} for {agent}: the game is over; a finished "
                    "agent's only step is None", action=repr(action),
                    reason="the game is over")
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"illegal action None for {agent}: it is to move",
                                     action="None")
        table = self.table
        table.apply(action, self._seat(agent))  # raises, changing nothing, if illegal
        self._cumulative_rewards[agent] = 0.0
        if table.is_over():
            for a, r in zip(self.agents, table.returns(), strict=True):
                self.rewards[a] = r
                self.terminations[a] = True
            self._accumulate_rewards()
        else:  # rewards come only at the end: they are all zero until then
            self.agent_selection = self._agent(table.to_move)
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self.table.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(variant: str = "tute_parejas", **kwargs: Any) -> TuteEnv:
    """The environment without PettingZoo's order-enforcing wrapper."""
    return TuteEnv(variant, **kwargs)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper[str, dict[str, NDArray[Any]], int]  # type: ignore[misc]
                      ):
    """PettingZoo's wrapper, except that a step once every agent is done gets the library's
    error (the wrapper itself only logs a warning and ignores the step). Once reset,
    ``step`` and ``last`` go straight to the environment: the same checks, without the
    wrapper's attribute forwarding (two ``__getattr__`` per attribute, five attributes a
    ``last()``), which cost a third of the steps per second."""

    def view(self, agent: str) -> SeatView:
        """The environment's :meth:`TuteEnv.view` (``env.view(agent)`` works wrapped)."""
        return self.env.view(agent)  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        if not self._has_reset:
            super().step(action)  # PettingZoo's error
            return
        self._has_updated = True
        self.env.step(action)  # once every agent is done: raises IllegalActionError

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            return super().last(observe)  # type: ignore[no-any-return]  # PettingZoo's error
        return self.env.last(observe)  # type: ignore[no-any-return]


def env(variant: str = "tute_parejas", **kwargs: Any) -> Any:
    """The environment in PettingZoo's order-enforcing wrapper (the usual way to get one)."""
    return _OrderEnforcing(raw_env(variant, **kwargs))
