"""The bot protocol and the registry of bots by name and by level."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import Action
from ..deal import SeatView
from ..errors import TuteError

__all__ = ["BOTS", "LEVELS", "Bot", "BotInfo", "make_bot", "register"]


class Bot:
    """Base class: ``choose(view, legal)`` returns one of ``legal``.

    Bots are seeded and deterministic given their seed: all randomness comes from
    ``self.rng``. A bot may keep memory between calls (e.g. of the cards it has seen), but
    only from what its views showed it; ``reset()`` is called before each new deal.
    """

    name = "bot"
    description = ""

    def __init__(self, seed: int | None = None, **settings: Any):
        self.seed = seed
        self.rng = random.Random(seed)
        self.settings = settings

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        raise NotImplementedError

    def reset(self) -> None:
        """Forget everything about the previous deal."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seed={self.seed}>"


@dataclass(frozen=True)
class BotInfo:
    name: str
    description: str
    factory: Callable[..., Bot]


BOTS: dict[str, BotInfo] = {}

#: Playing levels offered to people: name -> (bot name, settings). ``dificil`` points at the
#: rules bot until the search bots exist; re-point it here (one line) when they do.
LEVELS: dict[str, tuple[str, dict[str, Any]]] = {
    "facil": ("random", {}),
    "medio": ("rules", {}),
    "dificil": ("rules", {}),
}


def register(name: str, description: str) -> Callable[[type[Bot]], type[Bot]]:
    """Class decorator adding a bot to :data:`BOTS` under ``name``."""

    def deco(cls: type[Bot]) -> type[Bot]:
        cls.name = name
        cls.description = description
        BOTS[name] = BotInfo(name, description, cls)
        return cls

    return deco


def make_bot(name: str, seed: int | None = None, **settings: Any) -> Bot:
    """A bot by registry name (``random``, ``rules``, …) or by level (``facil``, ``medio``,
    ``dificil``); raises :class:`TuteError` listing the valid names."""
    key = name.strip().lower().replace("á", "a").replace("í", "i")
    if key in LEVELS and key not in BOTS:
        bot_name, level_settings = LEVELS[key]
        return BOTS[bot_name].factory(seed=seed, **{**level_settings, **settings})
    info = BOTS.get(key)
    if info is None:
        raise TuteError(
            f"unknown bot {name!r}; valid bots: {', '.join(sorted(BOTS))}; "
            f"levels: {', '.join(LEVELS)}"
        )
    return info.factory(seed=seed, **settings)
