"""One home for each game: what makes a game of the family different lives in its module.

The registry maps a variant to its :class:`Game` (one instance per variant, built on first
use); :mod:`tute.variants` stays the registry of ids, aliases and options.
"""

from __future__ import annotations

from typing import Final

from ..variants import Variant, find_variant
from .arrastrado import Arrastrado
from .base import Game
from .cabron import Cabron
from .parejas import Parejas
from .stock import Guinote, Stock
from .subastado import Subastado

__all__ = ["GAMES", "Game", "game_for"]

#: the game class of each variant id
GAMES: Final[dict[str, type[Game]]] = {
    "tute_parejas": Parejas,
    "tute_2p_habanero": Stock,
    "tute_2p_corriente": Stock,
    "guinote": Guinote,
    "guinote_2p": Guinote,
    "tute_arrastrado_3p": Arrastrado,
    "tute_subastado": Subastado,
    "tute_cabron": Cabron,
}

_BUILT: dict[str, Game] = {}


def game_for(variant: str | Variant) -> Game:
    """The game of a variant (an id, an alias or a :class:`Variant`)."""
    var = find_variant(variant)
    game = _BUILT.get(var.id)
    if game is None or game.variant is not var:
        game = _BUILT[var.id] = GAMES[var.id](var)
    return game
