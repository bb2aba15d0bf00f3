"""The bot protocol and the registry of bots by name and by level."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import Action
from ..deal import SeatView
from ..errors import TuteError

__all__ = ["BOTS", "LEVELS", "PLUGINS", "Bot", "BotInfo", "make_bot", "parse_spec", "register"]


class Bot:
    """Base class: ``choose(view, legal)`` returns one of ``legal``.

    Bots are seeded and deterministic given their seed: all randomness comes from
    ``self.rng``. A bot may keep memory between calls (e.g. of the cards it has seen), but
    only from what its views showed it; ``reset()`` is called before each new deal.
    """

    name = "bot"
    description = ""
    label = "bot"  # how it was asked for ("pimc:move_time=0.5", "medio"): arenas report by it

    def __init__(self, seed: int | None = None, **settings: Any):
        if settings:  # a subclass takes its own settings as keywords; what is left is unknown
            raise TuteError(f"bot {self.name!r} has no setting "
                            f"{', '.join(repr(k) for k in settings)}")
        self.seed = seed
        self.rng = random.Random(seed)

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
    at_table: bool = True  # False: analysis only (it needs the deal), never offered to play


BOTS: dict[str, BotInfo] = {}

#: Playing levels offered to people: name -> (bot name, settings). The search levels think
#: about a second (difícil) or three (maestro) a move; servers run them in worker processes.
LEVELS: dict[str, tuple[str, dict[str, Any]]] = {
    "facil": ("rules", {"noise": 0.5}),
    "medio": ("rules", {}),
    "dificil": ("pimc", {"move_time": 1.0, "tolerance": 8}),
    "maestro": ("pimc", {"move_time": 3.0}),
}


#: Bots that live above this package (they need an optional library), by the module that
#: registers them on import: ``make_bot`` imports it the first time one is asked for.
PLUGINS: dict[str, tuple[str, str]] = {
    "openspiel_ismcts": ("tute.rl.openspiel", "open-spiel (pip install 'tute[rl]')"),
}


def register(name: str, description: str,
             at_table: bool = True) -> Callable[[type[Bot]], type[Bot]]:
    """Class decorator adding a bot to :data:`BOTS` under ``name``."""

    def deco(cls: type[Bot]) -> type[Bot]:
        cls.name = name
        cls.description = description
        BOTS[name] = BotInfo(name, description, cls, at_table)
        return cls

    return deco


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"pimc:move_time=0.5:worlds=50"`` -> ``("pimc", {"move_time": 0.5, "worlds": 50})``:
    a bot's name and its settings, numbers and booleans read as such. A bot with a
    ``positional`` setting takes its value bare first: ``"policy:runs/p.npz"`` ->
    ``("policy", {"file": "runs/p.npz"})``."""
    name, *parts = spec.split(":")
    settings: dict[str, Any] = {}
    info = BOTS.get(name.strip().lower())
    positional = getattr(info.factory, "positional", None) if info is not None else None
    for i, part in enumerate(parts):
        key, eq, raw = part.partition("=")
        key = key.strip()
        if i == 0 and positional and (not eq or not key.isidentifier()):
            settings[positional] = part.strip()  # a path, kept as text
            continue
        if not eq or not key.isidentifier():
            raise TuteError(f"invalid bot setting {part[:40]!r} in {spec[:60]!r}: "
                            "expected name:key=value[:key=value...]")
        settings[key] = _value(raw.strip())
    return name, settings


def _value(raw: str) -> Any:
    low = raw.lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            pass
    return raw


def make_bot(name: str, seed: int | None = None, **settings: Any) -> Bot:
    """A bot by registry name (``random``, ``rules``, …) or by level (``facil``, ``medio``,
    ``dificil``), with settings after the name (``pimc:move_time=0.5``); raises
    :class:`TuteError` listing the valid names or naming the bad setting."""
    spec = name
    name, spec_settings = parse_spec(name)
    settings = {**spec_settings, **settings}
    key = name.strip().lower().replace("á", "a").replace("í", "i")
    if key in LEVELS and key not in BOTS:
        bot_name, level_settings = LEVELS[key]
        return _build(BOTS[bot_name], seed, {**level_settings, **settings}, spec)
    if key not in BOTS and key in PLUGINS:
        module, needs = PLUGINS[key]
        try:
            importlib.import_module(module)
        except ImportError:
            raise TuteError(f"bot {key!r} needs {needs}") from None
    info = BOTS.get(key)
    if info is None:
        # "pimc:move_time=1,tt_mb=32" in a list of bots: the comma made a bot of a setting
        joined = (" (one bot's settings are joined by ':', e.g. "
                  "pimc:move_time=0.5:tt_mb=32)" if "=" in name else "")
        raise TuteError(
            f"unknown bot {name[:40]!r}{joined}; valid bots: "
            f"{', '.join(sorted({*BOTS, *PLUGINS}))}; levels: {', '.join(LEVELS)}"
        )
    return _build(info, seed, settings, spec)


def _build(info: BotInfo, seed: int | None, settings: dict[str, Any], spec: str) -> Bot:
    try:
        bot = info.factory(seed=seed, **settings)
    except TypeError as exc:  # a misused keyword: name the bot and what it was given
        raise TuteError(f"invalid settings for bot {info.name!r}: {exc}") from None
    bot.label = spec.strip()
    return bot
