"""Random playouts in numba: every legal action (cards, declarations, passes) equally likely,
like the core's random bot, from any card-play position of the kernel."""

from __future__ import annotations

import numpy as np
from numba import njit

from ._core import apply_action, legal_actions, legal_mask_state, nth_bit, play_card, popcount
from ._tables import (
    C_N,
    C_OBJ0,
    S_CANTE0,
    S_LASTSIDE,
    S_OVER,
    S_POLL,
    S_PTS0,
    S_TOMOVE,
    S_TUTESEAT,
    S_WINDOW,
)


@njit(cache=True)
def _xorshift(x: np.uint64) -> np.uint64:
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    return x


@njit(cache=True)
def final_margin(st: np.ndarray, cfg: np.ndarray) -> int:
    """Objective side 0's total minus side 1's at the end (a tute counts as +-1000, see
    tute.solver): side 0's total minus side 1's with two sides; with more (arrastrado) the
    hero's total minus the other seats' combined (``C_OBJ*``)."""
    if st[S_TUTESEAT] >= 0:
        return 1000 if cfg[C_OBJ0 + st[S_TUTESEAT]] == 0 else -1000
    m = 0
    # rule side s holds seat s (seats s and s + 2 with partners): its objective side is seat s's
    for s in range(cfg[C_N]):
        sgn = 1 if cfg[C_OBJ0 + s] == 0 else -1
        m += sgn * (st[S_PTS0 + s] + st[S_CANTE0 + s])
    if st[S_LASTSIDE] >= 0:
        m += 10 if cfg[C_OBJ0 + st[S_LASTSIDE]] == 0 else -10
    return m


@njit(cache=True)
def playout(st: np.ndarray, cfg: np.ndarray, rng: np.ndarray, buf: np.ndarray) -> int:
    """Play ``st`` to the end with uniformly random actions; return the number of actions.

    ``rng`` holds one uint64 xorshift state, advanced in place.
    """
    x = rng[0]
    k = 0
    while st[S_OVER] == 0:
        x = _xorshift(x)
        r = x >> np.uint64(32)
        seat = st[S_TOMOVE]
        if st[S_POLL] >= 0 or (st[S_WINDOW] >> seat) & 1:
            n = legal_actions(st, cfg, buf)
            # multiply-shift maps 32 random bits to 0..n-1 without a division
            i = (r * np.uint64(n)) >> np.uint64(32)
            apply_action(st, cfg, buf[np.int64(i)])
        else:  # the common case: straight from the legal mask, no action list
            m = legal_mask_state(st, cfg)
            i = (r * np.uint64(popcount(m))) >> np.uint64(32)
            play_card(st, cfg, nth_bit(m, np.int64(i)))
        k += 1
    rng[0] = x
    return k


@njit(cache=True)
def playout_batch(starts: np.ndarray, cfgs: np.ndarray, reps: int, seed: int) -> np.ndarray:
    """Play every start state ``reps`` times; return [deals, actions, sum of margins]."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed * 2654435761 + 88172645463325252)
    buf = np.empty(64, dtype=np.int64)
    st = np.empty(starts.shape[1], dtype=np.int64)
    out = np.zeros(3, dtype=np.int64)
    for _ in range(reps):
        for d in range(starts.shape[0]):
            st[:] = starts[d]
            cfg = cfgs[d]
            out[1] += playout(st, cfg, rng, buf)
            out[2] += final_margin(st, cfg)
            out[0] += 1
    return out
