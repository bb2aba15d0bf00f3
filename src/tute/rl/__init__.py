"""Tute for reinforcement learning and game theory (docs/rl.md).

``tute.rl.env(variant, **options)`` is a PettingZoo AEC environment, ``tute.rl.gym_env`` a
Gymnasium single-agent wrapper, ``tute.rl.openspiel`` registers ``python_tute`` with OpenSpiel.
Nothing here imports numpy, PettingZoo or Gymnasium until it is used, so ``import tute.rl``
works without the ``rl`` extra installed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .encoding import ActionCatalogue, Layout, SeatEncoder, encode_view
    from .pettingzoo_env import TuteEnv

__all__ = ["ActionCatalogue", "Layout", "SeatEncoder", "TuteEnv", "encode_view", "env",
           "generate", "gym_env", "raw_env"]

_LAZY = {"ActionCatalogue": "encoding", "Layout": "encoding", "SeatEncoder": "encoding",
         "encode_view": "encoding", "TuteEnv": "pettingzoo_env", "raw_env": "pettingzoo_env",
         "gym_env": "gym_env", "generate": "generate"}


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
