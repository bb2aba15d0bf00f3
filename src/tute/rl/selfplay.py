"""Batched self-play data: ``tute.rl.generate("tute_parejas", episodes=1000, jobs=2)``.

Bots (by name, one for every seat or one per seat) play whole deals (matches); every decision
is recorded as the mover's observation, its legal mask, the action id taken and, once the
episode is over, that seat's return (the Monte Carlo target). Episode ``i`` is dealt and its
bots seeded from ``(seed, i)`` alone, so the data do not depend on ``jobs``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..bots import make_bot
from ..errors import InvalidOptionError
from ..shuffle import MAX_SEED
from .encoding import ActionMask, Observation
from .table import Table

__all__ = ["generate"]

FIELDS = ("obs", "mask", "action", "seat", "episode", "reward")


def _episodes(variant: str, first: int, count: int, seed: int, bots: Sequence[str],
              kwargs: dict[str, Any]) -> dict[str, NDArray[Any]]:
    table = Table(variant, **kwargs)
    obs: list[Observation] = []
    masks: list[ActionMask] = []
    acts: list[int] = []
    seats: list[int] = []
    eps: list[int] = []
    rewards: list[float] = []
    for i in range(first, first + count):
        rng = random.Random(f"{seed}:{i}")
        players = [make_bot(bots[s % len(bots)], seed=rng.randrange(2**63))
                   for s in range(table.n)]
        table.new(rng.randrange(MAX_SEED + 1))
        start = len(acts)
        while not table.is_over():
            seat = table.to_move
            assert seat is not None and table.deal is not None
            view = table.deal.view(seat)  # the bot decides from its seat's view
            act = players[seat].choose(view, view.legal_actions)
            aid = table.catalogue.ids([act])[0]
            obs.append(table.observe(seat))
            masks.append(table.mask(seat))
            acts.append(aid)
            seats.append(seat)
            eps.append(i)
            table.apply(aid, seat)
        final = table.returns()
        rewards.extend(final[s] for s in seats[start:])
    size, count_a = table.layout.size, table.num_actions
    return {
        "obs": np.asarray(obs, np.float32).reshape(-1, size),
        "mask": np.asarray(masks, np.int8).reshape(-1, count_a),
        "action": np.asarray(acts, np.int16),
        "seat": np.asarray(seats, np.int8),
        "episode": np.asarray(eps, np.int32),
        "reward": np.asarray(rewards, np.float32),
    }


def generate(variant: str = "tute_parejas", episodes: int = 100, *, jobs: int = 1,
             seed: int = 0, bots: str | Sequence[str] = "random",
             **kwargs: Any) -> dict[str, NDArray[Any]]:
    """Self-play decisions of ``episodes`` deals (``reward="match"``: matches) as arrays
    ``obs`` (N, size) float32, ``mask`` (N, actions) int8, ``action`` (N,) int16, ``seat``,
    ``episode`` and ``reward`` (the seat's return), over ``jobs`` processes."""
    if isinstance(episodes, bool) or not isinstance(episodes, int) or episodes < 1:
        raise InvalidOptionError(f"invalid value {episodes!r} for 'episodes': expected a "
                                 "positive integer")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= 64:
        raise InvalidOptionError(f"invalid value {jobs!r} for 'jobs': expected 1..64")
    names = [bots] if isinstance(bots, str) else list(bots)
    for name in names:
        make_bot(name)  # fail early, naming the valid bots
    Table(variant, **kwargs)  # and on bad options, before any process starts
    if jobs == 1:
        return _episodes(variant, 0, episodes, seed, names, kwargs)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    chunks = [(k * episodes // jobs, (k + 1) * episodes // jobs) for k in range(jobs)]
    # spawn: forked children would share numba's OpenMP state (see tute.solver)
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        parts = list(pool.map(_episodes, *zip(*[
            (variant, a, b - a, seed, names, kwargs) for a, b in chunks if b > a], strict=True)))
    return {k: np.concatenate([p[k] for p in parts]) for k in FIELDS}
