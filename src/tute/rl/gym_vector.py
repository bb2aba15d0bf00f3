""":class:`TuteVectorEnv`: the Gymnasium ``VectorEnv`` face of :class:`tute.rl.vector.VectorEnv`.

Self-play: every row is the observation of the seat to move in that game (``infos["to_move"]``),
and ``rewards[i]`` is what the seat that just acted in game ``i`` got (non-zero only on the
step that ends its deal); every seat's reward of a finished deal is in
``infos["seat_rewards"]`` (one column per seat), the legal actions in
``infos["action_mask"]``. A finished game is dealt again in the same step (Gymnasium's
``AutoresetMode.SAME_STEP``); its final observation is not kept, since no seat acts on it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector import VectorEnv as GymVectorEnv
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from .vector import VectorEnv

__all__ = ["TuteVectorEnv"]


class TuteVectorEnv(GymVectorEnv[NDArray[np.float32], NDArray[np.int64],
                                 NDArray[np.float64]]):
    """``num_envs`` games of ``variant`` (one :class:`~tute.rl.vector.VectorEnv` plays) as one
    Gymnasium vector env."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(self, variant: str = "tute_parejas", num_envs: int = 1, **kwargs: Any):
        self.batched = VectorEnv(variant, num_envs, **kwargs)
        self.num_envs = num_envs
        size = self.batched.observation_size
        self.single_observation_space = spaces.Box(0.0, 1.0, (size,), np.float32)
        self.single_action_space = spaces.Discrete(self.batched.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._truncated = np.zeros(num_envs, np.bool_)

    def _infos(self, seats: NDArray[np.int64] | None = None) -> dict[str, Any]:
        b = self.batched
        return {"action_mask": b.masks, "to_move": b.to_move,
                "seat_rewards": b.rewards, "deal_seed": b.deal_seeds}

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[NDArray[np.float32],
                                                             dict[str, Any]]:
        obs, _masks = self.batched.reset(seed)
        return obs, self._infos()

    def step(self, actions: Any) -> tuple[NDArray[np.float32], NDArray[np.float64],  # type: ignore[override]
                                          NDArray[np.bool_], NDArray[np.bool_],
                                          dict[str, Any]]:
        b = self.batched
        actors = b.to_move
        obs, rewards, done, _masks = b.step(actions)
        mine = rewards[np.arange(self.num_envs), actors]
        return obs, mine, done.copy(), self._truncated, self._infos()
