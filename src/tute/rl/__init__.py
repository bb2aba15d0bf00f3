"""Tute for reinforcement learning and game theory (docs/rl.md).

``tute.rl.env(variant, **options)`` is a PettingZoo AEC environment, ``tute.rl.TuteGymEnv`` a
Gymnasium single-agent wrapper (module ``tute.rl.gym_env``), ``tute.rl.generate`` batched
self-play data, ``tute.rl.openspiel`` registers ``python_tute`` with OpenSpiel,
``tute.rl.VectorEnv`` steps N games (parejas, arrastrado, the stock games) in one numba call
(``TuteVectorEnv`` its Gymnasium vector face) and ``tute.rl.TextEnv`` is a seat in words, for
language models.
Nothing here imports numpy, PettingZoo or Gymnasium until it is used, so ``import tute.rl``
works without the ``rl`` extra installed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .encoding import ActionCatalogue, Layout, SeatEncoder, TableEncoder, encode_view
    from .gym_env import TuteGymEnv
    from .gym_vector import TuteVectorEnv
    from .pettingzoo_env import TuteEnv, raw_env
    from .selfplay import generate
    from .table import Table
    from .text_env import TextEnv
    from .vector import VectorEnv

__all__ = [
    "ActionCatalogue",
    "Layout",
    "SeatEncoder",
    "Table",
    "TableEncoder",
    "TextEnv",
    "TuteEnv",
    "TuteGymEnv",
    "TuteVectorEnv",
    "VectorEnv",
    "encode_view",
    "env",
    "generate",
    "raw_env",
]

_LAZY = {"ActionCatalogue": "encoding", "Layout": "encoding", "SeatEncoder": "encoding",
         "TableEncoder": "encoding", "encode_view": "encoding", "Table": "table",
         "TuteEnv": "pettingzoo_env", "raw_env": "pettingzoo_env", "TuteGymEnv": "gym_env",
         "generate": "selfplay", "VectorEnv": "vector", "TuteVectorEnv": "gym_vector",
         "TextEnv": "text_env"}


def env(variant: str = "tute_parejas", **kwargs: Any) -> Any:
    """A PettingZoo AEC environment of ``variant`` (wrapped in PettingZoo's order checks);
    keywords: ``reward="deal"|"match"``, ``reward_scale``, ``render_mode``, and the game's
    options (``partner_exemption=True``...)."""
    from .pettingzoo_env import env as make

    return make(variant, **kwargs)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'tute.rl' has no attribute {name!r}")
    import importlib

    mod = importlib.import_module(f".{module}", __name__)
    return getattr(mod, name)
