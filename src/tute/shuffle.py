"""The documented, reproducible shuffle (docs/shuffle.md).

Same seed, same pack ⇒ the same order on every machine and Python version: the generator is
CPython's Mersenne Twister seeded with a non-negative integer (``random.Random(seed)``, whose
integer seeding and ``getrandbits`` have been stable since Python 3.2), and the shuffle is our
own Fisher–Yates with rejection sampling, so it does not depend on ``random.shuffle``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

__all__ = ["MAX_SEED", "derive_seed", "new_seed", "randbelow", "shuffled"]

MAX_SEED = 2**64 - 1
_MASK64 = 2**64 - 1


def randbelow(rng: random.Random, n: int) -> int:
    """Uniform integer in ``[0, n)``: draw ``n.bit_length()`` bits until the value is below n."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffled(seed: int, cards: Sequence[int]) -> list[int]:
    """Fisher–Yates from the top: for i = n-1 … 1 swap position i with randbelow(i + 1)."""
    rng = random.Random(seed)
    deck = list(cards)
    for i in range(len(deck) - 1, 0, -1):
        j = randbelow(rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def derive_seed(seed: int, index: int) -> int:
    """SplitMix64 of ``seed + (index + 1) * golden``: independent sub-seeds (match deals,
    the random first dealer) from one seed."""
    z = (seed + (index + 1) * 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def new_seed() -> int:
    """A fresh random seed for a deal nobody asked to reproduce (it is still recorded)."""
    return random.SystemRandom().getrandbits(63)
